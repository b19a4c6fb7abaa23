"""A baseline directory of saves (``baselines/<board>/000001.json``, ...; issue 31 item 12).

It judges exactly as the single file of the same sessions does; a save writes one new file and
touches no other; judging and saving read the saves' summaries, never a session; the summary
cache is used only where each save's SHA-256 matches, and a broken one is rebuilt; list, drop,
restore, split, sign and verify work on it; a stray file or a file beside the directory is an
error naming it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_baseline_scale import calls

from pytest_sbcbench.cli import main
from pytest_sbcbench.errors import SchemaError, SignatureError
from pytest_sbcbench.judge import baseline as baseline_module
from pytest_sbcbench.judge import baseline_columns, baseline_saves
from pytest_sbcbench.judge.baseline import Baseline, load_baseline
from pytest_sbcbench.judge.baseline_store import load_any, load_verified
from pytest_sbcbench.judge.baseline_summary import cache_file
from pytest_sbcbench.judge.saving import save_session
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict
from pytest_sbcbench.report.compare import compare

ENV = {"cpu_model": "x", "cpus": 4, "kernel_release": "6.1.0-57"}


def results(metrics: int, boot: int, findings: bool = False) -> list[Result]:
    out = []
    for i in range(metrics):
        samples = tuple(1e6 * (1 + i % 5) * (1 + 0.004 * ((boot * 3 + i + r) % 5)) for r in
                        range(3 + i % 2))
        m = Measurement("throughput", "B/s", "higher", Identity.of(case=i), samples)
        telemetry = {"findings": [{"kind": "steal-time", "detail": "12% steal"}]} \
            if findings and i == 0 else {}
        out.append(Result(f"t.py::test_m[{i}]", m, summarize_of(samples),
                          Verdict("no-baseline", ""), telemetry))
    return out


def summarize_of(samples: tuple[float, ...]) -> Any:
    from pytest_sbcbench.judge.stats import summarize

    return summarize(samples)


# boot ids: b1 twice (two saves in one boot, the second of 4 metrics in another order), boot
# 4 unknown, boot 5 saved under steal time
BOOTS: list[tuple[str | None, bool]] = [("b0", False), ("b1", False), ("b1", False),
                                        ("b2", False), (None, False), ("b3", True)]


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SBCBENCH_SUMMARY_CACHE", str(tmp_path / "cache"))
    forget()
    yield
    forget()


def forget() -> None:
    """Nothing known in this process (as a new run starts)."""
    baseline_saves._DIGESTS.clear()
    baseline_saves._BUILT.clear()
    baseline_module._PARSED.clear()


def both(tmp_path: Path, metrics: int = 6) -> tuple[Path, Path]:
    """The same saves into ``single/star64.json`` and ``saves/star64/``."""
    single, folder = tmp_path / "single" / "star64.json", tmp_path / "saves" / "star64"
    single.parent.mkdir()
    folder.mkdir(parents=True)
    for n, (boot, found) in enumerate(BOOTS):
        env = {**ENV, **({"boot_id": boot} if boot else {})}
        saved = results(metrics, n, found)
        if n == 2:  # a save of fewer metrics in another order (a -k run)
            saved = saved[:4][::-1]
        for path in (single, folder):
            lines = save_session(path, "star64", saved, [], f"at-{n}", env)
            assert lines[0].startswith("baseline saved"), lines
    return single, folder


def loaded(path: Path) -> Baseline:
    got = load_any(path, "star64")
    assert got is not None
    return got


def test_a_directory_judges_as_its_single_file(tmp_path: Path) -> None:
    single, folder = both(tmp_path)
    forget()
    one, many = loaded(single), loaded(folder)
    assert [e.key for e in one.entries] == [e.key for e in many.entries]
    for a, b in zip(one.entries, many.entries, strict=True):
        assert b.side == a.side and b.median == a.median and b.used_count == a.used_count
        assert b.last_environment == a.last_environment and b.references == a.references
        assert tuple(b.stored) == tuple(a.stored)
    assert one.entries[0].used_count == len(BOOTS) - 1  # the steal-time save is quarantined
    env = {**ENV, "boot_id": "new"}
    judged = [compare(b, "star64", env, results(6, 99), {}) for b in (one, many)]
    assert [v for _, v in judged[0].verdicts] == [v for _, v in judged[1].verdicts]
    assert judged[0].summary == judged[1].summary and judged[0].code == judged[1].code


def test_a_save_writes_one_new_file_and_touches_no_other(tmp_path: Path) -> None:
    _, folder = both(tmp_path)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()}
    assert sorted(before) == [f"{n:06d}.json" for n in range(1, len(BOOTS) + 1)]
    save_session(folder, "star64", results(6, 50), [], "at-50", {**ENV, "boot_id": "b50"})
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()}
    assert {k: v for k, v in after.items() if k in before} == before
    new = json.loads(after[f"{len(BOOTS) + 1:06d}.json"][0])
    assert new["schema"] == "sbcbench-baseline/1" and len(new["entries"]) == 6
    assert all(len(e["sessions"]) == 1 for e in new["entries"])


def materialized(work: Callable[[], Any]) -> int:
    """How often ``work`` read a directory's sessions (parsed its saves)."""
    return len(calls(baseline_columns.LazySessions._all.__code__, work)) \
        - len(calls(baseline_columns.LazySessions._all.__code__, lambda: None))


