"""The history as series: per board, per metric, the labels in order with each label's boots.

This is the one module the history views (``sbcbench history show``, ``history changes``,
``publish``) read the store through, so that a change of the store's schema stays here.  Labels
are ordered by their first session on the board; a metric is one measurement (test, metric
name and identity, as the gate keys it: :data:`.candidates.MetricKey`), so a new tool version
starts a new series instead of a step in the old one.  Results the gate calls unusable
(``implausible``, ``invalid``) are left out of the numbers; their verdicts are still counted.

The rows are read through the store's read-only opening (:func:`.history_db.reading`: the
schema version checked, a version-1 file read as it is) with one query of its own, not
:func:`.history.label_history`, which re-canonicalises every row's identity (24 s of CPU for
the 750,000 results of ``benchmarks/publish_benchmark.py``, against 18 s here).  Which way is
better is read from the unit (seconds: lower; anything else: higher): the store keeps none.

A board name read back is checked as a run checks it before writing (:mod:`.stored_names`):
the sessions of a name that is no board name (``../../x``, markup, a control character) are
left out of every series, and :func:`left_out` names them for the commands to say so.

Triage states of incidents live in the store's append-only ``incident_triage`` table
(:func:`append_triage`, :func:`read_triage`, through :mod:`.history_triage`): the latest row of
an incident is its state."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from . import history
from .boot_test import BootSession, BootSide, reduce_side
from .candidates import MetricKey
from .history import HistoryError, Location, PostgresHistory
from .history_db import reading
from .stored_names import valid_board

LOWER_IS_BETTER_UNITS = frozenset({"s", "ms", "us", "ns", "s/op"})
TRIAGE_STATES = history.TRIAGE_STATES


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
class MetricHistory:
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
    series: tuple[MetricHistory, ...]

    def positions(self, series: MetricHistory) -> list[int]:
        """Where each of ``series``' labels is in the board's order."""
        place = {label: i for i, label in enumerate(self.labels)}
        return [place[p.label] for p in series.points]


def better_of(unit: str) -> str:
    return "lower" if unit in LOWER_IS_BETTER_UNITS else "higher"


def _open(path: Location) -> None:
    if not isinstance(path, PostgresHistory) and not path.is_file():
        raise HistoryError(f"history {path}: no such file (a run with --sbc-baselines "
                           f"{path.parent} and --sbc-gate or --sbc-candidate writes it)")


def _names(path: Location) -> list[str]:
    _open(path)
    with reading(path) as (db, _):
        return [str(b) for (b,) in db.execute("SELECT DISTINCT board FROM sessions "
                                              "ORDER BY board")]


def boards(path: Location) -> list[str]:
    """The boards the history holds, by name (only names that are board names)."""
    return [b for b in _names(path) if valid_board(b)]


def left_out(path: Location) -> list[str]:
    """The names the history holds sessions under that are no board names (left out)."""
    return [b for b in _names(path) if not valid_board(b)]


# Every result with its session, in the order written (a session's results are appended in its
# own transaction, so result rowids follow session ids).  The store's label_history reads the
# same rows; this read is the one that has to be fast (publish reads every board at once:
# identities are canonicalised once per distinct text, samples parsed without json).
_ROWS = ("SELECT s.board, s.id, s.created, s.label, s.kernel_release, s.boot_id, r.test, "
         "r.metric, r.unit, r.identity, r.samples, r.status FROM results r JOIN sessions s "
         "ON s.id = r.session_id{where} ORDER BY r.rowid")


def board_history(path: Location, board: str, order: str = "first") -> BoardHistory:
    """Every measurement of ``board``, each across the labels it was measured under."""
    found = _read(path, " WHERE s.board = ?", (board,), order)
    return found[0] if found else BoardHistory(board, (), ())


def all_boards(path: Location, order: str = "first") -> list[BoardHistory]:
    """Every board's history, read in one pass, by board name."""
    return _read(path, "", (), order)


