"""A PostgreSQL history's password is never printed: given in the URL's user part
(``postgresql://user:SECRET@host/db``) or as a parameter (``?password=SECRET``,
``sslpassword``, a name spelled with percent escapes), it is ``***`` in a location's text and
``repr``, in every command's output and error, and in a pytest run's notes (the parameter form
was printed in clear, though the docs said every message masks it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from history_docs import build
from pg_server import PgServer, pg_server

from helpers import REPO
from pytest_sbcbench.judge.history_url import HistoryError, PostgresHistory, masked, parse

__all__ = ["pg_server"]  # the session fixture, used by name below

SECRET = "S3cr3t-pw"


@pytest.mark.parametrize("url", [
    f"postgresql://lab:{SECRET}@db/sbc",
    f"postgres://lab:{SECRET}@db:5432/sbc?sslmode=require",
    f"postgresql://lab@db/sbc?password={SECRET}",
    f"postgresql://lab@db/sbc?sslmode=require&password={SECRET}&connect_timeout=3",
    f"postgresql:///sbc?host=/run/postgresql&pass%77ord={SECRET}",
    f"postgresql://db/sbc?PASSWORD={SECRET}",
    f"postgresql://lab@db/sbc?sslpassword={SECRET}",
    f"postgresql://:{SECRET}@db/sbc",
    f"postgresql://lab:{SECRET}@/sbc?host=/tmp&password={SECRET}x",
])
def test_every_form_of_a_password_is_masked(url: str) -> None:
    where = parse(url)
    for shown in (str(where), repr(where), masked(url)):
        assert SECRET not in shown and "***" in shown, shown
    assert isinstance(where, PostgresHistory) and where.url == url  # connecting uses it


def test_a_url_that_is_no_history_is_refused_without_its_password() -> None:
    for url in (f"mysql://lab:{SECRET}@db/sbc", f"postgress://lab@db/sbc?password={SECRET}"):
        with pytest.raises(HistoryError) as caught:
            parse(url)
        assert SECRET not in str(caught.value) and "***" in str(caught.value)


def sbcbench(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "SBCBENCH_HISTORY"}
    return subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", *argv], cwd=cwd,
                          capture_output=True, text=True, timeout=600,
                          env={**env, "PYTHONPATH": str(REPO)})


def test_no_command_prints_the_password(pg_server: PgServer, tmp_path: Path) -> None:
    """The server trusts the socket, so the password is given and ignored: every command
    works, and none prints it; one that cannot reach a server names the URL masked."""
    url = pg_server.database("secrets") + f"&password={SECRET}"
    (tmp_path / "bl").mkdir()
    build(tmp_path / "bl" / "history.sqlite", labels=3)
    runs = [sbcbench("history", "merge", str(tmp_path / "bl" / "history.sqlite"), "--into",
                     url, cwd=tmp_path),
            sbcbench("history", "--history", url, cwd=tmp_path),
            sbcbench("history", "show", "--history", url, cwd=tmp_path),
            sbcbench("publish", str(tmp_path / "site"), "--history", url, cwd=tmp_path),
            sbcbench("history", "merge", url, "--into", str(tmp_path / "copy.sqlite"),
                     cwd=tmp_path)]
    for done in runs:
        assert done.returncode == 0, done.stderr
        assert SECRET not in done.stdout + done.stderr, done.args
    assert "password=***" in runs[0].stdout
    gone = f"postgresql://lab@/sbc?host={tmp_path}/nowhere&password={SECRET}"
    done = sbcbench("history", "--history", gone, cwd=tmp_path)
    assert done.returncode == 2 and SECRET not in done.stdout + done.stderr
    assert "password=***" in done.stderr


INNER = """
from pytest_sbcbench.model import Identity, Measurement

def test_a_widget(sbcbench):
    sbcbench.record(Measurement("widget", "B/s", "higher", Identity.of(tool="widget"),
                                (100e6, 101e6)))
"""


def test_a_runs_notes_never_show_the_password(pg_server: PgServer, tmp_path: Path) -> None:
    url = pg_server.database("secret_notes") + f"&password={SECRET}"
    gone = f"postgresql://lab@/sbc?host={tmp_path}/nowhere&password={SECRET}"
    (tmp_path / "test_inner.py").write_text(INNER)
    outputs = []
    for history in (url, gone):
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_inner.py",
             "--sbc-idle-wait", "0", "--sbc-candidate", "L1", "--sbc-history", history,
             "--sbc-results", "r.json", "--sbc-baselines", "bl"],
            cwd=tmp_path, capture_output=True, text=True, timeout=600,
            env={k: v for k, v in os.environ.items() if k != "SBCBENCH_HISTORY"})
        outputs.append(done.stdout + done.stderr)
        assert SECRET not in outputs[-1], outputs[-1]
    assert "history: candidate session 1 appended to postgresql://" in outputs[0]
    assert "password=***" in outputs[0], outputs[0]
    assert "history not written: history postgresql://" in outputs[1], outputs[1]
