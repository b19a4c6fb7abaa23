"""Names that come back from a store (board, label, metric, test id) are data
(``judge/stored_names.py``): a board name is checked on read as on write, every name is escaped
in the terminal and in HTML, and a file is never named by a name.  The browser's view of a
published hostile history is in ``test_publish_hostile.py``."""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import sqlite3
import subprocess
import sys
from pathlib import Path

import hostile_names
import pytest
from history_docs import build, results_doc

from pytest_sbcbench.cli import main
from pytest_sbcbench.fileio import OutputError
from pytest_sbcbench.judge import history, history_read
from pytest_sbcbench.judge.history_db import HistoryError
from pytest_sbcbench.judge.stored_names import file_stem, html, shown, url, valid_board
from pytest_sbcbench.report import kcidb

NAMES = ("star64", "../../x", 'x"><script>alert(9)</script>', "javascript:alert(1)", "a/b",
         "a\\b", "\x1b[2J\x07", "\u202eevil", "L" * 5000, "ядро 🐧", "Star64", "star64~2e",
         ".", "..", "", "~", "a b", "x" * 100, "x" * 101)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def test_a_page_name_is_a_safe_encoding_never_the_name() -> None:
    stems = [file_stem(n) for n in NAMES]
    assert len(set(stems)) == len(NAMES)  # no two names share a page
    for name, stem in zip(NAMES, stems, strict=True):
        assert stem and len(stem) <= 100 and set(stem) <= set("abcdefghijklmnopqrstuvwxyz"
                                                              "0123456789-_~"), (name, stem)
        assert stem == name or not valid_board(name)  # a board name is its own stem
    assert file_stem("../../x") == "~2e~2e~2f~2e~2e~2fx"


def test_a_name_is_escaped_for_the_terminal_html_and_links() -> None:
    assert shown("L\x1b[2J") == "L\\x1b[2J" and shown("ядро 🐧") == "ядро 🐧"
    assert html('x"><script>\'&\x07') == "x&quot;&gt;&lt;script&gt;&#x27;&amp;\\x07"
    assert url("star64@L1") == "star64@L1"
    assert url('a/b"#?\\ :') == "a%2Fb%22%23%3F%5C%20%3A"


def test_the_history_refuses_to_append_a_board_that_is_no_board_name(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite"
    doc = results_doc("star64", "2026-12-01T00:00:00", "b", "6.12", {"sha256": [1e9]})
    history.append(path, doc, "candidate", "L1")
    for board in ("../../pwned", "", "Star64", 'x"><script>', None):
        with pytest.raises(HistoryError, match="not a board name"):
            history.append(path, {**doc, "board": board}, "candidate", "L1")
    assert history_read.boards(path) == ["star64"]


def hostile(tmp_path: Path) -> Path:
    (tmp_path / "bl").mkdir()
    path = tmp_path / "bl" / "history.sqlite"
    hostile_names.build(path)
    return path


def test_publish_writes_nothing_outside_its_folder_whatever_the_board_names(
        tmp_path: Path) -> None:
    """The reported case: a board named ``../../pwned`` made ``publish pub/out/site`` write
    ``pub/out/pwned.html``; a board that is no board name is not read at all, and said so."""
    pytest.importorskip("otava", reason="needs Apache Otava (the history extra)")
    hostile(tmp_path)
    (tmp_path / "pub" / "out").mkdir(parents=True)
    code, _, err = run("publish", str(tmp_path / "pub" / "out" / "site"), "--baselines",
                         str(tmp_path / "bl"), "--jobs", "1")
    assert code == 0, err
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")
                     if p.is_file() and "bl" not in p.parts)
    assert written == ["pub/out/site/boards/star64.html", "pub/out/site/feed.xml",
                       "pub/out/site/index.html"]
    assert "the sessions of 14 board names left out" in err and "'../../../pwned-far'" in err
    assert "\x1b" not in err


