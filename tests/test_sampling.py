"""Samplers over fake sysroot trees, driven step by step with scripted readings.

Each test scripts the machine: a :class:`Machine` advances a fake clock and writes the process
tree's CPU ticks (a real ``stat`` line of a captured process, its CPU fields replaced) and the
system's ``stat`` counters into the tree, and the sampler reads them through a
:class:`SysrootHost`.  "Under load" is then true or false exactly, whatever else the machine
running the tests is doing; no test races a busy child against a sleep."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from helpers import DATA, star64_tree, write_files
from pytest_sbcbench.judge import validity
from pytest_sbcbench.judge.telemetry import summarize_trace, under_load
from pytest_sbcbench.measure.cputime import SystemCpu
from pytest_sbcbench.measure.idle import wait_for_idle
from pytest_sbcbench.measure.sampler import Sampler
from pytest_sbcbench.model import Reading, Trace
from pytest_sbcbench.platform import cpufreq, thermal
from pytest_sbcbench.platform.host import USER_HZ, LocalHost, SysrootHost
from pytest_sbcbench.platform.sysroot import Sysroot

INTERVAL = 0.5  # seconds; with 100 ticks a second, every scripted figure is exact
PID = 5787  # the pid of the captured process whose stat line the scripts replay
STAT_LINE = (DATA / "this_machine/proc-pid-stat_bash.txt").read_text().strip()


def pid_stat(ticks: int, cpu: int) -> str:
    """The captured ``stat`` line with its CPU time (utime; stime, cutime, cstime zero) and
    last CPU replaced."""
    head, _, tail = STAT_LINE.rpartition(")")
    fields = tail.split()
    fields[11:15] = [str(ticks), "0", "0", "0"]
    fields[36] = str(cpu)
    return f"{head}) {' '.join(fields)}\n"


class Machine:
    """A scripted board: the benchmark's process tree and the system CPU counters of a
    sysroot tree, and the clock the sampler reads."""

    def __init__(self, tree: Path, cpus: int = 4) -> None:
        self.tree = tree
        self.cpus = cpus
        self.now = 0.0
        self.tree_ticks = 0
        self.busy_ticks = 0
        self.idle_ticks = 0
        self.steal_ticks = 0
        self.write()

    def clock(self) -> float:
        return self.now

    def host(self) -> SysrootHost:
        return SysrootHost(Sysroot(self.tree), pid=PID)

    def sampler(self, **kwargs: Any) -> Sampler:
        return Sampler(Sysroot(self.tree), INTERVAL, pid=PID, host=self.host(),
                       clock=self.clock, **kwargs)

    def step(self, tree_cpus: float = 0.0, other_cpus: float = 0.0, steal_cpus: float = 0.0,
             seconds: float = INTERVAL) -> None:
        """``seconds`` pass; the benchmark keeps ``tree_cpus`` CPUs busy, other work keeps
        ``other_cpus`` busy and the hypervisor steals ``steal_cpus``."""
        self.now += seconds
        self.tree_ticks += round(tree_cpus * seconds * USER_HZ)
        busy = tree_cpus + other_cpus
        self.busy_ticks += round(busy * seconds * USER_HZ)
        self.steal_ticks += round(steal_cpus * seconds * USER_HZ)
        self.idle_ticks += round((self.cpus - busy - steal_cpus) * seconds * USER_HZ)
        self.write()

    def write(self) -> None:
        write_files(self.tree / f"proc/{PID}", {"stat": pid_stat(self.tree_ticks, 2).strip()})
        per_cpu = "".join(f"cpu{n} 0 0 0 0 0 0 0 0 0 0\n" for n in range(self.cpus))
        (self.tree / "proc/stat").write_text(
            f"cpu  {self.busy_ticks} 0 0 {self.idle_ticks} 0 0 0 {self.steal_ticks} 0 0\n"
            + per_cpu)


Step = tuple[dict[str, float], Callable[[], object] | None]


def run(machine: Machine, plan: list[Step], **kwargs: Any) -> Trace:
    """Start a sampler without its thread; for each step, do its action (a clock drop, a hot
    zone), let the scripted time pass, take one sample; then stop."""
    sampler = machine.sampler(**kwargs)
    sampler.start(background=False)
    for step, action in plan:
        if action is not None:
            action()
        machine.step(**step)
        sampler.read()
    return sampler.stop()


def busy(n: int, action: Callable[[], object] | None = None) -> list[Step]:
    """``n`` intervals with the benchmark on one CPU; ``action`` before the first."""
    return [({"tree_cpus": 1.0}, action)] + [({"tree_cpus": 1.0}, None)] * (n - 1)


def idle(n: int, action: Callable[[], object] | None = None) -> list[Step]:
    return [({}, action)] + [({}, None)] * (n - 1)


def loads(*steps: dict[str, float]) -> list[Step]:
    return [(step, None) for step in steps]


def set_clock(tree: Path, khz: int) -> None:
    for cpu in range(4):
        (tree / f"sys/devices/system/cpu/cpu{cpu}/cpufreq/scaling_cur_freq").write_text(f"{khz}\n")


def kinds(trace: Trace) -> list[str]:
    return [f.kind for f in validity.findings(trace, summarize_trace(trace))]


def test_full_clock_under_load(star64: Path) -> None:
    telemetry = summarize_trace(run(Machine(star64), busy(8)))
    assert telemetry["samples"] == 10  # start, eight steps, stop
    assert telemetry["under_load_samples"] == 8
    assert telemetry["at_max_clock_pct"] == 100.0
    assert telemetry["clock_mhz"] == {"min": 1500.0, "median": 1500.0, "max": 1500.0}
    assert telemetry["temperature_c"] == {"idle": 56.9, "peak": 56.9}


def test_clock_that_drops_mid_run_is_found(star64: Path) -> None:
    trace = run(Machine(star64), busy(4) + busy(4, lambda: set_clock(star64, 1000000)))
    telemetry = summarize_trace(trace)
    assert telemetry["at_max_clock_pct"] == 50.0
    assert telemetry["clock_mhz"]["min"] == 1000.0
    assert kinds(trace) == ["clock-below-max"]
    assert validity.throttling(validity.findings(trace, telemetry))["throttled"] is True


def test_idle_samples_never_count(tmp_path: Path) -> None:
    """The seeds' 625 MHz trap: clocks read while the workload sleeps are not under load."""
    tree = star64_tree(tmp_path / "t", cur_khz=625000, governor="ondemand")
    telemetry = summarize_trace(run(Machine(tree), idle(6)))
    assert telemetry["samples"] == 8
    assert telemetry["under_load_samples"] == 0
    assert telemetry["at_max_clock_pct"] is None and telemetry["clock_mhz"] is None


