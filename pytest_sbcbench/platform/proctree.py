"""A process and its live descendants, read at a cost that does not grow with the machine's
process count.

Each read lists the proc tree (one directory read) and reads the ``stat`` file of each member
of the tree and of each process new since the last read; every other process was read once,
when it first appeared, and found outside the tree.  A process's parent never changes except to
a reaper when its parent ends, which takes it out of the tree, so a process outside stays
outside (a pid reused between two reads is taken for the process it replaced: a child started
and given such a pid within one interval would be missed until its parent reaps it)."""

from __future__ import annotations

from dataclasses import dataclass

from .sysroot import Sysroot

KTHREADD = 2  # the pid of the kernel thread that starts every other one
PF_KTHREAD = 0x00200000  # the per-process flag of a kernel thread (include/linux/sched.h)


@dataclass(frozen=True)
class PidStat:
    """The fields of a process ``stat`` line the tree readings use."""

    pid: int
    ppid: int
    ticks: int  # utime + stime + cutime + cstime
    rss_pages: int
    cpu: int | None
    name: str = ""
    flags: int = 0

    @property
    def kernel(self) -> bool:
        """A kernel thread: the kernel's flag for one, kthreadd itself or a child of it."""
        return bool(self.flags & PF_KTHREAD) or KTHREADD in (self.pid, self.ppid)


def parse_pid_stat(text: str) -> PidStat | None:
    """A process ``stat`` line; the command name may hold spaces and parentheses."""
    head, sep, tail = text.rpartition(")")
    fields = tail.split()
    if not sep or len(fields) < 22:
        return None
    pid_text, _, name = head.partition("(")
    ticks = sum(int(v) for v in fields[11:15])
    cpu = int(fields[36]) if len(fields) > 36 else None
    return PidStat(int(pid_text), int(fields[1]), ticks, int(fields[21]), cpu, name,
                   int(fields[6]))


class TreeTracker:
    """``root`` and its live descendants under ``sysroot``'s proc tree, read by :meth:`read`."""

    def __init__(self, sysroot: Sysroot, root: int) -> None:
        self.sysroot = sysroot
        self.root = root
        self._outside: set[int] = set()  # listed before and not in the tree

    def read(self) -> list[PidStat]:
        """The root first, then its descendants breadth first; empty when the root is gone."""
        listed = set(self.sysroot.process_ids())
        self._outside &= listed
        if self.root not in listed:
            return []
        stats: dict[int, PidStat] = {}
        candidates = listed - self._outside
        for pid in candidates:
            found = parse_pid_stat(self.sysroot.process_stat(pid))
            if found is not None:
                stats[pid] = found
        members = _closure(self.root, stats)
        self._outside |= candidates - {s.pid for s in members}
        return members


def _closure(root: int, stats: dict[int, PidStat]) -> list[PidStat]:
    if root not in stats:
        return []
    children: dict[int, list[PidStat]] = {}
    for stat in stats.values():
        children.setdefault(stat.ppid, []).append(stat)
    out, seen, frontier = [stats[root]], {root}, [root]
    while frontier:  # ``seen`` ends a malformed tree's cycle
        found = [c for pid in frontier for c in children.get(pid, ()) if c.pid not in seen]
        out += found
        frontier = [c.pid for c in found]
        seen.update(frontier)
    return out
