"""A file that cannot grow (this process' file size limit, ``ulimit -f``, as a full disk would
have it): said as ``could not write: file too large`` (or ``no space left on device``), never as
something else, with a non-zero exit and everything already there left as it was.

Reported: an intact history under the limit was called "not an sbcbench history"; a baseline
save under it exited 0 with its session missing from the history; a run whose results file
could not be written still ended with ``results JSON: r.json``, naming a file that does not
exist."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from history_docs import build

from helpers import REPO
from pytest_sbcbench.judge import history

INNER = """
from pytest_sbcbench.model import Identity, Measurement

def test_a_widget(sbcbench):
    sbcbench.record(Measurement("widget", "B/s", "higher", Identity.of(tool="widget"),
                                (100e6, 101e6)))
"""


def limited(size: int) -> Callable[[], None]:
    """A child's set-up: files it writes may not grow past ``size`` bytes."""
    def set_limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return set_limit


def env() -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if k != "SBCBENCH_HISTORY"},
            "PYTHONPATH": str(REPO)}


def sbcbench(cwd: Path, *argv: str, limit: int | None = None
             ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", *argv], cwd=cwd,
                          capture_output=True, text=True, timeout=600, env=env(),
                          preexec_fn=limited(limit) if limit is not None else None)


def pytest_run(cwd: Path, *argv: str, limit: int | None = None
               ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "test_inner.py", "--sbc-idle-wait", "0", *argv], cwd=cwd,
                          capture_output=True, text=True, timeout=600, env=env(),
                          preexec_fn=limited(limit) if limit is not None else None)


def test_an_intact_history_that_cannot_grow_is_said_so_and_kept(tmp_path: Path) -> None:
    (tmp_path / "bl").mkdir()
    path = tmp_path / "bl" / "history.sqlite"
    build(path, labels=3)
    before = path.read_bytes()
    for side in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        side.unlink(missing_ok=True)  # as a history left by a cleanly closed writer
    done = sbcbench(tmp_path, "history", "--baselines", "bl", limit=1024)
    assert done.returncode == 2, done.stderr
    assert "could not write: file too large" in done.stderr, done.stderr
    assert "not an sbcbench history" not in done.stderr
    append = subprocess.run(
        [sys.executable, "-c", "import sys, json; from pathlib import Path; "
         "from pytest_sbcbench.judge import history; from history_docs import results_doc; "
         "history.append(Path(sys.argv[1]), results_doc('star64', 'x', 'b', '6.1', "
         "{'sha256': [1e9]}), 'candidate', 'L9')", str(path)],
        capture_output=True, text=True, timeout=600, preexec_fn=limited(1024),
        env={**env(), "PYTHONPATH": f"{REPO}{os.pathsep}{REPO / 'tests'}"})
    assert append.returncode == 1
    assert "HistoryNoRoom" in append.stderr and "could not write: file too large" in \
        append.stderr, append.stderr
    assert path.read_bytes() == before
    # read whole without the limit, and written again
    assert [(g.label, g.sessions) for g in history.summary(path)] == [
        ("L01", 3), ("L02", 3), ("L03", 3)]
    history.append(path, {"board": "star64", "created": "x", "environment": {},
                          "results": []}, "candidate", "L9")
    assert [g.label for g in history.summary(path)] == ["L01", "L02", "L03", "L9"]


def test_a_baseline_save_whose_history_cannot_grow_exits_non_zero(tmp_path: Path) -> None:
    """The save's baseline fits under the limit, the history (45 KiB) cannot grow past it:
    the run exits 4 naming it, the baseline keeps both sessions, the history its first."""
    (tmp_path / "test_inner.py").write_text(INNER)
    first = pytest_run(tmp_path, "--sbc-baselines", "bl", "--sbc-save-baseline")
    assert first.returncode == 0, first.stdout
    (saved,) = (tmp_path / "bl").glob("*.json")
    done = pytest_run(tmp_path, "--sbc-baselines", "bl", "--sbc-save-baseline",
                      "--sbc-results", "r.json", limit=16384)
    assert done.returncode == 4, done.stdout
    assert "ERROR: history not written: history bl/history.sqlite: could not write: file too " \
           "large (this process may write files of at most 16384 bytes: ulimit -f)" \
        in done.stdout, done.stdout
    assert "baseline saved" in done.stdout and "results JSON: r.json" in done.stdout
    assert saved.read_text().count('"created"') == 2
    assert [g.sessions for g in history.summary(tmp_path / "bl" / "history.sqlite")] == [1]


def test_a_results_file_that_cannot_be_written_is_never_named_as_written(
        tmp_path: Path) -> None:
    (tmp_path / "test_inner.py").write_text(INNER)
    done = pytest_run(tmp_path, "--sbc-results", "r.json", limit=2048)
    assert done.returncode == 4, done.stdout
    assert not (tmp_path / "r.json").exists()
    lines = done.stdout.splitlines()
    assert "results JSON: r.json" not in lines
    assert "results JSON: not written (r.json: could not write: file too large (this process " \
           "may write files of at most 2048 bytes: ulimit -f))" in lines, done.stdout
