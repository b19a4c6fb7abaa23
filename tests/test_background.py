"""Background CPU attributed to kernel threads, other processes or the hypervisor, over scripted
proc trees (issue 28 item 6), and the process tree read at a cost that does not grow with the
machine's process count (issue 31 item 11).

A :class:`Box` scripts a machine: the benchmark's process, kthreadd and its kworker, another
user process, each with a real ``stat`` line (a captured one, its fields replaced), and the
system counters; every step advances them and a fake clock by exact ticks, so each figure is
known whatever this machine is doing."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from helpers import DATA, write_files
from pytest_sbcbench.judge import validity
from pytest_sbcbench.measure import background
from pytest_sbcbench.measure.sampler import Sampler
from pytest_sbcbench.platform.host import USER_HZ, ProcessUse, SysrootHost
from pytest_sbcbench.platform.proctree import PF_KTHREAD, STARTED, TreeTracker
from pytest_sbcbench.platform.sysroot import Sysroot

STAT_LINE = (DATA / "this_machine/proc-pid-stat_bash.txt").read_text().strip()
BENCH, KWORKER, LOOP = 5787, 90, 4242
INTERVAL = 1.0


def stat_line(pid: int, name: str, ppid: int, ticks: int, flags: int = 0x400000) -> str:
    """The captured line as process ``pid`` (``name``, child of ``ppid``) with ``ticks`` of
    user time and the kernel's per-process ``flags``."""
    fields = STAT_LINE.rpartition(")")[2].split()
    fields[1], fields[6], fields[11:15] = str(ppid), str(flags), [str(ticks), "0", "0", "0"]
    return f"{pid} ({name}) {' '.join(fields)}"


@dataclass
class Proc:
    name: str
    ppid: int
    kernel: bool = False
    ticks: int = 0


@dataclass
class Box:
    """A scripted two-CPU machine under ``tree`` with a fake clock."""

    tree: Path
    cpus: int = 2
    now: float = 0.0
    busy: int = 0
    idle: int = 0
    steal: int = 0
    irq: int = 0
    forks: int = 0
    procs: dict[int, Proc] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.procs.update({BENCH: Proc("python3", 1), 2: Proc("kthreadd", 0, kernel=True),
                           KWORKER: Proc("kworker/u4:2", 2, kernel=True),
                           LOOP: Proc("busy-loop", 1)})
        self.write()

    def clock(self) -> float:
        return self.now

    def host(self) -> SysrootHost:
        return SysrootHost(Sysroot(self.tree), pid=BENCH)

    def step(self, seconds: float = INTERVAL, steal: float = 0.0, irq: float = 0.0,
             **cpus: float) -> None:
        """``seconds`` pass; each named process (``bench``, ``kworker``, ``loop``) uses its
        CPUs; the hypervisor steals ``steal`` CPUs and interrupts take ``irq``."""
        self.now += seconds
        pids = {"bench": BENCH, "kworker": KWORKER, "loop": LOOP, "child": 20_001}
        used = 0
        for name, share in cpus.items():
            ticks = round(share * seconds * USER_HZ)
            self.procs[pids[name]].ticks += ticks
            used += ticks
        irq_ticks = round(irq * seconds * USER_HZ)
        steal_ticks = round(steal * seconds * USER_HZ)
        self.busy += used + irq_ticks
        self.irq += irq_ticks
        self.steal += steal_ticks
        self.idle += round(self.cpus * seconds * USER_HZ) - used - irq_ticks - steal_ticks
        self.write()

    def write(self) -> None:
        for pid, proc in self.procs.items():
            flags = PF_KTHREAD if proc.kernel else 0x400000
            write_files(self.tree / f"proc/{pid}",
                        {"stat": stat_line(pid, proc.name, proc.ppid, proc.ticks, flags)})
        per_cpu = "".join(f"cpu{n} 0 0 0 0 0 0 0 0 0 0\n" for n in range(self.cpus))
        (self.tree / "proc/stat").write_text(
            f"cpu  {self.busy - self.irq} 0 0 {self.idle} 0 {self.irq} 0 {self.steal} 0 0\n"
            + per_cpu + f"processes {self.forks}\n")

    def sampler(self) -> Sampler:
        return Sampler(Sysroot(self.tree), INTERVAL, pid=BENCH, host=self.host(),
                       clock=self.clock)


