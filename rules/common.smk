# Config validation, shared helpers and the list of final outputs.
# Every stage's .smk appends its final figures/tables to FINAL_OUTPUTS.
import os
import re

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate as snakemake_validate

from fscompbio.environment import pin_cpu_kernels
from fscompbio.seeding import derive_seed

# One set of numbers on every x86-64 CPU with AVX2: the jobs (started from here, or on a cluster's nodes, where
# this file is read again) use OpenBLAS' Haswell kernels and NumPy's AVX2 loops, unless the environment says
# otherwise (OPENBLAS_CORETYPE, NPY_DISABLE_CPU_FEATURES).
pin_cpu_kernels()


def validate(data, schema, set_default=True):
    """snakemake.utils.validate (defaults filled in), with a one-line error naming the config file(s), the
    key and the problem. Every rules file's validate(config[section], ...) call uses this one."""
    try:
        snakemake_validate(data, schema=schema, set_default=set_default)
    except WorkflowError as exc:
        err = exc.__context__
        if not hasattr(err, "absolute_path"):  # not a schema violation
            raise
        section = next((k for k, v in config.items() if v is data), "")
        key = ".".join(str(k) for k in [section, *err.absolute_path] if k != "") or "(top level)"
        files = ", ".join(map(str, workflow.configfiles)) or "the config"
        raise ValueError(f"{files}: config key {key}: {err.message}") from None


validate(config, schema="../schemas/config.schema.yaml")
for _name, _entry in config["datasets"]["csv"].items():  # a missing CSV fails now, not at its first job
    _csv = _entry["path"] if os.path.isabs(_entry["path"]) else os.path.join(workflow.basedir, _entry["path"])
    if not os.path.isfile(_csv):
        raise ValueError(
            f"{', '.join(map(str, workflow.configfiles))}: config key datasets.csv.{_name}.path: no such file "
            f"{_entry['path']!r}" + ("" if os.path.isabs(_entry["path"]) else f" (relative to {workflow.basedir})")
        )

FINAL_OUTPUTS = []


def final_outputs():
    """The default targets: every figure and table of the enabled stages."""
    return FINAL_OUTPUTS


def repo_path(path):
    """Resolve a data path from the config: relative paths are relative to the repository."""
    return path if os.path.isabs(path) else os.path.join(workflow.basedir, path)


def figure(name):
    """The output path of figure `name` (PNG)."""
    return f"figures/{name}.png"


def caption(name):
    """The report caption of figure or table `name`."""
    return os.path.join(workflow.basedir, "report", f"{name}.rst")


def dataset_source(wildcards):
    """The CSV behind a configured real data set (none for a synthetic one)."""
    entry = config["datasets"]["csv"].get(wildcards.dataset)
    return [repo_path(entry["path"])] if entry else []


SYNTHETIC = config["datasets"]["synthetic"]


# --------------------------------------------------------------------------
# chapters 3 and 4: any data set by name, the study's figure ids where the study has them
# --------------------------------------------------------------------------
from fscompbio.datasets import DATASETS as _REGISTRY
from fscompbio.datasets import draw_name, split_draw
from fscompbio.evaluation import fold_seeds, model_selections_for, multiclass_seeds, regression_seeds, task_error


def check_inner_selectors(section):
    """Every method of ``<section>.cv.inner_selectors`` is one of the section's methods."""
    cfg = config[section]
    unknown = sorted(set(cfg["cv"].get("inner_selectors") or {}) - set(cfg["methods"]))
    if unknown:
        files = ", ".join(map(str, workflow.configfiles)) or "the config"
        raise ValueError(
            f"{files}: config key {section}.cv.inner_selectors: method(s) {unknown} are not in {section}.methods "
            f"{list(cfg['methods'])}"
        )


