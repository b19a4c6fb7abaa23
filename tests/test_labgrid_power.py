"""The lab layer's power primitives (pytest_sbcbench.platform.labgrid_power) against a real
labgrid target without an emulator: a serial console on 127.0.0.1 (socat, as in
tests/labgrid_lab.py) that only gives a shell while a "power" file exists, driven by labgrid's
SerialDriver + ShellDriver, with labgrid's ExternalPowerDriver switching that file.

The "board" is this machine, so its boot id never changes: every reboot here is one that did not
happen, and must be an error naming the board (real reboots: tests/test_labgrid_qemu.py).  The
board-side reboot command is always a harmless one here (``true``, ``false``): never the
default ``reboot`` on this machine.  Waiting uses an injected clock (:class:`FakeClock`)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from labgrid_lab import (
    SHELL_PROMPT,
    Lab,
    LabUnavailable,
    check_shell_available,
    free_port,
    preload_labgrid,
)

from pytest_sbcbench.errors import BoardError
from pytest_sbcbench.platform.labgrid_executor import LabgridExecutor, open_target
from pytest_sbcbench.platform.labgrid_power import (
    BoardPower,
    Waits,
    bring_up,
    lab_power,
    power_driver,
    read_boot_id,
    select_kernel,
)

preload_labgrid()

HOST_BOOT_ID = Path("/proc/sys/kernel/random/boot_id").read_text().strip()

# The console: a shell while the power file exists, else a console that never says a word.
GATE = """#!/bin/sh
if [ -e {power} ]; then exec sh -i; fi
exec cat >/dev/null
"""


@dataclass
class FakeClock:
    """``now`` moves only when ``sleep`` is called: the waits' logic without waiting."""

    t: float = 0.0
    slept: list[float] = field(default_factory=list)

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.t += seconds

    def waits(self, boot_timeout: float) -> Waits:
        return Waits(boot_timeout=boot_timeout, poll=2.0, now=self.now, sleep=self.sleep)


@dataclass
class PoweredConsole:
    lab: Lab
    power: Path
    log: Path
    port: int

    def env_file(self, name: str, power: str | None) -> Path:
        """An env file of the console with ``power`` (a driver block) or without one."""
        path = self.lab.root / f"{name}.yaml"
        path.write_text(f"""targets:
  main:
    resources:
      NetworkSerialPort:
        host: 127.0.0.1
        port: {self.port}
        protocol: raw
    drivers:
      SerialDriver: {{}}
      ShellDriver:
        prompt: '{SHELL_PROMPT.replace("$", chr(92) + "$")}'
        login_prompt: 'login: '
        username: root
        login_timeout: 3
{power or ""}""")
        return path

    def external_power(self, on: str | None = None) -> str:
        """labgrid's ExternalPowerDriver: on/off switch the power file, every call logged."""
        on = on or f"touch {self.power}"
        return f"""      ExternalPowerDriver:
        cmd_on: "sh -c 'echo on >> {self.log}; {on}'"
        cmd_off: "sh -c 'echo off >> {self.log}; rm -f {self.power}'"
        cmd_cycle: "sh -c 'echo cycle >> {self.log}'"
"""

    def calls(self) -> list[str]:
        return self.log.read_text().split() if self.log.exists() else []


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PoweredConsole]:
    try:
        check_shell_available()
    except LabUnavailable as exc:
        pytest.skip(str(exc))
    root = tmp_path_factory.mktemp("power-lab")
    lab = Lab(root=root)
    port = free_port()
    gate = root / "console.sh"
    gate.write_text(GATE.format(power=root / "power"))
    gate.chmod(0o755)
    env = {"PS1": SHELL_PROMPT, "ENV": "", "HOME": str(root)}
    lab.start(["socat", "-d", "-d", f"TCP-LISTEN:{port},bind=127.0.0.1,reuseaddr,fork",
               f"EXEC:{gate},pty,stderr,setsid,ctty,sane"], "console", env=env)
    try:
        lab.wait_ready("console", f"listening on AF=2 127.0.0.1:{port}")
        yield PoweredConsole(lab, root / "power", root / "power.log", port)
    finally:
        lab.close()


