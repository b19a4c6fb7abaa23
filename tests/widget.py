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
# WIDGET_SECONDS: how long the measurement lasts before it is recorded (default: at once).
WIDGET = """
import os
from pathlib import Path
from pytest_sbcbench.model import Identity, Measurement
""" + MEET + """

def test_widget(sbcbench):
    Path("ran-" + os.environ.get("WIDGET_NAME", "widget")).touch()
    meet()  # concurrent runs: both have loaded the baseline before either saves
    if os.environ.get("WIDGET_SECONDS"):  # a measurement that lasts: the sampler reads it
        import time
        time.sleep(float(os.environ["WIDGET_SECONDS"]))
    samples = tuple(float(x) for x in os.environ["WIDGET_SAMPLES"].split(","))
    identity = Identity.of(tool="widget", version=os.environ.get("WIDGET_VERSION", "1"))
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
