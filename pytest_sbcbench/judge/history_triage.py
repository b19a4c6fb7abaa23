"""Triage states of incidents (issue 29, ``sbcbench history triage ID --state ...``): one
append-only table of the history, ``incident_triage(id, incident_id, state, note, at, by)``.

An incident's state is its latest row (:func:`states`); every earlier row stays, so the file
shows who said what when.  The incident ids are whatever ``history changes`` names them."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from .history_db import blank, reading, writing
from .history_url import Location

TRIAGE_STATES = ("acknowledged", "invalid", "fixed")


@dataclass(frozen=True)
class Triage:
    """One triage entry: the incident, its new state, a note, when (ISO 8601) and by whom."""

    id: int
    incident_id: str
    state: str
    note: str | None
    at: str
    by: str | None


def append_triage(path: Location, incident_id: str, state: str, note: str | None = None,
                  by: str | None = None, at: str | None = None) -> int:
    """Append one triage entry (``state`` one of :data:`TRIAGE_STATES`; ``at`` now in UTC when
    not given); its row id.  Creates the history if there is none, migrates a version-1 file;
    a file it cannot write is a :class:`.history_db.HistoryError` naming it."""
    if state not in TRIAGE_STATES:
        raise ValueError(f"state {state!r}: expected one of {', '.join(TRIAGE_STATES)}")
    if not incident_id.strip() or not incident_id.isprintable():
        raise ValueError(f"incident id {incident_id!r}: expected printable text")
    when = at or _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    with writing(path) as db:
        cursor = db.execute("INSERT INTO incident_triage (incident_id, state, note, at, \"by\") "
                            "VALUES (?, ?, ?, ?, ?)", (incident_id, state, note, when, by))
        return int(cursor.lastrowid or 0)


def read_triage(path: Location, incident_id: str | None = None) -> list[Triage]:
    """Every triage entry, oldest first (of one incident with ``incident_id``).  A history
    without the table yet (version 1, or no entry ever): none.  No file: a HistoryError."""
    with reading(path) as (db, version):
        if version < 2:
            return []
        where, args = (" WHERE incident_id = ?", [incident_id]) if incident_id else ("", [])
        rows = db.execute("SELECT id, incident_id, state, note, at, \"by\" FROM incident_triage"
                          f"{where} ORDER BY id", args).fetchall()
    return [Triage(*row) for row in rows]


def states(path: Location) -> dict[str, Triage]:
    """Each triaged incident's current state: its latest entry of a state :func:`append_triage`
    writes (a row with any other state, which only another writer can have put there, is not
    read: a state is shown, and used as an HTML class).  No file (or no tables yet): none."""
    if blank(path):
        return {}
    entries = read_triage(path)
    return {t.incident_id: t for t in entries if t.state in TRIAGE_STATES}
