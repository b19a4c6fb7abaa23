"""Integration: a real sshd "board" behind a real labgrid coordinator, exporter and locked place
on 127.0.0.1 (tests/labgrid_lab.py).  Skips only when sshd or labgrid is not installed."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from labgrid_lab import (
    PLACE,
    TAGS,
    ExecutorContract,
    Lab,
    board_openssl_calls,
    lab_executor,
    lab_profile,
    preload_labgrid,
    running_lab,
    start_lab,
)

from pytest_sbcbench.errors import ToolError
from pytest_sbcbench.judge.telemetry import summarize_trace
from pytest_sbcbench.measure.board_sampler import BoardSampler
from pytest_sbcbench.measure.board_timing import parse_timing, timed_argv
from pytest_sbcbench.measure.openssl import measure_throughput, openssl_tool
from pytest_sbcbench.platform.capture import capture, extract
from pytest_sbcbench.platform.executor import Executor
from pytest_sbcbench.platform.facts import platform_facts
from pytest_sbcbench.platform.labgrid_executor import (
    LabgridExecutor,
    env_digest,
    place_tags,
)
from pytest_sbcbench.platform.labgrid_ssh import SshChannel
from pytest_sbcbench.platform.sysroot import Sysroot

preload_labgrid()
CLK_TCK = os.sysconf("SC_CLK_TCK")  # the board's: the board is this machine


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with running_lab(start_lab, tmp_path_factory.mktemp("lab")) as running:
        yield running


@pytest.fixture(scope="module")
def executor(lab: Lab) -> Iterator[LabgridExecutor]:
    with lab_executor(lab.env_file) as executor:
        yield executor


def test_is_an_executor(executor: LabgridExecutor) -> None:
    assert isinstance(executor, Executor)
    assert not executor.is_local and executor.name == "labgrid:main"


class TestContract(ExecutorContract):
    """The executor contract over the sshd lab's SSHDriver (labgrid_lab.ExecutorContract)."""


def test_argv_survives(executor: LabgridExecutor) -> None:
    words = ["a  b", "it's", '"q"', "", "$HOME", "x;y", "*"]
    done = executor.run(["printf", "[%s]", *words], timeout=30)
    assert done.stdout == "".join(f"[{w}]" for w in words) + "\n"


def test_timeout_kills_on_the_board(executor: LabgridExecutor) -> None:
    done = executor.run(["sh", "-c", "sleep 4321 & wait"], timeout=1)
    assert done.timed_out and done.returncode == 124
    left = executor.run(["sh", "-c", "pgrep -f '^sleep 4321$' || true"], timeout=30)
    assert left.stdout == ""


def test_exit_code_and_stderr(executor: LabgridExecutor) -> None:
    done = executor.run(["sh", "-c", "echo oops >&2; exit 3"], timeout=30)
    assert (done.returncode, done.stderr, done.timed_out) == (3, "oops\n", False)


def test_put_get_round_trip(executor: LabgridExecutor, tmp_path: Path) -> None:
    payload = bytes(range(256)) * 64
    (tmp_path / "up.bin").write_bytes(payload)
    remote = str(tmp_path / "remote.bin")  # unique per run: the "board" is this machine
    executor.put(tmp_path / "up.bin", remote)
    try:
        assert executor.read(remote) == payload
        executor.get(remote, tmp_path / "back" / "down.bin")
        assert (tmp_path / "back" / "down.bin").read_bytes() == payload
    finally:
        executor.run(["rm", "-f", remote], timeout=30)


def test_read(executor: LabgridExecutor) -> None:
    assert executor.read("/nonexistent/sbcbench") is None
    osrelease = executor.read("/proc/sys/kernel/osrelease")
    assert osrelease is not None and osrelease.endswith(b"\n") and osrelease.strip()


def test_spawn_streams_and_stops(executor: LabgridExecutor) -> None:
    handle = executor.spawn(["sh", "-c", 'i=0; while :; do i=$((i+1)); echo "n $i"; sleep 1; done'])
    lines = handle.lines()
    assert [next(lines), next(lines)] == ["n 1", "n 2"]
    handle.stop()
    handle.stop()  # idempotent
    alive = executor.run(["sh", "-c", f"kill -0 {handle.remote_pid} 2>/dev/null && echo alive"
                          " || true"], timeout=30)
    assert alive.stdout == ""


def test_place_tags_reach_the_target(executor: LabgridExecutor) -> None:
    assert place_tags(executor.target) == TAGS


