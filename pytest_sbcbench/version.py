"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

The package's version, in a base module of its own: the package root re-exports it, and the
platform layer stamps it into captures and environments without importing the public API."""

from __future__ import annotations

__version__ = "0.1.0"