def sampled(box: Box, *steps: dict[str, float]) -> Sampler:
    sampler = box.sampler()
    sampler.start(background=False)
    for step in steps:
        box.step(**step)
        sampler.read()
    return sampler


def test_another_process_is_named(tmp_path: Path) -> None:
    """The benchmark on one CPU, a busy loop on the other: the loaded interval starts a scan,
    the next reading ends it, and the loop is named with its share."""
    box = Box(tmp_path)
    sampler = sampled(box, *[{"bench": 1.0, "loop": 1.0}] * 3)
    (found,) = sampler.stop().attributions
    assert (found.start, found.end) == (1.0, 2.0)
    assert found.background_cpus == pytest.approx(1.0)
    assert [(u.name, u.pid, u.cpus, u.kernel) for u in found.users] == [
        ("busy-loop", LOOP, 1.0, False)]
    seen = background.window(sampler.stop().readings, [found], 0.0)
    assert seen.outside() == ("other processes kept 1.00 CPUs busy beside the benchmark: "
                              f"busy-loop (pid {LOOP}) 1.00 CPUs")
    assert seen.kernel() is None


def test_kernel_threads_are_the_kernels(tmp_path: Path) -> None:
    """A kworker and interrupts beside the benchmark: named as the kernel's, nothing to wait
    out or re-measure; the finding says the verdict stands."""
    box = Box(tmp_path)
    sampler = sampled(box, *[{"bench": 1.0, "kworker": 0.6, "irq": 0.2}] * 3)
    trace = sampler.stop()
    seen = background.window(trace.readings, trace.attributions, 0.0)
    assert seen.outside() is None
    assert seen.kernel() == ("kernel threads kept 0.80 CPUs busy beside the benchmark: "
                             f"kworker/u4:2 (pid {KWORKER}) 0.60 CPUs; hardirq and softirq "
                             "0.20 CPUs")
    (finding,) = validity.beside([seen])
    assert finding.kind == "kernel-threads" and "the verdict stands" in finding.detail


def test_steal_needs_no_scan(tmp_path: Path) -> None:
    """The hypervisor steals half a CPU of two (25%): outside work, read from the counters."""
    box = Box(tmp_path)
    sampler = sampled(box, *[{"bench": 1.0, "steal": 0.5}] * 2)
    trace = sampler.stop()
    seen = background.window(trace.readings, trace.attributions, 0.0)
    assert trace.attributions == () and not seen.loaded
    assert seen.outside() == "the hypervisor stole 25.0% of this machine's CPU time (steal)"


def test_a_quiet_machine_is_never_scanned(tmp_path: Path) -> None:
    """Below the threshold nothing scans every process; under load, at most one scan pair
    starts every SCAN_EVERY_S seconds."""
    box = Box(tmp_path)
    scans: list[float] = []
    host = box.host()
    real = host.processes

    def counted() -> tuple[ProcessUse, ...]:
        scans.append(box.now)
        return real()
    host.processes = counted  # type: ignore[method-assign]
    sampler = Sampler(Sysroot(box.tree), INTERVAL, pid=BENCH, host=host, clock=box.clock)
    sampler.start(background=False)
    for _ in range(5):
        box.step(bench=1.0, loop=0.2)
        sampler.read()
    assert scans == []
    for _ in range(int(background.SCAN_EVERY_S) + 5):
        box.step(bench=1.0, loop=1.0)
        sampler.read()
    assert scans == [6.0, 7.0, 36.0, 37.0]


def test_a_window_without_a_scan_is_attributed_on_demand(tmp_path: Path) -> None:
    """A measurement shorter than an interval: the window's closing reading finds it loaded,
    and two scans (the scripted sleep between them) name the loop."""
    box = Box(tmp_path)
    sampler = box.sampler()
    sampler.start(background=False)
    box.step(seconds=0.5, bench=1.0, loop=1.0)
    seen = sampler.window(0.0, lambda s: box.step(seconds=s, loop=1.0))
    assert seen.loaded and seen.attribution is not None
    assert "busy-loop (pid 4242) 1.00 CPUs" in (seen.outside() or "")
    assert box.now == 0.5 + background.SCAN_STEP_S


def refuse(seconds: float) -> None:
    raise AssertionError(f"a short window scanned at its end (slept {seconds} s)")


