"""Sampling inside pytest runs, governor handling, traces, real clock."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from widget import WIDGET

from helpers import DATA, needs_openssl, star64_tree, write_files
from pytest_sbcbench.measure import realclock
from pytest_sbcbench.measure.c_helpers import compiler
from pytest_sbcbench.measure.governor import GovernorGuard
from pytest_sbcbench.model import ClockReading, Reading
from pytest_sbcbench.platform.host import USER_HZ, SysrootHost
from pytest_sbcbench.platform.sysroot import Sysroot
from pytest_sbcbench.plugin.state import session_of
from pytest_sbcbench.report.progress import StatusLine

SHA512 = ["benchmarks", "-m", "crypto", "-k", "sha512", "--sbc-quick", "--board", "star64",
          "--sbc-interval", "0.2", "--sbc-idle-wait", "0"]


STAT_LINE = (DATA / "this_machine/proc-pid-stat_bash.txt").read_text().strip()


class ScriptedLoad:
    """The run's sampler clock, scripted: each reading advances ``interval`` seconds and, in the
    captured tree, this process's ``stat`` (the session reads it through the tree's
    :class:`SysrootHost`) by one busy CPU, and the tree's ``stat`` counters by the same
    ticks, the other CPUs idle.  Every interval is then exactly under load, whatever else this
    machine is doing, and nothing else runs beside it (no background load, no steal)."""

    def __init__(self, tree: Path, interval: float = 0.2, cpus: int = 4) -> None:
        self.tree = tree
        self.interval = interval
        self.cpus = cpus
        self.now = 0.0
        self.ticks = 0
        self.write()

    def clock(self) -> float:
        self.now += self.interval
        self.ticks += round(self.interval * USER_HZ)
        self.write()
        return self.now

    def write(self) -> None:
        head, _, tail = STAT_LINE.rpartition(")")  # the captured line, this process's pid
        name = head.partition(" ")[2]
        fields = tail.split()
        fields[11:15] = [str(self.ticks), "0", "0", "0"]
        fields[36] = "0"
        write_files(self.tree / f"proc/{os.getpid()}",
                    {"stat": f"{os.getpid()} {name}) {' '.join(fields)}"})
        idle = (self.cpus - 1) * self.ticks
        per_cpu = "".join(f"cpu{n} 0 0 0 0 0 0 0 0 0 0\n" for n in range(self.cpus))
        (self.tree / "proc/stat").write_text(f"cpu  {self.ticks} 0 0 {idle} 0 0 0 0 0 0\n"
                                             + per_cpu)

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Hand the clock to the run's session (a plugin object of the pytester run)."""
        run = session_of(session.config)
        host = run.target.host
        assert isinstance(host, SysrootHost) and host.sysroot.root == self.tree
        run.clock = self.clock


def run_star64(pytester: pytest.Pytester, tree: Path, *extra: str,
               subprocess: bool = False) -> tuple[pytest.RunResult, dict[str, Any]]:
    """The real openssl under the plugin, the board a captured Star64 tree whose load is
    scripted (in process; ``subprocess`` runs unscripted, for what needs no load)."""
    out = pytester.path / "r.json"
    args = (*SHA512, "--sbc-sysroot", str(tree), "--sbc-results", str(out), *extra)
    if subprocess:
        result = pytester.runpytest_subprocess(*args)
    else:
        result = pytester.runpytest(*args, plugins=[ScriptedLoad(tree)])
    entry: dict[str, Any] = json.loads(out.read_text())["results"][0]
    return result, entry


@needs_openssl
def test_star64_at_full_clock(pytester: pytest.Pytester, tmp_path: Path,
                              copy_benchmarks: Callable[..., None]) -> None:
    copy_benchmarks()
    result, entry = run_star64(pytester, star64_tree(tmp_path / "t"))
    result.assert_outcomes(passed=1)
    telemetry = entry["telemetry"]
    assert telemetry["under_load_samples"] == telemetry["samples"] - 1  # all but the first
    assert telemetry["at_max_clock_pct"] == 100.0
    assert telemetry["temperature_c"]["idle"] == 56.9
    assert telemetry["throttled"] is False
    assert telemetry["findings"] == []


