"""The Host seam: pure parsers over captured kernel files, a captured tree replayed through
SysrootHost, this machine through LocalHost, and the rule that only the executor and host
adapters import subprocess or psutil."""

from __future__ import annotations

import ast
import fnmatch
import os
import shutil
import sys
from pathlib import Path

import pytest

from helpers import DATA, REPO
from pytest_sbcbench.measure import storage
from pytest_sbcbench.platform.executor import LocalExecutor
from pytest_sbcbench.platform.host import (
    USER_HZ,
    Host,
    LocalHost,
    Mount,
    SysrootHost,
    parse_allowed_cpus,
    parse_mounts,
    parse_proc_stat,
)
from pytest_sbcbench.platform.proctree import parse_pid_stat
from pytest_sbcbench.platform.sysroot import Sysroot

CAPTURED = DATA / "this_machine"
PACKAGE = REPO / "pytest_sbcbench"
# module -> the adapters that may import it (fnmatch patterns relative to the package): the
# executors (local, and remote ones such as labgrid's ssh channel) and the host
# labgrid_ssh: the labgrid executor's ssh channel.  run/bisect/git.py, run/bisect/suite.py and
# run/fleet.py run the controller's own commands (git bisect, a pytest per step or place,
# labgrid-client), each a whole pytest run of its own, never a command on a board.
ADAPTERS = {"subprocess": ("platform/*executor.py", "platform/labgrid_ssh.py",
                           "run/bisect/git.py", "run/bisect/suite.py", "run/fleet.py"),
            "psutil": ("platform/host.py", "platform/freebsd/host.py")}
MOUNTS = ("proc /proc proc rw,relatime 0 0\n"
          "/dev/vda / ext4 rw,relatime,discard 0 0\n"
          "tmpfs /dev/shm tmpfs rw,relatime,size=24684096k 0 0\n"
          "/dev/mmcblk0p2 /media/my\\040card ext4 rw 0 0\n"
          "tmpfs /media/my\\040card tmpfs rw 0 0\n")


def test_proc_stat_of_a_two_cpu_vm() -> None:
    times = parse_proc_stat((CAPTURED / "proc-stat_2cpu.txt").read_text())
    assert times is not None
    # cpu  42871 0 10701 46170 395 0 118 164 0 0
    assert (times.total, times.idle, times.steal, times.cpus) == (100419, 46565, 164, 2)
    assert parse_proc_stat("") is None and parse_proc_stat("intr 1 2 3\n") is None


def test_pid_stat_of_a_shell() -> None:
    stat = parse_pid_stat((CAPTURED / "proc-pid-stat_bash.txt").read_text())
    assert stat is not None
    assert (stat.pid, stat.ppid, stat.ticks, stat.rss_pages, stat.cpu) == (
        5787, 5780, 3 + 11 + 3529 + 432, 1003, 1)
    odd = parse_pid_stat("42 (a) b) (c) R 1 42 42 0 -1 0 0 0 0 0 7 3 0 0 20 0 1 0 9 0 5")
    assert odd is not None and (odd.pid, odd.ppid, odd.ticks, odd.cpu) == (42, 1, 10, None)
    assert parse_pid_stat("") is None


def test_allowed_cpus_and_mounts() -> None:
    assert parse_allowed_cpus((CAPTURED / "proc-self-status.txt").read_text()) == (0, 1)
    assert parse_allowed_cpus("Name:\tcat\n") == ()
    mounts = parse_mounts(MOUNTS)
    assert mounts[3] == Mount("/dev/mmcblk0p2", "/media/my card", "ext4")
    assert [m.fstype for m in mounts] == ["proc", "ext4", "tmpfs", "ext4", "tmpfs"]


def captured_tree(root: Path) -> Path:
    """A tree laid out like / holding this machine's captured proc files and two processes:
    the captured shell and a child of it."""
    (root / "proc/self").mkdir(parents=True)
    shutil.copy(CAPTURED / "proc-stat_2cpu.txt", root / "proc/stat")
    shutil.copy(CAPTURED / "proc-self-status.txt", root / "proc/self/status")
    (root / "proc/self/mounts").write_text(MOUNTS)
    shell = (CAPTURED / "proc-pid-stat_bash.txt").read_text()
    (root / "proc/5787").mkdir()
    (root / "proc/5787/stat").write_text(shell)
    fields = shell.rpartition(")")[2].split()
    fields[1], fields[11:15], fields[21], fields[36] = "5787", ["250", "50", "0", "0"], "2000", "0"
    (root / "proc/6000").mkdir()
    (root / "proc/6000/stat").write_text(f"6000 (make) {' '.join(fields)}\n")
    return root


def test_a_captured_tree_replays_hermetically(tmp_path: Path) -> None:
    host = SysrootHost(Sysroot(captured_tree(tmp_path)), pid=5787)
    assert isinstance(host, Host)
    assert host.cpu_times() == parse_proc_stat((CAPTURED / "proc-stat_2cpu.txt").read_text())
    assert host.affinity() == (0, 1)
    tree = host.tree_cpu(5787)
    assert [(p.pid, p.seconds, p.cpu) for p in tree] == [
        (5787, (3 + 11 + 3529 + 432) / USER_HZ, 1), (6000, 300 / USER_HZ, 0)]
    assert host.tree_cpu(99) == () and host.descendants_rss(99) is None
    assert host.descendants_rss(5787) == 2000 * os.sysconf("SC_PAGE_SIZE")
    assert host.children_times() is None
    where = storage.target(Path("/media/my card/x"), host=host)
    assert (where.mountpoint, where.fstype) == ("/media/my card", "tmpfs")  # the later mount
    assert storage.target(Path("/dev/shm"), host=host).fstype == "tmpfs"
    assert storage.target(Path("/home"), host=host).device == "/dev/vda"


def test_an_empty_tree_reads_nothing(tmp_path: Path) -> None:
    host = SysrootHost(Sysroot(tmp_path))
    assert host.cpu_times() is None and host.mounts() == () and host.affinity() == ()
    assert host.tree_cpu(host.self_pid()) == ()


def test_this_machine(tmp_path: Path) -> None:
    host = LocalHost()
    assert host.affinity() == tuple(sorted(os.sched_getaffinity(0)))
    counters = host.cpu_times()
    assert counters is not None and counters.cpus >= 1
    assert host.tree_cpu(host.self_pid())[0].pid == os.getpid()
    assert any(m.mountpoint == "/" for m in host.mounts())
    handle = LocalExecutor().spawn([sys.executable, "-c", "b = bytearray(64 << 20); "
                                    "print('ready', flush=True); import signal; signal.pause()"])
    try:
        assert next(iter(handle.lines())) == "ready"
        assert (host.descendants_rss(os.getpid()) or 0) >= 64 << 20
    finally:
        handle.stop()
    before = host.children_times()
    LocalExecutor().run([sys.executable, "-c", "sum(range(10 ** 6))"], timeout=120)
    after = host.children_times()
    assert before is not None and after is not None
    assert after.user_s + after.sys_s > before.user_s + before.sys_s  # the reaped child's


@pytest.mark.parametrize("module", sorted(ADAPTERS))
def test_only_the_adapters_import(module: str) -> None:
    """Every command goes through the executor and every host reading through the host:
    no other module of the package imports subprocess or psutil."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            adapter = any(fnmatch.fnmatch(rel, p) for p in ADAPTERS[module])
            if any(n.split(".")[0] == module for n in names) and not adapter:
                offenders.append(f"{rel}:{node.lineno}")
    assert offenders == []
