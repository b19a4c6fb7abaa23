"""Change points across labels (``judge/changes.py``) on series drawn with known steps, and the
history commands (``sbcbench history show|changes|triage``) on a history written through the
store's own writer."""

from __future__ import annotations

import contextlib
import io
import json
import math
import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from history_docs import build

from pytest_sbcbench.cli import main
from pytest_sbcbench.judge import changes, history_read
from pytest_sbcbench.judge.boot_test import BootSession
from pytest_sbcbench.judge.history_read import BoardHistory, LabelPoint, MetricHistory

pytest.importorskip("otava", reason="needs Apache Otava (pip install 'pytest-sbcbench[history]')")


def series(name: str, levels: Sequence[float], rng: random.Random, boots: int = 3,
           cv: float = 0.005) -> MetricHistory:
    points = tuple(
        LabelPoint(f"L{j:02d}", tuple(
            BootSession(tuple(lv * (1 + rng.gauss(0, cv)) for _ in range(3)), f"L{j:02d}-{b}")
            for b in range(boots)), (("pass", boots),), ())
        for j, lv in enumerate(levels))
    return MetricHistory("b", name, name, "B/s", "higher", points)


def board(*metrics: MetricHistory) -> BoardHistory:
    return BoardHistory("b", metrics[0].labels, metrics)


def test_a_step_is_confirmed_at_its_first_label_and_flat_metrics_give_nothing() -> None:
    rng = random.Random(3)
    stepped = series("sha512", [100.0] * 8 + [95.0] * 4, rng)
    flat = [series(f"m{i}", [100.0] * 12, rng) for i in range(3)]
    found = changes.board_incidents(board(stepped, *flat))
    assert [(i.id, i.first_bad, i.last_good, i.metrics) for i in found] == [
        ("b@L08", "L08", "L07", ("sha512",))]
    (step,) = found[0].steps
    assert step.direction == "regression" and step.confirmed
    assert step.ci_pct[0] < -5.0 < step.ci_pct[1] < 0
    assert (step.before_labels, step.after_labels, step.after_boots) == (8, 4, 12)


def test_a_proposal_in_noise_is_not_confirmed_by_the_boot_test() -> None:
    """The proposer only proposes: a split where nothing changed fails the boot test."""
    rng = random.Random(4)
    flat = series("m", [100.0] * 12, rng)
    steps = changes.board_steps(board(flat), propose=lambda values: [6])
    assert len(steps) == 1 and not steps[0].confirmed
    assert steps[0].adjusted_p == pytest.approx(min(1.0, steps[0].p_value * 12))


def test_three_labels_a_side_are_needed() -> None:
    rng = random.Random(5)
    late = series("m", [100.0] * 10 + [90.0] * 2, rng)
    assert changes.board_incidents(board(late)) == []
    assert changes.board_steps(board(late), propose=lambda values: [10]) == []


def test_steps_of_two_metrics_at_the_same_label_are_one_incident_and_holm_covers_both(
        ) -> None:
    rng = random.Random(6)
    a = series("sha256", [100.0] * 9 + [96.0] * 5, rng)
    b = series("sha512", [100.0] * 9 + [104.0] * 5, rng)
    far = series("aes", [100.0] * 4 + [95.0] * 10, rng)
    found = changes.board_incidents(board(a, b, far))
    assert [(i.first_bad, i.metrics) for i in found] == [("L04", ("aes",)),
                                                        ("L09", ("sha256", "sha512"))]
    directions = {s.metric: s.direction for s in found[1].steps}
    assert directions == {"sha256": "regression", "sha512": "improvement"}
    # a stricter family rate than any p-value leaves nothing
    assert not any(s.confirmed for s in changes.board_steps(board(a, b, far), rate=1e-300))


def test_boot_means_not_runs_are_the_replicates() -> None:
    """The same runs with a big boot-to-boot spread: a 1% step hides in it."""
    rng = random.Random(7)
    levels = [100.0] * 8 + [99.0] * 6
    drifting = tuple(
        LabelPoint(f"L{j:02d}", tuple(
            BootSession(tuple(lv * off * (1 + rng.gauss(0, 0.001)) for _ in range(6)),
                        f"L{j:02d}-{b}")
            for b, off in enumerate(1 + rng.gauss(0, 0.02) for _ in range(3))), (), ())
        for j, lv in enumerate(levels))
    noisy = MetricHistory("b", "m", "m", "B/s", "higher", drifting)
    assert not any(s.confirmed for s in changes.board_steps(
        board(noisy), propose=lambda values: [8]))


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(argv))
    return code, out.getvalue()


