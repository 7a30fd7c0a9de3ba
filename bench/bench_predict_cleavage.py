"""`fscompbio predict-cleavage` on a proteome-sized FASTA: sequences per second and peak memory.

A model of table P1's "original" approach (a Gaussian SVM on the 648 scale values, the adequate protocol) is
trained on 800 shipped sequences; the FASTA holds N distinct sequences made from the shipped ones (each copy
with one random residue of its first 50 changed, so that no two are scored once for both). The command runs
in a new process each time (peak resident memory of that process, wall and CPU time), streamed in chunks of
distinct sequences, and, as the baseline measured in the same run, with one chunk holding every sequence (the
whole file encoded at once, as the command did before it streamed).

Run: ``.venv/bin/python bench/bench_predict_cleavage.py [--sizes 20000 100000] [--quick]``. Writes only
under a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import fscompbio
from fscompbio.cleavage import APPROACH_REPRESENTATION, CleavageSiteModel, make_approach, representation_matrix
from fscompbio.cleavage import training_windows
from fscompbio.sequences import (
    STANDARD_RESIDUES,
    cleavage_windows,
    encode_windows,
    load_aa_scales,
    read_signal_peptides,
    residue_codes,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "signal_peptides"


def train_model(path, n_train=800):
    rec = read_signal_peptides(DATA / "uniprot_euk_signal_peptides.fasta", DATA / "uniprot_euk_signal_peptides.tsv")
    w = cleavage_windows(rec)
    keep = set(np.random.default_rng(0).choice(w["accession"].unique(), n_train, replace=False))
    w = w[w["accession"].isin(keep)]
    w = w.iloc[training_windows(w["label"].to_numpy(), negatives_per_positive=5, random_state=0)]
    scales = load_aa_scales()
    X = representation_matrix(APPROACH_REPRESENTATION["original"], scales=encode_windows(w, scales),
                              codes=residue_codes(w), target=w["target"].to_numpy(), first_target=10)
    est = make_approach("original").fit(X, w["label"].to_numpy())
    CleavageSiteModel(est, representation="scales", scales=scales,
                      metadata={"approach": "original", "n_sequences": n_train}).save(path)
    return rec


def write_fasta(path, rec, n, seed=0):
    rng = np.random.default_rng(seed)
    seqs = rec["sequence"].to_numpy()
    letters = np.array(list(STANDARD_RESIDUES))
    with open(path, "w") as fh:
        for i in range(n):
            s = list(seqs[i % seqs.size])
            j = rng.integers(0, min(50, len(s)))
            s[j] = letters[rng.integers(0, 20)]
            fh.write(f">S{i}\n{''.join(s)}\n")


def run(model, fasta, out, chunk):
    """Wall seconds, CPU seconds and peak resident MiB of one run of the command (``os.wait4``: this child's)."""
    cmd = [sys.executable, "-m", "fscompbio.cli", "predict-cleavage", "--model", str(model), str(fasta),
           "--output", str(out), "--chunk-size", str(chunk)]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # KiB on Linux -> MiB


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20000, 100000])
    parser.add_argument("--chunk", type=int, default=500)
    parser.add_argument("--quick", action="store_true", help="2,000 sequences only")
    parser.add_argument("--no-baseline", action="store_true", help="skip the one-chunk baseline")
    args = parser.parse_args()
    sizes = [2000] if args.quick else args.sizes
    print(f"numpy {np.__version__}, fscompbio {fscompbio.__version__}, python {platform.python_version()}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        rec = train_model(tmp / "model.pkl")
        print(f"{'sequences':>10s} {'mode':>22s} {'wall s':>8s} {'CPU s':>8s} {'seq/s':>7s} {'peak MiB':>9s}")
        for n in sizes:
            fasta = tmp / f"p{n}.fasta"
            write_fasta(fasta, rec, n)
            modes = [(f"chunks of {args.chunk}", args.chunk)]
            if not args.no_baseline and n <= 20000:
                modes.append(("one chunk (baseline)", n))
            for label, chunk in modes:
                wall, cpu, peak = run(tmp / "model.pkl", fasta, tmp / "out.tsv", chunk)
                print(f"{n:>10d} {label:>22s} {wall:8.1f} {cpu:8.1f} {n / wall:7.0f} {peak:9.0f}")


if __name__ == "__main__":
    main()
