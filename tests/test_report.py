"""Statistics of a result and the summary table."""

from __future__ import annotations

import pytest

from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict, display
from pytest_sbcbench.report.terminal import table


def test_summary_of_the_seeds_pinned_runs() -> None:
    """Star64 pinned tier: 458.17, 463.08, 462.59 s -> mean 461.28, median 462.59, 0.59% CV.

    The seed's sigma 2.71 came from unrounded times; the rounded runs give 2.70."""
    s = summarize([458.17, 463.08, 462.59])
    assert round(s.mean, 2) == 461.28 and s.median == 462.59
    assert s.stdev == pytest.approx(2.71, abs=0.011) and round(100 * s.cv, 2) == 0.59


def test_single_sample_has_zero_spread() -> None:
    s = summarize([5.0])
    assert (s.n, s.stdev, s.cv) == (1, 0.0, 0.0)
    with pytest.raises(ValueError):
        summarize([])


def test_display_units() -> None:
    assert display(21.7e6, "B/s") == ("21.70", "MB/s")
    assert display(2185.7e6, "B/s") == ("2,185.7", "MB/s")
    assert display(16917.2, "op/s") == ("16,917.2", "op/s")


def test_table_rows() -> None:
    m = Measurement("aes-128-gcm", "B/s", "higher", Identity.of(tool="openssl"), (21.7e6, 21.8e6))
    r = Result("benchmarks/test_crypto.py::test_cipher[aes-128-gcm]", m, summarize(m.samples),
               Verdict("no-baseline", "x"))
    lines = table([r])
    assert lines[0].split() == ["test", "metric", "tool", "median", "unit", "CV", "%", "n",
                                "at", "max", "verdict"]
    assert lines[2].split() == ["test_cipher[aes-128-gcm]", "aes-128-gcm", "openssl", "21.75",
                                "MB/s", "0.33", "2", "-", "no-baseline"]
