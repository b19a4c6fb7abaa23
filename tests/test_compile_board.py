"""The board side of compile workloads, run here with real tools through the local executor:
the tree transfer and its verification (tar, find, sha256sum, sort) and builds timed by the
board timing shell.  The same code runs over labgrid in tests/test_labgrid_compile.py."""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

import pytest
from boards import PathBoard, hashlib_digest

from pytest_sbcbench.errors import BuildError, CheckoutError, ParseError
from pytest_sbcbench.measure import board_tree
from pytest_sbcbench.measure.timed_build import (
    prepare_clean_on_board,
    run_on_board,
    timed_on_board,
)
from pytest_sbcbench.platform.executor import LOCAL

pytestmark = pytest.mark.skipif(
    any(shutil.which(t) is None for t in (*board_tree.BOARD_TOOLS, "sh")),
    reason="tar, sha256sum, find or sort not found")


def make_tree(root: Path) -> Path:
    (root / "src" / "deep").mkdir(parents=True)
    (root / ".git" / "objects").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "Cargo.toml").write_text('[package]\nname = "t"\n')
    (root / "src" / "lib.rs").write_text("pub mod deep;\n")
    (root / "src" / "deep" / "mod.rs").write_text("pub fn f() {}\n")
    (root / "src" / "é ü.rs").write_text("// non-ASCII name with spaces\n")
    (root / "src" / "Z.rs").write_text("// sorts before lower case in the C locale\n")
    (root / "link").symlink_to("src/lib.rs")
    return root


def test_controller_listing_equals_the_real_tools(tmp_path: Path) -> None:
    """The controller's listing is byte for byte what find | sha256sum | LC_ALL=C sort print;
    .git and symlinks are not listed; the tree carries the digest the board's tools printed
    for the unpacked tree (here checked against hashlib over that tree)."""
    root = make_tree(tmp_path / "tree")
    board = board_tree.transfer(root, LOCAL, str(tmp_path / "board"), "t")
    listed = board_tree.listing(root)
    assert board.digest == hashlib_digest(Path(board.path)) and board.digest.files == 5
    assert board_tree.digest_of(listed) == board.digest
    assert ".git" not in listed and "./link" not in listed
    assert board_tree.verify(board, LOCAL, listed) == board.digest
    unpacked = Path(board.path)
    assert (unpacked / "link").is_symlink() and not (unpacked / ".git").exists()
    assert not (Path(board.run_dir) / "tree.tar").exists()
    board_tree.remove(board, LOCAL)
    assert not Path(board.run_dir).exists()


def test_a_changed_tree_names_both_digests_and_the_paths(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "tree")
    board = board_tree.transfer(root, LOCAL, str(tmp_path / "board"), "t")
    (Path(board.path) / "src" / "deep" / "mod.rs").write_text("pub fn g() {}\n")
    (Path(board.path) / "Cargo.toml").unlink()
    with pytest.raises(CheckoutError) as failed:
        board_tree.verify(board, LOCAL, board_tree.listing(root))
    message = str(failed.value)
    controller = board_tree.digest_of(board_tree.listing(root))
    assert f"controller {controller}" in message and "(4 files)" in message
    assert "Cargo.toml (missing on the board); src/deep/mod.rs (content differs)" in message


# The board's stand-ins: a tar that unpacks and then adds a file (the tree on the board is not
# the one sent), an rm that cannot remove the run directory (``-rf``) but removes files.
BAD_TAR = '#!/bin/sh\n{tar} "$@" || exit\n: > extra.rs\n'
BAD_RM = '#!/bin/sh\n[ "$1" = -rf ] && {{ echo "rm: injected failure" >&2; exit 1; }}\n' \
    'exec {rm} "$@"\n'


def path_board(root: Path, tar_adds_a_file: bool) -> PathBoard:
    """Real sh, mkdir, find, sha256sum, sort, cat and tar (or the bad one); the bad rm."""
    root.mkdir()
    for tool in ("sh", "mkdir", "find", "sha256sum", "sort", "cat", "tar"):
        (root / tool).symlink_to(shutil.which(tool) or tool)
    stand_ins = {"rm": BAD_RM.format(rm=shutil.which("rm"))}
    if tar_adds_a_file:
        (root / "tar").unlink()
        stand_ins["tar"] = BAD_TAR.format(tar=shutil.which("tar"))
    for tool, text in stand_ins.items():
        (root / tool).write_text(text)
        (root / tool).chmod(0o755)
    return PathBoard(root)


def test_a_failed_clean_up_keeps_the_transfer_error(tmp_path: Path) -> None:
    """The tree on the board differs and its run directory cannot be removed: the error is
    still the CheckoutError, the failed removal a note on it."""
    root = make_tree(tmp_path / "tree")
    board = path_board(tmp_path / "bin", tar_adds_a_file=True)
    with pytest.raises(CheckoutError, match=r"extra\.rs \(only on the board\)") as failed:
        board_tree.transfer(root, board, str(tmp_path / "board"), "t")
    notes = getattr(failed.value, "__notes__", [])
    assert len(notes) == 1 and notes[0].startswith(
        f"removing the board build directory {tmp_path / 'board'}/t-")
    assert "rm: injected failure" in notes[0]


