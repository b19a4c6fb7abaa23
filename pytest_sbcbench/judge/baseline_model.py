"""The baseline's value types: a stored session, an entry (one test's metric under one
identity), the baseline, and its text on disk (one line per session).

:mod:`.baseline` reads, validates and appends; these are what it reads into."""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..fileio import OutputError, write_atomic
from ..model import Identity
from .baseline_columns import REFERENCE_KEYS as REFERENCE_KEYS
from .baseline_columns import EntryColumns
from .baseline_columns import boot_of as boot_of
from .baseline_columns import reference_of as reference_of
from .boot_tails import tail_weight
from .boot_test import BootSide, runs_dominate
from .boots import BaselineSession

BASELINE_SCHEMA = "sbcbench-baseline/1"
SESSION_STATUSES = ("used", "quarantined", "dropped")  # only "used" sessions are judged


@dataclass(frozen=True)
class StoredSession:
    """One recorded session of a baseline entry: its samples, when, and the environment (the
    boot id among it); :class:`.boots.BaselineSession` is the judge's reduced view of it.

    ``status``: ``used`` (judged against), ``quarantined`` (kept and shown, never judged
    against: saved under contamination findings or far outside the reference's other boots,
    ``why`` says which) or ``dropped`` (``sbcbench baseline drop``; ``before_drop`` is what
    ``restore`` returns it to).  ``findings``: the contamination findings it was saved under
    (kind, detail), kept even when it was accepted."""

    created: str
    samples: tuple[float, ...]
    environment: Mapping[str, Any] = field(default_factory=dict)
    status: str = "used"
    why: str = ""
    findings: tuple[tuple[str, str], ...] = ()
    before_drop: str | None = None

    @property
    def used(self) -> bool:
        return self.status == "used"

    def as_dict(self) -> dict[str, Any]:
        """The stored form; a used session without findings keeps the original three keys."""
        out: dict[str, Any] = {"created": self.created, "samples": list(self.samples),
                               "environment": dict(self.environment)}
        if self.status != "used":
            out["status"] = self.status
        if self.why:
            out["why"] = self.why
        if self.findings:
            out["findings"] = [{"kind": k, "detail": d} for k, d in self.findings]
        if self.before_drop is not None:
            out["before_drop"] = self.before_drop
        return out


@dataclass(frozen=True)
class BaselineEntry:
    """One test's metric under one identity, with every session recorded for it.

    ``stored``: every session in file order (dropped and quarantined ones included; for a
    directory of saves, :class:`.baseline_columns.LazySessions`: read only when asked for);
    ``sessions``: the used ones only, the only ones anything is judged against.  What judging
    reads (the boots, the counts, the latest environment, the references, the median) comes
    from :attr:`columns` (``given`` by a directory's summaries, else computed from the
    sessions once)."""

    test: str
    metric: str
    unit: str
    better: str
    identity: Identity
    stored: Sequence[StoredSession]
    given: EntryColumns | None = field(default=None, repr=False, compare=False)

    @property
    def key(self) -> tuple[str, str, Identity]:
        return self.test, self.metric, self.identity

    @cached_property
    def sessions(self) -> tuple[StoredSession, ...]:
        return tuple(s for s in self.stored if s.used)

    @cached_property
    def columns(self) -> EntryColumns:
        return self.given if self.given is not None else EntryColumns.of(self.stored)

    @property
    def used_count(self) -> int:
        """How many used sessions (judged against) the entry has."""
        return self.columns.used_count

    @property
    def last_environment(self) -> Mapping[str, Any] | None:
        """The environment of the latest used session (None: none is used)."""
        used = self.columns.used_contexts
        return used[-1].environment if used else None

    @property
    def references(self) -> frozenset[str | None]:
        """The references (label, else kernel release) the used sessions ran."""
        return self.columns.references

    @cached_property
    def boot_sessions(self) -> tuple[BaselineSession, ...]:
        """The used sessions as the judge sees them: samples and the boot each ran in
        (recorded ``boot_id``; None: unknown), computed once."""
        return tuple(BaselineSession(s.samples, boot_of(s.environment)) for s in self.sessions)

    @property
    def side(self) -> BootSide:
        """The used sessions reduced to boots (:func:`.boot_test.reduce_stats`), computed once
        however often the entry is judged (each look, the last look, the end of the run)."""
        return self.columns.side

    @property
    def median(self) -> float:
        """The median of every used sample."""
        return self.columns.median

    def as_dict(self) -> dict[str, Any]:
        return {"test": self.test, "metric": self.metric, "unit": self.unit,
                "better": self.better, "identity": self.identity.as_dict(),
                "sessions": [s.as_dict() for s in self.stored]}


