"""``--sbc-accept`` of a result that is incomparable because it ran on another CPU (issue 23
item 17): its entry restarts with this machine's session and says so; it is never appended
to the old CPU's entry, where the next run would be judged against both CPUs' samples."""

from __future__ import annotations

from pathlib import Path

from pytest_sbcbench.judge.baseline import append_session_locked, load_baseline
from pytest_sbcbench.judge.saving import save_session
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.judge.verdict import judge
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict

TEST = "benchmarks/test_crypto.py::test_cipher[aes-128-gcm]"
OTHER = "benchmarks/test_crypto.py::test_digest[sha256]"
IDENTITY = Identity.of(tool="openssl", version="3.0.19", algorithm="aes-128-gcm",
                       block_bytes=16384, threads=1, seconds=1)
OLD_CPU = {"cpu_model": "StarFive JH7110 (U74)", "cpus": 4}
NEW_CPU = {"cpu_model": "SpacemiT K1 (X60)", "cpus": 8}


def result(samples: tuple[float, ...], test: str = TEST) -> Result:
    m = Measurement("aes-128-gcm", "B/s", "higher", IDENTITY, samples)
    return Result(test, m, summarize(samples), Verdict("no-baseline", ""))


def old_cpu_baseline(tmp_path: Path) -> Path:
    path = tmp_path / "star64.json"
    for n, samples in enumerate(((21.7e6, 21.8e6), (21.6e6, 21.9e6))):
        append_session_locked(path, "star64", [result(samples), result(samples, OTHER)],
                              f"old-{n}", OLD_CPU)
    return path


def test_an_accepted_result_from_another_cpu_restarts_its_entry(tmp_path: Path) -> None:
    path = old_cpu_baseline(tmp_path)
    fresh = result((60e6, 61e6))
    verdict = judge(fresh, baseline=load_baseline(path), board="star64", machine=NEW_CPU)
    assert verdict.status == "incomparable" and "another machine" in verdict.detail
    accepted = Result(fresh.test, fresh.measurement, fresh.summary, verdict)
    lines = save_session(path, "star64", [accepted], ["aes-128-gcm"], "new-0", NEW_CPU)
    saved = load_baseline(path)
    assert saved is not None
    entry = next(e for e in saved.entries if e.test == TEST)
    assert [s.created for s in entry.sessions] == ["new-0"]  # no old-CPU sample left beside it
    assert all(s.environment["cpu_model"] == NEW_CPU["cpu_model"] for s in entry.sessions)
    untouched = next(e for e in saved.entries if e.test == OTHER)  # not accepted: kept as was
    assert [s.created for s in untouched.sessions] == ["old-0", "old-1"]
    assert any(line.startswith(f"  restarted: {TEST} aes-128-gcm: its 2 sessions from "
                               "another machine (cpu_model: baseline 'StarFive")
               for line in lines), lines
    again = judge(result((60e6, 61e6)), baseline=saved, board="star64", machine=NEW_CPU)
    assert again.status != "incomparable"


def test_the_same_cpu_still_appends(tmp_path: Path) -> None:
    path = old_cpu_baseline(tmp_path)
    same = result((21.8e6, 21.7e6))
    verdict = judge(same, baseline=load_baseline(path), board="star64", machine=OLD_CPU)
    judged = Result(same.test, same.measurement, same.summary, verdict)
    lines = save_session(path, "star64", [judged], ["aes-128-gcm"], "old-2", OLD_CPU)
    saved = load_baseline(path)
    assert saved is not None
    entry = next(e for e in saved.entries if e.test == TEST)
    assert [s.created for s in entry.sessions] == ["old-0", "old-1", "old-2"]
    assert not any("restarted" in line for line in lines)
