"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

The Workload protocol: what one benchmark declares, so the run loop can drive it.

A workload says what it is (``name``, ``markers``), whether it can run here (``available``,
asked at test set-up), how long it wants (``plan``), what makes its numbers comparable
(``identity``, tool and version included) and how to take **one** timed run
(``timed_run``: one :class:`TimedRun`, one sample of each metric it measured; a *sample* is
always one measured value of one metric).  The run loop
(:func:`pytest_sbcbench.run.loop.take_samples`), not the workload, decides how many runs to
take; it also calls ``close`` after ``prepare`` on every exit path, and hands the timed runs to
pytest-benchmark when ``uses_pytest_benchmark`` says so.  Every member it calls is in the
:class:`Workload` protocol; :class:`BaseWorkload` gives the optional ones their defaults.

This module is imported when pytest starts: it imports nothing heavy.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .errors import SbcBenchError
from .model import Better, Identity, IdentityValue, Measurement

if TYPE_CHECKING:
    from pathlib import Path

    from .platform.executor import Executor
    from .platform.host import Host
    from .platform.sysroot import Sysroot
    from .settings import Settings

GENERIC_TEST = "test_workload"
DEFAULT_MIN_EFFECT_PCT = 3.0  # delta when neither --sbc-min-effect nor the workload sets one
RUN_BUDGET_FACTOR = 2  # max_runs defaults to 2 x min_runs (PTS caps its extra runs at 2-4x)
PLAN_KEY = "sequential"  # a result's sampling (:class:`Sampling`), in its details
MAX_EFFECT_PCT = 50.0  # a delta beyond this is no gate: a file claiming one is not believed


class Unavailable(Exception):
    """Raised by :meth:`Workload.prepare` when the workload cannot run here after all (a remote
    that cannot be reached); the test is skipped with ``reason``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Plan:
    """Samples and durations a workload wants, full and with ``--sbc-quick``.

    ``run_s`` is the expected wall time of one timed run (``None``: ``seconds``); ``setup_s``
    a one-off cost (a checkout, a helper build, a warm-up build): both feed ``sbcbench list``.
    ``min_effect_pct``: this workload's delta, the smallest change that matters (``None``: 3%;
    ``--sbc-min-effect`` overrides it)."""

    runs: int = 3
    quick_runs: int = 2
    seconds: float = 3.0
    quick_seconds: float = 1.0
    run_s: float | None = None
    quick_run_s: float | None = None
    setup_s: float = 0.0
    fixed: bool = False
    min_effect_pct: float | None = None

    def runs_for(self, settings: Settings) -> int:
        """``runs`` when ``fixed`` (the test asked for a count), else ``--sbc-runs`` when
        given, else this plan's (quick) count."""
        if self.fixed:
            return self.runs
        if settings.runs is not None:
            return settings.runs
        return self.quick_runs if settings.quick else self.runs

    def sampling(self, settings: Settings, max_runs: int | None = None,
                 name: str = "a metric") -> Sampling:
        """Workload ``name``'s metric in a run: :meth:`runs_for`, the budget ``max_runs`` (else
        ``--sbc-max-runs``), the delta ``--sbc-min-effect`` (else this plan's)."""
        return sampling(self.runs_for(settings), max_runs or settings.max_runs,
                        settings.min_effect_pct or self.min_effect_pct, name)

    def seconds_for(self, quick: bool) -> float:
        return self.quick_seconds if quick else self.seconds

    def expected_s(self, quick: bool, runs: int | None = None) -> float:
        """Expected wall time of the whole workload (set-up plus every timed run)."""
        count = runs if runs is not None else (self.quick_runs if quick else self.runs)
        one = self.quick_run_s if quick else self.run_s
        if one is None:
            one = self.seconds_for(quick)
        return self.setup_s + count * one


@dataclass(frozen=True)
class Sampling:
    """A metric's runs planned, its budget and delta: carried in ``details["sequential"]``, the
    judge plans its decision from them (in the run, and for a results file judged later)."""

    min_runs: int
    max_runs: int
    min_effect_pct: float


def sampling(min_runs: int, max_runs: int | None, min_effect_pct: float | None,
             name: str = "a metric") -> Sampling:
    """Budget ``max_runs`` or RUN_BUDGET_FACTOR x ``min_runs`` (at least ``min_runs``); delta
    ``min_effect_pct`` or 3%.  One :func:`believable` refuses raises, naming ``name``."""
    budget = max_runs if max_runs is not None else RUN_BUDGET_FACTOR * min_runs
    effect = min_effect_pct if min_effect_pct is not None else DEFAULT_MIN_EFFECT_PCT
    runs = Sampling(min_runs, max(min_runs, budget), effect)
    if not believable(runs.min_runs, runs.max_runs, runs.min_effect_pct):
        raise SbcBenchError(f"{name}: a plan of {min_runs} runs at a delta of {effect:g}% "
                            f"measures nothing a judge would believe: at least 1 run and a "
                            f"delta above 0 and at most {MAX_EFFECT_PCT:g}%")
    return runs


