"""Block device names: a partition maps to its disk, a whole disk to itself."""

from __future__ import annotations

import pytest

from pytest_sbcbench.platform.blockdev import base_device


@pytest.mark.parametrize(("name", "disk"), [
    ("mmcblk0p2", "mmcblk0"), ("mmcblk0", "mmcblk0"), ("mmcblk1", "mmcblk1"),
    ("nvme0n1p1", "nvme0n1"), ("nvme0n1", "nvme0n1"), ("sda3", "sda"), ("sda", "sda"),
    ("/dev/vda1", "vda"),
])
def test_base_device(name: str, disk: str) -> None:
    assert base_device(name) == disk
