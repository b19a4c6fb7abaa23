"""``sbcbench history merge A B ... [--into URL]``: histories of several controllers (SQLite
files, or PostgreSQL databases) into one, idempotently (issue 29, item 5).

A session's identity is a hash of what it is (board, role, label, created time, boot id, kernel,
what was booted, its environment and its results, in a canonical order): the ids a store gave
it are not part of it.  A merge appends each source session whose identity the target does not
hold yet, in the source's order, and each triage entry it does not hold; merging twice adds
nothing, and nothing in the target is changed or removed (the history stays append-only).  A
source's session under a name that is no board name is not merged (names read back are
checked as a run's are before it writes: :mod:`.stored_names`), and counted as refused."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .history_db import BOOTED_COLUMNS, Db, reading, writing
from .history_labels import booted_select
from .history_url import Location
from .stored_names import valid_board

SESSION_COLUMNS = ("created", "board", "role", "label", "kernel_release", "boot_id", "interrupted",
            "environment", *BOOTED_COLUMNS)
_INTERRUPTED = SESSION_COLUMNS.index("interrupted")
_BOARD = SESSION_COLUMNS.index("board")
_RESULT = ("test", "metric", "unit", "identity", "samples", "telemetry", "status", "detail")
_TRIAGE = ("incident_id", "state", "note", "at", '"by"')


@dataclass(frozen=True)
class MergedSession:
    """One session as merged: its columns (:data:`SESSION_COLUMNS`) and its results' rows."""

    values: tuple[Any, ...]
    results: tuple[tuple[Any, ...], ...]

    @property
    def board(self) -> Any:
        return self.values[_BOARD]

    @property
    def identity(self) -> str:
        """What the session is, whatever store holds it: a SHA-256 of its columns and its
        results (sorted, so that the stores' row order does not count)."""
        values = list(self.values)
        values[_INTERRUPTED] = int(bool(values[_INTERRUPTED]))
        text = json.dumps([values, sorted(list(r) for r in self.results)], default=str)
        return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Merged:
    """What a merge did: sessions appended, already held and refused (a board that is no
    board name), triage entries appended."""

    added: int
    held: int
    triage_added: int
    refused: tuple[str, ...] = ()  # the board names of the sessions refused, each once


def _sessions(db: Db, version: int) -> list[MergedSession]:
    columns = [f"s.{c}" for c in SESSION_COLUMNS[:8]] + booted_select(version).split(", ")
    heads = db.execute(f"SELECT s.id, {', '.join(columns)} FROM sessions s ORDER BY s.id"
                       ).fetchall()
    rows: dict[int, list[tuple[Any, ...]]] = {}
    for sid, *values in db.execute(f"SELECT r.session_id, {', '.join('r.' + c for c in _RESULT)}"
                                   " FROM results r ORDER BY r.session_id").fetchall():
        rows.setdefault(int(sid), []).append(tuple(values))
    return [MergedSession(tuple(values), tuple(rows.get(int(sid), ()))) for sid, *values in heads]


def _triage(db: Db, version: int) -> list[tuple[Any, ...]]:
    if version < 2:
        return []
    return [tuple(r) for r in db.execute(
        f"SELECT {', '.join(_TRIAGE)} FROM incident_triage ORDER BY id").fetchall()]


def read(source: Location) -> tuple[list[MergedSession], list[tuple[Any, ...]]]:
    """Every session (oldest first) and triage entry of ``source``."""
    with reading(source) as (db, version):
        return _sessions(db, version), _triage(db, version)


def merge(sources: Sequence[Location], into: Location) -> Merged:
    """Append to ``into`` (made when missing) every session and triage entry of ``sources``
    it does not hold yet, in one transaction."""
    found = [read(source) for source in sources if source != into]
    added = held = triaged = 0
    refused: dict[str, None] = {}
    with writing(into) as db:
        have = {s.identity for s in _sessions(db, 2)}
        have_triage = set(_triage(db, 2))
        for sessions, triage in found:
            for session in sessions:
                if not valid_board(session.board):
                    refused[str(session.board)] = None
                    continue
                if session.identity in have:
                    held += 1
                    continue
                have.add(session.identity)
                _insert(db, session)
                added += 1
            for entry in triage:
                if entry not in have_triage:
                    have_triage.add(entry)
                    db.execute(f"INSERT INTO incident_triage ({', '.join(_TRIAGE)}) VALUES "
                               f"({', '.join('?' * len(_TRIAGE))})", entry)
                    triaged += 1
    return Merged(added, held, triaged, tuple(refused))


def _insert(db: Db, session: MergedSession) -> None:
    cursor = db.execute(f"INSERT INTO sessions ({', '.join(SESSION_COLUMNS)}) VALUES "
                        f"({', '.join('?' * len(SESSION_COLUMNS))})", session.values)
    number = int(cursor.lastrowid or 0)
    db.executemany(f"INSERT INTO results (session_id, {', '.join(_RESULT)}) VALUES "
                   f"({', '.join('?' * (1 + len(_RESULT)))})",
                   [(number, *r) for r in session.results])
