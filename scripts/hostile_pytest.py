"""The hostile cases of issue 14 that need a whole pytest run: bad output locations, symlinks,
concurrent saves, the verify key, a regressed save, and every signal at three moments.

Imported by ``hostile_replay.py`` (which prints the table).  Each case runs real pytest processes
(``python -m pytest``) on a small test file whose stand-in tools announce the moment to send a
signal; the cases and every wait are shared with ``tests/test_interrupts.py`` and
``tests/test_baseline_plugin.py`` in ``tests/interrupting.py`` (events, not sleeps).  A row is as
expected when the exit status and message are the documented ones; nothing is lost when every
pre-existing file is intact (or updated whole, where the case saves), the results of finished tests
were written, no temporary file is left, the governors are back and no child process survives."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hostile_replay import Row, losses, snapshot

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from interrupting import (
    MEET,
    WAIT_S,
    concurrent_runs,
    interrupted_during_save,
    interrupted_when_started,
    pytest_process,
    stand_in,
)

from helpers import star64_tree
from pytest_sbcbench.judge import signing
from pytest_sbcbench.judge.baseline import lock_path

INNER = """
import os
from pathlib import Path
from pytest_sbcbench.measure.tools import run_tool
from pytest_sbcbench.model import Identity, Measurement
""" + MEET + """

def test_a_widget(sbcbench):
    Path("ran").touch()
    meet()  # concurrent runs: both have loaded the baseline before either saves
    samples = tuple(float(x) for x in os.environ["SAMPLES"].split(","))
    sbcbench.record(Measurement("widget", "B/s", "higher", Identity.of(tool="widget"),
                                samples))

def test_b_tool(sbcbench):
    if os.environ.get("TOOL"):
        run_tool([os.environ["TOOL"]], 600, "stand-in tool", expect_output=False)
"""
PLUGINS_OFF = ["-p", "no:cacheprovider", "-p", "no:benchmark", "-p", "no:hypothesispytest"]
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
CASES: list[Callable[[Path], Row]] = []


def case(function: Callable[[Path], Row]) -> Callable[[Path], Row]:
    CASES.append(function)
    return function


@dataclass(frozen=True)
class Run:
    code: int
    output: str


def last_line(text: str, *marks: str) -> str:
    """The line a user looks for: the first containing any of ``marks``, else the last."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for mark in marks:
        for line in lines:
            if mark in line:
                return line
    return lines[-1] if lines else ""


def environ(work: Path, **extra: str) -> dict[str, str]:
    """The cases' environment; saving a run on a captured Star64 tree is a simulation."""
    return {**os.environ, "SAMPLES": "100e6,101e6", "SBCBENCH_SIMULATED_SAVE": "1", **extra}


def pytest_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "pytest", "-q", *PLUGINS_OFF, *args]


def run(work: Path, *args: str, **env: str) -> Run:
    with pytest_process(work, pytest_argv(*args), environ(work, **env),
                        work / "run.log") as proc:
        proc.wait(timeout=WAIT_S)
    return Run(proc.returncode, (work / "run.log").read_text())


def setup(work: Path) -> Path:
    (work / "test_inner.py").write_text(INNER)
    return work / "bl"


def results_of(path: Path) -> list[list[float]]:
    try:
        return [r["samples"] for r in json.loads(path.read_text())["results"]]
    except (OSError, ValueError, KeyError):
        return []


def sessions(path: Path) -> list[list[float]]:
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError):
        return []
    return [s["samples"] for e in doc["entries"] for s in e["sessions"]]


def tree(work: Path) -> tuple[Path, Path]:
    """A Star64 tree (``--board star64``; the tests' helper) with its governors at
    ``ondemand``; returns the tree and its policy's governor file."""
    root = star64_tree(work / "tree", governor="ondemand")
    return root, root / "sys/devices/system/cpu/cpufreq/policy0/scaling_governor"


# -- start-up refusals --------------------------------------------------------------------------

