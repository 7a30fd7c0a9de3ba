# Threads, memory and run time of every rule. On SLURM each job asks for --cpus-per-task = threads,
# --mem = mem_mb and --time = runtime (minutes); run locally, Snakemake uses threads (and mem_mb when
# --resources mem_mb=N is given). Every rule declares its own `threads` and `resources`; the helpers
# here compute them from measured costs and the config's sizes.
#
# How the numbers were measured (docs/cluster.md): the quick workflow (config.yaml, --cores 2)
# and a sample of the thesis config's per-fold jobs at reduced selector sizes (one outer fold of each
# chapter-3/4 method on xor, 300 x 200, and prostate_ge, 102 x 5,966; 100 bootstraps, 300 randSel
# subsets), on a 2-core machine shared with other work (load 2-5, so a job got 13-30% of a core:
# CPU time, not wall time, is the measure). CPU time and peak memory of the fold jobs come from
# Snakemake's benchmark files, the split into selector fit, KTA and nested CV from their *.timing.json;
# those of every other job from sampling its processes (/proc) during the quick run. Chapter 5 at the
# thesis scale: bench/thesis_cost.md (wall times on a loaded machine, upper bounds). The
# models below are above every measured job; a job asks for RUNTIME_MARGIN x the modelled time (a
# slower CPU, a busy node), at least RUNTIME_MIN minutes, and for MEM_MARGIN x its modelled peak
# memory, at least MEM_MIN_MB. A retried job (the profiles' retries: 1) asks for `attempt` times both.
import csv
import functools
import gzip
import math
from types import SimpleNamespace

RUNTIME_MARGIN = 3
RUNTIME_MIN = 10  # minutes
MEM_MARGIN = 2
MEM_MIN_MB = 1000

# local rules (figures, tables, summaries: seconds on the submitting node, never a cluster job)
LOCAL_MEM_MB = 1000
LOCAL_RUNTIME = 10


def group_cost(cost, members, startup=None):
    """(CPU seconds, peak MB) of a job that runs several items one after another (chapters 3 and 4's
    method_groups, chapter 5's groups, a config's group_jobs): the items' ``cost`` (of a wildcards-like
    object each, every one counting a job's start-up) summed with one start-up for the whole job
    (``startup`` seconds, default FOLD_BASE_SECONDS), and the largest of their peak memories."""
    costs = [cost(SimpleNamespace(**m)) for m in members]
    startup = FOLD_BASE_SECONDS if startup is None else startup
    return sum(c[0] for c in costs) - startup * (len(costs) - 1), max(c[1] for c in costs)


def runtime_minutes(seconds, attempt=1):
    """SLURM run time (minutes) for a job expected to take ``seconds`` of CPU on its core(s)."""
    return attempt * max(RUNTIME_MIN, math.ceil(RUNTIME_MARGIN * seconds / 60))


def memory_mb(peak_mb, attempt=1):
    """SLURM memory (MB) for a job of measured (or modelled) peak resident memory ``peak_mb``."""
    return attempt * max(MEM_MIN_MB, 100 * math.ceil(MEM_MARGIN * peak_mb / 100))


