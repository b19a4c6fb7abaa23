"""Where the history is: a SQLite file (``sqlite:///PATH``, or a plain path; by default
``<baselines>/history.sqlite``) or a PostgreSQL database (``postgresql://...``) shared by a lab
of many boards and controllers (issue 29, item 5).

:func:`location` turns ``--sbc-history`` / ``--history`` (else the ``SBCBENCH_HISTORY``
environment variable, else the baselines directory's file) into a :data:`Location`: a
:class:`~pathlib.Path` for SQLite, a :class:`PostgresHistory` for PostgreSQL.  A location is
shown with its password left out (:func:`masked`), in every form libpq takes one: the user
information's (``postgresql://user:SECRET@host/db``) and the query's (``?password=SECRET``,
``sslpassword``, a key spelled with percent escapes), in the location's text, its ``repr``
and any message quoting the URL."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from ..errors import SbcBenchError

FILE_NAME = "history.sqlite"
VARIABLE = "SBCBENCH_HISTORY"
POSTGRES_SCHEMES = ("postgresql", "postgres")
EXTRA = "pip install 'pytest-sbcbench[postgres]'"


class HistoryError(SbcBenchError):
    """The history is not one this version can read or write (its location in the message)."""


class HistoryNoRoom(HistoryError):
    """The history could not grow: this process' file size limit, a full file system or
    quota, a PostgreSQL server out of disk; what was there is left as it was."""


MASK = "***"
SECRET_KEYS = ("password", "sslpassword")  # the libpq parameters that hold a secret


def _masked_query(query: str) -> str:
    parts = []
    for item in query.split("&"):
        key, sep, _ = item.partition("=")
        secret = unquote(key).strip().lower() in SECRET_KEYS
        parts.append(f"{key}={MASK}" if secret and sep else item)
    return "&".join(parts)


def masked(url: str) -> str:
    """``url`` with every password left out: the user information's and the query's
    parameters libpq reads a secret from (:data:`SECRET_KEYS`, however their names are
    percent-encoded or cased)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url.split("://", 1)[0] + f"://{MASK}" if "://" in url else MASK
    netloc = parts.netloc
    if "@" in netloc:
        user, host = netloc.rsplit("@", 1)
        if ":" in user:
            netloc = f"{user.split(':', 1)[0]}:{MASK}@{host}"
    return urlunsplit(parts._replace(netloc=netloc, query=_masked_query(parts.query)))


def secrets_of(url: str) -> list[str]:
    """The password texts in ``url`` (as written and decoded), to strip from messages."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    found = [parts.password] if parts.password else []
    for item in parts.query.split("&"):
        key, _, value = item.partition("=")
        if unquote(key).strip().lower() in SECRET_KEYS and value:
            found.append(value)
    return sorted({v for f in found for v in (f, unquote(f)) if v}, key=len, reverse=True)


def scrubbed(text: str, url: str) -> str:
    """``text`` (a message that may quote ``url``) with its passwords left out."""
    for secret in secrets_of(url):
        text = text.replace(secret, MASK)
    return text


@dataclass(frozen=True)
class PostgresHistory:
    """A history in a PostgreSQL database, by its libpq URL (``postgresql://...``); shown,
    as ``str`` and as ``repr``, with its password left out."""

    url: str

    def __str__(self) -> str:
        return masked(self.url)

    def __repr__(self) -> str:
        return f"PostgresHistory({masked(self.url)!r})"


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
            raise HistoryError(f"history {masked(url)!r}: expected sqlite:///PATH")
        return Path(rest[1:])
    if scheme:
        raise HistoryError(f"history {masked(url)!r}: expected sqlite:///PATH or "
                           f"postgresql://... (scheme {scheme!r} is not one)")
    if not text:
        raise HistoryError("history '': expected sqlite:///PATH or postgresql://...")
    return Path(text)


def exists(where: Location) -> bool:
    """A SQLite history's file exists (or its link does); a PostgreSQL one is always there
    (its tables are made by the first writer; a reader without them is told so)."""
    if isinstance(where, PostgresHistory):
        return True
    return where.exists() or where.is_symlink()
