"""The place's ``board`` tag against the board's own identity (pytest_sbcbench/lab.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pytest_sbcbench.errors import BoardError
from pytest_sbcbench.platform.board import builtin_profiles, merge
from pytest_sbcbench.platform.probe import probe
from pytest_sbcbench.platform.sysroot import Sysroot
from pytest_sbcbench.run.lab import board_for_place


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
