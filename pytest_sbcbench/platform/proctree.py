"""A process and its live descendants, read at a cost that does not grow with the machine's
process count.

A discovering read lists the proc tree (one directory read, whose cost does grow with the
process count) and reads the ``stat`` file of each member of the tree and of each process new
since the last listing; every other process was read once, when it first appeared, and found
outside the tree.  A plain read lists nothing: it reads the members' stat files and those of
the commands the executor started since (:data:`STARTED`), so a new tool is in the tree at
once; a tool's own children are found by the next discovering read (the sampler asks for one
only when CPU time the tree does not explain appears and processes were created).

A process's parent never changes except to a reaper when its parent ends, which takes it out
of the tree, so a process outside stays outside (a pid reused between two listings is taken
for the process it replaced: a child given such a pid would be missed until its parent reaps
it)."""

from __future__ import annotations

from dataclasses import dataclass

from .sysroot import PROC, Sysroot

STARTED: set[int] = set()  # pids the executor started (direct children of this process)
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
        self._outside: set[str] = set()  # entries listed before and not in the tree
        self._members: set[str] = set()  # the tree at the last read

    def read(self, discover: bool = True) -> list[PidStat]:
        """The root first, then its descendants breadth first; empty when the root is gone.
        Entries are compared by name (no number is parsed for a process met before)."""
        if discover or not self._members:
            listed = set(self.sysroot.listdir(PROC))
            self._outside &= listed
            if str(self.root) not in listed:
                return []
            candidates = listed - self._outside
        else:
            candidates = self._members | ({str(p) for p in STARTED} - self._outside)
        stats: dict[int, PidStat] = {}
        for name in candidates:
            found = parse_pid_stat(self.sysroot.process_stat(int(name))) if name.isdigit() \
                else None
            if found is not None:
                stats[found.pid] = found
            elif name.isdigit():
                STARTED.discard(int(name))  # ended: never asked about again
        members = _closure(self.root, stats)
        self._members = {str(s.pid) for s in members}
        self._outside |= candidates - self._members
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
