"""Gate mode (``--sbc-gate``) and the tally line every run ends with: a gate that cannot judge
refuses before measuring (exit 4), one that judged everything passes (exit 0), a regression
fails (exit 1), and one that stayed undecided says so (exit 6)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable

import pytest
from widget import WIDGET

from pytest_sbcbench.model import (
    Evidence,
    Identity,
    Measurement,
    Result,
    Status,
    Summary,
    Verdict,
)
from pytest_sbcbench.report.tally import tally_line
from pytest_sbcbench.run.gate import GATE_UNDECIDED


def test_a_missing_baselines_directory_refuses_the_gate_before_measuring(
        widget: Callable[..., pytest.RunResult]) -> None:
    """A misspelled --sbc-baselines used to turn a regression into no-baseline, exit 0."""
    done = widget("100,101,99.5", "--sbc-gate")
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    done.stderr.fnmatch_lines(["*gate: no baseline to gate against: the baselines directory "
                               "*bl does not exist*"])
    assert "passed" not in done.stdout.str()


def test_a_test_without_a_baseline_entry_is_named(pytester: pytest.Pytester,
                                                  widget: Callable[..., pytest.RunResult]
                                                  ) -> None:
    widget("100,101,99.5", "--sbc-save-baseline").assert_outcomes(passed=1)
    pytester.makepyfile(test_gadget=WIDGET.replace("test_widget", "test_gadget"))
    done = widget("100,101,99.5", "--sbc-gate")
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    done.stderr.fnmatch_lines(["*cannot be gated, nothing was measured:",
                               "*test_gadget.py::test_gadget: no baseline entry in *",
                               "*never re-baseline on the candidate*"])


def test_gate_passes_fails_and_stays_undecided_with_its_own_exit_code(
        widget: Callable[..., pytest.RunResult], monkeypatch: pytest.MonkeyPatch) -> None:
    boots = ("100,101,99.5", "100.5,100,99.8", "99.9,100.6,100.1", "100.2,100.4,99.7",
             "99.8,100.1,100.3")
    for boot, samples in enumerate(boots * 2):  # ten boots: enough to pass at delta 3%
        monkeypatch.setenv("SBCBENCH_BOOT_ID", f"boot-{boot}")
        widget(samples, "--sbc-save-baseline").assert_outcomes(passed=1)
    monkeypatch.setenv("SBCBENCH_BOOT_ID", "candidate")
    # each scenario its own candidate label: gate runs of one label are that candidate's boots;
    # --sbc-boots 1 plans the label as one boot judged with the whole error budget (without it
    # every boot is a look at 1/6 of the budget, issue 28, and one boot cannot pass here)
    same = widget("100.2,99.9,100.4", "--sbc-gate", "--sbc-boots", "1", "--sbc-candidate",
                  "same")
    assert same.ret == pytest.ExitCode.OK, same.stdout.str()
    same.stdout.fnmatch_lines(["gate: 1 metric, 10 baseline boots vs 1 candidate boot: 1 pass*"])
    slower = widget("80,80.5,79.8", "--sbc-gate", "--sbc-boots", "1", "--sbc-candidate",
                    "slower")
    assert slower.ret == pytest.ExitCode.TESTS_FAILED
    slower.stdout.fnmatch_lines(["gate: 1 metric, * 1 regression (widget -2*% [[]-*, -*[]])*"])
    noisy = widget("100,70,130", "--sbc-gate", "--sbc-max-runs", "3", "--sbc-candidate",
                   "noisy")
    assert noisy.ret == GATE_UNDECIDED
    noisy.stdout.fnmatch_lines(["*gate: undecided, exit 6: 1 metric neither passed nor "
                                "regressed: widget (inconclusive)*"])


def test_compare_exits_as_the_gate_did_on_the_same_files(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult],
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28, item 7: ``sbcbench compare`` exited 0 where the gate exited 6 on the same
    files (a CI job gating with compare passed an undecided kernel)."""
    from pytest_sbcbench.cli import main

    boots = ("100,101,99.5", "100.5,100,99.8", "99.9,100.6,100.1", "100.2,100.4,99.7",
             "99.8,100.1,100.3")
    for boot, samples in enumerate(boots * 2):
        monkeypatch.setenv("SBCBENCH_BOOT_ID", f"boot-{boot}")
        widget(samples, "--sbc-save-baseline").assert_outcomes(passed=1)
    (baseline,) = (pytester.path / "bl").glob("*.json")
    for n, (label, samples, extra) in enumerate((
            ("same", "100.2,99.9,100.4", ()), ("slower", "80,80.5,79.8", ()),
            ("noisy", "100,70,130", ("--sbc-max-runs", "3")))):
        monkeypatch.setenv("SBCBENCH_BOOT_ID", f"candidate-{n}")
        out = pytester.path / f"{label}.json"
        gate = widget(samples, "--sbc-gate", "--sbc-candidate", label, "--sbc-results", str(out),
                      *extra)
        capsys.readouterr()
        assert main(["compare", str(baseline), str(out)]) == gate.ret, capsys.readouterr().out
    assert gate.ret == GATE_UNDECIDED


