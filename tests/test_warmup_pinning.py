"""A first run the data show to be a warm-up is dropped by a rule, recorded and said; a
single-threaded tool is pinned to one CPU through the executor where the board allows."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from scripted import Scripted, star64_session

from pytest_sbcbench.judge.warmup import KEY, finding, slow_first, without_warmup
from pytest_sbcbench.model import Identity, Measurement
from pytest_sbcbench.run.loop import never_more, take_samples
from pytest_sbcbench.workloads.pinning import Pin, choose, fastest

IDENTITY = Identity.of(tool="openssl", version="3.0.19")


def measured(*samples: float, better: str = "higher") -> Measurement:
    runs = [{"cpu_s": 1.0 - i / 100, "wall_s": 1.0} for i in range(len(samples))]
    return Measurement("sha512", "B/s", better, IDENTITY, samples,  # type: ignore[arg-type]
                       details={"runs": runs})


def test_a_first_run_far_below_the_others_is_dropped_and_kept_aside() -> None:
    m = measured(900.0, 1000.0, 1001.0, 999.0, 1000.5)
    trimmed = without_warmup(m)
    assert trimmed.samples == (1000.0, 1001.0, 999.0, 1000.5)
    dropped = trimmed.details[KEY]
    assert dropped["value"] == 900.0 and dropped["run"] == {"cpu_s": 1.0, "wall_s": 1.0}
    assert len(trimmed.details["runs"]) == 4
    assert dropped["why"].startswith("run 1 was 10.0% slower than the mean of the other 4 "
                                     "runs, beyond the 99% prediction bound")
    said = finding(trimmed)
    assert said is not None and said.kind == "warm-up"
    assert said.detail.startswith("sha512: run 1 was 10.0% slower")


@pytest.mark.parametrize("samples", [
    (1000.0, 900.0, 1001.0, 999.0),  # a slow run that is not the first
    (995.0, 1000.0, 990.0, 1005.0),  # first, within the others' spread
    (900.0, 1000.0),  # one other run: nothing to tell it by
    (1100.0, 1000.0, 1001.0, 999.0),  # faster, not slower
])
def test_what_the_data_do_not_show_stays(samples: tuple[float, ...]) -> None:
    m = measured(*samples)
    assert slow_first(m) is None and without_warmup(m) is m and finding(m) is None


def test_slower_is_the_metric_s_worse_way() -> None:
    """A build's seconds: a first build that took longer is the slow one."""
    assert slow_first(measured(110.0, 100.0, 100.1, 99.9, better="lower")) is not None
    assert slow_first(measured(90.0, 100.0, 100.1, 99.9, better="lower")) is None


@pytest.mark.parametrize("runs", [3, 4, 6])
def test_a_run_like_the_others_is_dropped_at_most_1_percent_of_the_time(runs: int) -> None:
    """Normal runs, none a warm-up: the rule's one-sided 99% bound drops the first of them
    about 1% of the time whatever their noise (seeded draws, not a timing)."""
    rng = random.Random(40 + runs)
    trials = 4000
    dropped = sum(slow_first(measured(*(1000.0 * math.exp(rng.gauss(0.0, 0.02))
                                        for _ in range(runs)))) is not None
                  for _ in range(trials))
    assert dropped / trials <= 0.015


def test_the_loop_replaces_a_dropped_run_within_the_budget(tmp_path: Path) -> None:
    """Three runs planned, the first a warm-up: a fourth is taken, and the metric has its
    three runs."""
    work = Scripted([700.0, 1000.0, 1000.5, 999.5])
    ctx = star64_session(tmp_path).context(work)
    (handle,) = take_samples("t::x", work, ctx, never_more, 6)
    assert handle.measurement.samples == (1000.0, 1000.5, 999.5)
    assert handle.measurement.details[KEY]["value"] == 700.0


def test_the_fastest_cpu_is_chosen_the_highest_numbered_among_equals() -> None:
    assert fastest((0, 1, 2, 3), {}) == 3
    assert fastest((0, 1, 4, 5), {0: 1_800_000, 1: 1_800_000, 4: 2_400_000, 5: 2_400_000}) == 5
    assert fastest((0, 1), {0: 2_000_000}) == 0


def test_a_captured_tree_is_not_pinned_and_says_why(tmp_path: Path) -> None:
    work = Scripted([1.0])
    ctx = star64_session(tmp_path).context(work)
    assert choose(ctx) == Pin((), None, "a captured tree: its CPUs are not this machine's")
    assert choose(ctx).as_dict() == {"cpu": None,
                                     "why": "a captured tree: its CPUs are not this machine's"}
    assert Pin(("/usr/bin/taskset", "-c", "1"), 1).as_dict() == {"cpu": 1,
                                                                 "how": "taskset -c 1"}
