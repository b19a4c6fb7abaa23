"""The history store: every session of every board, baseline or candidate, appended to one SQLite
file beside the baselines (``<baselines>/history.sqlite``).

The baseline JSON stays the signed, reviewable reference a gate judges against; the history
keeps everything (board, role, label, kernel release, boot id, each result's identity,
samples, telemetry, findings and verdict) for change points and dashboards.  The file is only
ever appended to (no ``UPDATE``, no ``DELETE``), written in WAL mode under ``BEGIN IMMEDIATE``
so concurrent runs queue instead of losing a session, and carries a schema version that a
reader checks before trusting it."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import SbcBenchError
from .boot_test import BootSession
from .candidates import MetricKey

SCHEMA_VERSION = 1
FILE_NAME = "history.sqlite"
BUSY_TIMEOUT_S = 60.0  # a concurrent writer holds the lock for one session's rows
ROLES = ("baseline", "candidate")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    board TEXT NOT NULL,
    role TEXT NOT NULL,
    label TEXT,
    kernel_release TEXT,
    boot_id TEXT,
    interrupted INTEGER NOT NULL,
    environment TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    test TEXT NOT NULL,
    metric TEXT NOT NULL,
    unit TEXT NOT NULL,
    identity TEXT NOT NULL,
    samples TEXT NOT NULL,
    telemetry TEXT NOT NULL,
    status TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_board ON sessions(board, label);
"""


class HistoryError(SbcBenchError):
    """The history file is not one this version can read or write (path in the message)."""


def history_path(baselines: Path) -> Path:
    return baselines / FILE_NAME


@contextmanager
def _connect(path: Path) -> Iterator[sqlite3.Connection]:
    try:
        with closing(sqlite3.connect(path, timeout=BUSY_TIMEOUT_S,
                                     isolation_level=None)) as db:
            db.execute("PRAGMA journal_mode=WAL")
            yield db
    except sqlite3.DatabaseError as exc:  # not a database, locked past the timeout, full disk
        raise HistoryError(f"history {path}: {exc}") from exc


def _check_schema(db: sqlite3.Connection, path: Path) -> None:
    row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is None:
        db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
    elif row[0] != str(SCHEMA_VERSION):
        raise HistoryError(f"history {path}: schema version {row[0]}, this sbcbench reads "
                           f"{SCHEMA_VERSION}; keep it, and point --sbc-baselines elsewhere")


def _text(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def append(path: Path, doc: Mapping[str, Any], role: str, label: str | None) -> int:
    """Append one results document (``sbcbench-results/1``) as a session; its id."""
    if role not in ROLES:
        raise ValueError(f"role {role!r}: expected one of {ROLES}")
    env = doc.get("environment") or {}
    lab = env.get("lab") or {}
    kernel = _text(lab.get("kernel_release")) or _text(env.get("kernel"))
    boot = _text(lab.get("boot_id")) or _text(env.get("boot_id"))
    with _connect(path) as db:
        db.executescript(SCHEMA)  # idempotent; executescript commits, so before the BEGIN
        db.execute("BEGIN IMMEDIATE")  # one writer at a time; the others wait (timeout)
        try:
            _check_schema(db, path)
            cursor = db.execute(
                "INSERT INTO sessions (created, board, role, label, kernel_release, boot_id, "
                "interrupted, environment) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (str(doc.get("created", "")), str(doc.get("board", "")), role,
                 label or kernel, kernel, boot, int(bool(doc.get("interrupted"))),
                 json.dumps(env, sort_keys=True)))
            session = int(cursor.lastrowid or 0)
            db.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           [_result_row(session, r) for r in doc.get("results", ())])
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return session


def _result_row(session: int, result: Mapping[str, Any]) -> tuple[Any, ...]:
    verdict = result.get("verdict") or {}
    return (session, str(result.get("test", "")), str(result.get("metric", "")),
            str(result.get("unit", "")), json.dumps(result.get("identity", {}), sort_keys=True),
            json.dumps(result.get("samples", [])),
            json.dumps(result.get("telemetry", {}), sort_keys=True),
            str(verdict.get("status", "")), str(verdict.get("detail", "")))