def check_dataset_names(section, names):
    """Every data set of a chapter is a synthetic registry name or a datasets.csv entry."""
    known = set(_REGISTRY) | set(config["datasets"]["csv"])
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(
            f"config key {section}.datasets: unknown data set(s) {unknown}; use a synthetic name "
            f"({sorted(_REGISTRY)}) or add the CSV under datasets.csv (path, label_column, positive_label)"
        )
    csv = config["datasets"]["csv"]
    for name in names:  # a label the chapter cannot use, declared in the config: refused now
        task = csv.get(name, {}).get("task")
        if task not in (None, "binary"):
            files = ", ".join(map(str, workflow.configfiles)) or "the config"
            raise ValueError(task_error(f"{files}: datasets.csv.{name} (task {task})", task, [section]))


#: the study's figure ids of the chapter-3/4 panels; any other data set (yours) gets "<chapter>_<name>"
STUDY_PANELS = {
    "chapter3": {
        "fake_class": "fig3_3",
        "linear_zhang_feature_noise": "fig3_4",
        "linear_zhang_sample_noise": "fig3_5",
        "linear_weston": "fig3_6",
        "nonlinear_weston": "fig3_7",
        "xor": "fig3_8",
        "tb_serum_metabolomics": "fig3_9",
        "allaml": "fig3_10",
        "prostate_ge": "fig3_11",
        "colon": "fig3_12",
        "tb_blood_gambia": "fig3_13",
    },
    "chapter4": {
        "fake_class": "fig4_4",
        "linear_zhang_feature_noise": "fig4_5",
        "linear_zhang_sample_noise": "fig4_6",
        "linear_weston": "fig4_7",
        "nonlinear_weston": "fig4_8",
        "xor": "fig4_9",
        "tb_serum_metabolomics": "fig4_10",
        "allaml": "fig4_11",
        "prostate_ge": "fig4_12",
        "colon": "fig4_13",
        "tb_blood_gambia": "fig4_14",
    },
}


def panel_id(chapter, dataset):
    """The figure id of a chapter's panel figure for one data set."""
    return STUDY_PANELS[chapter].get(dataset, f"{chapter}_{dataset}")


def panel_caption(chapter, dataset):
    """The caption file: the study figure's own, or the generic one for your data sets."""
    fig = panel_id(chapter, dataset)
    own = os.path.join(workflow.basedir, "report", f"{fig}.rst")
    return f"../report/{fig}.rst" if os.path.exists(own) else f"../report/{chapter}_dataset.rst"


def fold_groups(section, dataset):
    """(first, last) outer fold of each fold job: folds_per_job consecutive folds per job."""
    n, k = folds_run(section, dataset), config[section]["folds_per_job"]
    return [(a, min(a + k, n) - 1) for a in range(0, n, k)]


def method_groups(section):
    """The fold jobs' methods: each group of ``method_groups`` runs in one job (a rule of its own), every other
    method of the chapter in a job of its own (the chapter's fold rule, one method per job). A grouped method
    that the chapter does not run (not in ``methods``) is left out of its group."""
    cfg = config[section]
    groups = [[m for m in g if m in cfg["methods"]] for g in cfg.get("method_groups") or []]
    flat = [m for g in groups for m in g]
    twice = sorted({m for m in flat if flat.count(m) > 1})
    if twice:
        files = ", ".join(map(str, workflow.configfiles)) or "the config"
        raise ValueError(f"{files}: config key {section}.method_groups: {twice} in more than one group")
    return [g for g in groups if g]


def single_methods(section):
    """The methods of a chapter that run one method per fold job (in no group of ``method_groups``)."""
    grouped = {m for g in method_groups(section) for m in g}
    return [m for m in config[section]["methods"] if m not in grouped]


def fold_files(section, chapter, dataset, suffix="json"):
    """Every fold-job output of one data set: per method and group of outer folds (all model selections inside)."""
    cfg = config[section]
    return [
        f"results/{chapter}/folds/{dataset}/{m}/folds{a}-{b}.{suffix}"
        for m in cfg["methods"]
        for a, b in fold_groups(section, dataset)
    ]


def is_study_dataset(section, dataset):
    """A data set of the study (a synthetic set, or a real task of the chapter's figures), not one of yours."""
    base = split_draw(dataset)[0]
    return base in _REGISTRY or base in STUDY_PANELS.get(section, {})


