"""The synthetic generators: determinism, shapes, relevant features, class balance, the recipes."""

import numpy as np
import pytest
from scipy import stats

from fscompbio.datasets import DATASETS, load_csv_dataset, load_dataset, make_dataset, save_dataset
from fscompbio.kernels import alignment, gaussian_kernel, label_kernel, median_distance
from fscompbio.plots.datasets import THESIS_TABLE3_1

SHAPES = {
    "fake_class": (300, 200, 10),
    "linear_zhang_feature_noise": (300, 200, 10),
    "linear_zhang_sample_noise": (300, 200, 10),
    "linear_weston": (300, 200, 10),
    "nonlinear_weston": (300, 200, 10),
    "xor": (300, 200, 2),
    "linear_weston_100": (300, 100, 5),
    "nonlinear_weston_100": (300, 100, 5),
    "xor_100": (300, 100, 2),
    "xor_d": (1000, 200, 2),
    "additive": (200, 1004, 4),
    "nonadditive": (200, 1003, 3),
    "sine": (200, 1001, 1),
    "spiral": (200, 1002, 2),
}
CLASSIFICATION = [n for n, s in DATASETS.items() if s.task == "binary"]


def test_registry_has_exactly_the_documented_names():
    assert set(DATASETS) == set(SHAPES)


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_shape_relevant_and_determinism(name):
    n, d, k = SHAPES[name]
    a = make_dataset(name, random_state=7)
    b = make_dataset(name, random_state=7)
    c = make_dataset(name, random_state=8)
    assert a.X.shape == (n, d) and a.y.shape == (n,)
    np.testing.assert_array_equal(a.relevant, np.arange(k))
    assert a.X.tobytes() == b.X.tobytes() and a.y.tobytes() == b.y.tobytes()
    assert not np.array_equal(a.X, c.X)
    assert np.all(np.isfinite(a.X))
    if a.task == "binary":
        assert set(np.unique(a.y)) == {-1, 1}
    else:
        assert a.task == "regression" and a.y.dtype == np.float64


def test_size_overrides_and_errors():
    ds = make_dataset("xor", random_state=0, n_samples=50, n_features=7)
    assert ds.X.shape == (50, 7) and ds.feature_names.tolist()[-1] == "x6"
    with pytest.raises(ValueError, match="unknown dataset 'xorr'"):
        make_dataset("xorr")
    with pytest.raises(ValueError, match="n_features must be >= 10"):
        make_dataset("linear_weston", n_features=5)


@pytest.mark.parametrize("name", CLASSIFICATION)
def test_class_balance_is_binomial_half(name):
    """Labels are +-1 with probability 1/2: counts over 20 seeds pass a binomial test."""
    pos = sum(int(np.sum(make_dataset(name, random_state=s).y == 1)) for s in range(20))
    n = 20 * SHAPES[name][0]
    assert stats.binomtest(pos, n, 0.5).pvalue > 1e-3


def test_thesis_table3_1_is_consistent_with_fair_labels():
    """Thesis table 3.1 is one draw of 300 with p = 1/2 (its non-linear Weston row is a typo)."""
    for name, (pos, neg) in THESIS_TABLE3_1.items():
        assert stats.binomtest(pos, 300, 0.5).pvalue > 0.01
        ours = make_dataset(name, random_state=0).y
        # our proportions lie in the same 99.9% binomial band as the thesis'
        lo, hi = stats.binom.ppf([0.0005, 0.9995], 300, 0.5)
        assert lo <= np.sum(ours == 1) <= hi and lo <= pos <= hi


def test_linear_zhang_relevant_features_shift_with_class():
    ds = make_dataset("linear_zhang_sample_noise", random_state=1, n_samples=20000)
    ok = np.ones(ds.n_samples, bool)
    diff = ds.X[ok & (ds.y == 1), :10].mean(0) - ds.X[ok & (ds.y == -1), :10].mean(0)
    np.testing.assert_allclose(diff, 0.5, atol=0.15)  # N(+0.25) vs N(-0.25)
    noise_diff = ds.X[ds.y == 1, 10:].mean(0) - ds.X[ds.y == -1, 10:].mean(0)
    assert np.abs(noise_diff).max() < 0.15
    # 5% outlier samples: about 5% of rows have every feature's sd near 10
    row_sd = ds.X[:, 10:].std(axis=1)
    assert np.mean(row_sd > 5) == pytest.approx(0.05, abs=0.005)


