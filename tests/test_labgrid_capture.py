"""``sbcbench capture``: the board-side sh copy (run by a real local sh here; over labgrid in
test_labgrid.py), the controller's checks, and the replay through ``probe``."""

from __future__ import annotations

import io
import json
import os
import subprocess
import tarfile
from pathlib import Path

import pytest

from pytest_sbcbench.cli import main
from pytest_sbcbench.errors import SchemaError
from pytest_sbcbench.platform.blockdev import interface
from pytest_sbcbench.platform.capture import META, capture_script, extract, repack
from pytest_sbcbench.platform.facts import platform_facts
from pytest_sbcbench.platform.sysroot import Sysroot

MMC_IOS = Path(__file__).parent / "data/mmc_ios/rockchip_mmc0_emmc_hs400-enhanced-strobe_spaces.txt"


def board_tar(root: Path) -> Path:
    """What the board side produces for ``root`` (the same script the executor runs)."""
    proc = subprocess.run(["sh", "-c", capture_script(), "sbcbench-capture", str(root)],
                          capture_output=True, text=True, timeout=120, check=True)
    return Path(proc.stdout.strip().splitlines()[-1])


def with_emmc(root: Path) -> Path:
    """An eMMC block device whose ``device`` link points into the mmc host's tree (as sysfs
    does) and a real ``ios`` capture under debugfs."""
    host = root / "sys/devices/platform/fe2e0000.mmc/mmc_host/mmc0/mmc0:0001"
    (host / "block/mmcblk0/queue").mkdir(parents=True)
    (host / "block/mmcblk0/queue/rotational").write_text("0\n")
    (root / "sys/block").mkdir(parents=True)
    (root / "sys/block/mmcblk0").symlink_to(
        "../devices/platform/fe2e0000.mmc/mmc_host/mmc0/mmc0:0001/block/mmcblk0")
    (host / "block/mmcblk0/device").symlink_to("../../../mmc0:0001")
    (root / "sys/kernel/debug/mmc0").mkdir(parents=True)
    (root / "sys/kernel/debug/mmc0/ios").write_text(MMC_IOS.read_text())
    return root


def test_round_trip_gives_the_same_facts(star64: Path, tmp_path: Path) -> None:
    with_emmc(star64)
    raw = board_tar(star64)
    try:
        done = repack(raw, tmp_path / "star64.tar.gz", "test:star64", str(star64))
    finally:
        raw.unlink()
    replay = extract(done.path, tmp_path / "replay")
    assert platform_facts(Sysroot(replay)) == platform_facts(Sysroot(star64))
    emmc = interface(Sysroot(replay), "/dev/mmcblk0p2")
    assert emmc == interface(Sysroot(star64), "/dev/mmcblk0p2")
    assert emmc.kind == "mmc" and "HS400" in emmc.detail.upper() and emmc.limit_bytes_per_s
    assert done.links == 1 and done.files > 10
    meta = json.loads((replay / META).read_text())
    assert meta["schema"] == "sbcbench-capture/1" and meta["source"] == "test:star64"


def test_proc_and_sys_sizes_do_not_matter(tmp_path: Path) -> None:
    """A real ``/proc`` file has size 0: it is copied with cat, so its content arrives."""
    raw = board_tar(Path("/"))
    try:
        done = repack(raw, tmp_path / "here.tar.gz", "test:local", "/")
    finally:
        raw.unlink()
    replay = extract(done.path, tmp_path / "replay")
    assert (replay / "proc/cpuinfo").read_text().count("processor") >= 1
    assert platform_facts(Sysroot(replay))["cpus"] >= 1


def evil_tar(path: Path, name: str, link: str | None = None) -> Path:
    with tarfile.open(path, "w") as tar:
        info = tarfile.TarInfo(name)
        if link is not None:
            info.type, info.linkname = tarfile.SYMTYPE, link
            tar.addfile(info)
        else:
            info.size = 1
            tar.addfile(info, io.BytesIO(b"x"))
    return path


@pytest.mark.parametrize("name, link, reason", [
    ("../outside", None, "escapes the tree"),
    ("/etc/passwd", None, "escapes the tree"),
    ("etc/os-release", "/etc/shadow", "unexpected link"),
    ("sys/block/sda/device", "../../../../../etc", "unexpected link"),
])
def test_hostile_members_are_refused(tmp_path: Path, name: str, link: str | None,
                                     reason: str) -> None:
    bad = evil_tar(tmp_path / "bad.tar", name, link)
    with pytest.raises(SchemaError, match=reason):
        repack(bad, tmp_path / "out.tar.gz", "test", "/")
    with pytest.raises(SchemaError, match=reason):
        extract(bad, tmp_path / "x")


def test_capture_local_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``sbcbench capture local --out FILE`` through LocalExecutor, replayed by probe."""
    out = tmp_path / "local.tar.gz"
    assert main(["capture", "local", "--out", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    replay = extract(out, tmp_path / "replay")
    assert platform_facts(Sysroot(replay))["kernel"] == os.uname().release