def regression_datasets():
    """Your data sets with a real-valued label (regression.folds.datasets; the study has none there)."""
    return list(config.get("regression", {}).get("folds", {}).get("datasets", []))


def own_datasets():
    """Your own data sets: those of chapter3/chapter4.datasets that are not the study's, and those of
    regression.folds.datasets, in config order."""
    return [
        d
        for d in dict.fromkeys(
            [*config["chapter3"]["datasets"], *config["chapter4"]["datasets"], *regression_datasets()]
        )
        if d in regression_datasets() or not any(is_study_dataset(s, d) for s in ("chapter3", "chapter4"))
    ]


def own_data_targets(wildcards):
    """The panels and features tables of your own data sets (the own_data target); none is an error."""
    own = own_datasets()
    if not own:
        files = ", ".join(map(str, workflow.configfiles)) or "the config"
        raise ValueError(
            f"own_data: no data set of your own in chapter3.datasets, chapter4.datasets or "
            f"regression.folds.datasets ({files}); add its datasets.csv name there (docs/own_data.md)"
        )
    panels = [figure(panel_id(c, d)) for d in own for c in ("chapter3", "chapter4") if d in config[c]["datasets"]]
    panels += [figure(f"regression_{d}") for d in own if d in regression_datasets()]
    return panels + [f"figures/{d}_features.{ext}" for d in own for ext in ("csv", "png")]


def regression_fold_params():
    """The params of a reg_fold job (one method's outer folds on a data set with a real-valued label): the
    settings of regression.folds, the selector's of regression.selectors and the seeds of
    fscompbio.evaluation.regression_seeds (params rerun a job when they change)."""
    cfg = config["regression"]["folds"]
    method = lambda wc: wc.reg_fold_method
    return dict(
        method=method,
        selector=lambda wc: config["regression"]["selectors"].get(method(wc), {}),
        model_selection=lambda wc: model_selections_for(method(wc), cfg["model_selection"]),
        outer_folds=cfg["outer_folds"],
        widths=cfg["widths"],
        kta=cfg["kta"],
        folds_seed=lambda wc: regression_seeds(config["seed"], wc.dataset, "", 0).outer,
        cv=cfg["cv"],
        seeds=lambda wc: [
            regression_seeds(config["seed"], wc.dataset, method(wc), k).selector for k in range(cfg["outer_folds"])
        ],
        inner_seeds=lambda wc: [
            regression_seeds(config["seed"], wc.dataset, method(wc), k).inner for k in range(cfg["outer_folds"])
        ],
    )


def regression_fold_sizes():
    """The line under a regression panel: the folds, the model selections and the selectors' settings."""
    cfg = config["regression"]["folds"]
    sel = "; ".join(
        f"{m} {', '.join(f'{k}={v}' for k, v in sorted(config['regression']['selectors'].get(m, {}).items()))}".strip()
        for m in cfg["methods"]
    )
    prefixes = "every prefix" if cfg["kta"]["max_sizes"] is None else f"at most {cfg['kta']['max_sizes']} prefix sizes"
    return (
        f"{cfg['outer_folds']} outer folds (shuffled), every one run; nested CV on {cfg['cv']['inner_folds']} inner "
        f"folds; KTA with a Gaussian label kernel on {prefixes}; {cfg['widths']['n_widths']} widths; Gaussian "
        f"kernel ridge, its ridge by leave-one-out error. Selectors: {sel}."
    )


def folds_run(section, dataset):
    """How many of the outer folds are evaluated (the first ones): the data set's own dataset_folds_run
    (null = all), else folds_run for the study's data sets and all of them for yours; on draws 1.. of a
    synthetic set, draws.folds_run (null = as draw 0)."""
    cfg = config[section]
    base, k_draw = split_draw(dataset) if dataset is not None else (None, 0)
    # folds_run reduces the study's reproduction; your own data sets run every outer fold by default
    default = cfg["folds_run"] if dataset is None or is_study_dataset(section, dataset) else None
    k = cfg["dataset_folds_run"].get(base, default)
    if k_draw and cfg["draws"]["folds_run"] is not None:
        k = cfg["draws"]["folds_run"] if k is None else min(k, cfg["draws"]["folds_run"])
    return cfg["outer_folds"] if k is None else min(k, cfg["outer_folds"])


