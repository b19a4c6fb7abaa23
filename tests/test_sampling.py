"""Samplers on fake sysroot trees that the test rewrites while the sampler runs."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import burn, star64_tree, write_files
from pytest_sbcbench.judge import validity
from pytest_sbcbench.judge.telemetry import summarize_trace, under_load
from pytest_sbcbench.measure.cputime import SystemCpu
from pytest_sbcbench.measure.sampler import Sample, Sampler, Trace
from pytest_sbcbench.platform import cpufreq, thermal
from pytest_sbcbench.platform.sysroot import Sysroot


def run_sampled(tree: Path, during: Callable[[], None], interval: float = 0.1) -> Trace:
    sampler = Sampler(Sysroot(tree), interval)
    sampler.start()
    try:
        during()
    finally:
        trace = sampler.stop()
    return trace


def board_findings(trace: Trace, telemetry: dict[str, Any]) -> list[validity.Finding]:
    """Findings about the (fake) board: steal time is the real host's, whatever the tree says."""
    return [f for f in validity.findings(trace, telemetry) if f.kind != "steal-time"]


def set_clock(tree: Path, khz: int) -> None:
    for cpu in range(4):
        (tree / f"sys/devices/system/cpu/cpu{cpu}/cpufreq/scaling_cur_freq").write_text(f"{khz}\n")


def test_full_clock_under_load(star64: Path) -> None:
    def work() -> None:
        burn(0.8).wait()
    telemetry = summarize_trace(run_sampled(star64, work))
    assert telemetry["under_load_samples"] >= 3
    assert telemetry["at_max_clock_pct"] == 100.0
    assert telemetry["clock_mhz"] == {"min": 1500.0, "median": 1500.0, "max": 1500.0}
    assert telemetry["temperature_c"] == {"idle": 56.9, "peak": 56.9}


def test_clock_that_drops_mid_run_is_found(star64: Path) -> None:
    def work() -> None:
        proc = burn(1.0)
        time.sleep(0.5)
        set_clock(star64, 1000000)
        proc.wait()
    trace = run_sampled(star64, work)
    telemetry = summarize_trace(trace)
    assert 0 < telemetry["at_max_clock_pct"] < 100
    assert telemetry["clock_mhz"]["min"] == 1000.0
    kinds = [f.kind for f in board_findings(trace, telemetry)]
    assert kinds == ["clock-below-max"]
    assert validity.throttling(board_findings(trace, telemetry))["throttled"] is True


def test_idle_samples_never_count(tmp_path: Path) -> None:
    """The seeds' 625 MHz trap: clocks read while the workload sleeps are not under load."""
    tree = star64_tree(tmp_path / "t", cur_khz=625000, governor="ondemand")

    def work() -> None:
        subprocess.run(["sleep", "0.6"], check=True)
    telemetry = summarize_trace(run_sampled(tree, work))
    assert telemetry["samples"] >= 4
    assert telemetry["under_load_samples"] == 0
    assert telemetry["at_max_clock_pct"] is None and telemetry["clock_mhz"] is None


def test_idle_gaps_between_busy_runs(tmp_path: Path) -> None:
    """Between two builds the governor winds down; only the busy samples count."""
    tree = star64_tree(tmp_path / "t", governor="ondemand")

    def work() -> None:
        burn(0.5).wait()
        time.sleep(0.3)  # the governor winds down only once the build is over
        set_clock(tree, 625000)
        time.sleep(0.5)
        set_clock(tree, 1500000)
        time.sleep(0.3)
        burn(0.5).wait()
    trace = run_sampled(tree, work)
    telemetry = summarize_trace(trace)
    assert telemetry["at_max_clock_pct"] == 100.0
    assert telemetry["under_load_samples"] < telemetry["samples"] - 3
    assert any(s.mhz[0] == 625.0 for s in trace.samples)


def test_temperature_past_a_trip_point(star64: Path) -> None:
    def work() -> None:
        proc = burn(0.6)
        time.sleep(0.3)
        (star64 / "sys/class/thermal/thermal_zone0/temp").write_text("86500\n")
        proc.wait()
    trace = run_sampled(star64, work)
    telemetry = summarize_trace(trace)
    assert telemetry["temperature_c"] == {"idle": 56.9, "peak": 86.5}
    found = board_findings(trace, telemetry)
    assert [f.kind for f in found] == ["thermal-trip"]
    assert "passive trip 85.0 C" in found[0].detail


def test_sensor_faults_are_discarded(star64: Path) -> None:
    (star64 / "sys/class/thermal/thermal_zone0/temp").write_text("-273000\n")
    telemetry = summarize_trace(run_sampled(star64, lambda: time.sleep(0.2)))
    assert telemetry["temperature_c"] == {"idle": None, "peak": None}


