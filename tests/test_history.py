"""The history store (``judge/history.py``): every session appended to one SQLite file beside the
baselines, never rewritten, safe with concurrent writers, read back by ``sbcbench history``."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
from contextlib import closing
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


# Version 1 as it was shipped (judge/history.py before schema 2): a file written by it.
V1_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sessions (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL,
    board TEXT NOT NULL, role TEXT NOT NULL, label TEXT, kernel_release TEXT, boot_id TEXT,
    interrupted INTEGER NOT NULL, environment TEXT NOT NULL);
CREATE TABLE results (session_id INTEGER NOT NULL REFERENCES sessions(id), test TEXT NOT NULL,
    metric TEXT NOT NULL, unit TEXT NOT NULL, identity TEXT NOT NULL, samples TEXT NOT NULL,
    telemetry TEXT NOT NULL, status TEXT NOT NULL, detail TEXT NOT NULL);
CREATE INDEX sessions_board ON sessions(board, label);
INSERT INTO meta VALUES ('schema', '1');
INSERT INTO sessions VALUES (1, '2026-11-01T09:00:00', 'star64', 'candidate', 'old',
    '6.6.0-00012-gabc1234def', 'v1-boot', 0, '{}');
INSERT INTO results VALUES (1, 't::a', 'a', 'B/s', '{"tool": "x"}', '[3.0, 5.0]', '{}', 'pass',
    'ok');
"""


def v1_file(folder: Path) -> Path:
    path = history.history_path(folder)
    with closing(sqlite3.connect(path)) as db:
        db.executescript(V1_SCHEMA)
    return path


def booted_doc(boot: str, label_kernel: str = "6.12.0-rc1-00042-gdeadbeef12", cpus: str = "0-3",
               **more: Any) -> dict[str, Any]:
    d = doc(boot=boot, kernel=label_kernel)
    d["environment"]["booted"] = {"kernel_release": label_kernel, "cmdline": "root=/dev/mmcblk0p2",
                                  "cpus_online": cpus, "dt_model": "Pine64 Star64", **more}
    return d


def test_a_version_1_file_is_migrated_by_adding_and_its_rows_read_as_they_were(
        tmp_path: Path) -> None:
    path = v1_file(tmp_path)
    assert [(g.label, g.booted["kernel_commit"]) for g in history.summary(path)] == [
        ("old", "abc1234def")]  # read as it is (version 1), the commit from the release
    history.append(path, booted_doc("b2"), "candidate", "new")
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT value FROM meta").fetchone() == ("2",)
        assert db.execute("SELECT id, label, boot_id, environment, cpus_online FROM sessions "
                          "ORDER BY id").fetchall() == [
            (1, "old", "v1-boot", "{}", None), (2, "new", "b2", ANY_JSON, "0-3")]
        indexes = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert {"results_session", "sessions_role_label"} <= indexes
    old, new = history.summary(path)
    assert (old.label, old.results, new.label, new.results) == ("old", 1, "new", 1)
    assert new.booted == {"kernel_release": "6.12.0-rc1-00042-gdeadbeef12",
                          "kernel_commit": "deadbeef12", "kernel_image": None,
                          "image_sha256": None, "cmdline": "root=/dev/mmcblk0p2",
                          "cpus_online": "0-3", "dt_model": "Pine64 Star64",
                          "dt_compatible": None}


class _AnyJson:
    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and isinstance(json.loads(other), dict)


ANY_JSON = _AnyJson()


def test_a_newer_file_is_refused_and_left_byte_for_byte(tmp_path: Path) -> None:
    path = history.history_path(tmp_path)
    history.append(path, doc(), "baseline", None)
    with closing(sqlite3.connect(path)) as db:
        db.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")
        db.execute("DROP TABLE incident_triage")
        db.commit()
        db.execute("PRAGMA journal_mode=DELETE")
    before = path.read_bytes()
    with pytest.raises(history.HistoryError, match=f"{path}: schema version 3.*left as it is"):
        history.append(path, doc(), "baseline", None)
    with pytest.raises(history.HistoryError, match="schema version 3"):
        history.append_triage(path, "inc-1", "fixed")
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [history.FILE_NAME]


