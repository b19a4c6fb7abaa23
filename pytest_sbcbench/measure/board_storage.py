"""Sequential storage throughput on a remote board, with the board's own ``dd`` and clock.

The semantics are those of :mod:`.storage` on this machine: incompressible data, writes with
``O_DIRECT`` and an ``fsync`` before the clock stops, reads with ``O_DIRECT`` (so neither side
can be the page cache), a RAM filesystem or a disk without room refused, the test file removed
on every exit path.  On the board, without Python:

- a random seed file (from the kernel's urandom device, fsynced, so none of its write-back
  lands in the timed write) is written untimed beside the test file and read once, so the
  timed copies read it from the page cache;
- the timed write is a POSIX ``sh`` loop of ``dd oflag=direct conv=notrunc`` copies of the
  seed, then one ``dd conv=fsync``; the timed read is the same loop with ``iflag=direct`` into
  the null device.  Both run inside :func:`.board_timing.timed_argv`, so the wall time is the
  board's uptime clock around them (10 ms resolution), never the SSH round trip.

Every command is an argument vector; the paths and counts reach the fixed shell programs as
positional arguments, never as shell text.  A filesystem that refuses ``O_DIRECT`` is a loud
:class:`~..errors.ToolError` (a write through the page cache is not what this measures).
"""

from __future__ import annotations

import re
import uuid
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import ParseError, SbcBenchWarning, ToolError
from ..platform.executor import Executor
from ..platform.sysroot import DEV, PROC
from .board_timing import BoardTiming, parse_timing, timed_argv
from .board_tree import add_note
from .sanity import per_second
from .storage import BLOCK, StorageThroughput, Target, mounted
from .tools import run_tool

SEED_BLOCKS = 16  # MiB of random data the timed loops copy: few dd processes, little RAM
SETUP_TIMEOUT_S = 120.0
MIN_RATE_BYTES_PER_S = 1e6  # the slowest card still writes 1 MB/s: the timeout's floor
METHOD = "O_DIRECT (dd on the board)"

WRITE_LOOP = """i=0
while [ "$i" -lt "$3" ]; do
  [ "$i" -eq 0 ] || [ -f "$2" ] || { echo "sbcbench: $2 vanished while written" >&2; exit 3; }
  dd if="$1" of="$2" bs=1M count="$4" seek=$((i * $4)) oflag=direct conv=notrunc || exit
  i=$((i + 1))
done
dd if="$1" of="$2" bs=1M count=0 conv=notrunc,fsync
"""
READ_LOOP = """i=0
while [ "$i" -lt "$3" ]; do
  dd if="$1" of="$2" bs=1M count="$4" skip=$((i * $4)) iflag=direct || exit
  i=$((i + 1))
done
"""
_RECORDS_IN = re.compile(r"^(\d+)\+(\d+) records in$", re.MULTILINE)


@dataclass(frozen=True)
class BoardDirectory:
    """The test directory on the board: its filesystem and the bytes free there."""

    target: Target
    free_bytes: int


def parse_df(text: str, argv: Sequence[str]) -> int:
    """Bytes available from POSIX ``df -P -k`` output (the fourth column of the second line,
    in 1024-byte blocks); anything else is a :class:`ToolError` showing the output."""
    lines = [line for line in text.splitlines() if line.strip()]
    fields = lines[1].split() if len(lines) >= 2 else []
    if len(fields) < 6 or not fields[3].isdigit():
        raise ToolError(argv, 0, text[-500:], "df -P printed no 'available' column")
    return int(fields[3]) * 1024


def board_directory(executor: Executor, directory: str) -> BoardDirectory:
    """``directory`` on the board: resolved there (``cd -P``), its mount from the board's own
    mount table (read by a board process) and its free space from the board's ``df``."""
    from ..platform.host import parse_mounts

    argv = ["sh", "-c", 'cd -P -- "$1" && pwd -P', "sbcbench-dir", directory]
    path = run_tool(argv, 30, f"resolving {directory} on the board",
                    executor=executor).strip()
    table = executor.read(f"/{PROC}/self/mounts")
    if table is None:
        raise ToolError(["cat", f"/{PROC}/self/mounts"], None, "", f"{executor.name}: the "
                        "board's mount table is unreadable")
    mounts = parse_mounts(table.decode("utf-8", "replace"))
    df = ["df", "-P", "-k", "--", path]
    free = parse_df(run_tool(df, 30, "df on the board", executor=executor), df)
    return BoardDirectory(mounted(Path(path), path, mounts), free)