def after_load(box: Box, intervals: int, **load: float) -> Sampler:
    """A sampler that has read ``intervals`` full intervals of ``load``, then a measurement
    window begins (:meth:`Sampler.begin`)."""
    return sampled(box, *[load] * intervals)


def test_a_short_window_beside_load_is_read_over_the_interval_before_it(
        tmp_path: Path) -> None:
    """Twelve loaded intervals (the thread's one scan pair was at 1-2 s), then a measurement of
    50 ms: the window reaches back one interval, its readings show the loop, no scan covers
    them and none runs at its end; the load is other work, not attributed, so the window
    disturbs (``outside``) and its finding says so."""
    box = Box(tmp_path)
    sampler = after_load(box, 12, loop=1.0)
    scans = sampler.background.scans
    since = sampler.begin()
    box.step(seconds=0.05, bench=1.0, loop=1.0)
    seen = sampler.window(since, refuse)
    assert (seen.start, seen.end, seen.read_from, seen.short) == (12.0, 12.05, 11.0, True)
    assert seen.loaded and seen.attribution is None
    assert seen.background_cpus == pytest.approx(1.0)
    assert seen.outside() == ("1.00 CPUs busy beside the benchmark (over the readings from "
                              "11.00 s to 12.05 s: the measurement was shorter than one sampler "
                              "interval), not attributed: no scan of the processes covered it")
    (finding,) = validity.beside([seen])
    assert finding.kind == "background-load" and "not attributed" in finding.detail
    # the one scan: the closing reading's, the first loaded interval of a new window (the
    # thread's pair, :meth:`Background.rearm`), not a pair at the window's end
    assert sampler.background.scans - scans == 1


def test_a_short_window_takes_the_names_of_a_scan_over_its_readings(tmp_path: Path) -> None:
    """Two loaded intervals: the thread scanned the second; a measurement recorded at once
    after it reaches back over that scan, which names the loop."""
    box = Box(tmp_path)
    sampler = after_load(box, 2, loop=1.0)
    seen = sampler.window(sampler.begin(), refuse)
    assert seen.short and seen.attribution is not None
    assert seen.outside() == ("other processes kept 1.00 CPUs busy beside the benchmark: "
                              f"busy-loop (pid {LOOP}) 1.00 CPUs")


def test_a_short_window_on_a_quiet_machine_finds_nothing(tmp_path: Path) -> None:
    """The same 50 ms measurement after quiet intervals: nothing beside it, nothing scanned."""
    box = Box(tmp_path)
    sampler = after_load(box, 12, loop=0.1)
    since = sampler.begin()
    box.step(seconds=0.05, bench=1.0)
    seen = sampler.window(since, refuse)
    assert seen.short and not seen.loaded
    assert seen.outside() is None and validity.beside([seen]) == []
    assert sampler.background.scans == 0


def test_a_short_window_reaches_back_only_as_far_as_the_readings() -> None:
    """Readings every second: a window of 0.2 s is read from the reading before the last full
    interval; one of 3 s is not short; and one whose sampler started 0.5 s before has no full
    interval to read (all its readings, not short)."""
    from pytest_sbcbench.model import Reading

    def at(t: float, busy: float) -> Reading:
        return Reading(t=t, mhz=(), temps_c=(), mem_used=None, swap_used=None,
                       tree_cpu_s=0.0, system_busy_cpus=busy, busy_cpus=(), steal_pct=0.0)
    readings = [at(float(t), 1.0 if t <= 8 else 0.0) for t in range(11)] + [at(10.2, 0.0)]
    short = background.window(readings, [], 10.0, INTERVAL)
    assert (short.read_from, short.short, short.loaded) == (9.0, True, False)
    assert background.window(readings, [], 9.1, INTERVAL).read_from == 9.0
    whole = background.window(readings, [], 7.0, INTERVAL)
    assert (whole.read_from, whole.short, whole.loaded) == (7.0, False, True)
    started = background.window([at(0.0, 0.0), at(0.5, 1.0)], [], 0.4, INTERVAL)
    assert (started.read_from, started.short, started.loaded) == (0.0, False, True)


