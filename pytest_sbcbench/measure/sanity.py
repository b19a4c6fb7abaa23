"""Figures a tool printed are checked before they are believed.

A parsed figure becomes a sample only when it is finite, positive and inside a broad range for
its unit.  NaN, infinity, zero, a negative number or an absurd magnitude (1e300 B/s,
1e-300 op/s) is a broken tool or a broken parse: a :class:`ToolError` naming the command and the
figure, never a sample, a crash inside the statistics, or a baseline entry.

The ranges only catch nonsense; what a given machine can really do is the physics gate's job
(``judge/physics.py``).  Their edges:

- ``B/s``: 1 B/s to 10 TB/s.  The slowest real figures are a few hundred kB/s (AES on an
  FPGA-emulated RISC-V core); the fastest whole-machine DRAM bandwidth is well under 10 TB/s.
- ``op/s``: 0.001 to 10^10 per second.  One operation per 1000 s cannot be timed by a run of
  seconds; ten billion sign, verify, prime-search or bogo operations per second are not done.
- ``s``: 1 microsecond to 10^7 s (about 116 days) for one timed run (a build's wall time).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..errors import ToolError

ABSURD: dict[str, tuple[float, float]] = {
    "B/s": (1.0, 1e13),
    "op/s": (1e-3, 1e10),
    "s": (1e-6, 1e7),
}


def problem(value: float, unit: str) -> str | None:
    """Why ``value`` in ``unit`` cannot be a measurement, or ``None`` when it can."""
    if math.isnan(value):
        return f"NaN {unit} is not a number"
    if math.isinf(value):
        return f"{value} {unit} is infinite"
    if value <= 0:
        return f"{value:g} {unit} is not positive"
    low, high = ABSURD[unit]
    if not low <= value <= high:
        return f"{value:g} {unit} is outside the believable range {low:g} to {high:g} {unit}"
    return None


def checked(value: float, unit: str, argv: Sequence[str], what: str, *,
            output: str = "", returncode: int | None = 0) -> float:
    """``value`` when it can be a measurement of ``what``; else a :class:`ToolError` showing
    ``argv`` (the command that printed it), the figure and the reason.

    ``output`` is the tool's output (its tail is shown); ``returncode`` is ``None`` for
    figures measured in this process rather than printed by a command."""
    reason = problem(value, unit)
    if reason is not None:
        raise ToolError(argv, returncode, output[-2000:],
                        f"{what}: the figure {value!r} is not believable ({reason})")
    return value


def per_second(amount: float, seconds: float, unit: str, argv: Sequence[str], what: str
               ) -> float:
    """``amount / seconds`` for a figure timed in this process: a clock that did not advance
    (or went back) is a :class:`ToolError`, not a division by zero or a negative rate."""
    if not math.isfinite(seconds) or seconds <= 0:
        raise ToolError(argv, None, "", f"{what}: the clock measured {seconds!r} s for "
                                        f"{amount:g} units of work: no rate can be taken")
    return checked(amount / seconds, unit, argv, what, returncode=None)
