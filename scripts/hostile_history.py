"""The hostile histories of issue 31 (items 1, 2, 3, 6, 7): a history that is empty, garbage,
of a newer schema, read-only, a FIFO or /dev/null, an odd label, a report written to /dev/full.
Each is refused naming the path (or read, where reading is all it takes), and the history's
bytes stay as they were (``losses`` leaves the history out, so each case compares them).

And the store's names, secrets and full disks of issue 41 (items 2, 3, 7, 9, 10, 11, 13): a
history whose every name is hostile (``tests/hostile_names.py``) published, shown, merged; a
PostgreSQL password given as ``?password=``; ``publish ''``; a publish worker that cannot
write its page; a history, a baseline save and a results file under a file size limit.

Imported by ``hostile_replay.py``, which prints the table: :data:`CASES` run there one by one
(module calls and the ``sbcbench`` CLI), :data:`PYTEST_CASES` with the other pytest-run cases,
three at a time."""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from html.parser import HTMLParser
from pathlib import Path

import hostile_pytest
from hostile_pytest import last_line
from hostile_replay import Row, _as_nobody, call, cli, losses, results_bytes, snapshot

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import hostile_names
from history_docs import build

from pytest_sbcbench.cli import main
from pytest_sbcbench.judge import history

REPO = Path(__file__).resolve().parent.parent
SECRET = "S3cr3t-pw"

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


# -- names that come back from a store, secrets, full disks (issue 41) ---------------------------

def _outputs(argv: list[str]) -> tuple[int, str, str]:
    """``sbcbench ARGV`` in this process: its exit code, stdout and stderr, whole."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exit_:  # argparse refusing a value
            code = int(exit_.code or 0)
    return code, out.getvalue(), err.getvalue()


def _hostile(work: Path) -> Path:
    (work / "bl").mkdir()
    path = work / "bl" / "history.sqlite"
    hostile_names.build(path)
    return path


class _Tags(HTMLParser):
    """The script elements, event handler attributes and ``javascript:`` links of a page, as
    a browser's parser finds them."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.found.append(tag)
        self.found += [name for name, value in attrs if name.startswith("on")
                       or (value or "").strip().lower().startswith("javascript:")]


def _scripts(page: str) -> list[str]:
    parser = _Tags()
    parser.feed(page)
    return parser.found


def _not_history(key: str) -> bool:
    return key.startswith("bl/")


@case
def publish_hostile_names(work: Path) -> Row:
    """Items 2 and 3: a board named ``../../pwned`` wrote ``pub/out/pwned.html``; a board
    named ``x"><script>alert(9)</script>`` ran its script from index.html."""
    _hostile(work)
    (work / "pub" / "out").mkdir(parents=True)
    before = snapshot(work)
    site = work / "pub" / "out" / "site"
    code, _, err = _outputs(["publish", str(site), "--baselines", str(work / "bl")])
    after = snapshot(work)
    outside = sorted(k for k in set(after) - set(before)
                     if not k.startswith("pub/out/site") and not _not_history(k))
    pages = [p.read_text() for p in site.rglob("*.html")]
    scripted = [p for p in pages if _scripts(p)]
    policed = all("Content-Security-Policy" in p for p in pages)
    line = err.strip().splitlines()[-1] if err.strip() else ""
    return Row("publish: board names ../../pwned, x\"><script>, labels and metrics of markup",
               str(code), f"written outside: {outside or 'nothing'}; pages with a script: "
               f"{len(scripted)}; {line}", code == 0 and not outside and not scripted and policed
               and len(pages) == 2 and "14 board names left out" in line,
               losses(before, after, _not_history))


@case
def show_and_changes_escape(work: Path) -> Row:
    """Item 9: ``history show`` and ``history changes`` printed ESC sequences from stored
    labels and metric names raw."""
    _hostile(work)
    before = snapshot(work)
    runs = [_outputs([*argv, "--baselines", str(work / "bl")])
            for argv in (["history", "show", "star64"], ["history", "changes"])]
    raw = [c for _, out, _ in runs for c in ("\x1b", "\x07", "\u202e") if c in out]
    codes = [c for c, _, _ in runs]
    return Row("history show / changes: labels and metrics holding ESC [2J, BEL, RLO",
               ",".join(map(str, codes)), f"raw control characters printed: {raw or 'none'}",
               codes == [0, 0] and not raw and "\\x1b[2J" in runs[0][1],
               losses(before, snapshot(work), _not_history))


@case
def merge_hostile_names(work: Path) -> Row:
    source = _hostile(work)
    into = work / "merged.sqlite"
    before = snapshot(work)
    code, _, err = _outputs(["history", "merge", str(source), "--into", str(into)])
    with closing(sqlite3.connect(into)) as db:
        boards = [b for (b,) in db.execute("SELECT DISTINCT board FROM sessions")]
    line = err.strip().splitlines()[-1] if err.strip() else ""
    return Row("history merge: sessions of boards named ../../pwned and markup", str(code),
               f"{line}; boards merged: {boards}", code == 0 and boards == ["star64"]
               and "not merged" in line,
               losses(before, snapshot(work), lambda k: _not_history(k) or "merged" in k))


