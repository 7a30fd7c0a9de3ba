"""The fscompbio command on a user's CSV and on the synthetic sets."""

import json

import numpy as np
import pytest

from fscompbio.cli import main
from fscompbio.datasets import load_dataset


def test_make_dataset_and_select(tmp_path):
    npz = tmp_path / "zhang.npz"
    assert main(["make-dataset", "linear_weston", "--seed", "3", "--output", str(npz)]) == 0
    assert load_dataset(npz).X.shape == (300, 200)
    out = tmp_path / "sel.json"
    assert main(["select", str(npz), "--method", "correlation", "--output", str(out)]) == 0
    res = json.loads(out.read_text())
    assert sorted(res["ranking"]) == list(range(1, 201))
    top10 = np.argsort(res["ranking"])[:10]
    assert np.mean(top10 < 10) >= 0.8  # the planted features lead the ranking
    assert set(res["selected_indices"]) and res["alignment"] > 0


def test_select_on_a_csv_with_string_labels(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 5))
    labels = np.where(X[:, 2] > 0, "TB", "HEALTHY")
    csv = tmp_path / "m.csv"
    rows = ["sample_id,label," + ",".join(f"g{j}" for j in range(5))]
    rows += [f"s{i},{labels[i]}," + ",".join(f"{v:.5f}" for v in X[i]) for i in range(40)]
    csv.write_text("\n".join(rows) + "\n")
    out = tmp_path / "sel.json"
    assert main(["select", str(csv), "--method", "correlation", "--output", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["top_features"][0] == "g2"


def test_errors_are_one_clear_line(tmp_path, capsys):
    with pytest.raises(SystemExit, match="no such file"):
        main(["select", str(tmp_path / "missing.csv"), "--method", "correlation"])
    npz = tmp_path / "x.npz"
    main(["make-dataset", "xor", "--n-samples", "30", "--output", str(npz)])
    assert main(["select", str(npz), "--method", "lasso_magic"]) == 2
    assert "unknown method 'lasso_magic'" in capsys.readouterr().err
