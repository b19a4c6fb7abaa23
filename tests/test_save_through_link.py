"""Two runs saving one baseline, one through a symlink and one directly, keep both sessions
(issue 23 item 5): the lock is taken beside the file written, not beside the link."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import aes_result as result
from pytest_sbcbench.fileio import locked
from pytest_sbcbench.judge.baseline import (
    append_session_locked,
    load_baseline,
    lock_path,
    with_session,
)


def linked(tmp_path: Path) -> tuple[Path, Path]:
    """``shared/star64.json`` with one session, and ``star64.json`` linking to it."""
    (tmp_path / "shared").mkdir()
    target = tmp_path / "shared" / "star64.json"
    append_session_locked(target, "star64", [result((21.7e6, 21.8e6))], "first", {})
    link = tmp_path / "star64.json"
    link.symlink_to(target)
    return link, target


def test_the_link_and_the_file_share_one_lock(tmp_path: Path) -> None:
    link, target = linked(tmp_path)
    assert lock_path(link) == lock_path(target) == target.with_name(".star64.json.lock")
    with locked(lock_path(target)):
        fd = os.open(lock_path(link), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC)
        try:
            with pytest.raises(BlockingIOError):  # held: a saver through the link waits
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)


SAVER = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from test_save_through_link import append_session_locked, result
print("ready", flush=True)
sys.stdin.read()  # the barrier: the parent closes stdin while it holds the lock
append_session_locked(Path(sys.argv[1]), "star64", [result((1e6, 1e6))], sys.argv[2], {})
"""


def test_savers_through_the_link_and_directly_keep_every_session(tmp_path: Path) -> None:
    """One saver through the link, one directly, both released while this process holds the
    file's lock and saves a third session: all four sessions survive."""
    link, target = linked(tmp_path)
    here = str(Path(__file__).parent)
    savers = [subprocess.Popen([sys.executable, "-c", SAVER, str(path), name, here],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
              for path, name in ((link, "via-link"), (target, "direct"))]
    with locked(lock_path(target)):
        for saver in savers:
            assert saver.stdout is not None and saver.stdout.readline() == "ready\n"
        for saver in savers:
            assert saver.stdin is not None
            saver.stdin.close()
        grown = with_session(load_baseline(target), "star64", [result((3e6, 3e6))], "held", {})
        target.write_text(json.dumps(grown.as_dict()))
    assert [saver.wait(timeout=120) for saver in savers] == [0, 0]
    for saver in savers:
        assert saver.stdout is not None
        saver.stdout.close()
    final = load_baseline(target)
    assert final is not None
    assert sorted(s.created for s in final.entries[0].sessions) == \
        ["direct", "first", "held", "via-link"]
    assert link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shared", "star64.json"]
