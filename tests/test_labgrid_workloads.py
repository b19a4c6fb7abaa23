"""Scaling, memory and storage on a remote board: through the real sshd + labgrid lab on
127.0.0.1 (tests/labgrid_lab.py), with board-only ``cc`` and ``dd`` wrappers on the sshd
session's PATH proving where each command ran; planning and parsing with injected data."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest
from boards import PathBoard
from labgrid_lab import Lab, lab_profile, preload_labgrid, running_lab, start_lab

from helpers import listing_settings
from pytest_sbcbench.errors import SbcBenchError, SbcBenchWarning, ToolError
from pytest_sbcbench.measure import board_storage, storage, stream
from pytest_sbcbench.measure.c_helpers import compiled_on_board
from pytest_sbcbench.measure.scaling import thread_counts
from pytest_sbcbench.platform.executor import Completed, LocalExecutor
from pytest_sbcbench.platform.labgrid_executor import LabgridExecutor, open_target
from pytest_sbcbench.platform.sysroot import Sysroot
from pytest_sbcbench.workload import Context
from pytest_sbcbench.workloads import memory, scaling
from pytest_sbcbench.workloads.remote import board_cpus

preload_labgrid()

REPO = Path(__file__).resolve().parents[1]
LOGGING_WRAPPER = """#!/bin/sh
# The board's {name}: logs each invocation, then runs the real one (fails while {fail} exists
# and the arguments hold {when}).
echo "$*" >> {log}
if [ -e {fail} ]; then
  case "$*" in *{when}*) echo "{name}: injected failure" >&2; exit 1 ;; esac