def run_sizes(section, dataset=None):
    """One line stating the config and the sizes used, printed under the panel figures."""
    cfg = config[section]
    params = {m: selector_params(section, m, dataset) for m in cfg["methods"]}
    sel = "; ".join(
        f"{m} {', '.join(f'{k}={v}' for k, v in sorted(params[m].items()))}".strip()
        for m in cfg["methods"]
        if params[m]
    )
    n_run = folds_run(section, dataset)
    outer = f"{cfg['outer_folds']} outer folds" + (f" (the first {n_run} run)" if n_run < cfg["outer_folds"] else "")
    inner = f", nested CV with {cfg['cv']['inner_folds']} inner folds" if "cv" in cfg["model_selection"] else ""
    if "kta" in cfg["model_selection"] and cfg["kta"]["max_sizes"] is not None:
        inner += f", KTA on <= {cfg['kta']['max_sizes']} prefix sizes"
    if "kta_abs" in cfg["model_selection"]:
        grid = cfg["kta"]["absolute_grid"]
        inner += f"; absolute KTA grid gamma = 10^[{grid['low']:g}, {grid['high']:g}] ({grid['n_gammas']} values)"
    return (
        f"{config['config_name']} config: {outer}{inner}; {cfg['widths']['n_widths']} widths "
        f"sigma = median x 10^[{cfg['widths']['low']:g}, {cfg['widths']['high']:g}]" + (f"; {sel}" if sel else "")
    )


def selector_params(section, method, dataset):
    """A method's selector arguments: the section's, updated by the data set's own (dataset_selectors)."""
    cfg = config[section]
    base = split_draw(dataset)[0] if dataset is not None else None
    return {**cfg["selectors"].get(method, {}), **cfg["dataset_selectors"].get(base, {}).get(method, {})}


def draw_datasets(section):
    """Draws 1 .. n-1 of the section's synthetic data sets (``<set>_draw<k>``), for the claims."""
    n = config[section]["draws"]["n"]
    return [draw_name(d, k) for d in config[section]["datasets"] if d in _REGISTRY for k in range(1, n)]


def grouped_synthetic():
    """The synthetic sets one job writes (datasets.synthetic_one_job): every set of datasets.synthetic and the
    draws chapters 3 and 4 use; none when each set has a job of its own."""
    if not config["datasets"].get("synthetic_one_job"):
        return []
    draws = []
    for section in ("chapter3", "chapter4"):
        cfg = config.get(section, {})
        n = cfg.get("draws", {}).get("n", 1)
        draws += [draw_name(d, k) for d in cfg.get("datasets", []) if d in _REGISTRY for k in range(1, n)]
    return list(dict.fromkeys([*SYNTHETIC, *draws]))


GROUPED_SYNTHETIC = grouped_synthetic()


def grouped_summaries(section):
    """The data sets whose summary and panel figure one job makes (``summaries_one_job``): the study's data sets
    of the chapter and their draws; none when each data set has jobs of its own. Your own data sets always do,
    so the own_data target runs only the jobs they need."""
    cfg = config[section]
    if not cfg.get("summaries_one_job"):
        return []
    return [d for d in cfg["datasets"] if is_study_dataset(section, d)] + draw_datasets(section)


def ungrouped_dataset_pattern(section):
    """The ``{dataset}`` wildcard of a chapter's per-data-set summary rule: any name but those of
    :func:`grouped_summaries`, whose files the grouped rule writes."""
    grouped = "|".join(re.escape(d) for d in grouped_summaries(section))
    return f"(?!(?:{grouped})$)[^/]+" if grouped else "[^/]+"


def premise_datasets():
    """The synthetic sets of chapter 3 (every draw): the sets whose premises are tested (rules/premises.smk)."""
    return [d for d in CH3["datasets"] if d in _REGISTRY] + draw_datasets("chapter3")


