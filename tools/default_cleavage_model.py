"""The record of `fscompbio predict-cleavage`'s default model (src/fscompbio/cleavage/data/default_model.json).

    python -m tools.default_cleavage_model            recompute the record and write it (about 3 min on 2 cores)
    python -m tools.default_cleavage_model --check    recompute it and exit 1 when the file differs

What it reads, all in the repository:

1. ``archive/thesis/report/table_P1.csv``, table P1 of the archived thesis-config run: the approach and
   training protocol of best homology-aware cross-validated accuracy are chosen from it
   (``fscompbio.cleavage.choose_model``, as the workflow's model rule chooses them), with both CV figures.
2. ``archive/thesis/config.yaml``, that run's config: the window geometry, the approach's parameters, the
   protocol's settings, the homology clustering, the number of folds and the master seed.
3. ``data/signal_peptides`` and ``data/aa_scales``, the shipped sequences and scales.

What it computes: the homology-aware cross-validation of the chosen cell again, exactly as the workflow's
rules ran it (``rules/peptides.smk``: windows, encodings, homology clusters; ``rules/chapter5.smk``:
``ch5_predict``, with the same fold seeds), keeping each test window's score so that the accuracy within
+-1 and +-2 residues of the true site can be counted beside the exact accuracy
(``fscompbio.cleavage.site_accuracy``). The exact accuracy of every fold must equal the archived fold's
(``archive/thesis/files/results/chapter5/predict/homology/...``): the tool stops otherwise, so the
recorded figures are those of the run that chose the model. Nothing in the record is typed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from fscompbio import __version__
from fscompbio.cleavage import (
    APPROACH_LABELS,
    APPROACH_REPRESENTATION,
    choose_model,
    encoded_matrix,
    make_approach,
    run_fold,
    sequence_folds,
    site_accuracy,
    summarise_accuracy,
    window_clusters,
)
from fscompbio.io import write_text
from fscompbio.seeding import derive_seed
from fscompbio.sequences import (
    cleavage_windows,
    encode_windows,
    homology_clusters,
    load_aa_scales,
    read_signal_peptides,
    residue_codes,
)

REPO = Path(__file__).resolve().parents[1]
ARCHIVE = Path("archive/thesis")
RECORD = Path("src/fscompbio/cleavage/data/default_model.json")
#: the approach parameters the workflow passes to every approach (rules/chapter5.smk, CH5_APPROACH_PARAMS)
APPROACH_PARAM_KEYS = ("svm", "stability", "rfe", "randsel", "mkl", "max_sets", "select_max_per_class", "pseudocount",
                       "combination")


def _sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _prefixes(windows):
    """Each sequence's prefix from its overlapping windows (as scripts/cluster_homologous_sequences.py)."""
    codes, _ = pd.factorize(windows["accession"])
    first = windows.groupby(codes, sort=True)["window"].agg(lambda w: w.iloc[0] + "".join(s[-1] for s in w.iloc[1:]))
    return first.to_numpy().astype(str)


