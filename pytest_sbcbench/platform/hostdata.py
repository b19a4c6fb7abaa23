"""What a :class:`~.host.Host` reports: system CPU time, a process tree's CPU, every process's
use, mounts, reaped children's resource use (plain values; :mod:`.host` reads them on Linux,
:mod:`.freebsd.host` through psutil)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CpuTimes:
    """System-wide CPU time since boot, in clock ticks (only differences matter)."""

    total: float  # every state except guest time, which user time already counts
    idle: float   # idle and iowait
    steal: float  # given by a hypervisor to other guests
    cpus: int     # CPUs counted (the per-CPU lines)
    interrupts: float = 0.0  # hardirq and softirq: the kernel's, charged to no process
    forks: int = 0  # processes created since boot (the ``processes`` line)


@dataclass(frozen=True)
class ProcessCpu:
    """One process of a tree: CPU seconds used (its own and its reaped children's), and the
    CPU it last ran on (None when unknown)."""

    pid: int
    seconds: float
    cpu: int | None


@dataclass(frozen=True)
class ProcessUse:
    """One process of the machine: its name, CPU ticks so far (its own and its reaped
    children's) and whether it is a kernel thread (no user space: a child of kthreadd)."""

    pid: int
    name: str
    ticks: int
    kernel: bool


@dataclass(frozen=True)
class Mount:
    device: str
    mountpoint: str
    fstype: str


@dataclass(frozen=True)
class ChildTimes:
    """``getrusage(RUSAGE_CHILDREN)``: every reaped descendant of this process."""

    user_s: float
    sys_s: float
    max_rss_bytes: int