# --------------------------------------------------------------------------
# the features tables (figures/{name}_features.csv) of the chapter-3/4 data sets
# --------------------------------------------------------------------------
CHAPTER_TITLES = {"chapter3": "Chapter 3", "chapter4": "Chapter 4"}


def feature_datasets():
    """Every data set of chapter3.datasets, chapter4.datasets and regression.folds.datasets, once, in config
    order."""
    return list(
        dict.fromkeys([*config["chapter3"]["datasets"], *config["chapter4"]["datasets"], *regression_datasets()])
    )


def feature_fold_files(chapter):
    """The fold results of one chapter (or "regression") behind a data set's features table (none when it is
    not listed there)."""

    def files(wildcards):
        if wildcards.dataset not in feature_datasets():
            raise ValueError(
                f"figures/{wildcards.dataset}_features.csv: {wildcards.dataset!r} is not a data set of "
                f"chapter3.datasets, chapter4.datasets or regression.folds.datasets; those are {feature_datasets()}"
            )
        if chapter == "regression":
            if wildcards.dataset not in regression_datasets():
                return []
            return [
                f"results/regression/folds/{wildcards.dataset}/{m}.json"
                for m in config["regression"]["folds"]["methods"]
            ]
        if wildcards.dataset not in config[chapter]["datasets"]:
            return []
        return fold_files(chapter, chapter, wildcards.dataset)

    return files


def cv_params(cv, methods):
    """A fold job's nested-CV settings: the chapter's ``cv`` with ``inner_selectors`` kept for the job's
    ``methods`` only, and left out when none of them has any (so a job's params, and Snakemake's params
    trigger, change only for the methods whose inner refits are set)."""
    inner = {m: cv["inner_selectors"][m] for m in methods if m in (cv.get("inner_selectors") or {})}
    base = {k: v for k, v in cv.items() if k != "inner_selectors"}
    return {**base, "inner_selectors": inner} if inner else base


def fold_params(chapter, short, methods=None):
    """The params of a chapter's fold jobs (ch3_fold, ch4_fold: one method, the ``{short}_method`` wildcard; or
    a group of ``method_groups``, whose params give each per-method value as a dict by method), the settings
    of its config section and the seeds of fscompbio.evaluation.fold_seeds (params rerun a job when they
    change)."""
    cfg = config[chapter]

    def folds(wc):
        return list(range(int(getattr(wc, f"{short}_first")), int(getattr(wc, f"{short}_last")) + 1))

    def seeds(wc, method, which):
        return [getattr(fold_seeds(config["seed"], chapter, wc.dataset, method, f), which) for f in folds(wc)]

    shared = dict(
        folds=folds,
        outer_folds=cfg["outer_folds"],
        svm_C=cfg["svm_C"],
        widths=cfg["widths"],
        kta=cfg["kta"],
        # the outer folds of a data set, shared by every method of both chapters (so the chapters compare)
        folds_seed=lambda wc: fold_seeds(config["seed"], chapter, wc.dataset, "", 0).outer,
    )
    if methods is not None:  # one job runs every method of the group, each exactly as its own job would
        return dict(
            methods=list(methods),
            selector=lambda wc: {m: selector_params(chapter, m, wc.dataset) for m in methods},
            model_selection={m: model_selections_for(m, cfg["model_selection"]) for m in methods},
            cv=cv_params(cfg["cv"], methods),
            **shared,
            seeds=lambda wc: {m: seeds(wc, m, "selector") for m in methods},
            inner_seeds=lambda wc: {m: seeds(wc, m, "inner") for m in methods},
        )
    method = lambda wc: getattr(wc, f"{short}_method")
    return dict(
        method=method,
        selector=lambda wc: selector_params(chapter, method(wc), wc.dataset),
        # every applicable model selection reads the same selector fit (a paired comparison)
        model_selection=lambda wc: model_selections_for(method(wc), cfg["model_selection"]),
        cv=lambda wc: cv_params(cfg["cv"], [method(wc)]),
        **shared,
        # one selector seed and one inner-CV seed per outer fold (the same whatever folds_per_job or method_groups)
        seeds=lambda wc: seeds(wc, method(wc), "selector"),
        inner_seeds=lambda wc: seeds(wc, method(wc), "inner"),
    )