@needs_openssl
def test_star64_held_at_1ghz(pytester: pytest.Pytester, tmp_path: Path,
                             copy_benchmarks: Callable[..., None]) -> None:
    copy_benchmarks()
    tree = star64_tree(tmp_path / "t", cur_khz=1000000)
    result, entry = run_star64(pytester, tree)
    result.assert_outcomes(passed=1)
    assert entry["telemetry"]["under_load_samples"] >= 1
    assert entry["telemetry"]["at_max_clock_pct"] == 0.0
    assert entry["telemetry"]["throttled"] is True
    assert [f["kind"] for f in entry["telemetry"]["findings"]] == ["clock-below-max"]
    result.stdout.fnmatch_lines(["*finding: test_digest?sha512?: clock-below-max*"])
    strict, entry = run_star64(pytester, tree, "--sbc-strict")
    strict.assert_outcomes(failed=1)
    strict.stdout.fnmatch_lines(["*invalid run (--sbc-strict): clock held below max*"])
    assert entry["verdict"]["status"] == "invalid"


def test_performance_governor_is_restored_after_a_test_raises(
        pytester: pytest.Pytester, tmp_path: Path) -> None:
    tree = star64_tree(tmp_path / "t", governor="ondemand")
    files = [tree / "sys/devices/system/cpu/cpufreq/policy0/scaling_governor"]
    devfreq = tree / "sys/class/devfreq/dmc"
    devfreq.mkdir(parents=True)
    (devfreq / "governor").write_text("simple_ondemand\n")
    files.append(devfreq / "governor")
    pytester.makepyfile(f"""
        from pathlib import Path
        def test_raises():
            assert Path({str(files[0])!r}).read_text() == "performance"
            assert Path({str(files[1])!r}).read_text() == "performance"
            raise RuntimeError("a benchmark crashed")
    """)
    result = pytester.runpytest("--sbc-sysroot", str(tree), "--sbc-performance")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*RuntimeError: a benchmark crashed*"])
    assert files[0].read_text().strip() == "ondemand"
    assert files[1].read_text().strip() == "simple_ondemand"


def test_governor_guard_only_restores_what_it_changed(tmp_path: Path) -> None:
    tree = star64_tree(tmp_path / "t", governor="performance")
    guard = GovernorGuard(Sysroot(tree))
    guard.set_performance()
    assert guard.changed == {} and guard.restore() == []


