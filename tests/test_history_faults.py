"""A history that is broken, foreign, read-only or not a file never costs a run (issue 31, items
1, 2, 3, 6 and 7): in gate mode the run is refused before anything is measured (exit 4, one
line naming the path), otherwise it measures, writes its results and says the history was not
used; a file of a newer schema stays byte for byte.  Real pytest runs of the widget test."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest
from nobody import as_nobody, reachable_dir

from pytest_sbcbench.cli import main
from pytest_sbcbench.judge import history

Widget = Callable[..., pytest.RunResult]


def newer_file(folder: Path) -> bytes:
    """A history written by a later sbcbench (schema 3), as bytes."""
    path = history.history_path(folder)
    history.append(path, {"board": "x", "environment": {}, "results": []}, "baseline", None)
    with closing(sqlite3.connect(path)) as db:
        db.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")
        db.execute("CREATE TABLE added_in_3 (x)")
        db.commit()
        db.execute("PRAGMA journal_mode=DELETE")
    return path.read_bytes()


def bad_history(kind: str, folder: Path) -> bytes:
    if kind == "zero-length":
        return b""
    if kind == "garbage":
        return b"\x00\xffnot a database\n" * 300
    return newer_file(folder)


@pytest.mark.parametrize("kind", ["zero-length", "garbage", "schema-newer"])
def test_a_broken_history_refuses_a_gate_and_never_costs_a_candidate_run(
        kind: str, widget: Widget, pytester: pytest.Pytester, tmp_path: Path) -> None:
    widget("100e6,101e6", "--sbc-save-baseline").assert_outcomes(passed=1)
    path = history.history_path(pytester.path / "bl")
    path.write_bytes(bad_history(kind, tmp_path))
    before = path.read_bytes()
    out = pytester.path / "r.json"
    (pytester.path / "ran-widget").unlink()  # the save ran it
    gate = widget("100e6,101e6", "--sbc-gate", "--sbc-candidate", "L", "--sbc-results", str(out))
    assert gate.ret == pytest.ExitCode.USAGE_ERROR, gate.stdout.str() + gate.stderr.str()
    gate.stderr.fnmatch_lines([f"ERROR: history {path}: *(--sbc-gate: nothing measured)"])
    assert not out.exists() and not (pytester.path / "ran-widget").exists()

    run = widget("100e6,101e6", "--sbc-candidate", "L", "--sbc-results", str(out))
    assert run.ret == pytest.ExitCode.OK, run.stdout.str() + run.stderr.str()
    run.stdout.fnmatch_lines([f"*warning: history {path}: *; this boot is judged alone*",
                              f"*history not written: history {path}: *"])
    assert json.loads(out.read_text())["results"][0]["samples"] == [100e6, 101e6]
    assert path.read_bytes() == before  # refused, and left as it was
    assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith("history")) == [
        history.FILE_NAME]


def test_the_writer_checks_the_version_before_creating_anything(tmp_path: Path) -> None:
    path = history.history_path(tmp_path)
    with closing(sqlite3.connect(path)) as db:  # a later version's file: its own tables
        db.executescript("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                         "INSERT INTO meta VALUES ('schema', '3'); CREATE TABLE runs (x);")
    before = path.read_bytes()
    with pytest.raises(history.HistoryError, match="schema version 3"):
        history.append(path, {"board": "x", "environment": {}, "results": []}, "candidate", "L")
    assert path.read_bytes() == before
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"meta", "runs"}  # no table of this version added to it


@pytest.mark.parametrize("kind", ["fifo", "dev-null"])
def test_a_fifo_or_device_in_the_history_s_place_is_refused_by_name(
        kind: str, widget: Widget, pytester: pytest.Pytester) -> None:
    widget("100e6,101e6", "--sbc-save-baseline").assert_outcomes(passed=1)
    path = history.history_path(pytester.path / "bl")
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(os.devnull)
    what = "a FIFO" if kind == "fifo" else "a device"
    with pytest.raises(history.HistoryError, match=f"history {path}: {what}, not a history"):
        history.append(path, {"board": "x", "environment": {}, "results": []}, "candidate", "L")
    gate = widget("100e6,101e6", "--sbc-gate", "--sbc-candidate", "L")
    assert gate.ret == pytest.ExitCode.USAGE_ERROR
    gate.stderr.fnmatch_lines([f"ERROR: history {path}: {what}, not a history file*"])
    out = pytester.path / "r.json"
    run = widget("100e6,101e6", "--sbc-candidate", "L", "--sbc-results", str(out))
    assert run.ret == pytest.ExitCode.OK
    run.stdout.fnmatch_lines([f"*history not written: history {path}: {what}*"])
    assert out.is_file()


def _listing(baselines: Path) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(["history", "--baselines", str(baselines)])
    return f"{code} {out.getvalue()}"


def test_sbcbench_history_reads_a_read_only_baselines_directory() -> None:
    with reachable_dir("sbcbench-ro-") as work:
        baselines = work / "bl"
        baselines.mkdir()
        doc = {"board": "star64", "created": "2026-12-01T09:00:00",
               "environment": {"kernel": "6.1.0", "boot_id": "b1"}, "results": []}
        path = history.history_path(baselines)
        history.append(path, doc, "candidate", "L")
        path.chmod(0o444)
        baselines.chmod(0o555)
        listed = as_nobody(lambda: _listing(baselines))
        assert listed.startswith("0 star64  candidate  L  (6.1.0): 1 session on 1 boot"), listed
        refused = as_nobody(lambda: call_error(lambda: history.append(path, doc, "candidate",
                                                                       "L")))
        assert refused.startswith(f"HistoryError: history {path}: "), refused


def call_error(action: Callable[[], object]) -> str:
    try:
        action()
    except Exception as exc:  # the kind of error is what the test checks
        return f"{type(exc).__name__}: {exc}"
    return "no error"


@contextlib.contextmanager
def read_only(*paths: Path) -> Iterator[None]:
    """``paths`` that no one, root included, can change: the immutable attribute when the tests
    run as root (chattr +i; skipped where the file system has none), else mode bits."""
    if os.geteuid() != 0:
        for p in paths:
            p.chmod(0o555 if p.is_dir() else 0o444)
        yield
        for p in paths:
            p.chmod(0o755 if p.is_dir() else 0o644)
        return
    done = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        pytest.skip(f"chattr +i: {done.stderr.strip()} (root ignores mode bits)")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", *map(str, paths)], check=True)


def test_a_candidate_run_on_a_read_only_baselines_directory_measures_and_says_so(
        widget: Widget, pytester: pytest.Pytester) -> None:
    widget("100e6,101e6", "--sbc-save-baseline").assert_outcomes(passed=1)
    path = history.history_path(pytester.path / "bl")
    before = path.read_bytes()
    out = pytester.path / "r.json"
    with read_only(path, path.parent):
        run = widget("100e6,101e6", "--sbc-candidate", "L", "--sbc-results", str(out))
        gate = widget("100e6,101e6", "--sbc-gate", "--sbc-candidate", "L")
    assert run.ret == pytest.ExitCode.OK, run.stdout.str() + run.stderr.str()
    run.stdout.fnmatch_lines([f"*history not written: history {path}: *"])
    assert json.loads(out.read_text())["results"]
    assert gate.ret != pytest.ExitCode.INTERNAL_ERROR and "INTERNALERROR" not in \
        gate.stdout.str() + gate.stderr.str()
    assert path.read_bytes() == before


@pytest.mark.parametrize("label", ["a\nb", "   ", "tab\there", "bell\x07"])
def test_a_label_on_more_than_one_line_or_blank_is_refused_at_start_up(
        label: str, widget: Widget, pytester: pytest.Pytester) -> None:
    done = widget("100e6,101e6", "--sbc-candidate", label)
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    reason = "a label needs a non-blank name" if not label.strip() else \
        "a label is one line of printable text"
    assert f"argument --sbc-candidate: {label!r}: {reason}" in done.stderr.str()
    assert not (pytester.path / "ran-widget").exists()


def test_an_odd_label_already_in_a_history_is_listed_on_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"board": "star64", "created": "t", "environment": {}, "results": []}
    history.append(history.history_path(tmp_path), doc, "candidate", "two\nlines")
    assert main(["history", "--baselines", str(tmp_path)]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert "two\\nlines" in line


def test_report_out_must_be_a_directory(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "r.json"
    results.write_text(json.dumps({"schema": "sbcbench-results/1", "board": "star64",
                                   "created": "t", "environment": {}, "results": []}))
    (tmp_path / "file").write_text("x")
    for out in ("/dev/full", str(tmp_path / "file")):
        assert main(["report", str(results), "--out", out]) == 2
        err = capsys.readouterr().err
        assert f"--out {out}: not a directory; --out expects a directory" in err, err
    assert (tmp_path / "file").read_text() == "x"
