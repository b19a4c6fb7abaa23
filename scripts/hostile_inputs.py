"""The hostile inputs of issue 23 (items 6, 9, 10, 12, 13, 14, 15, 18, 24): poisoned files and
captured trees, each refused where it enters, naming it, with no byte lost.  And the caches of
issue 41 (item 1 and the rule for caches): a signed baseline directory whose summary cache was
edited by hand, a compiled helper forged in the user's cache.

Imported by ``hostile_replay.py``, which prints the table: :data:`CASES` run there one by one
(module calls and the ``sbcbench`` CLI), :data:`PYTEST_CASES` with the other pytest-run cases
(``hostile_pytest.py``), three at a time."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from hostile_pytest import last_line, pytest_argv, setup
from hostile_replay import GOOD, Row, baseline_bytes, call, cli, losses, results_bytes, snapshot

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from interrupting import WAIT_S, pytest_process

from helpers import star64_tree
from pytest_sbcbench.judge import signing
from pytest_sbcbench.judge.baseline import load_baseline, load_verified
from pytest_sbcbench.measure.openssl_parse import parse_speed
from pytest_sbcbench.platform.cpufreq import policies
from pytest_sbcbench.platform.sysroot import BOOT_ID, Sysroot

CASES: list[Callable[[Path], Row]] = []
PYTEST_CASES: list[Callable[[Path], Row]] = []
SECRET = "root:$6$a-secret-of-this-machine"


def case(function: Callable[[Path], Row]) -> Callable[[Path], Row]:
    CASES.append(function)
    return function


def pytest_case(function: Callable[[Path], Row]) -> Callable[[Path], Row]:
    PYTEST_CASES.append(function)
    return function


# -- files that are no regular files (item 9) ---------------------------------------------------

@case
def fifo_baseline(work: Path) -> Row:
    fifo, zero = work / "star64.json", work / "rpi5.json"
    os.mkfifo(fifo)
    zero.symlink_to("/dev/zero")
    before = snapshot(work)
    outcome, message = call(lambda: load_baseline(fifo))
    second, zeroed = call(lambda: load_baseline(zero))
    return Row("baseline is a FIFO / a link to /dev/zero", f"{outcome}, {second}",
               f"{message} / {zeroed}", (outcome, second) == ("error", "error")
               and "FIFO" in message and "character device" in zeroed,
               losses(before, snapshot(work)))


@case
def fifo_verify_key(work: Path) -> Row:
    path = work / "star64.json"
    path.write_bytes(GOOD)
    private, _ = signing.keygen(work / "lab")
    signing.sign(path, private)
    os.mkfifo(work / "fifo.pub")
    before = snapshot(work)
    outcome, message = call(lambda: load_verified(path, work / "fifo.pub"))
    return Row("--sbc-verify-key is a FIFO", outcome, message,
               outcome == "error" and "is a FIFO" in message, losses(before, snapshot(work)))


@case
def fifo_openssl_log(work: Path) -> Row:
    log = work / "speed.log"
    os.mkfifo(log)
    before = snapshot(work)
    code, message = cli(["parse", "openssl", str(log)])
    return Row("sbcbench parse: the log is a FIFO", str(code), message,
               code == 2 and "is a FIFO" in message, losses(before, snapshot(work)))


# -- poisoned baselines (items 6, 14, 18) -------------------------------------------------------

def _compare(name: str, baseline: bytes, expected: str) -> Callable[[Path], Row]:
    def run(work: Path) -> Row:
        path = work / "star64.json"
        path.write_bytes(baseline)
        results = work / "run.json"
        results.write_bytes(results_bytes([100e6, 101e6]))
        before = snapshot(work)
        code, message = cli(["compare", str(path), str(results)])
        return Row(name, str(code), message, code == 2 and str(path) in message
                   and expected in message, losses(before, snapshot(work)))
    run.__name__ = name
    return run


_DUPLICATE = GOOD.replace(b'"samples": [', b'"samples": [100000000.0], "samples": [', 1)
for _name, _bytes, _expected in [
    ("compare: duplicate 'samples' key", _DUPLICATE, "appears twice"),
    ("compare: a 1e29 B/s baseline sample", GOOD.replace(b"100000000.0", b"1e29", 1),
     "malformed baseline"),
    ("compare: samples 1e-300 and 1e300 in two boots",
     baseline_bytes((1e-300, 1e-300), (1e300, 1e300)), "malformed baseline"),
]:
    case(_compare(_name, _bytes, _expected))


@case
def cut_short_record(work: Path) -> Row:
    texts = ("+H:16384\n+F:25:sha256:17",
             "+H:16384\n+F:25:sha256:1700000000.00\n+F:25:sha256:900000000.00\n")
    logs = [work / "cut.log", work / "twice.log"]
    for log, text in zip(logs, texts, strict=True):
        log.write_text(text)
    before = snapshot(work)
    codes = [cli(["parse", "openssl", str(log)])[0] for log in logs]
    messages = [call(lambda text=text: parse_speed(text))[1] for text in texts]
    return Row("openssl output cut mid-record / one figure printed twice",
               ",".join(map(str, codes)), " / ".join(m.split("\n")[0] for m in messages),
               codes == [2, 2] and "ends inside a record" in messages[0]
               and "different figures" in messages[1], losses(before, snapshot(work)))


# -- captured trees (items 12, 15) --------------------------------------------------------------

@case
def boot_id_links_out(work: Path) -> Row:
    root = star64_tree(work / "tree")
    (work / "secret").write_text(SECRET + "\n")
    (root / BOOT_ID).parent.mkdir(parents=True, exist_ok=True)
    (root / BOOT_ID).symlink_to(work / "secret")
    before = snapshot(work)
    outcome, message = call(lambda: Sysroot(root).boot_id())
    return Row("sysroot boot_id links to a file outside the tree", outcome, message,
               outcome == "error" and SECRET not in message, losses(before, snapshot(work)))


@case
def huge_cpu_list(work: Path) -> Row:
    root = star64_tree(work / "tree")
    related = root / "sys/devices/system/cpu/cpufreq/policy0/related_cpus"
    original = related.read_bytes()
    before = snapshot(work)
    related.write_text("0-99999999\n")
    outcome, message = call(lambda: policies(Sysroot(root)))
    related.write_text("0-3,a\n")
    second, garbage = call(lambda: policies(Sysroot(root)))
    related.write_bytes(original)
    return Row("sysroot CPU list 0-99999999 / 0-3,a", f"{outcome}, {second}",
               f"{message} / {garbage}", (outcome, second) == ("error", "error"),
               losses(before, snapshot(work)))


# -- whole pytest runs (items 10, 12, 13, 24) ----------------------------------------------------

def _run(work: Path, *args: str, **env: str) -> tuple[int, str]:
    """One pytest run in ``work`` without the simulation variable the other cases set."""
    environment = {"SAMPLES": "100e6,101e6", **env}
    with pytest_process(work, pytest_argv(*args), environment, work / "run.log") as proc:
        proc.wait(timeout=WAIT_S)
    return proc.returncode, (work / "run.log").read_text()


def _keeps(name: str) -> Callable[[str], bool]:
    return lambda key: key == name


@pytest_case
def pytest_garbage_kernel_files(work: Path) -> Row:
    setup(work)
    root = star64_tree(work / "tree")
    (work / "r.json").write_text('{"kept": true}\n')
    outs = []
    for name, text in (("stat", "cpu  a b c d\n"), ("meminfo", "MemTotal: lots kB\n")):
        (root / "proc" / name).write_text(text)
        before = snapshot(work)
        code, output = _run(work, "--board", "star64", "--sbc-sysroot", str(root),
                            "--sbc-idle-wait", "0", "--sbc-results", "r.json")
        outs.append((code, last_line(output, f"proc/{name}"), losses(
            before, snapshot(work), _keeps("run.log"))))
        (root / "proc" / name).unlink()
    ran = (work / "ran").exists()
    return Row("pytest on a tree with garbage proc/stat / proc/meminfo",
               ",".join(str(o[0]) for o in outs), " / ".join(o[1] for o in outs),
               [o[0] for o in outs] == [4, 4] and not ran,
               "no" if all(o[2] == "no" for o in outs) else "; ".join(o[2] for o in outs))


@pytest_case
def pytest_boot_id_links_out(work: Path) -> Row:
    setup(work)
    root = star64_tree(work / "tree")
    (work / "secret").write_text(SECRET + "\n")
    (root / BOOT_ID).parent.mkdir(parents=True, exist_ok=True)
    (root / BOOT_ID).symlink_to(work / "secret")
    before = snapshot(work)
    code, output = _run(work, "--board", "star64", "--sbc-sysroot", str(root),
                        "--sbc-idle-wait", "0", "--sbc-results", "r.json")
    leaked = SECRET in output or SECRET in _text(work / "r.json")
    return Row("pytest on a tree whose boot_id links out of it", str(code),
               last_line(output, "leads out of the sysroot"), code == 4 and not leaked,
               losses(before, snapshot(work), _keeps("run.log")))


def _text(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


@pytest_case
def pytest_replay_save(work: Path) -> Row:
    baselines = setup(work)
    root = star64_tree(work / "tree")
    before = snapshot(work)
    code, output = _run(work, "--board", "star64", "--sbc-sysroot", str(root),
                        "--sbc-idle-wait", "0", "--sbc-baselines", str(baselines),
                        "--sbc-save-baseline")
    saved = baselines.exists() and any(baselines.iterdir())
    return Row("pytest --sbc-sysroot with --sbc-save-baseline", str(code),
               last_line(output, "this machine's"), code == 4 and not saved,
               losses(before, snapshot(work), _keeps("run.log")))


@pytest_case
def pytest_unsigned_profile(work: Path) -> Row:
    baselines = setup(work)
    code, output = _run(work, "--sbc-idle-wait", "0", "--sbc-baselines", str(baselines),
                        "--sbc-save-baseline")
    (path,) = baselines.glob("*.json")
    private, public = signing.keygen(work / "lab")
    signing.sign(path, private)
    (baselines / "boards").mkdir()
    (baselines / "boards" / path.name).write_text(json.dumps({
        "schema": "sbcbench-board/1", "name": path.stem, "title": "a looser profile",
        "soc": "s", "arch": "x", "clusters": [{"cores": 1, "core": "c", "max_mhz": None}],
        "facts": {"dram_bandwidth_bytes_per_s": 1e15}}))
    before = snapshot(work)
    code, output = _run(work, "--sbc-idle-wait", "0", "--sbc-baselines", str(baselines),
                        "--sbc-verify-key", str(public))
    return Row("pytest --sbc-verify-key, unsigned <baselines>/boards profile", str(code),
               last_line(output, "unsigned board profile"),
               code == 4 and "unsigned board profile" in output,
               losses(before, snapshot(work), _keeps("run.log")))


# -- caches: derived from verified bytes and bound to their digest (issue 41) ------------------

@case
def signed_baseline_through_its_cache(work: Path) -> Row:
    """Item 1: under --sbc-verify-key the numbers judged came from the per-user summary cache,
    which nothing checked: halving the cached values turned inconclusive into improvement."""
    from test_baseline_saves import forget, loaded
    from test_signed_cache import halve_the_cache, signed, verdicts

    from pytest_sbcbench.judge.baseline_store import load_verified

    previous = os.environ.get("SBCBENCH_SUMMARY_CACHE")
    os.environ["SBCBENCH_SUMMARY_CACHE"] = str(work / "cache")
    try:
        forget()
        with contextlib.redirect_stdout(io.StringIO()):  # keygen's and sign's lines
            folder, public = signed(work)
        forget()
        honest = verdicts(load_verified(folder, public, "star64"))
        forget()
        loaded(folder)
        halve_the_cache(folder)
        before = snapshot(work)
        forget()
        plain = verdicts(loaded(folder))
        forget()
        verified = verdicts(load_verified(folder, public, "star64"))
        forget()
    finally:
        if previous is None:
            os.environ.pop("SBCBENCH_SUMMARY_CACHE", None)
        else:
            os.environ["SBCBENCH_SUMMARY_CACHE"] = previous
    return Row("--sbc-verify-key, a signed directory's summary cache halved by hand", "ok",
               f"verified: {sorted(set(verified))} (signed bytes: {sorted(set(honest))}; the "
               f"cache read without a key: {sorted(set(plain))})",
               verified == honest and plain != honest,
               losses(before, snapshot(work), lambda k: k.startswith("cache/")))


@case
def forged_helper_in_the_cache(work: Path) -> Row:
    """The rule for caches: a compiled helper left in the user's cache was run as found."""
    from pytest_sbcbench.measure import c_helpers, stream

    if shutil.which("cc") is None:
        return Row("a forged STREAM binary in the user's cache", "skipped", "no C compiler",
                   True, "no")
    c_helpers._BUILT_HERE.clear()
    kernel = stream.build(work / "cache")
    forged = b"#!/bin/sh\necho 'Triad: 999999.0 MB/s'\n"
    kernel.path.write_bytes(forged)
    c_helpers._BUILT_HERE.clear()  # as a new process finds it
    before = snapshot(work / "cache")
    ran = stream.build(work / "cache").path.read_bytes()
    return Row("a forged STREAM binary in the user's cache (a new process)", "ok",
               "built again from the package's source" if ran != forged else "the forged "
               "binary would run", ran != forged and ran[:4] == b"\x7fELF",
               losses(before, snapshot(work / "cache"), lambda k: k.startswith("stream-")))