def test_swap_that_grows(star64: Path) -> None:
    meminfo = star64 / "proc/meminfo"

    def work() -> None:
        time.sleep(0.25)
        meminfo.write_text("MemTotal: 3987456 kB\nMemAvailable: 100000 kB\n"
                           "SwapTotal: 8388604 kB\nSwapFree: 8188604 kB\n")
        time.sleep(0.25)
    trace = run_sampled(star64, work)
    telemetry = summarize_trace(trace)
    assert telemetry["swap_used_max_bytes"] == 200000 * 1024
    assert telemetry["swap_growth_bytes"] == 200000 * 1024
    assert [f.kind for f in board_findings(trace, telemetry)] == ["swap-growth"]


def test_governor_and_time_in_state_findings(tmp_path: Path) -> None:
    tree = star64_tree(tmp_path / "perf")
    stats = tree / "sys/devices/system/cpu/cpu0/cpufreq/stats"
    write_files(stats, {"time_in_state": "1000000 100\n1500000 900"})

    def work() -> None:
        time.sleep(0.2)
        (stats / "time_in_state").write_text("1000000 150\n1500000 950\n")
    trace = run_sampled(tree, work)
    telemetry = summarize_trace(trace)
    assert telemetry["time_below_max_pct"] == 50.0
    assert [f.kind for f in board_findings(trace, telemetry)] == ["time-below-max"]
    ondemand = star64_tree(tmp_path / "ondemand", governor="ondemand")
    trace = run_sampled(ondemand, lambda: time.sleep(0.1))
    found = board_findings(trace, summarize_trace(trace))
    assert [f.kind for f in found] == ["governor"] and "ondemand" in found[0].detail


def test_stop_is_prompt(star64: Path) -> None:
    """The thread waits on an Event, so stop() does not sit out a long interval."""
    sampler = Sampler(Sysroot(star64), interval=30.0)
    sampler.start()
    began = time.monotonic()
    trace = sampler.stop()
    assert time.monotonic() - began < 15.0
    assert len(trace.samples) == 2  # the start and the stop sample


def test_missing_sensors_give_reasons_not_crashes(tmp_path: Path) -> None:
    (tmp_path / "proc").mkdir()
    sampler = Sampler(Sysroot(tmp_path), 0.05)
    assert set(sampler.unavailable) == {"cpufreq", "thermal", "memory"}
    assert "cpufreq: no cpufreq under" in (sampler.available() or "")
    assert Sampler(Sysroot(star64_tree(tmp_path / "full")), 0.05).available() is None
    assert "a VM, or no cpufreq driver" in sampler.unavailable["cpufreq"]
    sampler.start()
    time.sleep(0.12)
    telemetry = summarize_trace(sampler.stop())
    assert telemetry["samples"] >= 3 and telemetry["memory_used_max_bytes"] is None


@pytest.mark.skipif(bool(cpufreq.policies(Sysroot())), reason="this machine has cpufreq")
def test_this_vm_reports_why_it_has_no_clocks() -> None:
    sampler = Sampler(Sysroot(), 0.5)
    assert "cpufreq" in sampler.unavailable
    assert "memory" not in sampler.unavailable


def test_under_load_uses_the_system_for_monitor(star64: Path) -> None:
    sampler = Sampler(Sysroot(star64), 0.1, load_source="system")
    sampler.start()
    burn(0.5).wait()
    trace = sampler.stop()
    assert any(under_load(trace))


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
    samples = [Sample(t, (), (), None, None, 0.0, 1.0, (), steal_pct=pct)
               for t, pct in ((0.0, None), (1.0, 10.0), (2.0, 30.0), (2.5, None))]
    trace = Trace(1.0, (), (), (), (), tuple(samples))
    telemetry = summarize_trace(trace)
    assert telemetry["steal_pct"] == 20.0
    (found,) = validity.findings(trace, telemetry)
    assert found.kind == "steal-time" and "20% of this VM's CPU time" in found.detail
    quiet = Trace(1.0, (), (), (), (), tuple(Sample(t, (), (), None, None, 0.0, 1.0, (),
                                                   steal_pct=1.0) for t in (0.0, 1.0)))
    assert summarize_trace(quiet)["steal_pct"] == 1.0 and validity.findings(
        quiet, summarize_trace(quiet)) == []


def test_system_share_of_this_machine() -> None:
    meter = SystemCpu()
    burn(0.3).wait()
    share = meter.read()
    assert share is not None and share.busy > 0 and 0 <= share.steal_pct <= 100
