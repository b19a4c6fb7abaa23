"""Integration: ``sbcbench fleet run`` against a real labgrid coordinator with two places
(tests/fleet_lab.py: one sshd "board" exported twice).  The places are reserved through
labgrid's own reservations, both suites run and land in one history, a place that cannot be
reserved is named and exits 4, and Ctrl-C still releases every place.  Skips only when sshd or
labgrid is not installed."""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fleet_lab import PLACES, start_fleet_lab
from labgrid_lab import Lab, lab_profile, preload_labgrid, running_lab

preload_labgrid()

REPO = Path(__file__).resolve().parents[1]
SUITE = ["benchmarks/test_crypto.py", "-k", "sha256", "--sbc-quick", "--sbc-idle-wait", "0",
         "-p", "no:cacheprovider"]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with running_lab(start_fleet_lab, tmp_path_factory.mktemp("fleet-lab")) as running:
        yield running


def fleet_argv(lab: Lab, tmp: Path, *places: str, timeout: str = "120") -> list[str]:
    return [sys.executable, "-m", "pytest_sbcbench.cli", "fleet", "run", "--places", *places,
            "--lg-env", str(lab.env_file), "--coordinator", lab.coordinator,
            "--reserve-timeout", timeout, "--logs", str(tmp / "logs"), "--"]


def clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()
            if k not in ("LG_ENV", "LG_PLACE", "LG_TOKEN", "SBCBENCH_OPENSSL")}


def assert_all_released(lab: Lab) -> None:
    """No reservation left at the coordinator and no place acquired."""
    assert "Reservation '" not in lab.client("reservations", place=None)
    assert lab.client("places", "--acquired", place=None).strip() == ""


@pytest.fixture(scope="module")
def two_places(lab: Lab, tmp_path_factory: pytest.TempPathFactory
               ) -> tuple[subprocess.CompletedProcess[str], Path]:
    """``fleet run --places lab=fleet lab=fleet``: each item reserves one of the two places
    tagged lab=fleet; both save a baseline of their own board into one baselines directory."""
    tmp = tmp_path_factory.mktemp("fleet-run")
    baselines = tmp / "baselines"
    for tags in PLACES.values():
        lab_profile(baselines, tags, title=f"fleet board {tags['board']}")
    argv = [*fleet_argv(lab, tmp, "lab=fleet", "lab=fleet"), *SUITE,
            "--sbc-baselines", str(baselines), "--sbc-save-baseline"]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=600,
                          check=False, env=clean_env())
    return done, baselines


def test_two_places_run_in_one_command(lab: Lab, two_places: tuple[
        subprocess.CompletedProcess[str], Path]) -> None:
    done, _ = two_places
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3, done.stdout
    for place in PLACES:
        [line] = [x for x in lines if x.startswith(f"place {place} [lab=fleet]: ")]
        assert "exit 0 (no regression): " in line and " passed" in line
    assert lines[-1].startswith("fleet: 2 places, exit 0 (no regression) (worst of 0, 0;")
    for place in PLACES:  # progress lines on stderr, in their order
        said = [line.split(": ", 2)[2] for line in done.stderr.splitlines()
                if line.startswith(f"fleet: place {place} [lab=fleet]: ")]
        assert [x.split(" ")[0:2] for x in said[:5]] == [
            ["reserved", "and"], ["running", "pytest,"], ["pytest", "started"],
            ["pytest", "collected"], ["pytest", "exited"]], done.stderr
        assert f"fleet: place {place} [lab=fleet]: released" in done.stderr
    assert_all_released(lab)


def test_both_sessions_are_in_one_history(two_places: tuple[
        subprocess.CompletedProcess[str], Path]) -> None:
    done, baselines = two_places
    with sqlite3.connect(baselines / "history.sqlite") as db:
        rows = db.execute("SELECT board, role, environment FROM sessions").fetchall()
    assert sorted((board, role) for board, role, _ in rows) == [
        ("lab-a", "baseline"), ("lab-b", "baseline")], done.stdout
    places = {board: json.loads(env)["lab"]["place"] for board, _, env in rows}
    assert places == {tags["board"]: place for place, tags in PLACES.items()}
    assert {p.name for p in (baselines).glob("*.json")} >= {"lab-a.json", "lab-b.json"}


