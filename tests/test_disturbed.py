"""A measurement disturbed by other work: waited out, re-measured, else ``invalid`` (issue 28
item 6); and the run's idle waits, which stop after one expires (issue 31 item 13).

The machine, the clock and the sleep are scripted (:class:`test_background.Box`): what the
"other process" does during each wait and each measurement is exact."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from scripted import BASELINE, SLOWER, TEST, Scripted, star64_session
from test_background import Box

from helpers import listing_settings
from pytest_sbcbench.judge.verdict import JudgeContext, disturbed_verdict, failure_message
from pytest_sbcbench.measure.sampler import Sampler
from pytest_sbcbench.model import Finding, Identity, Measurement, Result, Status, Verdict
from pytest_sbcbench.run.gate import undecided
from pytest_sbcbench.run.preflight import Preflight
from pytest_sbcbench.run.quiet import Quiet
from pytest_sbcbench.run.recorder import Recorder
from pytest_sbcbench.run.target import RunTarget, local
from pytest_sbcbench.run.trial import Trial


def target(box: Box, idle_wait: float = 2.0) -> RunTarget:
    """This machine's settings (so the host checks run) over the scripted box."""
    import dataclasses

    settings = dataclasses.replace(listing_settings(Path("/"), quick=True),
                                   idle_wait_given=idle_wait)
    return local(settings).replace(host=box.host())


def recorder(box: Box, during_wait: dict[str, float]
             ) -> tuple[Recorder, Sampler, list[str]]:
    """A recorder, the box's sampler watching its test (what the test's trial hands
    ``measure``), the run's notes; each scripted sleep lets ``during_wait`` run."""
    notes: list[str] = []
    rec = Recorder(notes)
    rec.quiet.clock = box.clock
    rec.quiet.sleep = lambda s: box.step(seconds=s, **during_wait)
    sampler = box.sampler()
    sampler.start(background=False)
    return rec, sampler, notes


def measuring(box: Box, sampler: Sampler, *loads: dict[str, float]
              ) -> Callable[[], list[Measurement]]:
    """A measurement per call: two sampled intervals under the next of ``loads``."""
    left = list(loads)

    def sampled() -> list[Measurement]:
        load = left.pop(0)
        for _ in range(2):
            box.step(**load)
            sampler.read()
        return [Measurement(f"m{len(loads) - len(left)}", "op/s", "higher", Identity.of(),
                            (1.0,))]
    return sampled


def test_a_neighbour_that_leaves_is_waited_out_and_re_measured(tmp_path: Path) -> None:
    box = Box(tmp_path)
    rec, sampler, notes = recorder(box, during_wait={})
    sampled = measuring(box, sampler, {"bench": 1.0, "loop": 1.0}, {"bench": 1.0})
    taken = rec._undisturbed(target(box), "t", sampled, sampler)
    assert [m.metric for m in taken] == ["m2"]  # the re-measure's
    assert rec.disturbed == {} and notes == []
    (window,) = rec.windows["t"]
    assert window.outside() is None


def test_a_neighbour_that_stays_makes_the_test_disturbed(tmp_path: Path) -> None:
    """The loop keeps running through the whole 2 s wait: nothing is re-measured, the test
    is disturbed naming the loop, and the run says once that the host never went idle."""
    box = Box(tmp_path)
    rec, sampler, notes = recorder(box, during_wait={"loop": 1.0})
    sampled = measuring(box, sampler, {"bench": 1.0, "loop": 1.0}, {"bench": 1.0, "loop": 1.0})
    assert [m.metric for m in rec._undisturbed(target(box), "t", sampled, sampler)] == ["m1"]
    assert "busy-loop (pid 4242) 1.00 CPUs" in str(rec.disturbed["t"]["load"])
    assert rec.disturbed["t"]["after"] == "the host did not settle within 2 s, so nothing was " \
                                          "re-measured"
    assert notes == ["the host never went idle: the idle wait expired after 2.0 s (its "
                     "background-load finding says who ran); later tests of this run start "
                     "without waiting for it (--sbc-idle-wait)"]
    before = box.now
    rec._undisturbed(target(box), "u", sampled, sampler)  # a later test: no wait
    assert box.now - before <= 2 * 1.0 + 0.25  # its own two intervals and one scan step
    assert "has not gone idle in this run" in str(rec.disturbed["u"]["after"])
    assert len(notes) == 1


def test_a_neighbour_back_for_the_re_measure(tmp_path: Path) -> None:
    box = Box(tmp_path)
    rec, sampler, _ = recorder(box, during_wait={})
    sampled = measuring(box, sampler, {"bench": 1.0, "loop": 1.0}, {"bench": 1.0, "loop": 0.8})
    rec._undisturbed(target(box), "t", sampled, sampler)
    assert "busy-loop (pid 4242) 0.80 CPUs" in str(rec.disturbed["t"]["load"])
    assert rec.disturbed["t"]["after"] == "still after the host settled and the test re-measured"


def test_kernel_threads_are_not_waited_out(tmp_path: Path) -> None:
    box = Box(tmp_path)
    rec, sampler, _ = recorder(box, during_wait={})
    sampled = measuring(box, sampler, {"bench": 1.0, "kworker": 1.0}, {"bench": 1.0})
    assert [m.metric for m in rec._undisturbed(target(box), "t", sampled, sampler)] == ["m1"]
    assert rec.disturbed == {} and rec.windows["t"][0].kernel() is not None


