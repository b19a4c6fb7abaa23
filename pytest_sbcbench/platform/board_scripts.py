"""The board-side shell scripts the labgrid executor sends, and the pure string work around
them: quoting an argument vector into the one shell string labgrid's drivers take, and reading
the answer back into a :class:`~.executor.Completed`.  Nothing here talks to a board (so every
script can be run by a local ``sh``, see ``tests/test_labgrid_executor.py``).

:data:`RUN_WRAPPER` is a POSIX ``sh`` watchdog that runs on the board: it changes directory,
kills the command (TERM, then KILL) when the timeout expires and reports that with exit code 124
and a sentinel line on stderr.  :data:`SPLIT_WRAPPER` keeps a command's standard error apart on
a driver that merges both streams (labgrid's ShellDriver on a serial console) by printing it
after a random marker line.  :data:`PACK_SCRIPT` gzips a board file for the console transfer,
:data:`SPAWN_WRAPPER` announces a streaming command's board-side pid.
"""

from __future__ import annotations

import math
import secrets
import shlex
from collections.abc import Mapping, Sequence

from ..errors import ToolError
from .executor import Completed

KILL_GRACE_S = 2
TIMEOUT_EXIT = 124
TIMEOUT_SENTINEL = "sbcbench-run: timed out"
PID_PREFIX = "sbcbench-pid "

# $1 timeout (whole seconds), $2 directory ('' for the login directory), $3... the command.
# With setsid (util-linux, busybox) the command leads its own process group and a timeout kills
# the whole tree (make and its compilers); without it, only the command itself.  In the watchdog
# $! is the command until its sleep is forked and the sleep from the fork on, so its TERM trap
# never leaves a sleep behind and never signals the reaped command's pid.  It ignores TERM once
# it fired so that its exit code 9 survives the wrapper's kill.
RUN_WRAPPER = r"""t=$1; d=$2; shift 2
if [ -n "$d" ]; then cd -- "$d" || exit 125; fi
if command -v setsid >/dev/null 2>&1; then
  setsid "$@" & c=$!; g=-$c
else
  "$@" & c=$!; g=$c
fi
(
  trap '[ "$!" != "$c" ] && kill $! 2>/dev/null; exit 0' TERM
  sleep "$t" &
  wait $! || exit 0
  trap '' TERM
  kill -TERM "$g" 2>/dev/null
  sleep 2
  kill -KILL "$g" 2>/dev/null
  exit 9
) </dev/null >/dev/null 2>&1 &
w=$!
wait "$c" 2>/dev/null; rc=$?
kill "$w" 2>/dev/null
wait "$w" 2>/dev/null; wrc=$?
if [ "$wrc" = 9 ]; then
  printf '\n%s\n' "sbcbench-run: timed out after $t s" >&2
  exit 124
fi
exit "$rc"
"""

# $1 the marker, $2... the command.  The command's standard error goes to a file on the board and
# follows the marker line (after a newline, so a partial last output line stays the command's).
SPLIT_WRAPPER = r"""m=$1; shift
e=$(mktemp "${TMPDIR:-/tmp}/sbcbench-err.XXXXXX") || exit 125
"$@" 2>"$e"; rc=$?
printf '\n%s\n' "$m"
cat "$e"; rm -f "$e"
exit "$rc"
"""
SPLIT_PREFIX = "sbcbench-stderr-"

# $1 a board file: prints the path of a gzip copy of it (exit 3 without gzip).
PACK_SCRIPT = r"""command -v gzip >/dev/null 2>&1 || exit 3
t=$(mktemp "${TMPDIR:-/tmp}/sbcbench-get.XXXXXX") || exit 1
gzip -c -- "$1" > "$t" || { rm -f "$t"; exit 1; }
echo "$t"
"""

# Prints its own pid first (so stop() can kill it on the board), then becomes the command.
SPAWN_WRAPPER = 'echo "sbcbench-pid $$"; exec "$@"'


def env_prefix(env: Mapping[str, str] | None) -> list[str]:
    """``env NAME=value ...`` as argv words (empty without variables); names are checked."""
    if not env:
        return []
    words = ["env"]
    for name, value in env.items():
        if not name or not (name[0].isalpha() or name[0] == "_") or not all(
                c.isalnum() or c == "_" for c in name):
            raise ValueError(f"not an environment variable name: {name!r}")
        words.append(f"{name}={value}")
    return words


def remote_command(argv: Sequence[str], timeout: float, env: Mapping[str, str] | None = None,
                   cwd: str | None = None, marker: str | None = None) -> str:
    """The one shell string the board runs for ``argv``: the watchdog wrapper, quoted; with a
    ``marker``, inside :data:`SPLIT_WRAPPER` (a driver that merges standard error)."""
    if not argv:
        raise ValueError("empty command")
    seconds = max(1, math.ceil(timeout))
    words = ["sh", "-c", RUN_WRAPPER, "sbcbench-run", str(seconds), cwd or "",
             *env_prefix(env), *argv]
    return shlex.join(split_words(words, marker))


def split_words(words: list[str], marker: str | None) -> list[str]:
    """``words`` run under :data:`SPLIT_WRAPPER` with ``marker`` (unchanged without one)."""
    return words if marker is None else ["sh", "-c", SPLIT_WRAPPER, "sbcbench-split", marker,
                                         *words]


def new_marker() -> str:
    """A marker line no command prints by chance (random per call)."""
    return SPLIT_PREFIX + secrets.token_hex(12)


def split_output(argv: Sequence[str], lines: Sequence[str], marker: str
                 ) -> tuple[list[str], list[str]]:
    """(standard output, standard error) lines of a command run under :data:`SPLIT_WRAPPER`;
    the last marker line divides them.  No marker: the wrapper did not finish (ToolError)."""
    found = [i for i, line in enumerate(lines) if line == marker]
    if not found:
        raise ToolError(argv, None, "\n".join(lines[-30:]), "the board's output lost its "
                        "standard-error marker (the console is garbled or the shell died)")
    i = found[-1]
    out = list(lines[:i])
    if out and out[-1] == "":  # the newline the wrapper printed before the marker
        out.pop()
    return out, list(lines[i + 1:])


def spawn_command(argv: Sequence[str], env: Mapping[str, str] | None = None) -> str:
    """The shell string for a streaming command that announces its board-side pid."""
    if not argv:
        raise ValueError("empty command")
    return shlex.join(["sh", "-c", SPAWN_WRAPPER, "sbcbench-spawn", *env_prefix(env), *argv])


def completed(argv: Sequence[str], stdout: Sequence[str], stderr: Sequence[str],
              returncode: int) -> Completed:
    """A :class:`Completed` from labgrid's ``(stdout lines, stderr lines, exit code)``."""
    err = list(stderr)
    timed_out = returncode == TIMEOUT_EXIT and bool(err) and err[-1].startswith(TIMEOUT_SENTINEL)
    if timed_out:  # the sentinel follows a newline, so a partial last line stays the command's
        err = err[:-2] if len(err) > 1 and err[-2] == "" else err[:-1]
    return Completed(tuple(argv), returncode, _text(stdout), _text(err), timed_out)


def _text(lines: Sequence[str]) -> str:
    return "".join(f"{line}\n" for line in lines)
