"""Baseline boots are never refused for drifting (issue 22, item 6): a far boot of the
baseline's own reference is recorded and reported; another reference needs --sbc-accept."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_sbcbench.judge.baseline import load_baseline, with_session
from pytest_sbcbench.judge.saving import reference_of, same_reference, save_session
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.judge.verdict import judge
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict

TEST = "benchmarks/test_crypto.py::test_cipher[aes-128-gcm]"
IDENTITY = Identity.of(tool="openssl", version="3.0.19", algorithm="aes-128-gcm",
                       block_bytes=16384, threads=1, seconds=1)
MACHINE = {"cpu_model": "sifive,u74-mc", "cpus": 4}


def result(samples: tuple[float, ...]) -> Result:
    m = Measurement("aes-128-gcm", "B/s", "higher", IDENTITY, samples)
    return Result(TEST, m, summarize(samples), Verdict("no-baseline", ""))


BOOTS = [f"b{i}" for i in range(1, 11)]


def ten_boots(tmp_path: Path, kernel: str = "6.1.0-57") -> Path:
    """Ten boots of one kernel, 3 runs each, about 0.3% apart (enough boots for a 10% drop to
    be a confirmed regression with the two-sample t on boot means)."""
    baseline = None
    patterns = ((21.7e6, 21.8e6, 21.6e6), (21.75e6, 21.7e6, 21.8e6))
    for i, boot in enumerate(BOOTS):
        samples = patterns[i % 2]
        baseline = with_session(baseline, "star64", [result(samples)], boot,
                                {**MACHINE, "boot_id": boot, "kernel_release": kernel})
    assert baseline is not None
    path = tmp_path / "star64.json"
    path.write_text(json.dumps(baseline.as_dict()))
    return path


def far_boot(path: Path) -> Result:
    """An eleventh boot 10% below the other ten, judged against them: a regression."""
    slow = result((19.53e6, 19.5e6, 19.56e6))
    verdict = judge(slow, baseline=load_baseline(path), board="star64", machine=MACHINE)
    assert verdict.status == "regression"
    return Result(slow.test, slow.measurement, slow.summary, verdict)


def test_reference_is_the_label_else_the_kernel_release() -> None:
    assert reference_of({"kernel_release": "6.1.0-57"}) == "6.1.0-57"
    assert reference_of({"label": "bsp-2", "kernel_release": "6.1.0-57"}) == "bsp-2"
    assert reference_of({"kernel_release": ""}) is None and reference_of({}) is None


def test_a_far_boot_of_the_same_kernel_is_held_unless_accepted(tmp_path: Path) -> None:
    """A boot its own save's gate judges a regression is never folded in silently: kept
    quarantined (it would widen the tolerance every later verdict uses, or make the same
    regression pass), saying why and how to use it; ``--sbc-accept`` naming it records it as
    a far boot of the reference."""
    path = ten_boots(tmp_path)
    judged = far_boot(path)
    env = {**MACHINE, "boot_id": "b11", "kernel_release": "6.1.0-57"}
    lines = save_session(path, "star64", [judged], (), "b11", env)
    assert lines[0] == f"baseline saved: {path} (1 result, 1 quarantined; up to 10 sessions " \
                       "per metric)"
    assert lines[1].startswith("  quarantined: aes-128-gcm: the gate of this save judged it a "
                               "regression (-10.1% against 10 boots saved before it)")
    assert f"'sbcbench baseline restore {path} 11'" in lines[2]
    stored = load_baseline(path)
    assert stored is not None
    assert [s.environment["boot_id"] for s in stored.entries[0].sessions] == BOOTS
    lines = save_session(path, "star64", [judged], (TEST,), "b12",
                         {**env, "boot_id": "b12"})
    assert lines[1] == (f"  far boot: {TEST} aes-128-gcm: this boot is 10.1% below the other 10 "
                        "boots of 6.1.0-57: recorded; it widens the tolerance")
    stored = load_baseline(path)
    assert stored is not None
    assert [s.environment["boot_id"] for s in stored.entries[0].sessions] == [*BOOTS, "b12"]


def test_another_kernel_or_an_unknown_one_still_needs_accept(tmp_path: Path) -> None:
    path = ten_boots(tmp_path)
    judged = far_boot(path)
    before = path.read_bytes()
    for env in ({**MACHINE, "kernel_release": "6.12.0-1"}, {**MACHINE}):
        lines = save_session(path, "star64", [judged], (), "b3", env)
        assert lines == [f"baseline NOT saved to {path}: no result can be recorded",
                         f"  NOT saved: {TEST} aes-128-gcm (regression; add --sbc-accept "
                         f"'{TEST}' to record it as the new normal)"]
        assert path.read_bytes() == before
    lines = save_session(path, "star64", [judged], ["aes-128"], "b3",
                         {**MACHINE, "kernel_release": "6.12.0-1"})
    assert lines[1] == f"  saved by --sbc-accept: {TEST} aes-128-gcm (regression)"


def test_a_baseline_mixing_references_is_not_the_same_reference(tmp_path: Path) -> None:
    path = ten_boots(tmp_path)
    baseline = load_baseline(path)
    assert baseline is not None
    mixed = with_session(baseline, "star64", [result((21.7e6, 21.7e6))], "b9",
                         {**MACHINE, "kernel_release": "6.12.0-1"})
    judged = far_boot(path)
    assert same_reference(baseline, {"kernel_release": "6.1.0-57"})(judged)
    assert not same_reference(mixed, {"kernel_release": "6.1.0-57"})(judged)
    assert not same_reference(None, {"kernel_release": "6.1.0-57"})(judged)