# --------------------------------------------------------------------------
# data-set sizes (known before any job runs: the registry, or the CSV's header and rows)
# --------------------------------------------------------------------------
@functools.cache
def dataset_shape(name):
    """(n_samples, n_features) of a configured data set."""
    if split_draw(name)[0] in _REGISTRY:
        spec = _REGISTRY[split_draw(name)[0]]
        return spec.n_samples, spec.n_features
    entry = config["datasets"]["csv"][name]
    path = repo_path(entry["path"])
    with (gzip.open if path.endswith(".gz") else open)(path, "rt", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        n_samples = sum(1 for row in reader if row)
    meta = {entry.get("label_column", "label"), entry.get("id_column", "sample_id")}
    n_features = len([c for c in header if c not in meta])
    if entry.get("max_features"):
        n_features = min(n_features, entry["max_features"])
    return n_samples, n_features


# --------------------------------------------------------------------------
# chapters 3 and 4: one job per (data set, method, group of outer folds)
# --------------------------------------------------------------------------
# Reference size: the synthetic sets' outer training part, 270 samples x 200 features.
REF_M, REF_N = 270, 200


@functools.cache
def _selector_settings(method, items):
    """The selector's parameters (its defaults filled in) for config arguments ``items``."""
    from fscompbio.evaluation import make_selector

    return make_selector(method, dict(items)).get_params()


def selector_work(method, params, m, n):
    """Work of one selector fit on m x n, in units of a unit-size fit on 270 x 200 (see FIT_SECONDS)."""
    p = _selector_settings(
        method, tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))
    )
    mn = (m / REF_M) * (n / REF_N)  # linear models: one pass over the data
    m2n = max(m / REF_M, (m / REF_M) ** 2) * (n / REF_N)  # kernel methods: m x m kernels per feature
    if method == "stabsel_lpboost":  # column generation: LPs over a working set of features
        return p["n_bootstraps"] * math.sqrt(mn)
    if method.startswith("stabsel_"):
        return p["n_bootstraps"] * mn
    if method == "randsel":
        from fscompbio.selection._randsel_passes import auto_n_subsets, auto_subsample

        sub = p["subsample"]
        s = auto_subsample(m) if sub == "auto" else (sub * m if isinstance(sub, float) and sub <= 1 else sub)
        subsets = auto_n_subsets(n) if p["n_subsets"] == "auto" else p["n_subsets"]
        # pairs of a subsample x features, over the iterations (culling a fraction of the features each):
        # relative to 3,000 subsets of 67 of 270 samples on 200 features, culling 25%
        return subsets / 3000 * (s / 67) ** 2 * n / REF_N * 0.25 / p["cull_fraction"]
    if method == "fohsic":
        return p["n_steps"] * m2n
    if method in ("gaussian_rfe", "bahsic"):
        return m2n
    return mn  # correlation, random, linear_rfe


# CPU seconds of one selector fit: FIT_BASE_SECONDS + FIT_SECONDS[method] x selector_work, the constant the
# largest over the measured fits (medium-size jobs of the thesis config on xor and prostate_ge; every fit
# of the quick run), rounded up
FIT_BASE_SECONDS = 0.3
FIT_SECONDS = {
    "correlation": 0.001,
    "random": 0.001,
    "linear_rfe": 0.25,  # measured 0.13 (xor), 0.03 (prostate_ge), <= 0.21 (quick)
    "stabsel_lasso": 0.004,  # per bootstrap: 0.0016 (xor), 0.0031 (prostate_ge)
    "stabsel_logreg": 0.008,  # per bootstrap: 0.0056 (xor), 0.0060 (prostate_ge)
    "stabsel_lpboost": 0.035,  # per bootstrap: 0.033 (xor), 0.009 (prostate_ge)
    "randsel": 1.0,  # per 3,000 subsets of 67: 0.71 (prostate_ge), <= 0.77 (quick)
    "gaussian_rfe": 1.0,  # 0.28 (xor), 0.18 (prostate_ge), <= 0.77 (quick)
    "fohsic": 0.03,  # per step: 0.018 (xor), 0.016 (prostate_ge), <= 0.027 (quick)
    "bahsic": 0.4,  # 0.17 (xor), 0.10 (prostate_ge), <= 0.38 (quick)
}
# model selection on one outer fold, per unit: greedy KTA per (prefix x width) on m x m kernels (measured
# <= 0.00035 s); nested CV per (inner fold x candidate size x width) Gaussian SVM, besides its inner refits
# of the selector (<= 0.0088 s)
KTA_SECONDS = 0.0005
CV_SVM_SECONDS = 0.01
FOLD_BASE_SECONDS = 3.0  # start-up, loading, the final SVMs (measured <= 2.8 s)
FOLD_BASE_MB = 400  # Python, NumPy, scikit-learn and the data (fold jobs measured 170-470 MB)


def fit_seconds(method, params, m, n):
    """CPU seconds of one fit of ``method`` with ``params`` on m x n."""
    return FIT_BASE_SECONDS + FIT_SECONDS.get(method, max(FIT_SECONDS.values())) * selector_work(method, params, m, n)


def fold_seconds(section, dataset, method, n_folds):
    """Modelled CPU seconds of one fold job: ``n_folds`` outer folds of ``method`` on ``dataset``."""
    cfg = config[section]
    m_all, n_all = dataset_shape(dataset)
    m = m_all * (cfg["outer_folds"] - 1) / cfg["outer_folds"]
    fit = fit_seconds(method, selector_params(section, method, dataset), m, n_all)
    widths = cfg["widths"]["n_widths"]
    per_fold = fit
    for ms in model_selections_for(method, cfg["model_selection"]):
        if ms == "cv":
            k = cfg["cv"]["inner_folds"]
            per_fold += k * (fit + CV_SVM_SECONDS * len(cfg["cv"]["sizes"]) * widths * (m / REF_M) ** 2)
        else:  # kta, own: alignments of prefixes of the ranking
            prefixes = n_all if cfg["kta"]["max_sizes"] is None else min(n_all, cfg["kta"]["max_sizes"])
            per_fold += KTA_SECONDS * (prefixes if ms in ("kta", "kta_abs") else 1) * widths * max(1, (m / REF_M) ** 2)
    return FOLD_BASE_SECONDS + n_folds * per_fold


