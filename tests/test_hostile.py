"""Hostile options and repositories (issue 14, point 9), and the hostile replay script."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO
from pytest_sbcbench.errors import CheckoutError
from pytest_sbcbench.measure.checkout import checkout, local_path
from pytest_sbcbench.measure.git import NetworkError
from pytest_sbcbench.settings import duration_seconds, interval_seconds, positive_float

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git not found on PATH")


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e-9", "0", "-1", "3601", "soon"])
def test_sampler_interval_range(value: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="sampler interval"):
        interval_seconds(value)


def test_sampler_interval_bounds_are_inclusive_where_documented() -> None:
    assert [interval_seconds(v) for v in ("0.05", "1", "3600")] == [0.05, 1.0, 3600.0]


@pytest.mark.parametrize("value", ["inf", "nan", "0", "-5", "1e9"])
def test_durations_are_finite(value: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="give a number of seconds above 0"):
        duration_seconds(value)
    with pytest.raises(argparse.ArgumentTypeError):
        positive_float(value)


@pytest.mark.parametrize(("value", "message"), [
    ("inf", "is not a valid sampler interval"), ("1e-9", "too short a sampler interval")])
def test_sbc_interval_is_a_usage_error(pytester: pytest.Pytester, value: str,
                                       message: str) -> None:
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest("--sbc-interval", value)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--sbc-interval*{message}*"])


def test_local_paths_and_file_urls_are_local() -> None:
    assert local_path("file:///srv/git/my%20repo.git") == Path("/srv/git/my repo.git")
    assert local_path("/srv/git/repo") == Path("/srv/git/repo")
    assert local_path("https://example.org/o/r.git") is None
    assert local_path("git@example.org:o/r.git") is None


@needs_git
@pytest.mark.parametrize("form", ["file", "path"])
def test_a_missing_local_repository_is_an_error_not_a_skip(tmp_path: Path, form: str) -> None:
    missing = tmp_path / "no-such-repo.git"
    url = f"file://{missing}" if form == "file" else str(missing)
    with pytest.raises(CheckoutError, match=f"{missing} does not exist .*not a network problem"):
        checkout(url, "abcdef1", tmp_path / "cache")


@needs_git
def test_a_local_directory_that_is_not_a_repository_is_an_error(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(CheckoutError, match=f"git cannot read the local repository {plain}"):
        checkout(f"file://{plain}", "abcdef1", tmp_path / "cache")


@needs_git
def test_an_unreachable_remote_is_still_a_network_skip(tmp_path: Path) -> None:
    with pytest.raises(NetworkError):
        checkout("https://127.0.0.1:9/owner/repo.git", "abcdef1", tmp_path / "cache")


def test_the_hostile_replay_loses_nothing() -> None:
    """scripts/hostile_replay.py: every case ends with a clear message and no byte lost,
    the pytest-run cases and every signal at three moments included."""
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "hostile_replay.py")],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")][1:]
    assert len(rows) >= 42, done.stdout
    for row in rows:
        assert row.rstrip().endswith("| yes | no |"), row
    cases = [row.split(" | ")[0].lstrip("| ") for row in rows]
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"):
        for moment in ("during a workload", "during the real-clock check after the run",
                       "during a save"):
            assert f"{name} {moment}" in cases
    for name in ("pytest --sbc-results on a device node", "pytest with five bad output paths",
                 "two pytest runs save the same baseline at once",
                 "pytest --sbc-save-baseline after a regression", "SIGKILL during a save"):
        assert name in cases
