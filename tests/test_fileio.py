"""fileio: atomic writes only over regular files, stale temporaries, output-path validation;
and in real pytest runs, a results file on a device node or behind a symlink, and every bad
output location refused before anything runs (issue 14, points 1 and 5)."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from nobody import as_nobody, reachable_dir
from widget import baseline_file, sessions

from pytest_sbcbench.errors import SchemaError
from pytest_sbcbench.fileio import (
    OutputError,
    check_writable_target,
    clean_stale_temps,
    locked,
    validate_outputs,
    write_atomic,
    write_json_atomic,
)
from pytest_sbcbench.jsonload import strict_json


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_new_file_follows_the_umask(tmp_path: Path, umask_022: None) -> None:
    target = tmp_path / "deep" / "results.json"
    assert write_atomic(target, b"{}\n") == target
    assert target.read_bytes() == b"{}\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert sorted(p.name for p in target.parent.iterdir()) == ["results.json"]


def test_existing_file_keeps_its_mode(tmp_path: Path, umask_022: None) -> None:
    target = tmp_path / "star64.json"
    target.write_bytes(b"old")
    target.chmod(0o664)
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new" and stat.S_IMODE(target.stat().st_mode) == 0o664


def test_symlink_target_is_updated_and_the_link_stays(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    real = shared / "star64.json"
    real.write_bytes(b"old")
    link = tmp_path / "star64.json"
    link.symlink_to(real)
    assert write_atomic(link, b"new") == real
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"new"
    assert sorted(p.name for p in shared.iterdir()) == ["star64.json"]


def test_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "r.json"
    link.symlink_to(tmp_path / "made.json")
    write_atomic(link, b"x")
    assert link.is_symlink() and (tmp_path / "made.json").read_bytes() == b"x"


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _dir(path: Path) -> Path:
    path.mkdir()
    return path


def _socket(path: Path) -> Path:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
    return path


def _null_device(path: Path) -> Path:
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    return path


@pytest.mark.parametrize(("make", "kind"), [
    (_fifo, "a FIFO"), (_dir, "a directory"), (_socket, "a socket"),
    (_null_device, "a character device"),
])
def test_anything_but_a_regular_file_is_refused(
        tmp_path: Path, make: Callable[[Path], Path], kind: str) -> None:
    node = make(tmp_path / "node")
    before = node.lstat()
    with pytest.raises(OutputError, match=f"is {kind}; refusing to replace it"):
        write_atomic(node, b"x")
    after = node.lstat()
    assert (after.st_mode, after.st_ino, after.st_rdev) == \
        (before.st_mode, before.st_ino, before.st_rdev)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["node"]
    problem = check_writable_target(node, "--sbc-results")
    assert problem is not None and problem.startswith(f"--sbc-results {node}") and kind in problem


def test_a_symlink_to_a_device_is_refused_and_kept(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path / "fifo")
    link = tmp_path / "results.json"
    link.symlink_to(fifo)
    with pytest.raises(OutputError, match=f"{link} -> {fifo}: is a FIFO"):
        write_atomic(link, b"x")
    assert link.is_symlink() and stat.S_ISFIFO(fifo.stat().st_mode)


def test_temporary_is_removed_when_the_write_fails(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    target.write_bytes(b"old")
    with pytest.raises(TypeError):
        write_atomic(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def test_nan_is_never_written(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    with pytest.raises(OutputError, match="NaN or infinite"):
        write_json_atomic(target, {"samples": [float("nan")]})
    assert not target.exists() and list(tmp_path.iterdir()) == []


def test_stale_temporaries_are_cleaned_live_ones_kept(tmp_path: Path) -> None:
    stale = tmp_path / ".star64.json.sbcbench-0123456789ab.tmp"
    stale.write_bytes(b'{"schema": "sbcbench-baseline/1", "boa')
    live = tmp_path / ".other.json.sbcbench-ba9876543210.tmp"
    live.write_bytes(b"half")
    legacy = tmp_path / ".star64.json.k3_9zq1a.tmp"  # what earlier versions' mkstemp left
    legacy.write_bytes(b"{")
    unrelated = tmp_path / "notes.tmp"
    unrelated.write_bytes(b"mine")
    fd = os.open(live, os.O_RDONLY)  # a writer that is still running holds this lock
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert sorted(clean_stale_temps(tmp_path)) == [legacy, stale]
    finally:
        os.close(fd)
    assert sorted(p.name for p in tmp_path.iterdir()) == [live.name, "notes.tmp"]
    assert clean_stale_temps(tmp_path) == [live]
    assert clean_stale_temps(tmp_path / "missing") == []


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    with reachable_dir("sbcbench-fileio-") as path:
        yield path


def unprivileged(call: Callable[[], list[str]]) -> list[str]:
    """``call()``'s lines, computed as ``nobody``, so read-only really is read-only."""
    return as_nobody(lambda: "\n".join(call())).splitlines()