@needs_openssl
def test_trace_dir_gets_csv_and_png(pytester: pytest.Pytester, tmp_path: Path,
                                    copy_benchmarks: Callable[..., None]) -> None:
    copy_benchmarks()
    traces = tmp_path / "traces"
    result, _ = run_star64(pytester, star64_tree(tmp_path / "t"), "--sbc-trace-dir", str(traces),
                           subprocess=True)  # matplotlib loads once per process
    result.assert_outcomes(passed=1)
    (csv_file,) = traces.glob("benchmarks_test_crypto.py_test_digest_sha512-*.csv")
    header = csv_file.read_text().splitlines()[0].split(",")
    assert header[:5] == ["t_s", "cpu0_mhz", "cpu1_mhz", "cpu2_mhz", "cpu3_mhz"]
    assert "temp_c_cpu-thermal" in header and header[-1] == "under_load"
    if importlib.util.find_spec("matplotlib") is None:
        pytest.skip("the PNG needs the 'plot' extra (pip install pytest-sbcbench[plot])")
    png = csv_file.with_suffix(".png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_status_line_only_when_live_and_after_the_delay() -> None:
    reading = Reading(1.0, (1500.0, None), (61.5,), None, None, 0.0, None, ())
    quiet = io.StringIO()
    StatusLine(quiet, "t", live=False, delay=0).update(reading)
    assert quiet.getvalue() == ""
    out = io.StringIO()
    line = StatusLine(out, "test_cipher[aes-128-gcm]", live=True, delay=0)
    line.update(reading)
    assert "test_cipher[aes-128-gcm]" in out.getvalue() and "1500 MHz | 61.5 C" in out.getvalue()
    assert line.close() is True and out.getvalue().endswith("\r\x1b[K")
    stolen = Reading(2.0, (1500.0,), (), None, None, 0.0, None, (), steal_pct=12.4)
    assert line.render(stolen).endswith("1500 MHz | steal 12%")


@pytest.mark.skipif(compiler() is None, reason="no C compiler (apt-get install gcc)")
def test_real_clock_loop_measures_this_machine(tmp_path: Path) -> None:
    readings = realclock.check_clusters(Sysroot(), tmp_path)
    assert readings and all(r.measured_mhz > 100 for r in readings)
    assert list(tmp_path.glob("realclock-*"))  # compiled once, cached


def test_real_clock_output_and_mismatch() -> None:
    assert realclock.parse_output("1000000 0.025600000 7\n") == pytest.approx(2500.0)
    reading = ClockReading(0, 1455.0, 1500.0)
    assert reading.mismatch_pct == pytest.approx(-3.0)
    assert ClockReading(0, 1455.0, None).mismatch_pct is None


def test_a_failed_governor_restore_is_reported(pytester: pytest.Pytester, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    tree = star64_tree(tmp_path / "t", governor="ondemand")
    policy = tree / "sys/devices/system/cpu/cpufreq/policy0/scaling_governor"
    pytester.makepyfile(test_widget=WIDGET + f"""
def test_zz_breaks_the_governor_file():
    p = Path({str(policy)!r})
    p.unlink()
    p.mkdir()  # the restore cannot write here
""")
    monkeypatch.setenv("WIDGET_SAMPLES", "100,101")
    result = pytester.runpytest("--sbc-sysroot", str(tree), "--board", "star64",
                                "--sbc-performance", "--sbc-idle-wait", "0")
    result.assert_outcomes(passed=2, warnings=1)
    result.stdout.fnmatch_lines(["*SbcBenchWarning: could not restore governor*",
                                 "*note: could not restore governor 'ondemand'*policy0*"],
                                consecutive=False)


def test_trace_png_labels_panels_without_data(tmp_path: Path) -> None:
    """No cpufreq, no thermal zone (this VM): no empty clock or temperature panel; the CPU
    use and memory the machine has are drawn, and what was not sampled is said once under
    the panels, with the sampler's reasons.  A child process: matplotlib loads once per
    process."""
    script = """
import json
from pytest_sbcbench.model import Reading, Trace
from pytest_sbcbench.report import trace_figure
from pytest_sbcbench.report.trace import pyplot
readings = tuple(Reading(t, (None, None), (), 1 << 30, 0, t, 1.0, ()) for t in (0.0, 1.0))
tr = Trace(1.0, (0, 1), (None, None), (None, None), (), readings,
           {"cpufreq": "no cpufreq here", "thermal": "no thermal zone here"})
fig = trace_figure.figure(pyplot(), tr, "t")
print(json.dumps({"labels": [ax.get_ylabel() for ax in fig.axes],
                  "texts": [t.get_text() for t in fig.texts]}))
"""
    if importlib.util.find_spec("matplotlib") is None:  # not imported here: see above
        pytest.skip("the PNG needs the 'plot' extra")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, cwd=tmp_path)
    assert json.loads(done.stdout) == {
        "labels": ["busy CPUs", "in use (MiB)"],
        "texts": ["not sampled: clock (no cpufreq here); temperature (no thermal zone here)"]}
