"""The board-side sampler: its ``sh`` script run by a real local ``sh`` against a captured board
tree, parsed into the same Trace, telemetry and validity findings the local sampler gives."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import DATA
from pytest_sbcbench.errors import ParseError
from pytest_sbcbench.judge.telemetry import sampler_cost, summarize_trace
from pytest_sbcbench.judge.validity import findings
from pytest_sbcbench.measure.board_sampler import (
    BoardSampler,
    parse_cpu_seconds,
    parse_line,
    parse_lines,
    sampler_argv,
)
from pytest_sbcbench.measure.sampler import Sampler
from pytest_sbcbench.model import Reading, Trace
from pytest_sbcbench.platform.executor import LocalExecutor
from pytest_sbcbench.platform.sysroot import Sysroot

CLK_TCK = os.sysconf("SC_CLK_TCK")  # the board is this machine

STAT = DATA / "this_machine" / "proc-stat_cpu-lines_2vcpu.txt"
PROC_PID_STAT = DATA / "this_machine" / "proc-pid-stat_board-sampler-sh.txt"


def busier(stat: str, cpu: str, ticks: int) -> str:
    """The stat lines ``ticks`` later with ``cpu`` busy in user time and the others idle."""
    out = []
    for line in stat.splitlines():
        name, *values = line.split()
        counts = [int(v) for v in values]
        if name == cpu:
            counts[0] += ticks
        elif name == "cpu":
            counts[0] += ticks
            counts[3] += ticks * (len(stat.splitlines()) - 2)
        else:
            counts[3] += ticks
        out.append(" ".join([name, *map(str, counts)]))
    return "\n".join(out) + "\n"


def board(star: Path) -> Path:
    """The Star64 tree plus the kernel's stat (real cpu lines, two CPUs) and uptime."""
    (star / "proc/stat").write_text(STAT.read_text())
    (star / "proc/uptime").write_text("100.00 180.00\n")
    return star


def throttle(root: Path) -> None:
    for cpu in range(4):
        (root / f"sys/devices/system/cpu/cpu{cpu}/cpufreq/scaling_cur_freq").write_text(
            "1000000\n")
    (root / "sys/class/thermal/thermal_zone0/temp").write_text("90500\n")
    (root / "proc/stat").write_text(busier(STAT.read_text(), "cpu0", 100))
    (root / "proc/uptime").write_text("101.00 181.00\n")


def two_readings(root: Path, change: Callable[[Path], None] | None = throttle) -> list[str]:
    """First reading, then ``change`` the tree, then TERM: the last reading.  No timing involved:
    the interval is a minute (far longer than the test), so exactly two lines come out.  (A
    TERM landing as the sampler forks its sleep leaves that sleep to end on its own: it does not
    hold the output, and it is gone within the interval.)"""
    with subprocess.Popen(sampler_argv(60, str(root)), stdout=subprocess.PIPE,
                          text=True) as proc:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        if change is not None:
            change(root)
        proc.terminate()
        rest = proc.stdout.read().splitlines()
        assert proc.wait(timeout=30) == 0
    return [first, *rest]


def test_same_layout_and_readings_as_the_local_sampler(star64: Path) -> None:
    board(star64)
    local = Sampler(Sysroot(star64), 1.0)
    first = local.read()
    trace = parse_lines(two_readings(star64), 1.0)
    assert trace.cpus == local.cpus == (0, 1, 2, 3)
    assert trace.max_mhz == local.max_mhz
    assert trace.governors == local.governors
    assert trace.sensors == local.sensors  # names, paths and trip points
    got = trace.readings[0]
    assert (got.mhz, got.temps_c, got.mem_used, got.swap_used) == \
        (first.mhz, first.temps_c, first.mem_used, first.swap_used)
    assert trace.load_source == "system" and trace.unavailable == {}


def test_throttling_gives_the_same_findings(star64: Path) -> None:
    board(star64)
    trace = parse_lines(two_readings(star64), 1.0)
    last = trace.readings[-1]
    assert last.t == 1.0 and last.busy_cpus == (0,)
    assert last.system_busy_cpus == pytest.approx(1.0)
    assert last.mhz == (1000.0,) * 4 and last.temps_c == (90.5,)
    telemetry = summarize_trace(trace)
    assert telemetry["under_load_samples"] == 1 and telemetry["at_max_clock_pct"] == 0.0
    kinds = sorted(f.kind for f in findings(trace, telemetry))
    assert kinds == ["clock-below-max", "thermal-trip"]


def test_missing_probes_give_reasons(tmp_path: Path) -> None:
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/stat").write_text(STAT.read_text())
    (tmp_path / "proc/uptime").write_text("5.00 9.00\n")
    trace = parse_lines(two_readings(tmp_path, None), 1.0)
    assert set(trace.unavailable) == {"cpufreq", "thermal", "memory"}
    assert trace.readings[0].mem_used is None


