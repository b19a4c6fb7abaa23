"""The history as series: per board, per metric, the labels in order with each label's boots.

This is the one module the history views (``sbcbench history show``, ``history changes``,
``publish``) read the store through, so that a change of the store's schema stays here.  Labels
are ordered by their first session on the board; a metric is one measurement (test, metric
name and identity, as the gate keys it: :data:`.candidates.MetricKey`), so a new tool version
starts a new series instead of a step in the old one.  Results the gate calls unusable
(``implausible``, ``invalid``) are left out of the numbers; their verdicts are still counted.

Triage states of incidents live in the same file, in an append-only table of their own
(:func:`append_triage`, :func:`read_triage`): the latest row of an incident is its state."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .boot_test import BootSession, BootSide, reduce_side
from .history import HistoryError, _check_readable, _connect

LOWER_IS_BETTER_UNITS = frozenset({"s", "ms", "us", "ns", "s/op"})
TRIAGE_STATES = ("acknowledged", "invalid", "fixed")
TRIAGE_SCHEMA = """
CREATE TABLE IF NOT EXISTS incident_triage (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    incident TEXT NOT NULL,
    state TEXT NOT NULL,
    created TEXT NOT NULL,
    note TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class LabelPoint:
    """One label of one metric: its sessions (samples and boot id) and the verdicts it got."""

    label: str
    sessions: tuple[BootSession, ...]
    verdicts: tuple[tuple[str, int], ...]  # (status, count), most frequent first
    kernels: tuple[str, ...]
    created: str = ""  # when its first session of this metric was recorded

    @cached_property
    def side(self) -> BootSide | None:
        """Its sessions reduced to boots (:func:`.boot_test.reduce_side`), once; None: none."""
        return reduce_side(self.sessions) if self.sessions else None


@dataclass(frozen=True)
class MetricSeries:
    """One measurement on one board across labels (oldest label first)."""

    board: str
    metric: str
    name: str  # the metric, with the test id when two measurements share a metric name
    unit: str
    better: str  # "higher" or "lower" (from the unit: the store keeps no direction)
    points: tuple[LabelPoint, ...]

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(p.label for p in self.points)


@dataclass(frozen=True)
class BoardHistory:
    """A board's labels in order (by first session) and its measurements across them."""

    board: str
    labels: tuple[str, ...]
    series: tuple[MetricSeries, ...]

    def positions(self, series: MetricSeries) -> list[int]:
        """Where each of ``series``' labels is in the board's order."""
        place = {label: i for i, label in enumerate(self.labels)}
        return [place[p.label] for p in series.points]


def better_of(unit: str) -> str:
    return "lower" if unit in LOWER_IS_BETTER_UNITS else "higher"


def _open(path: Path) -> None:
    if not path.is_file():
        raise HistoryError(f"history {path}: no such file (a run with --sbc-baselines "
                           f"{path.parent} and --sbc-gate or --sbc-candidate writes it)")


def boards(path: Path) -> list[str]:
    """The boards the history holds, by name."""
    _open(path)
    with _connect(path) as db:
        _check_readable(db, path)
        return [b for (b,) in db.execute("SELECT DISTINCT board FROM sessions ORDER BY board")]


_ROWS = ("SELECT s.id, s.created, s.label, s.kernel_release, s.boot_id, r.test, r.metric, r.unit, "
         "r.identity, r.samples, r.status FROM sessions s JOIN results r ON r.session_id = s.id "
         "WHERE s.board = ? ORDER BY s.id")


def board_history(path: Path, board: str) -> BoardHistory:
    """Every measurement of ``board``, each across the labels it was measured under."""
    _open(path)
    with _connect(path) as db:
        _check_readable(db, path)
        rows = db.execute(_ROWS, (board,)).fetchall()
    return history_of(board, rows)


Row = tuple[int, str, str | None, str | None, str | None, str, str, str, str, str, str]


def history_of(board: str, rows: Iterable[Row]) -> BoardHistory:
    """Group result rows (oldest session first) into series; labels ordered by first session."""
    order: dict[str, int] = {}
    found: dict[tuple[str, str, str], dict[str, _Label]] = {}
    units: dict[tuple[str, str, str], str] = {}
    for session, created, label, kernel, boot, test, metric, unit, identity, samples, status \
            in rows:
        name = label or kernel or f"session-{session}"
        order.setdefault(name, len(order))
        key = (test, metric, identity)
        units.setdefault(key, unit)
        labels = found.setdefault(key, {})
        point = labels.get(name)
        if point is None:
            point = labels[name] = _Label(created)
        point.verdicts[status] += 1
        if kernel:
            point.kernels.add(kernel)
        values = _samples(samples)
        if status not in ("implausible", "invalid") and values and all(v > 0 for v in values):
            point.sessions.append(BootSession(values, boot or f"session-{session}"))
    names = Counter(metric for _, metric, _ in found)
    out = []
    for key, by_label in found.items():
        test, metric, _ = key
        shown = metric if names[metric] == 1 else f"{metric} ({test})"
        points = tuple(p.freeze(lab) for lab, p in sorted(by_label.items(),
                                                          key=lambda kv: order[kv[0]]))
        out.append(MetricSeries(board, metric, shown, units[key], better_of(units[key]),
                                points))
    return BoardHistory(board, tuple(order), tuple(sorted(out, key=lambda s: s.name)))


def _samples(text: str) -> tuple[float, ...]:
    """A stored samples list (``json.dumps`` of floats), parsed quickly; JSON when unusual."""
    inner = text.strip()[1:-1]
    if not inner.strip():
        return ()
    try:
        return tuple(map(float, inner.split(",")))
    except ValueError:
        return tuple(float(v) for v in json.loads(text))


class _Label:
    def __init__(self, created: str) -> None:
        self.created = created
        self.sessions: list[BootSession] = []
        self.verdicts: Counter[str] = Counter()
        self.kernels: set[str] = set()

    def freeze(self, label: str) -> LabelPoint:
        return LabelPoint(label, tuple(self.sessions), tuple(self.verdicts.most_common()),
                          tuple(sorted(self.kernels)), self.created)


def all_boards(path: Path) -> list[BoardHistory]:
    """Every board's history, read in one pass, by board name."""
    _open(path)
    with _connect(path) as db:
        _check_readable(db, path)
        rows = db.execute(_ROWS.replace("WHERE s.board = ? ", "")
                          .replace("ORDER BY s.id", "ORDER BY s.board, s.id")
                          .replace("SELECT s.id", "SELECT s.board, s.id")).fetchall()
    per: dict[str, list[Row]] = {}
    for board, *rest in rows:
        per.setdefault(board, []).append(tuple(rest))
    return [history_of(board, r) for board, r in sorted(per.items())]


def append_triage(path: Path, incident: str, state: str, created: str, note: str = "") -> int:
    """Record a triage state of ``incident`` (never replacing an earlier one); its row id."""
    if state not in TRIAGE_STATES:
        raise ValueError(f"state {state!r}: expected one of {TRIAGE_STATES}")
    _open(path)
    with _connect(path) as db:
        _check_readable(db, path)
        db.executescript(TRIAGE_SCHEMA)
        cursor = db.execute("INSERT INTO incident_triage (incident, state, created, note) "
                            "VALUES (?, ?, ?, ?)", (incident, state, created, note))
        return int(cursor.lastrowid or 0)


def read_triage(path: Path) -> Mapping[str, tuple[str, str]]:
    """Each triaged incident's latest state and when it was set."""
    _open(path)
    with _connect(path) as db:
        _check_readable(db, path)
        try:
            rows = db.execute("SELECT incident, state, created FROM incident_triage "
                              "ORDER BY id").fetchall()
        except sqlite3.OperationalError:  # no incident triaged yet
            return {}
    return {incident: (state, created) for incident, state, created in rows}
