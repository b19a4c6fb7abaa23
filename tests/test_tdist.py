"""Student's t quantiles and distribution function (judge/tdist.py) against published
table values."""

from __future__ import annotations

import pytest

from pytest_sbcbench.judge.tdist import t_cdf, t_ppf


@pytest.mark.parametrize(("p", "df", "expected"), [
    (0.975, 4, 2.776445), (0.99, 10, 2.763769), (0.95, 1, 6.313752), (0.98, 4, 2.998528),
    (0.995, 30, 2.749996), (0.975, 2.5, 3.574652),
])
def test_t_quantiles(p: float, df: float, expected: float) -> None:
    assert t_ppf(p, df) == pytest.approx(expected, rel=1e-3)
    assert t_cdf(t_ppf(p, df), df) == pytest.approx(p, abs=1e-9)


def test_t_quantile_domain() -> None:
    with pytest.raises(ValueError):
        t_ppf(0.4, 3)