def test_half_a_cpu_is_the_load_threshold(star64: Path) -> None:
    trace = run(Machine(star64), loads({"tree_cpus": 0.5}, {"tree_cpus": 0.4},
                                       {"tree_cpus": 2.0}, {"tree_cpus": 0.0}))
    assert under_load(trace) == [False, True, False, True, False, False]


def test_idle_gaps_between_busy_runs(tmp_path: Path) -> None:
    """Between two builds the governor winds down; only the busy samples count."""
    tree = star64_tree(tmp_path / "t", governor="ondemand")
    trace = run(Machine(tree), busy(5) + idle(3, lambda: set_clock(tree, 625000))
                + busy(5, lambda: set_clock(tree, 1500000)))
    telemetry = summarize_trace(trace)
    assert telemetry["at_max_clock_pct"] == 100.0
    assert telemetry["under_load_samples"] == 10 and telemetry["samples"] == 15
    assert [s.mhz[0] for s in trace.readings].count(625.0) == 3


def test_temperature_past_a_trip_point(star64: Path) -> None:
    hot = star64 / "sys/class/thermal/thermal_zone0/temp"
    trace = run(Machine(star64), busy(3) + busy(1, lambda: hot.write_text("86500\n")))
    telemetry = summarize_trace(trace)
    assert telemetry["temperature_c"] == {"idle": 56.9, "peak": 86.5}
    found = validity.findings(trace, telemetry)
    assert [f.kind for f in found] == ["thermal-trip"]
    assert "passive trip 85.0 C" in found[0].detail


def test_sensor_faults_are_discarded(star64: Path) -> None:
    (star64 / "sys/class/thermal/thermal_zone0/temp").write_text("-273000\n")
    telemetry = summarize_trace(run(Machine(star64), busy(2)))
    assert telemetry["temperature_c"] == {"idle": None, "peak": None}


