"""A baseline you can keep clean (issue 28, item 5), in-process: quarantined sessions are kept
and shown but never judged against; ``sbcbench baseline list|drop|restore`` review them.
The end-to-end pytest runs are in tests/test_baseline_clean.py."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from pytest_sbcbench.cli import main
from pytest_sbcbench.judge.baseline import load_baseline, parse_baseline, with_session
from pytest_sbcbench.judge.baseline_model import baseline_text
from pytest_sbcbench.judge.baseline_review import sessions
from pytest_sbcbench.judge.quarantine import far_from, far_limit_pct
from pytest_sbcbench.judge.saving import save_session
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.judge.verdict import judge
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict

TEST = "benchmarks/test_crypto.py::test_cipher[aes-128-gcm]"
# ``openssl speed -elapsed``: a wall-time rate, which other load moves (a contaminated save is
# quarantined); the CPU-time rate openssl gives by default is kept beside load (below)
IDENTITY = Identity.of(tool="openssl", version="3.0.19", algorithm="aes-128-gcm", threads=1,
                       clock="wall")
CPU_IDENTITY = Identity.of(tool="openssl", version="3.0.19", algorithm="aes-128-gcm", threads=1)
MACHINE = {"cpu_model": "sifive,u74-mc", "cpus": 4}
LOADED: dict[str, object] = {"findings": [{"kind": "background-load",
                                           "detail": "background load 2.00 CPUs"}]}


def result(samples: tuple[float, ...], telemetry: dict[str, object] | None = None,
           identity: Identity = IDENTITY, details: Mapping[str, object] | None = None) -> Result:
    m = Measurement("aes-128-gcm", "B/s", "higher", identity, samples, details=details or {})
    return Result(TEST, m, summarize(samples), Verdict("no-baseline", ""), telemetry or {})


def env(boot: str) -> dict[str, object]:
    return {**MACHINE, "boot_id": boot, "kernel_release": "6.1.0-57"}


def save(path: Path, boot: str, samples: tuple[float, ...], accept: tuple[str, ...] = (),
         telemetry: dict[str, object] | None = None) -> list[str]:
    return save_session(path, "star64", [result(samples, telemetry)], accept, f"at-{boot}",
                        env(boot))


GOOD = (4.29e9, 4.30e9, 4.28e9)
FAR = (0.43e9, 0.431e9, 0.429e9)  # 90% below


def test_a_boot_far_below_the_other_is_quarantined_not_judged(tmp_path: Path) -> None:
    path = tmp_path / "star64.json"
    save(path, "b1", GOOD)
    lines = save(path, "b2", FAR)
    assert lines[0] == f"baseline saved: {path} (1 result, 1 quarantined; up to 1 session " \
                       "per metric)"
    assert lines[1].startswith("  quarantined: aes-128-gcm: this boot is 90.0% below the "
                               "median of the other 1 boot of 6.1.0-57, beyond the 15.8% that "
                               "3 robust spreads allow (with one other boot")
    assert f"'sbcbench baseline restore {path} 2'" in lines[2]
    assert f"--sbc-accept '{TEST}'" in lines[2]
    baseline = load_baseline(path)
    assert baseline is not None
    entry = baseline.entries[0]
    assert [s.status for s in entry.stored] == ["used", "quarantined"]
    assert [s.created for s in entry.sessions] == ["at-b1"]  # only the used one is judged
    # a real 90% drop is then a regression against the good boot, not hidden by the far one
    verdict = judge(result(FAR), baseline=baseline, board="star64", machine=MACHINE)
    assert verdict.status == "regression", verdict.detail


def test_accept_folds_a_far_boot_in_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "star64.json"
    save(path, "b1", GOOD)
    save(path, "b2", FAR, accept=("aes-128",))
    baseline = load_baseline(path)
    assert baseline is not None
    stored = baseline.entries[0].stored[1]
    assert stored.status == "used" and stored.why.startswith("accepted by --sbc-accept: this "
                                                             "boot is 90.0% below")


def test_drift_within_the_robust_spread_is_recorded(tmp_path: Path) -> None:
    path = tmp_path / "star64.json"
    for i, level in enumerate((1.0, 1.003, 0.998, 1.001)):
        save(path, f"b{i}", tuple(v * level for v in GOOD))
    lines = save(path, "b9", tuple(v * 0.9 for v in GOOD))  # 10% below: drift, kept
    assert "quarantined" not in "\n".join(lines)
    entry = far_limit_pct([0.0, 0.001, -0.002])
    assert 15.0 < entry < 16.0  # three quiet boots: the 5% floor, x3
    assert far_limit_pct([0.0, 0.1, -0.1, 0.2, -0.2]) > 30.0  # widely spread boots: wider


def test_far_needs_another_boot(tmp_path: Path) -> None:
    path = tmp_path / "star64.json"
    save(path, "b1", GOOD)
    baseline = load_baseline(path)
    assert baseline is not None
    entry = baseline.entries[0]
    assert far_from(None, FAR, "b2", None) is None
    assert far_from(entry, FAR, "b1", None) is None  # the same boot: no other boot to compare
    assert far_from(entry, FAR, "b2", None) is not None


def test_a_contaminated_boot_is_quarantined_unless_accepted(tmp_path: Path) -> None:
    path = tmp_path / "star64.json"
    lines = save(path, "b1", GOOD, telemetry=LOADED)
    assert lines[1] == "  quarantined: aes-128-gcm: saved under background-load: its numbers " \
                       "were disturbed"
    baseline = load_baseline(path)
    assert baseline is not None
    assert baseline.entries[0].stored[0].findings == (
        ("background-load", "background load 2.00 CPUs"),)
    # its only session is quarantined: no baseline to judge against
    assert judge(result(GOOD), baseline=baseline, board="star64",
                 machine=MACHINE).status == "no-baseline"
    save(path, "b2", GOOD, accept=(TEST,), telemetry=LOADED)
    again = load_baseline(path)
    assert again is not None
    assert [s.status for s in again.entries[0].stored] == ["quarantined", "used"]
    assert again.entries[0].stored[1].findings  # recorded even when accepted


def test_a_cpu_time_rate_saved_beside_other_work_is_kept_with_its_finding(
        tmp_path: Path) -> None:
    """openssl's default rate is per second of its own user CPU time: other processes
    time-share the CPU, which does not move it, so a save beside them keeps it (it was
    quarantined, and a loaded machine's baseline was all quarantined), its finding recorded;
    where its runs' CPU time is too coarse to divide by (a few ticks) it is held."""
    path = tmp_path / "star64.json"
    runs = {"runs": [{"cpu_s": 0.6, "wall_s": 1.0}] * 3}
    kept = save_session(path, "star64", [result(GOOD, LOADED, CPU_IDENTITY, runs)], (),
                        "at-b1", env("b1"), with_notes=True)
    assert "quarantined" not in "\n".join(kept)
    assert any(line.startswith("saved beside other work: 1 of 1 (aes-128-gcm) are rates per "
                               "second of the tool's own CPU time") for line in kept)
    baseline = load_baseline(path)
    assert baseline is not None
    stored = baseline.entries[0].stored[0]
    assert stored.status == "used" and stored.findings == (
        ("background-load", "background load 2.00 CPUs"),)
    assert stored.why.startswith("measured beside other work: kept")
    coarse = {"runs": [{"cpu_s": 0.08, "wall_s": 1.0}] * 3}
    held = save_session(path, "star64", [result(GOOD, LOADED, CPU_IDENTITY, coarse)], (),
                        "at-b2", env("b2"))
    assert held[1] == "  quarantined: aes-128-gcm: saved under background-load: its numbers " \
                      "were disturbed"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_list_drop_restore_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    path = tmp_path / "star64.json"
    save(path, "b1", GOOD)
    save(path, "b2", tuple(v * 1.002 for v in GOOD))
    save(path, "b3", GOOD, telemetry=LOADED)
    before = path.read_bytes()
    code, out, _ = cli(capsys, "baseline", "list", str(path))
    assert code == 0
    rows = out.splitlines()
    assert rows[0] == f"{path}: board star64, 1 entry, 3 sessions"
    assert rows[1].split() == ["1", "at-b1", "boot", "b1", "6.1.0-57", "1", "metric", "used"]
    assert rows[3].split()[-3:] == ["quarantined;", "findings:", "background-load"]
    code, out, _ = cli(capsys, "baseline", "drop", str(path), "b2", "--dry-run")
    assert code == 0 and "nothing written (--dry-run)" in out and path.read_bytes() == before
    code, out, _ = cli(capsys, "baseline", "drop", str(path), "2")
    assert code == 0
    assert out.splitlines()[:2] == [
        f"dropped session 2 of {path} (at-b2, boot b2, 6.1.0-57):",
        "  1 metric used -> dropped: aes-128-gcm"]
    dropped = load_baseline(path)
    assert dropped is not None
    assert [s.status for s in dropped.entries[0].stored] == ["used", "dropped", "quarantined"]
    assert len(dropped.entries[0].sessions) == 1  # the bytes are kept, the session is not used
    code, _, err = cli(capsys, "baseline", "drop", str(path), "2")
    assert code == 2 and "is dropped: nothing to drop" in err
    code, _, err = cli(capsys, "baseline", "drop", str(path), "9")
    assert code == 2 and "names no session" in err
    code, out, _ = cli(capsys, "baseline", "restore", str(path), "at-b2")
    assert code == 0 and "1 metric dropped -> used" in out
    assert path.read_bytes() == before  # a drop then a restore: the same bytes
    code, out, _ = cli(capsys, "baseline", "restore", str(path), "3")  # accepts the quarantined
    assert code == 0 and "1 metric quarantined -> used" in out
    code, out, _ = cli(capsys, "baseline", "list", str(path), "--json")
    listed = json.loads(out)["sessions"]
    assert [s["status"] for s in listed] == ["used", "used", "used"]
    assert listed[2]["findings"] == ["background-load"]


def test_dropping_a_quarantined_session_restores_it_to_quarantine(tmp_path: Path) -> None:
    path = tmp_path / "star64.json"
    save(path, "b1", GOOD, telemetry=LOADED)
    assert main(["baseline", "drop", str(path), "1"]) == 0
    assert main(["baseline", "restore", str(path), "1"]) == 0
    baseline = load_baseline(path)
    assert baseline is not None
    assert baseline.entries[0].stored[0].status == "quarantined"


def test_the_file_is_one_line_per_session_and_reads_back(tmp_path: Path) -> None:
    baseline = None
    for i in range(3):
        baseline = with_session(baseline, "star64", [result(GOOD)], f"at-{i}", env(f"b{i}"))
    assert baseline is not None
    text = baseline_text(baseline)
    assert json.loads(text) == baseline.as_dict()
    assert sum('"created"' in line for line in text.splitlines()) == 3
    again = parse_baseline(text, tmp_path / "x.json")
    assert baseline_text(again) == text
    assert [r.number for r in sessions(again)] == [1, 2, 3]


@pytest.mark.parametrize("session, problem", [
    ({"status": "gone"}, "status 'gone' is not one of used, quarantined, dropped"),
    ({"status": "dropped"}, "a dropped session needs before_drop"),
    ({"before_drop": "used"}, "only a dropped session has before_drop"),
    ({"findings": "x"}, "findings must be a list"),
])
def test_a_malformed_status_is_refused(tmp_path: Path, session: dict[str, object],
                                       problem: str) -> None:
    baseline = with_session(None, "star64", [result(GOOD)], "at-1", env("b1"))
    doc: Any = baseline.as_dict()
    doc["entries"][0]["sessions"][0].update(session)
    with pytest.raises(Exception, match=problem):
        parse_baseline(json.dumps(doc), tmp_path / "x.json")


def test_gate_mode_names_a_test_whose_every_session_is_held(tmp_path: Path) -> None:
    from pytest_sbcbench.run.gate import problems

    path = tmp_path / "star64.json"
    save(path, "b1", GOOD, telemetry=LOADED)
    baseline = load_baseline(path)
    assert baseline is not None
    assert problems([TEST], baseline, MACHINE, lambda test: None) == [
        f"{TEST}: every baseline session of it in {path} is quarantined or dropped; see why "
        f"with 'sbcbench baseline list {path}'; if those sessions are sound, use them with "
        f"'sbcbench baseline restore {path} SESSION', else record the baseline again on a "
        "quiet machine (--sbc-save-baseline on the reference kernel)"]
    save(path, "b2", GOOD)
    again = load_baseline(path)
    assert again is not None and problems([TEST], again, MACHINE, lambda test: None) == []
