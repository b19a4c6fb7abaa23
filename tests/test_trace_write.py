"""A trace that cannot be written (issue 23 item 11) is a finding line naming the file; the
test's results stay in the results file and the baseline, and no raw OSError escapes."""

from __future__ import annotations

import importlib.util
import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

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


def test_a_fifo_in_the_traces_place_is_refused_not_blocked_on(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    """A FIFO where the trace CSV goes: opened for writing it would block the run until a
    reader came; written atomically it is refused, named, and left as it was."""
    traces = pytester.path / "traces"
    traces.mkdir()
    fifo = traces / f"{safe_name(NODE)}.csv"
    os.mkfifo(fifo)
    out = pytester.path / "r.json"
    done = widget("100,101,99.5", "--sbc-trace-dir", str(traces), "--sbc-results", str(out))
    done.assert_outcomes(passed=1)
    done.stdout.fnmatch_lines([f"*finding: test_widget: trace-not-written: {fifo}: *FIFO*"])
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert json.loads(out.read_text())["results"][0]["samples"] == [100.0, 101.0, 99.5]


CHART_OVER_FIFO = """
import os, stat, sys
from pathlib import Path
from pytest_sbcbench.fileio import OutputError
from pytest_sbcbench.report.charts import save
from pytest_sbcbench.report.trace import pyplot
out = Path(sys.argv[1])
os.mkfifo(out / "chart.svg")
plt = pyplot()
fig = plt.figure()
try:
    save(fig, out, "chart")
except OutputError as exc:
    print(exc)
assert (out / "chart.png").read_bytes().startswith(b"\\x89PNG")
assert stat.S_ISFIFO((out / "chart.svg").lstat().st_mode)
"""


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                    reason="charts need the 'plot' extra")
def test_a_chart_written_over_a_fifo_is_refused(tmp_path: Path) -> None:
    """The fleet and before/after charts go through the same atomic write (in a child
    process: matplotlib's C extensions load once per process)."""
    done = subprocess.run([sys.executable, "-c", CHART_OVER_FIFO, str(tmp_path)],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (f"{tmp_path / 'chart.svg'}: is a FIFO; refusing to replace it "
                                   "(give the path of a regular file)")
