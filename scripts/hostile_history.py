"""The hostile histories of issue 31 (items 1, 2, 3, 6, 7): a history that is empty, garbage,
of a newer schema, read-only, a FIFO or /dev/null, an odd label, a report written to /dev/full.
Each is refused naming the path (or read, where reading is all it takes), and the history's
bytes stay as they were (``losses`` leaves the history out, so each case compares them).

Imported by ``hostile_replay.py``, which prints the table: :data:`CASES` run there one by one
(module calls and the ``sbcbench`` CLI), :data:`PYTEST_CASES` with the other pytest-run cases,
three at a time."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import hostile_pytest
from hostile_pytest import last_line
from hostile_replay import Row, _as_nobody, call, cli, losses, results_bytes, snapshot

from pytest_sbcbench.judge import history

CASES: list[Callable[[Path], Row]] = []
PYTEST_CASES: list[Callable[[Path], Row]] = []
DOC = {"board": "star64", "created": "2026-12-01T09:00:00",
       "environment": {"kernel": "6.1.0", "boot_id": "b1"}, "results": []}


def case(function: Callable[[Path], Row]) -> Callable[[Path], Row]:
    CASES.append(function)
    return function


def pytest_case(function: Callable[[Path], Row]) -> Callable[[Path], Row]:
    PYTEST_CASES.append(function)
    return function


def _bad(work: Path, content: bytes) -> tuple[Path, bytes]:
    baselines = work / "bl"
    baselines.mkdir(exist_ok=True)
    path = history.history_path(baselines)
    path.write_bytes(content)
    return path, content


def _newer(work: Path) -> tuple[Path, bytes]:
    path = history.history_path(work / "bl")
    path.parent.mkdir(exist_ok=True)
    with closing(sqlite3.connect(path)) as db:
        db.executescript("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                         "INSERT INTO meta VALUES ('schema', '3'); CREATE TABLE runs (x);")
    return path, path.read_bytes()


def _kept(path: Path, before: bytes) -> bool:
    return path.read_bytes() == before and not any(
        path.with_name(path.name + tail).exists() for tail in ("-wal", "-shm"))


@case
def history_zero_length(work: Path) -> Row:
    path, before = _bad(work, b"")
    code, message = cli(["history", "--baselines", str(path.parent)])
    return Row("history: zero-length history.sqlite", str(code), message,
               code == 2 and str(path) in message and "empty file" in message,
               "no" if _kept(path, before) else "YES: history.sqlite")


@case
def history_garbage(work: Path) -> Row:
    path, before = _bad(work, b"\x00\xffnot a database\n" * 300)
    outcome, message = call(lambda: history.append(path, DOC, "candidate", "L"))
    return Row("history: garbage history.sqlite, append", outcome, message,
               outcome == "error" and str(path) in message,
               "no" if _kept(path, before) else "YES: history.sqlite")


@case
def history_newer(work: Path) -> Row:
    path, before = _newer(work)
    outcome, message = call(lambda: history.append(path, DOC, "candidate", "L"))
    return Row("history: schema-3 history.sqlite, append", outcome, message,
               outcome == "error" and "schema version 3" in message,
               "no" if _kept(path, before) else "YES: history.sqlite")


@case
def history_fifo_and_null(work: Path) -> Row:
    fifo = history.history_path(work / "a")
    null = history.history_path(work / "b")
    for p in (fifo, null):
        p.parent.mkdir()
    os.mkfifo(fifo)
    null.symlink_to(os.devnull)
    before = snapshot(work)
    code, message = cli(["history", "--baselines", str(fifo.parent)])
    outcome, second = call(lambda: history.append(null, DOC, "candidate", "L"))
    return Row("history: a FIFO / a link to /dev/null", f"{code}, {outcome}",
               f"{message} / {second}", code == 2 and outcome == "error"
               and f"{fifo}: a FIFO" in message and f"{null}: a device" in second,
               losses(before, snapshot(work)))


@case
def history_read_only(work: Path) -> Row:
    work.chmod(0o755)
    baselines = work / "bl"
    baselines.mkdir()
    path = history.history_path(baselines)
    history.append(path, DOC, "candidate", "L")
    before = path.read_bytes()
    path.chmod(0o444)
    baselines.chmod(0o555)
    try:
        code, message = _as_nobody(lambda: tuple(map(str, cli(  # type: ignore[return-value]
            ["history", "--baselines", str(baselines)]))))
    finally:
        baselines.chmod(0o755)
    return Row("sbcbench history on a read-only baselines directory", code, message,
               code == "0" and "1 session on 1 boot" in message,
               "no" if _kept(path, before) else "YES: history.sqlite")


@case
def report_dev_full(work: Path) -> Row:
    results = work / "r.json"
    results.write_bytes(results_bytes([100e6]))
    before = snapshot(work)
    code, message = cli(["report", str(results), "--out", "/dev/full"])
    return Row("sbcbench report --out /dev/full", str(code), message,
               code == 2 and "expects a directory" in message, losses(before, snapshot(work)))


def _run(work: Path, *args: str) -> tuple[int, str]:
    hostile_pytest.setup(work)
    done = hostile_pytest.run(work, "-k", "test_a_widget", "--sbc-idle-wait", "0",
                              "--sbc-baselines", str(work / "bl"), *args)
    return done.code, done.output


@pytest_case
def gate_on_zero_length_history(work: Path) -> Row:
    path, before = _bad(work, b"")
    snap = snapshot(work)
    code, output = _run(work, "--sbc-gate", "--sbc-candidate", "L")
    line = last_line(output, "ERROR: history")
    return Row("pytest --sbc-gate on a zero-length history", str(code), line,
               code == 4 and str(path) in line and "nothing measured" in line
               and not (work / "ran").exists() and "INTERNALERROR" not in output,
               losses(snap, snapshot(work), lambda k: k in ("run.log", "test_inner.py"))
               if _kept(path, before) else "YES: history.sqlite")


@pytest_case
def candidate_on_newer_history(work: Path) -> Row:
    path, before = _newer(work)
    snap = snapshot(work)
    out = work / "r.json"
    code, output = _run(work, "--sbc-candidate", "L", "--sbc-results", str(out))
    line = last_line(output, "history not written")
    try:
        written = bool(json.loads(out.read_text())["results"])
    except (OSError, ValueError, KeyError):
        written = False
    return Row("pytest --sbc-candidate on a schema-3 history", str(code),
               f"{line}; results written: {written}",
               code == 0 and written and "schema version 3" in line
               and "INTERNALERROR" not in output,
               losses(snap, snapshot(work), lambda k: k in ("run.log", "test_inner.py", "ran",
                                                            "r.json"))
               if _kept(path, before) else "YES: history.sqlite")


@pytest_case
def candidate_label_with_newline(work: Path) -> Row:
    before = snapshot(work)
    code, output = _run(work, "--sbc-candidate", "6.12\nrm -rf")
    line = last_line(output, "--sbc-candidate")
    return Row("pytest --sbc-candidate with a newline", str(code), line,
               code == 4 and "one line of printable text" in line
               and not (work / "ran").exists() and not (work / "bl").exists(),
               losses(before, snapshot(work), lambda k: k in ("run.log", "test_inner.py")))
