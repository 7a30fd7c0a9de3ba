"""The archive of the thesis config's results (archive/thesis/): it redraws its own report byte for byte, and a
config that changed since it was made is refused."""

import json
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tools.run_archive import config_digest, manifests, redraw  # noqa: E402

ARCHIVE = REPO / "archive" / "thesis"
pytestmark = pytest.mark.skipif(not (ARCHIVE / "parts").is_dir(), reason="no archived run")


def test_every_part_records_its_provenance():
    for m in manifests(ARCHIVE):
        assert len(m["commit"]) == 40 and m["environment"]["packages"]
        assert m["config_sha256"] == config_digest([REPO / c for c in m["configfiles"]])
        assert m["n_jobs_not_run"] == 0 and not m["left_out_but_drawn_from"]
        timed = [j for j in m["jobs"] if j["times"]]
        assert len(timed) >= 0.9 * len(m["jobs"])
        assert all(j["times"]["s"] > 0 for j in timed)
        for rel in m["files"]:
            assert (ARCHIVE / "files" / rel).is_file(), rel


def test_the_archive_redraws_its_report_byte_for_byte(tmp_path):
    assert redraw(ARCHIVE, tmp_path / "redraw", cores=2) == []
    assert "computed by commit" in (tmp_path / "redraw" / "figures" / "PROVENANCE.md").read_text()


def test_a_changed_config_is_refused(tmp_path):
    archive = tmp_path / "archive"
    shutil.copytree(ARCHIVE / "parts", archive / "parts")
    part = next((archive / "parts").glob("*.json"))
    m = json.loads(part.read_text())
    m["config_sha256"] = "0" * 64
    part.write_text(json.dumps(m))
    with pytest.raises(ValueError, match="changed since part"):
        redraw(archive, tmp_path / "redraw")
