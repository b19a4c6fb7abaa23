"""The widget: a pytester test that records scripted samples through ``sbcbench.record``, for
tests of what a run does with its results (baselines, output files, interrupts).  The
``widget`` fixture (``conftest.py``) writes it and runs pytest over it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from interrupting import MEET

# WIDGET_SAMPLES: the samples; WIDGET_VERSION: the identity's version (another one is
# incomparable); WIDGET_NAME: the file ``ran-<name>`` it touches, proof that it ran;
# WIDGET_AWAIT_LOAD: before recording, wait until the test's sampler has read and attributed
# a load beside it (a condition of the sampler, not a time: tests/test_loaded_host.py).  The
# samples are recorded at once, a measurement shorter than any sampler interval.
# WIDGET_CLOCK: the identity's clock (``user-cpu``: a rate per second of the tool's own CPU
# time, which other work beside it does not move; default: wall time).
WIDGET = """
import os
from pathlib import Path
from pytest_sbcbench.model import Identity, Measurement
""" + MEET + """

def test_widget(sbcbench, request):
    Path("ran-" + os.environ.get("WIDGET_NAME", "widget")).touch()
    meet()  # concurrent runs: both have loaded the baseline before either saves
    if os.environ.get("WIDGET_AWAIT_LOAD"):
        from pytest_sbcbench.plugin.state import trial_of
        sampler = trial_of(request.node).watching
        assert sampler.wait_for(lambda s: bool(s.background.attributions), 120)
    samples = tuple(float(x) for x in os.environ["WIDGET_SAMPLES"].split(","))
    clock = {"clock": os.environ["WIDGET_CLOCK"]} if os.environ.get("WIDGET_CLOCK") else {}
    identity = Identity.of(tool="widget", version=os.environ.get("WIDGET_VERSION", "1"),
                           **clock)
    sbcbench.record(Measurement("widget", "op/s", "higher", identity, samples))
"""


def baseline_file(pytester: pytest.Pytester) -> Path:
    """The one baseline the widget's runs saved under ``bl/``."""
    (found,) = (pytester.path / "bl").glob("*.json")
    return found


def sessions(path: Path) -> list[list[float]]:
    """The samples of every session saved in the baseline ``path``."""
    doc = json.loads(path.read_text())
    return [s["samples"] for e in doc["entries"] for s in e["sessions"]]
