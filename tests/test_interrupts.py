"""Signals and interrupts (``interrupts.py``): real signals sent to a real pytest process at a
moment the test synchronises on through events its stand-in tools send (see
``interrupting.py``), during a workload, the real-clock check, a save or a clone: results are
written, children and governors are not left behind.  Issue 14, point 6, is the history: each
test reproduces a failure of the report."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from interrupting import (
    interrupted_during_save,
    interrupted_when_started,
    pytest_argv,
    stand_in,
    survivors,
    watch,
)
from widget import WIDGET, baseline_file, sessions

from helpers import needs_openssl, star64_tree
from pytest_sbcbench.judge.baseline import lock_path
from pytest_sbcbench.measure.checkout import remove_stale_partials
from pytest_sbcbench.platform.executor import LocalExecutor
from pytest_sbcbench.platform.interrupts import Interrupts, deferred

# -- signals during a run --------------------------------------------------------------------------

def stand_in_openssl(folder: Path) -> Path:
    """The real openssl for ``version``; ``speed`` blocks (see ``interrupting.BLOCKING_TOOL``)."""
    real = shutil.which("openssl")
    return stand_in(folder, "openssl", before=f'[ "$1" != speed ] && exec {real} "$@"\n')


SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT]


@needs_openssl
@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_a_signal_during_a_workload(pytester: pytest.Pytester, copy_benchmarks: Callable[..., None],
                                    tmp_path: Path, signum: int) -> None:
    """SIGTERM wrote no results and left the tool running; SIGHUP and SIGQUIT left the
    governors at performance.  Now every signal takes Ctrl-C's path."""
    copy_benchmarks()
    pytester.makepyfile(test_aaa_widget=WIDGET)
    tree = star64_tree(tmp_path / "t", governor="ondemand")
    governor = tree / "sys/devices/system/cpu/cpufreq/policy0/scaling_governor"
    tools = tmp_path / "tools"
    argv = pytest_argv("test_aaa_widget.py", "benchmarks", "-k", "widget or sha512", "--board",
                       "star64", "--sbc-sysroot", str(tree), "--sbc-quick", "--sbc-idle-wait",
                       "0", "--sbc-interval", "0.2", "--sbc-performance", "--sbc-results",
                       "r.json", "--sbc-baselines", "bl", "--sbc-save-baseline")
    env = {"SBCBENCH_OPENSSL": str(stand_in_openssl(tools)), "WIDGET_SAMPLES": "100,101",
           "SBCBENCH_SIMULATED_SAVE": "1"}  # saving a run on a captured tree: a simulation

    def at_performance() -> None:
        assert governor.read_text() == "performance"
    done = interrupted_when_started(pytester.path, argv, env, tools, signum, at_performance)
    assert done.code == pytest.ExitCode.INTERRUPTED, done.output
    results = json.loads((pytester.path / "r.json").read_text())["results"]
    assert [r["samples"] for r in results] == [[100, 101]]
    assert not list((pytester.path / "bl").glob("*.json"))  # an interrupted run saves nothing
    assert governor.read_text().strip() == "ondemand"
    assert done.survivors == []
    assert "Traceback" not in done.output


def stand_in_compiler(folder: Path) -> Path:
    """A ``cc`` whose 'binary' is the real-clock stand-in: before the widget test has run (the
    check before the first workload) it prints a reading; after (the check at the end of the
    run) it blocks."""
    program = stand_in(folder, "realclock.sh", unless="ran-widget", reading="100000000 0.3 0")
    cc = folder / "cc"
    cc.write_text(f'#!/bin/sh\n[ "$1" = --version ] && {{ echo "stand-in cc 1"; exit 0; }}\n'
                  f'cp "{program}" "$3" && chmod 755 "$3"\n')
    cc.chmod(0o755)
    return cc


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM],
                         ids=lambda s: signal.Signals(s).name)
def test_a_signal_during_the_real_clock_check_after_the_run(
        pytester: pytest.Pytester, tmp_path: Path, signum: int) -> None:
    """Ctrl-C during the ~0.3 s real-clock check at the end lost results.json."""
    pytester.makepyfile(test_widget=WIDGET)
    tools = tmp_path / "tools"
    argv = pytest_argv("test_widget.py", "--sbc-idle-wait", "0", "--sbc-cache",
                       str(tmp_path / "cache"), "--sbc-results", "r.json", "--sbc-baselines",
                       "bl", "--sbc-save-baseline")
    env = {"CC": str(stand_in_compiler(tools)), "WIDGET_SAMPLES": "100,101"}
    done = interrupted_when_started(pytester.path, argv, env, tools, signum)
    assert done.code == pytest.ExitCode.INTERRUPTED, done.output
    results = json.loads((pytester.path / "r.json").read_text())["results"]
    assert [r["samples"] for r in results] == [[100, 101]]
    assert "baseline NOT saved to" in done.output and "the run was interrupted" in done.output
    assert not list((pytester.path / "bl").glob("*.json"))
    name = signal.Signals(signum).name
    assert (f"interrupted ({name}) while finishing the run: the results file was written"
            in done.output)
    assert done.survivors == []
    assert "Traceback" not in done.output


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL],
                         ids=lambda s: signal.Signals(s).name)
