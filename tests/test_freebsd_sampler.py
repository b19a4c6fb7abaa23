"""The sampler on FreeBSD: clocks and temperatures from ``sysctl`` (here the captured outputs of
real machines stand in for it, through the executor seam), load and memory through psutil (run
for real on this machine: psutil reads FreeBSD with the same calls it is asked here)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from pytest_sbcbench.measure.sampler import Sampler
from pytest_sbcbench.platform.executor import Completed, LocalExecutor
from pytest_sbcbench.platform.freebsd import CaptureExecutor, FreeBsd, FreeBsdReadings, PsutilHost
from pytest_sbcbench.platform.freebsd.host import psutil_memory
from pytest_sbcbench.platform.host import LocalHost, default_host
from pytest_sbcbench.platform.readings import SysrootReadings, board_readings
from pytest_sbcbench.platform.sysroot import Sysroot

DATA = Path(__file__).parent / "data" / "freebsd"
T420S = DATA / "thinkpad-t420s_i5-2520m_excerpts"
RPI3 = DATA / "rpi3b-plus_cortex-a53_freebsd-12.2"
MACBOOK = DATA / "macbookpro8-1_i5-2415m_freebsd-13.1_zfs"


class Board(CaptureExecutor):
    """The FreeBSD board of a capture, recording the commands it is asked; ``live`` makes it
    pass for a running machine (so memory comes from this machine's psutil, as on a real one)."""

    def __init__(self, capture: Path, live: bool = False) -> None:
        super().__init__(Sysroot(capture))
        self.asked: list[tuple[str, ...]] = []
        self.is_capture = not live

    def run(self, argv: Sequence[str], timeout: float, env: Mapping[str, str] | None = None,
            cwd: str | None = None) -> Completed:
        self.asked.append(tuple(argv))
        return super().run(argv, timeout, env, cwd)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def sampled(capture: Path, readings: int = 3) -> Sampler:
    """A sampler over the capture, read ``readings`` times one scripted second apart."""
    clock = Clock()
    sampler = Sampler(Sysroot(capture), 1.0, host=PsutilHost(), clock=clock)
    sampler.start(background=False)
    for _ in range(readings - 1):
        clock.now += 1.0
        sampler.read()
    return sampler


def test_the_thinkpads_clock_and_temperatures_are_sampled_from_sysctl() -> None:
    trace = sampled(T420S).stop()
    assert trace.cpus == (0,) and trace.max_mhz == (2500.0,) and trace.governors == (None,)
    assert [(s.name, s.path) for s in trace.sensors] == [
        ("cpu0", "dev.cpu.0.temperature"), ("acpi-tz0", "hw.acpi.thermal.tz0.temperature")]
    assert {r.mhz for r in trace.readings} == {(800.0,)}
    assert {r.temps_c for r in trace.readings} == {(49.0, 49.1)}
    assert [r.t for r in trace.readings] == [0.0, 1.0, 2.0, 2.0]
    assert trace.time_in_state == ()
    assert "memory" in trace.unavailable  # the excerpt has no memory counters


def test_the_raspberry_pis_one_clock_is_every_cores_and_the_soc_sensor_is_read() -> None:
    trace = sampled(RPI3).stop()
    assert trace.cpus == (0, 1, 2, 3) and trace.max_mhz == (None,) * 4
    assert [s.name for s in trace.sensors] == ["soc"]
    assert {r.mhz for r in trace.readings} == {(600.0,) * 4}
    assert {r.temps_c for r in trace.readings} == {(43.47,)}


def test_a_machine_without_clocks_or_sensors_says_why() -> None:
    sampler = Sampler(Sysroot(MACBOOK), 1.0, host=PsutilHost())
    reasons = sampler.available() or ""
    assert "no dev.cpu.N.freq and no hw.cpufreq.arm_freq" in reasons
    assert "load coretemp(4) or amdtemp(4)" in reasons


def test_each_reading_is_one_sysctl_of_the_names_found_at_start() -> None:
    board = Board(T420S)
    readings = FreeBsdReadings(FreeBsd(board))
    assert board.asked == [
        ("sysctl", "-i", "hw.ncpu", "dev.cpu", "hw.cpufreq", "hw.acpi.thermal"),
        ("sysctl", "-i", "hw.physmem", "hw.pagesize", "vm.stats.vm.v_page_size",  # a capture
         "vm.stats.vm.v_free_count", "vm.stats.vm.v_inactive_count", "vm.stats.vm.v_cache_count")]
    for _ in range(3):
        readings.read()
    names = ("sysctl", "-i", "dev.cpu.0.freq", "dev.cpu.0.temperature",
             "hw.acpi.thermal.tz0.temperature")
    assert board.asked[2:] == [names] * 3 and len(board.asked) == 5


def test_a_live_machines_memory_comes_from_psutil() -> None:
    readings = FreeBsdReadings(FreeBsd(Board(T420S, live=True)))
    sample = readings.read()
    assert "memory" not in readings.unavailable
    assert sample.mem_used is not None and 0 < sample.mem_used <= os.sysconf("SC_PAGE_SIZE") \
        * os.sysconf("SC_PHYS_PAGES")
    used, swap = psutil_memory()
    assert used is not None and used > 0 and swap is not None and swap >= 0


def test_the_readings_source_follows_the_sysroot(tmp_path: Path) -> None:
    assert isinstance(board_readings(Sysroot(T420S)), FreeBsdReadings)
    assert isinstance(board_readings(Sysroot(tmp_path)), SysrootReadings)  # an empty tree
    assert isinstance(board_readings(Sysroot()), SysrootReadings)  # this Linux machine
    assert isinstance(default_host(), LocalHost)  # psutil's host only on FreeBSD


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="Linux's affinity call")
def test_the_psutil_host_reads_this_machine_as_the_proc_files_do() -> None:
    """What FreeBSD's host is made of, checked against this machine's own figures."""
    host = PsutilHost()
    first = host.cpu_times()
    second = host.cpu_times()
    for _ in range(10 ** 5):  # work until the kernel's tick-grained counters move
        if second is None or first is None or second.total > first.total:
            break
        sum(range(10 ** 4))
        second = host.cpu_times()
    assert first is not None and second is not None
    assert second.total > first.total and second.cpus == os.cpu_count()
    assert host.affinity() == tuple(sorted(os.sched_getaffinity(0)))
    assert any(m.mountpoint == "/" for m in host.mounts())
    assert host.self_pid() == os.getpid()
    handle = LocalExecutor().spawn([sys.executable, "-c", "b = bytearray(32 << 20); "
                                    "print('ready', flush=True); import signal; signal.pause()"])
    try:
        assert next(iter(handle.lines())) == "ready"
        tree = {p.pid: p for p in host.tree_cpu(os.getpid())}
        assert os.getpid() in tree and len(tree) >= 2
        assert all(p.seconds >= 0 for p in tree.values())
        assert (host.descendants_rss(os.getpid()) or 0) >= 32 << 20
        mine = [p for p in host.processes() if p.pid == os.getpid()]
        assert len(mine) == 1 and mine[0].ticks > 0 and not mine[0].kernel
    finally:
        handle.stop()
    before = host.children_times()
    LocalExecutor().run([sys.executable, "-c", "sum(range(10 ** 6))"], timeout=120)
    after = host.children_times()
    assert before is not None and after is not None
    assert after.user_s + after.sys_s > before.user_s + before.sys_s
    assert host.tree_cpu(2 ** 22 + 12345) == () and host.descendants_rss(2 ** 22 + 12345) is None