# --------------------------------------------------------------------------
# chapter 5: the cells of a grouped job (chapter5.prediction.group, chapter5.learning_curve.group); the
# CH5_* settings are rules/chapter5.smk's
# --------------------------------------------------------------------------
def ch5_job_files(pattern, group, values):
    """The files of one job of a grouped rule: ``pattern`` with the ``group`` dimensions expanded to their
    ``values`` and every other wildcard kept (escaped for expand); the pattern itself when nothing is grouped."""
    kept = re.sub(r"{(\w+)}", lambda m: m.group(0) if m.group(1) in group else f"{{{m.group(0)}}}", pattern)
    files = expand(kept, **{d: values[d] for d in group})
    return files if group else files[0]


def ch5_job_path(parts, group):
    """One log or benchmark path per job: the (dimension, part) ``parts`` of the dimensions not grouped."""
    return "/".join(part for dim, part in parts if dim not in group)


def ch5_predict_outputs(suffix, stem=None):
    """The output files of one ch5_predict job (or, with ``stem``, of another rule of table P1's cells, e.g.
    ch5_predict_raw's): one per cell of the job (the grouped dimensions expanded)."""
    return ch5_job_files(f"{stem or CH5_PREDICT_STEM}{suffix}", CH5_GROUP, CH5_GROUP_VALUES)


def ch5_predict_cells(wc):
    """The cells of the ch5_predict job of wildcards ``wc``, fold by fold: protocol, fold, seed, sparse filter,
    outputs."""
    return ch5_cells_under(wc, CH5_PREDICT_STEM)


def ch5_predict_raw_cells(wc):
    """The cells of the ch5_predict_raw job of wildcards ``wc`` (table P1 on raw scales): each with the seed of
    its cell on standardised scales (a paired comparison), its files under CH5_RAW_PREDICT_STEM."""
    return ch5_cells_under(wc, CH5_RAW_PREDICT_STEM)


def ch5_cells_under(wc, stem_pattern):
    """The cells of a job of table P1 of wildcards ``wc`` with their files under ``stem_pattern``."""
    cells = []
    for fold in CH5_GROUP_VALUES["fold"] if "fold" in CH5_GROUP else [int(wc.fold)]:
        for protocol in CH5_GROUP_VALUES["protocol"] if "protocol" in CH5_GROUP else [wc.protocol]:
            stem = stem_pattern.format(cv=wc.cv, protocol=protocol, approach=wc.approach, fold=fold)
            cells.append(
                {
                    "protocol": protocol,
                    "settings": CH5_PRED["protocols"][protocol],
                    "fold": fold,
                    # the same seed for every approach of a fold: randsel and randsel_mkl see one selection
                    "seed": derive_seed(config["seed"], "chapter5", wc.cv, protocol, str(fold)),
                    "sf": CH5_FOLD_SF.format(split=wc.cv, fold=fold) if wc.approach in CH5_SF_APPROACHES else None,
                    "npz": f"{stem}.npz",
                    "json": f"{stem}.json",
                    "timing": f"{stem}.timing.json",
                }
            )
    return cells


def ch5_learning_curve_cells(wc):
    """The cells of the learning-curve job of wildcards ``wc``: representation, fold, seed, sparse filter, outputs."""
    cells = []
    for rep in CH5_LC_GROUP_VALUES["representation"] if "representation" in CH5_LC_GROUP else [wc.representation]:
        for fold in CH5_LC_GROUP_VALUES["fold"] if "fold" in CH5_LC_GROUP else [int(wc.fold)]:
            stem = CH5_LC_STEM.format(representation=rep, fold=fold)
            cells.append(
                {
                    "representation": rep,
                    "fold": fold,
                    "seed": derive_seed(config["seed"], "chapter5", "learning_curve", rep, str(fold)),
                    "sf": CH5_FOLD_SF.format(split="learning_curve", fold=fold) if rep == "sf" else None,
                    "json": f"{stem}.json",
                    "timing": f"{stem}.timing.json",
                }
            )
    return cells
