"""Board-side timing: the sh wrapper run by real local shells, and its pure parser."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_sbcbench.errors import ParseError
from pytest_sbcbench.measure.board_timing import parse_timing, timed_argv

SHELLS = [s for s in ("dash", "bash") if shutil.which(s)]
LOOP = "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; echo done; echo note >&2; exit 3"


@pytest.mark.parametrize("shell", SHELLS)
def test_child_cpu_time_and_exit_code(shell: str, tmp_path: Path) -> None:
    """The wrapper reads the uptime clock under ``root``: the test's, which the command moves
    on by 12.25 s, so the wall time is known."""
    uptime = tmp_path / "proc" / "uptime"
    uptime.parent.mkdir()
    uptime.write_text("100.50 3.00\n")
    argv = timed_argv(["sh", "-c", f"echo '112.75 4.00' > {uptime}; {LOOP}"], str(tmp_path))
    argv[0] = shell
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    timing, own_stderr = parse_timing(proc.stderr)
    assert proc.returncode == timing.returncode == 3
    assert proc.stdout == "done\n" and own_stderr == "note\n"
    assert timing.cpu_s > 0 and timing.wall_s == 12.25


@pytest.mark.parametrize("trailer, wall, user, system", [
    # dash 0.5.12 (Debian 12): six decimals
    ("start=100.50 end=112.75 rc=0\n0m0.000000s 0m0.004000s\n1m2.500000s 0m3.250000s",
     12.25, 62.5, 3.25),
    # bash 5.2: three decimals
    ("start=7.00 end=7.30 rc=0\n0m0.758s 0m0.004s\n0m0.097s 0m0.000s", 0.3, 0.097, 0.0),
    # busybox ash style: a space after the minutes
    ("start=1.00 end=3.00 rc=2\n0m 0.01s 0m 0.00s\n0m 1.50s 0m 0.20s", 2.0, 1.5, 0.2),
])
def test_times_formats(trailer: str, wall: float, user: float, system: float) -> None:
    timing, own = parse_timing(f"warning: x\nsbcbench-time v1 {trailer}\n")
    assert (timing.wall_s, timing.user_s, timing.sys_s) == pytest.approx((wall, user, system))
    assert own == "warning: x\n"


@pytest.mark.parametrize("stderr, reason", [
    ("no trailer here\n", "no complete"),
    ("sbcbench-time v1 start=1 end=2 rc=0\n0m0s 0m0s\n", "no complete"),
    ("sbcbench-time v1 start=1 end=2 rc=0\nbogus\n0m0.1s 0m0.0s\n", "unknown format"),
    ("sbcbench-time v1 start=- end=- rc=0\n0m0.1s 0m0.0s\n0m0.1s 0m0.0s\n", "unreadable"),
    ("sbcbench-time v1 start=5 end=4 rc=0\n0m0.1s 0m0.0s\n0m0.1s 0m0.0s\n", "backwards"),
    ("sbcbench-time v1 start=0 end=60 rc=0\n0m0.0s 0m0.0s\n0m0.00s 0m0.00s\n", "no CPU time"),
])
def test_broken_reports_fail_loudly(stderr: str, reason: str) -> None:
    with pytest.raises(ParseError, match=reason):
        parse_timing(stderr)


def test_empty_command() -> None:
    with pytest.raises(ValueError, match="empty command"):
        timed_argv([])
