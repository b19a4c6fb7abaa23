"""A metric's clock (issue: on a busy machine the gate never ran): which rates are per second of
the tool's own CPU time, what openssl's own records say of each run, and the one rule that
decides what the work beside a measurement did to it (judge/disturbance.py)."""

from __future__ import annotations

import pytest

from helpers import DATA
from pytest_sbcbench.judge.disturbance import (
    EMULATED_KEY,
    FACTS_KEY,
    contaminating,
    disturbance,
)
from pytest_sbcbench.measure.clocks import (
    THREAD_CPU,
    USER_CPU,
    WALL,
    RunClock,
    clock_of,
    openssl_phases,
    run_clocks,
)
from pytest_sbcbench.model import Identity, Measurement

HERE = DATA / "this_machine"
LOAD = "other processes kept 1.95 CPUs busy beside the benchmark: sh (2 processes) 1.95 CPUs"
BESIDE = {FACTS_KEY: {"load": LOAD, "steal": None, "after": "the host has not gone idle"}}


def test_each_tool_has_its_clock() -> None:
    assert clock_of(Identity.of(tool="openssl", version="3.0.19")) == USER_CPU
    assert clock_of(Identity.of(tool="openssl", clock="wall")) == WALL  # -elapsed, -multi
    assert clock_of(Identity.of(tool="cryptography", clock=THREAD_CPU)) == THREAD_CPU
    assert clock_of(Identity.of(tool="bssl")) == WALL
    assert clock_of(Identity.of(tool="git", commit="abc")) == WALL  # a build's seconds


@pytest.mark.parametrize(("name", "phases"), [
    ("evp-aes-128-gcm_bytes16384", [RunClock(0.99, 1.0)]),
    ("rsa2048", [RunClock(0.99, 1.0), RunClock(1.0, 1.0)]),  # sign (private), verify
    ("ecdsap256", [RunClock(1.0, 1.0), RunClock(0.97, 1.0)]),
    ("evp-sha512_bytes16384_two-busy-loops", [RunClock(0.62, 1.0)]),
])
def test_openssl_says_each_phase_s_cpu_seconds(name: str, phases: list[RunClock]) -> None:
    """Real OpenSSL 3.0.19 stderr: the +R records' user CPU seconds (the rate's divisor)
    beside the seconds the +DT/+DTP record before each asked for."""
    text = (HERE / f"openssl-3.0.19_mr-stderr_{name}.txt").read_text()
    assert openssl_phases(text) == phases
    assert openssl_phases("") == [] and openssl_phases("+R:1:x:0.5\n") == []  # no +DT first


def test_a_run_clock_needs_every_run() -> None:
    runs = [{"cpu_s": 0.5, "wall_s": 1.0}, {"cpu_s": 0.6, "wall_s": 1.0}]
    assert run_clocks({"runs": runs}, 2) == [RunClock(0.5, 1.0), RunClock(0.6, 1.0)]
    assert run_clocks({"runs": runs}, 3) is None  # a run without its clock
    assert run_clocks({"runs": [{"wall_s": 1.0}, {"cpu_s": 0.6, "wall_s": 1.0}]}, 2) is None
    assert run_clocks({"runs": [{"cpu_s": float("nan"), "wall_s": 1.0}]}, 1) is None
    assert run_clocks({}, 1) is None


def measured(identity: Identity, cpu_s: float = 0.5) -> Measurement:
    return Measurement("sha512", "B/s", "higher", identity, (1.0, 1.0),
                       details={"runs": [{"cpu_s": cpu_s, "wall_s": 1.0}] * 2})


CPU = Identity.of(tool="openssl", version="3.0.19")
WALL_TIME = Identity.of(tool="openssl", version="3.0.19", clock="wall")


def test_other_work_invalidates_a_wall_time_rate_and_not_a_cpu_time_one() -> None:
    wall = disturbance(measured(WALL_TIME), BESIDE)
    assert wall.invalid == f"{LOAD}; the host has not gone idle" and wall.note is None
    cpu = disturbance(measured(CPU), BESIDE)
    assert cpu.invalid is None
    assert cpu.note == (f"measured beside other work ({LOAD}); judged per second of openssl's "
                        "own user CPU time, which time-sharing does not move (it had the CPU "
                        "for 50% of each run)")
    assert disturbance(measured(CPU), {}) == disturbance(measured(WALL_TIME), {})  # nothing


def test_a_cpu_time_rate_is_invalid_where_its_own_numbers_say_so() -> None:
    stolen = {FACTS_KEY: {"load": None, "steal": "the hypervisor stole 9.0%", "after": None}}
    assert disturbance(measured(CPU), stolen).invalid == "the hypervisor stole 9.0%"
    coarse = disturbance(measured(CPU, cpu_s=0.12), BESIDE).invalid or ""
    assert coarse.startswith(f"{LOAD}; the tool had the CPU for 0.12 s of a 1 s run (12%): 12 "
                             "ticks of its 0.01 s clock, fewer than the 25")
    emulated = {**BESIDE, EMULATED_KEY: True}
    assert disturbance(measured(CPU), emulated).invalid is not None


def test_a_save_holds_what_disturbs_the_numbers_by_their_clock() -> None:
    found = (("background-load", LOAD), ("steal-time", "stolen"))
    assert contaminating(measured(WALL_TIME), {}, found) == found
    assert contaminating(measured(CPU), {}, found) == (("steal-time", "stolen"),)
    assert contaminating(measured(CPU, cpu_s=0.1), {}, found) == found
    assert contaminating(measured(CPU), {EMULATED_KEY: True}, found) == found
