"""Per-column scaling shared by the selectors and predictors: zero mean and unit variance, a constant column
exactly zero, whatever its value."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from fscompbio._scaling import column_scales, minmax_scale, standardize

values = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_subnormal=False)


@settings(max_examples=200, deadline=None)
@given(value=values, n=st.integers(2, 60), seed=st.integers(0, 2**32 - 1))
def test_a_constant_column_is_exactly_zero_after_scaling(value, n, seed):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.standard_normal(n) * 50 + 3, np.full(n, value)])
    Z = standardize(X)
    assert np.all(Z[:, 1] == 0.0)
    assert np.all(minmax_scale(X)[:, 1] == 0.0)
    mean, sd = column_scales(X)
    assert mean[1] == value and sd[1] == 1.0
    np.testing.assert_allclose(Z[:, 0].mean(), 0.0, atol=1e-12)
    np.testing.assert_allclose(Z[:, 0].std(), 1.0, rtol=1e-12)


def test_a_repeated_decimal_once_became_a_column_of_ones():
    """0.1 repeated 3 times: numpy's mean is 0.10000000000000002, the sd 1.4e-17; dividing one by the other gave
    -1 in every row, not the zero a constant column is documented to become."""
    X = np.full((3, 1), 0.1)
    assert X.mean() != 0.1 and X.std() > 0  # the rounding that made the column -1
    assert np.all(standardize(X) == 0.0)
