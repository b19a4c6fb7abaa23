"""Who used the CPU time the benchmark did not: kernel threads, other processes, the hypervisor.

Each sampler reading already gives the background cheaply (system-wide busy CPUs from the
kernel's stat file minus the benchmark's process tree) and the share the hypervisor stole.
Only when the background is above :data:`OTHER_CPUS` is it attributed: two scans of every
process's CPU ticks (:meth:`~pytest_sbcbench.platform.host.Host.processes`), one at a reading and
one at the next, at most one pair every :data:`SCAN_EVERY_S` seconds (and one in each
measurement window: :meth:`Background.rearm`), or on demand
(:meth:`Background.attribute_now`) when a measurement window ended without one.  A measurement
shorter than one sampler interval is read over the last full interval before its end
(:func:`window`): those readings exist, and no scan of every process runs at its end; a load
they show that no scan covered is ``not attributed``, other work as far as the verdict goes
(``invalid``, never a regression).  A process is a
kernel thread when it has no user space (the kernel's flag, or a child of kthreadd: kworker,
ksoftirqd, irq/...); hardirq and softirq time, charged to no process, is the kernel's too."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from ..model import Attribution, CpuUser, Reading
from ..platform.host import USER_HZ, CpuTimes, Host, ProcessUse

OTHER_CPUS = 0.25  # background CPUs that count as load (the idle gate's own threshold)
STEAL_PCT = 2.0  # share of CPU time stolen by the hypervisor that counts
MIN_CPUS = 0.02  # a process that used less over a window is not named
NAMED = 5  # processes a line names, most CPU first
SCAN_EVERY_S = 30.0  # at most one attribution started per this many sampler seconds
SCAN_STEP_S = 0.25  # an attribution made on demand: two scans this far apart

Sleep = Callable[[float], None]


@dataclass(frozen=True)
class Scan:
    """Every process's CPU ticks at sampler time ``t``, the system counters, and the pids of
    the benchmark's tree then."""

    t: float
    times: CpuTimes | None
    ticks: dict[int, ProcessUse]
    tree: frozenset[int]


def scan(host: Host, t: float, tree: frozenset[int]) -> Scan:
    return Scan(t, host.cpu_times(), {p.pid: p for p in host.processes()}, tree)


def attribute(before: Scan, after: Scan) -> Attribution | None:
    """What each process outside the benchmark's tree used between two scans (a process
    that started in between: all its ticks); None without system counters or elapsed time."""
    if before.times is None or after.times is None:
        return None
    total = after.times.total - before.times.total
    if total <= 0:
        return None
    seconds = total / USER_HZ / after.times.cpus
    idle = after.times.idle - before.times.idle
    steal = after.times.steal - before.times.steal
    busy = max(0.0, total - idle - steal) / USER_HZ / seconds
    tree = before.tree | after.tree
    tree_cpus = 0.0
    users = []
    for pid, now in after.ticks.items():
        was = before.ticks.get(pid)
        delta = now.ticks - (was.ticks if was is not None else 0)
        if delta <= 0:
            continue
        cpus = delta / USER_HZ / seconds
        if pid in tree:
            tree_cpus += cpus
        elif cpus >= MIN_CPUS:
            users.append(CpuUser(pid, now.name, round(cpus, 3), now.kernel))
    interrupts = max(0.0, after.times.interrupts - before.times.interrupts) / USER_HZ / seconds
    users.sort(key=lambda u: (-u.cpus, u.pid))
    return Attribution(before.t, after.t, round(max(0.0, busy - tree_cpus), 3),
                       round(interrupts, 3), round(100.0 * max(0.0, steal) / total, 1),
                       tuple(users))


def combined(found: Sequence[Attribution]) -> Attribution | None:
    """Several windows as one, each weighted by its length."""
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    weights = [max(a.end - a.start, 1e-9) for a in found]
    span = sum(weights)

    def mean(values: list[float]) -> float:
        return round(sum(v * w for v, w in zip(values, weights, strict=True)) / span, 3)
    users: dict[int, tuple[CpuUser, float]] = {}
    for attribution, weight in zip(found, weights, strict=True):
        for user in attribution.users:
            seen, cpu_s = users.get(user.pid, (user, 0.0))
            users[user.pid] = (seen, cpu_s + user.cpus * weight)
    merged = sorted((CpuUser(u.pid, u.name, round(s / span, 3), u.kernel)
                     for u, s in users.values()), key=lambda u: (-u.cpus, u.pid))
    return Attribution(found[0].start, found[-1].end,
                       mean([a.background_cpus for a in found]),
                       mean([a.interrupts_cpus for a in found]),
                       round(mean([a.steal_pct for a in found]), 1),
                       tuple(u for u in merged if u.cpus >= MIN_CPUS))


