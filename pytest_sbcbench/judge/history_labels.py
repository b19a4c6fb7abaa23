"""The history read for a person, or a change-point method: per board, per label in order, per
metric identity, the sessions' samples grouped by boot (issue 29).

:func:`label_history` is the one read: ``history show``, ``history changes`` and ``publish``
take their series from it.  Labels are ordered per board by their first session
(``order="first"``) or by the kernel release they booted (``order="version"``:
:func:`version_key`).  A metric's identity is its test, metric and identity (canonical JSON),
as the gate pools them (:data:`.candidates.MetricKey`).  A boot's mean is the mean of its
sessions' means, as the gate reduces a boot (:mod:`.boot_test` does so in log space; feed
:meth:`BootRecord.sessions` to :func:`.boot_test.reduce_side` for that)."""

from __future__ import annotations

import datetime
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..platform.booted import FIELDS, commit_of
from .boot_test import BootSession
from .candidates import MetricKey
from .history_db import BOOTED_COLUMNS, reading
from .history_url import Location

ORDERS = ("first", "version")
UNUSABLE = ("implausible", "invalid")  # numbers that are a bug report, or a disturbed run


def version_key(release: str | None) -> tuple[tuple[int, int | str], ...]:
    """A kernel release as a sort key: numbers as numbers (``6.1.9`` before ``6.1.10``),
    ``-rc`` before its release (``6.12-rc3`` before ``6.12``)."""
    out: list[tuple[int, int | str]] = []
    for part in re.findall(r"\d+|[a-z]+", (release or "").lower()):
        if part.isdigit():
            out.append((2, int(part)))
        elif part == "rc":
            out.append((0, part))
        else:
            out.append((1, part))
    return tuple(out)


def check_order(order: str) -> None:
    if order not in ORDERS:
        raise ValueError(f"order {order!r}: expected one of {ORDERS}")


def booted_select(version: int, alias: str = "s") -> str:
    """The booted columns of a version-2 file; NULLs for a version-1 file read as it is."""
    return ", ".join(f"{alias}.{c}" if version >= 2 else "NULL" for c in BOOTED_COLUMNS)


def booted_row(kernel: str | None, values: Sequence[Any]) -> dict[str, Any]:
    """A session's booted fields (:data:`..platform.booted.FIELDS`) from its columns."""
    found = dict(zip(BOOTED_COLUMNS, values, strict=True))
    found["kernel_release"] = kernel
    found["kernel_commit"] = found["kernel_commit"] or commit_of(kernel)
    return {k: found.get(k) for k in FIELDS}


@dataclass(frozen=True)
class BootRecord:
    """One boot of a label, for one metric: its sessions' samples (``runs``, one tuple per
    session, oldest first), their verdict statuses, their ids and the first one's time."""

    boot_id: str | None
    session_ids: tuple[int, ...]
    runs: tuple[tuple[float, ...], ...]
    statuses: tuple[str, ...]
    first: str

    @property
    def mean(self) -> float:
        """The boot's mean: the mean of its sessions' means."""
        return sum(sum(r) / len(r) for r in self.runs) / len(self.runs)

    def sessions(self) -> list[BootSession]:
        """The boot's sessions as the gate's decision code takes them."""
        return [BootSession(r, self.boot_id) for r in self.runs]


@dataclass(frozen=True)
class MetricSeries:
    """One metric identity of a label: its unit and its boots, in the order they first ran."""

    key: MetricKey
    unit: str
    boots: tuple[BootRecord, ...]

    @property
    def means(self) -> tuple[float, ...]:
        return tuple(b.mean for b in self.boots)


@dataclass(frozen=True)
class LabelHistory:
    """One label of one board under one role: its first and last session's time, what its
    first session booted (``booted``: :data:`..platform.booted.FIELDS`) and its metrics."""

    board: str
    role: str
    label: str | None
    first: str
    last: str
    booted: Mapping[str, Any]
    metrics: Mapping[MetricKey, MetricSeries]


def _filters(board: str | None, role: str | None, metric: str | None) -> tuple[str, list[str]]:
    where, args = [], []
    for column, value in (("s.board", board), ("s.role", role), ("r.metric", metric)):
        if value is not None:
            where.append(f"{column} = ?")
            args.append(value)
    return (" WHERE " + " AND ".join(where)) if where else "", args