def test_ssh_adapter_matches_this_labgrid(executor: LabgridExecutor) -> None:
    """The one place relying on SSHDriver internals: fails loudly when labgrid changes them."""
    driver = executor.command_driver
    assert type(driver).__name__ == "SSHDriver"
    channel = SshChannel.of(driver)
    assert any(p.startswith("ControlPath=") for p in channel.prefix)
    assert "ssh_prefix" in inspect.getsource(type(driver).on_activate)
    assert type(driver).bindings == {"networkservice": "NetworkService"}


def test_board_sampler_over_labgrid(executor: LabgridExecutor) -> None:
    """The sh sampler streams from the board and parses into telemetry; it states its own CPU
    time on the board.  A start and a stop sample always exist, whatever the timing."""
    sampler = BoardSampler(executor, 1.0)
    sampler.start()
    executor.run(["sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"], timeout=120)
    trace = sampler.stop()
    assert len(trace.readings) >= 2 and trace.load_source == "system"
    telemetry = summarize_trace(trace)
    assert telemetry["memory_used_max_bytes"] > 0
    assert telemetry["system_busy_cpus"] is not None
    assert sampler.cpu_s is not None  # clock ticks of its sh on the board (this machine)
    assert round(sampler.cpu_s * CLK_TCK) == pytest.approx(sampler.cpu_s * CLK_TCK)


def test_build_timing_is_measured_on_the_board(lab: Lab, executor: LabgridExecutor) -> None:
    """Wall time from the board's clock (inside the controller's round trip), CPU time from the
    child's rusage; the board-only openssl ran."""
    started = time.monotonic()
    done = executor.run(timed_argv(["openssl", "speed", "-seconds", "1", "sha256"]), timeout=120)
    round_trip = time.monotonic() - started
    timing, _ = parse_timing(done.stderr)
    assert done.returncode == timing.returncode == 0
    assert 0.99 <= timing.wall_s <= round_trip + 0.01
    assert timing.cpu_s > 0
    assert board_openssl_calls(lab)[-1].endswith("speed -seconds 1 sha256")


def test_capture_over_labgrid_replays_in_probe(executor: LabgridExecutor, tmp_path: Path) -> None:
    """The board's own files, copied by sh+tar over labgrid, replay through probe."""
    done = capture(executor, tmp_path / "board.tar.gz")
    assert done.source == "labgrid:main"
    replay = extract(done.path, tmp_path / "replay")
    facts = platform_facts(Sysroot(replay))
    kernel = executor.run(["uname", "-r"], timeout=30).stdout.strip()
    boot_id = executor.read("/proc/sys/kernel/random/boot_id")
    assert facts["kernel"] == kernel
    assert boot_id is not None and Sysroot(replay).read(
        "proc/sys/kernel/random/boot_id") == boot_id.decode()
    nproc = executor.run(["getconf", "_NPROCESSORS_ONLN"], timeout=30).stdout.strip()
    assert facts["cpus"] == int(nproc)


