"""``sbcbench monitor``: a line per sample while it runs, a text or JSON summary, and its
arguments' bounds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import RAW, star64_tree
from pytest_sbcbench.cli import main
from pytest_sbcbench.cli.commands import read_for
from pytest_sbcbench.measure.sampler import Sampler
from pytest_sbcbench.platform.sysroot import Sysroot


def test_monitor_prints_a_line_per_sample_and_text(star64: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A line per sample on stderr while it runs (first and last sample at least), then the
    summary as text on stdout."""
    assert main(["monitor", "--sysroot", str(star64), "--interval", "0.1",
                 "--duration", "0.1"]) == 0
    captured = capsys.readouterr()
    progress = [line for line in captured.err.splitlines() if line.endswith("MiB used")]
    assert len(progress) >= 2
    assert all("1500 MHz  56.9 C" in line for line in progress)
    assert "temperature c          idle 56.9, peak 56.9" in captured.out
    assert not any(raw in captured.out for raw in RAW), captured.out


def test_monitor_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One interval as long as the duration: a sample at the start and one at the end, however
    slowly this machine runs."""
    tree = star64_tree(tmp_path / "t")
    assert main(["monitor", "--sysroot", str(tree), "--interval", "0.05", "--duration", "0.05",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["samples"] == 2 and data["max_mhz"] == [1500.0] * 4
    assert data["temperature_c"]["idle"] == 56.9


def test_monitor_samples_every_interval_of_the_duration(tmp_path: Path) -> None:
    """The monitor's wait is injected: a scripted clock, advanced by each wait, gives a sample
    at 0, every 0.2 s and at the end of 1 s (no thread racing the wall clock)."""
    now = [0.0]

    def wait(seconds: float) -> None:
        now[0] += seconds

    sampler = Sampler(Sysroot(star64_tree(tmp_path / "t")), 0.2, load_source="system",
                      clock=lambda: now[0])
    trace = read_for(sampler, 1.0, sleep=wait)
    assert [round(s.t, 6) for s in trace.readings] == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert all(s.mhz == (1500.0,) * 4 for s in trace.readings)


def test_monitor_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["monitor", "--interval", "0", "--duration", "1"])
    assert exit_.value.code == 2


@pytest.mark.parametrize(("args", "message"), [
    (["--duration", "inf"], "'inf' is not a valid duration"),
    (["--duration", "1", "--interval", "1e-9"], "too short a sampler interval"),
    (["--duration", "1", "--interval", "inf"], "'inf' is not a valid sampler interval"),
])
def test_monitor_refuses_unbounded_values(args: list[str], message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["monitor", *args])
    assert exit_.value.code == 2 and message in capsys.readouterr().err