def test_output_locations_are_validated_up_front(shared_dir: Path) -> None:
    results_dir = _dir(shared_dir / "results-is-a-dir")
    readonly = _dir(shared_dir / "readonly")
    report_file = shared_dir / "report-is-a-file"
    report_file.write_text("x")
    (readonly / "r.json").write_text("{}")
    (readonly / "r.json").chmod(0o444)
    readonly.chmod(0o555)
    trace_under_file = report_file / "traces"
    problems = unprivileged(lambda: validate_outputs(
        results_dir, report_file, readonly, trace_under_file, shared_dir / "no-such-dir"))
    assert problems == [
        f"--sbc-results {results_dir}: is a directory; refusing to replace it (give the path "
        "of a regular file)",
        f"--sbc-report {report_file}: {report_file} is not a directory",
        f"--sbc-baselines (with --sbc-save-baseline) {readonly}: directory {readonly} is not "
        "writable",
        f"--sbc-trace-dir {trace_under_file}: {report_file} is not a directory",
        f"--sbc-storage-path {shared_dir / 'no-such-dir'}: not an existing directory",
    ]
    in_readonly = unprivileged(lambda: validate_outputs(readonly / "r.json", None, None, None,
                                                        readonly))
    assert in_readonly == [
        f"--sbc-results {readonly / 'r.json'}: is a read-only file; refusing to replace it",
        f"--sbc-storage-path {readonly}: directory is not writable"]


def test_good_output_locations_pass(tmp_path: Path) -> None:
    (tmp_path / "existing.json").write_text("{}")
    assert validate_outputs(tmp_path / "existing.json", tmp_path / "new" / "report",
                            tmp_path / "bl", tmp_path / "traces", tmp_path) == []
    assert validate_outputs(None, None, None, None, None) == []


HALF_WRITER = """
import os
import sys
from pathlib import Path
from pytest_sbcbench.fileio import _new_temp
fd, tmp = _new_temp(Path(sys.argv[1]))
os.write(fd, b'{"schema": "sbcbench-baseline/1", "bo')
print(tmp, flush=True)
sys.stdin.read()
"""


