"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

The pytest plugin (entry point ``sbcbench``, this package): hooks, fixtures, hookspecs, the
pytest-benchmark driver and the one option table.  Thin glue only: a run is
:mod:`pytest_sbcbench.run`.

pytest registers this module: its hook implementations (:mod:`.hooks`) and fixtures
(:mod:`.fixtures`, :mod:`.compile_fixtures`) are collected from the names below."""

from .boots import pytest_runtestloop
from .compile_fixtures import compile_bench, pinned_checkout
from .ending import pytest_runtest_makereport, pytest_sessionfinish
from .fixtures import sbc_board, sbc_openssl, sbc_platform, sbc_workload, sbcbench
from .hooks import (
    pytest_addhooks,
    pytest_addoption,
    pytest_collection,
    pytest_collection_modifyitems,
    pytest_configure,
    pytest_generate_tests,
    pytest_report_header,
    pytest_runtest_call,
    pytest_runtest_teardown,
    pytest_terminal_summary,
    pytest_unconfigure,
)

__all__ = [
    "compile_bench",
    "pinned_checkout",
    "pytest_addhooks",
    "pytest_addoption",
    "pytest_collection",
    "pytest_collection_modifyitems",
    "pytest_configure",
    "pytest_generate_tests",
    "pytest_report_header",
    "pytest_runtest_call",
    "pytest_runtest_makereport",
    "pytest_runtest_teardown",
    "pytest_runtestloop",
    "pytest_sessionfinish",
    "pytest_terminal_summary",
    "pytest_unconfigure",
    "sbc_board",
    "sbc_openssl",
    "sbc_platform",
    "sbc_workload",
    "sbcbench",
]
