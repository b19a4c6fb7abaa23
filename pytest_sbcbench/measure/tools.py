"""Running external tools through the executor: argument lists only, never a shell; every
failure is loud."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import ToolError
from ..platform.executor import Completed, Executor, default_executor


def run_tool(argv: Sequence[str], timeout: float, what: str, *, expect_output: bool = True,
             env: Mapping[str, str] | None = None, cwd: Path | None = None,
             with_stderr: bool = False, executor: Executor | None = None) -> str:
    """Run ``argv``; a missing executable, a timeout, a non-zero exit, or (when output is
    expected) empty output raises :class:`ToolError` with the command line and stderr.

    ``env`` adds to the environment.  ``with_stderr`` returns stdout followed by stderr, for
    tools that report on stderr.  ``executor`` defaults to this machine; the session passes
    its own."""
    done = run_checked(argv, timeout, what, env=env, cwd=cwd, executor=executor)
    output = done.stdout + done.stderr if with_stderr else done.stdout
    if expect_output and not output.strip():
        raise ToolError(argv, done.returncode, done.stderr, f"{what}: printed nothing")
    return output


def run_checked(argv: Sequence[str], timeout: float, what: str, *,
                env: Mapping[str, str] | None = None, cwd: Path | None = None,
                executor: Executor | None = None) -> Completed:
    """:func:`run_tool`'s checks (missing executable, timeout, non-zero exit), returning both
    streams apart (a tool that reports its timing on stderr, such as ``openssl speed -mr``)."""
    runner = executor if executor is not None else default_executor()
    try:
        done = runner.run(list(argv), timeout, env=env,
                          cwd=None if cwd is None else str(cwd))
    except FileNotFoundError as exc:
        raise ToolError(argv, None, str(exc), f"{what}: executable not found") from exc
    if done.timed_out:
        raise ToolError(argv, None, done.stderr, f"{what}: timed out after {timeout:.0f} s")
    if done.returncode != 0:
        raise ToolError(argv, done.returncode, done.stderr, f"{what}: exited {done.returncode}")
    return done


# The name is an argument, never shell text.  A shell that prefers its own applets (Debian's
# busybox-static ash) answers ``command -v tar`` with the bare name: the PATH entry is then
# looked for directly, so a busybox board's tar, dd, sort are found where they are.
LOOKUP = ("sh", "-c", r"""p=$(command -v -- "$1") || exit 1
case $p in /*) echo "$p"; exit 0;; esac
IFS=:
for d in $PATH; do
  if [ -f "$d/$1" ] && [ -x "$d/$1" ]; then echo "$d/$1"; exit 0; fi
done
exit 1""", "sh")


def which(name: str, *, executor: Executor | None = None) -> str | None:
    """The path of the executable ``name`` where ``executor`` runs commands, or ``None``.

    This machine: :func:`shutil.which` (no subprocess, so looking a tool up costs nothing).
    Another target: ``command -v`` in a fixed ``sh -c`` script that takes ``name`` as its
    positional argument, so no part of ``name`` is ever parsed by the shell."""
    runner = executor if executor is not None else default_executor()
    if runner.is_local:
        return shutil.which(name)
    done = runner.run([*LOOKUP, name], 30)
    found = done.stdout.strip().splitlines()
    if done.timed_out or done.returncode != 0 or not found or not found[0].startswith("/"):
        return None
    return found[0]


USER_BIN_DIRS = ("~/.cargo/bin", "~/.local/bin")
"""Where a user's own installers put tools (rustup: ``~/.cargo/bin``; ``pip install --user``,
pipx: ``~/.local/bin``), which a login shell has on PATH only once the installer's profile
line has run (``. ~/.cargo/env``)."""


def not_found(name: str, advice: str) -> str:
    """Why ``name`` is not run: not on PATH, and ``advice``; when it is installed in one of
    :data:`USER_BIN_DIRS` of this machine, that file is named with the PATH line it needs."""
    for folder in USER_BIN_DIRS:
        candidate = Path(folder).expanduser() / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return (f"{name} not found on PATH, but {candidate} is installed: add {folder} to "
                    f"PATH (export PATH=\"{candidate.parent}:$PATH\") and run again")
    return f"{name} not found on PATH: {advice}"
