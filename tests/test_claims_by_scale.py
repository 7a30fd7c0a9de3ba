"""The claims at the quick and the thesis config's scale (tools/claims_by_scale.py): docs/reproduction.md's table
and docs/claims_by_scale.md are the generated ones, every verdict that changes with the scale has a diagnosis
(and no other claim has one), and a kept quick run edited by hand is refused."""

import json
import re
import sys
from pathlib import Path

import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # tools/ is not part of the installed package
    sys.path.insert(0, str(REPO))

from tools import claims_by_scale as S  # noqa: E402
from tools import readme_blocks  # noqa: E402


def _claims(verdicts, draws=None):
    return pd.DataFrame({"id": list(verdicts), "figures": ["fig3_3"] * len(verdicts),
                         "verdict": list(verdicts.values()),
                         "draws": [(draws or {}).get(i, "") for i in verdicts],
                         "numbers": [f"numbers of {i}" for i in verdicts]})


def _table(quick, thesis):
    from fscompbio.claims import compare_claims

    return compare_claims(_claims(quick), _claims(thesis))


def test_the_page_and_doc_are_the_generated_ones():
    assert S.main(["--check"]) == 0, "run `python -m tools.claims_by_scale`"


def test_every_thesis_verdict_in_the_page_is_the_archive_s():
    thesis = pd.read_csv(S.THESIS, keep_default_na=False).set_index("id")
    rows = [line.split("|") for line in readme_blocks.block(S.PAGE.read_text(), S.MARKERS).splitlines()
            if line.startswith("| `")]
    assert len(rows) == len(thesis)
    for cells in rows:
        claim = cells[1].strip().strip("`")
        # "holds (2 of 3), robust: yes": the verdict, then its draws and its robustness
        assert re.split(r" \(|, robust", cells[4].strip())[0] == thesis.loc[claim, "verdict"], claim
        assert f"robust: {thesis.loc[claim, 'robust']}" in cells[4] or not thesis.loc[claim, "robust"], claim


def test_a_changed_verdict_needs_a_diagnosis_and_only_a_changed_one_has_one():
    table = _table({"a": "holds", "b": "fails", "c": "not evaluated"},
                   {"a": "partly", "b": "fails", "c": "holds"})
    S.check_diagnoses(table, {"a": "more bootstraps"})
    with pytest.raises(ValueError, match="no diagnosis: a"):
        S.check_diagnoses(table, {})
    with pytest.raises(ValueError, match="does not change: b"):  # same verdict in both runs
        S.check_diagnoses(table, {"a": "x", "b": "y"})
    with pytest.raises(ValueError, match="does not change: c"):  # evaluated by one run only
        S.check_diagnoses(table, {"a": "x", "c": "y"})


def test_the_page_table_marks_and_explains_only_the_changes():
    table = _table({"a": "holds", "b": "fails"}, {"a": "partly", "b": "fails"})
    text = S.page_table(table, {"a": "more bootstraps shrink the noise"})
    row_a, row_b = [line for line in text.splitlines() if line.startswith("| `")]
    assert "**yes**: more bootstraps shrink the noise" in row_a
    assert "yes" not in row_b
    assert "verdict changed: 1." in text


def test_diagnoses_must_be_texts(tmp_path):
    bad = tmp_path / "d.yaml"
    bad.write_text("a: [1, 2]\n")
    with pytest.raises(ValueError, match="d.yaml"):
        S.read_diagnoses(bad)


def test_a_kept_quick_run_edited_by_hand_is_refused(tmp_path, monkeypatch):
    quick, provenance, thesis = tmp_path / "claims.csv", tmp_path / "provenance.json", tmp_path / "thesis.csv"
    _claims({"a": "holds"}).to_csv(quick, index=False)
    _claims({"a": "partly"}).to_csv(thesis, index=False)
    provenance.write_text(json.dumps({"commit": "0" * 40, "claims_sha256": "f" * 64}))
    monkeypatch.setattr(S, "QUICK", quick)
    monkeypatch.setattr(S, "QUICK_PROVENANCE", provenance)
    monkeypatch.setattr(S, "THESIS", thesis)
    with pytest.raises(ValueError, match="is not the file"):
        S.generate()


def test_a_readme_block_is_replaced_between_its_markers_only():
    markers = ("<!-- x:start -->", "<!-- x:end -->")
    text = f"intro\n{markers[0]}\nold\n{markers[1]}\noutro\n"
    new = readme_blocks.with_block(text, markers, "| new |\n")
    assert new == f"intro\n{markers[0]}\n| new |\n{markers[1]}\noutro\n"
    assert readme_blocks.block(new, markers) == "| new |"
    with pytest.raises(ValueError, match="no <!-- y:start -->"):
        readme_blocks.block(text, ("<!-- y:start -->", "<!-- y:end -->"))


def test_a_kept_quick_run_records_the_blas_kernels_of_its_machine(tmp_path, monkeypatch):
    run = tmp_path / "run"
    (run / "figures").mkdir(parents=True)
    (run / "results").mkdir()
    _claims({"a": "holds"}).to_csv(run / "figures" / "claims.csv", index=False)
    lib = {"user_api": "blas", "internal_api": "openblas", "version": "0.3.30", "architecture": "Haswell"}
    other = {**lib, "version": "0.3.31", "architecture": "SkylakeX"}
    (run / "results" / "environment.json").write_text(json.dumps({"blas": [lib, lib, other]}))
    monkeypatch.setattr(S, "QUICK", tmp_path / "kept" / "claims.csv")
    monkeypatch.setattr(S, "QUICK_PROVENANCE", tmp_path / "kept" / "provenance.json")
    kept = S.keep_quick_run(run / "figures" / "claims.csv", "0" * 40)
    assert kept["blas"] == "openblas 0.3.30 (Haswell), openblas 0.3.31 (SkylakeX)"
    assert json.loads((tmp_path / "kept" / "provenance.json").read_text()) == kept
    simd = {"baseline": ["X86_V2"], "found": ["X86_V3"]}  # a record that names NumPy's loops
    (run / "results" / "environment.json").write_text(json.dumps({"blas": [lib], "numpy_simd": simd}))
    assert S.keep_quick_run(run / "figures" / "claims.csv", "0" * 40)["blas"] == \
        "openblas 0.3.30 (Haswell), numpy's loops (X86_V3)"
    (run / "results" / "environment.json").unlink()  # a run without its record: no kernels claimed
    assert "blas" not in S.keep_quick_run(run / "figures" / "claims.csv", "0" * 40)
    (run / "results" / "environment.json").write_text("{}")
    with pytest.raises(ValueError, match="environment.json"):
        S.keep_quick_run(run / "figures" / "claims.csv", "0" * 40)


def test_the_first_sentence_of_a_diagnosis():
    assert S.first_sentence("Draw 0: KTA is ahead on XOR. The rest follows.") == "Draw 0: KTA is ahead on XOR."
    assert S.first_sentence("As eq. 2.8 says (section 2.5.2). Then more.") == "As eq. 2.8 says (section 2.5.2)."
    assert S.first_sentence("randSel is within 0.02 of the best") == "randSel is within 0.02 of the best"
