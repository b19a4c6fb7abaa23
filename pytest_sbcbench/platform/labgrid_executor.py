"""An :class:`~.executor.Executor` that runs on a labgrid target (a board in a lab).

Commands go through the target's ``CommandProtocol`` driver (``SSHDriver``; ``ShellDriver`` over a
serial console as the fallback) and files through its ``FileTransferProtocol`` (SSHDriver's scp;
over a console through the shell itself, see :meth:`LabgridExecutor.put`).  labgrid is an
optional dependency (``pip install 'pytest-sbcbench[labgrid]'``): it is imported only when a
target is opened from an environment file (:func:`open_target`), never at package import.

labgrid's drivers take one shell string, so every argument vector is quoted with
:func:`shlex.join` and wrapped in :data:`RUN_WRAPPER`, a POSIX ``sh`` watchdog that runs on the
board: it changes directory, kills the command (TERM, then KILL) when the timeout expires and
reports that with exit code 124 and a sentinel line on stderr.  The board-side watchdog matters
because labgrid's SSHDriver only stops *waiting* on a timeout: the command itself would keep
running on the board and disturb the next measurement.  labgrid gets the timeout plus
:data:`TRANSPORT_GRACE_S`, so the board's watchdog always fires first.

labgrid's ShellDriver (the fallback: a shell on the board's serial console) has one stream: the
tty carries the command's standard output and error together, and labgrid returns both as
standard output.  For any driver but SSHDriver every command is therefore also wrapped in
:data:`SPLIT_WRAPPER`, which keeps the command's standard error in a temporary file on the board
and prints it after a random marker line, so :class:`Completed` keeps them apart (and the
watchdog's timeout sentinel is found where the SSH path finds it).

Streaming commands (:meth:`LabgridExecutor.spawn`, the board-side sampler) need a second SSH
channel that labgrid's public API does not offer.  :class:`SshChannel` builds it from the
SSHDriver's connection (its ``ssh_prefix``, which carries the driver's private ControlMaster
socket, and its ``networkservice``) and is the only code that relies on those attributes;
``tests/test_labgrid_adapter.py`` fails loudly when a labgrid release changes them.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import math
import queue
import secrets
import shlex
import subprocess
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ToolError
from .executor import Completed

TRANSPORT_GRACE_S = 30.0
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
CONSOLE_CHUNK = 512  # bytes per printf over a console: 2 KiB of escapes, inside a tty's line

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


@dataclass(frozen=True)
class SshChannel:
    """The adapter: an ``ssh`` command line that reuses an active SSHDriver's connection.

    Relies on three SSHDriver attributes set by ``on_activate`` (as read in labgrid 26.0.1):
    ``ssh_prefix`` (options including ``-F none`` and the ControlPath of the driver's master),
    ``networkservice`` (address, port, username) and ``username`` (the driver's override).
    The ssh executable comes from the environment's ``tools: ssh`` like the driver's own.
    """

    ssh: str
    prefix: tuple[str, ...]
    address: str
    port: int
    username: str

    @classmethod
    def of(cls, driver: Any) -> SshChannel:
        prefix = getattr(driver, "ssh_prefix", None)
        service = getattr(driver, "networkservice", None)
        if not isinstance(prefix, list) or not any("ControlPath=" in p for p in prefix):
            raise ToolError(["ssh"], None, "", "labgrid SSHDriver has no ssh_prefix with a "
                            "ControlPath: this labgrid release changed the driver; the "
                            "board-side sampler cannot stream (see labgrid_executor.SshChannel)")
        if service is None or not all(hasattr(service, a) for a in ("address", "port",
                                                                    "username")):
            raise ToolError(["ssh"], None, "", "labgrid SSHDriver has no networkservice with "
                            "address/port/username: this labgrid release changed the driver")
        env = getattr(getattr(driver, "target", None), "env", None)
        ssh = env.config.get_tool("ssh") if env is not None else "ssh"
        username = getattr(driver, "username", "") or service.username
        return cls(str(ssh), tuple(prefix), str(service.address), int(service.port),
                   str(username))

    def argv(self, command: str) -> list[str]:
        """The local argv that runs the shell string ``command`` on the board."""
        return [self.ssh, "-x", *self.prefix, "-p", str(self.port), "-l", self.username,
                self.address, command]


class SshHandle:
    """A board-side command streaming over its own ssh channel; :meth:`stop` ends both ends."""

    def __init__(self, executor: LabgridExecutor, argv: Sequence[str], proc: subprocess.Popen[str]
                 ) -> None:
        self._executor = executor
        self.argv = tuple(argv)
        self._proc = proc
        self.stderr = ""  # what the ssh channel printed on stderr, after stop()
        self.remote_pid = self._read_pid()
        self._stopped = False
        # One reader owns standard output to its end (then closes it): lines() takes from its
        # queue, and stop() waits for it, so the last line (a sampler's final sample) is kept.
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read_all, name="sbcbench-ssh-reader",
                                        daemon=True)
        self._reader.start()

    def _read_all(self) -> None:
        assert self._proc.stdout is not None
        with self._proc.stdout:
            for line in self._proc.stdout:
                self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def _read_pid(self) -> int:
        assert self._proc.stdout is not None
        first = self._proc.stdout.readline()
        if not first.startswith(PID_PREFIX) or not first[len(PID_PREFIX):].strip().isdigit():
            self._proc.kill()
            _, err = self._proc.communicate()
            raise ToolError(self.argv, self._proc.returncode, err or "",
                            f"board-side command did not start (first line {first!r})")
        return int(first[len(PID_PREFIX):])

    def lines(self) -> Iterator[str]:
        while (line := self._queue.get()) is not None:
            yield line
        self._queue.put(None)  # a second iteration ends at once too

    def stop(self) -> None:
        """TERM the board-side process (a sampler prints its last sample), then close ssh."""
        if self._stopped:
            return
        self._stopped = True
        if self._proc.poll() is None:
            self._executor.run(["kill", "-TERM", str(self.remote_pid)], timeout=30)
        try:
            self._proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._reader.join(timeout=30)
        if self._proc.stderr is not None:
            with self._proc.stderr:
                self.stderr = self._proc.stderr.read()


class LabgridExecutor:
    """Run commands and move files on a labgrid target (``target`` is a ``labgrid.Target``)."""

    def __init__(self, target: Any, name: str | None = None) -> None:
        self.target = target
        self._name = name or f"labgrid:{getattr(target, 'name', 'main')}"
        self._command: Any = None
        self._transfer: Any = None

    @property
    def name(self) -> str:
        return self._name

    @property
    def is_local(self) -> bool:
        return False

    @property
    def command_driver(self) -> Any:
        """The target's active ``CommandProtocol`` driver (SSHDriver first)."""
        if self._command is None:
            self._command = self.target.get_driver("CommandProtocol")
        return self._command

    @property
    def merges_stderr(self) -> bool:
        """True when the driver returns standard error inside standard output (all but
        SSHDriver: ShellDriver's serial console is one stream)."""
        return type(self.command_driver).__name__ != "SSHDriver"

    def stream_unavailable(self) -> str | None:
        """Why :meth:`spawn` cannot stream here (None: it can).  A serial console carries one
        command at a time: a sampler streaming on it would interleave with every command's
        output and block the commands it should watch."""
        name = type(self.command_driver).__name__
        if name == "SSHDriver":
            return None
        return (f"{self.name} runs commands through labgrid's {name} (one console, one "
                "command at a time): the board sampler needs a second channel beside the "
                "workload's commands, which only SSHDriver gives")

    @property
    def transfer_driver(self) -> Any:
        if self._transfer is None:
            self._transfer = self.target.get_driver("FileTransferProtocol")
        return self._transfer

    def run(self, argv: Sequence[str], timeout: float, env: Mapping[str, str] | None = None,
            cwd: str | None = None) -> Completed:
        marker = new_marker() if self.merges_stderr else None
        command = remote_command(argv, timeout, env, cwd, marker)
        try:
            with _labgrid_errors(argv, self.name):
                out, err, code = self.command_driver.run(
                    command, timeout=timeout + TRANSPORT_GRACE_S, decodeerrors="replace")
        except Exception as exc:
            if not _is_timeout(exc):
                raise
            return Completed(tuple(argv), -1, "", f"{self.name}: no answer from the board "
                             f"within {timeout + TRANSPORT_GRACE_S:.0f} s", timed_out=True)
        if marker is not None:
            out, err = split_output(argv, out, marker)
        return completed(argv, out, err, code)

    def read(self, path: str) -> bytes | None:
        """A board file's exact bytes (``cat`` plus an end marker, so a missing final newline
        survives labgrid's line splitting); ``None`` when it cannot be read."""
        argv = ["sh", "-c", 'cat -- "$1" && printf .', "sbcbench-read", path]
        marker = new_marker() if self.merges_stderr else None
        command = shlex.join(split_words(argv, marker))
        with _labgrid_errors(argv, self.name):
            out, _, code = self.command_driver.run(command, timeout=60 + TRANSPORT_GRACE_S,
                                                   decodeerrors="surrogateescape")
        if code != 0:
            return None
        if marker is not None:
            out, _ = split_output(argv, out, marker)
        text = "\n".join(out)
        if not text.endswith("."):
            raise ToolError(argv, code, "", f"{self.name}: read of {path} lost its end marker")
        return text[:-1].encode("utf-8", "surrogateescape")

    def put(self, local: Path, remote: str) -> None:
        """Copy ``local`` to ``remote`` on the board (over a console: :meth:`_console_put`)."""
        if self.merges_stderr:
            self._console_put(local, remote)
            return
        with _labgrid_errors(["put", str(local), remote], self.name):
            self.transfer_driver.put(str(local), remote)

    def get(self, remote: str, local: Path) -> None:
        """Copy ``remote`` to exactly ``local`` (labgrid's ``get`` takes a directory; over a
        console: :meth:`_console_get`)."""
        if self.merges_stderr:
            data = self._console_get(remote)
        else:
            with tempfile.TemporaryDirectory(prefix="sbcbench-get-") as tmp:
                with _labgrid_errors(["get", remote], self.name):
                    self.transfer_driver.get(remote, tmp)
                fetched = Path(tmp) / Path(remote).name
                if not fetched.is_file():
                    raise ToolError(["get", remote], None, "", f"{self.name}: {remote} did "
                                    "not arrive")
                data = fetched.read_bytes()
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_bytes(data)

    # Files over a console.  labgrid's ShellDriver moves files with XMODEM (rz/sz on the
    # board); it is not used: lrzsz's rz refuses the absolute path labgrid gives it (a silent
    # empty file), and when the receiver's last ACK goes missing the sender's repeated EOT is a
    # Ctrl-D typed into the shell, which logs the console out.  The shell itself suffices:
    # printf's octal escapes up, od's hex dump down, each command a checked Completed.

    def _must(self, argv: list[str], what: str, timeout: float = 120) -> Completed:
        done = self.run(argv, timeout=timeout)
        if done.returncode != 0 or done.timed_out:
            raise ToolError(argv[:5], done.returncode, done.stderr, f"{self.name}: {what} "
                            "failed on the board")
        return done

    def _console_put(self, local: Path, remote: str) -> None:
        data = local.read_bytes()
        self._must(["sh", "-c", ': > "$1"', "sbcbench-put", remote], f"creating {remote}")
        for start in range(0, len(data), CONSOLE_CHUNK):
            escapes = "".join(f"\\{byte:03o}" for byte in data[start:start + CONSOLE_CHUNK])
            self._must(["sh", "-c", 'printf "$2" >> "$1"', "sbcbench-put", remote, escapes],
                       f"writing {remote}")
        arrived = self._size(remote)
        if arrived != len(data):
            raise ToolError(["put", str(local), remote], None, "", f"{self.name}: {remote} "
                            f"has {arrived} bytes on the board, not {len(data)}")

    def _size(self, remote: str) -> int:
        done = self._must(["sh", "-c", 'wc -c < "$1"', "sbcbench-size", remote],
                          f"reading the size of {remote}")
        words = done.stdout.split()
        if len(words) != 1 or not words[0].isdigit():
            raise ToolError(["wc", "-c", remote], 0, done.stdout, f"{self.name}: not a size")
        return int(words[0])

    def _console_get(self, remote: str) -> bytes:
        """The bytes of ``remote``, gzip-compressed on the board first when it has gzip (a
        captured tree of ``/proc`` and ``/sys`` shrinks about 30-fold)."""
        packed = self._pack(remote)
        if packed is None:
            return self._dump(remote)
        try:
            return _gunzip(self._dump(packed), remote, self.name)
        finally:
            self.run(["rm", "-f", packed], timeout=60)

    def _dump(self, remote: str) -> bytes:
        size = self._size(remote)
        done = self._must(["od", "-An", "-v", "-tx1", remote], f"reading {remote}",
                          timeout=600)
        try:
            data = bytes.fromhex("".join(done.stdout.split()))
        except ValueError as exc:
            raise ToolError(["od", remote], 0, done.stdout[-400:], f"{self.name}: od printed "
                            "something else than hex bytes") from exc
        if len(data) != size:
            raise ToolError(["od", remote], 0, "", f"{self.name}: {len(data)} bytes of "
                            f"{remote} arrived, not {size}")
        return data

    def _pack(self, remote: str) -> str | None:
        """A gzip copy of ``remote`` in a temporary file on the board, or None (no gzip, or the
        file cannot be read: the plain transfer then says why)."""
        done = self.run(["sh", "-c", PACK_SCRIPT, "sbcbench-pack", remote], timeout=300)
        path = done.stdout.strip()
        return path if done.returncode == 0 and path.startswith("/") else None

    def spawn(self, argv: Sequence[str], env: Mapping[str, str] | None = None) -> SshHandle:
        """Start ``argv`` on the board over a second SSH channel (SSHDriver only)."""
        reason = self.stream_unavailable()
        if reason is not None:
            raise ToolError(argv, None, "", reason)
        channel = SshChannel.of(self.command_driver)
        proc = subprocess.Popen(channel.argv(spawn_command(argv, env)), stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        return SshHandle(self, argv, proc)


def _gunzip(data: bytes, remote: str, name: str) -> bytes:
    """The bytes of a gzip file fetched from the board; a damaged one is a ToolError."""
    try:
        return gzip.decompress(data)
    except (OSError, EOFError) as exc:
        raise ToolError(["get", remote], None, str(exc), f"{name}: the compressed copy of "
                        f"{remote} arrived damaged") from exc


def _is_timeout(exc: BaseException) -> bool:
    """labgrid gave up waiting: SSHDriver's ``subprocess.TimeoutExpired`` or ShellDriver's
    pexpect ``TIMEOUT`` (matched by name: pexpect comes with labgrid, imported lazily)."""
    return isinstance(exc, subprocess.TimeoutExpired) or type(exc).__name__ == "TIMEOUT"


@contextlib.contextmanager
def _labgrid_errors(argv: Sequence[str], name: str) -> Iterator[None]:
    """labgrid's ``ExecutionError`` (lost connection, failed transfer) as a :class:`ToolError`
    naming the command; matched by name so this module never imports labgrid at load time."""
    try:
        yield
    except Exception as exc:
        if type(exc).__name__ != "ExecutionError":
            raise
        raise ToolError(argv, None, str(exc), f"{name}: labgrid could not run it") from exc


def env_digest(path: Path) -> str:
    """``sha256:<hex>`` of a labgrid environment file (recorded with the session)."""
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def open_target(env_file: Path, role: str = "main") -> Any:
    """The ``role`` target of a labgrid environment file (imports labgrid here, lazily)."""
    try:
        from labgrid import Environment
    except ImportError as exc:
        raise ToolError(["labgrid"], None, str(exc), "labgrid is not installed: "
                        "pip install 'pytest-sbcbench[labgrid]'") from exc
    target = Environment(str(env_file)).get_target(role)
    if target is None:
        raise ToolError(["labgrid", str(env_file)], None, "",
                        f"{env_file} has no target {role!r}")
    return target


def place_tags(target: Any) -> dict[str, str]:
    """The tags of the target's ``RemotePlace`` (``board=star64 soc=jh7110``), else empty."""
    for resource in getattr(target, "resources", []):
        if type(resource).__name__ == "RemotePlace":
            return {str(k): str(v) for k, v in (getattr(resource, "tags", None) or {}).items()}
    return {}


def place_name(target: Any) -> str | None:
    """The name of the target's ``RemotePlace`` (the lab place), else None."""
    for resource in getattr(target, "resources", []):
        if type(resource).__name__ == "RemotePlace":
            return str(resource.name)
    return None
