"""A real labgrid lab on 127.0.0.1 for the integration tests: sshd as the "board", a
labgrid-coordinator, a labgrid-exporter exporting the sshd as a ``NetworkService``, and a place
with tags that is reserved and locked with ``labgrid-client``.

Everything binds to 127.0.0.1, lives in one temporary directory (its own host and client keys,
no system ssh configuration) and is stopped by process id in :meth:`Lab.close`.  The sshd
session's PATH starts with a "board-only" directory whose ``openssl`` logs every invocation, so a
test can prove a command ran on the board side.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

SSHD = "/usr/sbin/sshd"
PLACE = "sbc-lab-1"
EXPORTER = "sbc-exporter"
TAGS = {"board": "lab-sshd", "soc": "none"}
PRIVSEP_DIR = "/run/sshd"
START_TIMEOUT_S = 30.0


class LabUnavailable(Exception):
    """sshd or labgrid is not installed or cannot be started here (the test skips)."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Wait until 127.0.0.1:port accepts connections; fail with the process's log if it dies."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args!r} exited {proc.returncode}:\n{log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{proc.args!r} did not listen on {port}:\n{log.read_text()}")


def labgrid_tool(name: str) -> str:
    """A labgrid console script next to this Python (the venv), else on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        raise LabUnavailable(f"{name} not found: pip install '.[labgrid]' (see .ci/install-lab)")
    return found


def preload_labgrid() -> None:
    """Import labgrid's client (and grpc) at collection, before any in-process pytester run.

    Those runs autoload labgrid's pytest plugin, and pytester drops every module first
    imported inside them; a labgrid imported afresh afterwards could not reach the coordinator
    (grpc: "... attached to a different loop"), seen in the full suite after test_hooks.py.
    Without labgrid this does nothing and the lab fixture skips with the reason."""
    try:
        import labgrid.remote.client  # noqa: F401
    except ImportError:
        pass


def check_available() -> None:
    """Raise :class:`LabUnavailable` with the precise reason when the lab cannot run here."""
    try:
        import labgrid  # noqa: F401
    except ImportError as exc:
        raise LabUnavailable(f"labgrid is not installed ({exc}): pip install '.[labgrid]' "
                             "(see .ci/install-lab)") from exc
    for tool in (SSHD, "ssh", "ssh-keygen", "scp"):
        if shutil.which(tool) is None:
            raise LabUnavailable(f"{tool} not found: apt-get install openssh-server "
                                 "openssh-client (see .ci/install-lab)")
    if os.geteuid() == 0 and not Path(PRIVSEP_DIR).is_dir():
        try:
            os.makedirs(PRIVSEP_DIR, mode=0o755, exist_ok=True)  # sshd's privilege separation
        except OSError as exc:
            raise LabUnavailable(f"sshd as root needs {PRIVSEP_DIR}: {exc}") from exc


OPENSSL_WRAPPER = """#!/bin/sh
# The board's openssl: logs each invocation, then runs the real one.  While {slow} exists it
# runs with every CPU feature hidden from openssl (no SHA/AES instructions, no AVX, no NEON): a
# real, much slower openssl, as on a board whose kernel or firmware hides a CPU feature.
echo "$$ $*" >> {log}
if [ -e {slow} ]; then
  OPENSSL_ia32cap="~0xffffffffffffffff:~0xffffffffffffffff" OPENSSL_armcap=0
  export OPENSSL_ia32cap OPENSSL_armcap
fi
exec {real} "$@"
"""


@dataclass
class Lab:
    """The running lab; :meth:`close` stops every process it started, by pid."""

    root: Path
    coordinator: str = ""
    env_file: Path = Path()
    key: Path = Path()
    user: str = ""
    sshd_port: int = 0
    board_bin: Path = Path()
    board_log: Path = Path()
    board_slow: Path = Path()
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    token: str | None = None
    locked: bool = False

    def start(self, argv: Sequence[str], name: str) -> subprocess.Popen[bytes]:
        log = self.root / f"{name}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(list(argv), stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, cwd=self.root)
        self.procs.append(proc)
        return proc

    def client(self, *args: str, place: str | None = PLACE, timeout: float = 60) -> str:
        """Run ``labgrid-client`` against this lab's coordinator; raise with its output."""
        argv = [labgrid_tool("labgrid-client"), "-x", self.coordinator]
        if place is not None:
            argv += ["-p", place]
        proc = subprocess.run([*argv, *args], capture_output=True, text=True, timeout=timeout,
                              check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"{argv + list(args)} exited {proc.returncode}:\n{proc.stdout}"
                               f"\n{proc.stderr}")
        return proc.stdout

    def close(self) -> None:
        """Unlock the place and cancel the reservation (best effort), then stop every process."""
        try:
            if self.locked:
                self.client("unlock", timeout=20)
            if self.token:
                self.client("cancel-reservation", self.token, place=None, timeout=20)
        except (RuntimeError, subprocess.TimeoutExpired):
            pass  # the coordinator dies below anyway; never mask the test's own failure
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()

    def log(self, name: str) -> str:
        path = self.root / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""


def _keys(lab: Lab) -> Path:
    keys = lab.root / "keys"
    keys.mkdir()
    for name in ("host", "client"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", f"lab-{name}",
                        "-f", str(keys / name)], check=True, capture_output=True)
    (keys / "authorized_keys").write_text((keys / "client.pub").read_text())
    lab.key = keys / "client"
    return keys