def test_linear_zhang_feature_noise_outliers():
    ds = make_dataset("linear_zhang_feature_noise", random_state=2, n_samples=4000)
    big = np.abs(ds.X[:, :10]) > 5  # N(., 1) almost never exceeds 5; N(., 100) often does
    assert 0.02 < big.mean() < 0.05  # 5% outliers, of which P(|N(0, 10^2)| > 5) = 62% are big
    assert np.abs(ds.X[:, 10:]).max() < 6


def test_linear_zhang_feature_noise_moments():
    """The reading of A.3 item 4: 5% outliers of variance 100 in the relevant features give them variance
    0.95 (1 + 0.25^2) + 0.05 (100 + 0.25^2) = 6.06 and a correlation with y of 0.25 / sqrt(6.06) = 0.10
    (0.24 without outliers): the weak signal behind figures 3.4 and 4.5 (see their captions)."""
    ds = make_dataset("linear_zhang_feature_noise", random_state=9, n_samples=40000)
    var = ds.X[:, :10].var(axis=0)
    np.testing.assert_allclose(var, 0.95 * 1.0625 + 0.05 * 100.0625, rtol=0.1)
    r = [np.corrcoef(ds.X[:, j], ds.y)[0, 1] for j in range(10)]
    np.testing.assert_allclose(r, 0.25 / np.sqrt(6.06), atol=0.02)


def test_linear_weston_recipe():
    ds = make_dataset("linear_weston", random_state=3, n_samples=20000)
    z = ds.X[:, :10] * ds.y[:, None]  # y x_i = N(i, 1) when the group carries signal
    means = z.mean(0)
    expected = np.r_[0.7 * np.arange(1, 6), 0.3 * np.arange(1, 6)]
    np.testing.assert_allclose(means, expected, atol=0.05)
    assert ds.X[:, 10:].std() == pytest.approx(20, rel=0.02)


def test_nonlinear_weston_class_means_coincide_but_kernel_separates():
    ds = make_dataset("nonlinear_weston", random_state=4, n_samples=20000)
    diff = ds.X[ds.y == 1, :10].mean(0) - ds.X[ds.y == -1, :10].mean(0)
    assert np.abs(diff).max() < 0.15  # symmetric mixtures: linear, mean-based selectors fail
    small = make_dataset("nonlinear_weston", random_state=4)
    L = label_kernel(small.y)
    Xr, Xn = small.X[:, :10], small.X[:, 10:20]
    a_rel = alignment(gaussian_kernel(Xr, sigma=median_distance(Xr)), L)
    a_noise = alignment(gaussian_kernel(Xn, sigma=median_distance(Xn)), L)
    assert a_rel > 0.08 and a_rel > 5 * abs(a_noise)


def test_xor_labels():
    ds = make_dataset("xor", random_state=5)
    np.testing.assert_array_equal(ds.y, np.where(ds.X[:, 0] * ds.X[:, 1] > 0, 1, -1))


@pytest.mark.parametrize(
    "name, f",
    [
        ("additive", lambda X: -2 * np.sin(2 * X[:, 0]) + X[:, 1] ** 2 + X[:, 2] + np.exp(-X[:, 3])),
        ("nonadditive", lambda X: X[:, 0] * np.exp(2 * X[:, 1]) + X[:, 2] ** 2),
        ("sine", lambda X: np.sin(2 * np.pi * X[:, 0])),
    ],
)
def test_regression_equations(name, f):
    """Sun, Yao & Goodison (2015) eqs. 4.18-4.20: the residual is the documented noise."""
    ds = make_dataset(name, random_state=6, n_samples=5000)
    resid = ds.y - f(ds.X)
    assert resid.mean() == pytest.approx(0, abs=0.05)
    assert resid.std() == pytest.approx(0.1 if name == "sine" else 1.0, rel=0.05)


