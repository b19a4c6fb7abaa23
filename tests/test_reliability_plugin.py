"""Issue 14, points 1-6, in real pytest runs: nothing lost, nothing clobbered.

Each test reproduces a failure of the report: a results file on a device node, symlinked and
0664 files replaced, concurrent saves losing a session, a verify key bypassed, a regression
saved into the baseline, output paths failing after the run, and signals (real ones, sent to a
real pytest process at a moment the test synchronises on through events its stand-in tools
send, see ``interrupting.py``) losing results or leaving children and governors behind."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from interrupting import (
    MEET,
    concurrent_runs,
    interrupted_during_save,
    interrupted_when_started,
    stand_in,
    survivors,
    watch,
)

from helpers import star64_tree
from pytest_sbcbench.interrupts import Interrupts, deferred
from pytest_sbcbench.judge import signing
from pytest_sbcbench.judge.baseline import lock_path
from pytest_sbcbench.measure.checkout import remove_stale_partials
from pytest_sbcbench.platform.executor import LocalExecutor

needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl not on PATH")

WIDGET = """
import os
from pathlib import Path
from pytest_sbcbench.model import Identity, Measurement
""" + MEET + """

def test_widget(sbcbench):
    Path("ran-" + os.environ.get("WIDGET_NAME", "widget")).touch()
    meet()  # concurrent runs: both have loaded the baseline before either saves
    samples = tuple(float(x) for x in os.environ["WIDGET_SAMPLES"].split(","))
    sbcbench.record(Measurement("widget", "op/s", "higher", Identity.of(tool="widget"),
                                samples))
