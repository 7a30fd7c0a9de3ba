"""One outer fold of the chapter-3 protocol: selector on the training fold, KTA or nested-CV model
selection, Gaussian SVM on the test fold (thesis 2.5.1, algorithm 3). Method-agnostic: the selector
comes from fscompbio.evaluation.make_selector, so chapter 4 reuses this script with its own methods."""

import logging
import sys

sys.stderr = open(snakemake.log[0], "w")
logging.basicConfig(stream=sys.stderr, level=logging.INFO)

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.evaluation import make_selector, method_spec, outer_splits, run_outer_fold  # noqa: E402
from fscompbio.io import write_json  # noqa: E402
from fscompbio.model_selection import KTASelect, NestedCVSelect  # noqa: E402

p = snakemake.params
ds = load_dataset(snakemake.input[0])
folds = outer_splits(ds.y, p.outer_folds, random_state=p.folds_seed)
if not 0 <= p.fold < len(folds):
    raise ValueError(f"fold {p.fold!r} out of range for outer_folds={p.outer_folds!r}")
train, test = folds[p.fold]
selector = make_selector(p.method, p.selector, random_state=p.seed)
spec = method_spec(p.method)
kta = KTASelect(**p.widths, max_sizes=p.kta["max_sizes"])
cv = NestedCVSelect(**p.widths, sizes=spec.cv_sizes or p.cv["sizes"], inner_folds=p.cv["inner_folds"], C=p.svm_C,
                    random_state=p.inner_seed)
logging.info("%s: %d x %d, fold %d (%d train / %d test), %r, model selection %s", snakemake.input[0],
             *ds.X.shape, p.fold, train.size, test.size, selector, p.model_selection)
out = run_outer_fold(ds.X, ds.y, train, test, selector, model_selection=p.model_selection, relevant=ds.relevant,
                     kta=kta, cv=cv, C=p.svm_C)
out.update(dataset=snakemake.wildcards.dataset, method=p.method, fold=p.fold)
logging.info("accuracy %.3f with %d features (precision %s, recall %s), sigma %.3g; %.2f s (selection %.2f s, "
             "model selection %.2f s)", out["accuracy"], out["n_selected"], out["precision"], out["recall"],
             out["sigma"], out["seconds_total"], out["seconds_selection"], out["seconds_model_selection"])
write_json(out, snakemake.output[0])
