"""Sequential storage throughput that cannot be the page cache.

Writes use ``O_DIRECT`` where the filesystem allows and ``fsync`` before the clock stops; reads
use ``O_DIRECT``, or, where it is refused, the file's pages are evicted first (``fadvise
DONTNEED``, plus a page-cache drop as root).  tmpfs is refused (it is RAM), so is a disk without
room, and the test file is removed even on failure or Ctrl-C."""

from __future__ import annotations

import mmap
import os
import shutil
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import SbcBenchError, ToolError
from ..platform.host import Host, Mount, default_host
from .sanity import per_second

Writer = Callable[[int, memoryview], int]
Reader = Callable[[int, Sequence[memoryview], int], int]
RAM_FILESYSTEMS = ("tmpfs", "ramfs", "devtmpfs")
BLOCK = 1024 * 1024
SPARE = 64 * 1024 * 1024


@dataclass(frozen=True)
class Target:
    directory: Path
    mountpoint: str
    device: str
    fstype: str


@dataclass(frozen=True)
class StorageThroughput:
    write_bytes_per_s: float
    read_bytes_per_s: float
    method: str


def target(directory: Path, *, host: Host | None = None) -> Target:
    """The filesystem holding ``directory`` (the longest matching mount point in the host's
    mount table; this machine's unless the session passes its host)."""
    mounts = (host if host is not None else default_host()).mounts()
    return mounted(directory, str(directory.resolve()), mounts)


def mounted(directory: Path, path: str, mounts: Sequence[Mount]) -> Target:
    """The filesystem holding ``path`` (already resolved) in ``mounts``: the longest matching
    mount point, and of several on one path the last mounted (it hides the earlier ones)."""
    # the last mount on a path hides earlier ones: reversed first, then a stable sort
    parts = sorted(reversed(mounts), key=lambda p: len(p.mountpoint), reverse=True)
    for part in parts:
        mount = part.mountpoint.rstrip("/") or "/"
        if path == mount or path.startswith(mount.rstrip("/") + "/") or mount == "/":
            return Target(directory, part.mountpoint, part.device, part.fstype)
    return Target(directory, "/", "unknown", "unknown")


def check(where: Target, size: int, free: int | None = None) -> None:
    """Refuse a RAM filesystem and a disk without room for ``size`` (``free`` bytes, else
    asked of this machine's filesystem)."""
    if where.fstype in RAM_FILESYSTEMS:
        raise SbcBenchError(f"{where.directory} is on {where.fstype}, which keeps files in RAM: "
                            "a storage number there would measure memory. Point "
                            "--sbc-storage-path at a directory on the disk to measure")
    if free is None:
        free = shutil.disk_usage(where.directory).free
    if free < size + SPARE:
        raise SbcBenchError(f"{where.directory} has {free / 2**20:.0f} MiB free; the storage "
                            f"test needs {(size + SPARE) / 2**20:.0f} MiB. Free space or pass "
                            "a smaller size (--sbc-quick) or another --sbc-storage-path")


def _open(path: Path, flags: int) -> tuple[int, bool]:
    try:
        return os.open(path, flags | os.O_DIRECT, 0o600), True
    except OSError:
        return os.open(path, flags, 0o600), False


def _buffers() -> list[mmap.mmap]:
    """Page-aligned (O_DIRECT-safe) buffers of incompressible data."""
    out = []
    for _ in range(4):
        buf = mmap.mmap(-1, BLOCK)
        buf.write(os.urandom(BLOCK))
        out.append(buf)
    return out


def write_block(fd: int, buf: mmap.mmap, argv: Sequence[str], write: Writer = os.write
                ) -> None:
    """Write all of ``buf``: a short write is continued where it stopped (an uncounted one
    would inflate B/s); a write that makes no progress is a :class:`ToolError`."""
    with memoryview(buf) as view:
        done = 0
        while done < len(view):
            count = write(fd, view[done:])
            if count <= 0:
                raise ToolError(argv, None, "", f"storage write stalled after {done} of "
                                                f"{len(view)} bytes of a block")
            done += count


def read_block(fd: int, buf: mmap.mmap, offset: int, argv: Sequence[str],
               read: Reader = os.preadv) -> None:
    """Fill ``buf`` from ``offset``: a short read is continued; the file ending early (the
    bytes were never read back) is a :class:`ToolError`, never a faster rate."""
    with memoryview(buf) as view:
        done = 0
        while done < len(view):
            count = read(fd, [view[done:]], offset + done)
            if count <= 0:
                raise ToolError(argv, None, "", f"storage read ended at byte {offset + done}: "
                                                f"the test file is shorter than was written")
            done += count


def write_then_read(where: Target, size: int, drop_caches: Callable[[], None] | None = None,
                    clock: Callable[[], float] = time.perf_counter) -> StorageThroughput:
    """Write ``size`` bytes sequentially, fsync, evict, read them back; always remove the file.
    A clock that did not advance or a rate that cannot be real is a :class:`ToolError`."""
    path = where.directory / f".sbcbench-storage-{uuid.uuid4().hex}.tmp"
    blocks = max(1, size // BLOCK)
    buffers = _buffers()
    try:
        fd, direct = _open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        try:
            start = clock()
            for i in range(blocks):
                write_block(fd, buffers[i % len(buffers)], ("sbcbench-storage", "write", str(path)))
            os.fsync(fd)
            write_s = clock() - start
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)
        if drop_caches is not None:
            drop_caches()
        fd, read_direct = _open(path, os.O_RDONLY)
        try:
            if not read_direct:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            start = clock()
            for i in range(blocks):
                read_block(fd, buffers[0], i * BLOCK, ("sbcbench-storage", "read", str(path)))
            read_s = clock() - start
        finally:
            os.close(fd)
    finally:
        path.unlink(missing_ok=True)
        for buf in buffers:
            buf.close()
    method = ("O_DIRECT" if direct and read_direct else "fadvise-dontneed"
              + ("+drop_caches" if drop_caches else ""))
    total = blocks * BLOCK
    return StorageThroughput(
        per_second(total, write_s, "B/s", ("sbcbench-storage", "write", str(path)),
                   f"storage write of {total} bytes"),
        per_second(total, read_s, "B/s", ("sbcbench-storage", "read", str(path)),
                   f"storage read of {total} bytes"),
        method)