def test_capture_command_with_lg_env(lab: Lab, tmp_path: Path) -> None:
    """``sbcbench capture --lg-env ENV --out FILE`` then ``sbcbench probe --sysroot``."""
    out = tmp_path / "cli.tar.gz"
    cli = [sys.executable, "-m", "pytest_sbcbench.cli"]
    made = subprocess.run([*cli, "capture", "--lg-env", str(lab.env_file), "--out", str(out)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert made.returncode == 0, made.stderr
    assert f"wrote {out}" in made.stdout
    replay = extract(out, tmp_path / "replay")
    probed = subprocess.run([*cli, "probe", "--sysroot", str(replay), "--json"],
                            capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(probed.stdout)["kernel"] == os.uname().release  # the "board" is here


def test_openssl_measure_runs_on_the_board(lab: Lab, executor: LabgridExecutor) -> None:
    """The existing openssl measurement, unchanged, through the labgrid executor."""
    tool = openssl_tool("openssl", executor=executor)
    measured = measure_throughput(tool, "sha256", seconds=1, runs=1)
    assert measured.samples[0] > 0 and measured.identity.as_dict()["version"] == tool.version
    assert board_openssl_calls(lab)[-1].endswith("speed -mr -seconds 1 -evp sha256 -bytes 16384")


def test_failed_transfer_is_a_tool_error(executor: LabgridExecutor, tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="labgrid could not run it"):
        executor.put(tmp_path / "does-not-exist", "/tmp/sbcbench-never")
    with pytest.raises(ToolError):
        executor.get("/nonexistent/sbcbench-file", tmp_path / "x")


# -- the plugin over labgrid: an inner pytest --lg-env over the shipped crypto suite -----------

REPO = Path(__file__).resolve().parents[1]
SUITE = "benchmarks/test_crypto.py"
SELECT = "sha256 or (inprocess and chacha20)"  # one openssl test, one that must skip remotely
DIGEST = f"{SUITE}::test_digest[sha256]"


@dataclass
class Run:
    out: subprocess.CompletedProcess[str]
    doc: dict[str, Any]
    results: Path

    @property
    def digest(self) -> dict[str, Any]:
        [result] = [r for r in self.doc["results"] if r["test"] == DIGEST]
        return result  # type: ignore[no-any-return]


def run_suite(tmp: Path, name: str, *extra: str, lg_env: Path | None = None) -> Run:
    """``pytest benchmarks/test_crypto.py --sbc-quick`` (inner, in the repository), plus
    ``extra``: the labgrid options for a run on the lab board."""
    results = tmp / f"{name}.json"
    argv = [sys.executable, "-m", "pytest", SUITE, "-k", SELECT, "--sbc-quick",
            "--sbc-idle-wait", "0", "-p", "no:cacheprovider", "-rs",
            "--sbc-baselines", str(tmp / "baselines"), "--sbc-results", str(results), *extra]
    env = {k: v for k, v in os.environ.items() if k not in ("LG_ENV", "SBCBENCH_OPENSSL")}
    env.update({"LG_ENV": str(lg_env)} if lg_env is not None else {})
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=180,
                          check=False, env=env)
    doc = json.loads(results.read_text()) if results.exists() else {}
    return Run(done, doc, results)


def on_lab(lab: Lab, tmp: Path, name: str, *extra: str) -> Run:
    return run_suite(tmp, name, "-p", "labgrid", "--lg-env", str(lab.env_file), *extra)


@dataclass
class LabRuns:
    calls: list[str]
    saved: Run
    again: Run
    slowed: Run
    local: Run


@pytest.fixture(scope="module")
def lab_runs(lab: Lab, tmp_path_factory: pytest.TempPathFactory) -> LabRuns:
    """One place, three runs: save a baseline, rerun judged against it, then with the board's
    openssl slowed (every CPU feature hidden from it); and the same suite run locally."""
    tmp = tmp_path_factory.mktemp("lab-runs")
    lab_profile(tmp / "baselines")
    before = len(board_openssl_calls(lab))
    saved = on_lab(lab, tmp, "saved", "--sbc-save-baseline")
    calls = board_openssl_calls(lab)[before:]
    again = run_suite(tmp, "again", "-p", "labgrid", lg_env=lab.env_file)  # LG_ENV, as in CI
    lab.board_slow.touch()
    try:
        slowed = on_lab(lab, tmp, "slowed")
    finally:
        lab.board_slow.unlink()
    local = run_suite(tmp, "local", "-p", "no:labgrid")
    return LabRuns(calls, saved, again, slowed, local)


def test_suite_commands_ran_on_the_board(lab_runs: LabRuns) -> None:
    """The board-only openssl wrapper logged both quick samples; the in-process test (the
    controller's Python) skipped with the reason."""
    saved = lab_runs.saved.out
    assert saved.returncode == 0, saved.stdout + saved.stderr
    speed = [c for c in lab_runs.calls if c.endswith(" speed -mr -seconds 1 -evp sha256 "
                                                     "-bytes 16384")]
    assert len(speed) == 2
    assert "not run on a remote board yet (labgrid:main): in-process" in saved.stdout
    assert "1 passed, 1 skipped" in saved.stdout


def test_results_carry_the_place_identity(lab: Lab, lab_runs: LabRuns) -> None:
    """The place's board tag chose the profile; the board's kernel and boot id, the place and
    the env file's digest are in the environment."""
    doc = lab_runs.saved.doc
    assert doc["board"] == TAGS["board"]
    lab_env = doc["environment"]["lab"]
    assert lab_env["place"] == PLACE and lab_env["tags"] == TAGS
    assert lab_env["env_digest"] == env_digest(lab.env_file)
    assert lab_env["kernel_release"] == os.uname().release  # the "board" is this machine
    assert lab_env["boot_id"] == Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    assert "the board is remote (labgrid:main)" in lab_runs.saved.out.stdout


def test_telemetry_comes_from_the_board_sampler(lab_runs: LabRuns) -> None:
    """Several samples of the board's live /proc (a captured tree would never change), and the
    sampler's own words for what the board lacks."""
    telemetry = lab_runs.saved.digest["telemetry"]
    assert telemetry["samples"] >= 2 and telemetry["memory_used_max_bytes"] > 0
    assert telemetry["system_busy_cpus"]["max"] > 0
    assert all("on the board" in why for why in telemetry["unavailable"].values())
    cost = telemetry["sampler_cost"]["cpu_s"]  # its own cost, in clock ticks read on the board
    assert round(cost * CLK_TCK) == pytest.approx(cost * CLK_TCK)


def test_the_place_tag_baseline_gates_the_run(lab_runs: LabRuns) -> None:
    """Saved under the tag's board; the rerun (given the environment through ``LG_ENV``) is
    judged against it on the board; the slowed openssl is a regression that fails the test."""
    assert lab_runs.again.doc["environment"]["lab"]["place"] == PLACE
    assert lab_runs.again.digest["verdict"]["status"] not in ("no-baseline", "incomparable")
    slowed = lab_runs.slowed
    assert slowed.out.returncode == 1, slowed.out.stdout
    assert slowed.digest["verdict"]["status"] == "regression", slowed.out.stdout
    assert "regression: sha256: baseline median" in slowed.out.stdout


def test_lab_numbers_match_a_local_run(lab_runs: LabRuns) -> None:
    """The sshd "board" is this machine: openssl's sha256 over labgrid is the same measurement
    as the local run's (the same identity: tool, version, algorithm, block size, threads) and
    of the same size.  The size check is a factor of 3 either way: it catches a unit or scale
    mistake (kB/s read as B/s is 1000x), while the two runs, minutes apart, move with the
    machine's load (45% apart was seen with three test suites on this 2-core VM, although
    openssl speed divides by its own CPU time)."""
    lab, local = lab_runs.saved.digest, lab_runs.local.digest
    assert lab_runs.local.doc["environment"].get("lab") is None
    assert lab["identity"] == local["identity"] and lab["unit"] == local["unit"] == "B/s"
    assert 1 / 3 < lab["summary"]["median"] / local["summary"]["median"] < 3


def test_fleet_merge_of_the_lab_run(lab_runs: LabRuns, tmp_path: Path) -> None:
    """``sbcbench fleet merge`` over the place's results and the local run: one places table,
    sha256 ranked across both; the same place twice is refused."""
    cli = [sys.executable, "-m", "pytest_sbcbench.cli", "fleet", "merge"]
    baselines = str(lab_runs.saved.results.parent / "baselines")
    done = subprocess.run([*cli, str(lab_runs.saved.results), str(lab_runs.local.results),
                           "--baselines", baselines, "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert f"| {PLACE} | {TAGS['board']} | board=lab-sshd soc=none |" in done.stdout
    assert (tmp_path / "report.md").read_text() == done.stdout
    ranked = done.stdout.split("## Rankings", 1)[1].split("## Crypto gaps", 1)[0]
    assert "sha256" in ranked and TAGS["board"] in ranked
    twice = subprocess.run([*cli, str(lab_runs.saved.results), str(lab_runs.again.results)],
                           capture_output=True, text=True, timeout=120, check=False)
    assert twice.returncode == 2 and f"place {PLACE} is in both" in twice.stderr


def test_a_reserved_place_is_recorded_by_its_name(lab: Lab, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile run III, 25: through a reservation (``LG_PLACE=+``: the environment names the
    place ``+`` and ``LG_TOKEN`` the reservation), ``environment.lab.place`` recorded ``"+"``,
    so results of two places could not be told apart.  The name is the place's."""
    from labgrid import Environment

    from pytest_sbcbench.run.lab import LabRun

    assert lab.token is not None
    reserved = tmp_path / "env-reserved.yaml"
    reserved.write_text(lab.env_file.read_text().replace(f"name: {PLACE}", "name: '+'"))
    monkeypatch.setenv("LG_TOKEN", lab.token)
    run = LabRun(Environment(str(reserved)))
    try:
        run.connect()
        assert run.place == PLACE
        assert run.board_name() == f"place {PLACE}"
    finally:
        run.close()