def test_spiral_equation():
    ds = make_dataset("spiral", random_state=6, n_samples=5000)
    r = ds.X[:, 0] - ds.y * np.sin(ds.y)
    assert r.std() == pytest.approx(1.0, rel=0.05)
    assert ds.y.min() >= 0 and ds.y.max() <= 20


def test_npz_round_trip(tmp_path):
    ds = make_dataset("nonlinear_weston_100", random_state=0)
    path = tmp_path / "d.npz"
    save_dataset(ds, path)
    back = load_dataset(path)
    assert back.X.tobytes() == ds.X.tobytes()
    np.testing.assert_array_equal(back.y, ds.y)
    np.testing.assert_array_equal(back.relevant, ds.relevant)
    assert back.task == "binary" and back.name == "nonlinear_weston_100"
    assert list(back.feature_names[:2]) == ["x0", "x1"]


def _write(path, **arrays):
    base = dict(X=np.zeros((3, 2)), y=np.array([1, -1, 1]), feature_names=np.array(["a", "b"]),
                relevant=np.array([0]), task=np.array("binary"))
    base.update(arrays)
    np.savez(path, **{k: v for k, v in base.items() if v is not None})


@pytest.mark.parametrize(
    "override, message",
    [
        ({"task": None}, "missing arrays \\['task'\\]"),
        ({"y": np.array([1, -1])}, "y has shape"),
        ({"X": np.array([[0.0, np.nan], [1, 1], [2, 2]])}, "non-finite values, first at sample 0, feature 'b'"),
        ({"relevant": np.array([5])}, "relevant indices must lie in \\[0, 2\\)"),
        ({"task": np.array("ranking")}, "task must be one of"),
        ({"y": np.array([0, 1, 1])}, "binary task needs labels"),
    ],
)
def test_load_dataset_errors_name_the_file(tmp_path, override, message):
    path = tmp_path / "bad.npz"
    _write(path, **override)
    with pytest.raises(ValueError, match=message) as err:
        load_dataset(path)
    assert "bad.npz" in str(err.value)


def test_load_dataset_rejects_non_npz(tmp_path):
    path = tmp_path / "x.npz"
    path.write_text("not a zip")
    with pytest.raises(ValueError, match="x.npz"):
        load_dataset(path)