def test_an_incomparable_result_at_the_end_of_a_gate_is_exit_4_not_1(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult],
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28, item 7: every exit 1 means a regression.  A custom measurement whose identity
    differs from the baseline's (known only once it ran, so not refused before measuring)
    failed its test and exited 1; it is exit 4, cannot gate, as ``sbcbench compare`` says of
    the same file."""
    from pytest_sbcbench.cli import main

    widget("100,101,99.5", "--sbc-save-baseline").assert_outcomes(passed=1)
    out = pytester.path / "other.json"
    gate = widget("100,101,99.5", "--sbc-gate", "--sbc-results", str(out), version="2")
    assert gate.ret == pytest.ExitCode.USAGE_ERROR, gate.stdout.str()
    gate.stdout.fnmatch_lines(["*gate: cannot gate, exit 4: 1 test measured something the "
                               "baseline cannot be compared with: test_widget.py::test_widget*"])
    (baseline,) = (pytester.path / "bl").glob("*.json")
    capsys.readouterr()
    assert main(["compare", str(baseline), str(out)]) == gate.ret


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl not on PATH")
def test_another_openssl_version_is_refused_before_measuring(
        pytester: pytest.Pytester, copy_benchmarks: Callable[..., None],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The identity a workload declares before running (openssl and its version) is checked
    against the baseline before the first benchmark, not found incomparable after it."""
    monkeypatch.delenv("SBCBENCH_OPENSSL", raising=False)
    copy_benchmarks()
    test = "benchmarks/test_crypto.py::test_digest[sha256]"
    baselines = pytester.path / "bl"
    first = pytester.runpytest("-k", "test_digest and sha256", "--sbc-quick",
                               "--sbc-idle-wait", "0", "--sbc-baselines", str(baselines),
                               "--sbc-save-baseline")
    first.assert_outcomes(passed=1)
    (path,) = baselines.glob("*.json")
    doc = json.loads(path.read_text())
    (entry,) = doc["entries"]
    assert entry["test"] == test
    entry["identity"]["version"] = "0.9.8"
    path.write_text(json.dumps(doc))
    done = pytester.runpytest("-k", "test_digest and sha256", "--sbc-quick", "--sbc-idle-wait",
                              "0", "--sbc-baselines", str(baselines), "--sbc-gate")
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    assert (f"{test}: incomparable before measuring (version: baseline '0.9.8', this run "
            f"'{openssl_version()}')") in done.stderr.str()


def openssl_version() -> str:
    """This machine's openssl version, as ``openssl version`` prints it."""
    out = subprocess.run(["openssl", "version"], capture_output=True, text=True, check=True)
    return out.stdout.split()[1]


def result(status: Status, change: float = 0.0, boots: int = 3, catch: float | None = 2.5,
           needed: tuple[int, int] | None = None, pending: bool = False) -> Result:
    m = Measurement("aes-128-gcm", "B/s", "higher", Identity.of(tool="openssl"), (1.0, 2.0))
    ev = Evidence(change_pct=change, ci_pct=(change - 1.8, change + 1.8), confidence_pct=95.0,
                  tolerance_pct=1.0, detectable_pct=3.0, min_effect_pct=3.0, samples=2,
                  baseline_samples=9, baseline_boots=boots, runs_needed=None,
                  boots_needed=needed[0] if needed else None,
                  candidate_boots=3 if not pending else 1,
                  candidate_boots_needed=needed[1] if needed else None, catch95_pct=catch,
                  p_value=0.5, df=10.0, pending=pending)
    return Result("t::x", m, Summary(2, 1.5, 1.5, 0.7, 0.47), Verdict(status, "", ev), {})


def test_the_tally_names_regressions_with_their_interval_and_counts_the_rest() -> None:
    line = tally_line([result("regression", -6.1, catch=2.9), result("pass", catch=3.1),
                       result("pass", catch=3.3),
                       result("inconclusive", boots=2, catch=7.25, needed=(12, 4))])
    assert line == ("gate: 4 metrics, 2-3 baseline boots vs 3 candidate boots: 1 regression "
                    "(aes-128-gcm -6.1% [-7.9, -4.3]), 1 inconclusive, 2 pass; 95% of drops "
                    ">= 3.2% are caught (median metric); to decide every metric at 3%: 12 "
                    "baseline and 4 candidate boots; P(any false alarm) <= 5%")
    assert tally_line([]) == "gate: 0 metrics, no baseline: nothing judged"
    waiting = tally_line([result("inconclusive", pending=True)], label="boot 1 of 3")
    assert waiting.startswith("boot 1 of 3: 1 metric, 3 baseline boots vs 1 candidate boot: "
                              "1 pending; ")
    saving = tally_line([result("pass", boots=9)], saving=True)
    assert saving.startswith("gate: 1 metric, this session vs 9 baseline boots saved before it: "
                             "1 pass")


def test_gate_runs_are_kept_in_the_history_and_plain_runs_are_not(
        pytester: pytest.Pytester, widget: Callable[..., pytest.RunResult]) -> None:
    from pytest_sbcbench.judge import history

    widget("100,101,99.5", "--sbc-save-baseline").assert_outcomes(passed=1)
    widget("100,101,99.5").assert_outcomes(passed=1)  # asked nothing of the history
    widget("100,101,99.5", "--sbc-candidate", "6.12-rc1").assert_outcomes(passed=1)
    rows = history.summary(history.history_path(pytester.path / "bl"))
    assert [(r.role, r.label, r.sessions) for r in rows][1:] == [("candidate", "6.12-rc1", 1)]
    assert rows[0].role == "baseline" and rows[0].sessions == 1
