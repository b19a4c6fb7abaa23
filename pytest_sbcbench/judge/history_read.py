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

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from . import history
from .boot_test import BootSession, BootSide, reduce_side
from .candidates import MetricKey
from .history import HistoryError, Location, PostgresHistory

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


def boards(path: Location) -> list[str]:
    """The boards the history holds, by name."""
    _open(path)
    return sorted({group.board for group in history.summary(path)})


def board_history(path: Location, board: str, order: str = "first") -> BoardHistory:
    """Every measurement of ``board``, each across the labels it was measured under."""
    _open(path)
    found = history.label_history(path, board=board, role=None, order=order,
                                  usable_only=False)
    return history_of(board, found)


def all_boards(path: Location, order: str = "first") -> list[BoardHistory]:
    """Every board's history, read in one pass, by board name."""
    _open(path)
    per: dict[str, list[history.LabelHistory]] = {}
    for label in history.label_history(path, role=None, order=order, usable_only=False):
        per.setdefault(label.board, []).append(label)
    return [history_of(board, labels) for board, labels in sorted(per.items())]


def history_of(board: str, labels: Iterable[history.LabelHistory]) -> BoardHistory:
    """A board's labels (in the store's order; a baseline and a candidate label of one name
    are one label) as series per measurement."""
    order: dict[str, int] = {}
    found: dict[MetricKey, dict[str, _Label]] = {}
    units: dict[MetricKey, str] = {}
    for lh in labels:
        name = lh.label or str(lh.booted.get("kernel_release") or f"{lh.role}-{lh.first}")
        order.setdefault(name, len(order))
        kernel = lh.booted.get("kernel_release")
        for key, series in lh.metrics.items():
            units.setdefault(key, series.unit)
            by_name = found.setdefault(key, {})
            point = by_name.get(name)
            if point is None:
                point = by_name[name] = _Label(min((b.first for b in series.boots),
                                                  default=lh.first))
            if kernel:
                point.kernels.add(str(kernel))
            for boot in series.boots:
                point.add(boot)
    names = Counter(metric for _, metric, _ in found)
    out = []
    for key, by_label in found.items():
        test, metric, _ = key
        shown = metric if names[metric] == 1 else f"{metric} ({test})"
        points = tuple(p.freeze(lab) for lab, p in sorted(by_label.items(),
                                                          key=lambda kv: order[kv[0]]))
        out.append(MetricHistory(board, metric, shown, units[key], better_of(units[key]),
                                points))
    return BoardHistory(board, tuple(order), tuple(sorted(out, key=lambda s: s.name)))


class _Label:
    def __init__(self, created: str) -> None:
        self.created = created
        self.sessions: list[BootSession] = []
        self.verdicts: Counter[str] = Counter()
        self.kernels: set[str] = set()

    def add(self, boot: history.BootRecord) -> None:
        """A boot's sessions: every verdict counted, usable samples kept (as the gate)."""
        for sid, runs, status in zip(boot.session_ids, boot.runs, boot.statuses, strict=True):
            self.verdicts[status] += 1
            if status not in history.UNUSABLE and runs and all(v > 0 for v in runs):
                self.sessions.append(BootSession(runs, boot.boot_id or f"session-{sid}"))

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
