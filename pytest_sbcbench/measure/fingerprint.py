"""What a source tree is: files of its language, their physical lines, its crates."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .git import git

LANGUAGE_SUFFIXES = {"rust": (".rs",), "c": (".c", ".h"), "cpp": (".cc", ".cpp", ".hpp", ".h")}


@dataclass(frozen=True)
class Fingerprint:
    language: str
    files: int
    loc: int
    crates: int | None
    lockfile: str  # "tracked", "generated" (resolved fresh at checkout), or "none"

    def as_dict(self) -> dict[str, object]:
        return {"language": self.language, "files": self.files, "loc": self.loc,
                "crates": self.crates, "lockfile": self.lockfile}


def language_of(tracked: list[str]) -> str:
    if "Cargo.toml" in tracked or any(p.endswith("/Cargo.toml") for p in tracked):
        return "rust"
    if any(p.endswith((".cc", ".cpp")) for p in tracked):
        return "cpp"
    return "c"


def count_lines(data: bytes) -> int:
    """Physical lines as ``wc -l`` counts them: newline characters."""
    return data.count(b"\n")


def count_crates(lock_text: str) -> int:
    """Packages in a Cargo.lock (``[[package]]`` tables)."""
    return len(re.findall(r"^\[\[package\]\]\s*$", lock_text, flags=re.MULTILINE))


def tracked_files(repo: Path, sha: str) -> list[str]:
    return [p for p in git(repo, "ls-tree", "-r", "--name-only", "-z", sha).split("\0") if p]


def fingerprint(worktree: Path, sha: str, lockfile: str) -> Fingerprint:
    """Count the source files tracked at ``sha`` (read from the checked-out worktree)."""
    tracked = tracked_files(worktree, sha)
    language = language_of(tracked)
    sources = [p for p in tracked if p.endswith(LANGUAGE_SUFFIXES[language])]
    loc = sum(count_lines((worktree / p).read_bytes()) for p in sources)
    crates = None
    lock = worktree / "Cargo.lock"
    if language == "rust" and lock.exists():
        crates = count_crates(lock.read_text(encoding="utf-8", errors="replace"))
    return Fingerprint(language, len(sources), loc, crates, lockfile)
