"""CPU time of the benchmark's real process tree and of the whole system (psutil)."""

from __future__ import annotations

import os
from dataclasses import dataclass

import psutil


def tree(root: psutil.Process) -> list[psutil.Process]:
    """``root`` and all its live descendants (just ``root`` when they cannot be listed)."""
    try:
        return [root, *root.children(recursive=True)]
    except psutil.Error:
        return [root]


class ProcessTree:
    """Cumulative CPU seconds of a process and all its descendants, live and reaped."""

    def __init__(self, pid: int | None = None) -> None:
        self.root = psutil.Process(pid if pid is not None else os.getpid())
        self._last: dict[int, float] = {}

    def read(self) -> tuple[float, tuple[int, ...]]:
        """(total CPU seconds, CPUs on which processes that used CPU since last read ran)."""
        total = 0.0
        busy: set[int] = set()
        seen: dict[int, float] = {}
        for proc in tree(self.root):
            try:
                times = proc.cpu_times()
                used = times.user + times.system + times.children_user + times.children_system
                if used - self._last.get(proc.pid, 0.0) > 0.01:
                    busy.add(proc.cpu_num())
            except (psutil.Error, AttributeError):
                continue
            seen[proc.pid] = used
            total += used
        self._last = seen
        return total, tuple(sorted(busy))


@dataclass(frozen=True)
class CpuShare:
    """System-wide CPU use over one interval."""

    busy: float       # CPUs busy with this machine's own work (1.0 = one CPU all interval)
    steal_pct: float  # share of all CPU time a hypervisor gave to other guests instead


class SystemCpu:
    """System-wide busy and stolen CPUs between successive reads."""

    def __init__(self) -> None:
        self._last = psutil.cpu_times()

    def read(self) -> CpuShare | None:
        now = psutil.cpu_times()
        idle = _delta(now, self._last, "idle") + _delta(now, self._last, "iowait")
        steal = _delta(now, self._last, "steal")
        total = _total(now) - _total(self._last)
        self._last = now
        if total <= 0:
            return None
        cpus = psutil.cpu_count() or 1
        return CpuShare(busy=max(0.0, (total - idle - steal) / total * cpus),
                        steal_pct=max(0.0, 100.0 * steal / total))

    def busy_cpus(self) -> float | None:
        share = self.read()
        return share.busy if share is not None else None


def _delta(now: object, last: object, name: str) -> float:
    return float(getattr(now, name, 0.0) - getattr(last, name, 0.0))


def _total(times: object) -> float:
    """All CPU time; guest time is already counted in user time on Linux."""
    fields = times._asdict()  # type: ignore[attr-defined]
    return float(sum(v for k, v in fields.items() if k not in ("guest", "guest_nice")))