def test_a_signal_during_a_save(pytester: pytest.Pytester,
                                widget: Callable[..., pytest.RunResult], signum: int) -> None:
    """The save is held on the baseline's lock (taken before the run); the signal arrives
    then.  SIGTERM lets the save complete (a save is all or nothing) and exits as
    interrupted; SIGKILL leaves the old baseline.  Either way the file is whole and the
    results were written first."""
    widget("100,101,99.5", "--sbc-save-baseline").assert_outcomes(passed=1)
    path = baseline_file(pytester)
    before = path.read_bytes()
    argv = pytest_argv("test_widget.py", "--sbc-idle-wait", "0", "--sbc-results", "r.json",
                       "--sbc-baselines", "bl", "--sbc-save-baseline")
    done = interrupted_during_save(pytester.path, argv, {"WIDGET_SAMPLES": "102,103"},
                                   lock_path(path), signum)
    if signum == signal.SIGKILL:
        assert done.code == -signal.SIGKILL and path.read_bytes() == before
    else:
        assert done.code == pytest.ExitCode.INTERRUPTED, done.output
        assert "baseline saved:" in done.output and "interrupted (SIGTERM)" in done.output
        assert sessions(path) == [[100, 101, 99.5], [102, 103]]
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []
    assert json.loads((pytester.path / "r.json").read_text())["results"][0]["samples"] == \
        [102, 103]


CLONING_GIT = """#!/bin/sh
# A stand-in git whose clone never ends and keeps filling the target, as a slow network clone;
# anything else is the real git (pytest-benchmark asks it for commit information).
[ "$1" = clone ] || exec {git} "$@"
for last; do :; done
mkdir -p "$last"
echo $$ > "{dir}/tool.pid"
yes sbcbench | head -c 200000  # started only once the caller reads (see BLOCKING_TOOL)
i=0
while :; do
    echo data > "$last/object-$i"
    [ "$i" = 3 ] && echo started > "{dir}/started"
    i=$((i + 1))
    sleep 0.05
done
"""

CLONE_TEST = """
import os
from pathlib import Path
from pytest_sbcbench.measure.checkout import checkout

def test_clone(sbc_board):
    checkout(os.environ["CLONE_SOURCE"], "abcdef1", Path(os.environ["CLONE_CACHE"]))
"""


@pytest.mark.skipif(shutil.which("git") is None, reason="git not on PATH")
def test_sigterm_during_a_clone_leaves_no_partial_directory(pytester: pytest.Pytester,
                                                            tmp_path: Path) -> None:
    """An interrupted clone left a .partial-* directory that git kept filling after SIGTERM."""
    pytester.makepyfile(test_clone=CLONE_TEST)
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "git").write_text(CLONING_GIT.format(dir=tools, git=shutil.which("git")))
    (tools / "git").chmod(0o755)
    (tmp_path / "src").mkdir()
    cache = tmp_path / "cache"
    env = {"PATH": f"{tools}:{os.environ['PATH']}", "CLONE_SOURCE": str(tmp_path / "src"),
           "CLONE_CACHE": str(cache)}

    def partial() -> None:
        assert list((cache / "checkouts").glob("*.partial-*"))
    done = interrupted_when_started(pytester.path, pytest_argv("test_clone.py",
                                                               "--sbc-idle-wait", "0"),
                                    env, tools, signal.SIGTERM, partial)
    assert done.code == pytest.ExitCode.INTERRUPTED, done.output
    assert done.survivors == []
    assert list((cache / "checkouts").iterdir()) == []


