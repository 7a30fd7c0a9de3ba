"""The ``fscompbio`` command: run the study's methods on your own data without Snakemake.

Examples
--------
List what is available::

    fscompbio list

Rank the features of a CSV matrix (``sample_id``, ``label``, features) with a
selector, choose the subset and Gaussian width by kernel target alignment
(thesis algorithm 3), and write the result as JSON::

    fscompbio select data.csv --method correlation --seed 0 --output selection.json

Write a synthetic data set of the study::

    fscompbio make-dataset xor --seed 0 --output xor.npz

Predict the signal-peptide cleavage site of every protein of a FASTA file with the model the workflow
trained (results/chapter5/model/cleavage_model.pkl), as TSV::

    fscompbio predict-cleavage --model results/chapter5/model/cleavage_model.pkl proteins.fasta --output sites.tsv
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

import numpy as np

__all__ = ["main"]

log = logging.getLogger("fscompbio")


def _load(path, label_column, positive_label):
    from .datasets import load_csv_dataset, load_dataset

    path = Path(path)
    if not path.is_file():
        raise SystemExit(f"fscompbio: no such file: {path}")
    if path.suffix == ".npz":
        return load_dataset(path)
    return load_csv_dataset(path, label_column=label_column, positive_label=positive_label)


def _cmd_list(args):
    from .datasets import DATASETS
    from .evaluation import METHODS

    print("methods (fscompbio select --method NAME):")
    for name, spec in METHODS.items():
        print(f"  {name:20s} {spec.path.split(':')[1]} {spec.defaults or ''}")
    print("synthetic data sets (fscompbio make-dataset NAME):")
    for name, spec in DATASETS.items():
        print(f"  {name:28s} {spec.n_samples} x {spec.n_features}, {spec.n_relevant} relevant, {spec.description}")
    return 0


def _cmd_make_dataset(args):
    from .datasets import make_dataset, save_dataset

    ds = make_dataset(args.name, random_state=args.seed, n_samples=args.n_samples, n_features=args.n_features)
    save_dataset(ds, args.output)
    log.info("wrote %s: %s x %s", args.output, *ds.X.shape)
    return 0


def _cmd_select(args):
    from .evaluation import make_selector
    from .io import write_json
    from .model_selection import KTASelect

    ds = _load(args.data, args.label_column, args.positive_label)
    if ds.task != "binary":
        raise SystemExit(f"fscompbio: {args.data}: the selectors here need two classes; got task {ds.task!r}")
    selector = make_selector(args.method, random_state=args.seed)
    t0 = time.perf_counter()
    selector.fit(ds.X, ds.y)
    seconds = time.perf_counter() - t0
    ranking = np.asarray(selector.ranking_)
    order = np.argsort(ranking, kind="stable")
    result = {
        "data": str(args.data),
        "method": args.method,
        "seed": args.seed,
        "n_samples": ds.n_samples,
        "n_features": ds.n_features,
        "ranking": ranking,
        "scores": np.asarray(selector.scores_, dtype=float),
        "top_features": [str(ds.feature_names[j]) for j in order[: args.top]],
        "seconds_selection": seconds,
    }
    if args.model_selection == "kta":
        chosen = KTASelect().select(ds.X, ds.y, ranking=ranking)
        result.update(
            selected=[str(ds.feature_names[j]) for j in chosen.features],
            selected_indices=chosen.features,
            gamma=chosen.gamma,
            sigma=chosen.sigma,
            alignment=chosen.score,
            seconds_model_selection=chosen.seconds,
        )
    if args.output == "-":
        import json

        from .io import _to_jsonable

        json.dump(_to_jsonable(result), sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
    else:
        write_json(result, args.output)
        log.info("wrote %s", args.output)
    return 0


def _cmd_predict_cleavage(args):
    from .prediction import CleavageSiteModel
    from .prediction._cleavage_model import write_predictions

    fasta = Path(args.fasta)
    if not fasta.is_file():
        raise SystemExit(f"fscompbio: no such file: {fasta}")
    try:
        model = CleavageSiteModel.load(args.model)
    except FileNotFoundError as exc:
        raise SystemExit(f"fscompbio: {exc}") from None
    table = model.predict_fasta(fasta, n_alternatives=args.alternatives)
    write_predictions(table, args.output)
    log.info("predicted %d sequences with %s (%s)", len(table), args.model, model.metadata.get("approach"))
    return 0


def _parser():
    p = argparse.ArgumentParser(prog="fscompbio", description=__doc__.split("\n\n")[0])
    p.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    sub = p.add_subparsers(dest="command", required=True)

    sub.add_parser("list", help="list the methods and synthetic data sets").set_defaults(func=_cmd_list)

    m = sub.add_parser("make-dataset", help="write a synthetic data set of the study (.npz)")
    m.add_argument("name")
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--n-samples", type=int, default=None)
    m.add_argument("--n-features", type=int, default=None)
    m.add_argument("--output", required=True)
    m.set_defaults(func=_cmd_make_dataset)

    s = sub.add_parser("select", help="rank (and select) the features of a CSV or .npz data set")
    s.add_argument("data", help="CSV (sample_id, label, features; gzip allowed) or .npz of fscompbio")
    s.add_argument("--method", required=True, help="a method of `fscompbio list`")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--label-column", default="label")
    s.add_argument("--positive-label", default=None, help="label mapped to +1 (default: the larger, sorted)")
    s.add_argument("--model-selection", choices=["kta", "none"], default="kta",
                   help="choose the subset and width by kernel target alignment (thesis algorithm 3)")
    s.add_argument("--top", type=int, default=20, help="how many top-ranked feature names to report")
    s.add_argument("--output", default="-", help="JSON file (default: stdout)")
    s.set_defaults(func=_cmd_select)

    c = sub.add_parser("predict-cleavage", help="predict signal-peptide cleavage sites of a FASTA file (TSV)")
    c.add_argument("fasta", help="protein sequences (FASTA; header >ACCESSION or >sp|ACCESSION|NAME)")
    c.add_argument("--model", required=True, help="a model file of the workflow (results/chapter5/model/cleavage_model.pkl)")
    c.add_argument("--alternatives", type=int, default=3, help="next-best sites reported per sequence")
    c.add_argument("--output", default="-", help="TSV file (default: stdout)")
    c.set_defaults(func=_cmd_predict_cleavage)
    return p


def main(argv=None):
    args = _parser().parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(message)s")
    try:
        return args.func(args)
    except ValueError as exc:  # bad input: one clear line, no traceback
        print(f"fscompbio: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
