"""The history store: every session of every board, baseline or candidate, appended to one SQLite
file beside the baselines (``<baselines>/history.sqlite``).

The baseline JSON stays the signed, reviewable reference a gate judges against; the history
keeps everything (board, role, label, kernel release, boot id, what was booted, each result's
identity, samples, telemetry, findings and verdict) for change points and dashboards.  The
file is only ever appended to (no ``UPDATE`` or ``DELETE`` of a session, a result or a triage
entry), written in WAL mode under ``BEGIN IMMEDIATE`` so concurrent runs queue instead of
losing a session, and carries a schema version (2; version 1 is migrated by adding columns,
a table and indexes, a newer one refused untouched: :mod:`.history_db`).

Schema 2: ``sessions`` (id, created, board, role, label, kernel_release, boot_id, interrupted,
environment JSON, and what was booted: kernel_commit, kernel_image, image_sha256, cmdline,
cpus_online, dt_model, dt_compatible), ``results`` (session_id, test, metric, unit, identity
JSON, samples JSON, telemetry JSON, status, detail), ``incident_triage`` (id, incident_id,
state, note, at, by) and ``meta`` (key 'schema').

The API: :func:`append` (a session), :func:`summary` / :func:`render` (``sbcbench history``),
:func:`earlier_boots` (a candidate's earlier boots, for the gate), :func:`label_history` (per
board, per label in order, per metric identity, the samples grouped by boot: the read of
``history show``, ``changes`` and ``publish``), :func:`append_triage` / :func:`read_triage` /
:func:`states` (incident triage).  Every error is a :class:`HistoryError` naming the path."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..platform.booted import FIELDS, commit_of
from ..words import counted
from .boot_test import BootSession
from .candidates import MetricKey
from .history_db import (
    BOOTED_COLUMNS,
    BUSY_TIMEOUT_S,
    READABLE,
    HistoryError,
    blank,
    check,
    reading,
    version_of,
    writing,
)
from .history_labels import (
    ORDERS,
    UNUSABLE,
    BootRecord,
    LabelHistory,
    MetricSeries,
    booted_row,
    booted_select,
    label_history,
    order_labels,
    version_key,
)
from .history_triage import TRIAGE_STATES, Triage, append_triage, read_triage, states
from .history_url import Location, PostgresHistory, exists, location
from .stored_names import shown, valid_board

__all__ = [
    "FILE_NAME",
    "ORDERS",
    "ROLES",
    "TRIAGE_STATES",
    "UNUSABLE",
    "BootRecord",
    "EarlierBoots",
    "HistoryError",
    "HistoryGroup",
    "LabelHistory",
    "Location",
    "MetricSeries",
    "PostgresHistory",
    "Triage",
    "append",
    "append_triage",
    "booted_of",
    "candidate_sessions",
    "check",
    "earlier_boots",
    "exists",
    "history_path",
    "label_history",
    "location",
    "read_triage",
    "render",
    "states",
    "summary",
    "version_key",
]

FILE_NAME = "history.sqlite"
ROLES = ("baseline", "candidate")


def history_path(baselines: Path) -> Path:
    return baselines / FILE_NAME


@contextmanager
def _connect(path: Path) -> Iterator[sqlite3.Connection]:
    """Version 1's private connection helper, kept for modules written against it (read with
    :func:`.history_db.reading` or :func:`label_history`, write with :func:`append` /
    :func:`append_triage` instead): the file checked as :func:`.history_db.writing` checks it,
    then opened read-write; a database error is a :class:`HistoryError` naming the path."""
    check(path)
    try:
        with closing(sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)) as db:
            yield db
    except sqlite3.DatabaseError as exc:
        raise HistoryError(f"history {path}: {exc}") from exc


def _check_readable(db: sqlite3.Connection, path: Path) -> None:
    """Version 1's private check, kept with :func:`_connect`: a version this sbcbench reads."""
    version = version_of(db, path)
    if version not in READABLE:
        raise HistoryError(f"history {path}: schema version "
                           f"{'none' if version is None else version}, this sbcbench reads "
                           f"{', '.join(map(str, READABLE))}")


def _text(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def booted_of(env: Mapping[str, Any]) -> dict[str, Any]:
    """What a results document's session booted (:mod:`..platform.booted`'s fields): its
    ``booted`` block, the lab board's kernel release and boot over the controller's."""
    lab = env.get("lab") or {}
    found = dict(env.get("booted") or {})
    kernel = _text(lab.get("kernel_release")) or _text(found.get("kernel_release")) \
        or _text(env.get("kernel"))
    found["kernel_release"] = kernel
    found["kernel_commit"] = _text(found.get("kernel_commit")) or commit_of(kernel)
    found.setdefault("kernel_image", _text(lab.get("kernel_image")))
    return {k: _text(found.get(k)) for k in FIELDS}


def append(path: Location, doc: Mapping[str, Any], role: str, label: str | None) -> int:
    """Append one results document (``sbcbench-results/1``) as a session; its id.  The label
    is ``label``, else the kernel release; what was booted goes in its own columns.  A board
    that is no board name is refused (a HistoryError), as every reader refuses it."""
    if role not in ROLES:
        raise ValueError(f"role {role!r}: expected one of {ROLES}")
    if not valid_board(doc.get("board")):
        raise HistoryError(f"history {path}: not appended: {shown(repr(doc.get('board')))} is "
                           "not a board name")
    env = doc.get("environment") or {}
    lab = env.get("lab") or {}
    booted = booted_of(env)
    kernel = booted["kernel_release"]
    boot = _text(lab.get("boot_id")) or _text(env.get("boot_id"))
    with writing(path) as db:
        cursor = db.execute(
            "INSERT INTO sessions (created, board, role, label, kernel_release, boot_id, "
            f"interrupted, environment, {', '.join(BOOTED_COLUMNS)}) VALUES "
            f"({', '.join('?' * (8 + len(BOOTED_COLUMNS)))})",
            (str(doc.get("created", "")), str(doc.get("board", "")), role,
             label or kernel, kernel, boot, int(bool(doc.get("interrupted"))),
             json.dumps(env, sort_keys=True), *(booted[c] for c in BOOTED_COLUMNS)))
        session = int(cursor.lastrowid or 0)
        db.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [_result_row(session, r) for r in doc.get("results", ())])
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
    """One board's sessions under one role and label: how many, on how many boots, when, and
    what the first of them booted (:mod:`..platform.booted`'s fields)."""

    board: str
    role: str
    label: str | None
    kernels: tuple[str, ...]
    boots: int
    sessions: int
    results: int
    first: str
    last: str
    booted: Mapping[str, Any] = field(default_factory=dict)


