"""pytest-sbcbench: single-board-computer benchmarks as pytest tests.

The public API is this module's ``__all__``: what a workload of your own needs (the extension
recipe in docs/usage.md, "Extending", imports from here and nowhere else) and the value types
of a result (what the ``pytest_sbcbench_result`` hook receives).  Every module below it is
private (its docstring says so on its first line): import from ``pytest_sbcbench``.

PYTEST_DONT_REWRITE: the ``sbcbench`` console script imports this package before ``sbcbench
run`` starts pytest, and pytest marks an installed plugin's top-level package for assertion
rewriting; without this marker it warns "Module already imported so cannot be rewritten"
(an error under ``-W error``).  This module has no assert to rewrite."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .version import __version__

if TYPE_CHECKING:
    from .measure.tools import run_tool, which
    from .model import Identity, Measurement, Result, Summary, Verdict
    from .workload import (
        BaseWorkload,
        Ceiling,
        Context,
        Limits,
        Plan,
        TimedRun,
        Unavailable,
        Workload,
    )

__all__ = [
    "BaseWorkload", "Ceiling", "Context", "Identity", "Limits", "Measurement", "Plan", "Result",
    "Summary", "TimedRun", "Unavailable", "Verdict", "Workload", "__version__", "run_tool",
    "which",
]
# each public name's private module, imported on first use (PEP 562): a pytest run that only
# has the plugin installed pays for none of them
WHERE: dict[str, str] = {
    **dict.fromkeys(("Identity", "Measurement", "Result", "Summary", "Verdict"), "model"),
    **dict.fromkeys(("BaseWorkload", "Ceiling", "Context", "Limits", "Plan", "TimedRun",
                     "Unavailable", "Workload"), "workload"),
    **dict.fromkeys(("run_tool", "which"), "measure.tools"),
}


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use."""
    if name in WHERE:
        return getattr(importlib.import_module(f"{__name__}.{WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
