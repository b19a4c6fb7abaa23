"""Power, reboot and kernel switch of a labgrid target: primitives of the lab layer.

A target whose power is off at the start (labgrid's ``QEMUDriver``, or a board behind a
``PowerProtocol`` driver: a PDU, a relay, a USB hub port) has no shell yet: activating its
ShellDriver would read a console nobody drives (on a QEMUDriver that is labgrid's ``TypeError:
argument must be an int, or have a fileno() method``, from ``select`` on a console socket that
only exists once the emulator runs).  :func:`bring_up` therefore switches the power on first
(when the driver says it is off, or cannot say) and then waits for the target's command driver
(ShellDriver: its prompt; SSHDriver: its connection) until :data:`BOOT_TIMEOUT_S`.

:class:`BoardPower` reboots: a power cycle through labgrid (the QEMUDriver's emulator is quit
and started afresh; any other power driver's ``cycle()``), or without a power driver the
board's own ``reboot`` command over its shell.  It then waits for the shell and checks that the
boot id (:data:`~.sysroot.BOOT_ID`, read on the board) changed: a reboot that did not happen is a
:class:`~pytest_sbcbench.errors.BoardError` naming the board.  A kernel switch boots the same
board with another kernel: the QEMUDriver's ``kernel`` names a key of the environment's
``images:``, and switching that key is what flashing a new kernel is on a real board.  A key
may carry its own kernel command line (the target option ``image_boot_args``): the same kernel
booted with ``maxcpus=1`` is a BSP change selected exactly like another kernel.

Everything here goes through labgrid's own drivers and ``Target.activate``/``deactivate``;
labgrid is imported only inside the functions (never at package import).  Waiting is polling
with an injected clock (:class:`Waits`), so the logic is tested without waiting.
"""

from __future__ import annotations

import re
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import BoardError
from .sysroot import BOOT_ID

BOOT_TIMEOUT_S = 300.0
POLL_S = 2.0
READ_TIMEOUT_S = 10.0
REBOOT_ANSWER_S = 10.0
BOOT_ID_FILE = "/" + BOOT_ID  # on the board, read through its command driver
REBOOT_COMMAND = "reboot"
BOOT_ARGS_OPTION = "image_boot_args"  # target option: images key -> its kernel command line
# What each QEMUDriver's boot_args were before a kernel switch first changed them
_CONFIGURED_ARGS: weakref.WeakKeyDictionary[Any, str | None] = weakref.WeakKeyDictionary()
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@dataclass(frozen=True)
class Waits:
    """How long to wait for a board and how: the clock and the sleep are injected (tests)."""

    boot_timeout: float = BOOT_TIMEOUT_S
    poll: float = POLL_S
    now: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep


@dataclass(frozen=True)
class Reboot:
    """One reboot of a board: how it was done and the boot ids either side."""

    board: str
    method: str
    boot_id_before: str
    boot_id_after: str
    kernel_image: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        return {"method": self.method, "boot_id_before": self.boot_id_before,
                "boot_id_after": self.boot_id_after, "kernel_image": self.kernel_image}


def power_driver(target: Any) -> Any | None:
    """The target's ``PowerProtocol`` driver (not activated), None when it has none.  Several:
    labgrid's own choice by priority (ambiguous ones are labgrid's error)."""
    from labgrid.protocol import PowerProtocol

    if not any(isinstance(driver, PowerProtocol) for driver in target.drivers):
        return None
    return target.get_driver("PowerProtocol", activate=False)


def emulator_exit(target: Any) -> str | None:
    """How the board's emulator ended when it has (labgrid's QEMUDriver started it and it
    exited: killed, crashed), else None (running, never started, or no emulator)."""
    if not any(is_emulator(driver) for driver in getattr(target, "drivers", ())):
        return None
    child = getattr(power_driver(target), "_child", None)  # QEMUDriver's process, once on
    if child is None:
        return None
    code = child.poll()
    if code is None:
        return None
    how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
    return f"its emulator (QEMU, pid {child.pid}) exited ({how})"


def watch_emulator(target: Any, armed: Any) -> Any:
    """A thread blocked until the board's emulator exits (``waitid`` without reaping: no
    polling) that then closes the emulator's console socket, so a command waiting on the dead
    console fails within a read instead of at its timeout (labgrid's console read turns an
    exited QEMU into empty reads until the command's timeout: 160 s to notice a lost board).
    ``armed``: the process already watched; returns the one watched now (nothing is armed
    twice for one process).  An exit labgrid makes itself (a power cycle: it reaps the
    process and drops it) is left alone."""
    power = power_driver(target) if any(is_emulator(d) for d in
                                         getattr(target, "drivers", ())) else None
    child, console = getattr(power, "_child", None), getattr(power, "_clientsocket", None)
    if child is None or console is None or child is armed:
        return armed

    def watch() -> None:
        import os

        try:
            os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)
        except ChildProcessError:  # labgrid reaped it: its own power-off
            return
        if getattr(power, "_child", None) is child:  # still the board's emulator: it died
            console.close()

    import threading

    threading.Thread(target=watch, daemon=True, name="sbcbench-emulator-watch").start()
    return child


