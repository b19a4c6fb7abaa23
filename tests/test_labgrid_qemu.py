"""Integration: a real Linux board under QEMU, through labgrid's own QEMUDriver and ShellDriver
(power on, power cycle, reboot over the shell, kernel switch, and the crypto suite through
``pytest -p labgrid --lg-env``).

The board is the labgrid env file named by ``SBCBENCH_QEMU_ENV`` (a QEMUDriver booting a kernel
of its ``images:`` with a busybox initramfs holding openssl, e.g. the a72 board of
``scripts/qemu_lab.py build``); a key of ``images:`` naming another kernel file is the kernel
switched to.  Skips with
the reason when the variable, the env file, labgrid, qemu or the images are missing."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from labgrid_lab import preload_labgrid

from pytest_sbcbench.platform.labgrid_executor import LabgridExecutor
from pytest_sbcbench.platform.labgrid_power import BoardPower, kernel_image, power_driver
from pytest_sbcbench.run.lab import LabRun

preload_labgrid()

ENV_VARIABLE = "SBCBENCH_QEMU_ENV"
REPO = Path(__file__).resolve().parents[1]


def qemu_env() -> Any:
    """The labgrid Environment of the board, or a skip saying what is missing."""
    value = os.environ.get(ENV_VARIABLE)
    if not value:
        pytest.skip(f"{ENV_VARIABLE} is not set: point it at a QEMU board's labgrid env file "
                    "(scripts/qemu_lab.py build a72; scripts/qemu_lab.py env a72)")
    if not Path(value).is_file():
        pytest.skip(f"{ENV_VARIABLE}={value}: no such env file")
    try:
        from labgrid import Environment
    except ImportError as exc:
        pytest.skip(f"labgrid is not installed ({exc}): pip install '.[labgrid]'")
    env = Environment(config_file=value)
    qemu = env.config.get_tool("qemu")
    if shutil.which(qemu) is None:
        pytest.skip(f"{qemu} not found: apt-get install qemu-system-arm qemu-system-misc")
    missing = [key for key in images(env) if not Path(env.config.get_image_path(key)).exists()]
    if missing:
        pytest.skip(f"{value}: images not built: {', '.join(missing)}")
    return env


def images(env: Any) -> list[str]:
    return sorted(env.config.data.get("images") or {})


@pytest.fixture(scope="module")
def lab() -> Iterator[LabRun]:
    """The board, powered on by the lab layer and captured, as a pytest run attaches it."""
    run = LabRun(qemu_env())
    try:
        run.capture_board(run.connect())
        yield run
    finally:
        run.close()


def executor(lab: LabRun) -> LabgridExecutor:
    assert lab.executor is not None
    return lab.executor


def board(lab: LabRun, command: str) -> str:
    done = executor(lab).run(["sh", "-c", command], timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def other_kernel(lab: LabRun) -> str:
    """An images key naming another kernel file than the one the QEMUDriver boots (skip when
    there is none): a key for the same file booted with more on its command line (the
    ``maxcpus=1`` variant) is the same kernel release, so no kernel switch."""
    booted = kernel_image(lab.target)
    assert booted is not None
    path = lab.env.config.get_image_path
    others = [key for key in images(lab.env) if path(key) != path(booted)]
    if not others:
        pytest.skip(f"{lab.env_file} has one kernel: no kernel switch to check")
    return others[0]


def digest_on_board(lab: LabRun, tmp_path: Path, results: Path, *args: str
                    ) -> subprocess.CompletedProcess[str]:
    """The quick sha256 digest through ``pytest -p labgrid --lg-env`` on the board, in a child
    pytest (baselines under ``tmp_path``); asserts it exited 0."""
    argv = [sys.executable, "-m", "pytest", "benchmarks/test_crypto.py", "-k", "sha256",
            "--sbc-quick", "--sbc-idle-wait", "0", "-p", "no:cacheprovider", "-p", "labgrid",
            "--lg-env", str(lab.env_file), *args,
            "--sbc-baselines", str(tmp_path / "baselines"), "--sbc-results", str(results)]
    env = {k: v for k, v in os.environ.items()
           if k not in ("LG_ENV", "SBCBENCH_OPENSSL", "SBCBENCH_BOOT_ID")}
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=900,
                          check=False, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_the_lab_layer_powers_the_board_on(lab: LabRun) -> None:
    """Off at the start (a QEMUDriver): switched on, its shell waited for, /proc captured."""
    assert type(power_driver(lab.target)).__name__ == "QEMUDriver"
    assert type(executor(lab).command_driver).__name__ == "ShellDriver"
    assert lab.sysroot is not None and lab.sysroot.boot_id() == board(
        lab, "cat /proc/sys/kernel/random/boot_id")
    assert board(lab, "uname -m") in ("aarch64", "riscv64")
    assert board(lab, "openssl version").startswith("OpenSSL 3.")
    env = lab.environment()
    assert env["power"] == "QEMUDriver" and env["kernel_image"] == kernel_image(lab.target)
    assert lab.emulator_host() is not None  # the board runs at this machine's speed


def test_a_power_cycle_gives_a_new_boot_id(lab: LabRun) -> None:
    done = BoardPower(lab.target, "qemu board").reboot()
    assert done.method == "power cycle (QEMUDriver)"
    assert done.boot_id_after != done.boot_id_before
    assert board(lab, "cat /proc/sys/kernel/random/boot_id") == done.boot_id_after


def test_a_reboot_over_the_shell_gives_a_new_boot_id(lab: LabRun) -> None:
    """The board's own ``reboot`` (busybox init): QEMU resets the machine in the same
    process, as a board restarts without losing power."""
    done = BoardPower(lab.target, "qemu board", shell_reboot=True).reboot()
    assert done.method == "shell: reboot" and done.boot_id_after != done.boot_id_before
    assert board(lab, "cat /proc/sys/kernel/random/boot_id") == done.boot_id_after


def test_lab_reboot_captures_the_new_boot(lab: LabRun) -> None:
    """After LabRun.reboot the run's tree and the results' boot id are the new boot's (the
    reboots above went around the LabRun: its tree was the first boot's until now)."""
    before = board(lab, "cat /proc/sys/kernel/random/boot_id")
    sysroot = lab.reboot()
    env = lab.environment()
    assert sysroot is lab.sysroot and env["boot_id"] == sysroot.boot_id() != before
    assert env["reboots"][-1]["boot_id_before"] == before
    assert env["reboots"][-1]["boot_id_after"] == env["boot_id"]


