"""Real pytest runs on a loaded host (issue 28 item 6): another process's load makes the
verdict ``invalid`` naming it (undecided, exit 6, in gate mode), never ``regression``; a kernel
thread's load keeps the regression and names the thread.

The other process is real: a shell busy loop started here under a name of its own
(``busy-neighbour``, a symlink to sh, so the kernel's command name is that), outside the
measured run's process tree (the run is a subprocess; the loop is its sibling).  Kernel threads
cannot be made on demand, so that case scripts the machine's counters and process list."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from test_baseline_plugin import FAKE_OPENSSL

from pytest_sbcbench.platform.host import CpuTimes, LocalHost, ProcessUse
from pytest_sbcbench.plugin.state import session_of
from pytest_sbcbench.run.gate import GATE_UNDECIDED

NAME = "busy-neighbour"
DIGEST = ["benchmarks", "-m", "crypto", "-k", "test_digest and sha512", "--sbc-quick",
          "--sbc-runs", "3"]


@contextlib.contextmanager
def busy_loops(folder: Path) -> Iterator[None]:
    """Four busy loops named ``busy-neighbour`` (four, so that group of one name outweighs
    whatever else runs on this machine, even on a host loaded by other jobs), ended by pid
    when the block ends."""
    link = folder / NAME
    link.symlink_to("/bin/sh")
    loops = [subprocess.Popen([str(link), "-c", "while :; do :; done"]) for _ in range(4)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def fake_openssl(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCBENCH_OPENSSL", str(FAKE_OPENSSL))
    monkeypatch.setenv("SBCBENCH_FAKE_SEED", "5")
    monkeypatch.setenv("SBCBENCH_FAKE_STATE", str(pytester.path / "fake-openssl.count"))
    monkeypatch.setenv("SBCBENCH_FAKE_BOOT_OFFSET", "0")


SCALING = ["benchmarks", "-m", "scaling", "-k", "test_openssl_scaling", "--sbc-quick",
           "--sbc-runs", "3"]


def test_another_process_makes_a_wall_time_run_invalid_naming_it(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
        copy_benchmarks: Callable[..., None], tmp_path: Path) -> None:
    """A 30% slower thread scaling (``openssl speed -elapsed`` and ``-multi``: wall time,
    which other work moves; 30% is what the load did on the host of issue 28) measured
    beside the busy loops: the run waits (0.5 s), the loop stays, and each verdict is invalid
    naming it; the run says once that the host never went idle."""
    copy_benchmarks("test_scaling.py")
    fake_openssl(pytester, monkeypatch)
    args = [*SCALING, "--sbc-baselines", str(pytester.path / "bl")]
    pytester.runpytest(*args, "--sbc-idle-wait", "0", "--sbc-save-baseline"
                       ).assert_outcomes(passed=1)
    monkeypatch.setenv("SBCBENCH_FAKE_SHIFT", "-30")
    with busy_loops(tmp_path):
        done = pytester.runpytest_subprocess(*args, "--sbc-idle-wait", "0.5",
                                             "--sbc-results", "r.json")
    assert done.ret == pytest.ExitCode.TESTS_FAILED, done.stdout.str()
    done.stdout.fnmatch_lines(["*invalid run: disturbed by other work: other processes kept "
                               "* CPUs busy beside the benchmark: *"])
    assert "regression:" not in done.stdout.str()
    assert done.stdout.str().count("the host never went idle") == 1
    results = json.loads((pytester.path / "r.json").read_text())["results"]
    assert len(results) >= 2  # 1 thread and the CPU count
    for result in results:
        assert result["identity"]["clock"] == "wall"
        assert result["verdict"]["status"] == "invalid"
        assert "would have been regression" in result["verdict"]["detail"]
        named = {p["name"] for p in result["telemetry"]["background"]["processes"]}
        assert NAME in named
        assert any(f["kind"] == "background-load" and NAME in f["detail"]
                   for f in result["telemetry"]["findings"])


def test_a_cpu_time_rate_beside_another_process_is_judged_naming_it(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
        copy_benchmarks: Callable[..., None], tmp_path: Path) -> None:
    """``openssl speed``'s own rate is per second of its user CPU time (the stand-in gives it
    half of each run's seconds, as two busy loops on two CPUs leave it): the same busy loops
    do not move it, so a 30% slower sha512 beside them is judged a regression, the load and
    openssl's share of the clock said in its line (it was ``invalid``: a loaded machine's
    every candidate result was thrown away); with fewer CPU ticks a run than a rate per CPU
    second needs, it is invalid, saying so."""
    copy_benchmarks()
    fake_openssl(pytester, monkeypatch)
    args = [*DIGEST, "--sbc-baselines", str(pytester.path / "bl")]
    pytester.runpytest(*args, "--sbc-idle-wait", "0", "--sbc-save-baseline"
                       ).assert_outcomes(passed=1)
    monkeypatch.setenv("SBCBENCH_FAKE_SHIFT", "-30")
    monkeypatch.setenv("SBCBENCH_FAKE_CPU_SHARE", "0.5")
    with busy_loops(tmp_path):
        done = pytester.runpytest_subprocess(*args, "--sbc-idle-wait", "0.5",
                                             "--sbc-results", "r.json")
        monkeypatch.setenv("SBCBENCH_FAKE_CPU_SHARE", "0.1")
        starved = pytester.runpytest_subprocess(*args, "--sbc-idle-wait", "0.5",
                                                "--sbc-results", "s.json")
    assert done.ret == pytest.ExitCode.TESTS_FAILED, done.stdout.str()
    done.stdout.fnmatch_lines([
        "*regression: sha512:*; measured beside other work (other processes kept * CPUs busy "
        f"beside the benchmark: *{NAME}*); judged per second of openssl's own user CPU time, "
        "which time-sharing does not move (it had the CPU for 50% of each run)*"])
    (result,) = json.loads((pytester.path / "r.json").read_text())["results"]
    assert result["verdict"]["status"] == "regression"
    assert NAME in str(result["telemetry"]["disturbed"]["load"])
    assert [r["cpu_s"] for r in result["details"]["runs"]] == [0.5] * len(result["samples"])
    (coarse,) = json.loads((pytester.path / "s.json").read_text())["results"]
    assert coarse["verdict"]["status"] == "invalid", starved.stdout.str()
    assert "10 ticks of its 0.01 s clock, fewer than the 25 a rate per CPU second needs" \
        in coarse["verdict"]["detail"]


def test_gate_mode_is_undecided_beside_another_process(
        widget: Callable[..., pytest.RunResult], monkeypatch: pytest.MonkeyPatch,
        pytester: pytest.Pytester, tmp_path: Path) -> None:
    """The gate's slower widget (a regression, exit 1, on a quiet host) measured beside the
    loop: exit 6, the widget invalid, no regression.  The widget records once its sampler
    has read the loop and attributed it (``WIDGET_AWAIT_LOAD``: a condition of the sampler,
    so the outcome does not hang on how the sampler's thread and the test interleave); the
    measurement's own window names the loop.  The baseline boots are saved without host
    checks (``--sbc-idle-wait 0``)."""
    for boot, samples in enumerate(("100,101,99.5", "100.5,100,99.8")):
        monkeypatch.setenv("SBCBENCH_BOOT_ID", f"boot-{boot}")
        widget(samples, "--sbc-save-baseline").assert_outcomes(passed=1)
    monkeypatch.setenv("SBCBENCH_BOOT_ID", "candidate")
    monkeypatch.setenv("WIDGET_SAMPLES", "80,80.5,79.8")
    monkeypatch.setenv("WIDGET_AWAIT_LOAD", "1")
    with busy_loops(tmp_path):
        done = pytester.runpytest_subprocess("--sbc-baselines", str(pytester.path / "bl"),
                                             "--sbc-interval", "0.2",
                                             "--sbc-idle-wait", "0.5", "--sbc-gate",
                                             "--sbc-candidate", "slower", "--sbc-results",
                                             "r.json")
    assert done.ret == GATE_UNDECIDED, done.stdout.str()
    done.stdout.fnmatch_lines(["*gate: undecided, exit 6: 1 metric neither passed nor "
                               "regressed: widget (invalid)*"])
    assert "regression" not in done.stdout.str().split("gate: undecided")[1]
    (result,) = json.loads((pytester.path / "r.json").read_text())["results"]
    assert "would have been regression" in result["verdict"]["detail"]
    # the measurement's own window saw the loop (not only the idle gate before the test)
    assert NAME in {p["name"] for p in result["telemetry"]["background"]["processes"]}


class KernelBusy(LocalHost):
    """This machine, except its counters and process list: both CPUs busy all the time, a
    kworker using one of them, nothing else (so the idle gate never settles and nothing but
    the kernel is there to blame)."""

    def __init__(self) -> None:
        super().__init__()
        self.ticks = 0.0
        self.kworker = 0

    def cpu_times(self) -> CpuTimes:
        self.ticks += 200.0  # two CPUs' worth of ticks since the last reading, none idle
        return CpuTimes(total=self.ticks, idle=0.0, steal=0.0, cpus=2)

    def processes(self) -> tuple[ProcessUse, ...]:
        self.kworker += 100
        return (ProcessUse(2, "kthreadd", 0, True),
                ProcessUse(93, "kworker/u4:2", self.kworker, True))

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        run = session_of(session.config)
        run.target = run.target.replace(host=self)


def test_kernel_threads_keep_the_regression_and_are_named(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult],
        monkeypatch: pytest.MonkeyPatch) -> None:
    widget("100,101,99.5", "--sbc-save-baseline").assert_outcomes(passed=1)
    monkeypatch.setenv("WIDGET_SAMPLES", "80,80.5,79.8")
    done = pytester.runpytest("--sbc-baselines", str(pytester.path / "bl"), "--sbc-idle-wait",
                              "0.5", "--sbc-results", "r.json", plugins=[KernelBusy()])
    done.assert_outcomes(failed=1)
    done.stdout.fnmatch_lines(["*regression: widget:*(kernel threads kept * CPUs busy beside "
                               "the benchmark: kworker/u4:2 (pid 93) * CPUs: the kernel's own "
                               "work, so the verdict stands)*"])
    (result,) = json.loads((pytester.path / "r.json").read_text())["results"]
    assert result["verdict"]["status"] == "regression"
    assert [f["kind"] for f in result["telemetry"]["findings"]].count("kernel-threads") == 1


def test_this_machine_lists_kernel_threads() -> None:
    """kthreadd and its children are kernel threads here; this process is not."""
    found = {p.pid: p for p in LocalHost().processes()}
    assert found[2].kernel and not found[os.getpid()].kernel
