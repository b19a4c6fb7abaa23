"""What was booted (``platform/booted.py``): read through a Sysroot from the kernel's files."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from helpers import STAR64_CPUINFO, build_tree
from pytest_sbcbench.platform.booted import booted, commit_of, describe, differences, file_sha256
from pytest_sbcbench.platform.sysroot import Sysroot


def test_a_boot_is_read_from_the_kernel_files(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "r", STAR64_CPUINFO, model="Pine64 Star64",
                      compatible=["pine64,star64", "starfive,jh7110"])
    (root / "proc/sys/kernel/osrelease").write_text("6.12.0-rc1-00042-gdeadbeef12\n")
    (root / "proc/cmdline").write_text("console=ttyS0  root=/dev/mmcblk1p4\n")
    (root / "sys/devices/system/cpu").mkdir(parents=True, exist_ok=True)
    (root / "sys/devices/system/cpu/online").write_text("0-3\n")
    found = booted(Sysroot(root))
    assert found == {"kernel_release": "6.12.0-rc1-00042-gdeadbeef12",
                     "kernel_commit": "deadbeef12", "kernel_image": None, "image_sha256": None,
                     "cmdline": "console=ttyS0 root=/dev/mmcblk1p4", "cpus_online": "0-3",
                     "dt_model": "Pine64 Star64",
                     "dt_compatible": "pine64,star64, starfive,jh7110"}
    given = booted(Sysroot(root), commit="ABCDEF0123", image="kernel-6.12", image_sha256="ff")
    assert (given["kernel_commit"], given["kernel_image"]) == ("abcdef0123", "kernel-6.12")
    other = dict(found, cpus_online="0", cmdline=None)
    assert differences(found, other) == ["cpus_online 0-3 -> 0"]  # unknown never differs
    assert describe({"kernel_release": "6.1", "cpus_online": "0"}) == \
        "kernel_release=6.1 cpus_online=0"


def test_commits_come_only_from_a_git_suffix(tmp_path: Path) -> None:
    assert commit_of("6.1.0-57-arm64") is None
    assert commit_of("6.6.30-gabc1234-dirty") == "abc1234"
    assert commit_of("5.10.0-g12") is None  # too short for a commit
    image = tmp_path / "Image"
    image.write_bytes(b"kernel")
    assert file_sha256(image) == hashlib.sha256(b"kernel").hexdigest()
    assert file_sha256(tmp_path / "none") is None


def test_a_label_s_boots_must_boot_one_image() -> None:
    from pytest_sbcbench.run.candidate import check_booted, same_as_first

    first: dict[str, Any] = {"kernel_release": "6.12", "kernel_image": "kernel-6.12",
                             "image_sha256": "aa"}
    other = dict(first, image_sha256="bb")
    earlier: dict[str | None, dict[str, Any]] = {"b1": first, "b2": dict(first, cmdline=None)}
    assert check_booted("L", earlier, "b3", dict(first, cmdline="quiet")) is None
    problem = check_booted("L", earlier, "b3", other)
    assert problem is not None and problem.startswith(
        "candidate 'L': this boot (b3) booted kernel_release=6.12 kernel_image=kernel-6.12 "
        "image_sha256=bb, but the label's first boot (b1) booted kernel_release=6.12 "
        "kernel_image=kernel-6.12 image_sha256=aa (image_sha256 aa -> bb)")
    assert check_booted("L", {"b3": first}, "b3", other) is None  # its own earlier session
    assert same_as_first({"b1": first, "b2": other, "b3": first}) == {"b1", "b3"}
