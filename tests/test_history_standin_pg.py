"""The issue's stand-in run through PostgreSQL (issue 29, "Done when": "the same history in
PostgreSQL gives the same incident").  tests/test_history_standin.py's run (labels L01..L12 of
three boots each on the stand-in openssl, sha512 5% slower from L08) with the history on a real
PostgreSQL server (tests/pg_server.py): the real pytest runs write into it with
``--sbc-history postgresql://...`` and the other boots are appended to it through the store's
writer.  ``sbcbench history changes`` read from the database finds the one incident, naming
sha512 with L08 as first bad label and nothing else; ``history show -k sha512`` draws it; and
the same history copied into SQLite (``sbcbench history merge``) gives the same answer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pg_server import PgServer, pg_server
from test_history_standin import one_sha512_incident, record_stand_in

from helpers import cli
from pytest_sbcbench.judge.history_url import parse

__all__ = ["pg_server"]  # the session fixture, used by name below
pytestmark = pytest.mark.e2e  # four real pytest runs, as its SQLite sibling: .ci/run's --e2e


@pytest.fixture
def pg_boots(pg_server: PgServer, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
             copy_benchmarks: Callable[..., None]) -> str:
    """The stand-in history of L01..L12, three boots each, in a PostgreSQL database; its URL."""
    url = pg_server.database("standin_history")
    copy_benchmarks()
    monkeypatch.delenv("SBCBENCH_HISTORY", raising=False)
    baselines = pytester.path / "bl"
    record_stand_in(pytester, monkeypatch, baselines, parse(url), "--sbc-history", url)
    assert not (baselines / "history.sqlite").exists()  # every session went to the server
    return url


def test_the_stand_in_history_in_postgresql_gives_the_same_incident(
        pg_boots: str, tmp_path: Path) -> None:
    pytest.importorskip("otava", reason="needs Apache Otava (the history extra)")
    url = pg_boots
    board = one_sha512_incident(parse(url), "--history", url)

    code, shown = cli("history", "show", "-k", "sha512", "--out", str(tmp_path / "charts"),
                      "--history", url)
    assert code == 0 and f"<- {board}@L08 (open)" in shown
    assert (tmp_path / "charts" / f"{board}-sha512.png").stat().st_size > 10_000

    copy = f"sqlite:///{tmp_path / 'copy.sqlite'}"  # the same history in SQLite
    assert cli("history", "merge", url, "--into", copy)[1].startswith(
        f"merged into {tmp_path / 'copy.sqlite'}: 36 sessions added, 0 already held")
    assert cli("history", "changes", "--json", "--history", copy) == cli(
        "history", "changes", "--json", "--history", url)
