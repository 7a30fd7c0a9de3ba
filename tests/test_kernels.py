"""Truths about fscompbio.kernels: identities, the study's equations, brute-force estimators."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from fscompbio.kernels import (
    alignment,
    auto_label_kind,
    center,
    gamma_grid,
    gamma_to_sigma,
    gaussian_kernel,
    hsic,
    label_kernel,
    label_kernels,
    median_distance,
    sigma_to_gamma,
    sq_distances,
    task_of_target,
)

finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False)


def data(m_min=5, m_max=12, d_max=4):
    return st.integers(m_min, m_max).flatmap(
        lambda m: st.integers(1, d_max).flatmap(lambda d: arrays(np.float64, (m, d), elements=finite))
    )


def _rng_X(seed, m=9, d=3):
    return np.random.default_rng(seed).standard_normal((m, d))


# ---------------------------------------------------------------- distances and kernels
@settings(max_examples=40, deadline=None)
@given(data())
def test_sq_distances_match_direct(X):
    direct = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    np.testing.assert_allclose(sq_distances(X), direct, rtol=1e-9, atol=1e-8 * (1 + direct.max()))
    assert np.all(np.diag(sq_distances(X)) == 0)


def test_sq_distances_rejects_mismatched_features():
    with pytest.raises(ValueError, match="same number of features"):
        sq_distances(np.zeros((3, 2)), np.zeros((4, 3)))


def test_gaussian_width_relation():
    # two points at distance sigma: k = exp(-1/2) exactly when gamma = 1/(2 sigma^2)
    sigma = 1.7
    X = np.array([[0.0], [sigma]])
    K = gaussian_kernel(X, sigma=sigma)
    assert K[0, 1] == pytest.approx(np.exp(-0.5))
    assert gamma_to_sigma(sigma_to_gamma(sigma)) == pytest.approx(sigma)
    np.testing.assert_allclose(gaussian_kernel(X, gamma=sigma_to_gamma(sigma)), K)


def test_gaussian_kernel_errors():
    with pytest.raises(ValueError, match="not both"):
        gaussian_kernel(np.zeros((2, 1)), gamma=1.0, sigma=1.0)
    with pytest.raises(ValueError, match="gamma must be"):
        gaussian_kernel(np.zeros((2, 1)), gamma=-1.0)
    with pytest.raises(ValueError, match="sigma must be > 0"):
        sigma_to_gamma(0.0)


def test_gamma_grid_is_median_times_log_range():
    X = _rng_X(0, m=30)
    g = gamma_grid(X, n_widths=5, low=-1, high=1)
    sig = gamma_to_sigma(g)
    np.testing.assert_allclose(sig, median_distance(X) * np.logspace(-1, 1, 5))
    assert np.all(np.diff(g) < 0)


# ---------------------------------------------------------------- centring
@settings(max_examples=40, deadline=None)
@given(data())
def test_center_equals_HKH(X):
    K = gaussian_kernel(X, gamma=0.1)
    m = K.shape[0]
    H = np.eye(m) - np.ones((m, m)) / m
    np.testing.assert_allclose(center(K), H @ K @ H, atol=1e-10)


def test_center_on_a_stack():
    Ks = np.stack([gaussian_kernel(_rng_X(s), gamma=0.5) for s in range(3)])
    np.testing.assert_allclose(center(Ks), np.stack([center(K) for K in Ks]))


# ---------------------------------------------------------------- alignment
@settings(max_examples=40, deadline=None)
@given(data(), st.floats(0.01, 10))
def test_alignment_with_itself_is_one(X, gamma):
    K = gaussian_kernel(X, gamma=gamma)
    # a centred kernel within round-off of zero (all points equal, or so close that the kernel is constant to
    # about 1e-10 of its size) has no alignment, returned as 0; a kernel clearly above that is aligned with
    # itself; near the threshold (points 1e-5 apart at gamma 4: entries 1 - 4e-10) either answer is right
    spread = np.linalg.norm(center(K)) / np.linalg.norm(K)
    a = alignment(K, K)
    if spread < 1e-11:
        assert a == 0.0
    elif spread > 1e-9:
        assert a == pytest.approx(1.0, abs=1e-9)
    else:
        assert a == 0.0 or a == pytest.approx(1.0, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(data(), st.floats(0.01, 100), st.floats(0.01, 100))
def test_alignment_is_scale_invariant(X, a, b):
    K = gaussian_kernel(X, gamma=0.3)
    y = np.where(np.arange(X.shape[0]) % 2 == 0, 1, -1)
    L = label_kernel(y)
    assert alignment(a * K, b * L) == pytest.approx(alignment(K, L), abs=1e-9)


def test_alignment_matches_frobenius_definition():
    X = _rng_X(1, m=15)
    y = np.sign(X[:, 0]) + (X[:, 0] == 0)
    K, L = gaussian_kernel(X, gamma=0.2), label_kernel(y)
    m = K.shape[0]
    H = np.eye(m) - 1.0 / m
    Kc, Lc = H @ K @ H, H @ L @ H
    expected = np.sum(Kc * Lc) / (np.linalg.norm(Kc) * np.linalg.norm(Lc))
    assert alignment(K, L) == pytest.approx(expected)
    stack = alignment(np.stack([K, 2 * K, np.eye(m)]), L)
    assert stack.shape == (3,)
    assert stack[0] == pytest.approx(expected) and stack[1] == pytest.approx(expected)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_linear_alignment_is_pearson_r_squared(seed):
    """Song et al. (2007), "Supervised Feature Selection via Dependence Estimation", eq. 10: with linear kernels,
    tr(KHLH) = (sum (x - xbar)(y - ybar))^2, so A = r^2."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(20)
    y = 0.5 * x + rng.standard_normal(20)
    xs, ys = (x - x.mean()) / x.std(), (y - y.mean()) / y.std()
    K, L = np.outer(xs, xs), np.outer(ys, ys)
    m = x.size
    H = np.eye(m) - 1.0 / m
    r = np.corrcoef(x, y)[0, 1]
    assert np.trace(K @ H @ L @ H) == pytest.approx((m * r) ** 2)
    assert alignment(K, L) == pytest.approx(r**2)


