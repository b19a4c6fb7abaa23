"""``sbcbench fleet merge``: one fleet report from per-place results files."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from pytest_sbcbench.cli import main

DATA = Path(__file__).parent / "data" / "this_machine"
LOCAL = DATA / "results_crypto-quick_generic-x86_64.json"
LAB = {"executor": "labgrid:main", "place": "sbc-lab-2", "tags": {"board": "lab-sshd",
       "soc": "none"}, "env_file": "env.yaml", "env_digest": "sha256:" + "ab" * 32,
       "kernel_release": "6.18.44-fc-v595", "boot_id": "2c2f08f5-208c-4a70-81fd-4850abb11138"}


def place_results(tmp_path: Path, place: str) -> Path:
    """The real local results file as a labgrid place's job would have written it: the same
    machine reached as place ``place`` (board tag ``lab-sshd``)."""
    doc: dict[str, Any] = json.loads(LOCAL.read_text())
    doc["board"] = "lab-sshd"
    doc["environment"]["lab"] = {**LAB, "place": place}
    out = tmp_path / f"{place}.json"
    out.write_text(json.dumps(doc))
    return out


def lab_profile(baselines: Path) -> None:
    (baselines / "boards").mkdir(parents=True)
    (baselines / "boards" / "lab-sshd.json").write_text(json.dumps({
        "schema": "sbcbench-board/1", "name": "lab-sshd", "title": "sshd lab board",
        "soc": "none", "arch": "x86_64", "clusters": [{"cores": 2, "core": "lab core"}]}))


def test_merge_two_places(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lab_profile(tmp_path / "baselines")
    placed = place_results(tmp_path, "sbc-lab-2")
    out = tmp_path / "fleet"
    code = main(["fleet", "merge", str(LOCAL), str(placed), "--out", str(out),
                 "--baselines", str(tmp_path / "baselines")])
    printed = capsys.readouterr().out
    assert code == 0
    assert (out / "report.md").read_text() == printed
    lines = printed.splitlines()
    assert lines[0] == "# Fleet report"
    assert "| sbc-lab-2 | lab-sshd | board=lab-sshd soc=none | 6.18.44-fc-v595 | " \
           "2c2f08f5-208c-4a70-81fd-4850abb11138 | sha256:abababababab | sbc-lab-2.json |" \
           in lines
    assert f"| - | generic-x86_64 | - | {json.loads(LOCAL.read_text())['environment']['kernel']}" \
           in printed
    # both places' 12 results ranked against each other (same identity, two machines)
    assert "24 results from 2 machines" in printed
    sha256 = printed.index("sha256")
    assert "lab-sshd" in printed[sha256:] and "generic-x86_64" in printed[sha256:]


def test_one_place_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = place_results(tmp_path, "sbc-lab-2")
    again = tmp_path / "again.json"
    again.write_text(first.read_text())
    assert main(["fleet", "merge", str(first), str(again)]) == 2
    assert "place sbc-lab-2 is in both" in capsys.readouterr().err
    assert os.path.exists(again)