def believable(min_runs: int, max_runs: int, min_effect_pct: float) -> bool:
    """A sampling a judge believes (a run's, a file's): 1 run or more, a delta in 0..50%."""
    return 1 <= min_runs <= max_runs and 0 < min_effect_pct <= MAX_EFFECT_PCT


@dataclass(frozen=True)
class Ceiling:
    """The most one thread of any CPU does for a class of metrics, in ``unit``.  It bounds every
    result in ``unit`` whose identity's ``algorithm`` matches ``algorithm`` (a regular
    expression, matched whole) and whose identity's ``op`` is ``op`` (``None``: it has none),
    times the identity's ``threads`` (at most the board's cores).  With ``size_power``, the
    ceiling scales by (``reference_bits`` / bits) ** ``size_power``, bits the number the
    pattern's ``bits`` group matched (an RSA key size).  ``source`` says where its figure is
    argued; the verdict names it."""

    kind: str
    per_thread: float
    unit: str
    algorithm: str
    op: str | None = None
    size_power: int = 0
    reference_bits: int = 2048
    source: str = ""

    def factor(self, algorithm: str, op: str | None) -> float | None:
        """The factor of this ceiling for an identity's algorithm and op (``None``: not its
        class)."""
        if op != self.op:
            return None
        found = re.fullmatch(self.algorithm, algorithm)
        if found is None:
            return None
        if not self.size_power:
            return 1.0
        return float((self.reference_bits / int(found["bits"])) ** self.size_power)


@dataclass(frozen=True)
class Limits:
    """What the physics gate bounds numbers by (a number beyond them is a bug report, not a
    result): ``facts``, metric -> the board-profile fact it never exceeds
    (``dram_bandwidth_bytes_per_s``), and ``ceilings`` that hold on any board.  A workload's
    :attr:`Workload.limits` hold for every result of the run (a ceiling bounds any result of
    its class, whichever workload measured it)."""

    facts: Mapping[str, str] = field(default_factory=dict)
    ceilings: tuple[Ceiling, ...] = ()

    def merged(self, other: Limits) -> Limits:
        """Both declarations (``other``'s fact for a metric both name); each ceiling once."""
        return Limits({**self.facts, **other.facts},
                      tuple(dict.fromkeys((*self.ceilings, *other.ceilings))))


NO_LIMITS = Limits()


@dataclass(frozen=True)
class TimedRun:
    """One timed run of a workload: a :class:`Measurement` holding one sample for each metric
    it measured, and what the run knew beside the numbers (kept per run in the result's
    details).  A sample is always one measured value of one metric."""

    measurements: tuple[Measurement, ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, metric: str, unit: str, better: Better, value: float,
           identity: Mapping[str, IdentityValue] | None = None, label: str = "",
           details: Mapping[str, Any] | None = None) -> TimedRun:
        """A run that measured one metric once (``identity`` adds to the workload's own)."""
        measured = Measurement(metric, unit, better, Identity.from_mapping(identity or {}),
                               (float(value),), label=label)
        return cls((measured,), details or {})


@dataclass
class Context:
    """What a workload sees of the run: settings, the sysroot, the executor, the host, a cache.

    Every command a workload runs goes through ``executor`` and every process or system CPU
    reading, mount table and affinity through ``host``: pass both to each measure function
    (they default to this machine, which would bypass a remote board or a captured tree).
    ``shared`` lives for the whole session (a tool found once); ``scratch`` for one test (what
    ``prepare`` resolved for ``timed_run``).  ``tools`` collects tool versions for the results
    environment."""

    settings: Settings
    executor: Executor
    host: Host
    shared: MutableMapping[str, Any] = field(default_factory=dict)
    tools: MutableMapping[str, str | None] = field(default_factory=dict)
    scratch: dict[str, Any] = field(default_factory=dict)
    plan: Plan = field(default_factory=Plan)

    @property
    def sysroot(self) -> Sysroot:
        return self.settings.sysroot

    @property
    def quick(self) -> bool:
        return self.settings.quick

    @property
    def seconds(self) -> int:
        """This plan's per-run duration in whole seconds (``openssl speed -seconds``)."""
        return max(1, round(self.plan.seconds_for(self.quick)))

    @property
    def cache(self) -> Path:
        return self.settings.cache_root