def fold_mem_mb(section, dataset, method):
    """Peak memory (MB) of a fold job: the base, the data and its m x m kernels, randSel's pair tensors."""
    m, n = dataset_shape(dataset)
    data = 8 * m * n * 4 / 2**20  # X and a few copies (float64)
    kernels = 8 * m * m * 8 / 2**20
    return FOLD_BASE_MB + data + kernels + (256 if method == "randsel" else 0)


# --------------------------------------------------------------------------
# chapter 5: costs measured at the thesis scale (bench/thesis_cost.md, "Chapter 5 run whole": 2,849 sequences,
# 111,111 windows, sparse filtering 1,500 features), scaled linearly by the windows of the config
# --------------------------------------------------------------------------
CH5_THESIS_WINDOWS = 111_111
# wall seconds of one fold at the thesis scale, adequate protocol (the slower one), measured on a
# loaded machine; randsel_mkl_original and original_combined were not measured there: they are
# bounded by their parts (randSel + MKL on the 648 original values; the original SVM + weight matrices)
CH5_PREDICT_SECONDS = {
    "original": 570,
    "onehot_svm": 420,
    "stability": 127,
    "rfe": 631,
    "randsel": 365,
    "randsel_linear": 93,
    "randsel_mkl": 486,
    "randsel_mkl_original": 900,
    "pwm": 5,
    "pwm_prior": 5,
    "original_combined": 700,
    "original_prior": 700,  # the combined scorer's ablations: the same parts
    "original_pwm": 700,
}
CH5_LEARNING_CURVE_SECONDS = 1609
CH5_SPARSE_FILTERING_SECONDS = 1742  # 200 iterations on 10,000 windows x 1,500 features, then all windows
CH5_BASE_MB = 400


@functools.cache
def ch5_windows():
    """Candidate windows of the config: sequences (n_sequences, or every record of the FASTA) x 39."""
    data = config["chapter5"]["data"]
    n_seq = data["n_sequences"]
    if n_seq is None:
        with open(repo_path(data["fasta"])) as handle:
            n_seq = sum(1 for line in handle if line.startswith(">"))
    return n_seq * (data["prefix"] - data["before"] - data["after"])


def ch5_scale():
    return ch5_windows() / CH5_THESIS_WINDOWS


def ch5_data_mb(features=True):
    """The encoded windows (648 float32) and, with ``features``, the sparse-filtering matrix (float32)."""
    n_sf = config["chapter5"]["representation"]["n_features"] if features else 0
    return ch5_windows() * (648 + n_sf) * 4 / 2**20


def ch5_approach_factor(approach):
    """An approach's selector sizes relative to the thesis config's (100 bootstraps, 200 randSel subsets of
    300 windows, 100 MKL learners on 2,000 windows per class; 1,500 sparse-filtering features)."""
    pred = config["chapter5"]["prediction"]
    sf = config["chapter5"]["representation"]["n_features"] / 1500
    if approach == "stability":
        return sf * pred["stability"]["n_bootstraps"] / 100
    if approach.startswith("randsel"):
        r = pred["randsel"]
        f = r["n_subsets"] / 200 * (r["subsample"] / 300) ** 2
        if approach.startswith("randsel_mkl"):
            f = max(f, pred["mkl"]["n_estimators"] / 100 * (pred["mkl"]["subsample_size"] / 2000) ** 2)
        return max(f, 1.0) * (1.0 if approach == "randsel_mkl_original" else sf)
    if approach == "rfe":
        return sf
    return 1.0


def ch5_train_mb(share, sf):
    """Three float64 copies of a training set of ``share`` x the windows (on sparse filtering, or the 648 values)."""
    n_features = config["chapter5"]["representation"]["n_features"] if sf else 648
    return 3 * share * ch5_windows() * n_features * 8 / 2**20