def summary(path: Location, order: str = "first") -> list[HistoryGroup]:
    """Per board, role and label: sessions, distinct boots, results, first and last, and what
    its first session booted; ordered by :func:`.history_labels.order_labels` (``first`` or
    ``version``)."""
    with reading(path) as (db, version):
        counts = db.execute(
            "SELECT s.board, s.role, s.label, group_concat(DISTINCT s.kernel_release), "
            "count(DISTINCT s.boot_id), count(DISTINCT s.id), min(s.created), max(s.created), "
            "min(s.id) FROM sessions s GROUP BY s.board, s.role, s.label "
            "ORDER BY min(s.id)").fetchall()
        results = {(b, role, label): n for b, role, label, n in db.execute(
            "SELECT s.board, s.role, s.label, count(*) "
            "FROM sessions s JOIN results r ON r.session_id = s.id "
            "GROUP BY s.board, s.role, s.label").fetchall()}
        firsts = {row[0]: booted_row(row[1], row[2:]) for row in db.execute(
            f"SELECT s.id, s.kernel_release, {booted_select(version)} FROM sessions s "
            "WHERE s.id IN (SELECT min(id) FROM sessions GROUP BY board, role, label)")}
    groups = [HistoryGroup(b, role, label, tuple(sorted(k.split(","))) if k else (), boots,
                           sessions, results.get((b, role, label), 0), first,
                           last, firsts[first_id])
              for b, role, label, k, boots, sessions, first, last, first_id in counts]
    return order_labels(groups, order)


def render(rows: Sequence[HistoryGroup]) -> str:
    """One line per board, role and label (``sbcbench history``); a label or board with
    control characters is shown escaped, on its one line (:func:`.stored_names.shown`), and a
    board that is no board name is marked as left out of every other reader."""
    if not rows:
        return "no sessions recorded"
    return "\n".join(
        f"{shown(r.board)}  {r.role:9}  {shown(r.label or '-')}  "
        f"({', '.join(map(shown, r.kernels)) or 'kernel unknown'}):"
        f" {counted(r.sessions, 'session')} on {counted(r.boots, 'boot')}, "
        f"{counted(r.results, 'result')}, {shown(r.first)} .. {shown(r.last)}"
        f"{'' if valid_board(r.board) else '  [not a board name: left out when read]'}"
        for r in rows)


@dataclass(frozen=True)
class EarlierBoots:
    """What the history holds of a candidate label on a board: per result its metric key and
    samples with the boot it ran in, and what each earlier boot booted (by boot id)."""

    sessions: list[tuple[MetricKey, BootSession]]
    booted: dict[str | None, dict[str, Any]]


def earlier_boots(path: Location, board: str, label: str) -> EarlierBoots:
    """The earlier sessions of candidate ``label`` on ``board``, oldest first (results that
    beat physics or ran disturbed under ``--sbc-strict`` left out), with what each boot booted
    (its first session's).  No file, or no tables yet: none yet."""
    if blank(path):
        return EarlierBoots([], {})
    with reading(path) as (db, version):
        heads = db.execute(
            f"SELECT s.id, s.boot_id, s.kernel_release, {booted_select(version)} "
            "FROM sessions s WHERE s.board = ? AND s.role = 'candidate' AND s.label = ? "
            "ORDER BY s.id", (board, label)).fetchall()
        rows = db.execute(
            "SELECT r.test, r.metric, r.identity, r.samples, s.boot_id, r.status FROM sessions s "
            "JOIN results r ON r.session_id = s.id WHERE s.board = ? AND s.role = 'candidate' "
            "AND s.label = ? ORDER BY s.id", (board, label)).fetchall()
    booted: dict[str | None, dict[str, Any]] = {}
    for _, boot, kernel, *values in heads:
        booted.setdefault(boot, booted_row(kernel, values))
    out = []
    for test, metric, identity, samples, boot, status in rows:
        numbers = tuple(float(v) for v in json.loads(samples))
        if status in UNUSABLE or not numbers:
            continue
        key = (test, metric, json.dumps(json.loads(identity), sort_keys=True))
        out.append((key, BootSession(numbers, boot)))
    return EarlierBoots(out, booted)


def candidate_sessions(path: Location, board: str,
                       label: str) -> list[tuple[MetricKey, BootSession]]:
    """The earlier sessions of candidate ``label`` on ``board`` (:func:`earlier_boots`)."""
    return earlier_boots(path, board, label).sessions


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
