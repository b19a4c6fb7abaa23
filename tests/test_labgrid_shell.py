"""Integration: labgrid's ShellDriver fallback, for real.  A serial console (socat giving an
interactive ``sh`` on a pseudo-terminal, on 127.0.0.1) is exported as a ``NetworkSerialPort``
(raw) by a real exporter, reserved and locked as a tagged place, and driven by SerialDriver +
ShellDriver (tests/labgrid_lab.py: :func:`start_shell_lab`).  Skips only when labgrid or socat
is not installed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from labgrid_lab import (
    SHELL_PLACE,
    SHELL_TAGS,
    ExecutorContract,
    Lab,
    board_openssl_calls,
    lab_executor,
    lab_profile,
    preload_labgrid,
    running_lab,
    start_shell_lab,
)

from pytest_sbcbench.errors import ToolError
from pytest_sbcbench.measure.board_sampler import BoardSampler
from pytest_sbcbench.platform.board_scripts import SPLIT_PREFIX
from pytest_sbcbench.platform.capture import capture, extract
from pytest_sbcbench.platform.executor import Executor
from pytest_sbcbench.platform.facts import platform_facts
from pytest_sbcbench.platform.labgrid_executor import LabgridExecutor
from pytest_sbcbench.platform.sysroot import Sysroot
from pytest_sbcbench.run.watch import Watch

preload_labgrid()


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with running_lab(start_shell_lab, tmp_path_factory.mktemp("serial-lab")) as running:
        yield running


@pytest.fixture(scope="module")
def executor(lab: Lab) -> Iterator[LabgridExecutor]:
    """The console named directly (the place goes through the inner pytest run below)."""
    with lab_executor(lab.direct_env_file) as executor:
        yield executor


def test_the_console_is_the_command_driver(executor: LabgridExecutor) -> None:
    assert isinstance(executor, Executor) and not executor.is_local
    assert type(executor.command_driver).__name__ == "ShellDriver"
    assert type(executor.transfer_driver).__name__ == "ShellDriver"
    assert executor.merges_stderr


class TestContract(ExecutorContract):
    """The executor contract over the serial console's ShellDriver
    (labgrid_lab.ExecutorContract)."""


def test_argv_survives_the_console(executor: LabgridExecutor) -> None:
    """Quotes, globs, variables, an empty word and a newline inside a word (a continuation
    line on the tty) reach the command as the words they were."""
    words = ["a  b", "it's", '"q"', "", "$HOME", "x;y", "*", "two\nlines", "\t"]
    done = executor.run(["printf", "[%s]", *words], timeout=30)
    assert done.stdout == "".join(f"[{w}]" for w in words) + "\n"


def test_stdout_stderr_and_exit_code_come_apart(executor: LabgridExecutor) -> None:
    """The tty carries both streams as one; the executor separates them again, keeps a
    partial last line, and passes the exit code through."""
    done = executor.run(["sh", "-c", "echo out; echo err >&2; printf partial; exit 3"],
                        timeout=30)
    assert (done.returncode, done.stdout, done.stderr, done.timed_out) == \
        (3, "out\npartial\n", "err\n", False)


def test_output_resembling_a_marker_is_output(executor: LabgridExecutor) -> None:
    """The stderr marker is random per call: a command printing another one keeps it."""
    fake = f"{SPLIT_PREFIX}0123456789abcdef01234567"
    done = executor.run(["sh", "-c", f"echo {fake}; echo {fake} >&2"], timeout=30)
    assert (done.stdout, done.stderr) == (f"{fake}\n", f"{fake}\n")


def test_timeout_kills_on_the_board(executor: LabgridExecutor) -> None:
    """The board-side watchdog fires (exit 124, the sentinel found in the split stderr) and
    leaves nothing running; the console answers the next command."""
    done = executor.run(["sh", "-c", "sleep 4322 & wait"], timeout=1)
    assert done.timed_out and done.returncode == 124
    assert "timed out" not in done.stdout + done.stderr
    left = executor.run(["sh", "-c", "pgrep -f '^sleep 4322$' || true"], timeout=30)
    assert (left.returncode, left.stdout) == (0, "")


def test_read_gives_the_exact_bytes(executor: LabgridExecutor, tmp_path: Path) -> None:
    """Text with a tab, a CRLF and no final newline survives the tty (the board is this
    machine, so the test writes the file directly)."""
    text = b"a\tb\r\nc  d\nno newline"
    (tmp_path / "f.txt").write_bytes(text)
    assert executor.read(str(tmp_path / "f.txt")) == text
    assert executor.read("/nonexistent/sbcbench") is None
    osrelease = executor.read("/proc/sys/kernel/osrelease")
    assert osrelease is not None and osrelease.decode().strip() == os.uname().release


def cksum(executor: LabgridExecutor, path: str) -> str:
    done = executor.run(["cksum", path], timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[0]


def test_put_get_round_trip_over_the_console(executor: LabgridExecutor, tmp_path: Path
                                              ) -> None:
    """Every byte value, more than one printf chunk, no final newline: up through printf's
    octal escapes, down through od (gzip-compressed on the board); the board's own cksum
    agrees with the local one."""
    payload = bytes(range(256)) * 5 + b"tail"
    (tmp_path / "up.bin").write_bytes(payload)
    remote = str(tmp_path / "remote.bin")  # unique per run: the "board" is this machine
    executor.put(tmp_path / "up.bin", remote)
    try:
        local_sum = subprocess.run(["cksum", str(tmp_path / "up.bin")], capture_output=True,
                                   text=True, check=True).stdout.split()[0]
        assert cksum(executor, remote) == local_sum
        executor.get(remote, tmp_path / "back" / "down.bin")
        assert (tmp_path / "back" / "down.bin").read_bytes() == payload
        (tmp_path / "empty").write_bytes(b"")
        executor.put(tmp_path / "empty", remote)
        executor.get(remote, tmp_path / "back" / "empty")
        assert (tmp_path / "back" / "empty").read_bytes() == b""
    finally:
        executor.run(["rm", "-f", remote], timeout=30)


def test_transfer_errors_are_tool_errors(executor: LabgridExecutor, tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="reading the size of /nonexistent/sbcbench-file"):
        executor.get("/nonexistent/sbcbench-file", tmp_path / "x")
    (tmp_path / "up").write_bytes(b"x")
    with pytest.raises(ToolError, match="creating /nonexistent/dir/f failed on the board"):
        executor.put(tmp_path / "up", "/nonexistent/dir/f")
    assert executor.run(["echo", "still here"], timeout=30).stdout == "still here\n"


def test_capture_over_the_console(executor: LabgridExecutor, tmp_path: Path) -> None:
    """The board's files, copied by sh+tar and fetched over the console, replay in probe."""
    done = capture(executor, tmp_path / "board.tar.gz")
    facts = platform_facts(Sysroot(extract(done.path, tmp_path / "replay")))
    assert facts["kernel"] == os.uname().release  # the "board" is this machine


