"""The second SSH channel of a labgrid SSHDriver: streaming commands beside the workload's.

labgrid's public API runs one command and returns its output; the board-side sampler needs a
command that streams lines while other commands run.  :class:`SshChannel` builds an ``ssh``
command line from an active SSHDriver's connection (its ``ssh_prefix``, which carries the
driver's private ControlMaster socket, and its ``networkservice``) and is the only code that
relies on those attributes; ``tests/test_labgrid.py`` fails loudly when a labgrid release changes
them.  :class:`SshHandle` is one such command, read by one thread and stopped on both ends.
"""

from __future__ import annotations

import queue
import subprocess
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ToolError
from .board_scripts import PID_PREFIX
from .executor import Executor


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

    def __init__(self, executor: Executor, argv: Sequence[str], proc: subprocess.Popen[str]
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
