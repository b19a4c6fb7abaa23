"""The run's outputs at the end (``run/outputs.py``): each one on its own, so a failure in one
(a report that cannot be written) never costs another (the results file, the baseline save),
and a run that lost an output never exits 0; locations that cannot work are refused before
measuring."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest


def test_a_failing_report_costs_neither_the_results_nor_the_baseline(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    """Hostile run III, 1: ``report.md`` under ``--sbc-report`` being a directory escaped
    ``pytest_sessionfinish`` as a raw traceback, and the baseline save never ran."""
    report = pytester.path / "report"
    (report / "report.md").mkdir(parents=True)
    out = pytester.path / "r.json"
    done = widget("100,101,99.5", "--sbc-report", str(report), "--sbc-results", str(out),
                  "--sbc-save-baseline")
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    done.stdout.fnmatch_lines(["ERROR: fleet report not written: *report.md* (exit 4: the other "
                               "outputs were written)"])
    assert "Traceback" not in done.stdout.str() + done.stderr.str()
    assert json.loads(out.read_text())["results"][0]["samples"] == [100.0, 101.0, 99.5]
    (saved,) = (pytester.path / "bl").glob("*.json")
    assert json.loads(saved.read_text())["entries"][0]["sessions"][0]["samples"] == [
        100.0, 101.0, 99.5]


def test_results_over_the_board_baseline_are_refused_before_measuring(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    """Hostile run III, 4: ``--sbc-results`` naming the board's own baseline replaced it."""
    widget("100,101,99.5", "--sbc-save-baseline").assert_outcomes(passed=1)
    (baseline,) = (pytester.path / "bl").glob("*.json")
    before = baseline.read_bytes()
    done = widget("100,101,99.5", "--sbc-results", str(baseline))
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    done.stderr.fnmatch_lines(["*--sbc-results * is the baseline of board *: a results file "
                               "would replace it*"])
    assert baseline.read_bytes() == before


def test_a_results_path_where_no_file_can_be_created_is_refused_at_start(
        widget: Callable[..., pytest.RunResult]) -> None:
    """Hostile run III, 26: ``/proc/run.json`` passed the start-up check (root may write any
    directory by its permission bits) and crashed at the end with an 80-line traceback."""
    done = widget("100,101,99.5", "--sbc-results", "/proc/run.json")
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    done.stderr.fnmatch_lines(["*--sbc-results /proc/run.json: cannot create a file in /proc*"])
    assert "passed" not in done.stdout.str()


def test_an_unusable_cache_is_refused_before_measuring_and_no_home_is_made(
        tmp_path: Path, widget: Callable[..., pytest.RunResult],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile run III, 21: an unusable HOME gave a raw OSError mid-run, and as root
    ``HOME=/nonexistent/home`` created ``/nonexistent/...``."""
    home = tmp_path / "nonexistent" / "home"
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(home))
    done = widget("100,101,99.5")
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    done.stderr.fnmatch_lines([f"*the cache directory: HOME {home} does not exist; set "
                               "XDG_CACHE_HOME or give --sbc-cache DIR*"])
    assert not (tmp_path / "nonexistent").exists()
    given = tmp_path / "cache"
    widget("100,101,99.5", "--sbc-cache", str(given)).assert_outcomes(passed=1)


BAD_RECORD = """
import os
from pytest_sbcbench.model import Identity, Measurement

def test_good(sbcbench):
    sbcbench.record(Measurement("good", "op/s", "higher", Identity.of(tool="w"), (1.0, 2.0)))

def test_bad_details(sbcbench):
    sbcbench.record(Measurement("bad", "op/s", "higher", Identity.of(tool="w"), (1.0, 2.0),
                                details={"tags": {"a", "b"}}))
"""


def test_unwritable_details_fail_their_test_and_keep_the_others(
        pytester: pytest.Pytester) -> None:
    """Hostile run III, 2: a record() whose details held a set was accepted, then the whole
    run failed at the end: no results file and no baseline save for the good tests."""
    pytester.makepyfile(test_records=BAD_RECORD)
    out = pytester.path / "r.json"
    done = pytester.runpytest("--sbc-idle-wait", "0", "--sbc-results", str(out),
                              "--sbc-baselines", str(pytester.path / "bl"))
    done.assert_outcomes(passed=1, failed=1)
    done.stdout.fnmatch_lines(["*test_bad_details: bad: details cannot be written to the "
                               "results file (Object of type set is not JSON serializable)*"])
    assert [r["metric"] for r in json.loads(out.read_text())["results"]] == ["good"]


@pytest.mark.parametrize("value", [("-O2", "-g"), ["-O2"], b"x", float("nan"), {"a": 1}])
def test_an_identity_holds_json_scalars_only(value: object) -> None:
    """Hostile run III, 3: a tuple was saved as a list, the loader then refused the baseline,
    and every later run of that board exited 4 until the file was edited by hand."""
    from pytest_sbcbench.model import Identity

    with pytest.raises(TypeError, match="an identity holds JSON scalars only"):
        Identity.of(flags=value)  # type: ignore[arg-type]
    assert Identity.of(tool="gcc", version="12.2", jobs=4, lto=False, seed=None).as_dict()
