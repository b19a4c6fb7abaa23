"""A trace that cannot be written (issue 23 item 11) is a finding line naming the file; the
test's results stay in the results file and the baseline, and no raw OSError escapes."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from pytest_sbcbench.report.trace import safe_name

NODE = "test_widget.py::test_widget"


def test_a_failed_trace_write_keeps_the_results_and_the_save(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    traces = pytester.path / "traces"
    blocker = traces / f"{safe_name(NODE)}.csv"
    blocker.mkdir(parents=True)  # the trace's file name is taken by a directory
    out = pytester.path / "r.json"
    done = widget("100,101,99.5", "--sbc-trace-dir", str(traces), "--sbc-results", str(out),
                  "--sbc-save-baseline")
    done.assert_outcomes(passed=1)
    text = done.stdout.str() + done.stderr.str()
    assert "Traceback" not in text and "IsADirectoryError" not in text
    done.stdout.fnmatch_lines([f"*finding: test_widget: trace-not-written: {blocker}: *"])
    assert json.loads(out.read_text())["results"][0]["samples"] == [100.0, 101.0, 99.5]
    (saved,) = (pytester.path / "bl").glob("*.json")
    assert json.loads(saved.read_text())["entries"][0]["sessions"][0]["samples"] == [
        100.0, 101.0, 99.5]
    assert blocker.is_dir() and list(blocker.iterdir()) == []
