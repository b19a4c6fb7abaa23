"""The idle gate: before a workload starts, wait (bounded) for background load to settle."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..model import Finding
from ..platform.host import Host
from .cputime import SystemCpu

IDLE_BUSY_CPUS = 0.25
STEP_S = 0.25


def wait_for_idle(max_wait: float, threshold: float = IDLE_BUSY_CPUS,
                  step: float = STEP_S, *, host: Host | None = None,
                  clock: Callable[[], float] = time.monotonic,
                  sleep: Callable[[float], None] = time.sleep) -> tuple[float, Finding | None]:
    """Wait until the system uses less than ``threshold`` CPUs, at most ``max_wait`` seconds.

    Returns the seconds waited and a ``background-load`` finding when the load did not settle.
    ``host``, ``clock`` and ``sleep`` default to this machine and real time; the session
    passes its own host, tests pass scripted ones."""
    meter = SystemCpu(host=host)
    start = clock()
    busy = None
    while True:
        sleep(step)
        busy = meter.busy_cpus()
        waited = clock() - start
        if busy is not None and busy < threshold:
            return waited, None
        if waited >= max_wait:
            break
    shown = f"{busy:.2f}" if busy is not None else "unknown"
    return waited, Finding("background-load",
                           f"background load {shown} CPUs before start did not settle below "
                           f"{threshold} within {max_wait:g} s")
