"""pytest-sbcbench: single-board-computer benchmarks as pytest tests.

PYTEST_DONT_REWRITE: the ``sbcbench`` console script imports this package before ``sbcbench
run`` starts pytest, and pytest marks an installed plugin's top-level package for assertion
rewriting; without this marker it warns "Module already imported so cannot be rewritten"
(an error under ``-W error``).  This module has no assert to rewrite."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .version import __version__

if TYPE_CHECKING:
    from .model import Identity, Measurement, Result, Summary, Verdict

__all__ = ["Identity", "Measurement", "Result", "Summary", "Verdict", "__version__"]
MODEL_NAMES = frozenset(__all__) - {"__version__"}


def __getattr__(name: str) -> Any:
    """The value types, imported from :mod:`.model` on first use (PEP 562): a pytest run that
    only has the plugin installed does not pay for them."""
    if name in MODEL_NAMES:
        from . import model

        return getattr(model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
