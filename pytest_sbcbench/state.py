"""Run state of one pytest session, kept in ``config.stash``."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from typing import TextIO

import pytest

from .errors import SbcBenchError
from .judge.baseline import Baseline
from .judge.validity import Finding
from .measure.governor import GovernorGuard
from .measure.realclock import ClockReading
from .measure.syschecks import SystemChecks
from .model import Result
from .platform import board as boards
from .platform.probe import Probe, probe
from .settings import Settings


@dataclass
class RunState:
    """Mutable per-session state; created in ``pytest_configure``."""

    settings: Settings
    extra_profiles: list[boards.BoardProfile]
    created: str = field(
        default_factory=lambda: _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"))
    results: list[Result] = field(default_factory=list)
    tools: dict[str, str | None] = field(default_factory=dict)
    pending: dict[str, list[Result]] = field(default_factory=dict)
    findings: list[tuple[str, Finding]] = field(default_factory=list)
    session_findings: list[Finding] = field(default_factory=list)
    unavailable: dict[str, str] = field(default_factory=dict)
    governor: GovernorGuard | None = None
    system_checks: SystemChecks | None = None
    real_clock: dict[str, list[ClockReading]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    started: bool = False
    baseline: Baseline | None = None
    terminal: TextIO | None = None
    _probe: Probe | None = None
    _board: boards.BoardProfile | None = None

    @property
    def probe(self) -> Probe:
        if self._probe is None:
            self._probe = probe(self.settings.sysroot)
        return self._probe

    def profiles(self) -> dict[str, boards.BoardProfile]:
        """Built-in, then ``<baselines>/boards``, then hook-contributed profiles."""
        return boards.known_profiles(self.settings.baselines, self.extra_profiles)

    @property
    def board_resolved(self) -> bool:
        return self._board is not None

    @property
    def board(self) -> boards.BoardProfile:
        """The board being judged; raises :class:`BoardError` on a mismatch."""
        if self._board is None:
            self._board = boards.resolve(self.settings.board, self.probe, self.profiles())
        return self._board


STATE_KEY = pytest.StashKey[RunState]()


def get_state(config: pytest.Config) -> RunState:
    try:
        return config.stash[STATE_KEY]
    except KeyError:
        raise SbcBenchError("pytest-sbcbench is not configured in this session") from None
