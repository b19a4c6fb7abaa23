"""A real labgrid lab on 127.0.0.1 for the integration tests: sshd as the "board", a
labgrid-coordinator, a labgrid-exporter exporting the sshd as a ``NetworkService``, and a place
with tags that is reserved and locked with ``labgrid-client``.

Everything binds to 127.0.0.1, lives in one temporary directory (its own host and client keys,
no system ssh configuration) and is stopped by process id in :meth:`Lab.close`.  The sshd
session's PATH starts with a "board-only" directory whose ``openssl`` logs every invocation, so a
test can prove a command ran on the board side; its ``XDG_CACHE_HOME`` is the lab's own
``board-cache`` (what the board builds never lands in the real user's cache).

:func:`start_shell_lab` is the serial-console variant (labgrid's ShellDriver fallback): socat
listens on 127.0.0.1 and gives each connection an interactive ``sh`` on a pseudo-terminal, the
way a board's console gives a shell; the exporter exports it as a ``NetworkSerialPort``
(protocol raw) and the environment file drives it with SerialDriver + ShellDriver.

Start-up waits block on what the processes print (sshd's and socat's "listening" lines, the
coordinator's "listening on" and its ``set_resource`` log line for the exporter's resource)
through :class:`Output`, never a sleep-and-poll loop.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

SSHD = "/usr/sbin/sshd"
PLACE = "sbc-lab-1"
EXPORTER = "sbc-exporter"
TAGS = {"board": "lab-sshd", "soc": "none"}
SHELL_PLACE = "sbc-serial-1"
SHELL_EXPORTER = "sbc-serial-exporter"
SHELL_TAGS = {"board": "lab-serial", "soc": "none"}
SHELL_PROMPT = "sbc-board$ "
PRIVSEP_DIR = "/run/sshd"
START_TIMEOUT_S = 30.0


if TYPE_CHECKING:
    from pytest_sbcbench.platform.labgrid_executor import LabgridExecutor


class LabUnavailable(Exception):
    """sshd or labgrid is not installed or cannot be started here (the test skips)."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Output:
    """A started process's combined output, copied line by line into its log file by one
    thread; :meth:`wait_for` blocks on a condition until a line contains a text (or the
    output ends, or the deadline passes): no polling, no sleep."""

    def __init__(self, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.lines: list[str] = []
        self.ended = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._copy, args=(proc, log), daemon=True,
                                        name=f"lab-output-{log.stem}")
        self._thread.start()

    def _copy(self, proc: subprocess.Popen[bytes], log: Path) -> None:
        assert proc.stdout is not None
        with log.open("wb") as out, proc.stdout:
            for raw in proc.stdout:
                out.write(raw)
                out.flush()
                with self._cond:
                    self.lines.append(raw.decode(errors="replace"))
                    self._cond.notify_all()
        with self._cond:
            self.ended = True
            self._cond.notify_all()

    def _seen(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    def wait_for(self, text: str, timeout: float = START_TIMEOUT_S) -> bool:
        """True once a line containing ``text`` was printed; False when the output ended (the
        process exited) or ``timeout`` seconds passed without it."""
        with self._cond:
            self._cond.wait_for(lambda: self._seen(text) or self.ended, timeout)
            return self._seen(text)

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)


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
    outputs: dict[str, Output] = field(default_factory=dict)
    token: str | None = None
    locked: bool = False
    place: str = PLACE
    console_port: int = 0
    direct_env_file: Path = Path()

    def start(self, argv: Sequence[str], name: str, env: Mapping[str, str] | None = None
              ) -> subprocess.Popen[bytes]:
        """Start a lab process; its output goes to ``<name>.log`` (see :class:`Output`)."""
        proc = subprocess.Popen(list(argv), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, cwd=self.root,
                                env=None if env is None else {**os.environ, **env})
        self.procs.append(proc)
        self.outputs[name] = Output(proc, self.root / f"{name}.log")
        return proc

    def wait_ready(self, name: str, text: str) -> None:
        """Block until process ``name`` prints a line containing ``text``; raise with its log
        when it exits first or prints nothing of the kind within the start timeout."""
        if not self.outputs[name].wait_for(text):
            raise RuntimeError(f"{name} never printed {text!r}:\n{self.log(name)}")

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
                self.client("unlock", place=self.place, timeout=20)
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
        for output in self.outputs.values():
            output.join(timeout=10)

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
SetEnv PATH={lab.board_bin}:/usr/local/bin:/usr/bin:/bin XDG_CACHE_HOME={lab.root / 'board-cache'}
Subsystem sftp {sftp}
LogLevel INFO
""")
    lab.start([SSHD, "-D", "-e", "-f", str(config)], "sshd")
    lab.wait_ready("sshd", f"Server listening on 127.0.0.1 port {lab.sshd_port}")


def _start_labgrid(lab: Lab, exporter: str = EXPORTER, resource: str = "NetworkService",
                   params: Mapping[str, object] | None = None) -> None:
    """The coordinator, then an exporter exporting one ``resource`` in group ``board``
    (default: the sshd as a NetworkService); returns once the coordinator holds it."""
    port = free_port()
    lab.coordinator = f"127.0.0.1:{port}"
    lab.start([labgrid_tool("labgrid-coordinator"), "--listen", lab.coordinator],
              "coordinator")
    lab.wait_ready("coordinator", f"listening on {lab.coordinator}")
    if params is None:
        params = {"address": "127.0.0.1", "port": lab.sshd_port, "username": lab.user}
    exports = lab.root / "exporter.yaml"
    exports.write_text(f"board:\n  {resource}:\n" + "".join(
        f"    {key}: {value}\n" for key, value in params.items()))
    lab.start([labgrid_tool("labgrid-exporter"), "-c", lab.coordinator, "-n", exporter,
               "--hostname", "127.0.0.1", str(exports)], "exporter")
    _wait_resource(lab, resource)


def _wait_resource(lab: Lab, resource: str = "NetworkService") -> None:
    """Block until the coordinator logs the exporter's resource (its ``set_resource`` line,
    written as it stores the resource, so a client asking afterwards sees it)."""
    if not lab.outputs["coordinator"].wait_for(f"set_resource board {resource}"):
        raise RuntimeError(f"the exporter never registered its {resource}:\n"
                           f"{lab.log('exporter')}\n{lab.log('coordinator')}")


def _place(lab: Lab, exporter: str = EXPORTER, resource: str = "NetworkService",
           tags: Mapping[str, str] = TAGS) -> None:
    """Create the tagged place, match the resource, reserve it by tags and lock it."""
    lab.client("create", place=lab.place)
    lab.client("set-tags", *(f"{k}={v}" for k, v in tags.items()), place=lab.place)
    lab.client("add-match", f"{exporter}/board/{resource}", place=lab.place)
    out = lab.client("reserve", "--wait", "--shell", *(f"{k}={v}" for k, v in tags.items()),
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


# -- the serial-console variant (ShellDriver) ---------------------------------------------------

def check_shell_available() -> None:
    """Raise :class:`LabUnavailable` when the serial-console lab cannot run here."""
    try:
        import labgrid  # noqa: F401
    except ImportError as exc:
        raise LabUnavailable(f"labgrid is not installed ({exc}): pip install '.[labgrid]' "
                             "(see .ci/install-lab)") from exc
    if shutil.which("socat") is None:
        raise LabUnavailable("socat not found: apt-get install socat (see .ci/install-lab)")


def _start_console(lab: Lab) -> None:
    """socat on 127.0.0.1: each connection gets a fresh interactive ``sh`` on a pty (its own
    session, the pty its controlling terminal), with the board-only PATH and a known prompt."""
    _board_bin(lab)
    lab.console_port = free_port()
    listen = f"TCP-LISTEN:{lab.console_port},bind=127.0.0.1,reuseaddr,fork"
    shell = "EXEC:sh -i,pty,stderr,setsid,ctty,sane"
    env = {"PATH": f"{lab.board_bin}:/usr/local/bin:/usr/bin:/bin", "PS1": SHELL_PROMPT,
           "ENV": "", "HOME": str(lab.root)}
    lab.start(["socat", "-d", "-d", listen, shell], "console", env=env)
    lab.wait_ready("console", f"listening on AF=2 127.0.0.1:{lab.console_port}")


SHELL_DRIVERS = """    drivers:
      SerialDriver: {{}}
      ShellDriver:
        prompt: '{prompt}'
        login_prompt: 'login: '
        username: root
        login_timeout: 60
