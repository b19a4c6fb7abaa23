"""Timing a build on the board itself, never as the SSH round trip.

:func:`timed_argv` wraps a command in a POSIX ``sh`` program that reads the kernel's uptime
clock (monotonic, 10 ms resolution) before and after the command and then runs the ``times``
special builtin, whose second line is the user and system CPU time of the shell's waited-for
children (and, through them, of everything they waited for: make's compilers).  No
``/usr/bin/time``, no Python: any board shell does it.  The report is appended to stderr after
a marker line and :func:`parse_timing` takes it off again.

    sbcbench-time v1 start=<uptime s> end=<uptime s> rc=<exit code>
    <shell user>m<s>s <shell sys>m<s>s
    <children user>m<s>s <children sys>m<s>s
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import ParseError
from ..platform.sysroot import PROC

MARKER = "sbcbench-time v1 "
_WRAPPER = r"""{ read -r up0 _ < @PROC@/uptime; } 2>/dev/null || up0=-
"$@"
rc=$?
{ read -r up1 _ < @PROC@/uptime; } 2>/dev/null || up1=-
echo "sbcbench-time v1 start=$up0 end=$up1 rc=$rc" >&2
times >&2
exit "$rc"
"""
_TIMES = re.compile(r"^\s*(\d+)m\s*(\d+(?:[.,]\d+)?)s\s+(\d+)m\s*(\d+(?:[.,]\d+)?)s\s*$")
_HEAD = re.compile(r"^start=(\S+) end=(\S+) rc=(\d+)$")


@dataclass(frozen=True)
class BoardTiming:
    """One timed command on the board: wall from the uptime clock, CPU from its rusage."""

    wall_s: float
    user_s: float
    sys_s: float
    returncode: int

    @property
    def cpu_s(self) -> float:
        return self.user_s + self.sys_s


def timed_argv(argv: Sequence[str], root: str = "/") -> list[str]:
    """``argv`` wrapped in the timing shell (``root`` prefixes the uptime path in tests)."""
    if not argv:
        raise ValueError("empty command")
    script = _WRAPPER.replace("@PROC@", f"{root.rstrip('/')}/{PROC}")
    return ["sh", "-c", script, "sbcbench-time", *argv]


def _seconds(minutes: str, seconds: str) -> float:
    return int(minutes) * 60 + float(seconds.replace(",", "."))


def parse_timing(stderr: str) -> tuple[BoardTiming, str]:
    """The timing report at the end of ``stderr`` and the command's own stderr before it.

    A missing or malformed report, an unreadable clock, or no CPU time at all for a command
    that ran a second or more (a broken ``times``) is a :class:`ParseError`."""
    lines = stderr.splitlines()
    at = max((i for i, line in enumerate(lines) if line.startswith(MARKER)), default=None)
    if at is None or len(lines) < at + 3:
        raise ParseError("board timing report", "no complete 'sbcbench-time' trailer on stderr",
                         "\n".join(lines[-5:]))
    head = _HEAD.match(lines[at][len(MARKER):])
    children = _TIMES.match(lines[at + 2])
    if head is None or children is None or _TIMES.match(lines[at + 1]) is None:
        raise ParseError("board timing report", "unknown format", "\n".join(lines[at:at + 3]))
    start, end, rc = head.groups()
    if "-" in (start, end):
        raise ParseError("board timing report", "the board's uptime clock is unreadable",
                         lines[at])
    wall = float(end) - float(start)
    user = _seconds(children.group(1), children.group(2))
    system = _seconds(children.group(3), children.group(4))
    if wall < 0:
        raise ParseError("board timing report", "the uptime clock went backwards", lines[at])
    if wall >= 1.0 and user + system == 0:
        raise ParseError("board timing report", f"{wall:.2f} s of wall time but no CPU time "
                         "at all: this shell's 'times' is broken", "\n".join(lines[at:at + 3]))
    own = "".join(f"{line}\n" for line in lines[:at])
    return BoardTiming(round(wall, 2), user, system, int(rc)), own
