"""The place's ``board`` tag against the board's own identity (pytest_sbcbench/lab.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from helpers import listing_settings, star64_tree
from pytest_sbcbench.errors import BoardError
from pytest_sbcbench.platform.board import builtin_profiles, merge
from pytest_sbcbench.platform.probe import probe
from pytest_sbcbench.platform.sysroot import Sysroot
from pytest_sbcbench.run.lab import board_for_place
from pytest_sbcbench.run.target import BoardLookup
from pytest_sbcbench.settings import Settings


def test_tag_naming_the_detected_board(star64: Path) -> None:
    profiles = merge(builtin_profiles())
    assert board_for_place("star64", probe(Sysroot(star64)), profiles).name == "star64"


def test_tag_contradicting_the_board_is_refused(star64: Path) -> None:
    profiles = merge(builtin_profiles())
    with pytest.raises(BoardError, match="board=rpi5 contradicts the board itself: it "
                                         "identifies as 'star64'"):
        board_for_place("rpi5", probe(Sysroot(star64)), profiles)


def test_unknown_tag_is_refused(star64: Path) -> None:
    with pytest.raises(BoardError, match=r"board=lab-x names no board profile.*"
                                         r"<baselines>/boards/lab-x.json"):
        board_for_place("lab-x", probe(Sysroot(star64)), merge(builtin_profiles()))


def test_an_unrecognised_board_takes_the_lab_word(star64: Path) -> None:
    """A board that cannot name itself (no device-tree model, no DMI) is what the tag says."""
    anonymous = dataclasses.replace(probe(Sysroot(star64)), board_model=None, compatible=(),
                                    dmi_product=None)
    assert board_for_place("star64", anonymous, merge(builtin_profiles())).name == "star64"


def test_a_board_that_cannot_be_resolved_is_refused_once_with_the_same_reason(
        tmp_path: Path) -> None:
    """Every test asks its trial's board (the session's lookup): a mismatch is found once, and
    later asks raise the same reason without probing or reading the profiles again."""
    settings = dataclasses.replace(listing_settings(star64_tree(tmp_path / "t"), False),
                                   board="rpi5")
    asked: list[int] = []

    def current() -> Settings:
        asked.append(1)
        return settings
    lookup = BoardLookup(current, list)
    reasons = []
    for _ in range(3):
        with pytest.raises(BoardError, match="star64") as caught:
            _ = lookup.board
        reasons.append(str(caught.value))
    assert len(set(reasons)) == 1 and len(asked) == 3  # probe, resolve, profiles: once each