def test_no_stream_beside_the_console(executor: LabgridExecutor) -> None:
    """One console runs one command at a time: spawn refuses with the reason."""
    reason = executor.stream_unavailable()
    assert reason is not None and "ShellDriver" in reason and "SSHDriver" in reason
    with pytest.raises(ToolError, match="only SSHDriver gives"):
        executor.spawn(["sh", "-c", "echo never"])
    assert executor.run(["echo", "ok"], timeout=30).stdout == "ok\n"


def test_board_sampler_is_unavailable_not_an_error(executor: LabgridExecutor) -> None:
    """The sampler starts nothing, says why, and the test's watch ends without a trace."""
    sampler = BoardSampler(executor, 1.0)
    assert sampler.available() == executor.stream_unavailable()
    sampler.start()
    assert sampler.unavailable["sampler"].startswith("no board sampler: labgrid:main runs")
    assert Watch(sampler, None, None).stop(None) == (None, [])
    with pytest.raises(RuntimeError, match="never ran: no board sampler"):
        sampler.stop()


# -- the plugin over the console: an inner pytest --lg-env over the crypto suite -------------

REPO = Path(__file__).resolve().parents[1]
DIGEST = "benchmarks/test_crypto.py::test_digest[sha256]"


def test_suite_over_the_console(lab: Lab, tmp_path: Path) -> None:
    """The crypto quick run over ShellDriver: openssl ran on the board, the place's tag chose
    the board, the test passed, and the board sampler is reported as not sampled, with the
    reason, in the summary and the results (no telemetry samples), never an error."""
    lab_profile(tmp_path / "baselines", SHELL_TAGS, "serial console lab board")
    results = tmp_path / "serial.json"
    before = len(board_openssl_calls(lab))
    argv = [sys.executable, "-m", "pytest", "benchmarks/test_crypto.py", "-k", "sha256",
            "--sbc-quick", "--sbc-idle-wait", "0", "-p", "no:cacheprovider", "-rs",
            "-p", "labgrid", "--lg-env", str(lab.env_file),
            "--sbc-baselines", str(tmp_path / "baselines"), "--sbc-results", str(results)]
    env = {k: v for k, v in os.environ.items() if k not in ("LG_ENV", "SBCBENCH_OPENSSL")}
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=600,
                          check=False, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
    assert "not sampled: sampler: no board sampler: labgrid:main runs commands through " \
           "labgrid's ShellDriver" in done.stdout
    doc = json.loads(results.read_text())
    assert doc["board"] == SHELL_TAGS["board"]
    assert doc["environment"]["lab"]["place"] == SHELL_PLACE
    assert doc["environment"]["lab"]["tags"] == SHELL_TAGS
    assert "ShellDriver" in doc["environment"]["not_sampled"]["sampler"]
    [digest] = [r for r in doc["results"] if r["test"] == DIGEST]
    assert "samples" not in digest["telemetry"] and digest["summary"]["median"] > 0
    speed = [c for c in board_openssl_calls(lab)[before:]
             if c.endswith(" speed -mr -seconds 1 -evp sha256 -bytes 16384")]
    assert len(speed) == 2
