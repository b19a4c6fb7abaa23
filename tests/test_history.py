"""The history store (``judge/history.py``): every session appended to one SQLite file beside the
baselines, never rewritten, safe with concurrent writers, read back by ``sbcbench history``."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from pytest_sbcbench.cli import main
from pytest_sbcbench.judge import history


def doc(board: str = "star64", boot: str = "b1", kernel: str = "6.1.0-57-arm64",
        samples: tuple[float, ...] = (1.0, 2.0)) -> dict[str, Any]:
    return {"schema": "sbcbench-results/1", "board": board, "created": "2026-12-01T09:00:00",
            "environment": {"kernel": kernel, "boot_id": boot},
            "results": [{"test": "t::a", "metric": "a", "unit": "B/s", "better": "higher",
                         "identity": {"tool": "x"}, "samples": list(samples),
                         "telemetry": {"findings": []},
                         "verdict": {"status": "pass", "detail": "ok"}}]}


def test_sessions_are_appended_and_summarised_per_board_role_and_label(tmp_path: Path) -> None:
    path = history.history_path(tmp_path)
    assert history.append(path, doc(boot="b1"), "baseline", None) == 1
    assert history.append(path, doc(boot="b2"), "baseline", None) == 2
    assert history.append(path, doc(boot="b3", kernel="6.12.117"), "candidate", "new") == 3
    rows = history.summary(path)
    assert [(r.role, r.label, r.boots, r.sessions, r.results) for r in rows] == [
        ("baseline", "6.1.0-57-arm64", 2, 2, 2), ("candidate", "new", 1, 1, 1)]
    assert rows[1].kernels == ("6.12.117",)
    with sqlite3.connect(path) as db:
        samples = db.execute("SELECT samples FROM results ORDER BY session_id").fetchall()
    assert [json.loads(s) for (s,) in samples] == [[1.0, 2.0]] * 3


def test_a_lab_board_is_recorded_by_its_own_kernel_and_boot(tmp_path: Path) -> None:
    path = history.history_path(tmp_path)
    board = doc(kernel="controller")
    board["environment"]["lab"] = {"kernel_release": "6.12.117+deb13-arm64", "boot_id": "q1"}
    history.append(path, board, "candidate", None)
    (row,) = history.summary(path)
    assert row.kernels == ("6.12.117+deb13-arm64",) and row.label == "6.12.117+deb13-arm64"


def _writer(path: str, n: int) -> None:
    for i in range(n):
        history.append(Path(path), doc(boot=f"{path}-{i}"), "candidate", "load")


def test_concurrent_writers_lose_no_session(tmp_path: Path) -> None:
    path = history.history_path(tmp_path)
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_writer, args=(str(path), 10)) for _ in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
        assert w.exitcode == 0
    (row,) = history.summary(path)
    assert (row.sessions, row.results) == (30, 30)


def test_a_file_of_another_schema_or_kind_is_refused_by_name(tmp_path: Path) -> None:
    path = history.history_path(tmp_path)
    history.append(path, doc(), "baseline", None)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(history.HistoryError, match="schema version 99"):
        history.append(path, doc(), "baseline", None)
    with pytest.raises(history.HistoryError, match="schema version 99"):
        history.summary(path)
    junk = tmp_path / "junk" / history.FILE_NAME
    junk.parent.mkdir()
    junk.write_text("not a database\n" * 100)
    with pytest.raises(history.HistoryError, match=str(junk)):
        history.append(junk, doc(), "baseline", None)


def test_sbcbench_history_lists_boards_labels_and_boots(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    history.append(history.history_path(tmp_path), doc(), "baseline", None)
    assert main(["history", "--baselines", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("star64  baseline   6.1.0-57-arm64  (6.1.0-57-arm64): 1 session on "
                          "1 boot, 1 result, 2026-12-01T09:00:00")
    assert main(["history", "--baselines", str(tmp_path / "none")]) == 2
    assert "no such file" in capsys.readouterr().err
