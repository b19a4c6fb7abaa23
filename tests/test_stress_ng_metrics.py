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


SYSLOG = DATA / "stress_ng" / "stress-ng-0.15.06_syslog-socket_cpu1_matrixprod_metrics-brief.txt"
JOURNAL = DATA / "constructed" / "stress-ng-0.15.06_journalctl-and-syslog-file_metrics-brief.txt"


def test_the_syslog_datagrams_of_a_run_are_read() -> None:
    """``--syslog``: ``<14>Dec  1 22:08:03 stress-ng: metrc: [19170] cpu ...`` as stress-ng
    sent it to /dev/log (this machine): the same 188.60 its stderr printed."""
    assert parse_stress_ng(SYSLOG.read_text(), ["stress-ng"]) == 188.60


@pytest.mark.parametrize("line", [JOURNAL.read_text().splitlines()[i] for i in (3, 5, 6)])
def test_journald_and_syslog_file_prefixes_are_read(line: str) -> None:
    """journalctl's ``Dec 01 22:08:03 vm stress-ng[19170]:``, its ``-o short-iso`` time and a
    syslog file's ``Dec  1 22:08:03 vm stress-ng:`` in front of the metrics row."""
    assert parse_stress_ng(line + "\n", ["stress-ng"]) == 188.60


def test_the_whole_journal_excerpt_gives_the_cpu_row() -> None:
    assert parse_stress_ng(JOURNAL.read_text(), ["stress-ng"]) == 188.60


def test_a_prefixed_line_of_another_program_is_not_stress_ngs() -> None:
    line = JOURNAL.read_text().splitlines()[3].replace("stress-ng[19170]", "kernel")
    with pytest.raises(ToolError, match="no cpu metrics line"):
        parse_stress_ng(line, ["stress-ng"])
