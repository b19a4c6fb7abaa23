"""The idle gate: before a workload starts (and before one is re-measured), wait (bounded) for
background load and steal to settle; when they do not, name who kept the machine busy."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..model import Finding
from ..platform.host import Host, default_host
from .background import OTHER_CPUS, STEAL_PCT, Scan, Window, attribute, scan
from .cputime import SystemCpu

IDLE_BUSY_CPUS = OTHER_CPUS
STEP_S = 0.25


def wait_for_idle(max_wait: float, threshold: float = IDLE_BUSY_CPUS,
                  step: float = STEP_S, *, host: Host | None = None,
                  clock: Callable[[], float] = time.monotonic,
                  sleep: Callable[[float], None] = time.sleep) -> tuple[float, Finding | None]:
    """Wait until the system uses less than ``threshold`` CPUs and the hypervisor steals at
    most :data:`~.background.STEAL_PCT` of its time, at most ``max_wait`` seconds.

    Returns the seconds waited and a ``background-load`` finding when the load did not settle
    (naming the processes, kernel threads or steal: every process is scanned at the first
    loaded look and at the end).  ``host``, ``clock`` and ``sleep`` default to this machine
    and real time; the session passes its own host, tests pass scripted ones."""
    host = host if host is not None else default_host()
    meter = SystemCpu(host=host)
    tree = frozenset(p.pid for p in host.tree_cpu(host.self_pid()))
    start = clock()
    first: Scan | None = None
    busy = steal = None
    while True:
        sleep(step)
        found = meter.read()
        busy, steal = (found.busy, found.steal_pct) if found is not None else (None, None)
        waited = clock() - start
        if busy is not None and busy < threshold and (steal or 0.0) <= STEAL_PCT:
            return waited, None
        if waited >= max_wait:
            break
        if first is None:
            first = scan(host, waited, tree)
    shown = f"{busy:.2f}" if busy is not None else "unknown"
    who = _who(first, scan(host, waited, tree), busy, steal)
    return waited, Finding("background-load",
                           f"background load {shown} CPUs before start did not settle below "
                           f"{threshold} within {max_wait:g} s{who}")


def _who(first: Scan | None, last: Scan, busy: float | None, steal: float | None) -> str:
    """``: <who>`` over the wait's last stretch, or nothing when no scan pair was taken."""
    found = attribute(first, last) if first is not None else None
    if found is None:
        return ""
    seen = Window(first.t if first else 0.0, last.t, busy, steal, found)
    parts = [p for p in (seen.outside(), seen.kernel()) if p]
    return f" ({'; '.join(parts)})" if parts else ""
