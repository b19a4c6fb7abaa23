"""Where the history is: a SQLite file (``sqlite:///PATH``, or a plain path; by default
``<baselines>/history.sqlite``) or a PostgreSQL database (``postgresql://...``) shared by a lab
of many boards and controllers (issue 29, item 5).

:func:`location` turns ``--sbc-history`` / ``--history`` (else the ``SBCBENCH_HISTORY``
environment variable, else the baselines directory's file) into a :data:`Location`: a
:class:`~pathlib.Path` for SQLite, a :class:`PostgresHistory` for PostgreSQL.  A location is
shown with its password left out."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from ..errors import SbcBenchError

FILE_NAME = "history.sqlite"
VARIABLE = "SBCBENCH_HISTORY"
POSTGRES_SCHEMES = ("postgresql", "postgres")
EXTRA = "pip install 'pytest-sbcbench[postgres]'"


class HistoryError(SbcBenchError):
    """The history is not one this version can read or write (its location in the message)."""


@dataclass(frozen=True)
class PostgresHistory:
    """A history in a PostgreSQL database, by its libpq URL (``postgresql://...``)."""

    url: str

    def __str__(self) -> str:
        parts = urlsplit(self.url)
        if parts.password is None:
            return self.url
        host = parts.netloc.rsplit("@", 1)[1]
        return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


Location = Path | PostgresHistory


def location(url: str | None, baselines: Path,
             environ: Mapping[str, str] | None = None) -> Location:
    """The history named by ``url``, else by ``SBCBENCH_HISTORY`` in ``environ`` (the
    process's environment by default), else ``<baselines>/history.sqlite``."""
    env = os.environ if environ is None else environ
    given = url if url else env.get(VARIABLE) or None
    if given is None:
        return baselines / FILE_NAME
    return parse(given)


def parse(url: str) -> Location:
    """``sqlite:///PATH`` (``PATH`` relative; ``sqlite:////abs`` absolute, as SQLAlchemy
    spells it), a plain path, or ``postgresql://...``; anything else is a HistoryError."""
    text = url.strip()
    scheme = text.split("://", 1)[0].lower() if "://" in text else ""
    if scheme in POSTGRES_SCHEMES:
        return PostgresHistory(text)
    if scheme == "sqlite":
        rest = text[len("sqlite://"):]
        if not rest.startswith("/") or len(rest) < 2:
            raise HistoryError(f"history {url!r}: expected sqlite:///PATH")
        return Path(rest[1:])
    if scheme:
        raise HistoryError(f"history {url!r}: expected sqlite:///PATH or postgresql://..."
                           f" (scheme {scheme!r} is not one)")
    if not text:
        raise HistoryError("history '': expected sqlite:///PATH or postgresql://...")
    return Path(text)


def exists(where: Location) -> bool:
    """A SQLite history's file exists (or its link does); a PostgreSQL one is always there
    (its tables are made by the first writer; a reader without them is told so)."""
    if isinstance(where, PostgresHistory):
        return True
    return where.exists() or where.is_symlink()
