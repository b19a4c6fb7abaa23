"""One history for a fleet (issue 29, item 5): the history on a real PostgreSQL server
(:mod:`pg_server`) reads back as the same history in SQLite does, keeps every session of two
pytest runs writing at once, refuses a newer schema untouched, merges idempotently, and exports
as KCIDB JSON that KernelCI's own schema (kcidb-io) accepts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from history_docs import build
from pg_server import PgServer, pg_server, psql

from helpers import cli
from pytest_sbcbench.cli import main
from pytest_sbcbench.judge import history, history_read
from pytest_sbcbench.judge.history_url import PostgresHistory, location, parse

__all__ = ["pg_server"]  # the session fixture, used by name below

REPO = Path(__file__).resolve().parent.parent
FAKE_OPENSSL = REPO / "scripts" / "fake-openssl" / "openssl"
ARGS = ["benchmarks", "-m", "crypto", "-k", "test_digest and (sha256 or sha512)",
        "--sbc-quick", "--sbc-runs", "3", "--sbc-idle-wait", "0", "--sbc-interval", "0.2",
        "-p", "no:cacheprovider"]


def test_a_history_url_names_sqlite_or_postgresql(tmp_path: Path) -> None:
    assert location(None, tmp_path, {}) == tmp_path / "history.sqlite"
    assert location(None, tmp_path, {"SBCBENCH_HISTORY": "sqlite:///rel/h.sqlite"}) == \
        Path("rel/h.sqlite")
    assert location("sqlite:////abs/h.sqlite", tmp_path, {"SBCBENCH_HISTORY": "x"}) == \
        Path("/abs/h.sqlite")
    assert parse("postgresql://lab@db/sbc") == PostgresHistory("postgresql://lab@db/sbc")
    assert str(parse("postgres://lab:secret@db:5432/sbc")) == "postgres://lab:***@db:5432/sbc"
    with pytest.raises(history.HistoryError, match="scheme 'mysql' is not one"):
        parse("mysql://db/sbc")


def test_without_psycopg_a_postgresql_history_names_the_extra(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # what an install without it imports
    with pytest.raises(history.HistoryError, match=r"pytest-sbcbench\[postgres\]"):
        history.summary(parse("postgresql://nobody@/nothing?host=/nonexistent"))


def test_the_same_history_reads_the_same_from_sqlite_and_postgresql(
        pg_server: PgServer, tmp_path: Path) -> None:
    pytest.importorskip("otava", reason="needs Apache Otava (the history extra)")
    url = pg_server.database("same_history")
    file = tmp_path / "history.sqlite"
    for where in (file, parse(url)):
        build(where, slower={"sha512": 8})
        build(where, board="rpi5", labels=6)
    assert history.summary(parse(url)) == history.summary(file)
    assert [lh.label for lh in history.label_history(parse(url), board="star64")] == [
        f"L{j:02d}" for j in range(1, 13)]
    assert history_read.all_boards(parse(url)) == history_read.all_boards(file)
    sqlite_url = f"sqlite:///{file}"
    for command in (("history",), ("history", "changes", "--json"),
                    ("history", "show", "star64", "-k", "sha512", "--json")):
        assert cli(*command, "--history", url) == cli(*command, "--history", sqlite_url)
    for given in (url, sqlite_url):  # publish reads it too: the same site, page for page
        assert cli("publish", str(tmp_path / given.split(":")[0]), "--history", given)[0] == 0
    pages = sorted(p.relative_to(tmp_path / "postgresql")
                   for p in (tmp_path / "postgresql").rglob("*") if p.is_file())
    assert len(pages) >= 4
    for page in pages:
        assert (tmp_path / "postgresql" / page).read_bytes() == \
            (tmp_path / "sqlite" / page).read_bytes(), page
    (incident,) = json.loads(cli("history", "changes", "--json", "--history", url)[1]
                             )["incidents"]
    assert (incident["id"], incident["first_bad"]) == ("star64@L08", "L08")
    assert [m["metric"] for m in incident["metrics"]] == ["sha512"]
    code, said = cli("history", "triage", "star64@L08", "--state", "acknowledged",
                     "--note", "bisecting", "--history", url)
    assert code == 0 and said.startswith("star64@L08: acknowledged")
    assert history_read.read_triage(parse(url))["star64@L08"][0] == "acknowledged"
    assert history_read.read_triage(file) == {}


def test_a_newer_or_foreign_database_is_refused_and_left_as_it_is(
        pg_server: PgServer, tmp_path: Path) -> None:
    url = pg_server.database("newer_history")
    build(parse(url), labels=1, boots=1)
    psql(url, "UPDATE meta SET value = '3' WHERE key = 'schema'")
    doc = {"board": "star64", "created": "2026-12-01T00:00:00+00:00", "results": []}
    for attempt in (lambda: history.append(parse(url), doc, "candidate", "L02"),
                    lambda: history.summary(parse(url))):
        with pytest.raises(history.HistoryError, match="schema version 3, this sbcbench reads"):
            attempt()
    assert psql(url, "SELECT count(*) FROM sessions") == [(1,)]
    foreign = pg_server.database("foreign_db")
    psql(foreign, "CREATE TABLE sessions (x INTEGER)")
    with pytest.raises(history.HistoryError, match="no sbcbench history"):
        history.append(parse(foreign), doc, "candidate", "L01")
    assert psql(foreign, "SELECT count(*) FROM information_schema.tables WHERE "
                         "table_schema = 'public'") == [(1,)]
    code = main(["history", "--history", pg_server.url("no_such_db")])
    assert code == 2  # a database that cannot be reached: the command's usage error


def test_two_pytest_runs_writing_at_once_keep_every_session(
        pg_server: PgServer, pytester: pytest.Pytester,
        copy_benchmarks: Callable[..., None]) -> None:
    url = pg_server.database("two_writers")
    copy_benchmarks()
    (pytester.path / "bl").mkdir()
    runs = []
    for place in ("a", "b"):
        env = {**os.environ, "SBCBENCH_OPENSSL": str(FAKE_OPENSSL), "SBCBENCH_FAKE_SEED": "29",
               "SBCBENCH_FAKE_STATE": str(pytester.path / f"fake-{place}.count"),
               "SBCBENCH_BOOT_ID": f"boot-{place}", "SBCBENCH_FAKE_BOOT": f"boot-{place}"}
        env.pop("SBCBENCH_HISTORY", None)
        runs.append(subprocess.Popen(
            [sys.executable, "-m", "pytest", *ARGS, "--sbc-baselines", "bl",
             "--sbc-candidate", "L01", "--sbc-history", url], cwd=pytester.path, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
    for run in runs:
        out, _ = run.communicate(timeout=600)
        assert run.returncode == 0, out.decode(errors="replace")
        assert "history: candidate session" in out.decode(), out.decode(errors="replace")
    assert not (pytester.path / "bl" / "history.sqlite").exists()
    (group,) = history.summary(parse(url))
    assert (group.label, group.sessions, group.boots, group.results) == ("L01", 2, 2, 4)
    assert sorted(b for b, in psql(url, "SELECT boot_id FROM sessions")) == [
        "boot-a", "boot-b"]


def test_merging_twice_adds_nothing(pg_server: PgServer, tmp_path: Path) -> None:
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    build(a, labels=4, boots=2)
    build(b, board="rpi5", labels=3, boots=2)
    history.append_triage(a, "star64@L03", "invalid", at="2026-12-01T00:00:00+00:00")
    url = pg_server.database("merged")
    first = cli("history", "merge", str(a), f"sqlite:///{b}", "--into", url)
    assert first == (0, f"merged into {url}: 14 sessions added, 0 already held, "
                        "1 triage entries added\n")
    again = cli("history", "merge", str(a), str(b), str(a), "--into", url)
    assert again == (0, f"merged into {url}: 0 sessions added, 22 already held, "
                        "0 triage entries added\n")
    assert psql(url, "SELECT count(*) FROM sessions") == [(14,)]
    assert history.label_history(parse(url), board="star64") == \
        history.label_history(a, board="star64")
    back = tmp_path / "back.sqlite"  # and back into SQLite: the same sessions, once
    assert cli("history", "merge", url, url, "--into", f"sqlite:///{back}")[1].startswith(
        f"merged into {back}: 14 sessions added, 14 already held")
    assert history.summary(back) == history.summary(parse(url))


def test_the_kcidb_export_is_valid_kcidb(pg_server: PgServer, tmp_path: Path) -> None:
    kcidb_io = pytest.importorskip("kcidb_io", reason="needs kcidb-io (the kcidb extra)")
    url = pg_server.database("kcidb_export")
    build(parse(url), labels=3, boots=2)
    build(parse(url), board="rpi5", labels=2, boots=1)
    out = tmp_path / "kcidb.json"
    assert cli("export", "kcidb", "--history", url, "-o", str(out))[0] == 0
    doc = json.loads(out.read_text())
    kcidb_io.schema.LATEST.validate(doc)
    assert (len(doc["checkouts"]), len(doc["builds"]), len(doc["tests"])) == (3, 5, 32)
    sha512 = [t for t in doc["tests"] if t["path"] == "sbcbench.sha512"]
    assert len(sha512) == 8 and {t["status"] for t in sha512} == {"PASS"}
    assert all(t["number"]["unit"] == "B/s" and t["number"]["value"] > 1e8 for t in sha512)
    assert len({t["id"] for t in doc["tests"]}) == 32
    again = tmp_path / "again.json"
    assert cli("export", "kcidb", "--history", url, "-o", str(again))[0] == 0
    assert json.loads(again.read_text()) == doc  # stable ids: the same history, the same JSON


def test_an_unusable_history_url_is_a_usage_error_at_start(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makepyfile("def test_nothing():\n    pass\n")
    done = pytester.runpytest("--sbc-history", "mysql://db/sbc")
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    done.stderr.fnmatch_lines(["*--sbc-history: history 'mysql://db/sbc': expected "
                               "sqlite:///PATH or postgresql://...*"])
    monkeypatch.setenv("SBCBENCH_HISTORY", "sqlite://nowhere")
    done = pytester.runpytest("--sbc-gate")
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    done.stderr.fnmatch_lines(["*SBCBENCH_HISTORY: history 'sqlite://nowhere': expected "
                               "sqlite:///PATH*"])
