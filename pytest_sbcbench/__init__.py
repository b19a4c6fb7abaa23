"""pytest-sbcbench: single-board-computer benchmarks as pytest tests.

PYTEST_DONT_REWRITE: the ``sbcbench`` console script imports this package before ``sbcbench
run`` starts pytest, and pytest marks an installed plugin's top-level package for assertion
rewriting; without this marker it warns "Module already imported so cannot be rewritten"
(an error under ``-W error``).  This module has no assert to rewrite."""

from __future__ import annotations

from .model import Identity, Measurement, Result, Summary, Verdict
from .version import __version__

__all__ = ["Identity", "Measurement", "Result", "Summary", "Verdict", "__version__"]