def ch5_predict_cost(approach):
    """One fold of table P1 (quick: 2-8 s CPU, 180-380 MB per fold)."""
    seconds = CH5_PREDICT_SECONDS.get(approach, max(CH5_PREDICT_SECONDS.values()))
    seconds *= ch5_scale() * max(1.0, ch5_approach_factor(approach))
    sf = approach in CH5_SF_APPROACHES
    # the adequate protocol trains on every positive (1 window in 39) and 5x as many negatives; GaussianSVC
    # keeps the training Gram matrix (float64) when it fits in its precompute_kernel_mb (default 2,048 MB):
    # measured 2.3-3.1 GB peak per thesis-scale fold with it
    n_train = 6 / 39 * ch5_windows()
    gram_mb = min(2048.0, n_train**2 * 8 / 2**20)
    return seconds, CH5_BASE_MB + ch5_data_mb(sf) + ch5_train_mb(6 / 39, sf) + gram_mb


def ch5_lc_sf(wc):
    """Whether a learning-curve job (its wildcards, or every representation when they are grouped) uses sparse
    filtering."""
    return wc.representation == "sf" if "representation" in wc.keys() else "sf" in CH5_LC["representations"]


def ch5_sparse_filtering_cost():
    rep = config["chapter5"]["representation"]
    fit = min(rep["fit_max_samples"] or ch5_windows(), ch5_windows())
    f = rep["n_features"] / 1500
    seconds = CH5_SPARSE_FILTERING_SECONDS * f * max(rep["max_iter"] / 200 * fit / 10_000, ch5_scale())
    return seconds, CH5_BASE_MB + ch5_data_mb() + 6 * fit * rep["n_features"] * 8 / 2**20


# --------------------------------------------------------------------------
# the cost of every cluster job, (CPU seconds, peak MB), from its wildcards
# --------------------------------------------------------------------------
def _known_params(method, settings):
    """The entries of ``settings`` that are parameters of ``method``'s selector."""
    keys = _selector_settings(method, ())
    return {k: v for k, v in settings.items() if k in keys}


RANDSEL_RUN_BASE_SECONDS = 10.0  # the history of every iteration: quick figures 4.3, P.1, P.2 measured 2-8 s


def randsel_run_cost(section_key):
    """A standalone randSel run (figures 4.3, P.1, P.2): one fit on its data set with its settings."""
    settings = config[section_key[0]][section_key[1]]
    m, n = dataset_shape(settings["dataset"])
    seconds = RANDSEL_RUN_BASE_SECONDS + fit_seconds("randsel", _known_params("randsel", settings), m, n)
    return seconds, FOLD_BASE_MB + 512


def paper_table_cost(wc):
    """One method of table P.2: reshuffles x outer folds x (inner folds + 1) fits and the inner SVMs (a grouped
    job: every method of its data set)."""
    tp = config["paper"]["tableP_2"]
    if not hasattr(wc, "p2_method"):
        return group_cost(paper_table_cost, [dict(p2_dataset=wc.p2_dataset, p2_method=m) for m in tp["methods"]])
    m_all, n = dataset_shape(wc.p2_dataset)
    m = m_all * (tp["outer_folds"] - 1) / tp["outer_folds"]
    fit = fit_seconds(wc.p2_method, tp["selectors"][wc.p2_method], m, n)
    fits = tp["n_reshuffles"] * tp["outer_folds"] * (tp["inner_folds"] + 1)
    svms = tp["n_reshuffles"] * tp["outer_folds"] * tp["inner_folds"] * len(tp["sizes"]) * tp["widths"]["n_widths"]
    seconds = FOLD_BASE_SECONDS + fits * fit + svms * CV_SVM_SECONDS * (m / REF_M) ** 2
    return seconds, fold_mem_mb("paper", wc.p2_dataset, wc.p2_method)


# one-vs-rest l1-logistic (figure M.1's baseline): CPU seconds per C per class per unit of m x n
OVR_LOGISTIC_SECONDS = 0.05