def test_the_kernel_switch_boots_another_kernel(lab: LabRun) -> None:
    """The same board with the other images key, as a maintainer flashes a new kernel (the
    results' kernel_release is the new kernel's); then back to the first."""
    first, other = kernel_image(lab.target), other_kernel(lab)
    assert first is not None
    release = board(lab, "uname -r")
    lab.reboot(kernel=other)
    switched = lab.environment()
    assert switched["kernel_image"] == other and switched["reboots"][-1]["kernel_image"] == other
    assert switched["kernel_release"] == board(lab, "uname -r") != release
    back = BoardPower(lab.target, "qemu board").reboot(kernel=first)
    assert back.kernel_image == first and board(lab, "uname -r") == release


def test_the_crypto_suite_runs_on_the_board_with_another_kernel(lab: LabRun, tmp_path: Path
                                                                ) -> None:
    """``pytest -p labgrid --lg-env ENV`` on a board whose power is off (the run that stopped
    at once with labgrid's TypeError), booted with ``--sbc-lab-kernel``: the digest ran on the
    board and the results say which kernel."""
    other = other_kernel(lab)
    results = tmp_path / "qemu.json"
    done = digest_on_board(lab, tmp_path, results, "--sbc-lab-kernel", other)
    assert "1 passed" in done.stdout and "power: QEMUDriver" in done.stdout
    doc = json.loads(results.read_text())
    lab_env = doc["environment"]["lab"]
    assert lab_env["power"] == "QEMUDriver" and lab_env["kernel_image"] == other
    assert lab_env["kernel_release"] and lab_env["kernel_release"] != board(lab, "uname -r")
    [digest] = [r for r in doc["results"] if r["test"].endswith("test_digest[sha256]")]
    assert digest["summary"]["median"] > 0