# ---------------------------------------------------------------- HSIC
def _hsic1_bruteforce(K, L):
    """The U-statistic of Song et al. (2007), "Supervised Feature Selection via Dependence Estimation" (its
    appendix), over distinct index tuples."""
    m = K.shape[0]
    t2 = np.mean([K[i, j] * L[i, j] for i, j in itertools.permutations(range(m), 2)])
    t4 = np.mean([K[i, j] * L[q, r] for i, j, q, r in itertools.permutations(range(m), 4)])
    t3 = np.mean([K[i, j] * L[i, q] for i, j, q in itertools.permutations(range(m), 3)])
    return t2 + t4 - 2 * t3


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hsic1_equals_bruteforce_u_statistic(seed):
    X = _rng_X(seed, m=7, d=2)
    y = X[:, 0] + 0.3 * np.random.default_rng(seed + 10).standard_normal(7)
    K = gaussian_kernel(X, gamma=0.5)
    L = gaussian_kernel(y[:, None], gamma=1.0)
    assert hsic(K, L, estimator="unbiased") == pytest.approx(_hsic1_bruteforce(K, L), rel=1e-10)


@settings(max_examples=30, deadline=None)
@given(data(m_min=4))
def test_hsic0_is_trace_KHLH(X):
    K = gaussian_kernel(X, gamma=0.2)
    y = np.where(np.arange(X.shape[0]) % 3 == 0, 1, -1)
    L = label_kernel(y)
    m = K.shape[0]
    H = np.eye(m) - 1.0 / m
    assert hsic(K, L) == pytest.approx(np.trace(K @ H @ L @ H) / (m - 1) ** 2, abs=1e-10)


def test_hsic_near_zero_for_independent_and_positive_for_dependent():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((400, 1))
    indep = rng.standard_normal((400, 1))
    dep = x**2 + 0.1 * rng.standard_normal((400, 1))  # non-linear, uncorrelated with x
    K = gaussian_kernel(x, sigma=1.0)
    h_dep = hsic(K, gaussian_kernel(dep, sigma=1.0), estimator="unbiased")
    h_ind = hsic(K, gaussian_kernel(indep, sigma=1.0), estimator="unbiased")
    assert h_dep > 10 * abs(h_ind)


def test_hsic_errors():
    K = np.eye(3)
    with pytest.raises(ValueError, match="estimator must be"):
        hsic(K, K, estimator="fast")
    with pytest.raises(ValueError, match="m >= 4"):
        hsic(K, K, estimator="unbiased")
    with pytest.raises(ValueError, match="equal shape"):
        hsic(np.eye(3), np.eye(4))


# ---------------------------------------------------------------- label kernels
def test_label_kernels():
    y = np.array([3, 3, 7, 7, 7])
    L = label_kernel(y)
    s = np.array([-1, -1, 1, 1, 1])
    np.testing.assert_array_equal(L, np.outer(s, s))
    Lb = label_kernel(y, kind="balanced")
    np.testing.assert_allclose(Lb.sum(axis=0), 0.0, atol=1e-12)  # classes weigh equally
    yc = np.array([0, 1, 2, 1, 0, 2])
    np.testing.assert_array_equal(label_kernel(yc), (yc[:, None] == yc[None, :]).astype(float))
    yr = np.array([0.1, 0.5, 2.0, 3.3])
    Lr = label_kernel(yr)
    assert Lr.shape == (4, 4) and np.allclose(np.diag(Lr), 1.0)
    assert task_of_target(yr) == "regression" and task_of_target(yc) == "multiclass"
    with pytest.raises(ValueError, match="binary"):
        label_kernel(yc, kind="linear")
    with pytest.raises(ValueError, match="kind must be"):
        label_kernel(y, kind="cosine")


