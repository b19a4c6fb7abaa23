"""The labgrid executor's board-side command strings, run by a real local ``sh`` the way a
board's login shell runs them (no labgrid needed): quoting, env, cwd and the watchdog."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from pytest_sbcbench.platform.board_scripts import (
    TIMEOUT_EXIT,
    TIMEOUT_SENTINEL,
    completed,
    env_prefix,
    remote_command,
)
from pytest_sbcbench.platform.executor import Completed

SHELLS = [s for s in ("sh", "dash", "bash", "busybox") if shutil.which(s)]


def as_board(command: str, shell: str = "sh", timeout: float = 60) -> Completed:
    """Run ``command`` like sshd does (``$SHELL -c command``) and parse it like the executor."""
    argv = [shell, "sh", "-c", command] if shell == "busybox" else [shell, "-c", command]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    return completed(["test"], proc.stdout.splitlines(), proc.stderr.splitlines(),
                     proc.returncode)


@pytest.mark.parametrize("shell", SHELLS)
def test_argv_words_survive_the_shell(shell: str) -> None:
    words = ["a b", "it's", '"q"', "", "$HOME", "`id`", "x\ny", "*"]
    out = as_board(remote_command(["printf", "[%s]", *words], 10), shell)
    assert out.returncode == 0
    assert out.stdout == "".join(f"[{w}]" for w in words) + "\n"


def test_env_and_cwd(tmp_path: pytest.TempPathFactory) -> None:
    command = remote_command(["sh", "-c", 'printf "%s|%s" "$GREETING" "$(pwd)"'], 10,
                             env={"GREETING": "hello 'board'"}, cwd=str(tmp_path))
    assert as_board(command).stdout == f"hello 'board'|{tmp_path}\n"


def test_bad_directory_is_exit_125(tmp_path: pytest.TempPathFactory) -> None:
    out = as_board(remote_command(["true"], 10, cwd=str(tmp_path) + "/missing"))
    assert out.returncode == 125 and not out.timed_out


def test_exit_code_passes_through() -> None:
    out = as_board(remote_command(["sh", "-c", "echo err >&2; exit 7"], 10))
    assert (out.returncode, out.stderr, out.timed_out) == (7, "err\n", False)


def test_own_exit_124_is_not_a_timeout() -> None:
    out = as_board(remote_command(["sh", "-c", "exit 124"], 10))
    assert out.returncode == TIMEOUT_EXIT and not out.timed_out


@pytest.mark.parametrize("shell", SHELLS)
def test_timeout_kills_the_whole_tree(shell: str) -> None:
    """A grandchild (``sleep``) dies too: the output channel closes at the timeout (else
    ``as_board`` would wait 60 s) and no such process is left."""
    seconds = 3000 + SHELLS.index(shell)
    out = as_board(remote_command(["sh", "-c", f"sleep {seconds} & wait; echo survived"], 1),
                   shell, timeout=60)
    assert out.timed_out and out.returncode == TIMEOUT_EXIT
    assert TIMEOUT_SENTINEL not in out.stderr and "survived" not in out.stdout
    left = subprocess.run(["pgrep", "-f", f"^sleep {seconds}$"], capture_output=True,
                          text=True, check=False)
    assert left.stdout == ""


def test_env_names_are_checked() -> None:
    assert env_prefix({"A_1": "x y"}) == ["env", "A_1=x y"]
    with pytest.raises(ValueError, match="not an environment variable name"):
        env_prefix({"A=B": "x"})
    with pytest.raises(ValueError, match="empty command"):
        remote_command([], 1)


def test_python_is_not_needed_on_the_board() -> None:
    """The wrapper is plain sh: the command string names no interpreter but sh."""
    command = remote_command(["openssl", "version"], 5)
    assert "python" not in command and sys.executable not in command
    assert command.startswith("sh -c ")


def test_timeout_keeps_a_partial_last_stderr_line() -> None:
    """The sentinel starts on a new line, so a command's unterminated stderr survives."""
    out = as_board(remote_command(["sh", "-c", "printf partial >&2; exec sleep 300"], 1))
    assert out.timed_out and out.stderr == "partial\n"