def make_record(log=print):
    config = yaml.safe_load((REPO / ARCHIVE / "config.yaml").read_text())
    ch5 = config["chapter5"]
    pred, data = ch5["prediction"], ch5["data"]
    table_path = ARCHIVE / "report" / "table_P1.csv"
    choice = choose_model(pd.read_csv(REPO / table_path), **pred["model"])
    approach, protocol = choice["approach"], choice["protocol"]
    settings = dict(pred["protocols"][protocol])
    params = {k: pred[k] for k in APPROACH_PARAM_KEYS}
    seed = int(config["seed"])
    log(f"chosen by {table_path}: {approach}, {protocol} protocol ({choice['homology_cv_accuracy_mean']} % under "
        "homology-aware CV)")

    # rules/peptides.smk: windows, encodings, homology clusters of every sequence (n_sequences: null)
    if data["n_sequences"] is not None:
        raise ValueError(f"{ARCHIVE}/config.yaml: chapter5.data.n_sequences is {data['n_sequences']}; the record "
                         "is made from a run on every sequence")
    records = read_signal_peptides(REPO / data["fasta"], REPO / data["tsv"], nonstandard=data["nonstandard"])
    windows = cleavage_windows(records, prefix=data["prefix"], before=data["before"], after=data["after"])
    scales = load_aa_scales(REPO / data["scales"])
    enc = {"X": encode_windows(windows, scales).astype(np.float32), "codes": residue_codes(windows),
           "target": windows["target"].to_numpy(np.int64), "before": np.int64(data["before"])}
    y = windows["label"].to_numpy(np.int64)
    groups = pd.factorize(windows["accession"])[0].astype(np.int64)
    homology = ch5["homology"]
    clusters = homology_clusters(_prefixes(windows), identity=homology["identity"], max_shift=homology["max_shift"])
    X = encoded_matrix(APPROACH_REPRESENTATION[approach], enc)
    split = window_clusters(groups, clusters)
    n_folds = int(pred["n_folds"])
    folds_seed = derive_seed(seed, "chapter5", "folds", "homology")
    folds = sequence_folds(split, n_splits=n_folds, random_state=folds_seed)
    log(f"{np.unique(groups).size} sequences, {y.size} windows, {clusters.max() + 1} homology clusters; "
        f"{n_folds} folds")

    # rules/chapter5.smk, ch5_predict: each fold of the homology-aware CV of the chosen cell
    archived = REPO / ARCHIVE / "files/results/chapter5/predict/homology" / protocol / approach
    rows = []
    for k in range(n_folds):
        start = time.perf_counter()
        r = run_fold(make_approach(approach, params), X, y, groups, folds, k, split_groups=split,
                     random_state=derive_seed(seed, "chapter5", "homology", protocol, k), **settings)
        test = r["test_index"]
        acc = site_accuracy(r["scores"], y[test], groups[test], enc["target"][test], tolerances=(0, 1, 2))
        old = json.loads((archived / f"fold{k}.json").read_text())["accuracy"]
        if not np.isclose(acc[0], old, rtol=0, atol=1e-12) or not np.isclose(r["accuracy"], old, rtol=0, atol=1e-12):
            raise RuntimeError(f"fold {k}: exact accuracy {acc[0]!r} differs from the archived fold's {old!r} "
                               f"({archived}/fold{k}.json): not the archived run's CV")
        rows.append({"fold": k, "n_test_sequences": int(np.unique(groups[test]).size),
                     "exact": 100 * acc[0], "within_1": 100 * acc[1], "within_2": 100 * acc[2]})
        log(f"fold {k}: exact {100 * acc[0]:.2f} %, within +-1 {100 * acc[1]:.2f} %, within +-2 {100 * acc[2]:.2f} % "
            f"({time.perf_counter() - start:.1f} s)")
    summary = {}
    for key in ("exact", "within_1", "within_2"):
        mean, sd = summarise_accuracy([row[key] for row in rows])
        summary[key] = {"mean": round(mean, 2), "sd": round(sd, 2)}
    if summary["exact"]["mean"] != choice["homology_cv_accuracy_mean"]:
        raise RuntimeError(f"exact accuracy {summary['exact']} differs from table P1's "
                           f"{choice['homology_cv_accuracy_mean']}")
    for row in rows:
        row.update({key: round(row[key], 4) for key in ("exact", "within_1", "within_2")})
    return {
        "about": ("The default model of `fscompbio predict-cleavage` (no --model): the approach and training "
                  "protocol of best homology-aware cross-validated accuracy in table P1 of the archived "
                  "thesis-config run, trained on every shipped sequence on first use and cached. Written by "
                  "`python -m tools.default_cleavage_model`; nothing here is typed."),
        "choice": {**choice, "label": APPROACH_LABELS[approach]},
        "training": {
            "data": {"fasta": data["fasta"], "fasta_sha256": _sha256(REPO / data["fasta"]),
                     "tsv": data["tsv"], "tsv_sha256": _sha256(REPO / data["tsv"]),
                     "scales": data["scales"], "scales_sha256": _sha256(REPO / data["scales"])},
            "nonstandard": data["nonstandard"], "prefix": int(data["prefix"]), "before": int(data["before"]),
            "after": int(data["after"]), "protocol_settings": settings, "approach_params": params,
            "seed": derive_seed(seed, "chapter5", "model"),
            "seed_derivation": f"derive_seed({seed}, 'chapter5', 'model'), the workflow's model rule",
        },
        "site_accuracy": {
            "cv": "homology-aware CV",
            "how": (f"{n_folds} folds by homology cluster (single linkage at >= {homology['identity']:.0%} identity "
                    f"of the {data['prefix']}-residue prefixes, shifts up to {homology['max_shift']}; "
                    f"{int(clusters.max()) + 1} clusters), every inner split by cluster too; fold seed "
                    f"derive_seed({seed}, 'chapter5', 'folds', 'homology'), fold k's fit seed "
                    f"derive_seed({seed}, 'chapter5', 'homology', '{protocol}', k): the archived run's CV, "
                    "each fold's exact accuracy checked equal to the archived fold's"),
            "n_folds": n_folds, "n_sequences": int(np.unique(groups).size),
            "n_clusters": int(clusters.max()) + 1,
            **summary,
            "folds": rows,
        },
        "provenance": {
            "table_P1": str(table_path), "table_P1_sha256": _sha256(REPO / table_path),
            "config": str(ARCHIVE / "config.yaml"), "config_sha256": _sha256(REPO / ARCHIVE / "config.yaml"),
            "archived_folds": str(archived.relative_to(REPO)), "made_by": "python -m tools.default_cleavage_model",
            "fscompbio_version": __version__,
        },
    }


def _text(record):
    return json.dumps(record, indent=1, sort_keys=True) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tools.default_cleavage_model", description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="exit 1 when the record differs from the recomputed one")
    args = p.parse_args(argv)
    record = make_record(log=lambda line: print(line, file=sys.stderr))
    path = REPO / RECORD
    if args.check:
        same = path.is_file() and path.read_text() == _text(record)
        print(f"{RECORD}: {'up to date' if same else 'differs from the recomputed record'}")
        return 0 if same else 1
    write_text(_text(record), path)
    print(f"wrote {RECORD}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