def is_emulator(power: Any) -> bool:
    """A QEMUDriver: the power driver is the emulator, and its console is the board's."""
    return type(power).__name__ == "QEMUDriver"


def power_state(power: Any) -> bool | None:
    """On (True), off (False), or unknown (None: the driver cannot say).  ``power`` is active."""
    if is_emulator(power):
        return bool(power.status)
    get = getattr(power, "get", None)
    return bool(get()) if callable(get) else None


def switch_on(target: Any, power: Any) -> bool:
    """Activate ``power`` and switch it on unless it says it is on; True when it switched."""
    target.activate(power)
    if power_state(power) is True:
        return False
    power.on()
    return True


def select_kernel(target: Any, key: str) -> Any:
    """Make the target's QEMUDriver boot ``key`` of the environment's ``images:`` from its next
    power-on (an emulator already running is quit: the driver builds its command line on
    activation).  Returns the driver; a target without one, or an unknown key, is an error."""
    power = power_driver(target)
    name = getattr(target, "name", "main")
    if power is None or not is_emulator(power):
        raise BoardError(f"target {name}: a kernel switch needs labgrid's QEMUDriver (its "
                         "kernel image key); on a real board flash the kernel with the lab's "
                         "tools and reboot")
    images = (getattr(target.env.config, "data", None) or {}).get("images") or {}
    if key not in images:
        raise BoardError(f"target {name}: no image {key!r} in the environment's images: "
                         f"(known: {', '.join(sorted(images)) or 'none'})")
    args = boot_args_for(target, power, key)
    quit_emulator(target, power)
    power.kernel = key
    power.boot_args = args
    return power


def boot_args_for(target: Any, power: Any, key: str) -> str | None:
    """The kernel command line ``key`` boots with: the target option :data:`BOOT_ARGS_OPTION`
    maps images keys to their own command lines (a BSP change such as ``maxcpus=1`` is an
    images key of its own, as ``scripts/qemu_lab.py`` writes it); a key it does not name boots
    with the QEMUDriver's ``boot_args`` as the env file gives them."""
    configured = _CONFIGURED_ARGS.setdefault(power, power.boot_args)
    table = target.env.config.get_target_option(target.name, BOOT_ARGS_OPTION, {})
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise BoardError(f"target {target.name}: the option {BOOT_ARGS_OPTION} must map "
                         f"images keys to kernel command lines, not {table!r}")
    found = table.get(key, configured)
    return None if found is None else str(found)


def quit_emulator(target: Any, power: Any) -> None:
    """Deactivate a QEMUDriver (it quits the emulator) and close the emulator's pipes, which
    labgrid 26's ``off()`` drops unclosed (a ResourceWarning, an error under
    ``filterwarnings = error``); ``_child`` is the driver's ``Popen``, read only if there."""
    child = getattr(power, "_child", None)
    target.deactivate(power)
    for stream in (getattr(child, "stdin", None), getattr(child, "stdout", None)):
        if stream is not None:
            stream.close()


def kernel_image(target: Any) -> str | None:
    """The images key the target's QEMUDriver boots (None without one)."""
    power = power_driver(target)
    return str(power.kernel) if power is not None and is_emulator(power) and power.kernel \
        else None


def lab_power(target: Any) -> dict[str, str | None]:
    """The results' word on the target's power: its power driver's class and the images key
    its QEMUDriver boots (both None when it has none)."""
    power = power_driver(target) if target is not None else None
    return {"power": type(power).__name__ if power is not None else None,
            "kernel_image": kernel_image(target) if power is not None else None}


def power_note(target: Any) -> str:
    """``; power: QEMUDriver, kernel image kernel-6.12`` for the session's note ('' without)."""
    facts = lab_power(target)
    if facts["power"] is None:
        return ""
    image = f", kernel image {facts['kernel_image']}" if facts["kernel_image"] else ""
    return f"; power: {facts['power']}{image}"


def bring_up(target: Any, name: str, waits: Waits | None = None) -> Any:
    """The target's ``CommandProtocol`` driver, active: unless it is active already, the power
    is switched on first when the target has a power driver that is off (or cannot say), then
    the shell waited for."""
    from labgrid.binding import BindingState

    command = target.get_driver("CommandProtocol", activate=False)
    if command.state is BindingState.active:
        return command
    power = power_driver(target)
    if power is None or not switch_on(target, power):
        target.activate(command)
        return command
    await_shell(target, command, name, waits or Waits(), "power on")
    return command


