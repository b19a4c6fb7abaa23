"""Running external tools: argument lists only, never a shell; every failure is loud."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import ToolError


def run_tool(argv: Sequence[str], timeout: float, what: str, *, expect_output: bool = True,
             env: Mapping[str, str] | None = None, cwd: Path | None = None,
             with_stderr: bool = False) -> str:
    """Run ``argv``; a missing executable, a timeout, a non-zero exit, or (when output is
    expected) empty output raises :class:`ToolError` with the command line and stderr.

    ``with_stderr`` returns stdout followed by stderr, for tools that report on stderr."""
    try:
        proc = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout,
                              check=False, env=None if env is None else dict(env), cwd=cwd)
    except FileNotFoundError as exc:
        raise ToolError(argv, None, str(exc), f"{what}: executable not found") from exc
    except subprocess.TimeoutExpired as exc:
        stderr = exc.stderr if isinstance(exc.stderr, str) else ""
        raise ToolError(argv, None, stderr, f"{what}: timed out after {timeout:.0f} s") from exc
    if proc.returncode != 0:
        raise ToolError(argv, proc.returncode, proc.stderr, f"{what}: exited {proc.returncode}")
    output = proc.stdout + proc.stderr if with_stderr else proc.stdout
    if expect_output and not output.strip():
        raise ToolError(argv, proc.returncode, proc.stderr, f"{what}: printed nothing")
    return output