def parses(work: Callable[[], Any]) -> int:
    return len(calls(baseline_module._parse.__code__, work))


def hashes(work: Callable[[], Any]) -> int:
    return len(calls(baseline_saves._hashed.__code__, work))


def test_judging_and_saving_read_no_session(tmp_path: Path) -> None:
    _, folder = both(tmp_path)
    forget()
    loaded(folder)  # a new process's read: the cache written with every save
    forget()
    env = {**ENV, "boot_id": "new"}
    held: list[Baseline] = []
    assert parses(lambda: held.append(loaded(folder))) == 0  # every save from the cache
    reads = materialized(lambda: compare(held[0], "star64", env, results(6, 77), {}))
    assert reads == 0
    saving = calls(baseline_columns.LazySessions._all.__code__, lambda: save_session(
        folder, "star64", results(6, 77), [], "at-77", env, with_notes=True))
    assert all(c["self"]._sessions is not None for c in saving)  # none had to be read
    forget()  # the next save in a new process: the last save (which a save does not write
    # into the cache) read once, every other save from the cache
    assert parses(lambda: save_session(folder, "star64", results(6, 78), [], "at-78",
                                       {**ENV, "boot_id": "newer"}, with_notes=True)) == 1


def test_the_cache_is_used_only_where_a_saves_bytes_match(tmp_path: Path) -> None:
    _, folder = both(tmp_path)
    forget()
    reference = [(e.side, e.median) for e in loaded(folder).entries]
    forget()
    third = folder / "000003.json"
    data = json.loads(third.read_text())
    (first,) = [e for e in data["entries"] if e["test"] == "t.py::test_m[0]"]
    first["sessions"][0]["samples"] = [2e6, 2e6, 2e6]
    third.write_text(json.dumps(data))
    assert parses(lambda: loaded(folder)) == 1  # that save alone, the others from the cache
    forget()
    cache_file(folder).write_bytes(b"sbcbench-summary/1\n" + b"\0" * 40)  # broken
    again = loaded(folder)
    assert [(e.side, e.median) for e in again.entries][1:] == reference[1:]
    assert again.entries[0].side != reference[0][0]  # the changed save counts as changed
    forget()
    assert parses(lambda: loaded(folder)) == 0  # the rebuilt cache is used


def test_a_stray_file_or_a_file_beside_is_an_error_naming_it(tmp_path: Path) -> None:
    single, folder = both(tmp_path)
    (folder / "notes.json").write_text("{}")
    with pytest.raises(SchemaError, match=r"notes\.json.*not a save"):
        load_any(folder, "star64")
    (folder / "notes.json").unlink()
    (folder.parent / "star64.json").write_bytes(single.read_bytes())
    with pytest.raises(SchemaError, match=r"both star64\.json and the directory"):
        load_any(folder, "star64")


def test_a_save_of_another_board_is_refused(tmp_path: Path) -> None:
    _, folder = both(tmp_path)
    data = json.loads((folder / "000002.json").read_text())
    data["board"] = "rock5b"
    (folder / "000002.json").write_text(json.dumps(data))
    forget()
    with pytest.raises(SchemaError, match="rock5b"):
        load_any(folder, "star64")


