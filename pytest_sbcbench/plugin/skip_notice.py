"""``sbcbench run`` says up front which selected tests will be skipped here, and why.

A plugin object ``sbcbench run`` (:func:`..cli.main`) hands to ``pytest.main``: once
collection (and ``-m``/``-k`` deselection) is done it asks each selected suite test's
workload whether it can run here (a missing tool), the same question its set-up asks, and
prints one line per reason naming the tests it skips, under pytest's "collected" line, before
anything is measured (as the Phoronix Test Suite lists missing dependencies before it
starts)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from ..words import counted
from .items import workload_of


def skip_lines(names: Sequence[str], reasons: Sequence[str | None], selected: int) -> list[str]:
    """A heading, then one line per reason: the tests it skips (in order) and why."""
    by_reason: dict[str, list[str]] = {}
    for name, reason in zip(names, reasons, strict=True):
        if reason is not None:
            by_reason.setdefault(reason, []).append(name)
    if not by_reason:
        return []
    skipped = sum(len(v) for v in by_reason.values())
    lines = [f"will be skipped here: {skipped} of {counted(selected, 'selected test')}, "
             "before anything runs:"]
    for reason, tests in by_reason.items():
        lines.append(f"  {_grouped(tests)}: {reason}")
    return lines


def _grouped(names: Sequence[str]) -> str:
    """``test_cipher[aes-128-gcm, aes-256-gcm], test_stream``: one entry per test function."""
    params: dict[str, list[str]] = {}
    for name in names:
        function, _, param = name.partition("[")
        params.setdefault(function, [])
        if param:
            params[function].append(param.removesuffix("]"))
    return ", ".join(f"{f}[{', '.join(p)}]" if p else f for f, p in params.items())


class SkipNotice:
    """The plugin: pytest calls :meth:`pytest_report_collectionfinish` after collection."""

    def pytest_report_collectionfinish(self, config: pytest.Config, start_path: Path,
                                       items: Sequence[pytest.Item]) -> list[str]:
        from .state import session_of

        if not any("sbc_workload" in getattr(i, "fixturenames", ()) for i in items):
            return []
        session = session_of(config)
        suite = [(item, w) for item in items if (w := workload_of(item)) is not None]
        reasons = []
        for _, workload in suite:
            try:
                reasons.append(workload.available(session.context(workload)))
            except Exception as exc:  # the test's own set-up reports it in full
                reasons.append(f"availability check failed: {exc}")
        return skip_lines([item.nodeid.rsplit("::", 1)[-1] for item, _ in suite], reasons,
                          len(items))