def _board_bin(lab: Lab) -> None:
    lab.board_bin = lab.root / "board-bin"
    lab.board_bin.mkdir()
    lab.board_log = lab.root / "board-openssl.log"
    lab.board_slow = lab.root / "board-slow"
    real = shutil.which("openssl") or "/usr/bin/openssl"
    wrapper = lab.board_bin / "openssl"
    wrapper.write_text(OPENSSL_WRAPPER.format(log=lab.board_log, real=real,
                                                slow=lab.board_slow))
    wrapper.chmod(0o755)


def _start_sshd(lab: Lab) -> None:
    keys = _keys(lab)
    _board_bin(lab)
    lab.sshd_port = free_port()
    config = lab.root / "sshd_config"
    sftp = next((p for p in ("/usr/lib/openssh/sftp-server", "/usr/libexec/sftp-server",
                             "/usr/lib/ssh/sftp-server") if Path(p).exists()), "internal-sftp")
    config.write_text(f"""Port {lab.sshd_port}
ListenAddress 127.0.0.1
HostKey {keys / 'host'}
PidFile {lab.root / 'sshd.pid'}
AuthorizedKeysFile {keys / 'authorized_keys'}
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
SetEnv PATH={lab.board_bin}:/usr/local/bin:/usr/bin:/bin
Subsystem sftp {sftp}
LogLevel ERROR
""")
    proc = lab.start([SSHD, "-D", "-e", "-f", str(config)], "sshd")
    wait_port(lab.sshd_port, proc, lab.root / "sshd.log")


def _start_labgrid(lab: Lab) -> None:
    port = free_port()
    lab.coordinator = f"127.0.0.1:{port}"
    proc = lab.start([labgrid_tool("labgrid-coordinator"), "--listen", lab.coordinator],
                     "coordinator")
    wait_port(port, proc, lab.root / "coordinator.log")
    exports = lab.root / "exporter.yaml"
    exports.write_text(f"""board:
  NetworkService:
    address: 127.0.0.1
    port: {lab.sshd_port}
    username: {lab.user}
""")
    lab.start([labgrid_tool("labgrid-exporter"), "-c", lab.coordinator, "-n", EXPORTER,
               "--hostname", "127.0.0.1", str(exports)], "exporter")
    _wait_resource(lab)


def _wait_resource(lab: Lab) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if f"{EXPORTER}/board/NetworkService" in lab.client("resources", place=None):
            return
        time.sleep(0.5)
    raise RuntimeError(f"the exporter never registered its NetworkService:\n{lab.log('exporter')}")


def _place(lab: Lab) -> None:
    """Create the tagged place, match the resource, reserve it by tags and lock it."""
    lab.client("create")
    lab.client("set-tags", *(f"{k}={v}" for k, v in TAGS.items()))
    lab.client("add-match", f"{EXPORTER}/board/NetworkService")
    out = lab.client("reserve", "--wait", "--shell", *(f"{k}={v}" for k, v in TAGS.items()),
                     place=None)
    token = next((line.split("=", 1)[1].strip() for line in out.splitlines()
                  if line.startswith("export LG_TOKEN=")), None)
    if token is None:
        raise RuntimeError(f"labgrid-client reserve printed no token:\n{out}")
    lab.token = token
    lab.client("lock", place=f"+{token}")
    lab.locked = True


def _env_file(lab: Lab) -> None:
    lab.env_file = lab.root / "env.yaml"
    lab.env_file.write_text(f"""targets:
  main:
    resources:
      RemotePlace:
        name: {PLACE}
    drivers:
      SSHDriver:
        keyfile: {lab.key}
options:
  coordinator_address: {lab.coordinator}
""")


def start_lab(root: Path) -> Lab:
    """Bring the whole lab up in ``root``; on any failure everything started is stopped."""
    check_available()
    import getpass
    lab = Lab(root=root, user=getpass.getuser())
    try:
        _start_sshd(lab)
        _start_labgrid(lab)
        _place(lab)
        _env_file(lab)
    except BaseException:
        lab.close()
        raise
    return lab