def test_a_writer_killed_mid_save_leaves_a_temp_the_next_clean_removes(tmp_path: Path) -> None:
    """SIGKILL cannot be caught: the half-written temporary stays until the next run.  While
    the writer lives it is left alone; once the writer is dead its lock is gone and it goes."""
    target = tmp_path / "star64.json"
    target.write_bytes(b"{}")
    writer = subprocess.Popen([sys.executable, "-c", HALF_WRITER, str(target)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert writer.stdout is not None
    tmp = Path(writer.stdout.readline().strip())
    assert tmp.exists() and clean_stale_temps(tmp_path) == []
    writer.send_signal(signal.SIGKILL)
    assert writer.wait(timeout=60) == -signal.SIGKILL
    writer.stdout.close()
    assert writer.stdin is not None
    writer.stdin.close()
    assert clean_stale_temps(tmp_path) == [tmp]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["star64.json"]
    assert target.read_bytes() == b"{}"


def test_write_errors_name_the_path(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("x")
    with pytest.raises(OutputError, match=f"{blocked / 'r.json'}: {blocked} is not a directory"):
        write_atomic(blocked / "r.json", b"{}")
    assert blocked.read_text() == "x"


def test_unterminated_escapes_are_refused() -> None:
    """An unterminated string of 50,000 escaped quotes is refused naming the file (the nesting
    check walks the parsed document, so no pre-scan of hostile text is involved)."""
    with pytest.raises(SchemaError, match=r"r\.json: unreadable results file: corrupt"):
        strict_json('"' + '\\"' * 50_000, "r.json", "results file")


def test_results_on_a_device_node_is_refused_and_the_node_kept(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    """As root, --sbc-results on a character device replaced the node with a regular file."""
    node = pytester.path / "null"
    if os.geteuid() == 0:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a /dev/null of our own
        kind = "a character device"
    else:
        os.mkfifo(node)
        kind = "a FIFO"
    before = os.lstat(node)
    result = widget("100,101", "--sbc-results", str(node))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--sbc-results {node}: is {kind}; refusing to replace it*"])
    after = os.lstat(node)
    assert (after.st_mode, after.st_rdev, after.st_ino) == (before.st_mode, before.st_rdev,
                                                            before.st_ino)
    assert not (pytester.path / "ran-widget").exists()  # refused before any benchmark ran


def test_symlinks_are_followed_and_modes_kept(pytester: pytest.Pytester,
                                              widget: Callable[..., pytest.RunResult]) -> None:
    """A symlinked results file or baseline was replaced by a regular file (the shared target
    never updated), a 0664 baseline became 0600; new files follow the umask."""
    old = os.umask(0o027)
    try:
        widget("100,101,99.5", "--sbc-save-baseline").assert_outcomes(passed=1)
    finally:
        os.umask(old)
    saved = baseline_file(pytester)
    assert stat.S_IMODE(saved.stat().st_mode) == 0o640
    shared = pytester.path / "shared"
    shared.mkdir()
    target = shared / saved.name
    saved.rename(target)
    target.chmod(0o664)
    saved.symlink_to(target)
    results_target = shared / "r.json"
    results_target.write_text("{}\n")
    results_target.chmod(0o664)
    results_link = pytester.path / "r.json"
    results_link.symlink_to(results_target)
    widget("100.5,100,99.8", "--sbc-save-baseline", "--sbc-results",
           str(results_link)).assert_outcomes(passed=1)
    assert saved.is_symlink() and results_link.is_symlink()
    assert sessions(target) == [[100, 101, 99.5], [100.5, 100, 99.8]]
    assert json.loads(results_target.read_text())["results"][0]["samples"] == [100.5, 100, 99.8]
    assert stat.S_IMODE(target.stat().st_mode) == 0o664
    assert stat.S_IMODE(results_target.stat().st_mode) == 0o664


def _bad_paths(root: Path) -> dict[str, tuple[list[str], str]]:
    (root / "a-dir").mkdir()
    (root / "a-file").write_text("keep me\n")
    return {
        "results is a directory": (["--sbc-results", str(root / "a-dir")],
                                   "*--sbc-results*a-dir: is a directory*"),
        "results under a file": (["--sbc-results", str(root / "a-file" / "r.json")],
                                 "*--sbc-results*a-file is not a directory*"),
        "report is a file": (["--sbc-report", str(root / "a-file")],
                             "*--sbc-report*a-file*is not a directory*"),
        "baselines is a file": (["--sbc-baselines", str(root / "a-file"),
                                 "--sbc-save-baseline"],
                                "*--sbc-baselines (with --sbc-save-baseline)*a-file*"),
        "trace dir under a file": (["--sbc-trace-dir", str(root / "a-file" / "traces")],
                                   "*--sbc-trace-dir*a-file is not a directory*"),
        "storage path missing": (["--sbc-storage-path", str(root / "missing")],
                                 "*--sbc-storage-path*missing: not an existing directory*"),
        "baseline file is a directory": (["--sbc-save-baseline"],
                                         "*--sbc-save-baseline*is a directory*"),
    }


BAD = ["results is a directory", "results under a file", "report is a file",
       "baselines is a file", "trace dir under a file", "storage path missing",
       "baseline file is a directory"]


@pytest.mark.parametrize("case", BAD)
def test_a_bad_output_location_stops_the_run_at_start_up(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult], case: str) -> None:
    """Each of these crashed after the whole run (results, summary and save lost)."""
    args, message = _bad_paths(pytester.path)[case]
    if case == "baseline file is a directory":
        widget("100,101", "--sbc-save-baseline").assert_outcomes(passed=1)
        path = baseline_file(pytester)
        path.unlink()
        path.mkdir()
        (pytester.path / "ran-widget").unlink()
    result = widget("100,101", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*unusable output location*, nothing was run*", message])
    assert not (pytester.path / "ran-widget").exists()
    assert (pytester.path / "a-file").read_text() == "keep me\n"


def test_every_bad_output_location_is_listed_at_once(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    paths = _bad_paths(pytester.path)
    args = [a for case in BAD[:6] if case != "baselines is a file" for a in paths[case][0]]
    result = widget("100,101", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([paths[case][1] for case in BAD[1:6]
                                 if case != "baselines is a file"], consecutive=False)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_a_read_only_baselines_directory_is_refused_when_saving(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    (pytester.path / "bl").mkdir(mode=0o555)
    result = widget("100,101", "--sbc-save-baseline")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*directory*bl is not writable*"])


def test_atomic_write_replaces_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "out" / "r.json"
    write_json_atomic(target, {"a": 1})
    write_json_atomic(target, {"b": 2})
    assert json.loads(target.read_text()) == {"b": 2}
    assert os.listdir(target.parent) == ["r.json"]


def test_atomic_write_failure_keeps_old_file(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    target.write_text('{"old": true}\n')
    with pytest.raises(TypeError):
        write_json_atomic(target, {"bad": object()})
    assert target.read_text() == '{"old": true}\n'
    assert os.listdir(tmp_path) == ["r.json"]


def test_a_held_lock_is_said_before_the_wait(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Another holder (here another open file description of this process): ``waiting`` is
    told before the blocking flock; it lets go, so the wait ends.  Free, nothing is said."""
    lock = tmp_path / "star64.json.lock"
    held = os.open(lock, os.O_RDWR | os.O_CREAT)
    fcntl.flock(held, fcntl.LOCK_EX)
    told: list[Path] = []

    def let_go(path: Path) -> None:
        told.append(path)
        os.close(held)
    with locked(lock, let_go):
        assert told == [lock]
    with locked(lock):
        pass
    assert capsys.readouterr().err == ""
