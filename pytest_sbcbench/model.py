"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

Frozen value types shared by every layer.  This module imports nothing of the package.

Measurements, summaries, verdicts and results (what the results JSON holds); the sampler's
telemetry (a :class:`Reading` every interval, gathered in a :class:`Trace`, with the
:class:`Sensor` each temperature came from); and the validity :class:`Finding` the samplers,
the idle gate and the system checks produce and the judge and reports read."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

Better = Literal["higher", "lower"]
Status = Literal[
    "pass", "regression", "improvement", "inconclusive", "no-baseline", "incomparable",
    "implausible", "invalid"
]
IdentityValue = str | int | float | bool | None


DISPLAY_UNITS = {"B/s": ("MB/s", 1e-6), "s": ("s", 1.0), "op/s": ("op/s", 1.0)}


def display(value: float, unit: str) -> tuple[str, str]:
    """A value and unit as people read them: throughput in MB/s (10^6 bytes)."""
    shown, factor = DISPLAY_UNITS.get(unit, (unit, 1.0))
    scaled = value * factor
    text = f"{scaled:,.1f}" if abs(scaled) >= 100 else f"{scaled:,.2f}"
    return text, shown


def json_scalar(value: object) -> bool:
    """A value JSON stores and reads back as itself."""
    if value is None or isinstance(value, (str, bool, int)):
        return True
    return isinstance(value, float) and math.isfinite(value)


@dataclass(frozen=True)
class Identity:
    """Everything that makes two numbers the same measurement.

    Two results are compared only when their identities are equal.  Stored as a sorted tuple of
    pairs so it is hashable and order-independent.
    """

    items: tuple[tuple[str, IdentityValue], ...]

    def __post_init__(self) -> None:
        for key, value in self.items:
            if not isinstance(key, str) or not json_scalar(value):
                raise TypeError(
                    f"identity {key!r}: {value!r} is a {type(value).__name__}; an identity holds "
                    "JSON scalars only (str, int, finite float, bool, None): anything else would "
                    "be stored as something that never compares equal to it again")

    @classmethod
    def of(cls, **values: IdentityValue) -> Identity:
        return cls(tuple(sorted(values.items())))

    @classmethod
    def from_mapping(cls, values: Mapping[str, IdentityValue]) -> Identity:
        return cls(tuple(sorted(values.items())))

    def as_dict(self) -> dict[str, IdentityValue]:
        return dict(self.items)

    def differing_keys(self, other: Identity) -> list[str]:
        mine, theirs = self.as_dict(), other.as_dict()
        return sorted(k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))


@dataclass(frozen=True)
class Summary:
    n: int
    mean: float
    median: float
    stdev: float
    cv: float

    def as_dict(self) -> dict[str, float | int]:
        return {"n": self.n, "mean": self.mean, "median": self.median, "stdev": self.stdev,
                "cv": self.cv}


@dataclass(frozen=True, kw_only=True)
class Evidence:
    """The numbers behind a baseline verdict (percentages as ratios, the metric's own sign):
    the change and its confidence interval (``None``: unbounded), the tolerance and the drop
    this run could detect at 80% power (both the bad way), delta (``min_effect_pct``), samples
    used, baseline samples and boots, what deciding would take when it was not decided, and
    the baseline's median (in the metric's unit; ``None`` when the judge did not record it).
    Every field is a keyword: eighteen numbers in a row are read wrong."""

    change_pct: float
    ci_pct: tuple[float | None, float | None]
    confidence_pct: float
    tolerance_pct: float | None
    detectable_pct: float | None
    min_effect_pct: float
    samples: int
    baseline_samples: int
    baseline_boots: int
    runs_needed: int | None = None
    boots_needed: int | None = None
    candidate_boots: int = 1
    candidate_boots_needed: int | None = None
    catch95_pct: float | None = None  # the drop caught with 95% probability at this noise
    p_value: float | None = None  # one-sided, the bad way
    df: float | None = None
    pending: bool = False  # a candidate boot before the last planned one: nothing decided
    baseline_median: float | None = None

    def as_dict(self) -> dict[str, Any]:
        more = {} if self.baseline_median is None else {"baseline_median": self.baseline_median}
        return {"change_pct": self.change_pct, "ci_pct": list(self.ci_pct),
                "confidence_pct": self.confidence_pct, "tolerance_pct": self.tolerance_pct,
                "detectable_pct": self.detectable_pct, "min_effect_pct": self.min_effect_pct,
                "samples": self.samples, "baseline_samples": self.baseline_samples,
                "baseline_boots": self.baseline_boots, "runs_needed": self.runs_needed,
                "boots_needed": self.boots_needed, "candidate_boots": self.candidate_boots,
                "candidate_boots_needed": self.candidate_boots_needed,
                "catch95_pct": self.catch95_pct, "p_value": self.p_value, "df": self.df,
                "pending": self.pending, **more}


