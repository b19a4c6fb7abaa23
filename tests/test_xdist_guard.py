"""Benchmarks under pytest-xdist are refused (issue 23 item 8): with ``-n 2`` two benchmarks
ran at a time, their mutually disturbed numbers went into the baseline, no summary was
printed and the controller wrote ``"results": []`` last.  A run that names an sbcbench option
is refused when pytest starts; one that only collects benchmarks, when a worker collects
them; tests that are not benchmarks still run in parallel."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from widget import WIDGET

pytest.importorskip("xdist", reason="pytest-xdist is not installed (it is in the test extra)")

PLAIN = """
def test_one():
    assert 1 + 1 == 2

def test_two():
    assert "a" * 2 == "aa"
"""


def test_save_baseline_under_n_is_refused_before_anything_runs(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makepyfile(test_widget=WIDGET)
    monkeypatch.setenv("WIDGET_SAMPLES", "100,101,99.5")
    out = pytester.path / "r.json"
    done = pytester.runpytest_subprocess("-n", "2", "--sbc-save-baseline", "--sbc-baselines",
                                         str(pytester.path / "bl"), "--sbc-results", str(out),
                                         "--sbc-idle-wait", "0")
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    done.stderr.fnmatch_lines(["*sbcbench under pytest-xdist (-n 2): benchmarks must run one "
                               "at a time*without -n*"])
    assert not (pytester.path / "ran-widget").exists()  # nothing measured
    assert not out.exists() and not (pytester.path / "bl").exists()


def test_a_benchmark_collected_on_a_worker_is_skipped_with_the_reason(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """No sbcbench option: only a worker sees the benchmark; it skips it, measures nothing
    and writes no output (raising there would crash xdist's controller with an INTERNALERROR
    that hides the reason)."""
    pytester.makepyfile(test_widget=WIDGET, test_plain=PLAIN)
    monkeypatch.setenv("WIDGET_SAMPLES", "100,101,99.5")
    done = pytester.runpytest_subprocess("-n", "2", "-rs")
    done.assert_outcomes(passed=2, skipped=1)
    done.stdout.fnmatch_lines(["*SKIPPED*test_widget.py*sbcbench under pytest-xdist (a "
                               "pytest-xdist worker: -n given): benchmarks must run one at a "
                               "time*"])
    assert "INTERNALERROR" not in done.stdout.str()
    assert not (pytester.path / "ran-widget").exists()
    assert not list(pytester.path.glob("*.json"))


def test_tests_that_are_not_benchmarks_still_run_in_parallel(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_plain=PLAIN)
    done = pytester.runpytest_subprocess("-n", "2")
    done.assert_outcomes(passed=2)


def test_without_n_the_widget_runs(widget: Callable[..., pytest.RunResult],
                                   pytester: pytest.Pytester) -> None:
    out = pytester.path / "r.json"
    widget("100,101,99.5", "-n", "0", "--sbc-results", str(out)).assert_outcomes(passed=1)
    assert json.loads(out.read_text())["results"][0]["samples"] == [100.0, 101.0, 99.5]
