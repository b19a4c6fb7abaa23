"""Storage I/O (``measure/storage.py``): short reads and writes, and where the storage test may
write."""

from __future__ import annotations

import mmap
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from pytest_sbcbench.errors import ToolError
from pytest_sbcbench.measure import storage


def block_of(data: bytes) -> mmap.mmap:
    buf = mmap.mmap(-1, len(data))
    buf.write(data)
    return buf


def test_a_short_write_is_continued_not_counted_as_done(tmp_path: Path) -> None:
    """Review round 2, L15: ``os.write``'s count was ignored, so a short write still counted a whole
    block."""
    data = os.urandom(storage.BLOCK)
    calls = []

    def at_most_100k(fd: int, view: memoryview) -> int:  # the real write, cut short
        calls.append(len(view))
        return os.write(fd, view[:100_000])

    path = tmp_path / "f"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    buf = block_of(data)
    try:
        storage.write_block(fd, buf, ("t",), write=at_most_100k)
    finally:
        os.close(fd)
        buf.close()
    assert path.read_bytes() == data
    assert len(calls) == 11 and calls[1] == storage.BLOCK - 100_000


def test_a_write_without_progress_is_a_tool_error(tmp_path: Path) -> None:
    fd = os.open(tmp_path / "f", os.O_WRONLY | os.O_CREAT)
    buf = block_of(b"x" * 4096)
    try:
        with pytest.raises(ToolError, match="storage write stalled after 0 of 4096 bytes"):
            storage.write_block(fd, buf, ("t",), write=lambda fd, view: 0)
    finally:
        os.close(fd)
        buf.close()


def test_a_short_read_is_continued_and_a_short_file_is_a_tool_error(tmp_path: Path) -> None:
    """Review round 2, L15: ``os.preadv``'s count was ignored: a file that ended early read
    "faster"."""
    data = os.urandom(3 * 4096)
    path = tmp_path / "f"
    path.write_bytes(data)

    def one_page(fd: int, views: Sequence[memoryview], offset: int) -> int:
        return os.preadv(fd, [views[0][:4096]], offset)

    buf = block_of(bytes(2 * 4096))
    fd = os.open(path, os.O_RDONLY)
    try:
        storage.read_block(fd, buf, 4096, ("t",), read=one_page)
        assert buf[:] == data[4096:]
        with pytest.raises(ToolError, match="storage read ended at byte 12288"):
            storage.read_block(fd, buf, 8192, ("t",))  # one page left, two asked
    finally:
        os.close(fd)
        buf.close()


@pytest.fixture
def ram_dir() -> Iterator[Path]:
    """A fresh directory in ``/dev/shm`` (POSIX shared memory, tmpfs on Linux); skips where
    that is not a writable tmpfs."""
    shm = Path("/dev/shm")
    if not os.access(shm, os.W_OK) or storage.target(shm).fstype != "tmpfs":
        pytest.skip("/dev/shm is not a writable tmpfs here")
    with tempfile.TemporaryDirectory(dir=shm) as where:
        yield Path(where)


def test_a_given_storage_path_on_tmpfs_is_a_usage_error(
        pytester: pytest.Pytester, copy_benchmarks: Callable[..., None], ram_dir: Path) -> None:
    """Review round 2, M13: ``--sbc-storage-path /dev/shm`` only skipped the storage test, so CI
    stayed green on a misconfiguration; now it stops the run at start-up (exit 4), whatever is
    selected."""
    copy_benchmarks("test_storage.py")
    result = pytester.runpytest("benchmarks", "--sbc-quick", "--sbc-storage-path", str(ram_dir))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--sbc-storage-path {ram_dir}: *is on tmpfs, which keeps "
                                 "files in RAM*"])
    missing = pytester.runpytest("benchmarks", "--sbc-storage-path", str(ram_dir / "no"))
    assert missing.ret == pytest.ExitCode.USAGE_ERROR
    missing.stderr.fnmatch_lines(["*--sbc-storage-path */no: not an existing directory*"])


def test_the_default_storage_path_on_tmpfs_still_skips_with_the_reason(
        pytester: pytest.Pytester, copy_benchmarks: Callable[..., None], ram_dir: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    copy_benchmarks("test_storage.py")
    monkeypatch.chdir(ram_dir)  # the storage test's default: the current directory
    result = pytester.runpytest(str(pytester.path / "benchmarks"), "--sbc-quick",
                                "--sbc-idle-wait", "0", "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*is on tmpfs, which keeps files in RAM*"])
