"""The history file itself: its schema (version 2), opening it to write or to read, and the
migration from version 1 (see :mod:`.history` for what it holds and the API).

A file is checked before anything is written to it: a FIFO or a device in its place, an empty
file, a file that is not a database or not an sbcbench history, and a file of a newer schema
are refused with an error naming the path, and stay byte for byte as they were (the check opens
them read-only).  Version 1 is migrated in place, in one transaction, by adding columns, a
table and indexes: no row is changed or removed.  Reads open the file read-only (``mode=ro``;
``immutable`` when its directory cannot be written, as a read-only baselines copy), so a
reader never needs write access.

The same schema and statements serve a PostgreSQL history (``postgresql://...``:
:mod:`.history_pg` translates them): :func:`reading`, :func:`writing` and :func:`check` take a
:data:`.history_url.Location` and refuse a newer or foreign database the same way."""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import stat
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

from ..fileio import cannot_write, no_room
from . import history_pg
from .history_url import HistoryError as HistoryError
from .history_url import HistoryNoRoom, Location, PostgresHistory

SCHEMA_VERSION = 2
READABLE = (1, 2)  # versions a reader understands (a version-1 file reads as it is)
BUSY_TIMEOUT_S = 60.0  # a concurrent writer holds the lock for one session's rows

# What was booted (platform.booted.FIELDS), one column each: added in version 2.
BOOTED_COLUMNS = ("kernel_commit", "kernel_image", "image_sha256", "cmdline", "cpus_online",
                  "dt_model", "dt_compatible")

_V1_TABLES = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    board TEXT NOT NULL,
    role TEXT NOT NULL,
    label TEXT,
    kernel_release TEXT,
    boot_id TEXT,
    interrupted INTEGER NOT NULL,
    environment TEXT NOT NULL
)""",
    """CREATE TABLE results (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    test TEXT NOT NULL,
    metric TEXT NOT NULL,
    unit TEXT NOT NULL,
    identity TEXT NOT NULL,
    samples TEXT NOT NULL,
    telemetry TEXT NOT NULL,
    status TEXT NOT NULL,
    detail TEXT NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS sessions_board ON sessions(board, label)",
)
_V2_ADDED = (
    *(f"ALTER TABLE sessions ADD COLUMN {c} TEXT" for c in BOOTED_COLUMNS),
    """CREATE TABLE IF NOT EXISTS incident_triage (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    incident_id TEXT NOT NULL,
    state TEXT NOT NULL,
    note TEXT,
    at TEXT NOT NULL,
    "by" TEXT
)""",
    "CREATE INDEX IF NOT EXISTS results_session ON results(session_id)",
    "CREATE INDEX IF NOT EXISTS sessions_role_label ON sessions(board, role, label, id)",
    "CREATE INDEX IF NOT EXISTS triage_incident ON incident_triage(incident_id, id)",
)


# SQLite's primary result codes of a file that could not be written or opened (an I/O error,
# a full disk, a file it cannot make: SQLite names no reason, so :func:`failed` looks for one)
_NO_ROOM_CODES = (10, 13, 14)  # SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN
_NO_ROOM_WORDS = ("disk I/O error", "database or disk is full", "unable to open database")


def failed(exc: sqlite3.Error | OSError, path: Path, what: str) -> HistoryError:
    """The error to raise for ``exc`` met on the history at ``path``: when it is a file that
    cannot grow (this process' size limit, a full file system), a :class:`HistoryNoRoom`
    saying ``could not write: file too large`` or ``no space left on device``, never a history
    called something it is not; else ``what`` (the caller's words) and the error."""
    if isinstance(exc, OSError):
        if exc.errno in (errno.EFBIG, errno.ENOSPC, errno.EDQUOT):
            return HistoryNoRoom(f"history {path}: {cannot_write(exc)} (the history is left "
                                 "as it was)")
        return HistoryError(f"history {path}: {what}{exc.strerror or exc}")
    code = getattr(exc, "sqlite_errorcode", None)
    io = (code & 0xFF in _NO_ROOM_CODES) if isinstance(code, int) else \
        any(w in str(exc) for w in _NO_ROOM_WORDS)
    room = no_room(path) if io else None
    if room is not None:
        return HistoryNoRoom(f"history {path}: could not write: {room}; SQLite writes the file "
                             "and its -wal and -shm beside it, even to read (the history is "
                             "left as it was)")
    return HistoryError(f"history {path}: {what}{exc}")


