"""A baseline entry's sessions as columns: what judging reads, never the sessions themselves.

Per stored session (in stored order): the save it came from (:class:`SaveContext`: created,
environment, boot, reference, shared by every session of that save), its status, its log mean,
its runs' sum of squares and run count (:func:`.boot_test.session_stats`), and its samples (an
unordered bag, for the baseline median).  An entry read from one file computes them from its
sessions; an entry of a directory of saves (:mod:`.baseline_saves`) gets them from the saves'
summaries, so 1,000 boots of 2,500 metrics are judged without building 2.5 million sessions.
:class:`LazySessions` stands for such an entry's sessions until something really reads one
(``sbcbench baseline list``, a drop), and then parses the saves once for every entry."""

from __future__ import annotations

import statistics
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import compress
from typing import Any, NamedTuple, Protocol, TypeVar, overload

from .boot_test import BootSide, reduce_stats, session_stats


class Stored(Protocol):
    """What the columns take of a stored session (:class:`.baseline_model.StoredSession`)."""

    @property
    def created(self) -> str: ...
    @property
    def samples(self) -> tuple[float, ...]: ...
    @property
    def environment(self) -> Mapping[str, Any]: ...
    @property
    def status(self) -> str: ...


S = TypeVar("S")
STATUS_CODES = {"used": 0, "quarantined": 1, "dropped": 2}
USED_SELECTOR = bytes([1] + [0] * 255)  # bytes.translate: 1 where a status code is "used"


class SaveContext(NamedTuple):
    """What every session of one save shares: when, where (the environment), its boot and the
    reference it ran (``label``, else ``kernel_release``)."""

    created: str
    environment: Mapping[str, Any]
    boot_id: str | None
    reference: str | None


REFERENCE_KEYS = ("label", "kernel_release")  # what a session is a boot of


def reference_of(environment: Mapping[str, Any]) -> str | None:
    """The reference a session ran (its ``label``, else its ``kernel_release``), if known."""
    for key in REFERENCE_KEYS:
        value = environment.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def boot_of(environment: Mapping[str, Any]) -> str | None:
    """The boot a session ran in (its environment's ``boot_id``), if recorded."""
    value = environment.get("boot_id")
    return value if isinstance(value, str) and value else None


def context_of(created: str, environment: Mapping[str, Any]) -> SaveContext:
    return SaveContext(created, environment, boot_of(environment), reference_of(environment))


class ContextFacts:
    """What many entries' columns share when their sessions are the same saves (a run of
    saves of the same tests): the contexts' references and (created, boot) pairs, worked out
    once for all of them instead of once per metric."""

    def __init__(self, contexts: Sequence[SaveContext]) -> None:
        self.contexts = contexts

    @cached_property
    def references(self) -> frozenset[str | None]:
        return frozenset(c.reference for c in self.contexts)

    @cached_property
    def saves(self) -> frozenset[tuple[str, str | None]]:
        return frozenset((c.created, c.boot_id) for c in self.contexts)