def test_swap_that_grows(star64: Path) -> None:
    meminfo = star64 / "proc/meminfo"

    def swap() -> None:
        meminfo.write_text("MemTotal: 3987456 kB\nMemAvailable: 100000 kB\n"
                           "SwapTotal: 8388604 kB\nSwapFree: 8188604 kB\n")
    trace = run(Machine(star64), busy(1) + busy(1, swap))
    telemetry = summarize_trace(trace)
    assert telemetry["swap_used_max_bytes"] == 200000 * 1024
    assert telemetry["swap_growth_bytes"] == 200000 * 1024
    assert kinds(trace) == ["swap-growth"]


def test_governor_and_time_in_state_findings(tmp_path: Path) -> None:
    tree = star64_tree(tmp_path / "perf")
    stats = tree / "sys/devices/system/cpu/cpu0/cpufreq/stats"
    write_files(stats, {"time_in_state": "1000000 100\n1500000 900"})

    def more_time() -> None:
        (stats / "time_in_state").write_text("1000000 150\n1500000 950\n")
    trace = run(Machine(tree), busy(1, more_time))
    telemetry = summarize_trace(trace)
    assert telemetry["time_below_max_pct"] == 50.0
    assert kinds(trace) == ["time-below-max"]
    ondemand = star64_tree(tmp_path / "ondemand", governor="ondemand")
    trace = run(Machine(ondemand), busy(1))
    found = validity.findings(trace, summarize_trace(trace))
    assert [f.kind for f in found] == ["governor"] and "ondemand" in found[0].detail


def test_stop_is_prompt(star64: Path) -> None:
    """End to end on this machine's real host and clock, with a thread: it waits on an Event,
    so stop() returns without sitting out the hour-long interval; nothing else is asserted
    about time (a sampler that slept through the interval would hang this test)."""
    sampler = Sampler(Sysroot(star64), interval=3600.0, host=LocalHost())
    sampler.start()
    trace = sampler.stop()
    assert len(trace.readings) == 2  # the start and the stop sample
    assert trace.readings[0].t <= trace.readings[1].t
    assert all(s.tree_cpu_s > 0 for s in trace.readings)  # this process has used CPU


def test_missing_sensors_give_reasons_not_crashes(tmp_path: Path) -> None:
    (tmp_path / "proc").mkdir()
    machine = Machine(tmp_path)
    sampler = machine.sampler()
    assert set(sampler.unavailable) == {"cpufreq", "thermal", "memory"}
    assert "cpufreq: no cpufreq under" in (sampler.available() or "")
    assert Sampler(Sysroot(star64_tree(tmp_path / "full")), 0.05).available() is None
    assert "a VM, or no cpufreq driver" in sampler.unavailable["cpufreq"]
    sampler.start(background=False)
    machine.step(tree_cpus=1.0)
    sampler.read()
    telemetry = summarize_trace(sampler.stop())
    assert telemetry["samples"] == 3 and telemetry["memory_used_max_bytes"] is None
    assert telemetry["under_load_samples"] == 1 and telemetry["clock_mhz"] is None


@pytest.mark.skipif(bool(cpufreq.policies(Sysroot())), reason="this machine has cpufreq")
def test_this_vm_reports_why_it_has_no_clocks() -> None:
    sampler = Sampler(Sysroot(), 0.5)
    assert "cpufreq" in sampler.unavailable
    assert "memory" not in sampler.unavailable


def test_under_load_uses_the_system_for_monitor(star64: Path) -> None:
    """``sbcbench monitor`` watches the whole system, not a process tree."""
    trace = run(Machine(star64), loads({"other_cpus": 1.5}, {"other_cpus": 0.2},
                                       {"other_cpus": 0.5}), load_source="system")
    assert [s.system_busy_cpus for s in trace.readings[1:4]] == pytest.approx([1.5, 0.2, 0.5])
    assert under_load(trace) == [False, True, False, True, False]


def test_idle_gate_waits_for_the_load_to_settle(star64: Path) -> None:
    """Scripted clock and sleep: busy 1.0, 0.6, then 0.1 CPUs; the gate opens at 0.75 s."""
    machine = Machine(star64)
    loads = iter([1.0, 0.6, 0.1])
    settled = wait_for_idle(10.0, host=machine.host(), clock=machine.clock,
                            sleep=lambda s: machine.step(other_cpus=next(loads), seconds=s))
    assert settled == (0.75, None)
    stuck = Machine(star64)
    waited, finding = wait_for_idle(1.0, host=stuck.host(), clock=stuck.clock,
                                    sleep=lambda s: stuck.step(other_cpus=2.0, seconds=s))
    assert waited == 1.0 and finding is not None
    assert finding.kind == "background-load" and "2.00 CPUs" in finding.detail