class Rows(Protocol):
    """What a statement gives: a sqlite3 cursor, or :class:`.history_pg.PgRows`."""

    @property
    def lastrowid(self) -> int | None: ...

    def fetchall(self) -> list[Any]: ...

    def fetchone(self) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class Db(Protocol):
    """A history's open connection: a sqlite3 one, or :class:`.history_pg.PgDb`."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Rows: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]], /) -> Any: ...


def _refuse_kind(path: Path) -> None:
    """A FIFO, device or directory in the history's place, or an empty file: refused."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise HistoryError(f"history {path}: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(info.st_mode):
        kind = ("a FIFO" if stat.S_ISFIFO(info.st_mode) else "a directory"
                if stat.S_ISDIR(info.st_mode) else "a device" if stat.S_ISCHR(info.st_mode)
                or stat.S_ISBLK(info.st_mode) else "not a regular file")
        raise HistoryError(f"history {path}: {kind}, not a history file; move it away, or point "
                           "--sbc-baselines elsewhere")
    if info.st_size == 0:
        raise HistoryError(f"history {path}: an empty file (0 bytes), not an sbcbench history; "
                           "move it away (the next run starts a new one)")


def version_of(db: sqlite3.Connection, path: Path) -> int | None:
    """The file's schema version; None for a new, empty database."""
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            return None
        if "meta" not in tables:
            raise HistoryError(f"history {path}: a database, but not an sbcbench history "
                               f"(tables: {', '.join(sorted(tables))})")
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise failed(exc, path, "not an sbcbench history: ") from exc
    try:
        return int(row[0]) if row is not None else None
    except ValueError:
        raise HistoryError(f"history {path}: schema version {row[0]!r} is not a number") from None


def _newer(found: int, path: Location) -> HistoryError:
    return HistoryError(f"history {path}: schema version {found}, this sbcbench reads up to "
                        f"{SCHEMA_VERSION}; keep it (left as it is), and point --sbc-baselines "
                        "elsewhere or upgrade sbcbench")


def _ro_uri(path: Path) -> str:
    absolute = path.resolve()
    immutable = "&immutable=1" if not os.access(absolute.parent, os.W_OK) else ""
    return f"file:{quote(str(absolute))}?mode=ro{immutable}"


@contextmanager
def _read_only(path: Path) -> Iterator[tuple[sqlite3.Connection, int | None]]:
    _refuse_kind(path)
    try:
        with closing(sqlite3.connect(_ro_uri(path), uri=True, timeout=BUSY_TIMEOUT_S)) as db:
            version = version_of(db, path)
            if version is not None and version > SCHEMA_VERSION:
                raise _newer(version, path)
            if version is not None and version not in READABLE:
                raise HistoryError(f"history {path}: schema version {version}, this sbcbench "
                                   f"reads {', '.join(map(str, READABLE))}")
            yield db, version
    except sqlite3.DatabaseError as exc:  # not a database, locked past the timeout
        raise failed(exc, path, "") from exc


def _readable(version: int | None, path: Location) -> None:
    if version is not None and version > SCHEMA_VERSION:
        raise _newer(version, path)
    if version is not None and version not in READABLE:
        raise HistoryError(f"history {path}: schema version {version}, this sbcbench "
                           f"reads {', '.join(map(str, READABLE))}")


@contextmanager
def _pg_reading(where: PostgresHistory) -> Iterator[tuple[Db, int | None]]:
    with history_pg.connected(where, read_only=True) as db:
        version = history_pg.version_of(db, where)
        _readable(version, where)
        yield db, version


