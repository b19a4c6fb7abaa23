"""The session: an inert plugin, lazy imports, the run loop, handles, the executor and host
every command and reading goes through, and a built-in module's own marker."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest
from scripted import measure

from helpers import listing_settings, star64_tree
from pytest_sbcbench.errors import SbcBenchError
from pytest_sbcbench.measure.tools import LOOKUP
from pytest_sbcbench.model import Identity, Measurement
from pytest_sbcbench.platform.executor import Completed, Executor, Spawned
from pytest_sbcbench.plugin.state import SESSION_KEY, session_of
from pytest_sbcbench.report.progress import line_end_column
from pytest_sbcbench.run.session import Session
from pytest_sbcbench.settings import Settings
from pytest_sbcbench.workload import BaseWorkload, Context, Plan, TimedRun, Workload, combine
from pytest_sbcbench.workloads import Registry

HEAVY = ("cryptography", "psutil", "matplotlib", "pyperf", "pytest_benchmark",
         "pytest_sbcbench.measure", "pytest_sbcbench.judge", "pytest_sbcbench.report",
         "pytest_sbcbench.platform.probe", "pytest_sbcbench.workloads.crypto",
         # an unused plugin builds no run: none of it, nor the types it would carry
         "pytest_sbcbench.run", "pytest_sbcbench.model", "pytest_sbcbench.workload",
         "pytest_sbcbench.settings")


def test_importing_the_plugin_loads_nothing_heavy() -> None:
    """What a project that merely has the plugin installed pays at start-up."""
    code = "import pytest_sbcbench.plugin, sys; print('\\n'.join(sorted(sys.modules)))"
    modules = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout.split()
    loaded = [m for m in modules if m.startswith(HEAVY)]
    assert loaded == []
    assert "pytest_sbcbench.plugin" in modules


LOADED_BY_A_RUN = """
import sys

def test_nothing_of_the_run_was_imported():
    heavy = ("pytest_sbcbench.run", "pytest_sbcbench.measure", "pytest_sbcbench.judge")
    assert "pytest_sbcbench.plugin" in sys.modules  # the plugin was loaded, and stayed inert
    assert [m for m in sys.modules if m.startswith(heavy)] == []
"""


@pytest.mark.skipif(importlib.util.find_spec("labgrid") is None, reason="labgrid not installed")
def test_an_unrelated_project_with_labgrid_loaded_imports_none_of_the_run(tmp_path: Path) -> None:
    """labgrid's own pytest plugin loaded (installed beside this one) but no environment
    named (no --lg-env, no LG_ENV): a project that does not use this plugin pays nothing for
    the lab layer either."""
    (tmp_path / "test_unrelated.py").write_text(LOADED_BY_A_RUN)
    env = {k: v for k, v in os.environ.items() if k != "LG_ENV"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-p", "labgrid", str(tmp_path)], cwd=tmp_path, capture_output=True,
                          text=True, check=False, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout


UNUSED_PLATFORM = """
import sys

def test_no_platform_module_was_imported():
    unused = ("pytest_sbcbench.platform.sysroot", "pytest_sbcbench.fileio", "hmac", "secrets",
              "pytest_sbcbench.platform.labgrid_env")
    assert "pytest_sbcbench.plugin" in sys.modules
    assert [m for m in unused if m in sys.modules] == []
"""


def test_an_unrelated_run_imports_nothing_it_does_not_use(tmp_path: Path) -> None:
    """Issue 31, item 10: checking the options imported ``platform.sysroot`` (and with it
    ``fileio``, ``secrets`` and ``hmac``) before asking whether --sbc-sysroot was given, and
    the lab check imported ``platform.labgrid_env`` without labgrid's plugin loaded: CPU at
    every pytest start of a project that never uses this plugin."""
    (tmp_path / "test_unrelated.py").write_text(UNUSED_PLATFORM)
    env = {k: v for k, v in os.environ.items() if k != "LG_ENV"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-p", "no:labgrid", str(tmp_path)], cwd=tmp_path,
                          capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 0, done.stdout + done.stderr


UNRELATED = """
import pytest