@pytest.fixture
def target(console: PoweredConsole, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh target on the console, unpowered: with labgrid's ExternalPowerDriver, or with
    the driver block a test passes as its (indirect) parameter (None: no power driver)."""
    console.power.unlink(missing_ok=True)
    console.log.unlink(missing_ok=True)
    path = console.env_file(request.node.name.replace("[", "-").rstrip("]"),
                            getattr(request, "param", console.external_power()))
    opened = open_target(path)
    try:
        yield opened
    finally:
        opened.cleanup()


def test_the_power_is_switched_on_before_the_shell(console: PoweredConsole, target: Any
                                                   ) -> None:
    """The console only has a shell once powered, and the serial line connects when the
    ShellDriver activates: the executor's first command works only because the power came on
    first (the order that fixes labgrid's TypeError on a QEMUDriver)."""
    executor = LabgridExecutor(target)
    done = executor.run(["echo", "powered"], timeout=30)
    assert (done.returncode, done.stdout) == (0, "powered\n")
    assert console.calls() == ["on"] and console.power.exists()
    assert lab_power(target) == {"power": "ExternalPowerDriver", "kernel_image": None}


def test_no_shell_after_power_on_is_an_error_naming_the_board(console: PoweredConsole,
                                                              tmp_path: Path) -> None:
    """A power driver that does not bring the board up: the wait ends with the board's name
    and labgrid's last word (the login timeout)."""
    console.power.unlink(missing_ok=True)
    console.log.unlink(missing_ok=True)
    path = console.env_file("dead", console.external_power(on="true"))
    target = open_target(path)
    clock = FakeClock()
    try:
        with pytest.raises(BoardError, match=r"^dead-board: no shell within 2 s after power "
                           r"on \(TIMEOUT: .*waiting for login"):
            bring_up(target, "dead-board", clock.waits(2))
    finally:
        target.cleanup()
    assert console.calls() == ["on"] and clock.slept == [2.0]


def test_a_power_cycle_without_a_new_boot_is_an_error_naming_the_board(
        console: PoweredConsole, target: Any) -> None:
    """The power driver's cycle ran, the shell came back, but the boot id is this machine's,
    unchanged: the reboot did not happen."""
    clock = FakeClock()
    power = BoardPower(target, "place sbc-power-1", clock.waits(10))
    assert power.boot_id() == HOST_BOOT_ID
    with pytest.raises(BoardError, match=f"^place sbc-power-1 did not reboot: its boot id is "
                       f"still {HOST_BOOT_ID} 10 s after power cycle \\(ExternalPowerDriver\\)$"):
        power.reboot()
    assert console.calls() == ["on", "cycle"] and clock.slept == [2.0] * 5
    assert read_boot_id(target.get_driver("CommandProtocol")) == HOST_BOOT_ID


@pytest.mark.parametrize("target", [None], indirect=True, ids=["no-power"])
def test_without_a_power_driver_the_board_reboots_itself(console: PoweredConsole, target: Any
                                                         ) -> None:
    """No power driver: the reboot is the board's own command over its shell.  A command that
    fails is the board refusing (its exit code); one that changes nothing is no reboot."""
    console.power.touch()  # a board that is simply on
    assert power_driver(target) is None
    assert lab_power(target) == {"power": None, "kernel_image": None}
    clock = FakeClock()
    with pytest.raises(BoardError, match=r"^lab-console: 'false' failed on the board \(exit 1\)"):
        BoardPower(target, "lab-console", clock.waits(4), reboot_command="false").reboot()
    with pytest.raises(BoardError, match=r"^lab-console did not reboot: .* after shell: true$"):
        BoardPower(target, "lab-console", clock.waits(4), reboot_command="true").reboot()
    assert clock.slept == [2.0, 2.0]


def test_a_kernel_switch_needs_a_qemudriver(target: Any) -> None:
    with pytest.raises(BoardError, match="needs labgrid's QEMUDriver"):
        select_kernel(target, "kernel")


QEMU_ENV = """targets:
  main:
    drivers:
      QEMUDriver:
        qemu_bin: qemu
        machine: virt
        cpu: cortex-a72
        memory: 512M
        kernel: kernel-6.1
        nic: none
images:
  kernel-6.1: {root}/vmlinuz-6.1
  kernel-6.12: {root}/vmlinuz-6.12
tools:
  qemu: /usr/bin/qemu-system-aarch64
"""


def test_the_kernel_switch_picks_an_image_key(tmp_path: Path) -> None:
    """The QEMUDriver boots another key of the env's images: (checked before anything starts;
    neither qemu nor the images are needed until the power comes on)."""
    path = tmp_path / "qemu.yaml"
    path.write_text(QEMU_ENV.format(root=tmp_path))
    target = open_target(path)
    try:
        assert lab_power(target) == {"power": "QEMUDriver", "kernel_image": "kernel-6.1"}
        assert select_kernel(target, "kernel-6.12").kernel == "kernel-6.12"
        assert lab_power(target) == {"power": "QEMUDriver", "kernel_image": "kernel-6.12"}
        with pytest.raises(BoardError, match=r"no image 'kernel-7' in the environment's "
                           r"images: \(known: kernel-6.1, kernel-6.12\)"):
            select_kernel(target, "kernel-7")
    finally:
        target.cleanup()


def qemu_version_only(tmp_path: Path) -> Path:
    """A stand-in emulator that only answers ``-version`` (the line this machine's
    qemu-system-aarch64 printed): labgrid asks it when it builds the command line."""
    path = tmp_path / "qemu-version-only"
    path.write_text("#!/bin/sh\n"
                    "echo 'QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)'\n")
    path.chmod(0o755)
    return path


def test_an_images_key_can_carry_its_own_kernel_command_line(tmp_path: Path) -> None:
    """A BSP change such as ``maxcpus=1`` is an images key of its own with its own command line
    (target option ``image_boot_args``): switching to it changes the QEMUDriver's boot_args;
    switching back to a key the option does not name restores the env file's own; the
    command line qemu would be started with carries them (built without starting qemu)."""
    path = tmp_path / "qemu.yaml"
    text = QEMU_ENV.format(root=tmp_path).replace(
        "        nic: none\n", "        nic: none\n        boot_args: console=ttyAMA0\n"
        "    options:\n      image_boot_args:\n"
        "        kernel-6.1-maxcpus1: console=ttyAMA0 maxcpus=1\n")
    text = text.replace("images:\n", f"images:\n  kernel-6.1-maxcpus1: {tmp_path}/vmlinuz-6.1\n")
    path.write_text(text.replace("/usr/bin/qemu-system-aarch64", str(qemu_version_only(tmp_path))))
    target = open_target(path)
    try:
        power = select_kernel(target, "kernel-6.1-maxcpus1")
        assert (power.kernel, power.boot_args) == ("kernel-6.1-maxcpus1",
                                                   "console=ttyAMA0 maxcpus=1")
        assert lab_power(target)["kernel_image"] == "kernel-6.1-maxcpus1"
        argv = power.get_qemu_base_args()
        assert argv[argv.index("-append") + 1] == "console=ttyAMA0 maxcpus=1"
        assert argv[argv.index("-kernel") + 1] == f"{tmp_path}/vmlinuz-6.1"
        assert select_kernel(target, "kernel-6.12").boot_args == "console=ttyAMA0"
        assert select_kernel(target, "kernel-6.1").boot_args == "console=ttyAMA0"
    finally:
        target.cleanup()


def test_image_boot_args_that_are_no_mapping_are_an_error(tmp_path: Path) -> None:
    path = tmp_path / "qemu.yaml"
    path.write_text(QEMU_ENV.format(root=tmp_path).replace(
        "        nic: none\n", "        nic: none\n    options:\n"
        "      image_boot_args: maxcpus=1\n"))
    target = open_target(path)
    try:
        with pytest.raises(BoardError, match=r"option image_boot_args must map images keys "
                           r"to kernel command lines, not 'maxcpus=1'"):
            select_kernel(target, "kernel-6.12")
    finally:
        target.cleanup()


REPO = Path(__file__).resolve().parents[1]


def inner_pytest(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "LG_ENV"}
    return subprocess.run([sys.executable, "-m", "pytest", "benchmarks/test_crypto.py",
                           "-p", "no:cacheprovider", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=300, check=False, env=env)


def test_the_lab_kernel_option_needs_a_board() -> None:
    done = inner_pytest("--sbc-lab-kernel", "kernel-6.12")
    assert done.returncode == 4, done.stdout + done.stderr
    assert "--sbc-lab-kernel boots a labgrid board: it needs -p labgrid --lg-env ENV" in \
        done.stderr


def test_an_unknown_lab_kernel_stops_the_run_naming_the_images(tmp_path: Path) -> None:
    """Checked before the power comes on: no emulator starts for a kernel the env lacks."""
    path = tmp_path / "qemu.yaml"
    path.write_text(QEMU_ENV.format(root=tmp_path))
    done = inner_pytest("-p", "labgrid", "--lg-env", str(path), "--sbc-lab-kernel", "kernel-7")
    assert done.returncode != 0 and "1 passed" not in done.stdout
    assert "no image 'kernel-7' in the environment's images: (known: kernel-6.1, " \
           "kernel-6.12)" in done.stdout + done.stderr


def test_a_misspelled_baselines_directory_is_refused_before_the_power_comes_on(
        console: PoweredConsole, tmp_path: Path) -> None:
    """Issue 28, item 7: in gate mode a misspelled --sbc-baselines was found only after the
    board had booted (113 s on the QEMU lab).  What needs no board is checked first: the run
    stops (exit 4) naming the directory, and the power driver was never called."""
    console.power.unlink(missing_ok=True)
    console.log.unlink(missing_ok=True)
    path = console.env_file("gate-misspelled", console.external_power())
    done = inner_pytest("-p", "labgrid", "--lg-env", str(path), "--sbc-gate",
                        "--sbc-baselines", str(tmp_path / "baselnes"))
    assert done.returncode == 4, done.stdout + done.stderr
    assert f"the baselines directory {tmp_path / 'baselnes'} does not exist" in done.stderr
    assert console.calls() == [] and not console.power.exists()
