"""An :class:`~.executor.Executor` that runs on a labgrid target (a board in a lab).

Commands go through the target's ``CommandProtocol`` driver (``SSHDriver``; ``ShellDriver`` over a
serial console as the fallback) and files through its ``FileTransferProtocol`` (SSHDriver's scp;
over a console through the shell itself, see :meth:`LabgridExecutor.put`).  labgrid is an
optional dependency (``pip install 'pytest-sbcbench[labgrid]'``): it is imported only when a
target is opened from an environment file (:func:`open_target`), never at package import.

labgrid's drivers take one shell string, so every argument vector is quoted and wrapped in the
board-side scripts of :mod:`.board_scripts`: a POSIX ``sh`` watchdog that kills the command on
the board when its timeout expires (labgrid's SSHDriver only stops *waiting*: the command would
keep running and disturb the next measurement), so labgrid gets the timeout plus
:data:`TRANSPORT_GRACE_S` and the board's watchdog always fires first.

labgrid's ShellDriver (the fallback: a shell on the board's serial console) has one stream: the
tty carries the command's standard output and error together, and labgrid returns both as
standard output.  For any driver but SSHDriver every command is therefore also wrapped in
:data:`~.board_scripts.SPLIT_WRAPPER`, so :class:`Completed` keeps them apart (and the
watchdog's timeout sentinel is found where the SSH path finds it).

Streaming commands (:meth:`LabgridExecutor.spawn`, the board-side sampler) need a second SSH
channel that labgrid's public API does not offer: :mod:`.labgrid_ssh` builds it.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import shlex
import subprocess
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import BoardLost, SchemaError, ToolError
from .board_scripts import (
    PACK_SCRIPT,
    completed,
    new_marker,
    remote_command,
    spawn_command,
    split_output,
    split_words,
)
from .executor import Completed
from .labgrid_power import bring_up, emulator_exit, watch_emulator
from .labgrid_ssh import SshChannel, SshHandle

TRANSPORT_GRACE_S = 30.0
CONSOLE_CHUNK = 512  # bytes per printf over a console: 2 KiB of escapes, inside a tty's line


class LabgridExecutor:
    """Run commands and move files on a labgrid target (``target`` is a ``labgrid.Target``)."""

    def __init__(self, target: Any, name: str | None = None) -> None:
        self.target = target
        self._name = name or f"labgrid:{getattr(target, 'name', 'main')}"
        self._command: Any = None
        self._transfer: Any = None
        self.lost: str | None = None  # why the board stopped answering, once it did
        self._watched: Any = None  # the emulator process a watch is armed on

    @property
    def name(self) -> str:
        return self._name

    @property
    def is_local(self) -> bool:
        return False

    @property
    def command_driver(self) -> Any:
        """The target's active ``CommandProtocol`` driver (SSHDriver first); a target whose
        power driver is off is switched on and its shell waited for first
        (:func:`.labgrid_power.bring_up`)."""
        if self._command is None:
            self._command = bring_up(self.target, self.name)
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

    @contextlib.contextmanager
    def _guarded(self, argv: Sequence[str]) -> Iterator[None]:
        """labgrid's errors as :class:`ToolError` (:func:`_labgrid_errors`); a board that is
        gone (its emulator exited, its console broke) as :class:`BoardLost`, raised at once for
        every later call: the first command after the loss names it, and the rest of the run
        does not wait on a dead console (the run stops: :mod:`..plugin.hooks`)."""
        if self.lost is None and (exited := emulator_exit(self.target)) is not None:
            self.lost = f"{self.name}: the board is gone: {exited}"
        if self.lost is not None:
            raise BoardLost(self.lost)
        self._watched = watch_emulator(self.target, self._watched)
        try:
            with _labgrid_errors(argv, self.name):
                yield
        except Exception as exc:
            gone = emulator_exit(self.target) or (
                f"its console failed ({type(exc).__name__}: {exc})"
                if isinstance(exc, (OSError, EOFError)) else None)
            if gone is None:
                raise
            self.lost = f"{self.name}: the board is gone: {gone}"
            raise BoardLost(self.lost) from exc

    def run(self, argv: Sequence[str], timeout: float, env: Mapping[str, str] | None = None,
            cwd: str | None = None) -> Completed:
        marker = new_marker() if self.merges_stderr else None
        command = remote_command(argv, timeout, env, cwd, marker)
        try:
            with self._guarded(argv):
                out, err, code = self.command_driver.run(
                    command, timeout=timeout + TRANSPORT_GRACE_S, decodeerrors="replace")
        except BoardLost:
            raise
        except Exception as exc:
            if not _is_timeout(exc):
                raise
            exited = emulator_exit(self.target)
            if exited is not None:  # the silence was the emulator's death
                self.lost = f"{self.name}: the board is gone: {exited}"
                raise BoardLost(self.lost) from exc
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
        with self._guarded(argv):
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
        with self._guarded(["put", str(local), remote]):
            self.transfer_driver.put(str(local), remote)

    def get(self, remote: str, local: Path) -> None:
        """Copy ``remote`` to exactly ``local`` (labgrid's ``get`` takes a directory; over a
        console: :meth:`_console_get`)."""
        if self.merges_stderr:
            data = self._console_get(remote)
        else:
            with tempfile.TemporaryDirectory(prefix="sbcbench-get-") as tmp:
                with self._guarded(["get", remote]):
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
    from labgrid.exceptions import InvalidConfigError, NoConfigFoundError

    try:  # labgrid reads the YAML and builds the target's resources and drivers here
        target = Environment(str(env_file)).get_target(role)
    except NoConfigFoundError as exc:
        raise SchemaError(env_file, None, "labgrid environment file not found") from exc
    except (InvalidConfigError, OSError, KeyError, TypeError, ValueError,
            AttributeError) as exc:
        said = " ".join(str(exc).split())  # one line (a YAML error spans three)
        raise SchemaError(env_file, None, f"not a usable labgrid environment: "
                                          f"{type(exc).__name__}: {said}") from exc
    if target is None:
        raise SchemaError(env_file, None, f"labgrid environment has no target {role!r}")
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