def test_labels_are_ordered_by_first_session_or_by_kernel_version(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = history.history_path(tmp_path)
    for boot, kernel in (("b1", "6.12.3"), ("b2", "6.9.0"), ("b3", "6.12.0-rc2"),
                         ("b4", "6.10.1")):
        history.append(path, doc(boot=boot, kernel=kernel), "candidate", None)
    assert [g.label for g in history.summary(path)] == ["6.12.3", "6.9.0", "6.12.0-rc2",
                                                        "6.10.1"]
    assert [g.label for g in history.summary(path, "version")] == [
        "6.9.0", "6.10.1", "6.12.0-rc2", "6.12.3"]
    assert main(["history", "--baselines", str(tmp_path), "--order", "version"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[2] for line in lines] == ["6.9.0", "6.10.1", "6.12.0-rc2", "6.12.3"]


def test_label_history_groups_samples_by_boot_per_label_and_metric(tmp_path: Path) -> None:
    path = history.history_path(tmp_path)
    history.append(path, doc(boot="base", samples=(9.0, 9.0)), "baseline", "ref")
    history.append(path, doc(boot="x1", samples=(1.0, 3.0)), "candidate", "L1")
    history.append(path, doc(boot="x1", samples=(4.0, 4.0)), "candidate", "L1")
    history.append(path, doc(boot="x2", samples=(5.0,)), "candidate", "L1")
    history.append(path, doc(boot="y1", kernel="6.0.9", samples=(7.0,)), "candidate", "L0")
    history.append(path, doc(board="rpi5", boot="z1", samples=(2.0,)), "candidate", "L1")
    labels = history.label_history(path)
    assert [(h.board, h.label) for h in labels] == [("star64", "L1"), ("star64", "L0"),
                                                    ("rpi5", "L1")]
    (series,) = labels[0].metrics.values()
    assert series.key == ("t::a", "a", '{"tool": "x"}') and series.unit == "B/s"
    assert [(b.boot_id, b.runs, b.session_ids) for b in series.boots] == [
        ("x1", ((1.0, 3.0), (4.0, 4.0)), (2, 3)), ("x2", ((5.0,),), (4,))]
    assert series.means == (3.0, 5.0)  # a boot's mean: the mean of its sessions' means
    assert [s.samples for s in series.boots[0].sessions()] == [(1.0, 3.0), (4.0, 4.0)]
    only = history.label_history(path, board="star64", metric="a", order="version")
    assert [h.label for h in only] == ["L0", "L1"]  # 6.0.9 before 6.1.0-57-arm64
    assert [h.label for h in history.label_history(path, role="baseline")] == ["ref"]
    assert history.label_history(path, metric="nothing")[0].metrics == {}


def test_reads_use_the_indexes(tmp_path: Path) -> None:
    path = history.history_path(tmp_path)
    history.append(path, doc(), "candidate", "L")
    with closing(sqlite3.connect(path)) as db:
        plan = " ".join(str(r[3]) for r in db.execute(
            "EXPLAIN QUERY PLAN SELECT r.samples FROM sessions s JOIN results r ON "
            "r.session_id = s.id WHERE s.board = ? AND s.role = 'candidate' AND s.label = ? "
            "ORDER BY s.id", ("star64", "L")))
    assert "USING INDEX results_session" in plan and "sessions_role_label" in plan, plan
    assert "SCAN r" not in plan and "SCAN results" not in plan


def test_triage_states_are_appended_and_the_latest_counts(tmp_path: Path) -> None:
    path = v1_file(tmp_path)
    assert history.read_triage(path) == []  # version 1: no table yet
    assert history.append_triage(path, "star64:sha512:L08", "acknowledged", "looking",
                                 by="ana", at="2026-12-01T10:00:00") == 1
    history.append_triage(path, "star64:sha512:L08", "fixed", by="ben")
    history.append_triage(path, "rpi5:md5:L02", "invalid")
    entries = history.read_triage(path, "star64:sha512:L08")
    assert [(t.state, t.note, t.by) for t in entries] == [("acknowledged", "looking", "ana"),
                                                          ("fixed", None, "ben")]
    assert entries[0].at == "2026-12-01T10:00:00" and entries[1].at.startswith("20")
    assert {k: t.state for k, t in history.states(path).items()} == {
        "star64:sha512:L08": "fixed", "rpi5:md5:L02": "invalid"}
    with pytest.raises(ValueError, match="expected one of acknowledged, invalid, fixed"):
        history.append_triage(path, "x", "closed")
    assert history.states(tmp_path / "none.sqlite") == {}


def test_first_sessions_are_ordered_as_moments_not_as_strings() -> None:
    """Created times of other offsets or precisions order by the moment they name (as text,
    "12:00:05+01:00" sorted after "12:00:04+00:00", an hour later); text that is no time sorts
    last."""
    from pytest_sbcbench.judge.history_labels import moment

    assert moment("2026-12-01T12:00:05+01:00") < moment("2026-12-01T12:00:04+00:00")
    assert moment("2026-12-01T12:00:04Z") < moment("2026-12-01T12:00:04.5+00:00")
    assert moment("2026-12-01T12:00:04")[0] == moment("2026-12-01T12:00:04+00:00")[0]
    assert moment("not a time") > moment("2999-01-01T00:00:00+00:00")
