"""A captured tree is untrusted input (issue 23, items 12, 15, 24): reads stay inside it, take
only regular files, CPU lists are bounded, and a garbage kernel file is an error naming it at
the probe, before any benchmark runs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from helpers import star64_tree
from pytest_sbcbench.errors import SysrootError
from pytest_sbcbench.platform import cpufreq, topology
from pytest_sbcbench.platform.environment import boot, memory_total
from pytest_sbcbench.platform.host import SysrootHost
from pytest_sbcbench.platform.probe import probe
from pytest_sbcbench.platform.sysroot import BOOT_ID, Sysroot

SECRET = "root:$6$not-for-the-results-file\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return star64_tree(tmp_path / "tree")


def test_a_link_out_of_the_tree_is_refused_naming_the_link(tree: Path) -> None:
    """``boot_id -> /secret`` once put the secret into the results, the baseline and the
    terminal; now the read is refused, and the secret appears in no message."""
    secret = tree.parent / "shadow"
    secret.write_text(SECRET)
    link = tree / BOOT_ID
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(secret)
    with pytest.raises(SysrootError, match="leads out of the sysroot") as err:
        boot(Sysroot(tree), {})
    assert str(link) in str(err.value) and "not-for-the-results" not in str(err.value)
    with pytest.raises(SysrootError, match="boot_id: leads out of the sysroot"):
        probe(Sysroot(tree))  # at start-up, not while the results are written
    link.unlink()
    link.symlink_to("../../../../etc/../../shadow")  # relative, and still out of the tree
    with pytest.raises(SysrootError, match="leads out of the sysroot"):
        Sysroot(tree).boot_id()


def test_links_inside_the_tree_are_followed(tree: Path) -> None:
    """sysfs is made of relative links (``/proc/mounts -> self/mounts`` too): inside the tree
    they are read as before."""
    (tree / "proc/sys/kernel/random").mkdir(parents=True)
    (tree / "proc/boot-id-file").write_text("0d6c4bb4-9b55-4ad4-bd0e-2a8c4d1d8c1b\n")
    (tree / BOOT_ID).symlink_to("../../../boot-id-file")
    assert Sysroot(tree).boot_id() == "0d6c4bb4-9b55-4ad4-bd0e-2a8c4d1d8c1b"


def test_a_directory_linked_out_of_the_tree_is_not_listed(tree: Path) -> None:
    outside = tree.parent / "elsewhere"
    (outside / "thermal_zone7").mkdir(parents=True)
    thermal = tree / "sys/class/thermal"
    for entry in thermal.iterdir():
        for file in entry.iterdir():
            file.unlink()
        entry.rmdir()
    thermal.rmdir()
    thermal.symlink_to(outside)
    with pytest.raises(SysrootError, match="leads out of the sysroot"):
        Sysroot(tree).listdir("sys/class/thermal")


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_kernel_file_that_is_no_regular_file_is_refused(tree: Path, kind: str) -> None:
    """A FIFO as proc/meminfo would hang the run; even with a default it is an error."""
    meminfo = tree / "proc/meminfo"
    meminfo.unlink()
    if kind == "fifo":
        os.mkfifo(meminfo)
    else:
        (tree / "dev").mkdir()
        meminfo.symlink_to("../dev/zero")
        os.symlink("/dev/zero", tree / "dev/zero")  # the link's own target leaves the tree
    with pytest.raises(SysrootError, match=r"proc/meminfo: (is a FIFO, not a regular file|"
                                           r"leads out of the sysroot)"):
        Sysroot(tree).meminfo(default="")


@pytest.mark.parametrize(("text", "message"), [
    ("0-99999999", "names more than the 65536 CPUs"),
    ("0-3,a", "'a' is not a CPU number or range"),
    ("3-1", "'3-1' is a descending range"),
    ("0--3", "is not a CPU number or range"),
    ("1" * 400, "is not a CPU number or range"),
])
def test_cpu_lists_are_bounded_and_strict(text: str, message: str) -> None:
    """``0-99999999`` in 11 bytes used about 4 GB; ``0-3,a`` was a raw ValueError."""
    with pytest.raises(ValueError, match=message):
        cpufreq.parse_cpu_list(text)


def test_the_kernels_cpu_lists_still_parse() -> None:
    assert cpufreq.parse_cpu_list("0-3,6\n") == (0, 1, 2, 3, 6)
    assert cpufreq.parse_cpu_list("4 5 6 7\n") == (4, 5, 6, 7)
    assert cpufreq.parse_cpu_list("") == ()
    assert cpufreq.parse_cpu_list("0-8191") == tuple(range(8192))


def test_a_garbage_cpu_list_in_a_tree_names_the_file(tree: Path) -> None:
    related = tree / "sys/devices/system/cpu/cpufreq/policy0/related_cpus"
    related.write_text("0-3,a\n")
    with pytest.raises(SysrootError, match="related_cpus: not a CPU list: 'a'"):
        cpufreq.policies(Sysroot(tree))
    siblings = tree / "sys/devices/system/cpu/cpu0/topology/thread_siblings_list"
    siblings.parent.mkdir(parents=True)
    siblings.write_text("0-99999999\n")
    with pytest.raises(SysrootError, match="thread_siblings_list: not a CPU list"):
        topology.smt_groups(Sysroot(tree))
    status = tree / "proc/self/status"
    status.parent.mkdir(parents=True)
    status.write_text("Name:\tcat\nCpus_allowed_list:\t0-x\n")
    with pytest.raises(SysrootError, match=r"proc/self/status: Cpus_allowed_list: '0-x'"):
        SysrootHost(Sysroot(tree)).affinity()


@pytest.mark.parametrize(("name", "text", "message"), [
    ("stat", "cpu  a b c d\ncpu0 1 2 3 4\n", "proc/stat: cpu counter 'a' is not a number"),
    ("stat", "cpu  1 2 3 " + "9" * 400 + "\n", "proc/stat: cpu counter '9999"),
    ("stat", "cpu  1 2 -3 4\n", "proc/stat: cpu counter '-3'"),
    ("meminfo", "MemTotal: lots kB\ngarbage\n", "proc/meminfo: no 'Key: value kB' lines"),
])
def test_garbage_stat_and_meminfo_stop_the_probe_naming_the_file(
        tree: Path, name: str, text: str, message: str) -> None:
    """Before, garbage in proc/stat was a raw ValueError in the first test, and in
    proc/meminfo a ParseError while the results were written, losing the results file:
    now the probe at start-up refuses the tree, naming the file."""
    (tree / "proc" / name).write_text(text)
    with pytest.raises(SysrootError, match=message):
        probe(Sysroot(tree))
    if name == "meminfo":
        with pytest.raises(SysrootError, match=message):
            memory_total(Sysroot(tree))
    else:
        with pytest.raises(SysrootError, match=message):
            SysrootHost(Sysroot(tree)).cpu_times()


def test_a_tree_without_stat_or_meminfo_still_probes(tree: Path) -> None:
    (tree / "proc/meminfo").unlink()
    assert probe(Sysroot(tree)).cpus == 4 and memory_total(Sysroot(tree)) is None
