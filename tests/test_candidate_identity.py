"""A candidate is one thing (issue 28, item 4): a label's boots must have booted the same kernel,
image, command line, CPUs online and device tree.  Real pytest runs with the stand-in openssl,
boots named by ``SBCBENCH_BOOT_ID``, the booted facts read from a captured tree
(``--sbc-sysroot``) whose CPUs online differ between boots (as ``maxcpus=1`` would)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from helpers import REPO, star64_tree

FAKE_OPENSSL = REPO / "scripts" / "fake-openssl" / "openssl"
ARGS = ["benchmarks", "-m", "crypto", "-k", "test_digest and sha256", "--sbc-quick",
        "--sbc-runs", "3", "--sbc-idle-wait", "0", "--sbc-interval", "0.2"]
Boot = Callable[..., pytest.RunResult]
BUILDS = ("1a2b3c4d", "5e6f7a8b")


def tree(root: Path, cpus_online: str, release: str | None = None) -> Path:
    star64_tree(root)
    (root / "sys/devices/system/cpu/online").write_text(f"{cpus_online}\n")
    (root / "proc/cmdline").write_text("console=ttyS0 root=/dev/mmcblk1p4\n")
    if release is not None:  # another kernel build: its release names its commit
        (root / "proc/sys/kernel/osrelease").write_text(f"{release}\n")
    return root


@pytest.fixture
def boot(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
         copy_benchmarks: Callable[..., None]) -> Boot:
    """``boot(name, cpus_online, *args)``: one pytest run in simulated boot ``name`` of a
    Star64 whose CPUs online are ``cpus_online`` (or, given one of BUILDS, all four CPUs
    online under that kernel build)."""
    copy_benchmarks()
    monkeypatch.setenv("SBCBENCH_OPENSSL", str(FAKE_OPENSSL))
    monkeypatch.setenv("SBCBENCH_FAKE_SEED", "28")
    monkeypatch.setenv("SBCBENCH_FAKE_STATE", str(pytester.path / "fake-openssl.count"))
    monkeypatch.setenv("SBCBENCH_FAKE_CV", "0.5")
    monkeypatch.setenv("SBCBENCH_SIMULATED_SAVE", "1")  # the tree's board saved from here
    trees = {c: tree(pytester.path / f"tree-{c}", c) for c in ("0-3", "0")}
    for build in BUILDS:  # two builds of one release, all CPUs online
        trees[build] = tree(pytester.path / f"tree-{build}", "0-3", f"5.15.131-g{build}")

    def run(name: str, cpus_online: str, *args: str) -> pytest.RunResult:
        monkeypatch.setenv("SBCBENCH_BOOT_ID", name)
        monkeypatch.setenv("SBCBENCH_FAKE_BOOT", name)
        return pytester.runpytest(*ARGS, "--sbc-baselines", str(pytester.path / "bl"),
                                  "--sbc-sysroot", str(trees[cpus_online]), *args)
    return run


def test_a_boot_of_another_cpu_count_is_refused_in_gate_mode_and_never_pooled(
        boot: Boot, pytester: pytest.Pytester) -> None:
    for i in (1, 2):
        boot(f"base-{i}", "0-3", "--sbc-save-baseline").assert_outcomes(passed=1)
    out = pytester.path / "r"
    first = boot("k-1", "0-3", "--sbc-candidate", "k", "--sbc-results", f"{out}1.json")
    assert first.ret in (pytest.ExitCode.OK, 6), first.stdout.str()
    booted = json.loads(Path(f"{out}1.json").read_text())["environment"]["booted"]
    assert (booted["cpus_online"], booted["dt_model"], booted["kernel_release"]) == (
        "0-3", "Pine64 Star64", "5.15.131")

    refused = boot("k-2", "0", "--sbc-gate", "--sbc-candidate", "k", "--sbc-results",
                   f"{out}2.json")
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    refused.stderr.fnmatch_lines([
        "*candidate 'k': this boot (k-2) booted *cpus_online=0 *but the label's first boot "
        "(k-1) booted *cpus_online=0-3 *(cpus_online 0-3 -> 0): a label is one kernel as "
        "booted*(--sbc-gate: nothing measured)"])
    assert not Path(f"{out}2.json").exists()

    warned = boot("k-2", "0", "--sbc-candidate", "k", "--sbc-results", f"{out}2.json")
    warned.stdout.fnmatch_lines(["*warning: candidate 'k': this boot (k-2) booted*(it is not "
                                 "pooled with the others)*",
                                 "gate: 1 metric, 2 baseline boots vs 1 candidate boot*"])
    assert json.loads(Path(f"{out}2.json").read_text())["results"]  # measured and written

    third = boot("k-3", "0-3", "--sbc-gate", "--sbc-candidate", "k")
    third.stdout.fnmatch_lines(["gate: 1 metric, 2 baseline boots vs 2 candidate boots*"])
    assert "warning: candidate" not in third.stdout.str()
    with closing(sqlite3.connect(pytester.path / "bl" / "history.sqlite")) as db:
        rows = db.execute("SELECT boot_id, cpus_online FROM sessions WHERE role = 'candidate' "
                          "ORDER BY id").fetchall()
    assert rows == [("k-1", "0-3"), ("k-2", "0"), ("k-3", "0-3")]  # kept, not pooled


def test_a_boot_of_another_kernel_build_is_refused_in_gate_mode_naming_both(
        boot: Boot, pytester: pytest.Pytester) -> None:
    """The second boot of a label booted another kernel image (another build: its release's
    ``-g<sha>`` names another commit): refused before measuring, exit 4, both identities named;
    the label's own kernel booted again is judged with its first boot."""
    first_build, other_build = BUILDS
    for i in (1, 2):
        boot(f"base-{i}", first_build, "--sbc-save-baseline").assert_outcomes(passed=1)
    out = pytester.path / "img"
    first = boot("i-1", first_build, "--sbc-gate", "--sbc-candidate", "img", "--sbc-results",
                 f"{out}1.json")
    assert first.ret in (pytest.ExitCode.OK, 6), first.stdout.str()
    booted = json.loads(Path(f"{out}1.json").read_text())["environment"]["booted"]
    assert (booted["kernel_release"], booted["kernel_commit"]) == (
        f"5.15.131-g{first_build}", first_build)

    refused = boot("i-2", other_build, "--sbc-gate", "--sbc-candidate", "img", "--sbc-results",
                   f"{out}2.json")
    assert refused.ret == pytest.ExitCode.USAGE_ERROR  # 4: cannot gate
    refused.stderr.fnmatch_lines([
        f"*candidate 'img': this boot (i-2) booted kernel_release=5.15.131-g{other_build} "
        f"kernel_commit={other_build} *but the label's first boot (i-1) booted "
        f"kernel_release=5.15.131-g{first_build} kernel_commit={first_build} *"
        f"(kernel_release 5.15.131-g{first_build} -> 5.15.131-g{other_build}; kernel_commit "
        f"{first_build} -> {other_build})*(--sbc-gate: nothing measured)"])
    assert not Path(f"{out}2.json").exists()

    again = boot("i-3", first_build, "--sbc-gate", "--sbc-candidate", "img")
    again.stdout.fnmatch_lines(["gate: 1 metric, 2 baseline boots vs 2 candidate boots*"])