def test_sbc_boots_reboots_the_board_between_boots_and_saves_each_boot(lab: LabRun,
                                                                        tmp_path: Path) -> None:
    """``--sbc-boots 2 --sbc-save-baseline`` on the real board: pytest's loop runs twice with a
    lab reboot between (a new boot id, checked), boot 1 is written to ``NAME.boot1.json`` before
    the reboot, and the baseline holds one session per boot, each with its boot's id."""
    results = tmp_path / "qemu.json"
    done = digest_on_board(lab, tmp_path, results, "--sbc-boots", "2", "--sbc-save-baseline")
    assert "sbcbench: boot 1 of 2" in done.stdout and "sbcbench: boot 2 of 2" in done.stdout
    first = json.loads((tmp_path / "qemu.boot1.json").read_text())["environment"]
    last = json.loads(results.read_text())["environment"]
    assert first["boot_id"] and last["boot_id"] and first["boot_id"] != last["boot_id"]
    assert last["lab"]["reboots"][-1]["boot_id_before"] == first["boot_id"]
    assert last["lab"]["reboots"][-1]["boot_id_after"] == last["boot_id"]
    [saved] = list((tmp_path / "baselines").glob("*.json"))
    [entry] = [e for e in json.loads(saved.read_text())["entries"] if e["metric"] == "sha256"]
    assert [s["environment"]["boot_id"] for s in entry["sessions"]] == [first["boot_id"],
                                                                         last["boot_id"]]


def test_sbc_boots_auto_decides_or_stops_at_its_budget_and_says_which(lab: LabRun,
                                                                      tmp_path: Path) -> None:
    """Issue 28: ``--sbc-boots auto`` on the real board, after a two-boot baseline: it boots the
    candidate until the gate is decided or its budget (2 here) is spent, reboots between, and
    the summary says which; an undecided gate exits 6, never 0."""
    results = tmp_path / "qemu.json"
    # accepted: an emulated board's boots carry their host's load and steal, and a baseline
    # boot saved under them is quarantined (issue 28, item 5), which is not what this tests
    digest_on_board(lab, tmp_path, results, "--sbc-boots", "2", "--sbc-save-baseline",
                    "--sbc-accept", "test_digest")
    argv = [sys.executable, "-m", "pytest", "benchmarks/test_crypto.py", "-k", "sha256",
            "--sbc-quick", "--sbc-idle-wait", "0", "-p", "no:cacheprovider", "-p", "labgrid",
            "--lg-env", str(lab.env_file), "--sbc-boots", "auto", "--sbc-boots-budget", "2",
            "--sbc-gate", "--sbc-candidate", "auto", "--sbc-baselines",
            str(tmp_path / "baselines"), "--sbc-results", str(results)]
    env = {k: v for k, v in os.environ.items()
           if k not in ("LG_ENV", "SBCBENCH_OPENSSL", "SBCBENCH_BOOT_ID")}
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=900,
                          check=False, env=env)
    out = done.stdout + done.stderr
    assert "sbcbench: boot 1 of at most 2" in out, out
    decided = "--sbc-boots auto decided: " in out
    stopped = "--sbc-boots auto stopped at its budget of 2 boots, undecided" in out
    assert decided != stopped, out  # exactly one of them, said
    if stopped:
        assert "sbcbench: boot 2 of at most 2" in out and done.returncode == 6, out
        assert (tmp_path / "qemu.boot1.json").is_file()  # the boot before the last, written
    else:
        assert done.returncode in (0, 1), out
    plan = json.loads(results.read_text())["environment"]["boot_plan"]
    assert plan == {"boots": 2, "every_boot": True}


def test_other_work_on_the_emulators_host_is_a_finding_of_the_boards_numbers(
        lab: LabRun, tmp_path: Path) -> None:
    """A busy loop on this controller (outside the child pytest's process tree, so not the
    emulator's) while the board measures: the digest's results carry a ``background-load``
    finding of the emulator's host, which nothing on the board could have seen."""
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        results = tmp_path / "qemu.json"
        digest_on_board(lab, tmp_path, results)
    finally:
        busy.kill()
        busy.wait()
    [digest] = [r for r in json.loads(results.read_text())["results"]
                if r["test"].endswith("test_digest[sha256]")]
    details = [f["detail"] for f in digest["telemetry"]["findings"]
               if f["kind"] == "background-load"]
    assert any(d.startswith("other work on the emulator's host (this controller) kept ")
               for d in details), digest["telemetry"]["findings"]


# A child pytest whose SIGINT is at its default whatever this process inherited (a background
# job's SIGINT is ignored, and an ignored signal stays ignored across exec).
DEFAULT_SIGINT = ("import runpy, signal, sys; signal.signal(signal.SIGINT, "
                  "signal.default_int_handler); sys.argv = ['pytest', *sys.argv[1:]]; "
                  "runpy.run_module('pytest', run_name='__main__')")