def _timed(executor: Executor, argv: Sequence[str], timeout: float, what: str
           ) -> tuple[BoardTiming, str]:
    """Run ``argv`` on the board inside the timing wrapper; its timing and its own stderr.
    A failure, a timeout or a broken report is a :class:`ToolError` naming ``what``."""
    wrapped = timed_argv(argv)
    done = executor.run(wrapped, timeout)
    if done.timed_out:
        raise ToolError(argv, None, done.stderr[-2000:], f"{what}: timed out after "
                                                         f"{timeout:.0f} s")
    try:
        timing, own = parse_timing(done.stderr)
    except ParseError as exc:
        raise ToolError(argv, done.returncode, done.stderr[-2000:], f"{what}: {exc}") from exc
    if timing.returncode != 0:
        raise ToolError(argv, timing.returncode, own[-2000:], f"{what}: exited "
                        f"{timing.returncode} (the board's message is below; a filesystem "
                        "that refuses O_DIRECT fails here: the page cache is not measured)")
    return timing, own


def records_in(text: str) -> int:
    """Full input records ``dd`` reported, summed over every ``dd`` of a loop."""
    return sum(int(full) for full, _ in _RECORDS_IN.findall(text))


def _remove(executor: Executor, path: str, seed: str) -> str | None:
    """Remove the test file and the seed on the board; why they stay there, if they do."""
    argv = ["rm", "-f", "--", path, seed]
    try:
        done = executor.run(argv, 60)
    except Exception as exc:  # the board went away
        return f"the storage test file {path} (and {seed}) may stay on the board: {exc}"
    if done.timed_out or done.returncode != 0:
        how = "timed out" if done.timed_out else f"exited {done.returncode}"
        return (f"the storage test file {path} (and {seed}) stays on the board: "
                f"{' '.join(argv)} {how}: {done.stderr.strip()[-500:]}")
    return None


def write_then_read(executor: Executor, where: Target, size: int) -> StorageThroughput:
    """Write ``size`` bytes (whole MiB blocks, a multiple of the seed) to a fresh file in
    ``where.directory`` on the board, fsync, read them back with ``O_DIRECT``; always remove
    the file and the seed (a removal that fails warns, naming them, or is a note on the error
    in flight).  A short file or a rate that cannot be real is a :class:`ToolError`."""
    name = f"{where.directory}/.sbcbench-storage-{uuid.uuid4().hex}"
    path, seed = f"{name}.tmp", f"{name}.seed"
    chunks = max(1, size // (SEED_BLOCKS * BLOCK))
    total = chunks * SEED_BLOCKS * BLOCK
    timeout = SETUP_TIMEOUT_S + total / MIN_RATE_BYTES_PER_S
    try:
        run_tool(["dd", f"if=/{DEV}/urandom", f"of={seed}", "bs=1M", f"count={SEED_BLOCKS}",
                  "conv=fsync"], SETUP_TIMEOUT_S, "writing the random seed on the board",
                 expect_output=False, executor=executor)
        run_tool(["dd", f"if={seed}", f"of=/{DEV}/null", "bs=1M"], SETUP_TIMEOUT_S,
                 "caching the seed on the board", expect_output=False, executor=executor)
        write_argv = ["sh", "-c", WRITE_LOOP, "sbcbench-write", seed, path, str(chunks),
                      str(SEED_BLOCKS)]
        wrote, _ = _timed(executor, write_argv, timeout, "storage write on the board")
        stat = ["stat", "-c", "%s", "--", path]
        written = run_tool(stat, 30, "stat on the board", executor=executor).strip()
        if written != str(total):
            raise ToolError(stat, 0, written, f"the board's test file holds {written} bytes, "
                                              f"{total} were written")
        read_argv = ["sh", "-c", READ_LOOP, "sbcbench-read", path, f"/{DEV}/null",
                     str(chunks), str(SEED_BLOCKS)]
        read, said = _timed(executor, read_argv, timeout, "storage read on the board")
        if records_in(said) != total // BLOCK:
            raise ToolError(read_argv, 0, said[-2000:], f"dd read {records_in(said)} full "
                            f"MiB records of {total // BLOCK}: the file is not what was written")
    except BaseException as exc:
        failed = _remove(executor, path, seed)
        if failed:
            add_note(exc, failed)  # a warning here could replace the error (-W error)
        raise
    failed = _remove(executor, path, seed)
    if failed:
        warnings.warn(SbcBenchWarning(failed), stacklevel=2)
    return StorageThroughput(
        per_second(total, wrote.wall_s, "B/s", write_argv, f"storage write of {total} bytes "
                   "on the board"),
        per_second(total, read.wall_s, "B/s", read_argv, f"storage read of {total} bytes "
                   "on the board"),
        METHOD)