def test_list_drop_and_restore_a_directorys_session(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    single, folder = both(tmp_path)
    listed = []
    for path in (single, folder):
        assert main(["baseline", "list", str(path), "--json"]) == 0
        listed.append(json.loads(capsys.readouterr().out))
    assert listed[0]["sessions"] == listed[1]["sessions"] and len(listed[0]["sessions"]) == 6
    untouched = (folder / "000001.json").read_bytes()
    assert main(["baseline", "drop", str(folder), "4"]) == 0
    assert "dropped session 4" in capsys.readouterr().out
    assert (folder / "000001.json").read_bytes() == untouched
    forget()
    assert loaded(folder).entries[0].used_count == len(BOOTS) - 2
    assert main(["baseline", "restore", str(folder), "4"]) == 0
    forget()
    assert loaded(folder).entries[0].used_count == len(BOOTS) - 1


def test_split_makes_the_file_the_first_save(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    single, _ = both(tmp_path)
    raw = single.read_bytes()
    before = load_baseline(single, "star64")
    assert main(["baseline", "split", str(single)]) == 0
    assert "is now" in capsys.readouterr().out and not single.exists()
    folder = single.with_suffix("")
    assert (folder / "000001.json").read_bytes() == raw
    forget()
    after = loaded(folder)
    assert before is not None
    assert [(e.key, e.side) for e in after.entries] == [(e.key, e.side) for e in before.entries]
    save_session(folder, "star64", results(6, 60), [], "at-60", {**ENV, "boot_id": "b60"})
    assert sorted(p.name for p in folder.iterdir()) == ["000001.json", "000002.json"]


def test_a_signed_directory_is_verified_save_by_save(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    _, folder = both(tmp_path)
    assert main(["keygen", str(tmp_path / "key")]) == 0
    private, public = tmp_path / "key.key", tmp_path / "key.pub"
    assert main(["sign", str(folder), "--key", str(private)]) == 0
    assert folder.with_name("star64.sig").exists()
    forget()
    assert load_verified(folder, public, "star64") is not None
    save_session(folder, "star64", results(6, 70), [], "at-70", {**ENV, "boot_id": "b70"})
    forget()
    with pytest.raises(SignatureError, match="does not match"):
        load_verified(folder, public, "star64")  # a save added after signing
    assert main(["sign", str(folder), "--key", str(private)]) == 0
    forget()
    third = folder / "000003.json"
    third.write_text(third.read_text().replace("at-2", "at-X"))
    with pytest.raises(SignatureError, match="does not match"):
        load_verified(folder, public, "star64")  # a save changed after signing
    capsys.readouterr()


def test_a_signature_is_checked_on_hashes_never_on_the_caches_record(tmp_path: Path) -> None:
    """A save changed in place with its size and modification time put back passes the
    cache's record (git's racy-clean rule, a plain read takes its recorded SHA-256), but never
    ``--sbc-verify-key``, which hashes every save."""
    import os

    _, folder = both(tmp_path)
    saves = sorted(folder.iterdir())
    for p in saves:
        os.utime(p, ns=(p.stat().st_atime_ns, p.stat().st_mtime_ns - 3_600_000_000_000))
    assert main(["keygen", str(tmp_path / "key")]) == 0
    assert main(["sign", str(folder), "--key", str(tmp_path / "key.key")]) == 0
    forget()  # signing hashed every save and recorded their identities in the cache
    assert hashes(lambda: loaded(folder)) == 0  # taken from the cache's record, not read
    third = saves[2]
    stat = third.stat()
    text = third.read_bytes()
    with open(third, "r+b") as f:  # the same inode and size
        f.write(text.replace(b'"at-2"', b'"at-9"'))
    os.utime(third, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    forget()
    with pytest.raises(SignatureError, match="does not match"):
        load_verified(folder, tmp_path / "key.pub", "star64")
    forget()
    assert hashes(lambda: loaded(folder)) == 0  # the racy-clean rule's one blind spot, said so
    os.utime(third, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    forget()
    assert hashes(lambda: loaded(folder)) == 1  # another time: that save read and hashed
