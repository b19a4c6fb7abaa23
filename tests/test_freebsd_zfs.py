"""ZFS and the storage workload: the ARC is not the page cache.  ``zfs get`` and ``sysctl``
answer from real captured outputs (see the ``.source.txt`` files under
``tests/data/freebsd/zfs``) through a capture's stand-in executor."""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from helpers import listing_settings
from pytest_sbcbench.measure.storage import StorageThroughput, Target
from pytest_sbcbench.platform.executor import Completed
from pytest_sbcbench.platform.freebsd import CaptureExecutor, parse_sysctl, parse_zfs_get
from pytest_sbcbench.platform.freebsd.zfs import arc_cache_defeat, arc_ceiling, decide
from pytest_sbcbench.platform.host import LocalHost
from pytest_sbcbench.platform.sysroot import Sysroot
from pytest_sbcbench.workload import Context
from pytest_sbcbench.workloads.storage import WORKLOADS, _timed_run, zfs_refusal

ZFS = Path(__file__).parent / "data" / "freebsd" / "zfs"
OTUS = ZFS / "zfs-get-all_otus.txt"  # primarycache all (default)
BACKUP = ZFS / "zfs-get-all-s-local-received_excerpt.txt"  # zp-3x12-a/backup: primarycache none
ARC = ZFS / "sysctl-vfs.zfs.arc_freebsd-12.1.txt"  # vfs.zfs.arc.max: 0 (not set)
MIB = 1 << 20
C_MAX = 17179869184  # arcstats c_max with zfs_arc_max at 16 GiB (openzfs/zfs#1779)


def board(tmp_path: Path, zfs_get: Path) -> CaptureExecutor:
    """A capture holding a machine's ``zfs get all`` and ``sysctl vfs.zfs.arc`` outputs."""
    shutil.copyfile(zfs_get, tmp_path / "zfs-get-all.txt")
    shutil.copyfile(ARC, tmp_path / "sysctl-a.txt")
    return CaptureExecutor(Sysroot(tmp_path))


def test_zfs_get_tables_are_read_by_column() -> None:
    otus = parse_zfs_get(OTUS.read_text())
    assert otus[("otus", "primarycache")] == "all"
    assert otus[("otus", "creation")] == "Fri May 15  4:00 2020"  # a value with spaces
    assert otus[("otus", "mountpoint")] == "/otus" and len(otus) == 71
    backup = parse_zfs_get(BACKUP.read_text())
    assert backup[("zp-3x12-a/backup", "primarycache")] == "none"
    assert backup[("zp-3x12-a", "recordsize")] == "1M"
    assert parse_zfs_get("otus\tprimarycache\tmetadata\tlocal\n") == {
        ("otus", "primarycache"): "metadata"}  # zfs get -H


def test_an_arc_limit_of_zero_is_not_set() -> None:
    entries = parse_sysctl(ARC.read_text())
    assert entries["vfs.zfs.arc.max"] == "0"
    assert arc_ceiling(entries) is None
    assert arc_ceiling({**entries, "kstat.zfs.misc.arcstats.c_max": str(C_MAX)}) == C_MAX


def test_a_dataset_the_arc_caches_is_refused_saying_why_and_what_to_do(tmp_path: Path) -> None:
    decision = arc_cache_defeat(board(tmp_path, OTUS), "otus", 256 * MIB)
    assert decision.method is None and decision.primarycache == "all"
    assert decision.refusal is not None
    assert "ZFS dataset otus caches file data in the ARC (primarycache=all)" in decision.refusal
    assert "its ceiling is unknown (vfs.zfs.arc.max 0 means not set)" in decision.refusal
    assert "zfs create -o primarycache=metadata otus/sbcbench" in decision.refusal


def test_a_dataset_that_caches_no_data_is_measured(tmp_path: Path) -> None:
    decision = arc_cache_defeat(board(tmp_path, BACKUP), "zp-3x12-a/backup", 256 * MIB)
    assert decision.refusal is None
    assert decision.method == "zfs primarycache=none (the ARC keeps no file data)"


def test_a_file_twice_the_arc_ceiling_cannot_be_read_from_it() -> None:
    assert decide("tank", "all", C_MAX, 2 * C_MAX).method == "zfs test file 2.0x the ARC ceiling"
    small = decide("tank", "all", C_MAX, 1024 * MIB)
    assert small.refusal is not None and "the ARC may hold 16.0 GiB" in small.refusal


def test_the_storage_workload_skips_on_an_arc_cached_dataset(tmp_path: Path) -> None:
    """The workload's seam: the test directory's filesystem is ZFS dataset ``otus`` (mounted at
    /otus, its ``mountpoint`` property says); its availability asks the board and skips with the
    refusal; a no-data-caching dataset is available and its runs say how."""
    workload = WORKLOADS[0]
    settings = listing_settings(tmp_path, quick=True)
    here = tmp_path / "otus"
    here.mkdir()
    ctx = Context(settings, board(tmp_path, OTUS), LocalHost())
    ctx.scratch["target"] = Target(here, "/otus", "otus", "zfs")
    if shutil.disk_usage(here).free < 400 * MIB:
        pytest.skip("not enough free space here for the quick test file")
    reason = workload.available(ctx) or ""
    assert reason.startswith("ZFS dataset otus caches file data in the ARC")
    other = tmp_path / "backup"
    other.mkdir()
    ctx = Context(settings, board(other, BACKUP), LocalHost())
    ctx.scratch["target"] = Target(other, "/zp-3x12-a/backup", "zp-3x12-a/backup", "zfs")
    assert workload.available(ctx) is None
    run = _timed_run(StorageThroughput(1e8, 2e8, "O_DIRECT"), workload.zfs(ctx))
    assert {m.identity.as_dict()["method"] for m in run.measurements} == {
        "O_DIRECT; zfs primarycache=none (the ARC keeps no file data)"}


class Counting(CaptureExecutor):
    def __init__(self, sysroot: Sysroot) -> None:
        super().__init__(sysroot)
        self.asked = 0

    def run(self, argv: Sequence[str], timeout: float, env: Mapping[str, str] | None = None,
            cwd: str | None = None) -> Completed:
        self.asked += 1
        return super().run(argv, timeout, env, cwd)


def test_off_zfs_nothing_is_asked(tmp_path: Path) -> None:
    executor = Counting(Sysroot(tmp_path))
    assert zfs_refusal(Target(tmp_path, "/", "/dev/ada0p2", "ufs"), MIB, executor) is None
    assert executor.asked == 0
