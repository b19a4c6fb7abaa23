"""Frozen value types shared by every layer.  This module imports nothing of the package."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Better = Literal["higher", "lower"]
Status = Literal[
    "pass", "regression", "improvement", "no-baseline", "incomparable", "implausible", "invalid"
]
IdentityValue = str | int | float | bool | None


DISPLAY_UNITS = {"B/s": ("MB/s", 1e-6), "s": ("s", 1.0), "op/s": ("op/s", 1.0)}


def display(value: float, unit: str) -> tuple[str, str]:
    """A value and unit as people read them: throughput in MB/s (10^6 bytes)."""
    shown, factor = DISPLAY_UNITS.get(unit, (unit, 1.0))
    scaled = value * factor
    text = f"{scaled:,.1f}" if abs(scaled) >= 100 else f"{scaled:,.2f}"
    return text, shown


@dataclass(frozen=True)
class Identity:
    """Everything that makes two numbers the same measurement.

    Two results are compared only when their identities are equal.  Stored as a sorted tuple of
    pairs so it is hashable and order-independent.
    """

    items: tuple[tuple[str, IdentityValue], ...]

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


@dataclass(frozen=True)
class Verdict:
    status: Status
    detail: str

    def as_dict(self) -> dict[str, str]:
        return {"status": self.status, "detail": self.detail}


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