@case
def password_in_the_query(work: Path) -> Row:
    """Item 7: a password given as ``?password=`` was printed in clear (only ``user:pass@``
    was masked)."""
    before = snapshot(work)
    url = f"postgresql://lab@/sbc?host={work}/nowhere&password={SECRET}"
    code, out, err = _outputs(["history", "--history", url])
    from pytest_sbcbench.judge.history_url import parse

    shown = f"{parse(url)} {parse(url)!r} {out} {err}"
    return Row("sbcbench history --history 'postgresql://...?password=SECRET' (no server)",
               str(code), err.strip().splitlines()[-1] if err.strip() else out.strip(),
               code == 2 and SECRET not in shown and "password=***" in err,
               losses(before, snapshot(work)))


@case
def publish_empty_folder(work: Path) -> Row:
    """Item 11: ``publish ''`` wrote the site into the current directory and exited 0."""
    (work / "bl").mkdir()
    build(work / "bl" / "history.sqlite", labels=3)
    (work / "cwd").mkdir()
    before = snapshot(work)
    here = os.getcwd()
    os.chdir(work / "cwd")
    try:
        code, message = cli(["publish", "", "--baselines", str(work / "bl")])
    finally:
        os.chdir(here)
    return Row("sbcbench publish ''", str(code), message,
               code == 2 and "empty folder name" in message
               and not list((work / "cwd").iterdir()), losses(before, snapshot(work)))


@case
def publish_worker_cannot_write(work: Path) -> Row:
    """A page a publish worker could not write raised an error the parent could not unpickle:
    the pool's result thread died and ``publish --jobs 2`` waited forever."""
    (work / "bl").mkdir()
    for board in ("star64", "rpi5"):
        build(work / "bl" / "history.sqlite", board=board, labels=3)
    (work / "site" / "boards" / "rpi5.html").mkdir(parents=True)
    before = snapshot(work)
    try:
        done = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "publish",
                               str(work / "site"), "--baselines", str(work / "bl"), "--jobs",
                               "2"], capture_output=True, text=True, timeout=300,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
        code, message = str(done.returncode), last_line(done.stderr, "rpi5.html")
    except subprocess.TimeoutExpired:
        code, message = "hung", "no end after 300 s"
    return Row("publish --jobs 2: a board's page is a directory", code, message,
               code == "2" and "is a directory" in message,
               losses(before, snapshot(work), lambda k: _not_history(k) or k.startswith("site")))


def _limited(size: int) -> Callable[[], None]:
    def set_limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return set_limit


@case
def history_cannot_grow(work: Path) -> Row:
    """Item 10: an intact history under a file size limit was reported as "not an sbcbench
    history"."""
    (work / "bl").mkdir()
    path = work / "bl" / "history.sqlite"
    build(path, labels=3)
    for side in ("-wal", "-shm"):
        path.with_name(path.name + side).unlink(missing_ok=True)
    kept = path.read_bytes()
    done = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "history",
                           "--baselines", str(work / "bl")], capture_output=True, text=True,
                          timeout=300, preexec_fn=_limited(1024),
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    line = last_line(done.stderr, "could not write", "history")
    return Row("sbcbench history under ulimit -f 1 (an intact history)", str(done.returncode),
               line, done.returncode == 2 and "could not write: file too large" in line
               and "not an sbcbench history" not in line,
               "no" if path.read_bytes() == kept else "YES: history.sqlite")


def _limited_run(work: Path, size: int, *args: str) -> tuple[int, str]:
    hostile_pytest.setup(work)
    done = subprocess.run(hostile_pytest.pytest_argv("-k", "test_a_widget", "--sbc-idle-wait",
                                                     "0", *args),
                          cwd=work, env=hostile_pytest.environ(work), capture_output=True,
                          text=True, timeout=600, preexec_fn=_limited(size))
    return done.returncode, done.stdout + done.stderr


@pytest_case
def save_whose_history_cannot_grow(work: Path) -> Row:
    """Item 10: a baseline save under the limit exited 0 with its session missing from the
    history."""
    first = _run(work, "--sbc-save-baseline")
    snap = snapshot(work)
    code, output = _limited_run(work, 16384, "--sbc-baselines", str(work / "bl"),
                                "--sbc-save-baseline")
    line = last_line(output, "history not written")
    return Row("pytest --sbc-save-baseline, the history cannot grow (ulimit -f 16)",
               f"{first[0]}, {code}", line, first[0] == 0 and code == 4
               and "could not write: file too large" in line and "baseline saved" in output,
               losses(snap, snapshot(work), lambda k: k in ("run.log", "test_inner.py", "ran")
                      or k.endswith(".json")))


@pytest_case
def results_not_written(work: Path) -> Row:
    """Item 13: the run ended with ``results JSON: r.json`` for a file that was not written."""
    snap = snapshot(work)
    code, output = _limited_run(work, 2048, "--sbc-results", str(work / "r.json"))
    line = last_line(output, "results JSON:")
    return Row("pytest --sbc-results r.json under ulimit -f 2", str(code), line,
               code == 4 and line.startswith("results JSON: not written (")
               and "file too large" in line and not (work / "r.json").exists(),
               losses(snap, snapshot(work), lambda k: k in ("run.log", "test_inner.py", "ran")))