def test_history_show_and_changes_print_no_terminal_escape(tmp_path: Path) -> None:
    """A label or metric name holding ``ESC [2J`` (clear the screen) or an OSC title sequence
    was printed raw by ``history show`` and ``history changes``; it is shown escaped."""
    pytest.importorskip("otava", reason="needs Apache Otava (the history extra)")
    hostile(tmp_path)
    for argv, shown_name in ((["history", "show", "star64"], "\\x1b[2J\\x1b]0;pwned\\x07bell"),
                             (["history", "changes"], "</script>\\x1b[31m: -"),
                             (["history"], "\\u202eevil\\u202c rtl")):
        code, out, err = run(*argv, "--baselines", str(tmp_path / "bl"))
        assert code == 0, err
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out, argv
        assert shown_name in out, argv
    code, out, _ = run("history", "changes", "--baselines", str(tmp_path / "bl"))
    first_bad = shown(hostile_names.LABELS[hostile_names.STEP_AT - 1])
    assert f"star64@{first_bad}  [acknowledged]" in out  # the raw row's state is not read


def test_merge_does_not_copy_a_session_under_a_name_that_is_no_board_name(
        tmp_path: Path) -> None:
    source = hostile(tmp_path)
    into = tmp_path / "merged.sqlite"
    code, out, err = run("history", "merge", str(source), "--into", str(into))
    assert code == 0, err
    assert f"{len(hostile_names.LABELS) * 3} sessions added" in out
    assert "the sessions of 14 board names not merged" in err
    with contextlib.closing(sqlite3.connect(into)) as db:
        assert db.execute("SELECT DISTINCT board FROM sessions").fetchall() == [("star64",)]


def test_kcidb_leaves_out_a_session_under_a_name_that_is_no_board_name(tmp_path: Path) -> None:
    doc = kcidb.document(hostile(tmp_path))
    assert {b["misc"]["board"] for b in doc["builds"]} == {"star64"}
    assert len(doc["tests"]) == len(hostile_names.LABELS) * 3 * len(hostile_names.METRICS)


def test_publish_refuses_an_empty_folder_name(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``publish ''`` wrote the site into the current directory and exited 0."""
    (tmp_path / "bl").mkdir()
    build(tmp_path / "bl" / "history.sqlite", labels=3)
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    for empty in ("", " "):
        code, _, err = run("publish", empty, "--baselines", str(tmp_path / "bl"))
        assert code == 2 and "an empty folder name" in err
    assert list(work.iterdir()) == []
    code, _, err = run("history", "show", "--out", "", "--baselines", str(tmp_path / "bl"))
    assert code == 2 and "an empty folder name" in err


def test_an_error_of_any_kind_is_carried_across_processes() -> None:
    """An error raised in a publish worker went back to the parent pickled; one whose
    ``__init__`` takes more than the message (a page that cannot be written) could not be
    unpickled, which killed the pool's result thread: ``publish`` waited forever."""
    error = OutputError(Path("site/boards/rpi5.html"), "is a directory")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is OutputError and str(again) == str(error)
    assert (again.path, again.reason) == (error.path, error.reason)


def test_publish_with_workers_ends_when_a_page_cannot_be_written(tmp_path: Path) -> None:
    (tmp_path / "bl").mkdir()
    build(tmp_path / "bl" / "history.sqlite", labels=3)
    build(tmp_path / "bl" / "history.sqlite", board="rpi5", labels=3)
    (tmp_path / "site" / "boards" / "rpi5.html").mkdir(parents=True)
    done = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "publish",
                           str(tmp_path / "site"), "--baselines", str(tmp_path / "bl"),
                           "--jobs", "2"], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)})
    assert done.returncode == 2, done.stderr
    assert "rpi5.html: is a directory" in done.stderr and "Traceback" not in done.stderr


def test_baseline_list_prints_no_terminal_escape(tmp_path: Path) -> None:
    """A baseline is a store too: the label (reference) and created time of its sessions are
    listed escaped by ``sbcbench baseline list``."""
    from pytest_sbcbench.judge.baseline import with_session, write_baseline
    from pytest_sbcbench.judge.stats import summarize
    from pytest_sbcbench.model import Identity, Measurement, Result, Verdict

    samples = (1e8, 1.01e8)
    result = Result("t.py::test_x", Measurement("m", "B/s", "higher", Identity.of(tool="w"),
                                                samples), summarize(samples),
                    Verdict("no-baseline", ""))
    baseline = with_session(None, "star64", [result], "2026-11-01\x1b[2J",
                            {"label": "L\x1b]0;pwned\x07"})
    path = tmp_path / "star64.json"
    write_baseline(path, baseline)
    code, out, err = run("baseline", "list", str(path))
    assert code == 0, err
    assert "\x1b" not in out and "\x07" not in out
    assert "2026-11-01\\x1b[2J" in out and "L\\x1b]0;pwned\\x07" in out
