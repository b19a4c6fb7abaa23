"""``sbcbench publish`` of a history whose every name is hostile (:mod:`hostile_names`), from
SQLite and from a real PostgreSQL server, opened in a real headless Chromium (:mod:`browser`):
no page runs a script from any stored name, no file is written outside the output folder, and
every name is shown as the text it is."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import hostile_names
import pytest
from browser import chromium, errors
from pg_server import PgServer, pg_server

from pytest_sbcbench.cli import main

__all__ = ["pg_server"]  # the session fixture, used by name below

PAGE = """return {
  pwned: document.documentElement.dataset.pwned || null,
  scripts: document.querySelectorAll('script').length,
  handlers: Array.from(document.querySelectorAll('*')).filter(function (e) {
    return Array.from(e.attributes).some(function (a) { return a.name.indexOf('on') === 0; });
  }).length,
  links: Array.from(document.querySelectorAll('a[href]')).map(function (a) { return a.href; }),
  text: document.body.innerText,
  title: document.title
};"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as driver:
        yield driver


def files(root: Path) -> set[str]:
    """Every file under ``root`` but the SQLite history's (whose -wal and -shm a reader
    makes)."""
    found = {str(Path(d, f).relative_to(root)) for d, _, fs in os.walk(root) for f in fs}
    return {f for f in found if not f.startswith("bl/")}


def published(root: Path, history: list[str]) -> Path:
    """The site of ``history`` (``--history URL`` or ``--baselines DIR``) published into
    ``root/pub/out/site`` (so ``../../x`` from its ``boards/`` would land in ``root/pub``),
    checked to have written nothing else under ``root``."""
    (root / "pub" / "out").mkdir(parents=True)
    before = files(root)
    site = root / "pub" / "out" / "site"
    assert main(["publish", str(site), *history]) == 0
    new = files(root) - before
    assert new and all(f.startswith("pub/out/site/") for f in new), sorted(new)
    assert {f for f in new if f.startswith("pub/out/site/boards/")} == {
        "pub/out/site/boards/star64.html"}
    return site


def check_pages(driver: Any, site: Path) -> str:
    """Every page of ``site`` loaded: no script ran or exists, no event handler, no console
    error (a script the page policy blocked would be one), every link a file inside the
    site; the text of all pages."""
    pages = sorted(site.rglob("*.html"))
    assert [p.relative_to(site).as_posix() for p in pages] == ["boards/star64.html",
                                                               "index.html"]
    text = []
    for page in pages:
        driver.get(page.as_uri())
        seen = driver.execute_script(PAGE)
        assert seen["pwned"] is None, (page, seen["pwned"])
        assert (seen["scripts"], seen["handlers"]) == (0, 0), page
        assert not errors(driver), (page, errors(driver))
        for href in seen["links"]:
            parts = urlsplit(href)
            assert parts.scheme == "file", href
            target = Path(unquote(parts.path)).resolve()
            assert target.is_file() and target.is_relative_to(site.resolve()), href
        text.append(seen["title"] + "\n" + seen["text"])
    feed = ET.parse(site / "feed.xml").getroot()  # well-formed XML whatever the names
    assert feed.tag == "{http://www.w3.org/2005/Atom}feed"
    return "\n".join(text)


def shown_as_text(text: str) -> None:
    """The hostile names are on the pages as the text they are (escaped, not dropped)."""
    first_bad = hostile_names.LABELS[hostile_names.STEP_AT - 1]
    assert f"star64@{first_bad}" in text  # the incident, named by its first bad label
    assert '<img src=x onerror="' in text and "]]>&amp;<!--" in text
    assert "1 board, 1 open incident" in text
    assert hostile_names.STATE not in text and "../../pwned" not in text


def test_a_hostile_sqlite_history_publishes_a_site_that_runs_no_script(
        browser: Any, tmp_path: Path) -> None:
    pytest.importorskip("otava", reason="needs Apache Otava (the history extra)")
    (tmp_path / "bl").mkdir()
    hostile_names.build(tmp_path / "bl" / "history.sqlite")
    site = published(tmp_path, ["--baselines", str(tmp_path / "bl")])
    shown_as_text(check_pages(browser, site))


def test_a_hostile_postgresql_history_publishes_a_site_that_runs_no_script(
        browser: Any, pg_server: PgServer, tmp_path: Path) -> None:
    pytest.importorskip("otava", reason="needs Apache Otava (the history extra)")
    url = pg_server.database("hostile_names")
    hostile_names.build(history_location(url))
    site = published(tmp_path, ["--history", url])
    shown_as_text(check_pages(browser, site))


def history_location(url: str) -> Any:
    from pytest_sbcbench.judge.history_url import parse

    return parse(url)