@dataclass(frozen=True)
class EntryColumns:
    """Per stored session of one entry, in stored order (see the module's docstring).
    ``samples``: every session's samples in one bag (order not kept); ``keys``: the boot key
    of each session when every session is used (else None: worked out from the contexts)."""

    contexts: Sequence[SaveContext]
    status: bytes
    means: Sequence[float]
    squares: Sequence[float]
    runs: Sequence[int]
    samples: Sequence[float]
    keys: Sequence[object] | None = None
    facts: ContextFacts | None = None  # of ``contexts`` when they are shared

    @classmethod
    def of(cls, stored: Sequence[Stored]) -> EntryColumns:
        """The columns of sessions read whole (one file)."""
        stats = [session_stats(s.samples) for s in stored]
        return cls([context_of(s.created, s.environment) for s in stored],
                   bytes(STATUS_CODES[s.status] for s in stored), [m for m, _, _ in stats],
                   [q for _, q, _ in stats], [n for _, _, n in stats],
                   [v for s in stored for v in s.samples])

    def plus(self, context: SaveContext, status: int, mean: float, square: float, runs: int,
             samples: Sequence[float]) -> EntryColumns:
        """These columns with one more session stored last (a save just written)."""
        keys = None
        if self.keys is not None and status == 0 and self._used is None:
            keys = [*self.keys, context.boot_id if context.boot_id is not None
                    else ("session", len(self.keys))]
        return EntryColumns([*self.contexts, context], self.status + bytes([status]),
                            _plus(self.means, mean), _plus(self.squares, square),
                            _plus(self.runs, runs), _plus(self.samples, *samples), keys)

    @cached_property
    def _used(self) -> bytes | None:
        """Selectors of the used sessions (None: every session is used)."""
        if self.status.count(0) == len(self.status):
            return None
        return self.status.translate(USED_SELECTOR)

    def _pick(self, column: Sequence[Any]) -> Sequence[Any]:
        used = self._used
        return column if used is None else list(compress(column, used))

    @property
    def used_count(self) -> int:
        used = self._used
        return len(self.status) if used is None else used.count(1)

    @cached_property
    def used_contexts(self) -> Sequence[SaveContext]:
        return self._pick(self.contexts)

    @cached_property
    def side(self) -> BootSide:
        """The used sessions reduced to boots (:func:`.boot_test.reduce_stats`)."""
        if self.keys is not None and self._used is None:
            keys: Sequence[object] = self.keys
        else:
            keys = [c.boot_id if c.boot_id is not None else ("session", i)
                    for i, c in enumerate(self.used_contexts)]
        return reduce_stats(keys, self._pick(self.means), self._pick(self.squares),
                            self._pick(self.runs))

    def means_with(self, samples: Sequence[float], boot_id: str) -> tuple[float, ...]:
        """The boot means of :attr:`side` with one more used session (``samples``) stored last
        in ``boot_id``, a boot the side has: that boot's mean taken again with it, the others
        as they are (what :func:`.boot_test.reduce_stats` of them all gives)."""
        side = self.side
        mine = [m for c, m in zip(self.used_contexts, self._pick(self.means), strict=True)
                if c.boot_id == boot_id]
        mine.append(session_stats(samples)[0])
        at = side.keys.index(boot_id)
        return (*side.means[:at], sum(mine) / len(mine), *side.means[at + 1:])

    @cached_property
    def median(self) -> float:
        """The median of every used sample."""
        if self._used is None:
            return float(statistics.median(self.samples))
        runs, at = self.runs, 0
        picked: list[float] = []
        for i, n in enumerate(runs):  # the bag is in session order where some are held
            if self.status[i] == 0:
                picked += self.samples[at:at + n]
            at += n
        return float(statistics.median(picked))

    @property
    def used_samples(self) -> int:
        return sum(self._pick(self.runs))

    @cached_property
    def _facts(self) -> ContextFacts:
        shared = self.facts
        return shared if shared is not None and self._used is None \
            else ContextFacts(self.used_contexts)

    @property
    def references(self) -> frozenset[str | None]:
        """The references the used sessions ran."""
        return self._facts.references

    @property
    def saves(self) -> frozenset[tuple[str, str | None]]:
        """The (created, boot id) of the saves of the used sessions."""
        return self._facts.saves


def _plus(column: Sequence[Any], *values: Any) -> Sequence[Any]:
    """``column`` with ``values`` after it (an array stays one)."""
    if isinstance(column, array):
        return column + array(column.typecode, values)
    return [*column, *values]


class LazySessions(Sequence[S]):
    """An entry's stored sessions, read only when one is asked for (``load``: all of them, in
    order; the saves are parsed once for every entry of the baseline)."""

    def __init__(self, count: int, load: Callable[[], Sequence[S]]) -> None:
        self._count = count
        self._load = load
        self._sessions: tuple[S, ...] | None = None

    def _all(self) -> tuple[S, ...]:
        if self._sessions is None:
            self._sessions = tuple(self._load())
            if len(self._sessions) != self._count:
                raise ValueError(f"the saves hold {len(self._sessions)} sessions of this "
                                 f"entry, their summary {self._count}")
        return self._sessions

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> S: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[S]: ...

    def __getitem__(self, index: int | slice) -> S | Sequence[S]:
        return self._all()[index]

    def __iter__(self) -> Iterator[S]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (LazySessions, tuple)):
            return self._all() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return f"LazySessions({self._count} sessions)"