@case
def pytest_device_node(work: Path) -> Row:
    setup(work)
    node = work / "null"
    if os.geteuid() == 0:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    else:
        os.mkfifo(node)
    before = snapshot(work)
    done = run(work, "--sbc-idle-wait", "0", "--sbc-results", str(node))
    ran = (work / "ran").exists()
    return Row("pytest --sbc-results on a device node", str(done.code),
               last_line(done.output, "refusing"), done.code == 4 and not ran,
               losses(before, snapshot(work), lambda k: k == "run.log"))


@case
def pytest_bad_output_paths(work: Path) -> Row:
    setup(work)
    (work / "a-dir").mkdir()
    (work / "a-file").write_text("keep me\n")
    before = snapshot(work)
    done = run(work, "--sbc-idle-wait", "0", "--sbc-results", str(work / "a-dir"),
               "--sbc-report", str(work / "a-file"), "--sbc-trace-dir",
               str(work / "a-file" / "t"), "--sbc-storage-path", str(work / "missing"),
               "--sbc-baselines", str(work / "a-file"), "--sbc-save-baseline")
    listed = sum(line.startswith("  --sbc-") for line in done.output.splitlines())
    ran = (work / "ran").exists()
    return Row("pytest with five bad output paths", str(done.code),
               f"{listed} problems listed at start-up; tests ran: {ran}",
               done.code == 4 and listed == 5 and not ran,
               losses(before, snapshot(work), lambda k: k == "run.log"))


@case
def pytest_verify_key(work: Path) -> Row:
    baselines = setup(work)
    _, public = signing.keygen(work / "lab")
    before = snapshot(work)
    missing = run(work, "--sbc-idle-wait", "0", "--sbc-baselines", str(baselines),
                  "--sbc-verify-key", str(public))
    typo = run(work, "--sbc-idle-wait", "0", "--sbc-baselines", str(baselines),
               "--sbc-verify-key", str(work / "typo.pub"))
    ran = (work / "ran").exists()
    return Row("pytest --sbc-verify-key: no baseline / no key file",
               f"{missing.code}, {typo.code}",
               f"{last_line(missing.output, 'signed baseline')} / "
               f"{last_line(typo.output, 'public key')}",
               (missing.code, typo.code) == (4, 4) and not ran,
               losses(before, snapshot(work), lambda k: k == "run.log"))


# -- saving -------------------------------------------------------------------------------------

@case
def pytest_symlinked_files(work: Path) -> Row:
    baselines = setup(work)
    first = run(work, "--sbc-idle-wait", "0", "--sbc-baselines", str(baselines),
                "--sbc-save-baseline")
    (saved,) = baselines.glob("*.json")
    shared = work / "shared"
    shared.mkdir()
    target = shared / saved.name
    saved.rename(target)
    target.chmod(0o664)
    saved.symlink_to(target)
    (shared / "r.json").write_text("{}\n")
    (shared / "r.json").chmod(0o664)
    (work / "r.json").symlink_to(shared / "r.json")
    before = snapshot(work)
    done = run(work, "--sbc-idle-wait", "0", "--sbc-baselines", str(baselines),
               "--sbc-save-baseline", "--sbc-results", "r.json", SAMPLES="99e6,100e6")
    modes = {stat.S_IMODE(p.stat().st_mode) for p in (target, shared / "r.json")}
    whole = sessions(target) == [[100e6, 101e6], [99e6, 100e6]] and \
        results_of(shared / "r.json") == [[99e6, 100e6]]
    ok = first.code == done.code == 0 and saved.is_symlink() and modes == {0o664} and whole
    return Row("pytest saves through symlinked 0664 baseline and results", str(done.code),
               f"links kept, modes {sorted(f'{m:o}' for m in modes)}, both targets updated: "
               f"{whole}", ok,
               losses(before, snapshot(work), lambda k: k in ("run.log", "shared/r.json",
                                                              f"shared/{saved.name}")))


