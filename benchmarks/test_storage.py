"""Sequential storage write and read that cannot be the page cache, judged against the interface
the platform reports (mmc bus mode and clock, SATA link speed) and the board's limits."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_sbcbench.errors import SbcBenchError
from pytest_sbcbench.fixtures import Bench
from pytest_sbcbench.measure import storage
from pytest_sbcbench.model import Identity, Measurement
from pytest_sbcbench.platform.blockdev import interface

pytestmark = pytest.mark.storage


def test_sequential(sbcbench: Bench) -> None:
    settings = sbcbench.settings
    size = (256 if settings.quick else 1024) * 1024 * 1024
    where = storage.target(settings.storage_path or Path.cwd())
    try:
        storage.check(where, size)
    except SbcBenchError as exc:
        pytest.skip(str(exc))
    drop = settings.sysroot.drop_caches if os.geteuid() == 0 and settings.sysroot.is_host \
        else None
    runs = [storage.write_then_read(where, size, drop) for _ in range(settings.runs_for())]
    details: dict[str, object] = {"device": where.device, "mountpoint": where.mountpoint}
    if settings.sysroot.is_host:
        iface = interface(settings.sysroot, where.device)
        details.update(interface=iface.detail, rotational=iface.rotational)
        if iface.limit_bytes_per_s:
            details["interface_limit_bytes_per_s"] = iface.limit_bytes_per_s
    for metric, values in (("storage-write", [r.write_bytes_per_s for r in runs]),
                           ("storage-read", [r.read_bytes_per_s for r in runs])):
        identity = Identity.of(tool="sbcbench-storage", size_bytes=size,
                               block_bytes=storage.BLOCK, method=runs[0].method,
                               fstype=where.fstype, device=where.device)
        sbcbench.record(Measurement(metric, "B/s", "higher", identity, tuple(values),
                                    details=details))