def test_no_idle_wait_no_host_checks(tmp_path: Path) -> None:
    box = Box(tmp_path)
    rec, sampler, _ = recorder(box, during_wait={})
    sampled = measuring(box, sampler, {"bench": 1.0, "loop": 1.0})
    rec._undisturbed(target(box, idle_wait=0.0), "t", sampled, sampler)
    assert rec.disturbed == {} and rec.windows == {}


def test_the_idle_gate_stops_waiting_after_it_expired_once(tmp_path: Path) -> None:
    """Issue 31 item 13: the first test waits its 2 s and the run says so once; later tests
    start at once (the clock does not move) and nothing more is said."""
    box = Box(tmp_path)
    notes: list[str] = []
    quiet = Quiet(notes, clock=box.clock, sleep=lambda s: box.step(seconds=s, loop=1.5))
    settings = target(box).settings
    first = quiet.before_test(settings, box.host())
    assert first is not None and first.kind == "background-load"
    assert box.now == 2.0
    for _ in range(3):
        assert quiet.before_test(settings, box.host()) is None
        assert not quiet.settle(settings, box.host())
    assert box.now == 2.0 and len(notes) == 1
    assert "later tests of this run start without waiting" in notes[0]


def test_a_settled_host_keeps_its_waits(tmp_path: Path) -> None:
    box = Box(tmp_path)
    quiet = Quiet([], clock=box.clock, sleep=lambda s: box.step(seconds=s))
    settings = target(box).settings
    assert quiet.before_test(settings, box.host()) is None
    assert quiet.settle(settings, box.host()) and quiet.busy is None
    assert box.now == 0.5  # two looks of 0.25 s


def short_run(tmp_path: Path, load: float) -> Result:
    """A 20% slower scripted sha256 (a regression on a quiet machine) measured in no sampler
    time at all, after twelve sampled intervals of ``load`` CPUs of the busy loop (which stays
    through the settle wait); its verdict."""
    box = Box(tmp_path / "box")
    rec, sampler, _ = recorder(box, during_wait={"loop": load})
    for _ in range(12):
        box.step(loop=load)
        sampler.read()
    run = star64_session(tmp_path)
    rec.begin(JudgeContext(run.board.name, run.board, BASELINE, run.lookup.machine,
                           n_metrics=1))
    here, work = target(box), Scripted(SLOWER)
    rec.measure(here, TEST, work, rec.context(here, work), watching=sampler)
    published: list[Result] = []
    Trial(TEST, rec, here, Preflight()).verdicts(None, [], published.append)
    (result,) = published
    return result


def test_a_run_shorter_than_an_interval_beside_load_is_invalid(tmp_path: Path) -> None:
    """The measurement's window holds no interval of its own: it is read over the one before
    it, which shows the loop; no scan covered it, so the load is not attributed, and the
    verdict is invalid, never the regression."""
    result = short_run(tmp_path, load=1.0)
    assert result.verdict.status == "invalid"
    assert "would have been regression" in result.verdict.detail
    assert ("1.00 CPUs busy beside the benchmark (over the readings from" in result.verdict.detail
            and "not attributed" in result.verdict.detail)


def test_a_run_shorter_than_an_interval_on_a_quiet_machine_is_judged(tmp_path: Path) -> None:
    assert short_run(tmp_path, load=0.1).verdict.status == "regression"


@pytest.mark.parametrize("status", ["regression", "pass", "improvement", "inconclusive"])
def test_a_disturbed_verdict_is_invalid_never_a_regression(status: Status) -> None:
    verdict = disturbed_verdict(Verdict(status, "x"), "other processes kept 1.00 CPUs busy")
    assert verdict.status == "invalid"
    assert verdict.detail.startswith("disturbed by other work: other processes kept 1.00 CPUs")
    assert f"would have been {status}" in verdict.detail
    assert (failure_message(verdict, [], False) or "").startswith("invalid run: disturbed")
    assert failure_message(verdict, [], False, gate=True) is None


@pytest.mark.parametrize("status", ["no-baseline", "incomparable", "implausible"])
def test_what_no_load_explains_stands(status: Status) -> None:
    assert disturbed_verdict(Verdict(status, "x"), "steal").status == status


def test_a_regression_beside_kernel_threads_names_them() -> None:
    found = [Finding("kernel-threads", "kernel threads kept 1.00 CPUs busy beside the "
                                       "benchmark: kworker/u4:2 (pid 90) 1.00 CPUs")]
    message = failure_message(Verdict("regression", "widget: -20%"), found, False) or ""
    assert message.startswith("regression: widget: -20% (kernel threads kept 1.00 CPUs")
    assert "kworker/u4:2 (pid 90)" in message


def test_invalid_is_undecided_in_gate_mode() -> None:
    from pytest_sbcbench.judge.stats import summarize
    from pytest_sbcbench.model import Result

    m = Measurement("sha512", "B/s", "higher", Identity.of(), (1.0, 2.0))
    result = Result("t", m, summarize(m.samples), Verdict("invalid", "disturbed"), {})
    line = undecided([result]) or ""
    assert "exit 6" in line and f"{m.display_name} (invalid)" in line