@runtime_checkable
class Workload(Protocol):
    """One benchmark.  ``test`` names the shipped-suite test that runs it (``test_workload``
    for third-party ones) and ``param`` its parameter id there (empty: not parametrized)."""

    @property
    def name(self) -> str:
        """Unique in the registry (``openssl-aes-128-gcm``)."""
        ...

    @property
    def markers(self) -> tuple[str, ...]:
        """The markers that select it (``-m crypto``); registered for ``--strict-markers``."""
        ...

    @property
    def description(self) -> str:
        ...

    @property
    def test(self) -> str:
        ...

    @property
    def param(self) -> str:
        ...

    def available(self, ctx: Context) -> str | None:
        """Why it cannot run here (a missing tool), or ``None``; asked at test set-up."""
        ...

    def plan(self, settings: Settings) -> Plan:
        ...

    def identity(self, ctx: Context) -> Identity:
        """What makes its numbers comparable (tool and version at least); every reading's
        identity adds to it."""
        ...

    def declared_identity(self, ctx: Context) -> Identity | None:
        """The part of :meth:`identity` known before ``prepare`` (tool and version), so gate
        mode can refuse an incomparable baseline before measuring; None: only after."""
        ...

    def prepare(self, ctx: Context) -> None:
        """Untimed set-up before the first timed run (a checkout, a helper build, a warm-up);
        may raise :class:`Unavailable`."""
        ...

    def reset(self, ctx: Context) -> None:
        """Untimed step before each timed run (a clean build tree)."""
        ...

    def timed_run(self, ctx: Context) -> TimedRun:
        """Exactly one timed run."""
        ...

    def finish(self, ctx: Context, measurements: list[Measurement]) -> list[Measurement]:
        """Details that need every run's samples (scaling efficiency); default: unchanged."""
        ...

    def close(self, ctx: Context) -> None:
        """Release what ``prepare`` made (a board directory); called by the run loop on every
        exit path after a successful ``prepare``."""
        ...

    @property
    def limits(self) -> Limits:
        """What no number of this workload (or of its class, see :class:`Limits`) can exceed:
        the physics gate judges a number beyond them ``implausible``."""
        ...

    @property
    def uses_pytest_benchmark(self) -> bool:
        """Whether the timed runs also go through pytest-benchmark's ``benchmark.pedantic``
        when that plugin is active (the compile workloads)."""
        ...


class BaseWorkload:
    """Defaults for the optional parts of :class:`Workload`: subclass and set ``name``,
    ``markers``, ``description``; implement ``identity`` and ``timed_run``."""

    name = ""
    markers: tuple[str, ...] = ()
    description = ""
    test = GENERIC_TEST
    uses_pytest_benchmark = False
    limits = NO_LIMITS

    @property
    def param(self) -> str:
        return self.name

    def available(self, ctx: Context) -> str | None:
        return None

    def plan(self, settings: Settings) -> Plan:
        return Plan()

    def declared_identity(self, ctx: Context) -> Identity | None:
        return None

    def prepare(self, ctx: Context) -> None:
        return None

    def reset(self, ctx: Context) -> None:
        return None

    def finish(self, ctx: Context, measurements: list[Measurement]) -> list[Measurement]:
        return measurements

    def close(self, ctx: Context) -> None:
        return None


def check_workloads(items: Sequence[object], source: str) -> list[Workload]:
    """Workloads from a hook, checked: a wrong object or a duplicate name is an error here,
    not a confusing failure later."""
    out: list[Workload] = []
    for item in items:
        if not isinstance(item, Workload) or not item.name:
            raise TypeError(f"{source} returned {type(item).__name__}: expected a Workload "
                            "(name, markers, description, test, param, available, plan, "
                            "identity, declared_identity, prepare, reset, timed_run, finish, "
                            "close, limits, uses_pytest_benchmark; BaseWorkload has defaults)")
        out.append(item)
    return out


def combine(workload: str, base: Identity, runs: Sequence[TimedRun]) -> list[Measurement]:
    """The timed runs of one workload as one measurement per metric (its samples, one a run):
    every measurement's identity adds to ``base``; each run's details are kept in order under
    ``runs``.  A run that measured other metrics than the first one did is an error (the
    numbers would not line up)."""
    if not runs:
        raise ValueError(f"workload {workload} took no runs")
    order: list[tuple[str, str, Identity]] = []
    first: dict[tuple[str, str, Identity], Measurement] = {}
    values: dict[tuple[str, str, Identity], list[float]] = {}
    for n, run in enumerate(runs):
        keys = []
        for part in run.measurements:
            identity = Identity.from_mapping({**base.as_dict(), **part.identity.as_dict()})
            key = (part.metric, part.label, identity)
            keys.append(key)
            if n == 0:
                order.append(key)
                first[key] = part
                values[key] = []
            elif key not in values:
                raise ValueError(f"workload {workload}: run {n + 1} measured "
                                 f"{part.display_name} under another identity than run 1")
            values[key].extend(part.samples)
        if sorted(map(repr, keys)) != sorted(map(repr, order)):
            raise ValueError(f"workload {workload}: run {n + 1} did not measure the same "
                             "metrics as run 1")
    details_of = [dict(r.details) for r in runs]
    out = []
    for key in order:
        part = first[key]
        details = {**part.details, **({"runs": details_of} if any(details_of) else {})}
        out.append(Measurement(part.metric, part.unit, part.better, key[2],
                               tuple(values[key]), label=part.label, details=details))
    return out
