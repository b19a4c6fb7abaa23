"""One rule for caches: derived from verified bytes and bound to their digest (docs/security.md).

The per-user summary cache of a baseline directory (``~/.cache/sbcbench/baseline-summaries``)
is derived data anyone who can write the user's cache directory can edit.  Under
``--sbc-verify-key`` the numbers judged come from the saves' verified bytes, never from the
cache: a cache edited by hand (every value halved) changes no verdict, and is rewritten from
the verified summaries."""

from __future__ import annotations

import math
import os
import shutil
from array import array
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from test_baseline_saves import ENV, both, forget, hashes, loaded, results

from pytest_sbcbench.cli import main
from pytest_sbcbench.judge import baseline_saves
from pytest_sbcbench.judge.baseline_store import load_verified
from pytest_sbcbench.judge.baseline_summary import read_cache, write_cache
from pytest_sbcbench.measure import c_helpers, stream
from pytest_sbcbench.report.compare import compare


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SBCBENCH_SUMMARY_CACHE", str(tmp_path / "cache"))
    forget()
    yield
    forget()


def halve_the_cache(folder: Path) -> None:
    """Every value in the summary cache halved, as a hand would edit it (log means less
    log 2, samples halved), the cache's record of each save kept so that it is used."""
    cache = read_cache(folder)
    files = sorted(folder.glob("*.json"))
    shas = {p.name: cache.files[p.name][1] for p in files}
    halved = [replace(cache.summaries[shas[p.name]],
                      means=array("d", (m - math.log(2) for m in
                                        cache.summaries[shas[p.name]].means)),
                      samples=array("d", (v / 2 for v in
                                          cache.summaries[shas[p.name]].samples)))
              for p in files]
    assert write_cache(folder, files, halved, lambda p: cache.files[p.name][0])


def verdicts(baseline: object) -> list[str]:
    env = {**ENV, "boot_id": "new"}
    out = compare(baseline, "star64", env, results(6, 99), {})  # type: ignore[arg-type]
    return [v.status for _, v in out.verdicts]


def signed(tmp_path: Path) -> tuple[Path, Path]:
    _, folder = both(tmp_path)
    assert main(["keygen", str(tmp_path / "key")]) == 0
    assert main(["sign", str(folder), "--key", str(tmp_path / "key.key")]) == 0
    return folder, tmp_path / "key.pub"


def test_a_hand_edited_summary_cache_never_changes_a_verified_verdict(tmp_path: Path) -> None:
    folder, public = signed(tmp_path)
    forget()
    honest = verdicts(load_verified(folder, public, "star64"))
    forget()
    loaded(folder)  # a plain read: the cache holds every save
    halve_the_cache(folder)
    forget()
    tampered = verdicts(loaded(folder))  # without a key the cache is what is read...
    assert tampered != honest and "improvement" in tampered
    forget()
    assert verdicts(load_verified(folder, public, "star64")) == honest  # ...never with one
    forget()
    assert verdicts(loaded(folder)) == honest  # the verified read rewrote the cache


def test_a_plain_read_in_the_same_process_is_not_taken_for_a_verified_one(
        tmp_path: Path) -> None:
    """A baseline built in this process from the cache is not handed to a verified read of
    the same saves (the process' own memory of baselines is a cache too)."""
    folder, public = signed(tmp_path)
    forget()
    honest = verdicts(load_verified(folder, public, "star64"))
    forget()
    loaded(folder)
    halve_the_cache(folder)
    forget()
    held = loaded(folder)  # built from the edited cache, alive in this process
    assert verdicts(held) != honest
    assert baseline_saves.saves_of(held) is not None
    assert verdicts(load_verified(folder, public, "star64")) == honest


def test_sign_hashes_every_save_never_the_caches_record(tmp_path: Path) -> None:
    """``sbcbench sign`` signs the SHA-256 of each save's bytes as read now, never the one the
    cache recorded for a file of the same inode, size and time (which a plain read takes)."""
    _, folder = both(tmp_path)
    saves = sorted(folder.glob("*.json"))
    for p in saves:  # older than the cache's racy window
        os.utime(p, ns=(p.stat().st_atime_ns, p.stat().st_mtime_ns - 3_600_000_000_000))
    loaded(folder)
    forget()
    assert hashes(lambda: loaded(folder)) == 0  # a plain read: the cache's record
    forget()
    assert main(["keygen", str(tmp_path / "key")]) == 0
    assert hashes(lambda: main(["sign", str(folder), "--key", str(tmp_path / "key.key")])) \
        == len(saves)


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (apt-get install gcc)")
def test_a_helper_binary_is_run_only_as_this_process_built_it(tmp_path: Path) -> None:
    """A compiled helper (the STREAM kernel, whose output is a measurement) left in the
    user's cache by an earlier process, or changed since this process wrote it, is built
    again from the package's source, never run as found."""
    forged = b"#!/bin/sh\necho 'Triad: 999999.0 MB/s'\n"
    c_helpers._BUILT_HERE.clear()
    kernel = stream.build(tmp_path)
    assert stream.build(tmp_path) == kernel  # this process's own binary, reused
    kernel.path.write_bytes(forged)  # edited in place by whoever can write the cache
    assert stream.build(tmp_path).path.read_bytes() != forged
    kernel.path.write_bytes(forged)
    c_helpers._BUILT_HERE.clear()  # a new process finds the forged binary in the cache
    rebuilt = stream.build(tmp_path)
    assert rebuilt.path == kernel.path and rebuilt.path.read_bytes()[:4] == b"\x7fELF"