@dataclass(frozen=True)
class Baseline:
    """A board's baseline: its entries, where it was read from, and whether that was a results
    file read as a baseline of one session (``sbcbench compare``'s reference)."""

    board: str
    entries: tuple[BaselineEntry, ...]
    path: Path | None = None
    from_results: bool = False

    @cached_property
    def _slots(self) -> dict[tuple[str, str], list[BaselineEntry]]:
        """Entries with a used session by (test, metric), built once: a lookup per result,
        never a scan of every entry."""
        out: dict[tuple[str, str], list[BaselineEntry]] = {}
        for e in self.entries:
            if e.used_count:
                out.setdefault((e.test, e.metric), []).append(e)
        return out

    @cached_property
    def tail_weight(self) -> float:
        """How heavy-tailed the board's boots look, pooled over every entry's used boots
        (:func:`.boot_tails.tail_weight`: 0 normal, 1 clearly heavy), computed once."""
        return tail_weight(e.side for e in self.entries if e.used_count)

    @cached_property
    def _run_noisy(self) -> frozenset[str]:
        return frozenset(e.test for slot in self._slots.values() for e in slot
                         if runs_dominate(e.side))

    def runs_dominate(self, test: str) -> bool:
        """Some metric of ``test`` has boots whose run-to-run noise is larger than their
        boot-to-boot drift (:func:`.boot_test.runs_dominate`): its runs a boot are worth
        more than another boot (worked out once for the baseline)."""
        return test in self._run_noisy

    def slot(self, test: str, metric: str) -> list[BaselineEntry]:
        """The entries of ``test``'s ``metric`` that have a used session (an entry whose every
        session is quarantined or dropped is no baseline)."""
        return list(self._slots.get((test, metric), ()))

    def held(self, test: str, metric: str) -> list[BaselineEntry]:
        """The entries of ``test``'s ``metric`` whose every session is quarantined or dropped
        (asked only where :meth:`slot` found none: the entries are scanned once then)."""
        return list(self._held.get((test, metric), ()))

    @cached_property
    def _held(self) -> dict[tuple[str, str], list[BaselineEntry]]:
        out: dict[tuple[str, str], list[BaselineEntry]] = {}
        for e in self.entries:
            if not e.used_count:
                out.setdefault((e.test, e.metric), []).append(e)
        return out

    def entry(self, test: str, metric: str, identity: Identity) -> BaselineEntry | None:
        """The entry of this test, metric and identity with a used session, if any."""
        return next((e for e in self._slots.get((test, metric), ()) if e.identity == identity),
                    None)

    def as_dict(self) -> dict[str, Any]:
        return {"schema": BASELINE_SCHEMA, "board": self.board,
                "entries": [e.as_dict() for e in self.entries]}


@contextmanager
def no_gc_pauses() -> Iterator[None]:
    """The cyclic garbage collector paused while a baseline is read or written: those make
    millions of objects that all stay alive, and every collection walks them all (40% of the
    time of reading 75,000 sessions).  It runs again afterwards, as it was."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def baseline_text(baseline: Baseline) -> str:
    """The file's text: one line per session under its entry, so a review (``git diff``)
    shows a session as one line, written by the C JSON encoder (``indent`` would force the
    pure-Python one: 2,500 metrics x 10 sessions took seconds).  NaN and Infinity are refused
    (:class:`ValueError`)."""
    line = json.JSONEncoder(allow_nan=False).encode  # one encoder, not one per call
    with no_gc_pauses():
        return _text(baseline, line)


def _text(baseline: Baseline, line: Callable[[Any], str]) -> str:
    parts = [f'{{\n  "schema": {line(BASELINE_SCHEMA)},\n  "board": {line(baseline.board)},\n'
             '  "entries": [']
    entries = []
    for e in baseline.entries:
        head = line({"test": e.test, "metric": e.metric, "unit": e.unit, "better": e.better,
                     "identity": e.identity.as_dict()})
        sessions = ",\n".join(f"      {line(s.as_dict())}" for s in e.stored)
        entries.append(f"\n    {head[:-1]}, \"sessions\": [\n{sessions}\n    ]}}")
    parts.append(",".join(entries))
    parts.append("\n  ]\n}\n" if entries else "]\n}\n")
    return "".join(parts)


def write_baseline(path: Path, baseline: Baseline) -> Path:
    """Write ``baseline`` to ``path`` atomically (:func:`fileio.write_atomic`)."""
    try:
        text = baseline_text(baseline)
    except ValueError as exc:
        raise OutputError(path, f"not written: {exc} (a NaN or infinite number is a bug in "
                                "the measurement)") from exc
    return write_atomic(path, text.encode("utf-8"))