def multiclass_cost(wc):
    """One outer fold of figure M.1: the selector once (KTA) or inner folds + 1 times (nested CV) (a grouped
    job: every fold of its data set)."""
    mc = config["multiclass"]
    if not hasattr(wc, "mc_method"):
        return group_cost(
            multiclass_cost, [dict(dataset=wc.dataset, mc_method=m, mc_msel=s, mc_fold=k) for m, s, k in MC_MEMBERS]
        )
    m_all, n = dataset_shape(wc.dataset)
    m = m_all * (mc["outer_folds"] - 1) / mc["outer_folds"]
    params = mc["selectors"][wc.mc_method]
    widths = mc["widths"]["n_widths"]
    if wc.mc_method == "ovr_l1_logistic":
        fit = OVR_LOGISTIC_SECONDS * len(params["Cs"]) * (params["inner_folds"] + 1) * 4 * (m / REF_M) * (n / REF_N)
        return FOLD_BASE_SECONDS + fit, fold_mem_mb("multiclass", wc.dataset, wc.mc_method)
    fit = fit_seconds(wc.mc_method, params, m, n)
    if wc.mc_msel == "cv":
        k = mc["cv"]["inner_folds"]
        seconds = (k + 1) * fit + k * CV_SVM_SECONDS * len(mc["cv"]["sizes"]) * widths * (m / REF_M) ** 2
    else:
        prefixes = n if mc["kta"]["max_sizes"] is None else min(n, mc["kta"]["max_sizes"])
        seconds = fit + KTA_SECONDS * prefixes * widths * max(1, (m / REF_M) ** 2)
    return FOLD_BASE_SECONDS + seconds, fold_mem_mb("multiclass", wc.dataset, wc.mc_method)


# figure R.2: CPU seconds per draw of local learning and HSIC Lasso per unit of max(m, m^2 / 270) x n / 200
# (the other methods: FIT_SECONDS)
REG_FIT_SECONDS = {"local_learning": 2.0, "hsic_lasso": 1.0}  # measured 1.3 and 0.65 (200 x 1,004, 2 draws)


def regression_cost(wc):
    """One (data set, method, sample size) point of figure R.2: n_repeats draws, one selector fit each (a
    grouped job: every point of its data set)."""
    reg = config["regression"]
    if not hasattr(wc, "reg_method"):
        return group_cost(
            regression_cost, [dict(reg_dataset=wc.reg_dataset, reg_method=m, reg_n=n) for m, n in REG_POINTS]
        )
    m = int(wc.reg_n)
    n = reg["figR_2"]["n_irrelevant"] + 4
    method = wc.reg_method
    if method in REG_FIT_SECONDS:
        fit = REG_FIT_SECONDS[method] * max(m / REF_M, (m / REF_M) ** 2) * n / REF_N
    else:
        fit = fit_seconds(method, reg["selectors"][method], m, n)
    mb = FOLD_BASE_MB + 8 * m * n * 8 / 2**20 + 16 * m * m * 8 / 2**20
    if method == "hsic_lasso":  # one m x m kernel per feature: measured 675 MB at 200 x 1,004
        mb += 1.6 * n * m * m * 8 / 2**20
    return FOLD_BASE_SECONDS + reg["figR_2"]["n_repeats"] * fit, mb


def regression_fold_cost(wc):
    """One method's outer folds (every one) on one of your data sets with a real-valued label: per fold a
    selector fit, the alignments of the model selections and a kernel ridge regression."""
    cfg = config["regression"]["folds"]
    m_all, n = dataset_shape(wc.dataset)
    m = m_all * (cfg["outer_folds"] - 1) / cfg["outer_folds"]
    method = wc.reg_fold_method
    if method in REG_FIT_SECONDS:
        fit = REG_FIT_SECONDS[method] * max(m / REF_M, (m / REF_M) ** 2) * n / REF_N
    else:
        fit = fit_seconds(method, config["regression"]["selectors"][method], m, n)
    prefixes = n if cfg["kta"]["max_sizes"] is None else min(n, cfg["kta"]["max_sizes"])
    kta = KTA_SECONDS * (prefixes + 1) * cfg["widths"]["n_widths"] * max(1, (m / REF_M) ** 2)
    if "cv" in cfg["model_selection"]:  # a refit per inner fold, an eigendecomposition per size and width
        sizes = 10 if cfg["cv"]["sizes"] is None else len(cfg["cv"]["sizes"])
        k = cfg["cv"]["inner_folds"]
        kta += k * (fit + CV_SVM_SECONDS * sizes * cfg["widths"]["n_widths"] * max(1, (m / REF_M) ** 3))
    mb = FOLD_BASE_MB + 8 * m_all * n * 8 / 2**20 + 16 * m_all * m_all * 8 / 2**20
    if method == "hsic_lasso":  # one m x m kernel per feature
        mb += 1.6 * n * m * m * 8 / 2**20
    return FOLD_BASE_SECONDS + cfg["outer_folds"] * (fit + kta), mb


