"""The bad-input matrix: every malformed input gets one clear error line and no output file.

Each case writes a small malformed input, runs the ``fscompbio`` command (or the
workflow's config validation) and checks: the exit code (1 bad input, 2 bad
command line), exactly one error line on stderr that names the file (or the
argument / config key) and the problem, and that no output file (not even a
temporary one) was left behind.
"""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from fscompbio.cli import main

REPO = Path(__file__).resolve().parents[1]

SEQ_A = "MKWVTFISLLLLFSSAYSRGVFRRDTHKSEIAHRFKDLGEEHFKGLVLIAFSQYLQQ"  # 57 residues
SEQ_B = "MALWMRLLPLLALLALWGPDPAAAFVNQHLCGSHLVEALYLVCGERGFFYTPKTRRE"  # 57 residues


# --------------------------------------------------------------------------
# inputs: a valid matrix and valid sequences, each case breaks one thing
# --------------------------------------------------------------------------
def _matrix(n=12, d=6, seed=0):
    """A valid CSV table (header + rows): sample_id, label (x / y alternating), g1..gd."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)).round(4)
    header = ["sample_id", "label"] + [f"g{j + 1}" for j in range(d)]
    rows = [[f"s{i + 1}", "xy"[i % 2], *map(str, X[i])] for i in range(n)]
    return header, rows


def _csv(header, rows):
    return "\n".join(",".join(r) for r in [header, *rows]) + "\n"


def _edit(fn):
    """A CSV text from the valid matrix changed by fn(header, rows) (in place)."""
    header, rows = _matrix()
    fn(header, rows)
    return _csv(header, rows)


def _set(row, col, value):
    def fn(header, rows):
        rows[row][col] = value

    return _edit(fn)


def _relabel(labels):
    def fn(header, rows):
        for r, lab in zip(rows, labels):
            r[1] = lab

    return _edit(fn)


def _constant(header, rows):
    for r in rows:
        r[2:] = ["1.5"] * (len(r) - 2)


VALID = _csv(*_matrix())
FASTA = f">P1\n{SEQ_A}\n>sp|P2|TEST_HUMAN a UniProt header\n{SEQ_B}\n"
TSV = "Accession\tOrganism\tCleavage_Site\nP1\tHomo sapiens\t18\nP2\tHomo sapiens\t24\n"


def _model_bytes():
    """A small cleavage-site model (a weight matrix on residue codes) as the bytes of its .npz file."""
    import tempfile

    from fscompbio.cleavage import CleavageSiteModel
    from fscompbio.prediction import PositionWeightMatrix

    codes = np.random.default_rng(0).integers(0, 20, size=(200, 12))
    y = np.r_[np.ones(20, int), np.zeros(180, int)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.npz"
        CleavageSiteModel(PositionWeightMatrix().fit(codes, y), representation="codes").save(path)
        return path.read_bytes()


def _gzip_truncated(text):
    import gzip

    data = gzip.compress(text.encode())
    return data[: len(data) // 2]


MODEL = _model_bytes()
PREDICT = ["predict-cleavage", "--model", "{dir}/model.npz"]

# Each case: id -> (files {name: text or bytes}, argv with {dir} for the folder, exit code, message regex).
# Outputs go to {dir}/out/, which must stay empty.
CASES = {
    # ---- CSV matrices (fscompbio select / evaluate)
    "csv-missing-file": ({}, ["select", "{dir}/none.csv", "--method", "correlation"], 1,
                         r"none\.csv: no such file"),
    "csv-empty-file": ({"m.csv": ""}, ["select", "{dir}/m.csv", "--method", "correlation"], 1,
                       r"m\.csv: empty file; expected a header line"),
    "csv-header-only": ({"m.csv": "sample_id,label,g1,g2\n"}, ["select", "{dir}/m.csv", "--method", "correlation"],
                        1, r"m\.csv: no samples \(only a header line\)"),
    "csv-one-class": ({"m.csv": _relabel(["x"] * 12)}, ["select", "{dir}/m.csv", "--method", "correlation"], 1,
                      r"m\.csv: column 'label' has one value \('x'\) for all 12 samples"),
    "csv-duplicate-sample-id": ({"m.csv": _set(4, 0, "s2")}, ["select", "{dir}/m.csv", "--method", "correlation"], 1,
                                r"m\.csv: duplicate sample_id 's2' \(rows 3 and 6\)"),
    "csv-duplicate-feature-name": ({"m.csv": _edit(lambda h, r: h.__setitem__(4, "g1"))},
                                   ["select", "{dir}/m.csv", "--method", "correlation"], 1,
                                   r"m\.csv: duplicate column name 'g1' \(columns 3 and 5\)"),
    "csv-no-feature-columns": ({"m.csv": "sample_id,label\ns1,x\ns2,y\ns3,x\ns4,y\n"},
                               ["select", "{dir}/m.csv", "--method", "correlation"], 1,
                               r"m\.csv: no feature columns; found only \['sample_id', 'label'\]"),
    "csv-no-label-column": ({"m.csv": _edit(lambda h, r: h.__setitem__(1, "class"))},
                            ["select", "{dir}/m.csv", "--method", "correlation"], 1,
                            r"m\.csv: no label column 'label'"),
    "csv-non-numeric-value": ({"m.csv": _set(2, 3, "high")}, ["select", "{dir}/m.csv", "--method", "correlation"], 1,
                              r"m\.csv: non-numeric value 'high' at row 4, column 'g2' \(sample 's3'\)"),
    "csv-missing-value": ({"m.csv": _set(5, 6, "")}, ["select", "{dir}/m.csv", "--method", "correlation"], 1,
                          r"m\.csv: missing value at row 7, column 'g5' \(sample 's6'\)"),
    "csv-infinite-value": ({"m.csv": _set(0, 2, "inf")}, ["select", "{dir}/m.csv", "--method", "correlation"], 1,
                           r"m\.csv: infinite value \(inf\) at row 2, column 'g1' \(sample 's1'\)"),
    "csv-missing-label": ({"m.csv": _set(1, 1, "")}, ["select", "{dir}/m.csv", "--method", "correlation"], 1,
                          r"m\.csv: missing label at row 3, column 'label' \(sample 's2'\)"),
    "csv-label-with-one-sample": ({"m.csv": _relabel(["x", "y"] * 5 + ["x", "z"])},
                                  ["select", "{dir}/m.csv", "--method", "correlation"], 1,
                                  r"m\.csv: label 'z' in column 'label' has a single sample, at row 13 \(sample "
                                  r"'s12'\); each class needs at least 2"),
    "csv-class-of-one-sample": ({"m.csv": _relabel(["x"] * 11 + ["y"])},
                                ["select", "{dir}/m.csv", "--method", "correlation"], 1,
                                r"m\.csv: label 'y' in column 'label' has a single sample, at row 13 \(sample 's12'\); "
                                r"each class needs at least 2"),
    "csv-more-classes-than-binary": ({"m.csv": _relabel(["a", "b", "c"] * 4)},
                                     ["evaluate", "{dir}/m.csv", "--method", "correlation", "--folds", "2"], 2,
                                     r"argument --method: correlation needs two classes; .*m\.csv has several "
                                     r"classes, for which the methods are randsel, bahsic, fohsic"),
    "csv-real-valued-label-too-few-for-inner-folds": (
        {"m.csv": _relabel([f"{0.1 * i + 0.05:.2f}" for i in range(12)])},
        ["evaluate", "{dir}/m.csv", "--method", "randsel", "--folds", "2"], 1,
        r"m\.csv: NestedCVRegressionSelect: 6 samples are too few for 10 inner folds"),
    "csv-more-folds-than-samples": ({"m.csv": _relabel([f"{0.1 * i + 0.05:.2f}" for i in range(12)])},
                                    ["evaluate", "{dir}/m.csv", "--method", "randsel", "--folds", "20"], 1,
                                    r"m\.csv: --folds 20 is more than its 12 samples"),
    "csv-all-features-constant": ({"m.csv": _edit(_constant)}, ["select", "{dir}/m.csv", "--method", "correlation"],
                                  1, r"m\.csv: every feature is constant \(6 of 6\); nothing to select"),
    "csv-not-gzip": ({"m.csv.gz": b"sample_id,label\n"}, ["select", "{dir}/m.csv.gz", "--method", "correlation"], 1,
                     r"m\.csv\.gz: not a readable CSV file"),
    "csv-positive-label-unknown": ({"m.csv": VALID},
                                   ["select", "{dir}/m.csv", "--method", "correlation", "--positive-label", "TB"], 1,
                                   r"m\.csv: positive_label 'TB' is not a label; labels are \['x', 'y'\]"),
    "npz-not-an-archive": ({"d.npz": "not an npz\n"}, ["select", "{dir}/d.npz", "--method", "correlation"], 1,
                           r"d\.npz: not a readable \.npz data set \(not a zip archive of arrays"),
    "subset-larger-than-data": ({"m.csv": VALID},
                                ["select", "{dir}/m.csv", "--method", "correlation", "--n-features", "50"], 1,
                                r"m\.csv: --n-features 50 is larger than the 6 features of the data"),
    "more-folds-than-class-samples": ({"m.csv": VALID},
                                      ["evaluate", "{dir}/m.csv", "--method", "correlation", "--folds", "10"], 1,
                                      r"m\.csv: label 'x' in column 'label' has only 6 samples; each class needs at "
                                      r"least 10"),
    "more-inner-folds-than-class-samples": ({"m.csv": VALID},
                                            ["evaluate", "{dir}/m.csv", "--method", "correlation", "--folds", "3",
                                             "--model-selection", "cv", "--inner-folds", "5"], 1,
                                            r"m\.csv: a training part has only 4 samples of one class, fewer than "
                                            r"--inner-folds 5"),
    # ---- command line (usage errors: exit code 2, the argument named)
    "unknown-method-on-a-bad-csv": ({"m.csv": ""}, ["select", "{dir}/m.csv", "--method", "nope"], 2,
                                    r"fscompbio select: error: argument --method: unknown method 'nope'; choose from "
                                    r"correlation, "),
    "unknown-dataset-name": ({}, ["make-dataset", "nope", "--output", "{dir}/out/d.npz"], 2,
                             r"fscompbio make-dataset: error: argument name: unknown data set 'nope'; choose from "),
    "unknown-method-parameter": ({"m.csv": VALID},
                                 ["select", "{dir}/m.csv", "--method", "randsel", "--param", "n_subset=10"], 2,
                                 r"fscompbio select: error: argument --param: randsel has no parameter 'n_subset'; "
                                 r"its parameters are "),
    "invalid-method-parameter": ({"m.csv": VALID},
                                 ["evaluate", "{dir}/m.csv", "--method", "randsel", "--param", "subsample=0"], 2,
                                 r"fscompbio evaluate: error: argument --param: The 'subsample' parameter of RandSel "
                                 r"must be .*Got 0 instead\."),
    "zero-size": ({"m.csv": VALID}, ["select", "{dir}/m.csv", "--method", "correlation", "--top", "0"], 2,
                  r"fscompbio select: error: argument --top: must be >= 1; got 0"),
    "negative-size": ({}, ["make-dataset", "xor", "--n-samples", "-5", "--output", "{dir}/out/d.npz"], 2,
                      r"fscompbio make-dataset: error: argument --n-samples: must be >= 1; got -5"),
    "non-integer-size": ({"m.csv": VALID}, ["evaluate", "{dir}/m.csv", "--method", "correlation", "--folds", "two"], 2,
                         r"fscompbio evaluate: error: argument --folds: expected an integer; got 'two'"),
    "missing-required-option": ({"m.csv": VALID}, ["select", "{dir}/m.csv"], 2,
                                r"fscompbio select: error: the following arguments are required: --method"),
    "unknown-subcommand": ({}, ["selekt", "m.csv"], 2, r"fscompbio: error: argument SUBCOMMAND: invalid choice: "
                                                        r"'selekt'"),
    "window-longer-than-prefix": ({"sp.fasta": FASTA, "sp.tsv": TSV},
                                  ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv", "--prefix", "5"], 2,
                                  r"fscompbio encode: error: --before \+ 1 \+ --after = 12 exceeds --prefix 5"),
    "negative-window-size": ({"sp.fasta": FASTA, "sp.tsv": TSV},
                             ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv", "--before", "-1"], 2,
                             r"fscompbio encode: error: argument --before: must be >= 0; got -1"),
    # ---- output paths (bad input: exit code 1, before any work)
    "output-folder-is-a-file": ({"m.csv": VALID, "out": "a file, not a folder"},
                                ["select", "{dir}/m.csv", "--method", "correlation", "--output", "{dir}/out/r.json"], 1,
                                r"out/r\.json: cannot create it: .*out is a file, not a folder"),
    "output-is-a-folder": ({"m.csv": VALID}, ["select", "{dir}/m.csv", "--method", "correlation", "--output", "{dir}"],
                           1, r": is a folder, not a file"),
    # ---- FASTA + TSV (fscompbio encode)
    "fasta-missing-file": ({"sp.tsv": TSV}, ["encode", "{dir}/none.fasta", "{dir}/sp.tsv"], 1,
                           r"none\.fasta: no such file"),
    "fasta-garbage": ({"sp.fasta": "Accession\tSequence\nP1\t" + SEQ_A + "\n", "sp.tsv": TSV},
                      ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv"], 1,
                      r"sp\.fasta: not a valid FASTA file: it has lines before its first '>' header \(each record "
                      r"starts with a line '>accession', its sequence on the lines below; a bare sequence needs such a "
                      r"line above it\)$"),
    "fasta-bare-sequence": ({"p.fasta": SEQ_A + "\n", "model.npz": MODEL}, [*PREDICT, "{dir}/p.fasta"], 1,
                            r"p\.fasta: not a valid FASTA file: it has lines before its first '>' header"),
    "fasta-empty": ({"sp.fasta": "", "sp.tsv": TSV}, ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv"], 1,
                    r"sp\.fasta: no FASTA records found"),
    "fasta-binary": ({"sp.fasta": b"\x89PNG\r\n\x1a\n\xff\xfe", "sp.tsv": TSV},
                     ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv"], 1, r"sp\.fasta: not a valid FASTA file"),
    "fasta-duplicate-accession-different-sequences": (
        {"sp.fasta": FASTA + f">P1\n{SEQ_B}\n", "sp.tsv": TSV}, ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv"], 1,
        r"sp\.fasta: duplicate accession 'P1' \(record 3\), with a different sequence from record 1"),
    "fasta-non-standard-residues": ({"sp.fasta": FASTA.replace("RGVFRR", "RGbxRR"), "sp.tsv": TSV},
                                    ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv", "--nonstandard", "error"], 1,
                                    r"sp\.fasta: record 'P1' has non-standard residue\(s\) 'BX'"),
    "sequences-shorter-than-prefix": ({"sp.fasta": FASTA, "sp.tsv": TSV},
                                      ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv", "--prefix", "60"], 1,
                                      r"sp\.fasta: no windows: every one of the 2 sequences was dropped \(2 shorter "
                                      r"than --prefix 60\)"),
    "tsv-missing-file": ({"sp.fasta": FASTA}, ["encode", "{dir}/sp.fasta", "{dir}/none.tsv"], 1,
                         r"none\.tsv: no such file"),
    "tsv-empty": ({"sp.fasta": FASTA, "sp.tsv": ""}, ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv"], 1,
                  r"sp\.tsv: empty file; expected a tab-separated header with columns "
                  r"\['Accession', 'Cleavage_Site'\]"),
    "tsv-missing-column": ({"sp.fasta": FASTA, "sp.tsv": TSV.replace("Cleavage_Site", "Site")},
                           ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv"], 1,
                           r"sp\.tsv: missing column\(s\) \['Cleavage_Site'\]"),
    "tsv-missing-accession": ({"sp.fasta": FASTA, "sp.tsv": TSV.replace("P2\t", "\t")},
                              ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv"], 1, r"sp\.tsv: line 3 has no Accession"),
    "tsv-duplicate-accession": ({"sp.fasta": FASTA, "sp.tsv": TSV + "P1\tHomo sapiens\t18\n"},
                                ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv"], 1,
                                r"sp\.tsv: duplicate accession 'P1' \(lines 2 and 4\)"),
    "tsv-cleavage-site-out-of-range": ({"sp.fasta": FASTA, "sp.tsv": TSV.replace("\t24", "\t57")},
                                       ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv"], 1,
                                       r"sp\.tsv: record 'P2' has Cleavage_Site 57 outside the sequence \(must be "
                                       r"1\.\.56"),
    "tsv-non-integer-cleavage-site": ({"sp.fasta": FASTA, "sp.tsv": TSV.replace("\t24", "\t24.5")},
                                      ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv"], 1,
                                      r"sp\.tsv: record 'P2' has a non-integer Cleavage_Site '24\.5'"),
    "tsv-accession-without-sequence": ({"sp.fasta": FASTA, "sp.tsv": TSV + "P3\tHomo sapiens\t20\n"},
                                       ["encode", "{dir}/sp.fasta", "{dir}/sp.tsv"], 1,
                                       r"sp\.tsv: record 'P3' has a missing sequence \(no such accession in"),
    # ---- predict-cleavage (a small model; the default model is never trained: every case fails first)
    "predict-output-into-a-missing-folder": ({"p.fasta": FASTA},
                                             ["predict-cleavage", "{dir}/p.fasta", "--output", "{dir}/no/sites.tsv"],
                                             1, r"sites\.tsv: folder .*no does not exist; create it first"),
    "predict-fasta-missing-file": ({}, ["predict-cleavage", "{dir}/none.fasta"], 1, r"none\.fasta: no such file"),
    "predict-fasta-gzip-damaged": ({"p.fasta.gz": _gzip_truncated(FASTA * 40), "model.npz": MODEL},
                                   [*PREDICT, "{dir}/p.fasta.gz"], 1, r"p\.fasta\.gz: not a valid gzip file"),
    "predict-fasta-binary": ({"p.fasta": b"\x89PNG\r\n\x1a\n\xff\xfe", "model.npz": MODEL},
                             [*PREDICT, "{dir}/p.fasta"], 1, r"p\.fasta: not a valid FASTA file"),
    "predict-strict-nucleotide-record": ({"p.fasta": FASTA + ">D1\nATGGCGTTTAAACGCGCTAGCTAGGATCC\n",
                                          "model.npz": MODEL}, [*PREDICT, "{dir}/p.fasta", "--strict"], 1,
                                         r"p\.fasta: sequence 'D1': looks like a nucleotide sequence"),
    "predict-model-not-a-model": ({"p.fasta": FASTA, "model.npz": b"PK\x03\x04 not really a zip"},
                                  [*PREDICT, "{dir}/p.fasta"], 1,
                                  r"model\.npz: not a cleavage-site model written by fscompbio"),
    "predict-unknown-format": ({"p.fasta": FASTA}, ["predict-cleavage", "{dir}/p.fasta", "--format", "xml"], 2,
                               r"fscompbio predict-cleavage: error: argument --format: invalid choice: 'xml'"),
}

# where the output of each subcommand would go (must not appear)
OUTPUT_ARGS = {
    "select": ["--output", "{dir}/out/result.json"],
    "evaluate": ["--output", "{dir}/out/folds.json"],
    "encode": ["--output", "{dir}/out/encoded.npz", "--windows", "{dir}/out/windows.csv"],
    "predict-cleavage": ["--output", "{dir}/out/sites.tsv"],
}


def _run_case(tmp_path, capsys, files, argv):
    for name, text in files.items():
        path = tmp_path / name
        path.write_bytes(text) if isinstance(text, bytes) else path.write_text(text)
    argv = [a.format(dir=tmp_path) for a in argv]
    if "--output" not in argv and argv[0] in OUTPUT_ARGS:
        argv += [a.format(dir=tmp_path) for a in OUTPUT_ARGS[argv[0]]]
        (tmp_path / "out").mkdir()  # an output into a missing folder is itself an error (a case below)
    before = {p for p in tmp_path.rglob("*")}
    code = main(argv)
    err = capsys.readouterr().err
    return code, err, {p for p in tmp_path.rglob("*")} - before


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_gives_one_clear_error_line_and_no_output(tmp_path, capsys, case):
    files, argv, expected_code, pattern = CASES[case]
    code, err, created = _run_case(tmp_path, capsys, files, argv)
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected one error line; got:\n{err}"
    assert lines[0].startswith("fscompbio") and ": error: " in lines[0], lines[0]
    assert re.search(pattern, lines[0]), f"{pattern!r} not in {lines[0]!r}"
    assert code == expected_code, f"exit code {code}, expected {expected_code}: {lines[0]}"
    assert not created, f"left behind: {sorted(map(str, created))}"


def test_matrix_covers_the_issue():
    """At least 25 malformed inputs, across CSV, FASTA/TSV and the command line (config: below)."""
    assert len(CASES) >= 25
    kinds = {c.split("-")[0] for c in CASES}
    assert {"csv", "fasta", "tsv"} <= kinds


def test_errors_reach_the_shell_as_exit_codes(tmp_path):
    """The installed command returns the codes to the shell: 1 bad input, 2 usage, one stderr line each."""
    (tmp_path / "m.csv").write_text(_relabel(["x"] * 12))
    bad_input = subprocess.run([sys.executable, "-m", "fscompbio.cli", "select", str(tmp_path / "m.csv"),
                                "--method", "correlation"], capture_output=True, text=True, timeout=120)
    usage = subprocess.run([sys.executable, "-m", "fscompbio.cli", "select", str(tmp_path / "m.csv"),
                            "--method", "nope"], capture_output=True, text=True, timeout=120)
    assert bad_input.returncode == 1 and usage.returncode == 2
    assert len(bad_input.stderr.strip().splitlines()) == 1 and "has one value ('x')" in bad_input.stderr
    assert len(usage.stderr.strip().splitlines()) == 1 and "unknown method 'nope'" in usage.stderr
    assert bad_input.stdout == usage.stdout == ""


# --------------------------------------------------------------------------
# config.yaml: the workflow refuses a bad config at parse time, naming the file and the key
# --------------------------------------------------------------------------
CONFIG_CASES = {
    "negative-seed": ("seed: -3\n", r"config key seed: -3 is less than the minimum of 0"),
    "unknown-synthetic-dataset": ("datasets:\n  synthetic: [xor, nope]\n",
                                  r"config key datasets\.synthetic\.1: 'nope' is not one of \['fake_class'"),
    "missing-csv-path": ("datasets:\n  csv:\n    mine: {path: data/not_there.csv}\n",
                         r"config key datasets\.csv\.mine\.path: no such file 'data/not_there\.csv' \(relative to "),
    "unknown-csv-option": ("datasets:\n  csv:\n    tb_serum: {path: data/expression/tb_serum_metabolomics.csv.gz, "
                           "labels: TB}\n",
                           r"config key datasets\.csv\.tb_serum: Additional properties are not allowed \('labels' was "
                           r"unexpected\)"),
    "unknown-top-level-key": ("sed: 3\n", r"config key \(top level\): Additional properties are not allowed \('sed' "
                                          r"was unexpected\)"),
    "wrong-type": ("spine:\n  fig4_1:\n    n_bootstraps: many\n",
                   r"config key spine\.fig4_1\.n_bootstraps: 'many' is not of type 'integer'"),
    "unknown-method-name": ("chapter3:\n  methods: [correlation, lasso_magic]\n",
                            r"config key chapter3\.methods\.1: 'lasso_magic' is not one of"),
    "inner-selectors-of-another-method": ("chapter3:\n  cv:\n    inner_selectors: {fohsic: {n_bootstraps: 10}}\n",
                                          r"config key chapter3\.cv\.inner_selectors: method\(s\) \['fohsic'\] are "
                                          r"not in chapter3\.methods \['correlation'"),
}


@pytest.mark.parametrize("case", sorted(CONFIG_CASES))
def test_bad_config_is_refused_with_file_key_and_problem(tmp_path, case):
    text, pattern = CONFIG_CASES[case]
    bad = tmp_path / "my_config.yaml"
    bad.write_text(text)
    work = tmp_path / "work"
    work.mkdir()
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(work),
           "--configfile", str(REPO / "config.yaml"), str(bad), "--dry-run"]
    run = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    errors = [line for line in (run.stdout + run.stderr).splitlines() if "config key" in line]
    assert len(errors) == 1, run.stdout + run.stderr
    assert "my_config.yaml" in errors[0] and re.search(pattern, errors[0]), errors[0]
    assert not [p for p in work.rglob("*") if p.is_file() and ".snakemake" not in p.parts]



def test_unwritable_output_folder(tmp_path, capsys, monkeypatch):
    """A folder the user may not write in (read-only mount, permissions; simulated, since root may write
    anywhere): refused before any work, naming the output and the folder."""
    import tempfile

    (tmp_path / "m.csv").write_text(VALID)
    locked = tmp_path / "locked"
    locked.mkdir()

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", denied)
    monkeypatch.setattr(tempfile, "mkdtemp", denied)
    out = locked / "r.json"
    code = main(["select", str(tmp_path / "m.csv"), "--method", "correlation", "--output", str(out)])
    line = capsys.readouterr().err.strip()
    assert code == 1 and line == f"fscompbio: error: {out}: cannot write in folder {locked} (Permission denied)"
    assert list(locked.iterdir()) == []