@pytest.mark.storage
@pytest.mark.crypto
def test_not_a_benchmark():
    assert 1 + 1 == 2
"""


def test_plugin_is_inert_in_an_unrelated_project(pytester: pytest.Pytester,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A test marked ``storage`` in a project that does not use the plugin: no board probe, no
    idle gate or sampler, no subprocess (a stand-in openssl would leave a trace), no cache."""
    cache = pytester.path / "xdg-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    tools = pytester.path / "bin"
    tools.mkdir()
    trace = pytester.path / "openssl-ran"
    (tools / "openssl").write_text(f"#!/bin/sh\ntouch {trace}\necho 'OpenSSL 3.0.19'\n")
    (tools / "openssl").chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    pytester.makepyfile(UNRELATED)
    before = sorted(p.name for p in pytester.path.rglob("*"))
    # pytest's own cache and the optional pytest-benchmark (the ``benchmark`` extra, which
    # makes ``.benchmarks/`` wherever it is installed) are not this plugin: both off
    reprec = pytester.inline_run("-p", "no:cacheprovider", "-p", "no:benchmark")
    reprec.assertoutcome(passed=1)
    config = reprec.getcall("pytest_sessionfinish").session.config
    assert config.stash.get(SESSION_KEY, None) is None  # no run was built: nothing probed
    assert not trace.exists() and not cache.exists()
    after = sorted(p.name for p in pytester.path.rglob("*") if "__pycache__" not in p.parts)
    assert after == before  # not a file, not a directory


class Scripted(BaseWorkload):
    """A real workload whose tool is a list: each sample is the next value (two metrics of the
    same run, like STREAM)."""

    name = "scripted"
    markers = ("scripted",)
    description = "scripted values"

    def __init__(self, values: list[float]) -> None:
        self.values = list(values)
        self.taken = 0

    def plan(self, settings: Settings) -> Plan:
        return Plan(runs=3, quick_runs=2, seconds=0, quick_seconds=0)

    def identity(self, ctx: Context) -> Identity:
        return Identity.of(tool="scripted", version="1")

    def timed_run(self, ctx: Context) -> TimedRun:
        value = self.values[self.taken]
        self.taken += 1
        both = (TimedRun.of("a", "op/s", "higher", value).measurements
                + TimedRun.of("b", "s", "lower", 1 / value, {"kind": "inverse"}).measurements)
        return TimedRun(both, {"run": self.taken})


def session(tmp_path: Path, quick: bool = False) -> Session:
    settings = listing_settings(star64_tree(tmp_path / "t"), quick)
    return Session(settings, list, lambda: Registry(()))