fi
exec {real} "$@"
"""


def board_wrapper(lab: Lab, name: str, when: str = "never-matches") -> tuple[Path, Path]:
    """A board-only ``name`` on the sshd session's PATH: (its invocation log, its failure
    switch)."""
    log, fail = lab.root / f"board-{name}.log", lab.root / f"board-{name}.fail"
    real = shutil.which(name)
    assert real is not None
    wrapper = lab.board_bin / name
    wrapper.write_text(LOGGING_WRAPPER.format(name=name, log=log, fail=fail, when=when,
                                              real=real))
    wrapper.chmod(0o755)
    return log, fail


def logged(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with running_lab(start_lab, tmp_path_factory.mktemp("lab")) as running:
        board_wrapper(running, "cc")
        board_wrapper(running, "dd", when="iflag=direct")
        yield running


def forget_coordinator() -> None:
    """Drop labgrid's process-wide ``RemotePlaceManager`` (one per process, bound to the first
    coordinator it met) so this module's in-process client talks to this module's lab, and the
    next module's to its own: test_labgrid.py's lab is gone (stopped by pid) by the time this
    module starts one.  Its session is stopped first, best effort (its coordinator may be gone)."""
    from labgrid.resource.common import ResourceManager
    from labgrid.resource.remote import RemotePlaceManager

    manager = ResourceManager.instances.pop(RemotePlaceManager, None)
    session = getattr(manager, "session", None)
    if session is not None:
        try:
            session.loop.run_until_complete(session.stop())
        except Exception:  # a dead coordinator cannot be told goodbye
            pass


@pytest.fixture(scope="module")
def executor(lab: Lab) -> Iterator[LabgridExecutor]:
    forget_coordinator()
    target = open_target(lab.env_file)
    try:
        yield LabgridExecutor(target)
    finally:
        target.cleanup()
        forget_coordinator()


# -- scaling: the board's CPUs -----------------------------------------------------------------

def test_board_cpus_are_the_board_processes_affinity(executor: LabgridExecutor) -> None:
    """Read by a process on the board (the sshd "board" runs with this process's affinity)."""
    assert board_cpus(executor) == tuple(sorted(os.sched_getaffinity(0)))


class TreeBoard(LocalExecutor):
    """A remote board whose files are a directory tree (its commands run here): injected
    board files for the CPU-list fallbacks."""

    name = "tree-board"
    is_local = False

    def __init__(self, root: Path) -> None:
        self.root = root

    def read(self, path: str) -> bytes | None:
        return super().read(str(self.root / path.lstrip("/")))


def cpu_tree(root: Path, status: str | None, online: str | None) -> Path:
    cpu = root / "sys/devices/system/cpu"
    cpu.mkdir(parents=True)
    if online is not None:
        (cpu / "online").write_text(online)
    if status is not None:
        (root / "proc/self").mkdir(parents=True)
        (root / "proc/self/status").write_text(status)
    return root


@pytest.mark.parametrize("status, online, expected", [
    ("Name:\tcat\nCpus_allowed_list:\t2-3\n", "0-7\n", (2, 3)),  # taskset on the board
    (None, "0-5\n", (0, 1, 2, 3, 4, 5)),  # no status file: the online list
])
def test_board_cpus_fallbacks(tmp_path: Path, status: str | None, online: str | None,
                              expected: tuple[int, ...]) -> None:
    assert board_cpus(TreeBoard(cpu_tree(tmp_path, status, online))) == expected


def test_board_cpus_unreadable_is_loud(tmp_path: Path) -> None:
    with pytest.raises(SbcBenchError, match="tree-board: neither the affinity nor"):
        board_cpus(TreeBoard(cpu_tree(tmp_path, None, None)))
    bad = cpu_tree(tmp_path / "bad", None, "zero-three\n")
    with pytest.raises(SbcBenchError, match="unreadable CPU list on the board"):
        board_cpus(TreeBoard(bad))


def test_scaling_plan_uses_the_runs_sysroot(tmp_path: Path) -> None:
    """A six-CPU board's capture plans 1, 2, 4, 6 threads, whatever the controller has."""
    tree = cpu_tree(tmp_path, None, "0-5\n")
    plan = scaling.WORKLOADS[0].plan(listing_settings(tree, quick=True))
    assert (plan.run_s, plan.quick_run_s) == (12.0, 4.0)
    assert scaling.plan_cpus(Sysroot(tree)) == 6
    here = len(thread_counts(len(os.sched_getaffinity(0))))
    assert scaling.WORKLOADS[0].plan(listing_settings(Path("/"), True)).quick_run_s == here


def test_scaling_counts_the_boards_cpus(tmp_path: Path) -> None:
    """On a remote executor the thread counts come from the board's files, not this host."""
    board = TreeBoard(cpu_tree(tmp_path, "Cpus_allowed_list:\t0-2\n", "0-7\n"))
    from pytest_sbcbench.platform.host import SysrootHost

    settings = listing_settings(tmp_path, quick=True)
    ctx = Context(settings, board, SysrootHost(settings.sysroot))
    assert scaling.cpus(ctx) == 3


def test_a_core_offline_in_this_boot_keeps_its_thread_count(tmp_path: Path) -> None:
    """The QEMU A72 board booted with ``maxcpus=1`` (scripts/qemu_lab.py's a72-maxcpus1) printed
    ``Cpus_allowed_list: 0-1``, ``present 0-1``, ``online 0``: the plan and the thread counts
    stay 1 and 2, and the result says the two threads share one online CPU."""
    tree = cpu_tree(tmp_path, "Cpus_allowed_list:\t0-1\n", "0\n")
    (tree / "sys/devices/system/cpu/present").write_text("0-1\n")
    sysroot = Sysroot(tree)
    assert board_cpus(TreeBoard(tree)) == (0, 1) and scaling.plan_cpus(sysroot) == 2
    assert scaling.online_cpus(sysroot) == 1
    assert scaling.threads_are(sysroot, 2, 1).endswith(
        "; 2 threads share 1 online CPU: the others are offline in this boot")
    assert scaling.threads_are(sysroot, 1, 1) == "separate cores, one cluster"
    assert scaling.online_cpus(Sysroot(cpu_tree(tmp_path / "none", None, None))) is None


# -- memory: compiled and run on the board -----------------------------------------------------

def test_memory_kernel_is_compiled_and_run_on_the_board(lab: Lab, executor: LabgridExecutor,
                                                        tmp_path: Path) -> None:
    """The board's ``cc`` (the logging wrapper) builds the kernel in the board's cache; the
    controller's cache stays empty; the identity names the board compiler's version; a second
    build reuses the board's binary."""
    cc_log = lab.root / "board-cc.log"
    before = len(logged(cc_log))
    try:
        built = stream.build(tmp_path / "controller-cache", executor=executor)
        compiles = [c for c in logged(cc_log)[before:] if c.startswith("-O3 -o ")]
        assert len(compiles) == 1 and compiles[0].endswith(f"{built.path}.c")
        assert not (tmp_path / "controller-cache").exists()
        real = subprocess.run(["cc", "--version"], capture_output=True, text=True, check=True)
        assert built.compiler == "cc"
        assert built.compiler_version == real.stdout.splitlines()[0].strip()
        assert compiled_on_board(executor, "stream", stream.SOURCE, stream.FLAGS) == built
        assert [c for c in logged(cc_log)[before:] if c.startswith("-O3 -o ")] == compiles
        spec = stream.BufferPlan(buffer_bytes=16 * 2**20, llc_bytes=4 * 2**20, llc_source="test")
        found = stream.measure(built, spec, passes=1, runs=1, executor=executor)
        assert {m.metric for m in found} == set(stream.KERNELS.values())
        assert all(m.samples[0] > 0 for m in found)
        assert found[0].identity.as_dict()["compiler_version"] == built.compiler_version
    finally:
        remove_board_compiles(cc_log, before)


def remove_board_compiles(cc_log: Path, before: int) -> None:
    """Remove what the board's cc compiled since its log had ``before`` lines (source and
    binary in the board's cache: on this machine), on every exit path of a test, so the next
    test (or run) builds anew."""
    for compile_ in (c for c in logged(cc_log)[before:] if c.startswith("-O3 -o ")):
        source = compile_.rsplit(" ", 1)[1]
        subprocess.run(["rm", "-f", "--", source, source.removesuffix(".c")], check=True)


def test_memory_skips_when_the_board_has_no_compiler(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The controller's ``CC`` does not count: the reason names the board."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "sh").symlink_to(shutil.which("sh") or "/bin/sh")
    monkeypatch.setenv("CC", shutil.which("cc") or "cc")
    from pytest_sbcbench.platform.host import LOCAL_HOST

    ctx = Context(listing_settings(Path("/"), True), PathBoard(bin_dir, "bare-board"), LOCAL_HOST)
    reason = memory.WORKLOADS[0].available(ctx)
    assert reason == ("no C compiler on the board (bare-board) to build the memory kernel "
                      "there: install cc, gcc or clang on the board")
    with pytest.raises(ToolError, match=r"no C compiler on the board \(bare-board\)"):
        compiled_on_board(PathBoard(bin_dir, "bare-board"), "stream", stream.SOURCE)


# -- storage: the board's dd, the board's filesystem, cleaned up -------------------------------

def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith(".sbcbench-storage"))


def test_storage_target_is_read_on_the_board(executor: LabgridExecutor, tmp_path: Path) -> None:
    found = board_storage.board_directory(executor, str(tmp_path))
    local = storage.target(tmp_path)
    assert (found.target.mountpoint, found.target.device, found.target.fstype) == (
        local.mountpoint, local.device, local.fstype)
    assert abs(found.free_bytes - shutil.disk_usage(tmp_path).free) < 2**30


def test_storage_runs_with_the_boards_dd(lab: Lab, executor: LabgridExecutor,
                                        tmp_path: Path) -> None:
    """Direct I/O both ways through the board-only dd; the timing is the board's; the seed
    and the test file are gone afterwards."""
    dd_log = lab.root / "board-dd.log"
    before = len(logged(dd_log))
    where = board_storage.board_directory(executor, str(tmp_path)).target
    if where.fstype in storage.RAM_FILESYSTEMS:
        pytest.skip(f"{tmp_path} is on {where.fstype}: no disk to measure")
    run = board_storage.write_then_read(executor, where, 32 * 2**20)
    calls = logged(dd_log)[before:]
    assert len([c for c in calls if "oflag=direct" in c]) == 2  # two 16 MiB seed copies
    assert len([c for c in calls if "iflag=direct" in c]) == 2
    assert any(c.endswith("count=0 conv=notrunc,fsync") for c in calls)
    assert run.method == board_storage.METHOD
    assert run.write_bytes_per_s > 0 and run.read_bytes_per_s > 0
    assert leftovers(tmp_path) == []


def test_storage_cleans_up_when_the_board_fails(lab: Lab, executor: LabgridExecutor,
                                                tmp_path: Path) -> None:
    fail = lab.root / "board-dd.fail"
    fail.touch()
    try:
        where = board_storage.board_directory(executor, str(tmp_path)).target
        with pytest.raises(ToolError, match="storage read on the board: exited 1") as err:
            board_storage.write_then_read(executor, where, 16 * 2**20)
        assert "dd: injected failure" in err.value.stderr
    finally:
        fail.unlink()
    assert leftovers(tmp_path) == []


def test_a_ram_filesystem_on_the_board_is_refused(tmp_path: Path) -> None:
    """The board's mount table decides (here injected: its root is tmpfs): the default
    directory skips with the reason, an explicitly given one is an error naming the board."""
    import dataclasses

    from pytest_sbcbench.platform.host import SysrootHost
    from pytest_sbcbench.workloads.storage import WORKLOADS

    tree = cpu_tree(tmp_path / "board", "Cpus_allowed_list:\t0\n", "0\n")
    (tree / "proc/self/mounts").write_text("tmpfs / tmpfs rw,nosuid 0 0\n")
    settings = listing_settings(tree, quick=True)
    workload = WORKLOADS[0]
    ctx = Context(settings, TreeBoard(tree), SysrootHost(settings.sysroot))
    assert "which keeps files in RAM" in (workload.available(ctx) or "")
    given = dataclasses.replace(settings, storage_path=tmp_path)
    ctx = Context(given, TreeBoard(tree), SysrootHost(settings.sysroot))
    with pytest.raises(SbcBenchError, match=f"--sbc-storage-path {tmp_path} on the board "
                                            r"\(tree-board\): .* is on tmpfs"):
        workload.available(ctx)


def test_a_board_that_cannot_say_where_fails_loudly(tmp_path: Path) -> None:
    """An unreadable mount table on the board (as an ssh drop or a ``df`` it cannot parse) is
    not a reason to skip: without ``--sbc-storage-path`` too, the error propagates."""
    from pytest_sbcbench.platform.host import SysrootHost
    from pytest_sbcbench.workloads.storage import WORKLOADS

    tree = cpu_tree(tmp_path / "board", "Cpus_allowed_list:\t0\n", "0\n")  # no mounts file
    settings = listing_settings(tree, quick=True)
    assert settings.storage_path is None
    ctx = Context(settings, TreeBoard(tree), SysrootHost(settings.sysroot))
    with pytest.raises(ToolError, match="tree-board: the board's mount table is unreadable"):
        WORKLOADS[0].available(ctx)


class StandInBoard(LocalExecutor):
    """A remote board whose PATH starts with a directory of stand-in tools."""

    name = "stand-in-board"
    is_local = False

    def __init__(self, stand_ins: Path) -> None:
        self.stand_ins = stand_ins

    def run(self, argv: Sequence[str], timeout: float, env: Mapping[str, str] | None = None,
            cwd: str | None = None) -> Completed:
        path = f"{self.stand_ins}:{os.environ['PATH']}"
        return super().run(argv, timeout, {**(env or {}), "PATH": path}, cwd)


def failing(directory: Path, *tools: str) -> StandInBoard:
    """A board on which each of ``tools`` prints an error and exits 1."""
    directory.mkdir()
    for tool in tools:
        (directory / tool).write_text(f'#!/bin/sh\necho "{tool}: injected failure" >&2\nexit 1\n')
        (directory / tool).chmod(0o755)
    return StandInBoard(directory)


def test_a_failed_rm_warns_naming_the_file(tmp_path: Path) -> None:
    """The numbers stand, but a test file left on the board (up to 1 GiB) is said."""
    data = tmp_path / "data"
    data.mkdir()
    board = failing(tmp_path / "bin", "rm")
    where = board_storage.board_directory(board, str(data)).target
    if where.fstype in storage.RAM_FILESYSTEMS:
        pytest.skip(f"{data} is on {where.fstype}: no O_DIRECT to measure with")
    with pytest.warns(SbcBenchWarning, match="stays on the board") as said:
        run = board_storage.write_then_read(board, where, 16 * 2**20)
    assert run.write_bytes_per_s > 0
    left = leftovers(data)
    assert len(left) == 2 and all(name in str(said[0].message) for name in left)
    assert "rm: injected failure" in str(said[0].message)


def test_a_failed_rm_keeps_the_original_error(tmp_path: Path) -> None:
    """The board's dd fails, then its rm: the error is the dd's, the rm's a note on it."""
    board = failing(tmp_path / "bin", "dd", "rm")
    where = storage.Target(tmp_path, "/", "/dev/test", "ext4")
    with pytest.raises(ToolError, match="writing the random seed on the board") as failed:
        board_storage.write_then_read(board, where, 16 * 2**20)
    notes = getattr(failed.value, "__notes__", [])
    assert len(notes) == 1 and f"{tmp_path}/.sbcbench-storage-" in notes[0]
    assert "rm: injected failure" in notes[0]


def test_parse_df_of_the_real_tool(tmp_path: Path) -> None:
    argv = ["df", "-P", "-k", "--", str(tmp_path)]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    assert abs(board_storage.parse_df(out, argv) - shutil.disk_usage(tmp_path).free) < 2**30
    with pytest.raises(ToolError, match="no 'available' column"):
        board_storage.parse_df("Filesystem 1024-blocks Used Available Capacity Mounted on\n",
                               argv)


def test_records_in_of_the_real_tool(tmp_path: Path) -> None:
    """Summed over a loop's dd runs (GNU and busybox both print ``N+M records in``)."""
    said = ""
    for _ in range(2):
        said += subprocess.run(["dd", "if=/dev/zero", f"of={tmp_path / 'z'}", "bs=1M",
                                "count=3"], capture_output=True, text=True,
                               check=True).stderr
    assert board_storage.records_in(said) == 6


# -- the shipped suite over labgrid ------------------------------------------------------------

def inner_run(lab: Lab, tmp: Path, results: Path, storage_dir: Path, select: str
              ) -> subprocess.CompletedProcess[str]:
    """``pytest --lg-env`` over the shipped scaling, memory and storage tests, quick."""
    argv = [sys.executable, "-m", "pytest", "benchmarks/test_scaling.py",
            "benchmarks/test_memory.py", "benchmarks/test_storage.py", "-k", select,
            "--sbc-quick", "--sbc-idle-wait", "0", "-p", "no:cacheprovider", "-rs",
            "-p", "labgrid", "--lg-env", str(lab.env_file),
            "--sbc-baselines", str(tmp / "baselines"), "--sbc-results", str(results),
            "--sbc-storage-path", str(storage_dir)]
    env = {k: v for k, v in os.environ.items() if k not in ("LG_ENV", "SBCBENCH_OPENSSL")}
    return subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=600,
                          check=False, env=env)