def test_history_show_changes_and_triage(tmp_path: Path) -> None:
    build(tmp_path / "history.sqlite", slower={"sha512": 8})
    base = ("--baselines", str(tmp_path))
    code, text = run("history", "changes", *base)
    assert code == 0
    assert text.splitlines()[0] == ("star64@L08  [open]  star64: first bad label L08, last "
                                    "good label L07, 1 metric")
    code, text = run("history", "changes", "--json", *base)
    doc: dict[str, Any] = json.loads(text)
    (incident,) = doc["incidents"]
    assert incident["id"] == "star64@L08" and incident["state"] == "open"
    (step,) = incident["metrics"]
    assert step["metric"] == "sha512" and step["direction"] == "regression"
    assert math.isclose(step["change_pct"], -5.0, abs_tol=0.6)

    code, text = run("history", "show", "-k", "sha512", "--json", *base)
    shown = json.loads(text)
    assert [lv["label"] for lv in shown["labels"]] == [f"L{j:02d}" for j in range(1, 13)]
    assert all(lv["boots"] == 3 and lv["verdicts"] == {"pass": 3} for lv in shown["labels"])
    assert shown["labels"][7]["mean"] < 0.97 * shown["labels"][6]["mean"]
    low, high = shown["labels"][0]["interval"]
    assert low < shown["labels"][0]["mean"] < high
    code, text = run("history", "show", "star64", "-k", "sha512", *base)
    assert "<- star64@L08 (open)" in text.splitlines()[8]

    assert run("history", *base, "triage", "star64@L08", "--state", "acknowledged")[0] == 0
    assert run("history", "triage", "star64@L08", "--state", "fixed", *base)[0] == 0
    code, text = run("history", "changes", *base)
    assert "star64@L08  [fixed]" in text and "(0 open)" in text
    with sqlite3.connect(tmp_path / "history.sqlite") as db:  # append-only: both states kept
        states = db.execute("SELECT state FROM incident_triage ORDER BY id").fetchall()
    assert states == [("acknowledged",), ("fixed",)]
    assert history_read.read_triage(tmp_path / "history.sqlite")["star64@L08"][0] == "fixed"


def test_history_commands_refuse_what_is_not_there(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    base = ("--baselines", str(tmp_path))
    assert main(["history", "changes", *base]) == 2
    assert "no such file" in capsys.readouterr().err
    build(tmp_path / "history.sqlite", labels=6)
    build(tmp_path / "history.sqlite", board="rpi5", labels=6)
    assert main(["history", "show", *base]) == 2
    assert "holds 2 boards (rpi5, star64): name one" in capsys.readouterr().err
    assert main(["history", "show", "star64", "-k", "nope", *base]) == 2
    assert "no metric 'nope' on star64" in capsys.readouterr().err
    assert main(["history", "triage", "star64@L03", "--state", "fixed", *base]) == 2
    assert "no incident 'star64@L03'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["history", "triage", "star64@L03", "--state", "closed", *base])


def test_history_show_draws_a_chart(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="needs the plot extra")
    build(tmp_path / "history.sqlite", slower={"sha512": 8})
    code, _ = run("history", "show", "-k", "sha512", "--out", str(tmp_path / "c"),
                  "--baselines", str(tmp_path))
    assert code == 0
    png = (tmp_path / "c" / "star64-sha512.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000
    svg = (tmp_path / "c" / "star64-sha512.svg").read_text()
    assert "star64@L08 (open)" in svg


def test_without_otava_the_commands_say_how_to_install_it(tmp_path: Path) -> None:
    """A Python where ``import otava`` fails (the module blocked in a fresh interpreter)."""
    import subprocess
    import sys

    build(tmp_path / "history.sqlite", labels=6)
    code = ("import sys; sys.modules['otava'] = None; from pytest_sbcbench.cli import main; "
            f"sys.exit(main(['history', 'changes', '--baselines', {str(tmp_path)!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 2
    assert "pip install 'pytest-sbcbench[history]'" in done.stderr


def test_publish_writes_the_index_a_page_per_board_and_an_atom_feed(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    build(tmp_path / "history.sqlite", slower={"sha512": 8})
    assert run("publish", str(tmp_path / "site"), "--baselines", str(tmp_path))[0] == 0
    index = (tmp_path / "site" / "index.html").read_text()
    assert 'href="boards/star64.html#star64@L08"' in index and "1 open incident" in index
    page = (tmp_path / "site" / "boards" / "star64.html").read_text()
    assert page.count('<svg class="chart"') == 4 and page.count('class="incident"') == 1
    atom = "{http://www.w3.org/2005/Atom}"
    (entry,) = ET.parse(tmp_path / "site" / "feed.xml").getroot().iter(f"{atom}entry")
    assert entry.findtext(f"{atom}id") == "tag:pytest-sbcbench,2026:incident:star64@L08"
    assert entry.findtext(f"{atom}updated") == "2026-12-01T08:01:00+00:00"  # L08's first boot
    link = entry.find(f"{atom}link")
    assert link is not None and link.get("href") == "boards/star64.html#star64@L08"
    assert "sha512 -5" in (entry.findtext(f"{atom}summary") or "")
