"""An emulated board's host: the controller's steal time and other work during one test
(labgrid's QEMUDriver runs the emulator here, so its speed is this machine's).  The machine's
counters are scripted, so nothing depends on how busy this machine really is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_sbcbench.judge.validity import HOST_NOISE, emulator_host
from pytest_sbcbench.measure.board_sampler import BoardSampler
from pytest_sbcbench.measure.emulator_host import EmulatorHost
from pytest_sbcbench.platform.executor import default_executor
from pytest_sbcbench.platform.host import CpuTimes, LocalHost, ProcessCpu, ProcessUse
from pytest_sbcbench.run.watch import Watch


class Scripted(LocalHost):
    """This machine, except its system counters and this process tree's CPU seconds, which
    come from ``times`` and ``tree`` one reading at a time."""

    def __init__(self, times: list[CpuTimes | None], tree: list[float]) -> None:
        super().__init__()
        self.times: Iterator[CpuTimes | None] = iter(times)
        self.tree: Iterator[float] = iter(tree)
        self.neighbour = 0

    def cpu_times(self) -> CpuTimes | None:
        return next(self.times)

    def tree_cpu(self, pid: int, discover: bool = True) -> tuple[ProcessCpu, ...]:
        return (ProcessCpu(pid, next(self.tree), 0),)

    def processes(self) -> tuple[ProcessUse, ...]:
        """A neighbour 500 ticks further at each scan: half a CPU over the ten seconds the
        scripted counters advance between the two scans of a loaded test."""
        self.neighbour += 500
        return (ProcessUse(4242, "neighbour", self.neighbour, False),)


def ticks(total: float, idle: float, steal: float) -> CpuTimes:
    return CpuTimes(total=total, idle=idle, steal=steal, cpus=2)


SCANS = [ticks(14_000, 4_600, 500), ticks(16_000, 5_600, 500)]  # the two scans' counters


def test_steal_and_other_work_beside_the_emulator_over_one_test() -> None:
    """Ten seconds on two CPUs (2,000 ticks): 400 stolen, 600 idle, so one CPU busy; this
    process tree (pytest and the emulator it started) used 6 CPU seconds: 0.4 CPUs were
    something else's."""
    host = Scripted([ticks(10_000, 3_000, 100), ticks(12_000, 3_600, 500), *SCANS],
                    [50.0, 56.0])
    found = EmulatorHost(host).stop(sleep=lambda s: None)
    assert found is not None and (found.seconds, found.steal_pct) == (10.0, 20.0)
    assert found.other_cpus == pytest.approx(0.4)
    assert found.who == ("other processes kept 0.50 CPUs busy beside the benchmark: "
                         "neighbour (pid 4242) 0.50 CPUs")


def test_no_counters_or_no_time_is_no_reading() -> None:
    assert EmulatorHost(Scripted([None, ticks(1, 0, 0)], [0.0, 0.0])).stop() is None
    assert EmulatorHost(Scripted([ticks(5, 0, 0), ticks(5, 0, 0)], [0.0, 0.0])).stop() is None


def test_the_findings_name_the_emulators_host_and_count_as_host_noise() -> None:
    quiet = emulator_host(steal_pct=1.5, other_cpus=0.1, seconds=40.0)
    assert quiet == []
    stolen, busy = emulator_host(steal_pct=18.2, other_cpus=0.9, seconds=40.0)
    assert stolen.kind == "steal-time" and busy.kind == "background-load"
    assert stolen.detail.startswith("the emulator's host (this controller) lost 18.2% of its "
                                    "CPU time to other guests of its hypervisor during the "
                                    "test (40 s)")
    assert "kept 0.90 CPUs busy beside the emulator" in busy.detail
    (_, named) = emulator_host(steal_pct=18.2, other_cpus=0.9, seconds=40.0,
                               who="other processes kept 0.90 CPUs busy: make (pid 7) 0.90 CPUs")
    assert named.detail.endswith("shares its host's CPUs (other processes kept 0.90 CPUs busy: "
                                 "make (pid 7) 0.90 CPUs)")
    assert {stolen.kind, busy.kind} <= set(HOST_NOISE)  # a regression says to rerun


def test_a_watch_on_an_emulated_board_adds_its_hosts_findings() -> None:
    """The board sampler is unavailable on a serial console; the host reading still judges."""
    host = Scripted([ticks(10_000, 3_000, 100), ticks(12_000, 3_600, 500), *SCANS],
                    [50.0, 56.0])
    watch = Watch(BoardSampler(default_executor(), 1.0), None, None, EmulatorHost(host))
    assert [f.kind for f in watch.findings()] == ["steal-time", "background-load"]
    assert Watch(BoardSampler(default_executor(), 1.0), None, None).findings() == []