def boards_history(path: Location, names: Sequence[str], order: str = "first"
                   ) -> list[BoardHistory]:
    """The histories of the boards ``names`` (one read), by board name."""
    if not names:
        return []
    marks = ", ".join("?" * len(names))
    return _read(path, f" WHERE s.board IN ({marks})", tuple(names), order)


def _read(path: Location, where: str, args: tuple[str, ...], order: str) -> list[BoardHistory]:
    if order not in history.ORDERS:
        raise ValueError(f"order {order!r}: expected one of {history.ORDERS}")
    _open(path)
    with reading(path) as (db, _):
        rows = db.execute(_ROWS.format(where=where), args).fetchall()
    per: dict[str, list[Row]] = {}
    for board, *rest in rows:
        per.setdefault(board, []).append(rest)
    return [history_of(board, r, order) for board, r in sorted(per.items())
            if valid_board(board)]


Row = tuple[int, str, str | None, str | None, str | None, str, str, str, str, str, str]


def _canonical(identity: str, seen: dict[str, str]) -> str:
    found = seen.get(identity)
    if found is None:
        found = seen[identity] = json.dumps(json.loads(identity), sort_keys=True)
    return found


def history_of(board: str, rows: Iterable[Row], order: str = "first") -> BoardHistory:
    """Result rows of one board (oldest first) as series per measurement; labels ordered by
    their first session, or by the kernel release it booted (``order="version"``)."""
    first: dict[str, tuple[int, str | None]] = {}
    found: dict[MetricKey, dict[str, _Label]] = {}
    units: dict[MetricKey, str] = {}
    seen: dict[str, str] = {}
    for session, created, label, kernel, boot, test, metric, unit, identity, samples, status \
            in rows:
        name = label or kernel or f"session-{session}"
        if name not in first:
            first[name] = (len(first), kernel)
        key = (test, metric, _canonical(identity, seen))
        by_name = found.get(key)
        if by_name is None:
            by_name = found[key] = {}
            units[key] = unit
        point = by_name.get(name)
        if point is None:
            point = by_name[name] = _Label(created)
        point.add(session, boot, kernel, samples, status)
    labels = sorted(first, key=lambda n: (history.version_key(first[n][1] or n)
                                          if order == "version" else (), first[n][0]))
    place = {n: i for i, n in enumerate(labels)}
    names = Counter(metric for _, metric, _ in found)
    out = []
    for key, by_label in found.items():
        test, metric, _ = key
        shown = metric if names[metric] == 1 else f"{metric} ({test})"
        points = tuple(p.freeze(lab) for lab, p in sorted(by_label.items(),
                                                          key=lambda kv: place[kv[0]]))
        out.append(MetricHistory(board, metric, shown, units[key], better_of(units[key]),
                                 points))
    return BoardHistory(board, tuple(labels), tuple(sorted(out, key=lambda s: s.name)))


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

    def add(self, session: int, boot: str | None, kernel: str | None, samples: str,
            status: str) -> None:
        """One session's result: its verdict counted, its samples kept when usable (as the
        gate: not implausible or invalid, and positive)."""
        self.verdicts[status] += 1
        if kernel:
            self.kernels.add(kernel)
        runs = _samples(samples)
        if status not in history.UNUSABLE and runs and all(v > 0 for v in runs):
            self.sessions.append(BootSession(runs, boot or f"session-{session}"))

    def freeze(self, label: str) -> LabelPoint:
        return LabelPoint(label, tuple(self.sessions), tuple(self.verdicts.most_common()),
                          tuple(sorted(self.kernels)), self.created)


def append_triage(path: Location, incident: str, state: str, note: str = "") -> str:
    """Record a triage state of ``incident`` (never replacing an earlier one); when."""
    _open(path)
    row = history.append_triage(path, incident, state, note or None)
    return next(t.at for t in history.read_triage(path, incident) if t.id == row)


def read_triage(path: Location) -> Mapping[str, tuple[str, str]]:
    """Each triaged incident's latest state and when it was set."""
    _open(path)
    return {incident: (t.state, t.at) for incident, t in history.states(path).items()}