def background_cpus(prev: Reading, cur: Reading) -> float | None:
    """CPUs busy outside the benchmark's tree over the interval that ended with ``cur``."""
    dt = cur.t - prev.t
    if dt <= 0 or cur.system_busy_cpus is None:
        return None
    return max(0.0, cur.system_busy_cpus - (cur.tree_cpu_s - prev.tree_cpu_s) / dt)


def named(users: Sequence[CpuUser]) -> str:
    """The users by command name, busiest first: ``name (pid N) X CPUs`` for one process,
    ``name (K processes) X CPUs`` for several of one name (a ``make -j8``'s compilers)."""
    groups: dict[str, list[CpuUser]] = {}
    for user in users:
        groups.setdefault(user.name, []).append(user)
    ranked = sorted(groups.values(), key=lambda g: (-sum(u.cpus for u in g), g[0].name))
    shown = [g[0].shown() if len(g) == 1 else
             f"{g[0].name} ({len(g)} processes) {sum(u.cpus for u in g):.2f} CPUs"
             for g in ranked[:NAMED]]
    more = len(ranked) - NAMED
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


@dataclass(frozen=True)
class Window:
    """What ran beside the benchmark from sampler time ``start`` to ``end``: the background
    and steal over the readings, and who the background was.  ``short``: the measurement
    lasted less than one sampler interval, so its figures are those of the readings since
    ``read_from`` (the last full interval before ``end``)."""

    start: float
    end: float
    background_cpus: float | None
    steal_pct: float | None
    attribution: Attribution | None
    short: bool = False
    read_from: float | None = None  # where the readings it was judged from begin

    @property
    def loaded(self) -> bool:
        """Background above the threshold: worth attributing."""
        return (self.background_cpus or 0.0) >= OTHER_CPUS

    def others(self) -> str | None:
        """Other user processes, when they took enough to matter."""
        found = self.attribution
        if not self.loaded or found is None or found.other_cpus < OTHER_CPUS:
            return None
        return (f"other processes kept {found.other_cpus:.2f} CPUs busy beside the "
                f"benchmark: {named([u for u in found.users if not u.kernel])}")

    def steal(self) -> str | None:
        if self.steal_pct is None or self.steal_pct <= STEAL_PCT:
            return None
        return f"the hypervisor stole {self.steal_pct:.1f}% of this machine's CPU time (steal)"

    def outside(self) -> str | None:
        """Other processes, load no scan covered, or the hypervisor: what a measurement must
        wait out and re-measure."""
        parts = (self.others(), self.unscanned(), self.steal())
        return "; ".join(p for p in parts if p) or None

    def unscanned(self) -> str | None:
        """A loaded window no scan of the processes covered: nothing says the load was the
        kernel's, so it counts as other work (an ``invalid`` verdict, never a regression)."""
        if not self.loaded or self.attribution is not None:
            return None
        over = (f" (over the readings from {self.read_from:.2f} s to {self.end:.2f} s: the "
                "measurement was shorter than one sampler interval)"
                if self.short and self.read_from is not None else "")
        return (f"{self.background_cpus or 0.0:.2f} CPUs busy beside the benchmark{over}, "
                "not attributed: no scan of the processes covered it")

    def unattributed(self) -> str | None:
        """A loaded window that neither other processes nor the kernel account for."""
        if not self.loaded or self.others() or self.kernel():
            return None
        if self.attribution is None:
            return self.unscanned()
        return (f"{self.background_cpus or 0.0:.2f} CPUs busy beside the benchmark, no scan of "
                "the processes accounts for")

    def kernel(self) -> str | None:
        """Kernel threads and interrupts, when they took enough to matter."""
        found = self.attribution
        if not self.loaded or found is None or found.kernel_cpus < OTHER_CPUS:
            return None
        threads = [u for u in found.users if u.kernel]
        irq = (f"; hardirq and softirq {found.interrupts_cpus:.2f} CPUs"
               if found.interrupts_cpus >= MIN_CPUS else "")
        return (f"kernel threads kept {found.kernel_cpus:.2f} CPUs busy beside the benchmark: "
                f"{named(threads) or 'no single thread'}{irq}")