def label_history(path: Location, board: str | None = None, role: str | None = "candidate",
                  metric: str | None = None, order: str = "first",
                  usable_only: bool = True) -> list[LabelHistory]:
    """Every label of the history, per board (boards in the order of their first session),
    labels in ``order`` (``first``: by their first session; ``version``: by the kernel release
    their first session booted, the label itself when none).

    ``board``, ``role`` (``"candidate"`` by default; ``"baseline"``, or None for both) and
    ``metric`` (a metric name such as ``sha512``: every identity of it) narrow the read, which
    then uses the file's indexes.  ``usable_only`` leaves out results judged ``implausible`` or
    ``invalid`` (as the gate does) and results without samples.  Raises
    :class:`.history_db.HistoryError` naming the path for a file it cannot read."""
    check_order(order)
    where, args = _filters(board, role, metric)
    with reading(path) as (db, version):
        heads = db.execute(
            f"SELECT s.id, s.board, s.role, s.label, s.created, s.kernel_release, "
            f"{booted_select(version)} FROM sessions s"
            f"{_filters(board, role, None)[0]} ORDER BY s.id",
            _filters(board, role, None)[1]).fetchall()
        rows = db.execute(
            "SELECT s.id, r.test, r.metric, r.identity, r.unit, r.samples, r.status, s.boot_id "
            f"FROM sessions s JOIN results r ON r.session_id = s.id{where} ORDER BY s.id",
            args).fetchall()
    return _build(heads, rows, usable_only, order)


_Key = tuple[str, str, "str | None"]


def _build(heads: Sequence[Any], rows: Sequence[Any], usable_only: bool,
           order: str) -> list[LabelHistory]:
    sessions: dict[int, tuple[_Key, str]] = {}
    labels: dict[_Key, dict[str, Any]] = {}
    for sid, board, role, label, created, kernel, *values in heads:
        key = (board, role, label)
        sessions[sid] = (key, created)
        entry = labels.setdefault(key, {"first": created, "booted": booted_row(kernel, values),
                                        "metrics": {}})
        entry["last"] = created
    for sid, test, metric, identity, unit, samples, status, boot in rows:
        numbers = tuple(float(v) for v in json.loads(samples))
        if usable_only and (status in UNUSABLE or not numbers):
            continue
        key, created = sessions[sid]
        mkey = (test, metric, json.dumps(json.loads(identity), sort_keys=True))
        series = labels[key]["metrics"].setdefault(mkey, {"unit": unit, "boots": {}})
        slot = boot if boot is not None else ("session", sid)
        series["boots"].setdefault(slot, (boot, created, []))[2].append((sid, numbers, status))
    out = [LabelHistory(b, role, label, e["first"], e["last"], e["booted"],
                        {k: _series(k, m) for k, m in e["metrics"].items()})
           for (b, role, label), e in labels.items()]
    return order_labels(out, order)


def _series(key: MetricKey, found: Mapping[str, Any]) -> MetricSeries:
    boots = tuple(BootRecord(boot, tuple(s for s, _, _ in runs), tuple(n for _, n, _ in runs),
                             tuple(st for _, _, st in runs), created)
                  for boot, created, runs in found["boots"].values())
    return MetricSeries(key, found["unit"], boots)


def order_labels(items: Sequence[Any], order: str) -> list[Any]:
    """Items with ``board``, ``label``, ``first`` and ``booted`` (a :class:`LabelHistory` or a
    summary row), per board in the order given, labels by ``order`` (see
    :func:`label_history`); ties keep their order."""
    check_order(order)
    boards: dict[str, int] = {}
    for item in items:
        boards.setdefault(item.board, len(boards))

    def key(item: Any) -> tuple[Any, ...]:
        release = item.booted.get("kernel_release") or item.label
        return (boards[item.board], version_key(release) if order == "version" else (),
                moment(item.first))
    return sorted(items, key=key)


def moment(created: Any) -> tuple[float, str]:
    """A session's created time as a point in time, for ordering: ISO 8601 strings of other
    precisions or offsets ("...:05+00:00" against "...:05.3+00:00") do not sort as strings do;
    one that does not parse sorts by its text after every one that does."""
    text = str(created)
    try:
        when = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return (math.inf, text)
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return (when.timestamp(), text)
