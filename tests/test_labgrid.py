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
from pathlib import Path
from typing import Any

import pytest
from labgrid_lab import PLACE, TAGS, Lab, LabUnavailable, preload_labgrid, start_lab

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
    SshChannel,
    env_digest,
    open_target,
    place_tags,
)
from pytest_sbcbench.platform.sysroot import Sysroot

preload_labgrid()


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    try:
        running = start_lab(tmp_path_factory.mktemp("lab"))
    except LabUnavailable as exc:
        pytest.skip(str(exc))
    try:
        yield running
    finally:
        running.close()


@pytest.fixture(scope="module")
def executor(lab: Lab) -> Iterator[LabgridExecutor]:
    target = open_target(lab.env_file)
    try:
        yield LabgridExecutor(target)
    finally:
        target.cleanup()


def board_openssl_calls(lab: Lab) -> list[str]:
    return lab.board_log.read_text().splitlines() if lab.board_log.exists() else []


def test_is_an_executor(executor: LabgridExecutor) -> None:
    assert isinstance(executor, Executor)
    assert not executor.is_local and executor.name == "labgrid:main"


def test_commands_run_on_the_board(lab: Lab, executor: LabgridExecutor) -> None:
    """``openssl`` resolves to the board-only wrapper on the sshd session's PATH."""
    before = len(board_openssl_calls(lab))
    done = executor.run(["openssl", "version", "-v"], timeout=30)
    assert done.returncode == 0 and done.stdout.startswith("OpenSSL ")
    calls = board_openssl_calls(lab)
    assert len(calls) == before + 1 and calls[-1].endswith(" version -v")


def test_argv_survives(executor: LabgridExecutor) -> None:
    words = ["a  b", "it's", '"q"', "", "$HOME", "x;y", "*"]
    done = executor.run(["printf", "[%s]", *words], timeout=30)
    assert done.stdout == "".join(f"[{w}]" for w in words) + "\n"


def test_env_and_cwd(executor: LabgridExecutor) -> None:
    done = executor.run(["sh", "-c", 'printf "%s %s" "$SBC_X" "$(pwd)"'], timeout=30,
                        env={"SBC_X": "one two"}, cwd="/tmp")
    assert (done.returncode, done.stdout) == (0, "one two /tmp\n")


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
    remote = f"/tmp/sbcbench-lab-{tmp_path.name}.bin"
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
    assert len(trace.samples) >= 2 and trace.load_source == "system"
    telemetry = summarize_trace(trace)
    assert telemetry["memory_used_max_bytes"] > 0
    assert telemetry["system_busy_cpus"] is not None
    assert sampler.cpu_s is not None and 0 <= sampler.cpu_s < 60


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


def test_missing_tool_is_exit_127(executor: LabgridExecutor) -> None:
    done = executor.run(["sbcbench-no-such-tool"], timeout=30)
    assert done.returncode == 127 and not done.timed_out


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


def lab_profile(baselines: Path) -> None:
    """The lab's own profile for its board (``board=lab-sshd``), as a lab adds one to
    ``<baselines>/boards``: the sshd "board" is this machine, which no built-in profile names."""
    folder = baselines / "boards"
    folder.mkdir(parents=True)
    (folder / f"{TAGS['board']}.json").write_text(json.dumps({
        "schema": "sbcbench-board/1", "name": TAGS["board"], "title": "sshd lab board",
        "soc": TAGS["soc"], "arch": os.uname().machine,
        "clusters": [{"cores": os.cpu_count() or 1, "core": "lab core"}]}))


def run_on_lab(lab: Lab, tmp: Path, name: str, *extra: str
               ) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """``pytest -p labgrid --lg-env ENV benchmarks/test_crypto.py --sbc-quick``: the openssl
    sha256 digest and one in-process test (which must skip on a remote board)."""
    results = tmp / f"{name}.json"
    argv = [sys.executable, "-m", "pytest", "-p", "labgrid", "--lg-env", str(lab.env_file),
            SUITE, "-k", "sha256 or (inprocess and chacha20)", "--sbc-quick", "--sbc-idle-wait", "0",
            "-p", "no:cacheprovider",
            "--sbc-baselines", str(tmp / "baselines"), "--sbc-results", str(results), "-rs",
            *extra]
    env = {k: v for k, v in os.environ.items() if k not in ("LG_ENV", "SBCBENCH_OPENSSL")}
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=180,
                          check=False, env=env)
    doc = json.loads(results.read_text()) if results.exists() else {}
    return done, doc


def digest_result(doc: dict[str, Any]) -> dict[str, Any]:
    [result] = [r for r in doc["results"] if r["test"] == f"{SUITE}::test_digest[sha256]"]
    return result  # type: ignore[no-any-return]


def test_suite_runs_on_the_lab_board_and_is_gated_by_the_place_tag(lab: Lab,
                                                                    tmp_path: Path) -> None:
    """One place, three runs: save a baseline, rerun judged against it, then a slowed
    board-side openssl (every CPU feature hidden from it) fails the gate."""
    lab_profile(tmp_path / "baselines")
    before = len(board_openssl_calls(lab))
    saved, doc = run_on_lab(lab, tmp_path, "save", "--sbc-save-baseline")
    assert saved.returncode == 0, saved.stdout + saved.stderr
    # (a) the openssl commands ran on the board: the board-only wrapper logged them
    calls = board_openssl_calls(lab)[before:]
    assert sum(" speed -mr " in c and c.endswith("-evp sha256 -bytes 16384") for c in calls) == 2
    # in-process cryptography measures the controller's Python: skipped with the reason
    assert "SKIPPED" in saved.stdout
    assert "not run on a remote board yet (labgrid:main): in-process" in saved.stdout
    # (b) the place's identity: the tag chose the board; kernel, boot id, env digest recorded
    assert doc["board"] == TAGS["board"]
    lab_env = doc["environment"]["lab"]
    assert lab_env["place"] == PLACE and lab_env["tags"] == TAGS
    assert lab_env["env_digest"] == env_digest(lab.env_file)
    assert lab_env["kernel_release"] == os.uname().release
    assert lab_env["boot_id"] == Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    # ... and the telemetry came from the board-side sampler
    telemetry = digest_result(doc)["telemetry"]
    assert telemetry["samples"] >= 2 and telemetry["memory_used_max_bytes"] > 0
    assert telemetry["system_busy_cpus"]["max"] > 0
    assert all("on the board" in why for why in telemetry["unavailable"].values())
    assert (tmp_path / "baselines" / f"{TAGS['board']}.json").exists()
    # (c) rerun: judged against the baseline the place's tag chose
    again, doc = run_on_lab(lab, tmp_path, "again")
    assert digest_result(doc)["verdict"]["status"] not in ("no-baseline", "incomparable"), \
        again.stdout
    lab.board_slow.touch()
    try:
        slowed, doc = run_on_lab(lab, tmp_path, "slowed")
    finally:
        lab.board_slow.unlink()
    assert slowed.returncode == 1, slowed.stdout
    assert digest_result(doc)["verdict"]["status"] == "regression", slowed.stdout
