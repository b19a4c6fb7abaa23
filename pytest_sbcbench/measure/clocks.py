"""Which clock a metric is a rate of: the CPU time of the tool's own process, or wall time.

``openssl speed`` divides the work it did by the **user CPU time** its process got, unless
``-elapsed`` is given.  Read in OpenSSL's ``apps/speed.c`` (openssl/openssl a701db76, 1.1.0;
3.x keeps it): ``static int usertime = 1;``, the option ``-elapsed`` ("Measure time in real
time instead of CPU user time"; 3.x: "Use wall-clock time instead of CPU user time as
divisor") sets it to 0, ``Time_F`` returns ``app_tminterval(s, usertime)``, and
``print_result`` stores ``count / time_used * length`` after printing ``+R:count:name:time``
(``+R1``/``+R2`` for RSA sign/verify, ``+R5``/``+R6`` for ECDSA, with the preceding
``+DT``/``+DTP`` record giving the seconds asked for, which ``alarm()`` measures in wall
time).  ``app_tminterval`` (``apps/apps.c``, Unix branch) takes ``times()``'s
``tms_utime`` when ``usertime`` is set: clock ticks (1/100 s), so a run's divisor is known to
one tick.  Other work on the machine time-shares the CPU with the tool; it makes the tool's
wall-clock rate fall, not its rate per CPU second, so on a busy machine such a metric is
judged (the load recorded beside it) unless its own numbers say they cannot be trusted
(:mod:`..judge.disturbance`).

A build's seconds, STREAM's and storage's bytes per second, ``bssl speed`` and ``openssl speed
-elapsed`` are wall time: other work moves them, so they stay ``invalid`` when disturbed.  A
metric's clock is part of what it is: the identity says so where the tool's default does not
(``clock``: ``wall`` for ``openssl speed -elapsed``/``-multi``, ``thread-cpu`` for the
in-process workload), so one baseline entry never mixes the two.

Each run's ``cpu_s`` and ``wall_s`` are kept in the result's ``details["runs"]``: what the
tool's own process used, beside the wall time it took."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..model import Identity

USER_CPU = "user-cpu"  # the tool's own process's user CPU time (openssl speed's divisor)
THREAD_CPU = "thread-cpu"  # this Python thread's CPU time (the in-process workload)
WALL = "wall"
CPU_CLOCKS = (USER_CPU, THREAD_CPU)
CLOCK_KEY = "clock"  # the identity key naming a metric's clock where its tool's default does not
TICK_S = {USER_CPU: 0.01, THREAD_CPU: 1e-6}  # how finely each clock's CPU time is known


def clock_of(identity: Identity) -> str:
    """The clock a metric's numbers are a rate of: the identity's ``clock``, else the tool's
    default (``openssl``: user CPU time; any other tool: wall time)."""
    values = identity.as_dict()
    declared = values.get(CLOCK_KEY)
    if isinstance(declared, str) and declared:
        return declared
    return USER_CPU if values.get("tool") == "openssl" else WALL


def is_cpu_clock(identity: Identity) -> bool:
    return clock_of(identity) in CPU_CLOCKS


@dataclass(frozen=True)
class RunClock:
    """One run's CPU seconds (the tool's own process) and wall seconds."""

    cpu_s: float
    wall_s: float

    @property
    def share(self) -> float:
        """The share of the wall clock the tool's process had the CPU."""
        return self.cpu_s / self.wall_s if self.wall_s > 0 else 0.0

    def as_dict(self) -> dict[str, float]:
        return {"cpu_s": self.cpu_s, "wall_s": self.wall_s}


def openssl_phases(text: str) -> list[RunClock]:
    """The timed phases of an ``openssl speed -mr`` log (its standard error), in order: each
    ``+R``/``+R<n>`` record's CPU seconds (its last field) with the seconds the ``+DT``/
    ``+DTP`` record before it asked for (its seconds field); a log without them (an older
    format, a stand-in) gives none."""
    found: list[RunClock] = []
    asked: float | None = None
    for line in text.splitlines():
        fields = line.strip().split(":")
        tag = fields[0]
        try:
            if tag == "+DT" and len(fields) >= 4:
                asked = float(fields[2])
            elif tag == "+DTP" and len(fields) >= 5:
                asked = float(fields[-1])
            elif (tag == "+R" or (tag.startswith("+R") and tag[2:].isdigit())) \
                    and len(fields) >= 4 and asked is not None:
                found.append(RunClock(float(fields[-1]), asked))
        except ValueError:
            continue
    return found


def run_clocks(details: Mapping[str, Any], samples: int) -> list[RunClock] | None:
    """Each run's :class:`RunClock` from a result's ``details["runs"]`` (one entry per
    sample), or None when not every run recorded both (an older file, a tool that does not
    say)."""
    runs = details.get("runs")
    if not isinstance(runs, Sequence) or isinstance(runs, str) or len(runs) != samples:
        return None
    out = []
    for run in runs:
        cpu = _positive(run.get("cpu_s")) if isinstance(run, Mapping) else None
        wall = _positive(run.get("wall_s")) if isinstance(run, Mapping) else None
        if cpu is None or wall is None:
            return None
        out.append(RunClock(cpu, wall))
    return out


def _positive(value: object) -> float | None:
    """A finite positive number as a float, else None."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    number = float(value)
    return number if 0 < number < float("inf") else None
