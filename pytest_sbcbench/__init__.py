"""pytest-sbcbench: single-board-computer benchmarks as pytest tests."""

from __future__ import annotations

from .model import Identity, Measurement, Result, Summary, Verdict

__version__ = "0.1.0"

__all__ = ["Identity", "Measurement", "Result", "Summary", "Verdict", "__version__"]