def test_partial_clones_of_dead_runs_are_removed(tmp_path: Path) -> None:
    """SIGKILL cannot be caught: the next clone removes what a killed run left."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    repo = tmp_path / "checkouts" / "repo-0123456789"
    stale = repo.with_name(f"{repo.name}.partial-{dead.pid}")
    (stale / "objects").mkdir(parents=True)
    mine = repo.with_name(f"{repo.name}.partial-{os.getpid()}")
    mine.mkdir()
    assert remove_stale_partials(repo) == [stale]
    assert not stale.exists() and mine.exists()


# -- the executor ----------------------------------------------------------------------------------

@pytest.mark.usefixtures("default_signals")
def test_a_signal_while_a_command_starts_does_not_orphan_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Between the fork and ``Popen`` returning nobody holds the child's pid: an interrupt
    there left the tool running (seen under load).  The signal is sent from inside ``Popen``,
    after the child started: the run must end with KeyboardInterrupt and no child left."""
    real = subprocess.Popen
    pids: list[int] = []

    class SignalledWhileStarting(real):  # type: ignore[valid-type,misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            pids.append(self.pid)
            os.kill(os.getpid(), signal.SIGTERM)  # delivered before Popen returns

    monkeypatch.setattr(subprocess, "Popen", SignalledWhileStarting)
    interrupts = Interrupts()
    interrupts.install()
    try:
        with pytest.raises(KeyboardInterrupt, match="SIGTERM"):
            LocalExecutor().run(["sleep", "600"], timeout=600)
    finally:
        interrupts.uninstall()
        monkeypatch.undo()
    assert pids and survivors(watch(pids)) == []


@pytest.fixture
def default_signals() -> Iterator[None]:
    """The signals these tests send at their defaults while the test runs, whatever this
    suite inherited (``nohup`` ignores SIGHUP, a script's background job SIGINT and SIGQUIT;
    the plugin leaves an ignored signal ignored, by design)."""
    previous = {s: signal.signal(s, signal.SIG_DFL)
                for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)}
    previous[signal.SIGINT] = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    for signum, handler in previous.items():
        signal.signal(signum, handler if handler is not None else signal.SIG_DFL)


@pytest.mark.usefixtures("default_signals")
def test_deferred_holds_one_signal_and_a_second_aborts() -> None:
    """While the results file or a baseline is written, one signal is held (acted on after the
    write); a second aborts at once.  Previous handlers come back afterwards."""
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    with deferred() as held:
        os.kill(os.getpid(), signal.SIGTERM)  # os.kill runs Python handlers before returning
        assert held.received == [signal.SIGTERM]
        with pytest.raises(KeyboardInterrupt, match="SIGHUP"):
            os.kill(os.getpid(), signal.SIGHUP)
    assert {s: signal.getsignal(s) for s in before} == before


def test_the_plugin_puts_previous_signal_handlers_back(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    """While active, SIGTERM/SIGHUP/SIGQUIT are the plugin's; after the run, whatever was
    there before (an embedding program's handler survives a pytest.main call)."""
    def mine(signum: int, frame: object) -> None:
        raise AssertionError("not expected to run")

    previous = signal.signal(signal.SIGTERM, mine)
    pytester.makeconftest("""
import signal
from pathlib import Path

def pytest_runtest_call(item):
    handler = signal.getsignal(signal.SIGTERM)
    Path("handler.txt").write_text(getattr(handler, "__qualname__", str(handler)))
""")
    try:
        widget("100,101").assert_outcomes(passed=1)
        assert (pytester.path / "handler.txt").read_text() == "Interrupts._handle"
        assert signal.getsignal(signal.SIGTERM) is mine
    finally:
        signal.signal(signal.SIGTERM, previous)


SIGNAL_IN_THE_SUMMARY = """
import os
import signal


def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line("summary: signalling")
    os.kill(os.getpid(), signal.SIGTERM)
    terminalreporter.write_line("summary: went on")
"""


@pytest.mark.usefixtures("default_signals")
def test_a_signal_while_the_summary_is_printed(pytester: pytest.Pytester,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31, item 5: SIGTERM while the summary was printed (the files already whole)
    gave a raw ``KeyboardInterrupt: SIGTERM`` traceback and exit 130.  The summary ends, and
    the run exits as interrupted (2) with one line, no traceback."""
    pytester.makepyfile(test_widget=WIDGET)
    pytester.makeconftest(SIGNAL_IN_THE_SUMMARY)
    monkeypatch.setenv("WIDGET_SAMPLES", "100,101,99.5")
    monkeypatch.setenv("WIDGET_VERSION", "1")
    results = pytester.path / "r.json"
    done = pytester.runpytest_subprocess(
        "--sbc-idle-wait", "0", "--sbc-baselines", str(pytester.path / "bl"),
        "--sbc-results", str(results), "-p", "no:cacheprovider")
    output = done.stdout.str() + done.stderr.str()
    assert done.ret == pytest.ExitCode.INTERRUPTED, output
    assert "Traceback" not in output and "KeyboardInterrupt" not in output, output
    assert "summary: went on" in output
    done.stderr.fnmatch_lines(["sbcbench: interrupted (SIGTERM) while the summary was printed*"])
    assert json.loads(results.read_text())["results"]
