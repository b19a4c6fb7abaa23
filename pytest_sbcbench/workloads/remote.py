"""What a workload reads of a remote board (a labgrid target) live, through the executor, and
why a workload does not run there: one line, the same shape for every workload, so a skipped
test says where the run was and what is missing."""

from __future__ import annotations

from ..errors import SbcBenchError
from ..platform.executor import Executor
from ..platform.sysroot import CPU_DIR, PROC, Sysroot
from ..workload import Context


def not_remote(ctx: Context, why: str) -> str | None:
    """``None`` on this machine; on a remote executor the skip reason naming it and ``why``."""
    if ctx.executor.is_local:
        return None
    return f"not run on a remote board yet ({ctx.executor.name}): {why}"


def board_cpus(executor: Executor, sysroot: Sysroot | None = None) -> tuple[int, ...]:
    """The CPUs a command started on the board may run on, read on the board now.

    First the ``Cpus_allowed_list`` of a board process (the executor's read runs ``cat``
    there, so its own status file holds the affinity a benchmark started the same way gets:
    taskset and cpusets included); else the board's online CPU list; else every processor
    the board's captured tree lists.  Nothing here reads the controller."""
    from ..platform.cpufreq import parse_cpu_list
    from ..platform.host import parse_allowed_cpus

    try:
        allowed = parse_allowed_cpus(_text(executor.read(f"/{PROC}/self/status")))
        online = () if allowed else parse_cpu_list(
            _text(executor.read(f"/{CPU_DIR}/online")).strip())
    except ValueError as exc:  # a list the kernel would never print
        raise SbcBenchError(f"{executor.name}: unreadable CPU list on the board: {exc}") from exc
    if allowed or online:
        return allowed or online
    if sysroot is not None:
        from ..platform.probe import probe

        return tuple(range(max(1, probe(sysroot).cpus)))
    raise SbcBenchError(f"{executor.name}: neither the affinity nor the online CPU list of the "
                        "board is readable")


def _text(data: bytes | None) -> str:
    return "" if data is None else data.decode("utf-8", "replace")