def test_a_place_never_reserved_is_named_and_exits_4(lab: Lab, tmp_path: Path) -> None:
    """No place carries lab=nowhere: the reservation waits until the timeout, is cancelled,
    and the place's line says so; nothing ran."""
    argv = [*fleet_argv(lab, tmp_path, "lab=nowhere", timeout="3"), *SUITE]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=120,
                          check=False, env=clean_env())
    assert done.returncode == 4, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        "[lab=nowhere]: exit 4 (cannot gate): not reserved within 3 s: no place tagged "
        "lab=nowhere came free",
        "fleet: 1 place, exit 4 (cannot gate) (worst of 4; order 2 > 1 > 4 > 6 > 0)"]
    assert not (tmp_path / "logs").exists()
    assert_all_released(lab)


def test_the_place_log_is_written_as_it_comes_with_started_and_collected_said(
        tmp_path: Path) -> None:
    from pytest_sbcbench.run.fleet import Fleet, FleetPlan, PlaceRun, _relay

    said: list[str] = []
    fleet = Fleet(FleetPlan([], tmp_path, "", [], tmp_path, 1.0), said.append)
    run = PlaceRun("lab=x", place="p1")
    output = ("====== test session starts ======\nplatform linux -- Python 3\n"
              "collected 3 items / 2 deselected / 1 selected\n\nt.py .  [100%]\n"
              "====== 1 passed, 2 deselected in 0.10s ======\n")
    log = (tmp_path / "p1.log").open("w")
    _relay(fleet, run, io.StringIO(output), log)
    assert log.closed and (tmp_path / "p1.log").read_text() == output
    assert said == ["place p1 [lab=x]: pytest started",
                    "place p1 [lab=x]: pytest collected 3 items / 2 deselected / 1 selected"]
    assert run.why == "1 passed, 2 deselected in 0.10s"


def test_an_unusable_history_url_is_refused_before_anything_is_reserved(
        tmp_path: Path) -> None:
    env_file = tmp_path / "env.yaml"
    env_file.write_text("targets: {}\n")
    argv = [sys.executable, "-m", "pytest_sbcbench.cli", "fleet", "run", "--places", "lab=x",
            "--lg-env", str(env_file), "--coordinator", "127.0.0.1:1",
            "--sbc-history", "mysql://db/sbc", "--logs", str(tmp_path / "logs"), "--", *SUITE]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=120,
                          check=False, env=clean_env())
    assert (done.returncode, done.stdout) == (4, ""), done.stderr
    assert done.stderr == ("sbcbench fleet run: --sbc-history: history 'mysql://db/sbc': "
                           "expected sqlite:///PATH or postgresql://... (scheme 'mysql' is not "
                           "one): nothing was reserved\n")
    assert not (tmp_path / "logs").exists()


def test_ctrl_c_releases_every_place(lab: Lab, tmp_path: Path) -> None:
    """SIGINT once the suite runs on the place: pytest is interrupted, the fleet exits 2 and
    the place and its reservation are released."""
    baselines = tmp_path / "baselines"  # its own board profile: no other test's side effect
    lab_profile(baselines, PLACES["sbc-fleet-1"], title="fleet board lab-a")
    argv = [*fleet_argv(lab, tmp_path, "board=lab-a"), *SUITE, "--sbc-baselines", str(baselines)]
    proc = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=clean_env())
    assert proc.stderr is not None
    seen = []
    # blocks on the fleet's own progress line, no sleep: the place's pytest must be past its
    # start-up (an interrupt while pytest still imports its plugins and conftests is pytest's
    # own usage error, exit 4, not a run interrupted), and it has collected the suite
    collected = "fleet: place sbc-fleet-1 [board=lab-a]: pytest collected "
    for line in proc.stderr:
        seen.append(line)
        if line.startswith(collected):
            break
    assert seen and seen[-1].startswith(collected), "".join(seen)  # not the pipe's end
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 2, "".join(seen) + err + out
    assert "interrupted: stopping every place's run" in err
    assert out.splitlines()[-1] == "fleet: 1 place, exit 2 (interrupted or unusable) " \
                                   "(interrupted)"
    assert "place sbc-fleet-1 [board=lab-a]: exit 2 (interrupted or unusable)" in out
    assert "by hand" not in err, err
    assert_all_released(lab)