def test_the_sampler_says_when_it_has_read_what_a_caller_waits_for(tmp_path: Path) -> None:
    """``wait_for`` holds once a reading made the condition true (here: the loop attributed);
    checked at once, so with no thread and no timeout it says what is there now."""
    box = Box(tmp_path)
    sampler = box.sampler()
    sampler.start(background=False)

    def attributed(s: Sampler) -> bool:
        return bool(s.background.attributions)
    assert not sampler.wait_for(attributed, timeout=0)
    for _ in range(2):
        box.step(loop=1.0)
        sampler.read()
    assert sampler.wait_for(attributed, timeout=0)


@dataclass(frozen=True)
class CountingSysroot(Sysroot):
    """A Sysroot that counts the stat files read."""

    reads: list[int] = field(default_factory=list)

    def process_stat(self, pid: int) -> str:
        self.reads.append(pid)
        return super().process_stat(pid)


def test_the_tree_costs_its_own_size(tmp_path: Path) -> None:
    """1,000 other processes: the first read meets them all once; later reads read the tree's
    stat files and new processes' only, and a new child of the tree joins it."""
    box = Box(tmp_path)
    for pid in range(10_000, 11_000):
        box.procs[pid] = Proc("sleep", 1)
    box.write()
    root = CountingSysroot(box.tree)
    tracker = TreeTracker(root, BENCH)
    assert [s.pid for s in tracker.read()] == [BENCH]
    assert len(root.reads) == len(box.procs)
    root.reads.clear()
    assert [s.pid for s in tracker.read()] == [BENCH]
    assert root.reads == [BENCH]
    box.procs[20_000] = Proc("openssl", BENCH)
    box.procs[20_001] = Proc("openssl", 20_000)
    box.procs[20_002] = Proc("cron", 1)
    box.write()
    root.reads.clear()
    assert [s.pid for s in tracker.read()] == [BENCH, 20_000, 20_001]
    assert sorted(root.reads) == [BENCH, 20_000, 20_001, 20_002]
    root.reads.clear()
    tracker.read()
    assert sorted(root.reads) == [BENCH, 20_000, 20_001]


def test_a_plain_read_lists_nothing(tmp_path: Path) -> None:
    """After one listing, a plain read reads the tree's members and the commands the executor
    started since, and no other stat file, however many processes the machine has; a child
    of a started command waits for a discovering read."""
    box = Box(tmp_path)
    for pid in range(10_000, 11_000):
        box.procs[pid] = Proc("sleep", 1)
    box.write()
    root = CountingSysroot(box.tree)
    tracker = TreeTracker(root, BENCH)
    tracker.read()
    box.procs[20_000] = Proc("openssl", BENCH)
    box.procs[20_001] = Proc("openssl", 20_000)  # a -multi child
    box.write()
    STARTED.add(20_000)
    try:
        root.reads.clear()
        assert [s.pid for s in tracker.read(discover=False)] == [BENCH, 20_000]
        assert sorted(root.reads) == [BENCH, 20_000]
        assert [s.pid for s in tracker.read()] == [BENCH, 20_000, 20_001]
        root.reads.clear()
        tracker.read(discover=False)
        assert sorted(root.reads) == [BENCH, 20_000, 20_001]
        del box.procs[20_001]
        (box.tree / "proc/20001").joinpath("stat").unlink()
        (box.tree / "proc/20001").rmdir()
        assert [s.pid for s in tracker.read(discover=False)] == [BENCH, 20_000]
    finally:
        STARTED.discard(20_000)


def test_a_tools_child_is_found_in_the_reading_it_shows_up(tmp_path: Path) -> None:
    """The benchmark forks a worker (as ``openssl speed -multi`` does) that nobody registered:
    the first reading it uses CPU in finds CPU the tree does not explain and a new process,
    lists every process once, and counts the worker as the benchmark's, so the interval is
    not background and nothing is scanned."""
    box = Box(tmp_path)
    sampler = box.sampler()
    sampler.start(background=False)
    box.procs[20_001] = Proc("openssl", BENCH)
    box.forks += 1
    box.step(bench=0.1, child=1.0)
    reading = sampler.read()
    assert reading.tree_cpu_s == pytest.approx(sampler.stop().readings[0].tree_cpu_s + 1.1)
    assert background.background_cpus(sampler.stop().readings[0], reading) == pytest.approx(0.0)
    assert sampler.background.scans == 0
