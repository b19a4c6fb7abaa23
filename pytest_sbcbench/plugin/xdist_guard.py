"""Benchmarks never run under pytest-xdist (issue 23 item 8).

Two benchmarks at a time disturb each other's numbers (the same cores, caches, memory bus and
clock), and those numbers would be judged and saved into the baseline; xdist's controller also
collects nothing itself, so it would write an empty results file and no summary.  A run that
means to benchmark (any ``--sbc-*`` option) is refused when pytest starts, with a usage error
naming ``-n``.  A run given no sbcbench option only shows it benchmarks when a worker collects
a benchmark test: there every benchmark is skipped with the same reason (a worker that raised
would crash xdist's controller with an INTERNALERROR that hides the reason), and nothing is
measured; a project's other tests keep running in parallel."""

from __future__ import annotations

import pytest

FIX = ("benchmarks must run one at a time on an otherwise idle board: run them without -n "
       "(or with -n 0, or -p no:xdist)")


def distributed(config: pytest.Config) -> str | None:
    """How this pytest run is distributed by pytest-xdist (``-n 2``, ``--dist load``, or a
    worker of such a run), or None when it is not."""
    if hasattr(config, "workerinput"):  # set by xdist on every worker's config
        return "a pytest-xdist worker: -n given"
    option = config.option
    processes = getattr(option, "numprocesses", None)
    if processes not in (None, 0):
        return f"-n {processes}"
    dist = getattr(option, "dist", "no")
    if dist not in (None, "no"):
        return f"--dist {dist}"
    return None


def refuse_distributed(config: pytest.Config) -> None:
    """A :class:`pytest.UsageError` (exit 4) when benchmarks would run under pytest-xdist."""
    how = distributed(config)
    if how is not None:
        raise pytest.UsageError(f"sbcbench under pytest-xdist ({how}): {FIX}")


def skip_distributed(config: pytest.Config, benchmarks: list[pytest.Item]) -> bool:
    """On a pytest-xdist worker: skip every benchmark with the reason and return True (the
    run is then never activated: no idle wait, no sampler, no output); False otherwise."""
    how = distributed(config)
    if how is None:
        return False
    for item in benchmarks:
        item.add_marker(pytest.mark.skip(reason=f"sbcbench under pytest-xdist ({how}): {FIX}"))
    return True