def window(readings: Sequence[Reading], attributions: Sequence[Attribution],
           since: float, interval: float = 0.0) -> Window:
    """The window from ``since`` to the last reading: the intervals that end after ``since``
    (the one it falls in included) and the attributions that overlap them.

    A window shorter than ``interval`` (one sampler interval) reaches back to the readings of
    the last full interval before its end, when the sampler has them: counters read over a few
    milliseconds cannot tell a load (a clock tick is 10 ms), the interval before can, and a
    load beside a measurement was there before it too.  Such a window is ``short``.  When the
    sampler started less than ``interval`` before, the readings that exist are all there is
    (not ``short``: :meth:`~.sampler.Sampler.window` attributes it as any other)."""
    end = readings[-1].t if readings else since
    reach = min(since, end - interval)
    pairs = [(p, c) for p, c in pairwise(readings) if c.t > reach]
    read_from = pairs[0][0].t if pairs else end
    short = end - since < interval <= end - read_from
    background = _weighted([(background_cpus(p, c), c.t - p.t) for p, c in pairs])
    steal = _weighted([(c.steal_pct, c.t - p.t) for p, c in pairs])
    return Window(since, end, background, steal,
                  combined([a for a in attributions if a.end > reach]), short, read_from)


def _weighted(values: list[tuple[float | None, float]]) -> float | None:
    known = [(v, w) for v, w in values if v is not None and w > 0]
    span = sum(w for _, w in known)
    return round(sum(v * w for v, w in known) / span, 3) if span > 0 else None


class Background:
    """The attributions of one sampler: :meth:`after` runs after each reading (in the
    sampler's thread), :meth:`attribute_now` on demand; both under one lock."""

    def __init__(self, host: Host, clock: Callable[[], float]) -> None:
        self.host = host
        self.clock = clock  # sampler seconds
        self.attributions: list[Attribution] = []
        self._pending: Scan | None = None
        self._last_start: float | None = None
        self._lock = threading.Lock()
        self.scans = 0  # scans of every process taken
        self.scan_cpu_s = 0.0  # the CPU time they took (of the thread that took them)

    def _scan(self, t: float, tree: frozenset[int]) -> Scan:
        began = time.thread_time()
        taken = scan(self.host, t, tree)
        self.scans += 1
        self.scan_cpu_s += time.thread_time() - began
        return taken

    def rearm(self) -> None:
        """Let the next loaded interval start an attribution (a new measurement window)."""
        with self._lock:
            self._last_start = None

    def after(self, prev: Reading | None, cur: Reading, tree: frozenset[int]) -> None:
        """Finish a pending attribution at this reading; else start one when the interval
        that ended here was loaded (at most one per :data:`SCAN_EVERY_S`)."""
        with self._lock:
            if self._pending is not None:
                self._finish(self._scan(cur.t, tree))
                return
            load = background_cpus(prev, cur) if prev is not None else None
            if load is None or load < OTHER_CPUS:
                return
            if self._last_start is not None and cur.t - self._last_start < SCAN_EVERY_S:
                return
            self._last_start = cur.t
            self._pending = self._scan(cur.t, tree)

    def attribute_now(self, tree: frozenset[int], sleep: Sleep) -> Attribution | None:
        """Two scans :data:`SCAN_STEP_S` apart, now (a window that ended unattributed)."""
        with self._lock:
            first = self._scan(self.clock(), tree)
            sleep(SCAN_STEP_S)
            return self._finish(self._scan(self.clock(), tree), first)

    def _finish(self, last: Scan, first: Scan | None = None) -> Attribution | None:
        start = first if first is not None else self._pending
        self._pending = None
        done = attribute(start, last) if start is not None else None
        if done is not None:
            self.attributions.append(done)
        return done
