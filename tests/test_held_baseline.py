"""A baseline whose every session is held (quarantined or dropped) is no baseline to judge
against, and never a silent pass (real pytest runs on a scripted machine, as in
tests/test_compare_run.py): on a loaded machine two saves of aes-128-gcm were both quarantined
for background load, then a run 93% slower was judged ``no-baseline`` and exited 0; and
``sbcbench compare base.json run.json`` judged against the numbers the save had quarantined
(``improvement ... +29.56%``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_compare_run import Run, compare, run  # noqa: F401 - the fixture

SLOWER = "7,7.1,6.9"  # 93% below the baseline's 100


def saved_beside_work(pytester: pytest.Pytester, run: Run) -> Path:  # noqa: F811
    """Two saves beside a busy neighbour, both quarantined (a wall-time number), the second
    also writing its results file, ``base.json``."""
    for extra in ((), ("--sbc-results", "base.json")):
        done = run("100,101,99.5", 2.0, "--sbc-idle-wait", "0.2", "--sbc-save-baseline", *extra)
        done.assert_outcomes(passed=1)
        done.stdout.fnmatch_lines(["*quarantined: widget: saved under background-load*"])
    return pytester.path / "base.json"


def test_a_run_against_a_baseline_held_whole_fails_and_says_what_to_do(
        pytester: pytest.Pytester, run: Run) -> None:  # noqa: F811
    saved_beside_work(pytester, run)
    (path,) = (pytester.path / "bl").glob("*.json")
    for gate in ((), ("--sbc-gate",)):
        done = run(SLOWER, 0.0, "--sbc-idle-wait", "0", *gate)
        assert done.ret == 4, done.stdout.str()  # cannot gate: never exit 0, never "no baseline"
        out = done.stdout.str() + done.stderr.str()
        assert f"sbcbench baseline restore {path}" in out
        assert "record the baseline again on a quiet machine" in out
    plain = run(SLOWER, 0.0, "--sbc-idle-wait", "0", "--sbc-results", "r.json")
    plain.stdout.fnmatch_lines([
        "*cannot judge: no usable baseline for widget: all 2 sessions of it in * are "
        "quarantined or dropped (saved under background-load: its numbers were disturbed)*",
        "*cannot gate, exit 4: 1 test whose every baseline session is quarantined or dropped: "
        f"test_widget.py::test_widget; see why with 'sbcbench baseline list {path}'*"])
    plain.stdout.no_fnmatch_line("*no baseline for * yet*")
    plain.stdout.no_fnmatch_line("*judged incomparable*")
    (verdict,) = [r["verdict"] for r in
                  json.loads((pytester.path / "r.json").read_text())["results"]]
    assert verdict["status"] == "no-baseline"


def test_compare_never_judges_against_numbers_the_save_quarantined(
        pytester: pytest.Pytester, run: Run, capsys: pytest.CaptureFixture[str]  # noqa: F811
        ) -> None:
    base = saved_beside_work(pytester, run)
    faster = pytester.path / "run.json"
    run("130,129,131", 0.0, "--sbc-idle-wait", "0", "--sbc-results", str(faster))
    (path,) = (pytester.path / "bl").glob("*.json")
    for reference, advice in ((base, "record that reference again on a quiet machine"),
                              (path, f"sbcbench baseline restore {path} SESSION")):
        code, out = compare(capsys, reference, faster)
        assert code == 4  # cannot gate: no usable baseline
        (judged,) = out["verdicts"]
        assert judged["status"] == "no-baseline" and judged["evidence"] is None
        assert judged["detail"].startswith("no usable baseline for widget")
        assert advice in judged["detail"]
        assert "quarantined or dropped" in out["summary"]