@contextmanager
def reading(path: Location) -> Iterator[tuple[Db, int]]:
    """The history opened read-only and its schema version (one of :data:`READABLE`)."""
    if isinstance(path, PostgresHistory):
        with _pg_reading(path) as (db, version):
            if version is None:
                raise HistoryError(f"history {path}: no history tables yet (a run with "
                                   "--sbc-history URL makes them)")
            yield db, version
        return
    if not path.exists():
        raise HistoryError(f"history {path}: no such file (a run with --sbc-baselines "
                           f"{path.parent} writes it)")
    with _read_only(path) as (db, version):
        if version is None:
            raise HistoryError(f"history {path}: no tables yet (a run writing it was stopped "
                               "before its first session)")
        yield db, version


def blank(path: Location) -> bool:
    """Nothing recorded yet: no SQLite file, or a PostgreSQL database without the history's
    tables (the first writer makes them).  Anything else it cannot read is a HistoryError."""
    if isinstance(path, PostgresHistory):
        with _pg_reading(path) as (_, version):
            return version is None
    return not (path.exists() or path.is_symlink())


def check(path: Location) -> None:
    """Refuse, naming the path, a history that cannot be written (no file: fine, a run makes
    one).  Reads only; the file is left as it is."""
    if isinstance(path, PostgresHistory):
        with _pg_reading(path):
            pass
    elif path.exists() or path.is_symlink():
        with _read_only(path):
            pass


def _migrate(db: Db, version: int | None) -> None:
    """Inside the writer's transaction: a new file gets every table, version 1 the columns,
    table and indexes of version 2 (no row changed)."""
    if version is None:
        for statement in _V1_TABLES:
            db.execute(statement)
        db.execute("INSERT INTO meta VALUES ('schema', '1')")
        version = 1
    if version == 1:
        for statement in _V2_ADDED:
            db.execute(statement)
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))


def _create(path: Path) -> None:
    """A new history, whole: written beside as a hidden file, then linked into place (a
    concurrent first writer never meets a half-made or empty file; the one linked first wins)."""
    new = path.with_name(f".{path.name}.{os.getpid()}.new")
    try:
        with closing(sqlite3.connect(new, isolation_level=None)) as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("BEGIN IMMEDIATE")
            _migrate(db, None)
            db.execute("COMMIT")
        with contextlib.suppress(FileExistsError):
            os.link(new, path)
    except (OSError, sqlite3.DatabaseError) as exc:
        raise failed(exc, path, "not created: ") from exc
    finally:
        for leftover in (new, new.with_name(new.name + "-wal"), new.with_name(new.name + "-shm")):
            with contextlib.suppress(OSError):
                leftover.unlink()


@contextmanager
def _pg_writing(where: PostgresHistory) -> Iterator[Db]:
    with history_pg.connected(where, read_only=False) as db:  # holds the writers' lock
        version = history_pg.version_of(db, where)
        if version is not None and version > SCHEMA_VERSION:
            raise _newer(version, where)
        _migrate(db, version)
        yield db


@contextmanager
def writing(path: Location) -> Iterator[Db]:
    """The file opened to append, inside ``BEGIN IMMEDIATE`` (one writer at a time; the others
    wait up to :data:`BUSY_TIMEOUT_S`), at schema version 2; committed on leaving, rolled back
    on an error.  Checked read-only first (see the module's docstring); a new file is made
    whole before anyone can open it (:func:`_create`).  A PostgreSQL history is written in
    one transaction holding the writers' advisory lock (:mod:`.history_pg`)."""
    if isinstance(path, PostgresHistory):
        with _pg_writing(path) as db:
            yield db
        return
    if not path.exists() and not path.is_symlink():
        _create(path)
    check(path)
    try:
        with closing(sqlite3.connect(path, timeout=BUSY_TIMEOUT_S,
                                     isolation_level=None)) as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("BEGIN IMMEDIATE")
            try:
                version = version_of(db, path)  # again: another writer may have come first
                if version is not None and version > SCHEMA_VERSION:
                    raise _newer(version, path)
                _migrate(db, version)
                yield db
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
    except sqlite3.DatabaseError as exc:  # locked past the timeout, full disk, read-only
        raise failed(exc, path, "") from exc
