"""What the offline commands print: lines for the terminal."""

from __future__ import annotations

from typing import Any

from ..judge.stored_names import shown


def say(text: str, file: Any = None) -> None:
    """Print ``text`` for the terminal: test ids, metric and board names come from files a
    user was handed, so every line is written with its control characters escaped
    (:func:`..judge.stored_names.shown`), never raw."""
    print("\n".join(shown(line) for line in text.split("\n")), file=file)