@case
def pytest_concurrent_saves(work: Path) -> Row:
    baselines = setup(work)
    run(work, "--sbc-idle-wait", "0", "--sbc-baselines", str(baselines), "--sbc-save-baseline")
    (path,) = baselines.glob("*.json")
    before = snapshot(work)
    runs = []
    for name, samples in (("a", "102e6,103e6"), ("b", "104e6,105e6")):
        folder = work / name
        folder.mkdir()
        shutil.copy(work / "test_inner.py", folder)
        runs.append((folder, pytest_argv("--sbc-idle-wait", "0", "--sbc-baselines",
                                         str(baselines), "--sbc-save-baseline"),
                     environ(folder, SAMPLES=samples), folder / "run.log"))
    codes = [code for code, _ in concurrent_runs(runs)]
    kept = sorted(sessions(path))
    ok = codes == [0, 0] and kept == [[100e6, 101e6], [102e6, 103e6], [104e6, 105e6]]
    return Row("two pytest runs save the same baseline at once", ",".join(map(str, codes)),
               f"{len(kept)} sessions after (1 + both runs)", ok,
               losses(before, snapshot(work), lambda k: k == f"bl/{path.name}"))


@case
def pytest_regressed_save(work: Path) -> Row:
    baselines = setup(work)
    args = ["--sbc-idle-wait", "0", "--sbc-baselines", str(baselines), "--sbc-save-baseline"]
    run(work, *args, SAMPLES="6318e6,6195e6")
    run(work, *args, SAMPLES="6095e6,6322e6")
    # the baseline was recorded on the reference kernel: a far session of the same kernel is
    # recorded as drift (issue 22), a regression of another kernel is refused
    for path in baselines.glob("*.json"):
        doc = json.loads(path.read_text())
        for entry in doc["entries"]:
            for session in entry["sessions"]:
                session["environment"]["kernel_release"] = "reference-kernel"
        path.write_text(json.dumps(doc))
    before = snapshot(work)
    done = run(work, *args, SAMPLES="300e6,304e6")
    again = run(work, "--sbc-idle-wait", "0", "--sbc-baselines", str(baselines),
                SAMPLES="300e6,304e6")
    ok = done.code == again.code == 1 and "NOT saved:" in done.output
    return Row("pytest --sbc-save-baseline after a regression", f"{done.code}, {again.code}",
               last_line(done.output, "NOT saved:"), ok,
               losses(before, snapshot(work), lambda k: k == "run.log"))


# -- signals at three moments --------------------------------------------------------------------

def _left(baselines: Path) -> list[str]:
    return [p.name for p in baselines.glob(".*.tmp")] if baselines.is_dir() else []


def during_workload(signum: int) -> Callable[[Path], Row]:
    def replay(work: Path) -> Row:
        baselines = setup(work)
        root, governor = tree(work)
        tool = stand_in(work / "tools", "tool")
        before = snapshot(work)
        done = interrupted_when_started(
            work, pytest_argv("--board", "star64", "--sbc-sysroot", str(root), "--sbc-idle-wait",
                              "0", "--sbc-performance", "--sbc-results", "r.json",
                              "--sbc-baselines", str(baselines), "--sbc-save-baseline"),
            environ(work, TOOL=str(tool)), work / "tools", signum)
        alive_ = done.survivors
        kept = results_of(work / "r.json") == [[100e6, 101e6]]
        restored = governor.read_text().strip() == "ondemand"
        saved = list(baselines.glob("*.json"))
        lost = [w for w, bad in (("results", not kept), ("governor", not restored),
                                 (f"children {alive_}", bool(alive_)),
                                 ("baseline saved", bool(saved))) if bad]
        return Row(f"{signal.Signals(signum).name} during a workload", str(done.code),
                   last_line(done.output, "KeyboardInterrupt", "!!!"),
                   done.code == 2 and "Traceback" not in done.output,
                   ("YES: " + ", ".join(lost)) if lost else
                   losses(before, snapshot(work),  # the governor is checked by value above
                          lambda k: k.startswith(("run.log", "tools")) or k == str(
                              governor.relative_to(work))))
    replay.__name__ = f"signal_workload_{signal.Signals(signum).name}"
    return replay


