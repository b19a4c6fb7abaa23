"""``sbcbench baseline list`` says each metric's measured run CV and boot drift: the noise the
gate decides with, from the used sessions (worked out here independently of the judge)."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import pytest

from pytest_sbcbench.cli import main
from pytest_sbcbench.judge.baseline import load_baseline, with_session
from pytest_sbcbench.judge.baseline_noise import metric_noise
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict

TEST = "benchmarks/test_crypto.py::test_digest[sha512]"
BOOTS: dict[str, tuple[float, ...]] = {"b1": (800.0, 804.0, 796.0), "b2": (820.0, 818.0, 822.0),
         "b3": (790.0, 795.0, 785.0), "b4": (810.0, 812.0, 808.0)}


def result(samples: tuple[float, ...]) -> Result:
    m = Measurement("sha512", "B/s", "higher", Identity.of(tool="openssl", version="3.0.19"),
                    samples)
    return Result(TEST, m, summarize(samples), Verdict("no-baseline", ""))


def write(path: Path, boots: dict[str, tuple[float, ...]]) -> None:
    baseline = None
    for boot, samples in boots.items():
        baseline = with_session(baseline, "star64", [result(samples)], f"at-{boot}",
                                {"boot_id": boot, "kernel_release": "6.1"})
    assert baseline is not None
    path.write_text(json.dumps(baseline.as_dict()))


def expected(boots: dict[str, tuple[float, ...]]) -> tuple[float, float]:
    """Run CV and boot drift (percent) worked out directly: the pooled SD of log runs within
    sessions, and the SD of boot means less their runs' share."""
    logs = {b: [math.log(v) for v in s] for b, s in boots.items()}
    ss = sum(sum((x - statistics.fmean(r)) ** 2 for x in r) for r in logs.values())
    df = sum(len(r) - 1 for r in logs.values())
    run_var = ss / df
    means = [statistics.fmean(r) for r in logs.values()]
    drift_var = statistics.variance(means) - run_var / 3
    return 100 * math.expm1(math.sqrt(run_var)), 100 * math.expm1(math.sqrt(drift_var))


def test_each_metric_says_its_run_cv_and_boot_drift(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "star64.json"
    write(path, BOOTS)
    run_cv, drift = expected(BOOTS)
    baseline = load_baseline(path)
    assert baseline is not None
    (noise,) = metric_noise(baseline)
    assert noise.run_cv_pct == pytest.approx(run_cv) and noise.run_df == 8
    assert noise.boot_drift_pct == pytest.approx(drift) and noise.boots == 4
    assert main(["baseline", "list", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{path}: board star64, 1 entry, 4 sessions"
    assert out[-1] == (f"    sha512 ({TEST}): run CV {run_cv:.2f}% (df 8), boot drift "
                       f"{drift:.2f}% (4 boots)")
    assert main(["baseline", "list", str(path), "--json"]) == 0
    (listed,) = json.loads(capsys.readouterr().out)["metrics"]
    assert listed["boot_drift_pct"] == pytest.approx(drift) and listed["boots"] == 4


def test_one_boot_of_several_sessions_says_their_spread_not_a_drift(tmp_path: Path) -> None:
    """Every save in one boot (a machine that cannot reboot between saves): no boot drift is
    measured; the spread between the boot's sessions is said beside it."""
    path = tmp_path / "star64.json"
    write(path, {"b1": BOOTS["b1"]})
    baseline = with_session(load_baseline(path), "star64", [result(BOOTS["b2"])], "at-2",
                            {"boot_id": "b1", "kernel_release": "6.1"})
    (noise,) = metric_noise(baseline)
    assert noise.boot_drift_pct is None and noise.boots == 1 and noise.session_df == 1
    assert noise.session_spread_pct is not None and noise.session_spread_pct > 1.0
    assert "boot drift not measured (one boot); its sessions spread " in noise.line()