"""


def _shell_env_file(lab: Lab) -> None:
    """Two environment files with SerialDriver + ShellDriver: ``env_file`` through the locked
    place (what a lab uses), ``direct_env_file`` naming the console's NetworkSerialPort itself.
    In-process tests use the direct one: labgrid keeps one coordinator session per process
    (its RemotePlaceManager), so a second lab's place in the same pytest process would be
    looked up at the first lab's coordinator."""
    drivers = SHELL_DRIVERS.format(prompt=SHELL_PROMPT.replace("$", "\\$"))
    lab.env_file = lab.root / "env-serial.yaml"
    lab.env_file.write_text(f"""targets:
  main:
    resources:
      RemotePlace:
        name: {lab.place}
{drivers}options:
  coordinator_address: {lab.coordinator}
""")
    lab.direct_env_file = lab.root / "env-serial-direct.yaml"
    lab.direct_env_file.write_text(f"""targets:
  main:
    resources:
      NetworkSerialPort:
        host: 127.0.0.1
        port: {lab.console_port}
        protocol: raw
{drivers}""")


def start_shell_lab(root: Path) -> Lab:
    """The lab with a serial console instead of sshd: socat's shell exported as a
    ``NetworkSerialPort`` (raw TCP), a tagged place reserved and locked, and an environment
    file with SerialDriver + ShellDriver.  On any failure everything started is stopped."""
    check_shell_available()
    import getpass
    lab = Lab(root=root, user=getpass.getuser(), place=SHELL_PLACE)
    try:
        _start_console(lab)
        _start_labgrid(lab, SHELL_EXPORTER, "NetworkSerialPort",
                       {"host": "127.0.0.1", "port": lab.console_port, "protocol": "raw"})
        _place(lab, SHELL_EXPORTER, "NetworkSerialPort", SHELL_TAGS)
        _shell_env_file(lab)
    except BaseException:
        lab.close()
        raise
    return lab