@pytest.mark.parametrize("line, reason", [
    ("garbage", "starts with"),
    ("S 1.0|C cpu 1 2 3 4 5 6 7 8", "no meminfo"),
    ("S 1.0|M 1 2 3 4", "no meminfo record or no total cpu line"),
    ("S 1.0|C cpu 1 2 3|M 1 2 3 4", "fewer than 8"),
    ("S 1.0|X what|C cpu 1 2 3 4 5 6 7 8|M 1 2 3 4", "unknown record"),
    ("S 1.0|F cpux 1 2 g|C cpu 1 2 3 4 5 6 7 8|M 1 2 3 4", "not a cpu name"),
])
def test_broken_lines_are_parse_errors(line: str, reason: str) -> None:
    with pytest.raises(ParseError, match=reason):
        parse_line(line)


def test_no_lines_is_an_error() -> None:
    with pytest.raises(ParseError, match="no sample lines"):
        parse_lines([], 1.0)


def test_own_cpu_time_from_a_real_stat_line() -> None:
    """utime+stime+cutime+cstime (fields 14-17) of a captured board-sampler ``sh``."""
    text = PROC_PID_STAT.read_text()
    fields = text[text.rindex(")") + 2:].split()
    expected = sum(int(fields[i]) for i in (11, 12, 13, 14)) / 100
    assert parse_cpu_seconds(text, 100) == expected
    assert parse_cpu_seconds("1 (a) b) S 0 0 0 0 0 0 0 0 0 0 1 2 3 4 0", 100) == 0.1
    with pytest.raises(ParseError):
        parse_cpu_seconds("not a stat line", 100)


def test_board_sampler_through_the_local_executor() -> None:
    """The same sampler object runs here through LocalExecutor (the board is this machine):
    the first sample is in when start() returns, and its own CPU time is read from the
    kernel's stat file of its sh."""
    sampler = BoardSampler(LocalExecutor(), 0.2)
    sampler.start()
    assert len(sampler.lines) == 1
    LocalExecutor().run(["sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"],
                        timeout=120)
    trace = sampler.stop()
    assert trace.readings and trace.readings[0].t == 0.0 and trace.load_source == "system"
    assert sampler.cpu_s is not None  # clock ticks of its sh, over the kernel's tick rate
    assert round(sampler.cpu_s * CLK_TCK) == pytest.approx(sampler.cpu_s * CLK_TCK)
    assert trace.sampler_cpu_s == sampler.cpu_s  # its cost travels with the trace
    cost = summarize_trace(trace)["sampler_cost"]
    assert cost is not None and cost["cpu_s"] == round(sampler.cpu_s, 4)


def reading_at(t: float) -> Reading:
    return Reading(t=t, mhz=(), temps_c=(), mem_used=None, swap_used=None, tree_cpu_s=0.0,
                  system_busy_cpus=None, busy_cpus=())


def test_sampler_cost_in_telemetry() -> None:
    """The board sampler's own CPU time and its share of one CPU over the trace's span (the
    README's 0.35 %: 35 ms of CPU over 10 s); none measured, none claimed."""
    trace = Trace(1.0, (), (), (), (), (reading_at(0.0), reading_at(4.0), reading_at(10.0)),
                  load_source="system", sampler_cpu_s=0.035)
    assert summarize_trace(trace)["sampler_cost"] == {"cpu_s": 0.035, "one_cpu_pct": 0.35}
    assert sampler_cost(Trace(1.0, (), (), (), (), (reading_at(0.0),), sampler_cpu_s=0.01)) \
        == {"cpu_s": 0.01, "one_cpu_pct": None}  # one sample: no span to share it over
    assert sampler_cost(Trace(1.0, (), (), (), (), (reading_at(0.0), reading_at(1.0)))) is None


def test_local_sampler_states_its_thread_cost(star64: Path) -> None:
    """The local sampler's thread CPU time lands in the same telemetry field; a sampler driven
    without its thread (``sbcbench monitor``) claims no cost."""
    board(star64)
    threaded = Sampler(Sysroot(star64), 3600.0)
    threaded.start()
    trace = threaded.stop()
    # set by the thread as it ended (the CPU time it ran, in nanoseconds: never none)
    assert trace.sampler_cpu_s == threaded.thread_cpu_s and threaded.thread_cpu_s > 0
    assert summarize_trace(trace)["sampler_cost"]["cpu_s"] == round(threaded.thread_cpu_s, 4)
    stepped = Sampler(Sysroot(star64), 1.0)
    stepped.start(background=False)
    assert stepped.stop().sampler_cpu_s is None
