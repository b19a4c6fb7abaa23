"""Counted nouns in the lines a person reads: ``1 boot``, ``3 boots``, never ``3 boot(s)``."""

from __future__ import annotations


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1 (``plural``, else ``word`` + s)."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"
