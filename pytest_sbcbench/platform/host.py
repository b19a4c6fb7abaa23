"""Readings about the machine the workload runs on that are not plain board files: system CPU
time, the benchmark's process tree, mounts, CPU affinity, reaped children's resource use.

:class:`Host` is the seam.  :class:`SysrootHost` reads everything through a :class:`Sysroot`
(``stat``, ``self/mounts``, ``self/status`` and per-process ``stat`` files), so a captured tree
replays hermetically.  :class:`LocalHost` is this machine: the same Sysroot readings for
system-wide figures, psutil for the live process tree, the kernel's affinity call, and
``getrusage``.  FreeBSD has none of those files: there :func:`default_host` is the psutil host
(:class:`.freebsd.host.PsutilHost`).  Measure code takes a ``host`` argument; psutil is imported
only here and in :mod:`.freebsd`."""

from __future__ import annotations

import os
import resource
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..errors import ParseError, SysrootError
from .cpufreq import parse_cpu_list
from .hostdata import ChildTimes as ChildTimes  # re-exported: the Host's value types
from .hostdata import CpuTimes as CpuTimes
from .hostdata import Mount as Mount
from .hostdata import ProcessCpu as ProcessCpu
from .hostdata import ProcessUse as ProcessUse
from .parse import parse_meminfo
from .proctree import PidStat, TreeTracker, parse_pid_stat
from .sysroot import PROC, Sysroot

if TYPE_CHECKING:
    import psutil

USER_HZ = 100  # clock ticks per second in proc files: a fixed kernel ABI value (sysconf CLK_TCK)


@runtime_checkable
class Host(Protocol):
    """Where process and system-wide CPU readings come from."""

    def cpu_times(self) -> CpuTimes | None:
        """System-wide counters now; None when the machine does not expose them."""
        ...

    def mounts(self) -> tuple[Mount, ...]:
        ...

    def affinity(self) -> tuple[int, ...]:
        """The CPUs this process may run on."""
        ...

    def self_pid(self) -> int:
        ...

    def tree_cpu(self, pid: int, discover: bool = True) -> tuple[ProcessCpu, ...]:
        """``pid`` and its live descendants; empty when ``pid`` is gone.  Without
        ``discover``, only the processes already known to be in the tree and those the
        executor started since (a cheap read whatever the machine's process count)."""
        ...

    def processes(self) -> tuple[ProcessUse, ...]:
        """Every process of the machine with its CPU ticks so far (a scan of all of them:
        read only when background load must be attributed)."""
        ...

    def descendants_rss(self, pid: int) -> int | None:
        """Summed resident memory of ``pid``'s descendants (not ``pid``); None when unknown."""
        ...

    def children_times(self) -> ChildTimes | None:
        ...


def parse_proc_stat(text: str) -> CpuTimes | None:
    """The aggregate ``cpu`` line and the number of ``cpuN`` lines of the kernel's stat file
    (None without a ``cpu`` line of at least four counters).  A ``cpu`` counter that is no
    whole number of ticks (a u64: at most 20 digits) is a :class:`ParseError`: the file is
    broken, not "no data"."""
    fields: list[float] | None = None
    cpus = forks = 0
    for line in text.splitlines():
        name, _, rest = line.partition(" ")
        if name == "processes" and rest.strip().isdigit():
            forks = int(rest)
        elif name == "cpu":
            bad = [v for v in rest.split() if not (v.isascii() and v.isdigit() and len(v) <= 20)]
            if bad:
                raise ParseError("the kernel stat file", f"cpu counter {bad[0][:40]!r} is not "
                                 "a number of clock ticks", line[:200])
            fields = [float(v) for v in rest.split()]
        elif name.startswith("cpu") and name[3:].isdigit():
            cpus += 1
    if fields is None or len(fields) < 4:
        return None
    fields += [0.0] * (8 - len(fields))
    user, nice, system, idle, iowait, irq, softirq, steal = fields[:8]
    return CpuTimes(total=user + nice + system + idle + iowait + irq + softirq + steal,
                    idle=idle + iowait, steal=steal, cpus=max(cpus, 1), interrupts=irq + softirq,
                    forks=forks)


def read_cpu_times(sysroot: Sysroot) -> CpuTimes | None:
    """The tree's CPU time counters (None when it has no stat file); a broken file is a
    :class:`SysrootError` naming it."""
    try:
        return parse_proc_stat(sysroot.proc_stat(default=""))
    except ParseError as exc:
        raise SysrootError(sysroot.path(f"{PROC}/stat"), exc.reason) from exc


def read_meminfo(sysroot: Sysroot) -> dict[str, int] | None:
    """The tree's meminfo in bytes (None when it has none); a file without one ``Key: value``
    line is a :class:`SysrootError` naming it."""
    text = sysroot.meminfo(default="")
    if not text:
        return None
    try:
        return parse_meminfo(text)
    except ParseError as exc:
        raise SysrootError(sysroot.path(f"{PROC}/meminfo"), exc.reason) from exc


def read_affinity(sysroot: Sysroot) -> tuple[int, ...]:
    """``Cpus_allowed_list`` of the tree's own process status; a list the kernel would never
    print is a :class:`SysrootError` naming the file."""
    try:
        return parse_allowed_cpus(sysroot.self_status(default=""))
    except ValueError as exc:
        raise SysrootError(sysroot.path(f"{PROC}/self/status"), f"Cpus_allowed_list: {exc}"
                           ) from exc