def test_load_csv_dataset(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("sample_id,label,g1,g2\ns1,TB,1.0,2.0\ns2,HEALTHY,0.5,1.0\ns3,TB,0.1,0.2\n")
    ds = load_csv_dataset(path)
    assert ds.task == "binary" and ds.y.tolist() == [1, -1, 1]  # sorted labels: 'TB' > 'HEALTHY' is +1
    assert ds.feature_names.tolist() == ["g1", "g2"]
    assert load_csv_dataset(path, positive_label="HEALTHY").y.tolist() == [-1, 1, -1]
    bad = tmp_path / "bad.csv"
    bad.write_text("sample_id,label,g1\ns1,TB,1.0\ns2,HEALTHY,\n")
    with pytest.raises(ValueError, match="row 3, column 'g1'"):
        load_csv_dataset(bad)


def test_load_csv_dataset_on_shipped_expression_data():
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "data" / "expression" / "colon.csv.gz"
    ds = load_csv_dataset(path)
    assert ds.X.shape == (62, 2000) and ds.task == "binary"
    assert sorted(np.bincount((ds.y + 1) // 2).tolist()) == [22, 40]


def test_top_variance_keeps_the_widest_features_in_order():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((50, 6)) * np.array([1.0, 5.0, 0.1, 3.0, 4.0, 0.5])
    ds = make_dataset("xor", random_state=0, n_samples=50, n_features=6)
    ds = type(ds)(X=X, y=ds.y, relevant=np.array([1, 2]), task="binary", feature_names=np.array(list("abcdef")),
                  name="t")
    from fscompbio.datasets import top_variance

    top = top_variance(ds, 3)
    assert top.feature_names.tolist() == ["b", "d", "e"]  # the three widest, in their original order
    np.testing.assert_array_equal(top.X, X[:, [1, 3, 4]])
    assert top.relevant.tolist() == [0]  # feature 1 is now 0; feature 2 (dropped) is lost
    assert top_variance(ds, 10) is ds
    with pytest.raises(ValueError, match="k must be >= 1"):
        top_variance(ds, 0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_standardized_data_are_unit_scale_and_keep_everything_else(seed):
    from fscompbio.datasets import scale_disparity, standardized

    rng = np.random.default_rng(seed)
    ds = make_dataset("xor", random_state=seed, n_samples=40, n_features=5)
    scales = np.array([1e4, 1.0, 1e-3, 0.0, 3.0])  # feature 3 constant
    ds = type(ds)(X=ds.X * scales + rng.normal(size=5), y=ds.y, relevant=ds.relevant, task=ds.task,
                  feature_names=np.array(["mass_g", "b", "ratio", "const", "e"]), name="t")
    message = scale_disparity(ds)
    assert message.startswith("the features' standard deviations range from ")
    assert "(ratio) to " in message and "(mass_g), over 1,000 times" in message  # the constant one is left out
    assert scale_disparity(ds, threshold=1e8) is None
    st = standardized(ds)
    np.testing.assert_allclose(st.X.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(st.X.std(axis=0)[[0, 1, 2, 4]], 1.0, atol=1e-12)
    assert np.ptp(st.X[:, 3]) == 0  # the constant feature stays constant
    np.testing.assert_array_equal(st.y, ds.y)
    assert st.feature_names.tolist() == ds.feature_names.tolist() and st.name == "t"
    np.testing.assert_array_equal(st.relevant, ds.relevant)
    assert scale_disparity(st) is None
    assert st.standardized and not ds.standardized


def test_a_standardised_data_set_says_so_in_its_file_and_a_raw_one_is_written_as_before(tmp_path):
    """The mark that tells the folds to scale again by each training part survives the file and the
    feature filter; a data set of raw values has no such array, so its file is the same bytes as before."""
    import zipfile

    from fscompbio.datasets import standardized, top_variance

    ds = make_dataset("xor", random_state=0, n_samples=40, n_features=5)
    save_dataset(ds, tmp_path / "raw.npz")
    save_dataset(standardized(ds), tmp_path / "st.npz")
    assert zipfile.ZipFile(tmp_path / "raw.npz").namelist() == [
        f"{k}.npy" for k in ("X", "y", "feature_names", "relevant", "task", "name")]
    assert not load_dataset(tmp_path / "raw.npz").standardized
    back = load_dataset(tmp_path / "st.npz")
    assert back.standardized and top_variance(back, 3).standardized
    np.testing.assert_array_equal(back.X, standardized(ds).X)


@pytest.mark.parametrize("name", ["xor", "linear_weston", "fake_class"])
def test_a_draw_is_the_same_recipe_with_its_own_data(name):
    """``<set>_draw<k>`` names draw k of a set: the same shape, relevant features and task; which data it
    holds is set by the seed alone (the workflow derives one per name)."""
    from fscompbio.datasets import draw_name, split_draw

    assert draw_name(name, 0) == name and split_draw(draw_name(name, 3)) == (name, 3)
    base = make_dataset(name, random_state=5)
    drawn = make_dataset(draw_name(name, 2), random_state=5)
    other = make_dataset(draw_name(name, 2), random_state=6)
    assert drawn.name == f"{name}_draw2"
    np.testing.assert_array_equal(drawn.X, base.X)  # same seed, same recipe: same data
    assert drawn.X.shape == other.X.shape and np.array_equal(drawn.relevant, other.relevant)
    assert not np.array_equal(drawn.X, other.X)


@pytest.mark.parametrize("name", ["xor_draw0", "xor_draw", "xor_drawx", "nope_draw1"])
def test_a_name_that_is_not_a_draw_of_a_set_is_rejected(name):
    from fscompbio.datasets import split_draw

    base, k = split_draw(name)
    assert (base, k) == (name, 0) or base not in DATASETS
    with pytest.raises(ValueError, match="unknown dataset"):
        make_dataset(name, random_state=0)


def test_a_negative_draw_index_is_rejected():
    from fscompbio.datasets import draw_name

    with pytest.raises(ValueError, match="draw index must be >= 0; got -1"):
        draw_name("xor", -1)