def await_shell(target: Any, command: Any, name: str, waits: Waits, after: str) -> None:
    """Activate ``command`` (log in on the console, connect over SSH) until it works or the
    boot timeout passes (a BoardError with labgrid's last word)."""
    deadline = waits.now() + waits.boot_timeout
    while True:
        try:
            target.activate(command)
            return
        except Exception as exc:  # labgrid's: TIMEOUT at the login, ExecutionError over SSH
            last = exc
        if waits.now() >= deadline:
            raise BoardError(f"{name}: no shell within {waits.boot_timeout:.0f} s after "
                             f"{after} ({type(last).__name__}: {last})") from last
        waits.sleep(waits.poll)


def read_boot_id(command: Any) -> str | None:
    """The boot id, read through the (active) command driver; None when it is not there."""
    out, _, code = command.run(f"cat {BOOT_ID_FILE}", timeout=READ_TIMEOUT_S)
    found = [m.group(0) for line in out if (m := _UUID.fullmatch(line.strip().lower()))]
    return found[0] if code == 0 and found else None


@dataclass
class BoardPower:
    """Reboots of one labgrid target (``name`` is what errors call the board).  With
    ``shell_reboot`` the board reboots itself (``reboot_command`` over its shell) even when it
    has a power driver (a clean shutdown); without a power driver it always does."""

    target: Any
    name: str
    waits: Waits = field(default_factory=Waits)
    reboot_command: str = REBOOT_COMMAND
    shell_reboot: bool = False

    def command(self) -> Any:
        return bring_up(self.target, self.name, self.waits)

    def boot_id(self) -> str:
        found = read_boot_id(self.command())
        if found is None:
            raise BoardError(f"{self.name}: no boot id in {BOOT_ID_FILE}: a reboot cannot be "
                             "checked")
        return found

    def reboot(self, kernel: str | None = None) -> Reboot:
        """Power-cycle (or ``reboot`` over the shell), wait for the shell, check the new boot
        id; with ``kernel``, boot that images key (QEMUDriver only)."""
        before = self.boot_id()
        command = self.command()
        method = self._restart(command, kernel)
        after = self._await_boot(command, before, method)
        return Reboot(self.name, method, before, after, kernel_image(self.target))

    def _restart(self, command: Any, kernel: str | None) -> str:
        if kernel is not None:
            select_kernel(self.target, kernel)  # quits the emulator: the power-off
        power = power_driver(self.target)
        if power is None or (self.shell_reboot and kernel is None):
            self._shell_reboot(command)
            return f"shell: {self.reboot_command}"
        if is_emulator(power):
            quit_emulator(self.target, power)  # the shell on its console goes with it
            self.target.activate(power)  # a fresh console socket and command line
            power.on()
            return "power cycle (QEMUDriver)"
        self.target.deactivate(command)
        self.target.activate(power)
        power.cycle()
        return f"power cycle ({type(power).__name__})"

    def _shell_reboot(self, command: Any) -> None:
        """``reboot`` over the shell: no answer (the board went down under it) is expected; an
        answer with a failing exit code is the board refusing."""
        try:
            out, _, code = command.run(self.reboot_command, timeout=REBOOT_ANSWER_S)
        except Exception as exc:
            if type(exc).__name__ not in ("TIMEOUT", "ExecutionError", "TimeoutExpired"):
                raise
            self.target.deactivate(command)
            return
        if code not in (0, 255):  # 255: ssh lost the connection as the board went down
            raise BoardError(f"{self.name}: {self.reboot_command!r} failed on the board "
                             f"(exit {code}): {' '.join(out)[-300:]}")

    def _await_boot(self, command: Any, before: str, method: str) -> str:
        """Poll for the board's shell and a boot id other than ``before``."""
        waits = self.waits
        deadline = waits.now() + waits.boot_timeout
        current: str | None = None
        last: Exception | None = None
        while True:
            try:
                self.target.activate(command)
                current = read_boot_id(command)
            except Exception as exc:  # the board is down or still booting
                last, current = exc, None
                self.target.deactivate(command)  # log in (connect) afresh next time
            if current is not None and current != before:
                return current
            if waits.now() >= deadline:
                raise BoardError(self._not_rebooted(before, method, current, last))
            waits.sleep(waits.poll)

    def _not_rebooted(self, before: str, method: str, current: str | None,
                      last: Exception | None) -> str:
        seconds = f"{self.waits.boot_timeout:.0f} s"
        if current == before:
            return (f"{self.name} did not reboot: its boot id is still {before} {seconds} "
                    f"after {method}")
        why = f" ({type(last).__name__}: {last})" if last is not None else ""
        return f"{self.name} did not come back within {seconds} after {method}{why}"