@contextmanager
def running_lab(start: Callable[[Path], Lab], root: Path) -> Iterator[Lab]:
    """A lab from ``start`` (:func:`start_lab`, :func:`start_shell_lab`) for a module fixture:
    the test skips with the reason when it cannot start, and it is closed on every exit."""
    import pytest

    try:
        lab = start(root)
    except LabUnavailable as exc:
        pytest.skip(str(exc))
    try:
        yield lab
    finally:
        lab.close()


def lab_profile(baselines: Path, tags: Mapping[str, str] = TAGS,
                title: str = "sshd lab board") -> None:
    """The lab's own profile for its board (the place's ``board`` tag names it), as a lab adds
    one to ``<baselines>/boards``: the "board" is this machine, which no built-in profile
    names."""
    folder = baselines / "boards"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{tags['board']}.json").write_text(json.dumps({
        "schema": "sbcbench-board/1", "name": tags["board"], "title": title,
        "soc": tags["soc"], "arch": os.uname().machine,
        "clusters": [{"cores": os.cpu_count() or 1, "core": "lab core"}]}))


def board_openssl_calls(lab: Lab) -> list[str]:
    """What the board-only ``openssl`` wrapper logged: one line per call on the board."""
    return lab.board_log.read_text().splitlines() if lab.board_log.exists() else []


@contextmanager
def lab_executor(env_file: Path) -> Iterator[LabgridExecutor]:
    """A :class:`LabgridExecutor` on the env file's target ``main``, cleaned up afterwards."""
    from pytest_sbcbench.platform.labgrid_executor import LabgridExecutor, open_target

    target = open_target(env_file)
    try:
        yield LabgridExecutor(target)
    finally:
        target.cleanup()


class ExecutorContract:
    """What the labgrid executor does the same over either transport (the sshd lab's
    SSHDriver and the serial lab's ShellDriver).  A test module collects these by subclassing
    (``class TestContract(ExecutorContract)``) beside its module-scoped ``lab`` and
    ``executor`` fixtures."""

    def test_commands_run_on_the_board(self, lab: Lab, executor: LabgridExecutor) -> None:
        """``openssl`` resolves to the board-only wrapper on the board's PATH (the sshd
        session's or the console shell's)."""
        before = len(board_openssl_calls(lab))
        done = executor.run(["openssl", "version", "-v"], timeout=30)
        assert done.returncode == 0 and done.stdout.startswith("OpenSSL ")
        calls = board_openssl_calls(lab)
        assert len(calls) == before + 1 and calls[-1].endswith(" version -v")

    def test_env_and_cwd(self, executor: LabgridExecutor) -> None:
        done = executor.run(["sh", "-c", 'printf "%s %s" "$SBC_X" "$(pwd)"'], timeout=30,
                            env={"SBC_X": "one two"}, cwd="/tmp")
        assert (done.returncode, done.stdout) == (0, "one two /tmp\n")

    def test_missing_tool_is_exit_127(self, executor: LabgridExecutor) -> None:
        done = executor.run(["sbcbench-no-such-tool"], timeout=30)
        assert done.returncode == 127 and not done.timed_out
        assert "sbcbench-no-such-tool" in done.stderr and done.stdout == ""
