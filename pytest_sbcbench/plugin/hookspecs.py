"""Extension seams of pytest-sbcbench (pluggy hook specifications).

Implement them in a ``conftest.py`` or a plugin; pytest only discovers implementations whose
names start with ``pytest_``, hence the ``pytest_sbcbench_`` prefix.  Registered through
``pytest_addhooks`` by the plugin.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from ..model import Result
    from ..platform.board import BoardProfile
    from ..workload import Workload


@pytest.hookspec
def pytest_sbcbench_boards(
    config: pytest.Config,
) -> Iterable[BoardProfile | Mapping[str, Any]]:
    """Contribute board profiles.

    Return :class:`~pytest_sbcbench.platform.board.BoardProfile` objects or mappings in the JSON
    form of ``baselines/boards/*.json`` (schema ``sbcbench-board/1``).  Profiles from hooks
    override the built-in and ``--sbc-baselines`` ones of the same name.  Called once, when
    pytest configures.
    """
    raise NotImplementedError


@pytest.hookspec
def pytest_sbcbench_result(config: pytest.Config, result: Result) -> None:
    """Receive each finished, judged result (for example to upload it).

    Called once per recorded metric, right after its verdict is known, in the test's own
    process.  ``result.as_dict()`` is the entry written to the results JSON.
    """


@pytest.hookspec
def pytest_sbcbench_workloads(config: pytest.Config) -> Iterable[Workload]:
    """Contribute workloads (objects following :class:`~pytest_sbcbench.workload.Workload`,
    most simply :class:`~pytest_sbcbench.workload.BaseWorkload` subclasses).

    Called once, when pytest configures (implement it in a plugin or the rootdir
    ``conftest.py``).  Their markers are registered, and the shipped suite's ``test_workload``
    runs each one sampled and judged like the built-in workloads.
    """
    raise NotImplementedError


def register(pluginmanager: pytest.PytestPluginManager) -> None:
    """Add these specifications (``pytest_addhooks``): the hooks module calls this instead of
    importing the package for its ``hookspecs`` attribute."""
    pluginmanager.add_hookspecs(sys.modules[__name__])