"""


@pytest.fixture
def widget(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
           ) -> Callable[..., pytest.RunResult]:
    pytester.makepyfile(test_widget=WIDGET)

    def run(samples: str, *args: str) -> pytest.RunResult:
        monkeypatch.setenv("WIDGET_SAMPLES", samples)
        return pytester.runpytest("--sbc-baselines", str(pytester.path / "bl"),
                                  "--sbc-idle-wait", "0", *args)
    return run


def baseline_file(pytester: pytest.Pytester) -> Path:
    (found,) = (pytester.path / "bl").glob("*.json")
    return found


def sessions(path: Path) -> list[list[float]]:
    doc = json.loads(path.read_text())
    return [s["samples"] for e in doc["entries"] for s in e["sessions"]]


# -- 1. writes replace only regular files ------------------------------------------------------

def test_results_on_a_device_node_is_refused_and_the_node_kept(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    """As root, --sbc-results on a character device replaced the node with a regular file."""
    node = pytester.path / "null"
    if os.geteuid() == 0:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a /dev/null of our own
        kind = "a character device"
    else:
        os.mkfifo(node)
        kind = "a FIFO"
    before = os.lstat(node)
    result = widget("100,101", "--sbc-results", str(node))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--sbc-results {node}: is {kind}; refusing to replace it*"])
    after = os.lstat(node)
    assert (after.st_mode, after.st_rdev, after.st_ino) == (before.st_mode, before.st_rdev,
                                                            before.st_ino)
    assert not (pytester.path / "ran-widget").exists()  # refused before any benchmark ran


def test_symlinks_are_followed_and_modes_kept(pytester: pytest.Pytester,
                                              widget: Callable[..., pytest.RunResult]) -> None:
    """A symlinked results file or baseline was replaced by a regular file (the shared target
    never updated), a 0664 baseline became 0600; new files follow the umask."""
    old = os.umask(0o027)
    try:
        widget("100,101,99.5", "--sbc-save-baseline").assert_outcomes(passed=1)
    finally:
        os.umask(old)
    saved = baseline_file(pytester)
    assert stat.S_IMODE(saved.stat().st_mode) == 0o640
    shared = pytester.path / "shared"
    shared.mkdir()
    target = shared / saved.name
    saved.rename(target)
    target.chmod(0o664)
    saved.symlink_to(target)
    results_target = shared / "r.json"
    results_target.write_text("{}\n")
    results_target.chmod(0o664)
    results_link = pytester.path / "r.json"
    results_link.symlink_to(results_target)
    widget("100.5,100,99.8", "--sbc-save-baseline", "--sbc-results",
           str(results_link)).assert_outcomes(passed=1)
    assert saved.is_symlink() and results_link.is_symlink()
    assert sessions(target) == [[100, 101, 99.5], [100.5, 100, 99.8]]
    assert json.loads(results_target.read_text())["results"][0]["samples"] == [100.5, 100, 99.8]
    assert stat.S_IMODE(target.stat().st_mode) == 0o664
    assert stat.S_IMODE(results_target.stat().st_mode) == 0o664


# -- 2. concurrent saves -----------------------------------------------------------------------

def pytest_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args]


def test_two_concurrent_saves_keep_both_sessions(pytester: pytest.Pytester,
                                                 widget: Callable[..., pytest.RunResult]) -> None:
    """Both runs load the baseline, then both save: before the lock, one session was lost."""
    widget("100,101,99.5", "--sbc-save-baseline").assert_outcomes(passed=1)
    argv = pytest_argv("test_widget.py", "--sbc-baselines", str(pytester.path / "bl"),
                       "--sbc-idle-wait", "0", "--sbc-save-baseline")
    done = concurrent_runs([(pytester.path, argv,
                             {"WIDGET_SAMPLES": samples, "WIDGET_NAME": name},
                             pytester.path / f"{name}.log")
                            for name, samples in (("a", "102,103"), ("b", "104,105"))])
    for code, output in done:
        assert code == 0, output
        assert "baseline saved:" in output
    assert sorted(sessions(baseline_file(pytester))) == [[100, 101, 99.5], [102, 103],
                                                         [104, 105]]


# -- 3. --sbc-verify-key cannot be bypassed ----------------------------------------------------

def test_verify_key_without_a_signed_baseline_is_a_usage_error(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    _, public = signing.keygen(pytester.path / "lab")
    result = widget("100,101", "--sbc-verify-key", str(public))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*no signed baseline for this board under --sbc-verify-key*"])
    assert not (pytester.path / "ran-widget").exists()


def test_verify_key_that_does_not_exist_is_a_usage_error(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    widget("100,101", "--sbc-save-baseline").assert_outcomes(passed=1)
    result = widget("100,101", "--sbc-verify-key", str(pytester.path / "typo.pub"))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*typo.pub*cannot read public key*"])


# -- 4. a far boot of the same reference is recorded, not refused ------------------------------

def test_a_far_session_of_the_same_kernel_is_recorded_and_reported(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    """The report: sessions [6318, 6195] and [6095, 6322], then [300, 304].  On the same kernel
    that is drift, not a change (issue 22): refusing it would shrink the drift the gate learns.
    (A result of another kernel still needs --sbc-accept: tests/test_saving_drift.py.)"""
    first = widget("6318,6195", "--sbc-save-baseline")
    first.stdout.no_fnmatch_line("*no baseline for * yet*")  # it was just saved
    first.stdout.fnmatch_lines(["*baseline saved: *(1 result(s); up to 1 session(s)*"])
    widget("6095,6322", "--sbc-save-baseline").assert_outcomes(passed=1)
    path = baseline_file(pytester)
    far = widget("300,304", "--sbc-save-baseline")
    far.assert_outcomes(failed=1)  # judged a regression against the first two sessions
    far.stdout.fnmatch_lines([
        "*baseline saved: *up to 3 session(s) per metric*",
        "*far boot: test_widget.py::test_widget widget: this boot is 95.2% below the other "
        "1 boot(s) of *: recorded; it widens the tolerance*"])
    assert sessions(path)[-1] == [300, 304]


def test_accept_needs_save_baseline(widget: Callable[..., pytest.RunResult]) -> None:
    result = widget("100,101", "--sbc-accept", "test_widget")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--sbc-accept*needs --sbc-save-baseline*"])


# -- 5. every output location is checked before anything runs ---------------------------------

def _bad_paths(root: Path) -> dict[str, tuple[list[str], str]]:
    (root / "a-dir").mkdir()
    (root / "a-file").write_text("keep me\n")
    return {
        "results is a directory": (["--sbc-results", str(root / "a-dir")],
                                   "*--sbc-results*a-dir: is a directory*"),
        "results under a file": (["--sbc-results", str(root / "a-file" / "r.json")],
                                 "*--sbc-results*a-file is not a directory*"),
        "report is a file": (["--sbc-report", str(root / "a-file")],
                             "*--sbc-report*a-file*is not a directory*"),
        "baselines is a file": (["--sbc-baselines", str(root / "a-file"),
                                 "--sbc-save-baseline"],
                                "*--sbc-baselines (with --sbc-save-baseline)*a-file*"),
        "trace dir under a file": (["--sbc-trace-dir", str(root / "a-file" / "traces")],
                                   "*--sbc-trace-dir*a-file is not a directory*"),
        "storage path missing": (["--sbc-storage-path", str(root / "missing")],
                                 "*--sbc-storage-path*missing: not an existing directory*"),
        "baseline file is a directory": (["--sbc-save-baseline"],
                                         "*--sbc-save-baseline*is a directory*"),
    }


BAD = ["results is a directory", "results under a file", "report is a file",
       "baselines is a file", "trace dir under a file", "storage path missing",
       "baseline file is a directory"]


@pytest.mark.parametrize("case", BAD)
def test_a_bad_output_location_stops_the_run_at_start_up(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult], case: str) -> None:
    """Each of these crashed after the whole run (results, summary and save lost)."""
    args, message = _bad_paths(pytester.path)[case]
    if case == "baseline file is a directory":
        widget("100,101", "--sbc-save-baseline").assert_outcomes(passed=1)
        path = baseline_file(pytester)
        path.unlink()
        path.mkdir()
        (pytester.path / "ran-widget").unlink()
    result = widget("100,101", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*unusable output location(s), nothing was run*", message])
    assert not (pytester.path / "ran-widget").exists()
    assert (pytester.path / "a-file").read_text() == "keep me\n"


def test_every_bad_output_location_is_listed_at_once(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    paths = _bad_paths(pytester.path)
    args = [a for case in BAD[:6] if case != "baselines is a file" for a in paths[case][0]]
    result = widget("100,101", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([paths[case][1] for case in BAD[1:6]
                                 if case != "baselines is a file"], consecutive=False)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_a_read_only_baselines_directory_is_refused_when_saving(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    (pytester.path / "bl").mkdir(mode=0o555)
    result = widget("100,101", "--sbc-save-baseline")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*directory*bl is not writable*"])


def test_a_stale_temporary_of_a_killed_save_is_removed(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    """SIGKILL during a save leaves its temporary beside the baseline; the next save (which
    holds the baseline's lock) removes it."""
    widget("100,101", "--sbc-save-baseline").assert_outcomes(passed=1)
    path = baseline_file(pytester)
    stale = path.with_name(f".{path.name}.sbcbench-0123456789ab.tmp")
    stale.write_text('{"schema": "sbcbench-baseline/1", "bo')
    widget("100.5,100", "--sbc-save-baseline").assert_outcomes(passed=1)
    assert not stale.exists() and len(sessions(path)) == 2


# -- 6. signals ----------------------------------------------------------------------------------

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
    env = {"SBCBENCH_OPENSSL": str(stand_in_openssl(tools)), "WIDGET_SAMPLES": "100,101"}

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


# -- governors ------------------------------------------------------------------------------------

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