def _unescape(field: str) -> str:
    r"""Mount table fields escape space, tab, newline and backslash as ``\040`` etc."""
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and field[i + 1:i + 4].isdigit():
            out.append(chr(int(field[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def parse_mounts(text: str) -> tuple[Mount, ...]:
    """``device mountpoint fstype options dump pass`` lines."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 3:
            out.append(Mount(_unescape(parts[0]), _unescape(parts[1]), parts[2]))
    return tuple(out)


def parse_allowed_cpus(status: str) -> tuple[int, ...]:
    """``Cpus_allowed_list:`` of a process status file."""
    for line in status.splitlines():
        key, _, value = line.partition(":")
        if key == "Cpus_allowed_list":
            return parse_cpu_list(value.strip())
    return ()


class SysrootHost:
    """Every reading through a Sysroot: a captured tree (or, at ``/``, this machine)."""

    def __init__(self, sysroot: Sysroot, pid: int | None = None) -> None:
        self.sysroot = sysroot
        self._pid = pid
        self._trees: dict[int, TreeTracker] = {}
        self._lock = threading.Lock()

    def cpu_times(self) -> CpuTimes | None:
        return read_cpu_times(self.sysroot)

    def mounts(self) -> tuple[Mount, ...]:
        return parse_mounts(self.sysroot.mounts(default=""))

    def affinity(self) -> tuple[int, ...]:
        return read_affinity(self.sysroot)

    def self_pid(self) -> int:
        """The process the readings are about: the given pid, else this process (asked at
        each call, so a forked child reports itself)."""
        return self._pid if self._pid is not None else os.getpid()

    def _stats(self) -> dict[int, PidStat]:
        found = (parse_pid_stat(self.sysroot.process_stat(p)) for p in self.sysroot.process_ids())
        return {s.pid: s for s in found if s is not None}

    def _descendants(self, pid: int, stats: dict[int, PidStat]) -> list[PidStat]:
        out: list[PidStat] = []
        seen, frontier = {pid}, {pid}
        while frontier:  # breadth first; ``seen`` ends a malformed tree's cycle
            found = [s for s in stats.values() if s.ppid in frontier and s.pid not in seen]
            out += found
            frontier = {s.pid for s in found}
            seen |= frontier
        return out

    def tree_cpu(self, pid: int, discover: bool = True) -> tuple[ProcessCpu, ...]:
        """Read the way :class:`~.proctree.TreeTracker` does: the tree's own stat files and
        (``discover``) those of processes new since the last listing."""
        with self._lock:  # the sampler's thread and the test's both ask
            tracker = self._trees.setdefault(pid, TreeTracker(self.sysroot, pid))
            tree = tracker.read(discover)
        return tuple(ProcessCpu(s.pid, s.ticks / USER_HZ, s.cpu) for s in tree)

    def processes(self) -> tuple[ProcessUse, ...]:
        return tuple(ProcessUse(s.pid, s.name, s.ticks, s.kernel) for s in self._stats().values())

    def descendants_rss(self, pid: int) -> int | None:
        stats = self._stats()
        if pid not in stats:
            return None
        page = os.sysconf("SC_PAGE_SIZE")
        return sum(s.rss_pages for s in self._descendants(pid, stats)) * page

    def children_times(self) -> ChildTimes | None:
        return None  # a captured tree has no reaped children of this process


class LocalHost(SysrootHost):
    """This machine: every reading through the Sysroot at ``/`` (the process tree as
    :class:`~.proctree.TreeTracker` reads it), descendants' memory through psutil."""

    def __init__(self) -> None:
        super().__init__(Sysroot())

    def affinity(self) -> tuple[int, ...]:
        return tuple(sorted(os.sched_getaffinity(0)))

    def _tree(self, pid: int) -> list[psutil.Process]:
        import psutil  # imported on first use: a session that samples nothing never loads it

        try:
            root = psutil.Process(pid)
        except psutil.Error:
            return []
        try:
            return [root, *root.children(recursive=True)]
        except psutil.Error:
            return [root]

    def descendants_rss(self, pid: int) -> int | None:
        import psutil

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


def pipe_holders(inodes: set[int], proc: Path = Path("/proc")) -> list[int]:
    """The processes other than this one with a descriptor on one of the pipes ``inodes``
    (``fd/N -> pipe:[inode]``): what keeps a command's output open after it exited, such as
    a daemon it started in a session of its own.  Processes that vanish or cannot be read
    are skipped."""
    wanted = {f"pipe:[{inode}]" for inode in inodes}
    found = []
    for entry in proc.iterdir() if proc.is_dir() else ():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        if wanted.intersection(_fd_links(entry / "fd")):
            found.append(int(entry.name))
    return found


def _fd_links(fd_dir: Path) -> list[str]:
    """Where each descriptor in a process's ``fd`` directory points (those readable now)."""
    out: list[str] = []
    try:
        fds = list(fd_dir.iterdir())
    except OSError:
        return out
    for fd in fds:
        try:
            out.append(os.readlink(fd))
        except OSError:
            continue
    return out


LOCAL_HOST = LocalHost()


def default_host() -> Host:
    """The host measure functions use when the caller (the session) passes none: this machine
    through its proc files, or through psutil on FreeBSD, which has no such files."""
    from .freebsd.host import PSUTIL_HOST
    from .freebsd.system import host_is_freebsd

    return PSUTIL_HOST if host_is_freebsd() else LOCAL_HOST
