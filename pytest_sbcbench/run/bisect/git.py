"""``git bisect`` itself in the repository being bisected: start, good, bad, skip, log, reset.

git chooses every commit and keeps its own log (``git bisect log``); this module only reads
what it says: the commit it checked out, ``<sha> is the first bad commit``, or ``The first bad
commit could be any of:`` when skipped commits leave more than one."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

from ...errors import SbcBenchError
from .procedure import Finished, Mark

FIRST_BAD = re.compile(r"^([0-9a-f]{40}) is the first bad commit", re.MULTILINE)
ANY_OF = "The first bad commit could be any of:"
SHA = re.compile(r"^[0-9a-f]{40}$")


class GitError(SbcBenchError):
    """A git command in the bisected repository failed (its command and output in the text)."""


class Git:
    def __init__(self, repo: Path):
        self.repo = repo

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(["git", "-C", str(self.repo), *args], capture_output=True,
                              text=True, check=False)
        if check and done.returncode != 0:
            raise GitError(f"git {' '.join(args)} in {self.repo} exited {done.returncode}: "
                           f"{(done.stderr or done.stdout).strip()}")
        return done

    def sha(self, ref: str) -> str:
        return self.run("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").stdout.strip()

    def short(self, sha: str) -> str:
        return self.run("rev-parse", "--short=12", sha).stdout.strip()

    def head(self) -> str:
        return self.sha("HEAD")

    def checkout(self, sha: str) -> None:
        if self.head() != sha:
            self.run("checkout", "-q", "--detach", sha)

    def bisecting(self) -> bool:
        return self.run("bisect", "log", check=False).returncode == 0

    def subject(self, sha: str) -> str:
        return self.run("log", "-1", "--format=%s", sha).stdout.strip()


class GitBisector:
    """The :class:`~.procedure.Bisector` of a repository (``git bisect`` in it)."""

    def __init__(self, git: Git, good: str, bad: str):
        self.git, self.good, self.bad = git, good, bad

    def count(self) -> int:
        return int(self.git.run("rev-list", "--count", f"{self.good}..{self.bad}").stdout)

    def start(self) -> str | Finished:
        if self.git.bisecting():
            self.git.run("bisect", "reset")
        return self._after(self.git.run("bisect", "start", self.bad, self.good, check=False),
                           "start")

    def mark(self, commit: str, mark: Mark) -> str | Finished:
        return self._after(self.git.run("bisect", mark, commit, check=False), mark)

    def replay(self, marks: Sequence[tuple[str, Mark]]) -> str | Finished:
        """A bisect started afresh with ``marks`` (a corrected log: git's own remedy for a
        wrong mark is ``git bisect replay`` of an edited log); where it goes next."""
        after = self.start()
        for commit, mark in marks:
            after = self.mark(commit, mark)
        return after

    def parent(self, commit: str) -> str | None:
        done = self.git.run("rev-parse", "--verify", "--quiet", f"{commit}^", check=False)
        return done.stdout.strip() or None

    def log(self) -> str:
        done = self.git.run("bisect", "log", check=False)
        return done.stdout if done.returncode == 0 else ""

    def reset(self) -> None:
        if self.git.bisecting():
            self.git.run("bisect", "reset")

    def _after(self, done: subprocess.CompletedProcess[str], what: str) -> str | Finished:
        out = done.stdout
        found = FIRST_BAD.search(out)
        if found:
            return Finished(found.group(1))
        if ANY_OF in out:
            tail = out.split(ANY_OF, 1)[1].split()
            return Finished(None, tuple(t for t in tail if SHA.match(t)))
        if done.returncode != 0:
            raise GitError(f"git bisect {what} in {self.git.repo} exited {done.returncode}: "
                           f"{(done.stderr or out).strip()}")
        return self.git.head()
