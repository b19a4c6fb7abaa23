"""Where the run lives in ``config.stash``: built on first use, so a project that has the plugin
installed and never uses it builds (and imports) no run at all.

``pytest_configure`` leaves a builder under :data:`BUILD_KEY`; :func:`session_of` builds the
:class:`~pytest_sbcbench.run.session.Session` the first time a hook or fixture needs it (a
benchmark collected, an sbcbench option given, a labgrid environment) and keeps it under
:data:`SESSION_KEY`; :func:`existing` answers without building.  A benchmark's ``sbcbench``
fixture keeps the test's trial (:class:`~pytest_sbcbench.run.trial.Trial`) on the item under
:data:`TRIAL_KEY`, where the call-phase hooks find it (:func:`trial_of`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from ..errors import SbcBenchError

if TYPE_CHECKING:
    from ..run.session import Session
    from ..run.trial import Trial

SESSION_KEY: pytest.StashKey[Session] = pytest.StashKey()
BUILD_KEY: pytest.StashKey[Callable[[], Session]] = pytest.StashKey()
TRIAL_KEY: pytest.StashKey[Trial] = pytest.StashKey()  # on an item: its trial


def existing(config: pytest.Config) -> Session | None:
    """The run, if anything has built it."""
    return config.stash.get(SESSION_KEY, None)


def session_of(config: pytest.Config) -> Session:
    """The run, built now if nothing has needed it yet."""
    session = existing(config)
    if session is not None:
        return session
    build = config.stash.get(BUILD_KEY, None)
    if build is None:
        raise SbcBenchError("pytest-sbcbench is not configured in this session")
    session = config.stash[SESSION_KEY] = build()
    return session


def trial_of(item: pytest.Item) -> Trial | None:
    """The test's trial, if its ``sbcbench`` fixture asked the session for one."""
    return item.stash.get(TRIAL_KEY, None)
