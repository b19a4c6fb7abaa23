"""The :class:`~..host.Host` of a machine without ``/proc``: psutil for every reading.

FreeBSD has no kernel stat file or per-process stat files (its procfs is optional and differs), so
system CPU time, the benchmark's process tree, the process list, mounts and affinity come from
psutil, which reads them with FreeBSD's own calls (``kern.cp_time``, ``kinfo_proc``,
``getfsstat``, ``cpuset``).  psutil gives seconds where Linux's files give ticks: only
differences are used, and the process list's ticks are the seconds times
:data:`TICKS_PER_S`.  Nothing here is FreeBSD-only, so the same class runs (and is tested) on
Linux."""

from __future__ import annotations

import os
import resource

import psutil

from ..hostdata import ChildTimes, CpuTimes, Mount, ProcessCpu, ProcessUse

TICKS_PER_S = 100


def _seconds(proc: psutil.Process) -> float:
    times = proc.cpu_times()
    return times.user + times.system + times.children_user + times.children_system


def _cpu(proc: psutil.Process) -> int | None:
    try:
        return proc.cpu_num()
    except (AttributeError, psutil.Error):
        return None


class PsutilHost:
    """Every reading through psutil (see the module's note)."""

    def cpu_times(self) -> CpuTimes | None:
        times = psutil.cpu_times()
        fields = times._asdict()
        total = sum(value for name, value in fields.items() if name not in ("guest",
                                                                            "guest_nice"))
        idle = fields.get("idle", 0.0) + fields.get("iowait", 0.0)
        interrupts = fields.get("irq", 0.0) + fields.get("softirq", 0.0)
        return CpuTimes(total=total, idle=idle, steal=fields.get("steal", 0.0),
                        cpus=psutil.cpu_count() or 1, interrupts=interrupts)

    def mounts(self) -> tuple[Mount, ...]:
        return tuple(Mount(p.device, p.mountpoint, p.fstype)
                     for p in psutil.disk_partitions(all=True))

    def affinity(self) -> tuple[int, ...]:
        try:
            return tuple(sorted(psutil.Process().cpu_affinity() or ()))
        except (AttributeError, psutil.Error):
            return tuple(range(psutil.cpu_count() or 1))

    def self_pid(self) -> int:
        return os.getpid()

    def _tree(self, pid: int) -> list[psutil.Process]:
        try:
            root = psutil.Process(pid)
        except psutil.Error:
            return []
        try:
            return [root, *root.children(recursive=True)]
        except psutil.Error:
            return [root]

    def tree_cpu(self, pid: int, discover: bool = True) -> tuple[ProcessCpu, ...]:
        """``pid`` and its live descendants (psutil lists them at every call, so ``discover``
        changes nothing here)."""
        out = []
        for proc in self._tree(pid):
            try:
                out.append(ProcessCpu(proc.pid, _seconds(proc), _cpu(proc)))
            except psutil.Error:
                continue
        return tuple(out)

    def processes(self) -> tuple[ProcessUse, ...]:
        """Every process with its CPU ticks; a kernel one is a child of the kernel (parent 0:
        FreeBSD's ``[kernel]``, ``[idle]``, ``[intr]`` ..., and init)."""
        out = []
        for proc in psutil.process_iter():
            try:
                times = proc.cpu_times()
                ticks = round((times.user + times.system) * TICKS_PER_S)
                out.append(ProcessUse(proc.pid, proc.name(), ticks, proc.ppid() == 0))
            except psutil.Error:
                continue
        return tuple(out)

    def descendants_rss(self, pid: int) -> int | None:
        tree = self._tree(pid)
        if not tree:
            return None
        total = 0
        for proc in tree[1:]:
            try:
                total += proc.memory_info().rss
            except psutil.Error:
                continue
        return total

    def children_times(self) -> ChildTimes | None:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return ChildTimes(usage.ru_utime, usage.ru_stime, usage.ru_maxrss * 1024)


PSUTIL_HOST = PsutilHost()


def psutil_memory() -> tuple[int | None, int | None]:
    """Memory and swap in use on this machine (on FreeBSD psutil reads the vm.stats counters)."""
    vm = psutil.virtual_memory()
    return vm.total - vm.available, psutil.swap_memory().used