@pytest.mark.parametrize("kind", ["linear", "balanced", "onehot", "gaussian"])
@given(seed=st.integers(0, 2**32 - 1), q=st.integers(1, 6), m=st.integers(4, 30))
@settings(max_examples=25, deadline=None)
def test_stacked_label_kernels_are_each_rows_label_kernel(kind, seed, q, m):
    """label_kernels on the rows of Y is label_kernel on each row, bit for bit (labels of any values)."""
    rng = np.random.default_rng(seed)
    if kind == "gaussian":
        Y = rng.normal(size=(q, m))
    else:
        values = np.array(["b", "a"]) if kind != "onehot" else np.array([5, -2, 9])
        Y = values[rng.integers(0, values.size, size=(q, m))]
        Y[:, : values.size] = values  # every class in every row
    np.testing.assert_array_equal(label_kernels(Y, kind=kind), np.stack([label_kernel(r, kind=kind) for r in Y]))


def test_stacked_label_kernels_refuse_a_single_class_row():
    Y = np.array([[0, 1, 1, 0], [1, 1, 1, 1]])
    with pytest.raises(ValueError, match="row 1 holds 1 distinct labels"):
        label_kernels(Y, kind="linear")
    with pytest.raises(ValueError, match="2-D"):
        label_kernels(Y[0], kind="linear")


def _whole_number_target():
    """scikit-learn's diabetes target (442 whole numbers, 214 distinct: 'classes' of one sample) and 10 features."""
    from sklearn.datasets import load_diabetes

    X, y = load_diabetes(return_X_y=True)
    return X, y


def _estimators():
    from fscompbio.model_selection import KTASelect
    from fscompbio.selection import AnticorrelationWeighting, BaHSIC, FoHSIC, RandSel

    return [("label_kernel", RandSel(n_subsets=20, batch_size=10, random_state=0)),
            ("label_kernel", BaHSIC(step=0.5)), ("label_kernel", FoHSIC(n_steps=2)),
            ("label_kernel", AnticorrelationWeighting(n_partitions=20, random_state=0)),
            ("label_kind", KTASelect(BaHSIC(step=0.5, label_kernel="gaussian"), max_sizes=3))]


@pytest.mark.parametrize("index", range(5))
def test_a_target_of_whole_numbers_read_as_classes_warns_with_the_parameter_to_set(index):
    """A real-valued target of whole numbers is taken for classes by scikit-learn's rule, one per value; where
    some 'class' has a single sample, each estimator that infers its label kernel says so on the user's line and
    names its own parameter; set to 'gaussian' it is silent, and so is a label of real classes."""
    import warnings

    X, y = _whole_number_target()
    param, est = _estimators()[index]
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        est.fit(X, y)
    mine = [w for w in seen if "read as 214 classes" in str(w.message)]
    assert mine and f"set {param}='gaussian'" in str(mine[0].message), [str(w.message) for w in seen]
    assert all(w.filename == __file__ for w in mine)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est.set_params(**{param: "gaussian"}).fit(X, y)
        est.set_params(**{param: "auto"}).fit(X, np.digitize(y, np.quantile(y, [0.25, 0.5, 0.75])))


def test_auto_label_kind_reads_the_task_and_warns_only_on_single_sample_classes():
    assert auto_label_kind(np.array([-1, 1, 1, -1])) == "linear"
    assert auto_label_kind(np.array([0, 1, 2, 2, 1, 0])) == "onehot"
    assert auto_label_kind(np.array([0.5, 1.25, 3.0])) == "gaussian"
    with pytest.warns(UserWarning, match=r"read as 3 classes .* 1 of them with a single sample; .* kind='gaussian'"):
        assert auto_label_kind(np.array([0.0, 0.0, 1.0, 1.0, 7.0])) == "onehot"


@pytest.mark.filterwarnings("error")
def test_auto_label_kind_never_warns_on_class_names():
    """Names are classes whatever their counts: no 'whole numbers' warning for them."""
    for y in (np.array(["a", "b", "c"]), np.array(["tumour", "normal", "normal", "relapse"], dtype=object)):
        assert auto_label_kind(y) == "onehot"
    with pytest.warns(UserWarning, match="single sample"):  # the same counts as whole numbers still warn
        auto_label_kind(np.array([0, 1, 1, 2]))


@pytest.mark.filterwarnings("error")
def test_auto_label_kind_returns_a_set_kind_as_it_is():
    """An estimator's own setting passes through, without the warning 'auto' gives on single-sample classes."""
    y = np.array([0.0, 0.0, 1.0, 1.0, 7.0])
    assert auto_label_kind(y, "label_kernel", kind="gaussian") == "gaussian"
    assert auto_label_kind(y, "label_kernel", kind="onehot") == "onehot"
