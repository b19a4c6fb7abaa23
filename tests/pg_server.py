"""A real PostgreSQL server for the tests of a shared history (Debian's ``postgresql``
package: its binaries under /usr/lib/postgresql/*/bin), started once per test session.

The server runs as the ``postgres`` user when the tests run as root (PostgreSQL refuses to run
as root), from a data directory in a temporary directory it owns, listening on a Unix socket
there only (no TCP port: nothing to race for), with trust authentication.  Each test takes a
database of its own (:meth:`PgServer.database`).  Without the binaries (or psycopg) the tests
skip, naming what is missing; with ``SBCBENCH_REQUIRE_PG=1`` (CI) that is a failure."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import pytest

REQUIRE = "SBCBENCH_REQUIRE_PG"
INSTALL = "apt-get install postgresql"


def bindir() -> Path | None:
    """The newest installed PostgreSQL's binaries (pg_ctl on PATH, else Debian's layout)."""
    found = shutil.which("pg_ctl")
    if found is not None and shutil.which("initdb") is not None:
        return Path(found).parent
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(d.split("/")[4]))
    return Path(dirs[-1]) if dirs and (Path(dirs[-1]) / "pg_ctl").exists() else None


def missing(why: str) -> NoReturn:
    """Skip the test, or fail it when CI requires the server."""
    if os.environ.get(REQUIRE) == "1":
        pytest.fail(f"{REQUIRE}=1 but {why}", pytrace=False)
    pytest.skip(why)


@dataclass
class PgServer:
    """A running server: its socket directory; :meth:`database` makes a fresh database."""

    socket_dir: Path
    made: list[str] = field(default_factory=list)

    def url(self, name: str = "postgres") -> str:
        return f"postgresql://postgres@/{name}?host={self.socket_dir}"

    def database(self, name: str) -> str:
        """A new, empty database ``name`` (dropped first if an earlier test left it); its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}"')
            db.execute(f'CREATE DATABASE "{name}"')
        self.made.append(name)
        return self.url(name)


def _as_postgres(argv: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return argv
    # runuser is in /usr/sbin (util-linux), which a plain user's PATH (/usr/bin:/bin) leaves out
    runuser = shutil.which("runuser", path=os.pathsep.join(
        [os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])) or "runuser"
    return [runuser, "-u", "postgres", "--", *argv]


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A PostgreSQL server for this test session, stopped (and its files removed) at its end."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing("needs psycopg 3 (pip install 'pytest-sbcbench[postgres]')")
    found = bindir()
    if found is None:
        missing(f"no PostgreSQL server binaries (initdb, pg_ctl; {INSTALL})")
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            missing("running as root and there is no postgres user to run the server as")
    top = Path(tempfile.mkdtemp(prefix="sbcbench-pg-"))
    if os.geteuid() == 0:
        os.chown(top, owner.pw_uid, owner.pw_gid)
    top.chmod(0o700)
    data, log = top / "data", top / "server.log"
    try:
        subprocess.run(_as_postgres([str(found / "initdb"), "-D", str(data), "-A", "trust",
                                     "-U", "postgres", "-E", "UTF8", "--no-sync"]),
                       check=True, capture_output=True, timeout=120)
        options = f"-c listen_addresses='' -k {top} -c fsync=off"
        subprocess.run(_as_postgres([str(found / "pg_ctl"), "-D", str(data), "-l", str(log),
                                     "-o", options, "-w", "-t", "120", "start"]),
                       check=True, capture_output=True, timeout=180)
    except subprocess.CalledProcessError as exc:
        shown = log.read_text(errors="replace") if log.exists() else ""
        shutil.rmtree(top, ignore_errors=True)
        raise AssertionError(f"PostgreSQL did not start: {exc.stderr.decode(errors='replace')}"
                             f"{shown}") from exc
    try:
        yield PgServer(top)
    finally:
        subprocess.run(_as_postgres([str(found / "pg_ctl"), "-D", str(data), "-m", "fast",
                                     "-w", "stop"]), capture_output=True, timeout=120)
        shutil.rmtree(top, ignore_errors=True)


def psql(url: str, sql: str) -> list[tuple[Any, ...]]:
    """The rows ``sql`` gives on the server at ``url`` (none for a statement without rows)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        cursor = db.execute(sql)
        return [tuple(r) for r in cursor.fetchall()] if cursor.description else []
