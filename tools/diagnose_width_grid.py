"""Which of the thesis config's chapter-4 settings makes Gaussian RFE's model selection keep few features on a
synthetic set (an ablation, one setting changed at a time back to the quick config's value).

    python -m tools.diagnose_width_grid                         non-linear Weston, Gaussian RFE, outer folds 0-2
    python -m tools.diagnose_width_grid --dataset xor --method bahsic --folds 5

The thesis config and the quick config differ in chapter 4 by three model-selection settings: the kernel-width
grid (``widths.n_widths``: 7 against 5 widths over the same decade either side of the median distance), the
prefix sizes greedy KTA scores (``kta.max_sizes``: every prefix against a geometric grid of at most 50) and
the inner folds of nested CV (``cv.inner_folds``: 10 against 3). Each row refits one outer fold of the
thesis config's data set (draw 0, the figures' draw, with the workflow's seeds: the ``thesis`` rows are the
archived run's folds) with one setting changed, and prints what nested CV and KTA select. A few seconds per
fold for Gaussian RFE on the 300 x 200 sets.
"""

from __future__ import annotations

import argparse
import sys

from fscompbio.datasets import make_dataset
from fscompbio.evaluation import make_selector, method_spec, outer_splits, run_outer_fold
from fscompbio.model_selection import KTASelect, NestedCVSelect, OwnModelSelect
from fscompbio.seeding import derive_seed
from tools.run_archive import _config_paths, _merged_config


def _config():
    """The quick config and the thesis config, merged as ``--configfile config/thesis.yaml`` merges them."""
    quick, thesis = (["config.yaml"], ["config.yaml", "config/thesis.yaml"])
    return _merged_config(_config_paths(quick)), _merged_config(_config_paths(thesis))


def variants(quick, thesis):
    """``{name: (widths, kta max_sizes, inner folds)}``: the thesis config's, then one setting back at a time."""
    q, t = quick["chapter4"], thesis["chapter4"]
    base = (t["widths"], t["kta"]["max_sizes"], t["cv"]["inner_folds"])
    return {"thesis": base,
            f"widths.n_widths={q['widths']['n_widths']}": (q["widths"], *base[1:]),
            f"kta.max_sizes={q['kta']['max_sizes']}": (base[0], q["kta"]["max_sizes"], base[2]),
            f"cv.inner_folds={q['cv']['inner_folds']}": (*base[:2], q["cv"]["inner_folds"]),
            "all three (quick)": (q["widths"], q["kta"]["max_sizes"], q["cv"]["inner_folds"])}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", default="nonlinear_weston")
    ap.add_argument("--method", default="gaussian_rfe")
    ap.add_argument("--folds", type=int, default=3, help="the first FOLDS outer folds (default 3)")
    args = ap.parse_args(argv)
    quick, thesis = _config()
    seed, ch4 = thesis["seed"], thesis["chapter4"]
    ds = make_dataset(args.dataset, random_state=derive_seed(seed, "dataset", args.dataset))
    folds = outer_splits(ds.y, ch4["outer_folds"], random_state=derive_seed(seed, "chapter3", args.dataset, "outer"))
    spec = method_spec(args.method)
    params = {**ch4["selectors"].get(args.method, {}),
              **ch4["dataset_selectors"].get(args.dataset, {}).get(args.method, {})}
    print(f"{args.dataset} ({ds.X.shape[0]} x {ds.X.shape[1]}, {ds.relevant.size} relevant), {args.method}; "
          "thesis config, one setting changed at a time")
    print("| setting | fold | CV: features | CV: recall | CV: sigma | KTA: features | KTA: recall | KTA: sigma |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, (widths, max_sizes, inner) in variants(quick, thesis).items():
        for f in range(args.folds):
            train, test = folds[f]
            keys = (seed, "chapter4", args.dataset, args.method, str(f))
            cv = NestedCVSelect(**widths, sizes=spec.cv_sizes or ch4["cv"]["sizes"], inner_folds=inner,
                                C=ch4["svm_C"], random_state=derive_seed(*keys, "inner"))
            out = run_outer_fold(ds.X, ds.y, train, test, make_selector(args.method, params,
                                                                        random_state=derive_seed(*keys)),
                                 model_selection=["cv", "kta"], relevant=ds.relevant,
                                 kta=KTASelect(**widths, max_sizes=max_sizes), cv=cv,
                                 own=OwnModelSelect(**widths), C=ch4["svm_C"])
            cells = [f"{r['n_selected']} | {r['recall']:.2f} | {r['sigma']:.2f}" for r in (out["cv"], out["kta"])]
            print(f"| {name} | {f} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