def test_the_suite_runs_scaling_memory_and_storage_on_the_board(lab: Lab, tmp_path: Path
                                                                ) -> None:
    """``pytest --lg-env`` over the shipped scaling (openssl), memory and storage tests, quick:
    all three pass, and the board-only openssl, cc and dd logged their commands."""

    lab_profile(tmp_path / "baselines")
    logs = {name: lab.root / f"board-{name}.log" for name in ("openssl", "cc", "dd")}
    before = {name: len(logged(log)) for name, log in logs.items()}
    results = tmp_path / "r.json"
    storage_dir = tmp_path / "storage"
    storage_dir.mkdir()
    try:
        done = inner_run(lab, tmp_path, results, storage_dir, "openssl or stream or sequential")
    finally:  # a timeout too: the next run must build anew
        remove_board_compiles(logs["cc"], before["cc"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 passed" in done.stdout
    new = {name: logged(log)[before[name]:] for name, log in logs.items()}
    cpus = len(os.sched_getaffinity(0))
    if cpus > 1:
        assert any(f"-multi {cpus} " in c for c in new["openssl"])
    assert len([c for c in new["cc"] if c.startswith("-O3 -o ")]) == 1  # a new cc: built
    assert any("oflag=direct" in c for c in new["dd"])
    doc = json.loads(results.read_text())
    by_metric = {r["metric"]: r for r in doc["results"]}
    threads = {r["identity"]["threads"] for r in doc["results"]
               if r["metric"] == "scaling-openssl-sha256"}
    assert max(threads) == cpus
    assert by_metric["memory-read"]["identity"]["compiler_version"]
    assert by_metric["storage-write"]["identity"]["method"] == board_storage.METHOD
    assert leftovers(storage_dir) == []



def test_a_storage_path_missing_on_the_board_is_an_error(lab: Lab, tmp_path: Path) -> None:
    """Not a skip (CI would stay green), and not checked on the controller (it names a board
    path): the test errors, naming the option, the board and the failed command."""

    lab_profile(tmp_path / "baselines")
    missing = tmp_path / "not-on-the-board"
    done = inner_run(lab, tmp_path, tmp_path / "r.json", missing, "sequential")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 error" in done.stdout
    assert (f"--sbc-storage-path {missing} on the board (labgrid:main): resolving {missing} "
            "on the board: exited") in done.stdout
