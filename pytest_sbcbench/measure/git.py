"""git, run with argument lists only (never a shell), without prompts."""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import ToolError
from ..platform.executor import Executor
from .tools import run_tool

NETWORK_SIGNS = re.compile(
    r"could not resolve host|unable to access|failed to connect|connection (refused|timed out)"
    r"|network is unreachable|could not read from remote repository|temporary failure in name"
    r"|no route to host|ssh: connect", re.IGNORECASE)


class NetworkError(ToolError):
    """git could not reach a remote: a reason to skip, not a broken tool."""


def git_env() -> dict[str, str]:
    """What git runs with on top of the environment: no prompts, C locale, batch ssh."""
    return {"GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true", "LC_ALL": "C",
            "GIT_SSH_COMMAND": os.environ.get("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")}


def git(repo: Path | None, *args: str, timeout: float = 600, expect_output: bool = False,
        executor: Executor | None = None) -> str:
    """``git [-C repo] args`` through ``executor`` (default: this machine)."""
    argv = ["git", *(["-C", str(repo)] if repo is not None else []), *args]
    try:
        return run_tool(argv, timeout, f"git {args[0]}", expect_output=expect_output,
                        env=git_env(), executor=executor)
    except ToolError as exc:
        if NETWORK_SIGNS.search(exc.stderr):
            raise NetworkError(exc.argv, exc.returncode, exc.stderr, exc.reason) from exc
        raise


def is_hex_commit(text: str) -> bool:
    return re.fullmatch(r"[0-9a-fA-F]{4,40}", text) is not None


def commits_with_prefix(repo: Path, prefix: str) -> list[str]:
    """Every commit whose SHA starts with ``prefix`` (ambiguity shows as more than one)."""
    out = []
    found = git(repo, "rev-parse", "--disambiguate=" + prefix.lower()).split()
    for sha in found:
        kind = git(repo, "cat-file", "-t", sha).strip()
        if kind == "commit":
            out.append(sha)
    return out


def ref_names(repo: Path, name: str) -> list[str]:
    """Refs (branches, tags, remote branches) literally called ``name``."""
    refs = git(repo, "for-each-ref", "--format=%(refname)").split()
    return [r for r in refs if r.rsplit("/", 1)[-1] == name]