def during_after_check(signum: int) -> Callable[[Path], Row]:
    """The real-clock check after the run: a stand-in compiler builds a 'loop' that answers
    before the first test and blocks after it."""
    def replay(work: Path) -> Row:
        baselines = setup(work)
        tools = work / "tools"
        loop = stand_in(tools, "loop", unless=str(work / "ran"), reading="100000000 0.3 0")
        cc = tools / "cc"
        cc.write_text(f'#!/bin/sh\ncp "{loop}" "$3" && chmod 755 "$3"\n')
        cc.chmod(0o755)
        before = snapshot(work)
        done = interrupted_when_started(
            work, pytest_argv("-k", "widget", "--sbc-idle-wait", "0", "--sbc-cache",
                              str(work / "cache"), "--sbc-results", "r.json", "--sbc-baselines",
                              str(baselines), "--sbc-save-baseline"),
            environ(work, CC=str(cc)), tools, signum)
        alive_ = done.survivors
        kept = results_of(work / "r.json") == [[100e6, 101e6]]
        saved = list(baselines.glob("*.json"))
        lost = [w for w, bad in (("results", not kept), (f"children {alive_}", bool(alive_)),
                                 ("baseline saved", bool(saved))) if bad]
        return Row(f"{signal.Signals(signum).name} during the real-clock check after the run",
                   str(done.code), last_line(done.output, "interrupted ("),
                   done.code == 2 and "Traceback" not in done.output,
                   ("YES: " + ", ".join(lost)) if lost else
                   losses(before, snapshot(work), lambda k: k.startswith(("run.log", "tools",
                                                                          "cache"))))
    replay.__name__ = f"signal_after_check_{signal.Signals(signum).name}"
    return replay


def during_save(signum: int) -> Callable[[Path], Row]:
    """The save waits for the baseline's lock (held here); the signal arrives then.  A
    caught signal lets the save complete (all or nothing) and exits as interrupted; SIGKILL
    leaves the old baseline whole."""
    def replay(work: Path) -> Row:
        baselines = setup(work)
        root, governor = tree(work)
        args = ["--board", "star64", "--sbc-sysroot", str(root), "--sbc-idle-wait", "0",
                "--sbc-baselines", str(baselines), "--sbc-save-baseline"]
        run(work, *args)
        (path,) = baselines.glob("*.json")
        before = snapshot(work)
        done = interrupted_during_save(
            work, pytest_argv(*args, "--sbc-performance", "--sbc-results", "r.json"),
            environ(work, SAMPLES="102e6,103e6"), lock_path(path), signum)
        kept = results_of(work / "r.json") == [[102e6, 103e6]]
        whole = sessions(path) in ([[100e6, 101e6]], [[100e6, 101e6], [102e6, 103e6]])
        restored = governor.read_text().strip() == "ondemand" or signum == signal.SIGKILL
        lost = [w for w, bad in (("results", not kept), ("baseline", not whole),
                                 ("governor", not restored),
                                 (f"temporaries {_left(baselines)}", bool(_left(baselines))))
                if bad]
        expected = done.code == (-9 if signum == signal.SIGKILL else 2)
        message = (f"baseline sessions after: {len(sessions(path))} (governors stay at "
                   "performance: SIGKILL cannot be caught)" if signum == signal.SIGKILL
                   else last_line(done.output, "interrupted ("))
        return Row(f"{signal.Signals(signum).name} during a save", str(done.code), message,
                   expected and "Traceback" not in done.output,
                   ("YES: " + ", ".join(lost)) if lost else
                   losses(before, snapshot(work),
                          lambda k: k in ("run.log", "r.json", f"bl/{path.name}",
                                          str(governor.relative_to(work)))))
    replay.__name__ = f"signal_save_{signal.Signals(signum).name}"
    return replay


for _signum in SIGNALS:
    case(during_workload(_signum))
    case(during_after_check(_signum))
    case(during_save(_signum))
case(during_save(signal.SIGKILL))
