"""Issue 24, truth class 4: stress-ng's --metrics-brief table under the ``info:`` tag (releases
before 0.15) as well as ``metrc:`` (captures: see each ``.source.txt``)."""

from __future__ import annotations

import pytest

from helpers import DATA
from pytest_sbcbench.errors import ToolError
from pytest_sbcbench.measure.scaling import parse_stress_ng

INFO_TAG = (DATA / "stress_ng"
            / "stress-ng-0.03.11_docker-arm_cpu4-fork8-hdd1-switch4-vm2_metrics-brief_info-tag.txt")
METRC_TAG = DATA / "this_machine/stress-ng-0.15.06_cpu2_matrixprod_metrics-brief.txt"


def test_old_stress_ng_prints_the_metrics_under_info() -> None:
    """0.03.11 in an ARM docker image: the cpu row among fork, hdd, switch and vm rows."""
    assert parse_stress_ng(INFO_TAG.read_text(), ["stress-ng"]) == 427.40


def test_metrc_tag_still_read() -> None:
    assert parse_stress_ng(METRC_TAG.read_text(), ["stress-ng"]) == 1675.66


def test_info_lines_naming_cpu_are_not_metrics() -> None:
    """``dispatching hogs: 4 cpu`` is an info line with the word cpu but no table row."""
    text = "\n".join(INFO_TAG.read_text().splitlines()[:2])
    with pytest.raises(ToolError, match="no cpu metrics line"):
        parse_stress_ng(text, ["stress-ng"])
