"""``sbcbench fleet run``'s exit code: each place's pytest exit in the gate's contract and the
fleet's as the worst by the documented order (2 > 1 > 4 > 6 > 0); its command line."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from pytest_sbcbench.cli import main, parser
from pytest_sbcbench.run.fleet import PlaceRun, tally
from pytest_sbcbench.run.fleet_exit import WORST_FIRST, fleet_code, place_code


@pytest.mark.parametrize(("returncode", "code"), [
    (0, 0), (1, 1), (2, 2), (4, 4), (6, 6),  # the gate's own codes stay
    (5, 4),  # no tests collected: nothing was gated
    (3, 2), (-2, 2), (-9, 2), (7, 2), (127, 2),  # internal error, signals, anything else
])
def test_place_code(returncode: int, code: int) -> None:
    assert place_code(returncode) == code


@pytest.mark.parametrize(("codes", "fleet"), [
    ([0, 0], 0), ([0, 6], 6), ([6, 4], 4), ([4, 1], 1), ([1, 2], 2), ([0, 1, 6, 4], 1),
    ([0, 5], 4), ([0, 3], 2), ([], 4),
])
def test_fleet_code_is_the_worst(codes: list[int], fleet: int) -> None:
    assert fleet_code(codes) == fleet


def test_order_is_total_and_symmetric() -> None:
    """Every pair of contract codes merges to the earlier one in WORST_FIRST, in either
    order: a regression is never hidden by a place that could not gate or stayed undecided."""
    for a, b in itertools.product(WORST_FIRST, repeat=2):
        assert fleet_code([a, b]) == fleet_code([b, a]) == WORST_FIRST[
            min(WORST_FIRST.index(a), WORST_FIRST.index(b))]
    assert WORST_FIRST == (2, 1, 4, 6, 0)


def test_tally_lines() -> None:
    runs = [PlaceRun("board=a", place="p1", code=0, why="1 passed in 3.00s"),
            PlaceRun("board=b", place="p2", code=1, why="1 failed in 3.00s"),
            PlaceRun("board=c", code=4, why="not reserved within 5 s")]
    shown, code = tally(runs, interrupted=False)
    assert code == 1
    assert shown.splitlines() == [
        "place p1 [board=a]: exit 0 (no regression): 1 passed in 3.00s",
        "place p2 [board=b]: exit 1 (regression): 1 failed in 3.00s",
        "[board=c]: exit 4 (cannot gate): not reserved within 5 s",
        "fleet: 3 places, exit 1 (regression) (worst of 0, 1, 4; order 2 > 1 > 4 > 6 > 0)"]
    assert tally(runs, interrupted=True)[1] == 2


def test_command_line_passes_pytest_args_untouched() -> None:
    args = parser().parse_args(["fleet", "run", "--places", "board=a", "board=b,soc=x",
                                "--reserve-timeout", "30", "--", "benchmarks/", "-k", "sha",
                                "--sbc-history", "postgresql://h/db", "--places", "x"])
    assert args.places == ["board=a", "board=b,soc=x"] and args.reserve_timeout == 30
    assert args.pytest_args == ["benchmarks/", "-k", "sha", "--sbc-history",
                                "postgresql://h/db", "--places", "x"]


@pytest.mark.parametrize("bad", [["--places", "board"], ["--places", "Board=a"],
                                 ["--places", "board=a", "--reserve-timeout", "0"], []])
def test_command_line_refuses(bad: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        parser().parse_args(["fleet", "run", *bad])
    assert stop.value.code == 2 and "fleet run" in capsys.readouterr().err


def test_fleet_merge_still_parses() -> None:
    args = parser().parse_args(["fleet", "merge", "a.json", "b.json"])
    assert args.fleet_command == "merge" and len(args.results) == 2


def test_no_environment_file_reserves_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Checked before any reservation: no env file at all, or one that does not exist, is 4."""
    monkeypatch.delenv("LG_ENV", raising=False)
    assert main(["fleet", "run", "--places", "board=a", "--", "-k", "x"]) == 4
    assert "give --lg-env ENV or set LG_ENV" in capsys.readouterr().err
    missing = tmp_path / "env.yaml"
    assert main(["fleet", "run", "--places", "board=a", "--lg-env", str(missing)]) == 4
    assert f"environment file {missing} not found" in capsys.readouterr().err