@dataclass(frozen=True)
class HistoryGroup:
    """One board's sessions under one role and label: how many, on how many boots, when."""

    board: str
    role: str
    label: str | None
    kernels: tuple[str, ...]
    boots: int
    sessions: int
    results: int
    first: str
    last: str


def summary(path: Path) -> list[HistoryGroup]:
    """Per board, role and label: sessions, distinct boots, results, first and last."""
    if not path.is_file():
        raise HistoryError(f"history {path}: no such file (a run with --sbc-baselines "
                           f"{path.parent} writes it)")
    with _connect(path) as db:
        _check_readable(db, path)
        rows = db.execute(
            "SELECT s.board, s.role, s.label, group_concat(DISTINCT s.kernel_release), "
            "count(DISTINCT s.boot_id), count(DISTINCT s.id), count(r.session_id), "
            "min(s.created), max(s.created) FROM sessions s LEFT JOIN results r "
            "ON r.session_id = s.id GROUP BY s.board, s.role, s.label "
            "ORDER BY s.board, min(s.created)").fetchall()
    return [HistoryGroup(b, role, label, tuple(sorted((k or "").split(","))) if k else (), boots,
                  sessions, results, first, last)
            for b, role, label, k, boots, sessions, results, first, last in rows]


def _check_readable(db: sqlite3.Connection, path: Path) -> None:
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    except sqlite3.OperationalError as exc:
        raise HistoryError(f"history {path}: not an sbcbench history ({exc})") from exc
    if row is None or row[0] != str(SCHEMA_VERSION):
        found = "none" if row is None else row[0]
        raise HistoryError(f"history {path}: schema version {found}, this sbcbench reads "
                           f"{SCHEMA_VERSION}")


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def render(rows: Sequence[HistoryGroup]) -> str:
    """One line per board, role and label (``sbcbench history``)."""
    if not rows:
        return "no sessions recorded"
    return "\n".join(
        f"{r.board}  {r.role:9}  {r.label or '-'}  ({', '.join(r.kernels) or 'kernel unknown'}):"
        f" {_count(r.sessions, 'session')} on {_count(r.boots, 'boot')}, "
        f"{_count(r.results, 'result')}, {r.first} .. {r.last}" for r in rows)


UNUSABLE = ("implausible", "invalid")  # numbers that are a bug report, or a disturbed run


def candidate_sessions(path: Path, board: str, label: str) -> list[tuple[MetricKey, BootSession]]:
    """The earlier sessions of candidate ``label`` on ``board``, oldest first: per result its
    metric key and samples with the boot it ran in (results that beat physics or ran disturbed
    under ``--sbc-strict`` left out).  No file: none yet."""
    if not path.is_file():
        return []
    with _connect(path) as db:
        _check_readable(db, path)
        rows = db.execute(
            "SELECT r.test, r.metric, r.identity, r.samples, s.boot_id, r.status FROM sessions s "
            "JOIN results r ON r.session_id = s.id WHERE s.board = ? AND s.role = 'candidate' "
            "AND s.label = ? ORDER BY s.id", (board, label)).fetchall()
    out = []
    for test, metric, identity, samples, boot, status in rows:
        values = tuple(float(v) for v in json.loads(samples))
        if status in UNUSABLE or not values:
            continue
        key = (test, metric, json.dumps(json.loads(identity), sort_keys=True))
        out.append((key, BootSession(values, boot)))
    return out


def label_plan(path: Path, board: str, label: str) -> object:
    """The boot plan recorded with the first session of candidate ``label`` on ``board`` that
    has one (``environment["boot_plan"]``, issue 28), as stored; None: none recorded."""
    if not path.is_file():
        return None
    with _connect(path) as db:
        _check_readable(db, path)
        rows = db.execute(
            "SELECT environment FROM sessions WHERE board = ? AND role = 'candidate' AND "
            "label = ? ORDER BY id", (board, label)).fetchall()
    for (environment,) in rows:
        try:
            plan = json.loads(environment).get("boot_plan")
        except (ValueError, AttributeError):
            continue
        if plan is not None:
            return plan
    return None