def board_pytest(lab: LabRun, tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    """The quick digests on the board in a child pytest of its own process group (a Ctrl-C
    reaches it and the emulator it starts, as a terminal's does), its output piped."""
    argv = [sys.executable, "-c", DEFAULT_SIGINT, "benchmarks/test_crypto.py", "-k",
            "test_digest", "--sbc-quick", "--sbc-idle-wait", "0", "-p", "no:cacheprovider",
            "-p", "labgrid", "--lg-env", str(lab.env_file), "-v", "--sbc-baselines",
            str(tmp_path / "baselines"), "--sbc-results", str(tmp_path / "qemu.json"), *args]
    env = {k: v for k, v in os.environ.items()
           if k not in ("LG_ENV", "SBCBENCH_OPENSSL", "SBCBENCH_BOOT_ID")}
    return subprocess.Popen(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=True)


def when_printed(proc: subprocess.Popen[str], text: str) -> str:
    """Block until the child prints a line holding ``text`` (no sleeping, no polling); what it
    printed up to there."""
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if text in line:
            return "".join(seen)
    raise AssertionError(f"the run ended before printing {text!r}:\n{''.join(seen)}")


@contextlib.contextmanager
def reaped(proc: subprocess.Popen[str]) -> Iterator[None]:
    """Whatever the test's body does, the run's process group is gone after it."""
    try:
        yield
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_ctrl_c_during_a_lab_boot_exits_2_without_a_traceback(lab: LabRun,
                                                              tmp_path: Path) -> None:
    """Issue 28, item 7: Ctrl-C on a labgrid run exited 1 (the regression code) with labgrid's
    cleanup traceback (the emulator, in the same process group, died of the same Ctrl-C, and
    releasing it raised).  SIGINT to the whole group once boot 1 started: exit 2, one line
    for the failed release, no traceback."""
    proc = board_pytest(lab, tmp_path, "--sbc-boots", "2")
    with reaped(proc):
        before = when_printed(proc, "sbcbench: boot 1 of 2")
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=600)
    output = before + out + err
    assert proc.returncode == pytest.ExitCode.INTERRUPTED, output
    assert "Traceback" not in output, output


def test_a_board_that_dies_mid_boot_is_named_once_and_its_boot_not_saved(
        lab: LabRun, tmp_path: Path) -> None:
    """Issue 31, item 8: QEMU killed during boot 2 of ``--sbc-boots 3 --sbc-save-baseline``
    took 160 s to notice, gave a BrokenPipeError traceback per remaining test, saved boot 2's
    finished test as a partial baseline session and exited 1.  Now, QEMU killed once boot 2's
    first test passed: the lost board is named (its emulator exited), the run stops there
    (exit 2), boot 1 stays saved and written, and no session of boot 2 is in the baseline or
    the history."""
    proc = board_pytest(lab, tmp_path, "--sbc-boots", "3", "--sbc-save-baseline")
    with reaped(proc):
        before = when_printed(proc, "sbcbench: boot 2 of 3")
        before += when_printed(proc, " PASSED ")  # boot 2's first test finished: a partial boot
        [qemu] = [int(p) for p in subprocess.run(
            ["pgrep", "-P", str(proc.pid), "qemu-system"], capture_output=True, text=True,
            check=False).stdout.split()]
        os.kill(qemu, signal.SIGKILL)
        out, err = proc.communicate(timeout=600)
    output = before + out + err
    assert proc.returncode == pytest.ExitCode.INTERRUPTED, output
    assert "Traceback" not in output, output  # one BrokenPipeError per remaining test was
    assert "the board is gone: its emulator (QEMU" in output
    assert "baseline NOT saved" in output and "history: baseline session not appended" in output
    boot1 = json.loads((tmp_path / "qemu.boot1.json").read_text())
    [saved] = list((tmp_path / "baselines").glob("*.json"))
    entries = json.loads(saved.read_text())["entries"]
    assert entries and all(len(e["sessions"]) == 1 for e in entries), entries
    assert {s["environment"]["boot_id"] for e in entries for s in e["sessions"]} == \
        {boot1["environment"]["boot_id"]}
    lost = json.loads((tmp_path / "qemu.boot2.json").read_text())  # written, marked
    assert lost["interrupted"] is True and len(lost["results"]) == 1
