"""The capture of a FreeBSD machine: the stand-in that answers the live code's commands from the
captured outputs, and ``sbcbench capture`` writing a capture on a FreeBSD machine (here the
capture of a real one stands in for the machine, through the executor seam)."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest

from pytest_sbcbench.errors import ToolError
from pytest_sbcbench.platform.capture import META, capture, extract
from pytest_sbcbench.platform.executor import LocalExecutor
from pytest_sbcbench.platform.facts import platform_facts
from pytest_sbcbench.platform.freebsd import (
    DMESG_BOOT,
    CaptureExecutor,
    collect,
    is_capture,
    is_freebsd,
)
from pytest_sbcbench.platform.sysroot import Sysroot

DATA = Path(__file__).parent / "data" / "freebsd"
RPI3 = DATA / "rpi3b-plus_cortex-a53_freebsd-12.2"
T420S = DATA / "thinkpad-t420s_i5-2520m_excerpts"
MACBOOK = DATA / "macbookpro8-1_i5-2415m_freebsd-13.1_zfs"


def test_the_stand_in_answers_sysctl_as_freebsd_does() -> None:
    board = CaptureExecutor(Sysroot(RPI3))
    every = board.run(["sysctl", "-a"], 10)
    assert every.returncode == 0 and every.stdout == (RPI3 / "sysctl-a.txt").read_text()
    assert board.run(["sysctl", "-n", "hw.ncpu"], 10).stdout == "4\n"
    node = board.run(["sysctl", "hw.cpufreq"], 10)
    assert node.stdout.splitlines()[0] == "hw.cpufreq.temperature: 43470"
    assert len(node.stdout.splitlines()) == 9
    unknown = board.run(["sysctl", "dev.cpu.0.freq", "hw.ncpu"], 10)
    assert (unknown.returncode, unknown.stdout) == (1, "hw.ncpu: 4\n")
    assert unknown.stderr == "sysctl: unknown oid 'dev.cpu.0.freq'\n"
    quiet = board.run(["sysctl", "-i", "dev.cpu.0.freq", "hw.ncpu"], 10)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "hw.ncpu: 4\n", "")
    assert board.run(["sysctl"], 10).returncode == 64
    assert board.run(["uname", "-s"], 10).stdout == "FreeBSD\n"  # kern.ostype: no uname-a.txt
    assert board.run(["uname", "-a"], 10).returncode == 1
    assert board.run(["ls", "/"], 10).returncode == 127
    assert board.read(DMESG_BOOT) == (RPI3 / "dmesg.boot").read_bytes()
    assert board.read("/etc/passwd") is None


def test_the_stand_in_answers_uname_from_its_output(tmp_path: Path) -> None:
    """``uname -a`` as a TrueOS (FreeBSD 12.0-CURRENT) user posted it in lumina-desktop/lumina
    #433: the version in the middle has spaces, the machine is the last word."""
    (tmp_path / "uname-a.txt").write_text(
        "FreeBSD trueos7517.local 12.0-CURRENT FreeBSD 12.0-CURRENT #61 d7b9fac18(trueos-"
        "stable)-dirty: Mon May 29 20:21:45 UTC 2017     root@gauntlet:/usr/obj/usr/src/sys/"
        "GENERIC  amd64\n")
    board = CaptureExecutor(Sysroot(tmp_path))
    assert board.run(["uname", "-r"], 10).stdout == "12.0-CURRENT\n"
    assert board.run(["uname", "-m"], 10).stdout == "amd64\n"
    assert board.run(["uname", "-n"], 10).stdout == "trueos7517.local\n"
    assert is_capture(Sysroot(tmp_path)) and is_freebsd(board)
    facts = platform_facts(Sysroot(tmp_path))
    assert (facts["kernel"], facts["arch"], facts["os"]) == (
        "12.0-CURRENT", "x86_64", "FreeBSD 12.0-CURRENT")


def test_a_linux_tree_or_this_machine_is_no_freebsd_capture(tmp_path: Path) -> None:
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/cpuinfo").write_text("processor\t: 0\n")
    (tmp_path / "dmesg.boot").write_text("")
    assert not is_capture(Sysroot(tmp_path)) and not is_capture(Sysroot())
    assert not is_freebsd(LocalExecutor())  # this Linux machine


def test_sbcbench_capture_on_freebsd_writes_what_the_probe_reads(tmp_path: Path) -> None:
    """The Raspberry Pi 3 stands in for the machine: ``sbcbench capture``'s collection runs its
    commands (``uname -s`` says FreeBSD), the tarball extracts to a capture directory, and the
    probe reads the same facts from it as from the original."""
    board = CaptureExecutor(Sysroot(RPI3))
    done = capture(board, tmp_path / "rpi3.tar.gz")
    assert done.files == 2 and done.source == f"capture:{RPI3}"
    with tarfile.open(done.path) as tar:
        names = sorted(tar.getnames())
        meta = json.loads(tar.extractfile(META).read())  # type: ignore[union-attr]
    assert names == sorted(["sysctl-a.txt", "dmesg.boot", META])
    assert (meta["os"], meta["files"]) == ("FreeBSD", 2)
    copy = extract(done.path, tmp_path / "rpi3")
    assert (copy / "sysctl-a.txt").read_bytes() == (RPI3 / "sysctl-a.txt").read_bytes()
    original, replayed = platform_facts(Sysroot(RPI3)), platform_facts(Sysroot(copy))
    for facts in (original, replayed):
        facts.pop("missing_sources")
    assert replayed == original and replayed["cur_mhz"] == [600.0] * 4


def test_a_machine_that_cannot_give_its_sysctl_is_not_captured(tmp_path: Path) -> None:
    board = CaptureExecutor(Sysroot(MACBOOK))  # its public outputs have no sysctl
    with pytest.raises(ToolError, match="sysctl -a"):
        collect(board)
    board = CaptureExecutor(Sysroot(tmp_path))
    (tmp_path / "sysctl-a.txt").write_bytes((T420S / "sysctl-a.txt").read_bytes())
    with pytest.raises(ToolError, match=r"dmesg\.boot is unreadable"):
        collect(board)