def test_kernel_list_formats() -> None:
    assert cpufreq.parse_cpu_list("0-3,6") == (0, 1, 2, 3, 6)
    assert cpufreq.parse_cpu_list("4 5 6 7\n") == (4, 5, 6, 7)
    assert cpufreq.parse_time_in_state("408000 10\n1800000 25\n") == {408000: 10, 1800000: 25}


def test_policies_are_clusters(tmp_path: Path) -> None:
    cpu = tmp_path / "sys/devices/system/cpu"
    write_files(cpu / "cpufreq/policy0", {"related_cpus": "0-3", "cpuinfo_max_freq": "1800000"})
    write_files(cpu / "cpufreq/policy4", {"related_cpus": "4-7", "cpuinfo_max_freq": "2400000",
                                          "scaling_governor": "schedutil"})
    found = cpufreq.policies(Sysroot(tmp_path))
    assert [(p.name, p.cpus, p.max_khz, p.governor) for p in found] == [
        ("policy0", (0, 1, 2, 3), 1800000, None),
        ("policy4", (4, 5, 6, 7), 2400000, "schedutil")]


def test_sensor_choice(tmp_path: Path) -> None:
    thermal_dir = tmp_path / "sys/class/thermal"
    write_files(thermal_dir / "thermal_zone0", {"type": "gpu-thermal", "temp": "40000"})
    write_files(thermal_dir / "thermal_zone1", {"type": "soc-thermal", "temp": "50000"})
    assert [s.name for s in thermal.choose_sensors(Sysroot(tmp_path))] == ["soc-thermal"]
    hwmon = tmp_path / "hw" / "sys/class/hwmon/hwmon0"
    write_files(hwmon, {"name": "k10temp", "temp1_input": "61250"})
    sensors = thermal.choose_sensors(Sysroot(tmp_path / "hw"))
    assert [s.name for s in sensors] == ["k10temp/temp1_input"]
    assert thermal.read_celsius(Sysroot(tmp_path / "hw"), sensors[0]) == 61.25
    assert not thermal.plausible(151.0) and not thermal.plausible(-41.0)


def test_steal_time_is_a_finding() -> None:
    """A VM whose host hands its CPU time to other guests measures the host, not the board."""
    readings = [Reading(t, (), (), None, None, 0.0, 1.0, (), steal_pct=pct)
                for t, pct in ((0.0, None), (1.0, 10.0), (2.0, 30.0), (2.5, None))]
    trace = Trace(1.0, (), (), (), (), tuple(readings))
    telemetry = summarize_trace(trace)
    assert telemetry["steal_pct"] == 20.0
    (found,) = validity.findings(trace, telemetry)
    assert found.kind == "steal-time" and "20% of this VM's CPU time" in found.detail
    quiet = Trace(1.0, (), (), (), (), tuple(Reading(t, (), (), None, None, 0.0, 1.0, (),
                                                   steal_pct=1.0) for t in (0.0, 1.0)))
    assert summarize_trace(quiet)["steal_pct"] == 1.0 and validity.findings(
        quiet, summarize_trace(quiet)) == []


def test_system_share_from_scripted_counters(star64: Path) -> None:
    """Busy and stolen CPUs between two readings of the kernel's counters."""
    machine = Machine(star64)
    meter = SystemCpu(host=machine.host())
    machine.step(tree_cpus=1.0, other_cpus=0.5, steal_cpus=0.4)
    share = meter.read()
    assert share is not None
    assert (share.busy, share.steal_pct) == pytest.approx((1.5, 10.0))
    assert meter.read() is None  # no time passed since the last reading


def test_system_share_of_this_machine() -> None:
    """This machine's real counters: the figures are in range (how busy it is, is not asked)."""
    host = LocalHost()
    meter = SystemCpu(host=host)
    threading.Event().wait(0.2)  # time passes; the counters advance whatever the load
    share, counters = meter.read(), host.cpu_times()
    assert share is not None and counters is not None
    assert 0 <= share.busy <= counters.cpus and 0 <= share.steal_pct <= 100