def test_a_failed_clean_up_keeps_the_warm_up_error(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The board's warm-up build fails and its run directory cannot be removed: the error is
    still the BuildError, the failed removal a note on it."""
    from helpers import listing_settings
    from pytest_sbcbench.measure.checkout import Tree
    from pytest_sbcbench.measure.fingerprint import Fingerprint
    from pytest_sbcbench.platform.host import LOCAL_HOST
    from pytest_sbcbench.workload import Context
    from pytest_sbcbench.workloads.compile import Build, BuildSpec

    monkeypatch.setenv(board_tree.BOARD_DIR_ENV, str(tmp_path / "board"))
    root = make_tree(tmp_path / "tree")
    tree = Tree("file:///t.git", "main", "0" * 40, "test", root,
                Fingerprint("rust", 5, 5, None, "none"))
    workload = Build("x", "test_x", BuildSpec(["sh", "-c", "echo broken >&2; exit 2"],
                                              ["true"]), tree=tree)
    settings = dataclasses.replace(listing_settings(Path("/"), True), cache=tmp_path / "cache")
    ctx = Context(settings, path_board(tmp_path / "bin", tar_adds_a_file=False), LOCAL_HOST)
    with pytest.raises(BuildError, match="warm-up build on path-board failed") as failed:
        workload.prepare(ctx)
    notes = getattr(failed.value, "__notes__", [])
    assert len(notes) == 1 and "rm: injected failure" in notes[0]


def test_run_directories_never_clash(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "tree")
    one = board_tree.transfer(root, LOCAL, str(tmp_path / "board"), "same label")
    two = board_tree.transfer(root, LOCAL, str(tmp_path / "board"), "same label")
    assert one.run_dir != two.run_dir and Path(one.run_dir).name.startswith("same-label-")


def test_board_base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The board user's cache by default; ``SBCBENCH_BOARD_DIR`` when given (absolute only)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert board_tree.board_base(LOCAL, {}) == f"{tmp_path}/xdg/sbcbench/builds"
    assert board_tree.board_base(LOCAL, {board_tree.BOARD_DIR_ENV: "/mnt/ssd/b"}) == "/mnt/ssd/b"
    with pytest.raises(CheckoutError, match="not an absolute path"):
        board_tree.board_base(LOCAL, {board_tree.BOARD_DIR_ENV: "builds"})


def test_unverifiable_names_are_refused(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "tree")
    (root / "back\\slash.rs").write_text("")
    with pytest.raises(CheckoutError, match="backslash"):
        board_tree.listing(root)


@pytest.mark.parametrize("stdout, reason", [
    ("", "no 'sha256sum' digest"),
    (f"{'a' * 64}  ./x\n", "no 'sha256sum' digest"),
    (f"garbage\n{'b' * 64}  -\n", "is not '<sha256>  ./<path>'"),
    (f"\\{'a' * 64}  ./x\\\\y\n{'b' * 64}  -\n", "is not '<sha256>  ./<path>'"),
])
def test_broken_board_listing(stdout: str, reason: str) -> None:
    with pytest.raises(ParseError, match=reason):
        board_tree.parse_board_listing(stdout)


def test_remove_refuses_shallow_paths() -> None:
    tree = board_tree.BoardTree("/tmp", "/tmp/tree", board_tree.TreeDigest("0" * 64, 0))
    with pytest.raises(CheckoutError, match="refusing"):
        board_tree.remove(tree, LOCAL)


LOOP = "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo built"


def test_timed_build_on_the_board_side(tmp_path: Path) -> None:
    """The timing shell's report gives wall and CPU; it and the build output go to the log."""
    log = tmp_path / "build.log"
    run = timed_on_board(["sh", "-c", LOOP], str(tmp_path), log, None, "build",
                         executor=LOCAL)
    assert run.timed_on == "local" and run.user_s + run.sys_s > 0
    text = log.read_text()
    assert "built\n" in text
    (start, end), = re.findall(r"sbcbench-time v1 start=([\d.]+) end=([\d.]+) ", text)
    assert run.wall_s == round(float(end) - float(start), 2)  # the board's uptime clock


def test_failed_and_missing_board_builds(tmp_path: Path) -> None:
    log = tmp_path / "build.log"
    with pytest.raises(BuildError, match="build on local failed") as failed:
        timed_on_board(["sh", "-c", "echo broken >&2; exit 2"], str(tmp_path), log, None,
                       "build", executor=LOCAL)
    assert failed.value.returncode == 2 and "broken" in failed.value.stderr
    with pytest.raises(BuildError, match="sbcbench-no-make not found on local"):
        timed_on_board(["sbcbench-no-make"], str(tmp_path), log, None, "build",
                       executor=LOCAL)
    with pytest.raises(BuildError, match="timed out after 1 s"):
        run_on_board(["sleep", "30"], str(tmp_path), log, None, "warm-up build",
                     executor=LOCAL, timeout=1)


def test_clean_step_runs_the_clean_command_and_sync(tmp_path: Path) -> None:
    log = tmp_path / "build.log"
    (tmp_path / "target").mkdir()
    prepare_clean_on_board(["rm", "-r", "target"], str(tmp_path), log, None, executor=LOCAL)()
    assert not (tmp_path / "target").exists()
    assert "$ rm -r target" in log.read_text() and "$ sync" in log.read_text()
