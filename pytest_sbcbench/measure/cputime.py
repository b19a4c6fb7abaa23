"""CPU time of the benchmark's real process tree and of the whole system, from a
:class:`~pytest_sbcbench.platform.host.Host` (this machine by default; the session passes its
own, a test or a replay passes a captured one)."""

from __future__ import annotations

from dataclasses import dataclass

from ..platform.host import CpuTimes, Host, default_host

BUSY_CPU_S = 0.01  # CPU seconds since the last read that make a process's CPU "busy"


class ProcessTree:
    """Cumulative CPU seconds of a process and all its descendants, live and reaped."""

    def __init__(self, pid: int | None = None, *, host: Host | None = None) -> None:
        self.host = host if host is not None else default_host()
        self.pid = pid if pid is not None else self.host.self_pid()
        self._last: dict[int, float] = {}
        self._before: dict[int, float] = {}

    def read(self, discover: bool = True) -> tuple[float, tuple[int, ...]]:
        """(total CPU seconds, CPUs on which processes that used CPU since last read ran);
        without ``discover``, the tree as known (see :meth:`Host.tree_cpu`)."""
        self._before = self._last
        return self._take(discover)

    def reread(self) -> tuple[float, tuple[int, ...]]:
        """The same reading again, discovering: as if :meth:`read` had discovered."""
        return self._take(True)

    def _take(self, discover: bool) -> tuple[float, tuple[int, ...]]:
        busy: set[int] = set()
        seen: dict[int, float] = {}
        for proc in self.host.tree_cpu(self.pid, discover=discover):
            if proc.seconds - self._before.get(proc.pid, 0.0) > BUSY_CPU_S \
                    and proc.cpu is not None:
                busy.add(proc.cpu)
            seen[proc.pid] = proc.seconds
        self._last = seen
        return sum(seen.values()), tuple(sorted(busy))

    @property
    def pids(self) -> frozenset[int]:
        """The tree's processes at the last read."""
        return frozenset(self._last) | {self.pid}


@dataclass(frozen=True)
class CpuShare:
    """System-wide CPU use over one interval."""

    busy: float       # CPUs busy with this machine's own work (1.0 = one CPU all interval)
    steal_pct: float  # share of all CPU time a hypervisor gave to other guests instead


def share(last: CpuTimes, now: CpuTimes) -> CpuShare | None:
    """Busy CPUs and stolen share between two readings; None when no time passed."""
    total = now.total - last.total
    if total <= 0:
        return None
    idle = now.idle - last.idle
    steal = now.steal - last.steal
    return CpuShare(busy=max(0.0, (total - idle - steal) / total * now.cpus),
                    steal_pct=max(0.0, 100.0 * steal / total))


class SystemCpu:
    """System-wide busy and stolen CPUs between successive reads."""

    def __init__(self, *, host: Host | None = None) -> None:
        self.host = host if host is not None else default_host()
        self._last = self.host.cpu_times()

    @property
    def last(self) -> CpuTimes | None:
        """The counters of the last read."""
        return self._last

    def read(self) -> CpuShare | None:
        now = self.host.cpu_times()
        last, self._last = self._last, now
        if now is None or last is None:
            return None
        return share(last, now)

    def busy_cpus(self) -> float | None:
        found = self.read()
        return found.busy if found is not None else None