@dataclass(frozen=True)
class Verdict:
    """A status and the line that explains it; ``evidence`` when judged against a baseline."""

    status: Status
    detail: str
    evidence: Evidence | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "detail": self.detail}
        if self.evidence is not None:
            out.update(self.evidence.as_dict())
        return out


@dataclass(frozen=True)
class Measurement:
    """Samples of one metric under one identity, as a workload produced them."""

    metric: str
    unit: str
    better: Better
    identity: Identity
    samples: tuple[float, ...]
    label: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def display_name(self) -> str:
        return self.label or self.metric


@dataclass(frozen=True)
class Measured:
    """A measurement of one test and what the run saw beside it (telemetry, with the workload's
    details merged in): what the judge reads.  Its verdict and summary make a :class:`Result`,
    built once and complete, never with a verdict to fill in later."""

    test: str
    measurement: Measurement
    telemetry: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Result:
    """A judged measurement of one test: what goes into the results JSON."""

    test: str
    measurement: Measurement
    summary: Summary
    verdict: Verdict
    telemetry: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        m = self.measurement
        return {
            "test": self.test,
            "metric": m.metric,
            "label": m.label,
            "unit": m.unit,
            "better": m.better,
            "identity": m.identity.as_dict(),
            "samples": list(m.samples),
            "summary": self.summary.as_dict(),
            "details": dict(m.details),
            "telemetry": dict(self.telemetry),
            "verdict": self.verdict.as_dict(),
        }


Judgeable: TypeAlias = "Measured | Result"  # what the judge reads (a result read back: re-judged)


@dataclass(frozen=True)
class Finding:
    """One reason a number may not be trustworthy (``kind`` such as ``thermal-trip``)."""

    kind: str
    detail: str

    def as_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "detail": self.detail}


@dataclass(frozen=True)
class ClockReading:
    """One CPU's delivered clock, timed by the real-clock check, beside what cpufreq claims."""

    cpu: int
    measured_mhz: float
    cpufreq_mhz: float | None

    @property
    def mismatch_pct(self) -> float | None:
        if not self.cpufreq_mhz:
            return None
        return 100.0 * (self.measured_mhz - self.cpufreq_mhz) / self.cpufreq_mhz


@dataclass(frozen=True)
class Sensor:
    """One temperature source: a thermal zone or an hwmon input (millidegree file)."""

    name: str
    path: str
    trips_c: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Reading:
    """One telemetry reading of a sampler, ``t`` seconds after it started: each CPU's clock,
    each sensor's temperature, memory and swap in use, CPU use of the benchmark's process tree
    and of the whole system."""

    t: float
    mhz: tuple[float | None, ...]
    temps_c: tuple[float | None, ...]
    mem_used: int | None
    swap_used: int | None
    tree_cpu_s: float
    system_busy_cpus: float | None
    busy_cpus: tuple[int, ...]
    steal_pct: float | None = None

    @property
    def temp_c(self) -> float | None:
        known = [t for t in self.temps_c if t is not None]
        return max(known) if known else None


@dataclass(frozen=True)
class CpuUser:
    """A process that used CPU time beside the benchmark during an attribution window: its
    CPUs on average (1.0 = one CPU all the window) and whether it is a kernel thread."""

    pid: int
    name: str
    cpus: float
    kernel: bool

    def shown(self) -> str:
        return f"{self.name} (pid {self.pid}) {self.cpus:.2f} CPUs"


@dataclass(frozen=True)
class Attribution:
    """Who used the CPU time the benchmark did not, between two scans of every process
    ``start`` and ``end`` seconds after its sampler started: the background (system busy
    minus the benchmark's process tree), hardirq and softirq time (the kernel's), the share
    stolen by the hypervisor and each other process above a floor, most CPU first."""

    start: float
    end: float
    background_cpus: float
    interrupts_cpus: float
    steal_pct: float
    users: tuple[CpuUser, ...] = ()

    @property
    def kernel_cpus(self) -> float:
        return self.interrupts_cpus + sum(u.cpus for u in self.users if u.kernel)

    @property
    def other_cpus(self) -> float:
        """CPUs used by user processes outside the benchmark's tree."""
        return sum(u.cpus for u in self.users if not u.kernel)


@dataclass(frozen=True)
class Trace:
    """Every reading of one sampler run, with what was read (CPUs, their max clock and governor,
    the sensors), the probes that could not run, cpufreq residency over the run and the
    sampler's own CPU time."""

    interval: float
    cpus: tuple[int, ...]
    max_mhz: tuple[float | None, ...]
    governors: tuple[str | None, ...]
    sensors: tuple[Sensor, ...]
    readings: tuple[Reading, ...]
    unavailable: dict[str, str] = field(default_factory=dict)
    time_in_state: tuple[dict[int, int], ...] = ()
    load_source: str = "tree"
    sampler_cpu_s: float | None = None  # the sampler's own CPU time (thread, or board-side sh)
    attributions: tuple[Attribution, ...] = ()  # who used the CPU the benchmark did not