COSTS = {
    # chapters 3 and 4
    "ch3_fold": lambda wc: (
        fold_seconds("chapter3", wc.dataset, wc.ch3_method, int(wc.ch3_last) - int(wc.ch3_first) + 1),
        fold_mem_mb("chapter3", wc.dataset, wc.ch3_method),
    ),
    "ch4_fold": lambda wc: (
        fold_seconds("chapter4", wc.dataset, wc.ch4_method, int(wc.ch4_last) - int(wc.ch4_first) + 1),
        fold_mem_mb("chapter4", wc.dataset, wc.ch4_method),
    ),
    "ch4_randsel_history": lambda wc: randsel_run_cost(("chapter4", "fig4_3")),
    "ch4_expected_contributions": lambda wc: randsel_run_cost(("chapter4", "figP_1")),
    "paper_randsel_history": lambda wc: randsel_run_cost(("paper", "figP_2")),
    "paper_tableP_2_method": paper_table_cost,
    "mc_fold": multiclass_cost,
    "reg_recovery": regression_cost,
    "reg_fold": regression_fold_cost,
    # chapter 5 (windows, encoding and homology: ~25 s, ~25 s and ~70 s at the thesis scale)
    "ch5_windows": lambda wc: (60 * ch5_scale(), CH5_BASE_MB + 2 * ch5_data_mb(False)),
    "ch5_encode": lambda wc: (60 * ch5_scale(), CH5_BASE_MB + 3 * ch5_data_mb(False)),
    "ch5_homology": lambda wc: (120 * max(ch5_scale(), ch5_scale() ** 2), CH5_BASE_MB + ch5_data_mb(False)),
    "ch5_sparse_filtering": lambda wc: ch5_sparse_filtering_cost(),
    # a job of CH5_CELLS_PER_JOB cells (chapter5.prediction.group) of one approach, run one after the other
    # (a cell's modelled time counts no start-up)
    "ch5_predict": lambda wc: group_cost(
        lambda cell: ch5_predict_cost(cell.approach), [dict(approach=wc.approach)] * CH5_CELLS_PER_JOB, startup=0.0
    ),
    # the largest training set of a learning curve: every positive and 10x as many negatives; a job of
    # CH5_LC_CELLS_PER_JOB cells (chapter5.learning_curve.group), the sparse filter's memory if one of them has it
    "ch5_learning_curve": lambda wc: (
        CH5_LEARNING_CURVE_SECONDS * ch5_scale() * CH5_LC_CELLS_PER_JOB,
        CH5_BASE_MB + ch5_data_mb(ch5_lc_sf(wc)) + ch5_train_mb(11 / 39, ch5_lc_sf(wc)),
    ),
    # figure 5.4: an SVM on 2 x fig5_4_max_per_class windows; quick (1,000 per class, 200 features) 2.8 s CPU
    "ch5_sv_correlations": lambda wc: (
        10
        + 3
        * (config["chapter5"]["prediction"]["fig5_4_max_per_class"] / 1000) ** 2
        * config["chapter5"]["representation"]["n_features"]
        / 200,
        CH5_BASE_MB + ch5_data_mb(),
    ),
    "ch5_model": lambda wc: (
        max(ch5_predict_cost(a)[0] for a in CH5_PRED["approaches"]) * 1.2,
        max(ch5_predict_cost(a)[1] for a in CH5_PRED["approaches"]) * 1.2,
    ),
}


def register_fold_group_cost(rule_name, short, methods):
    """The cost of a fold job running a group of methods (method_groups): the fold jobs of its methods as one
    group (:func:`group_cost`)."""
    keys = ("dataset", f"{short}_first", f"{short}_last")
    COSTS[rule_name] = lambda wc: group_cost(
        COSTS[f"{short}_fold"], [{**{k: getattr(wc, k) for k in keys}, f"{short}_method": m} for m in methods]
    )


def mem_of(rule_name):
    """The ``mem_mb`` callable of a rule: its modelled peak memory (COSTS) with the margin."""

    def mem_mb(wildcards, attempt):
        return memory_mb(COSTS[rule_name](wildcards)[1], attempt)

    return mem_mb


def runtime_of(rule_name):
    """The ``runtime`` callable (minutes) of a rule, from its modelled wall time (COSTS) with the margin."""

    def runtime(wildcards, attempt):
        return runtime_minutes(COSTS[rule_name](wildcards)[0], attempt)

    return runtime