def test_the_loop_takes_the_planned_samples_then_asks(tmp_path: Path) -> None:
    run = session(tmp_path)
    work = Scripted([10.0, 11.0, 12.0, 13.0, 14.0, 15.0])
    a, b = measure(run, "t::x", work)
    assert a.measurement.samples == (10.0, 11.0, 12.0) and a.summary.n == 3
    assert b.measurement.identity.as_dict() == {"tool": "scripted", "version": "1",
                                                "kind": "inverse"}
    assert [r["run"] for r in a.measurement.details["runs"]] == [1, 2, 3]
    asked: list[dict[str, list[float]]] = []

    def more(workload: Workload, measurements: Sequence[Measurement]) -> bool:
        asked.append({m.display_name: list(m.samples) for m in measurements})
        return len(asked[-1]["a"]) < 5
    run.recorder.more_needed = more
    run.recorder.max_runs = 10
    work = Scripted([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    (a, _) = measure(run, "t::y", work)
    assert a.measurement.samples == (1.0, 2.0, 3.0, 4.0, 5.0)
    assert [len(s["a"]) for s in asked] == [3, 4, 5]
    run.recorder.max_runs = 4
    work = Scripted([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    assert measure(run, "t::z", work)[0].summary.n == 4  # the budget holds


class Closing(Scripted):
    """Scripted, counting ``close`` calls; runs out of values like a tool that breaks."""

    def __init__(self, values: list[float]) -> None:
        super().__init__(values)
        self.closed = 0

    def close(self, ctx: Context) -> None:
        self.closed += 1


def test_close_runs_on_every_exit_path(tmp_path: Path) -> None:
    """What prepare made (a board build directory) goes whether the samples succeed or fail."""
    run = session(tmp_path)
    work = Closing([1.0, 2.0, 3.0])
    measure(run, "t::ok", work)
    assert work.closed == 1
    broken = Closing([1.0])  # the second sample fails
    with pytest.raises(IndexError):
        measure(run, "t::broken", broken)
    assert broken.closed == 1


def test_a_handle_says_plainly_when_its_verdict_is_not_final(tmp_path: Path) -> None:
    run = session(tmp_path)
    handle = run.recorder.record(run.target, "t::x",
                                 Measurement("m", "s", "lower", Identity.of(tool="t"), (1.0,)))
    assert not handle.final and handle.summary.median == 1.0
    with pytest.raises(SbcBenchError, match="not final yet; it is given when the test's call"):
        _ = handle.verdict


def test_runs_that_do_not_line_up_are_refused() -> None:
    one = TimedRun.of("a", "s", "lower", 1.0)
    other = TimedRun.of("b", "s", "lower", 1.0)
    with pytest.raises(ValueError, match="run 2 measured b under another identity than run 1"):
        combine("w", Identity.of(tool="t"), [one, other])


def test_line_end_column_uses_public_terminal_api(pytester: pytest.Pytester) -> None:
    """The one adapter over pytest's terminal writer: fails loudly if that API goes away."""
    config = pytester.parseconfigure()
    assert callable(config.get_terminal_writer)
    assert isinstance(line_end_column(config), int)


class Recording:
    """An executor that runs every command on this machine (a real :class:`LocalExecutor`)
    and records it; ``is_local=False`` makes the plugin treat it as a remote board's."""

    def __init__(self, is_local: bool) -> None:
        from pytest_sbcbench.platform.executor import LocalExecutor

        self.inner = LocalExecutor()
        self.name = "recording"
        self.is_local = is_local
        self.argvs: list[tuple[str, ...]] = []

    def run(self, argv: Sequence[str], timeout: float, env: Mapping[str, str] | None = None,
            cwd: str | None = None) -> Completed:
        self.argvs.append(tuple(argv))
        return self.inner.run(argv, timeout, env, cwd)

    def read(self, path: str) -> bytes | None:
        return self.inner.read(path)

    def put(self, local: Path, remote: str) -> None:
        self.inner.put(local, remote)

    def get(self, remote: str, local: Path) -> None:
        self.inner.get(remote, local)

    def spawn(self, argv: Sequence[str], env: Mapping[str, str] | None = None) -> Spawned:
        self.argvs.append(tuple(argv))
        return self.inner.spawn(argv, env)


class UseExecutor:
    """A plugin object that gives the run's session ``executor`` before any test runs."""

    def __init__(self, executor: Executor) -> None:
        self.executor = executor

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        run = session_of(session.config)
        run.target = run.target.replace(executor=self.executor)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl not on PATH")
def test_crypto_workloads_run_every_command_through_the_session_executor(
        pytester: pytest.Pytester, copy_benchmarks: Callable[..., None], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A workload that called a measure function without the context's executor would run
    openssl behind the session's back (on the controller, not the board): every openssl
    command, its lookup and the environment block's version go through the given one."""
    monkeypatch.delenv("SBCBENCH_OPENSSL", raising=False)
    recording = Recording(is_local=False)
    assert isinstance(recording, Executor)
    copy_benchmarks()
    out = pytester.path / "r.json"
    result = pytester.runpytest(
        "benchmarks", "-m", "crypto", "-k", "test_digest and sha256", "--sbc-quick",
        "--sbc-runs", "1", "--sbc-idle-wait", "0", "--board", "star64", "--sbc-sysroot",
        str(star64_tree(tmp_path / "t")), "--sbc-results", str(out),
        plugins=[UseExecutor(recording)])
    result.assert_outcomes(passed=1)
    path = shutil.which("openssl")
    assert recording.argvs[0] == (*LOOKUP, "openssl")
    assert (path, "version") in recording.argvs
    speed = [a for a in recording.argvs if "speed" in a]
    assert len(speed) == 1 and "sha256" in speed[0]
    # pinned to one CPU through the same executor: taskset looked up where commands run
    assert (*LOOKUP, "taskset") in recording.argvs
    assert speed[0][:2] == (shutil.which("taskset"), "-c") and speed[0][3:5] == (path, "speed")
    doc = json.loads(out.read_text())
    assert doc["results"][0]["identity"]["version"] == doc["environment"]["openssl"]


def test_a_captured_tree_replays_through_its_own_host(tmp_path: Path) -> None:
    """With ``--sbc-sysroot`` a captured tree, process and system readings come from the tree
    (hermetic); on this machine they are live."""
    from pytest_sbcbench.platform.host import LocalHost, SysrootHost

    captured = session(tmp_path)
    assert type(captured.target.host) is SysrootHost
    assert captured.target.host.sysroot == captured.settings.sysroot
    work = Scripted([1.0])
    assert captured.context(work).host is captured.target.host
    assert captured.context(work).executor is captured.target.executor
    live = Session(listing_settings(Path("/"), False), list, lambda: Registry(()))
    assert isinstance(live.target.host, LocalHost)


def test_a_tool_is_looked_up_where_commands_run(tmp_path: Path) -> None:
    """Locally the PATH of this process; elsewhere ``command -v`` with the name as an
    argument, never as shell text."""
    from pytest_sbcbench.measure.tools import which

    remote = Recording(is_local=False)
    assert which("sh", executor=remote) == shutil.which("sh")
    hostile = f"x; touch {tmp_path / 'pwned'}"
    assert which(hostile, executor=remote) is None
    assert not (tmp_path / "pwned").exists()
    assert which("no-such-tool-sbcbench", executor=remote) is None
    local = Recording(is_local=True)
    assert which("sh", executor=local) == shutil.which("sh") and local.argvs == []


TINY_TEST = """
import pytest

from pytest_sbcbench.plugin.fixtures import WorkloadRun

pytestmark = pytest.mark.tinymark


def test_tiny(sbc_workload: WorkloadRun) -> None:
    assert sbc_workload.run()
"""


def test_a_built_in_workload_with_its_own_marker_and_test_file(
        pytester: pytest.Pytester, copy_benchmarks: Callable[..., None],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One module plus one registration line (its markers as data): its own test file runs
    alone under ``--strict-markers`` (the marker is registered when pytest starts, before any
    module builds the registry), and ``-m`` selects it over the whole suite."""
    import types

    from pytest_sbcbench import workloads

    class Tiny(Scripted):
        name = "tiny"
        markers = ("tinymark",)
        test = "test_tiny"

        @property
        def param(self) -> str:
            return ""

    tiny = Tiny([1.0, 2.0, 3.0, 4.0])
    module = types.ModuleType("pytest_sbcbench.workloads.tiny")
    module.WORKLOADS = [tiny]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    line = workloads.Registration("tiny", {"tinymark": "a tiny built-in workload"})
    monkeypatch.setattr(workloads, "BUILTIN", (*workloads.BUILTIN, line))
    copy_benchmarks("test_crypto.py", "test_registered.py")
    (pytester.path / "benchmarks" / "test_tiny.py").write_text(TINY_TEST)
    args = ("--strict-markers", "--sbc-idle-wait", "0", "--sbc-quick", "-p", "no:cacheprovider",
            "--sbc-baselines", str(pytester.path / "none"))
    alone = pytester.runpytest("benchmarks/test_tiny.py", *args)
    alone.assert_outcomes(passed=1)
    tiny.taken = 0
    whole = pytester.runpytest("benchmarks", "-m", "tinymark", *args)
    outcomes = whole.parseoutcomes()  # the suite's other tests collected, then deselected
    assert outcomes.get("passed") == 1 and outcomes.get("deselected", 0) > 0, outcomes
