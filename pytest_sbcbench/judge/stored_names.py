"""Names that come back from a store (board, label, metric, test id) are data.

A history (a SQLite file, a PostgreSQL database shared by a lab, a merge of other controllers'
histories) or a baseline holds whatever its writers put there, so a name read back is treated
as a name given on the command line would be, by one rule for every reader:

- checked on read as on write: a board name must be a board name
  (:func:`..platform.board.check_board_name`: 1 to 64 of ``a-z``, ``0-9``, ``-``, ``_``);
  the readers of a history (``history show``, ``history changes``, ``publish``, ``export
  kcidb``, ``history merge``) leave out a session under any other name and say so
  (:func:`refusal`);
- escaped wherever it is shown: :func:`shown` in the terminal (control characters and other
  unprintable ones written as Python escapes, on the name's one line), :func:`html` in HTML
  and XML text and attribute values, :func:`url` in a piece of a link;
- never a path: a file named after a name is named by :func:`file_stem`, a safe encoding of
  it (never the name itself)."""

from __future__ import annotations

import hashlib
import html as _html
import re
from collections.abc import Sequence
from urllib.parse import quote

from ..errors import BoardError
from ..platform.board import BOARD_NAME_RULE, check_board_name
from ..words import counted

FILE_SAFE = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")
MAX_STEM = 100  # characters of a file stem; a longer encoding ends in a digest instead
URL_SAFE = "@-._~"  # kept as they are in a link's piece (letters and digits always are)
# characters XML 1.0 does not allow (an HTML parser reports them): C0 controls but tab,
# newline and carriage return, DEL and C1 controls, surrogates, U+FFFE and U+FFFF
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def valid_board(name: object) -> bool:
    """Whether ``name`` is a board name (as a run's ``--board`` must be)."""
    try:
        check_board_name(name)
    except BoardError:
        return False
    return True


def shown(text: str) -> str:
    """``text`` for the terminal: as it is when printable, else with every control and
    unprintable character as a Python escape (``\\x1b``, ``\\n``, ``\\u202e``)."""
    return text if text.isprintable() else repr(text)[1:-1]


def html(text: str) -> str:
    """``text`` for HTML or XML, in an element or in a quoted attribute value: ``&``, ``<``,
    ``>``, ``"`` and ``'`` as references, a character XML does not allow as its escape."""
    cleaned = _NOT_XML.sub(lambda m: repr(m.group())[1:-1], text)
    return _html.escape(cleaned, quote=True)


def url(text: str) -> str:
    """``text`` as a piece of a link (a path segment or a fragment): percent-encoded, so that
    no ``/``, ``?``, ``#``, quote or scheme can be read into it."""
    return quote(text, safe=URL_SAFE)


def file_stem(name: str) -> str:
    """A file name (without suffix) for ``name``, inside its folder whatever ``name`` holds:
    ``a-z``, ``0-9``, ``-`` and ``_`` kept, every other character's UTF-8 bytes written as
    ``~hh``, so that two names never share a stem and none has a ``/``, ``\\``, dot, space
    or capital (a board name is its own stem).  A stem longer than :data:`MAX_STEM` keeps its
    start and ends in a digest of the whole name."""
    stem = "".join(c if c in FILE_SAFE else "".join(
        f"~{b:02x}" for b in c.encode("utf-8", "surrogatepass")) for c in name)
    if stem and len(stem) <= MAX_STEM:
        return stem
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:20]
    return f"{stem[:MAX_STEM - 22]}~~{digest}"


def refusal(where: object, names: Sequence[str], done: str = "left out") -> str | None:
    """The line a reader prints when the store at ``where`` holds sessions under names that
    are not board names (None: it holds none); ``done``: what became of them."""
    if not names:
        return None
    listed = ", ".join(f"'{shown(n[:80])}{'...' if len(n) > 80 else ''}'" for n in names[:5])
    more = f" and {len(names) - 5} more" if len(names) > 5 else ""
    return (f"history {where}: the sessions of {counted(len(names), 'board name')} {done}, "
            f"not board names ({BOARD_NAME_RULE}): {listed}{more}")
