"""Why a workload does not run on a remote board yet (a labgrid target): one line, the same
shape for every workload, so a skipped test says where the run was and what is missing."""

from __future__ import annotations

from ..workload import Context


def not_remote(ctx: Context, why: str) -> str | None:
    """``None`` on this machine; on a remote executor the skip reason naming it and ``why``."""
    if ctx.executor.is_local:
        return None
    return f"not run on a remote board yet ({ctx.executor.name}): {why}"
