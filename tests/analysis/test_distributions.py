"""The analyses' distribution functions (unosim/analysis/distributions.py) are scipy.stats', to the bit."""

import numpy as np
import pytest
from scipy import stats

from unosim.analysis import distributions as d

RNG = np.random.default_rng(7)
P = np.concatenate([RNG.random(5000), [1e-12, 0.025, 0.5, 0.975, 0.995, 1 - 1e-12]])
X = np.concatenate([RNG.normal(0, 4, 5000), [-40.0, -1.96, 0.0, 1.96, 40.0, 1e-9]])
DOF = np.concatenate([RNG.integers(1, 10_000, 5000).astype(float), [1.0, 2.0, 29.5, 1e6, np.inf, 0.7]])


@pytest.mark.parametrize(("ours", "theirs"), [
    (lambda: d.normal_quantile(P), lambda: stats.norm.ppf(P)),
    (lambda: d.normal_sf(X), lambda: stats.norm.sf(X)),
    (lambda: d.t_quantile(P, DOF), lambda: stats.t.ppf(P, DOF)),
    (lambda: d.t_sf(X, DOF), lambda: stats.t.sf(X, DOF)),
    (lambda: d.chi2_sf(np.abs(X) * 5, DOF), lambda: stats.chi2.sf(np.abs(X) * 5, DOF)),
], ids=["normal_quantile", "normal_sf", "t_quantile", "t_sf", "chi2_sf"])
def test_each_function_equals_scipy_stats_bit_for_bit(ours, theirs):
    assert np.array_equal(ours(), theirs(), equal_nan=True)


def test_importing_the_analyses_does_not_import_scipy_stats():
    import subprocess
    import sys
    code = "import sys, unosim.analysis; print('scipy.stats' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
