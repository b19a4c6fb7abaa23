"""``sbcbench publish`` in a real headless Chromium (:mod:`browser`): pages load with no console
error, every chart is drawn, links resolve."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import check_site, chromium
from history_docs import build

from pytest_sbcbench.cli import main


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as driver:
        yield driver


def test_the_published_site_loads_draws_every_chart_and_every_link_resolves(
        browser: Any, tmp_path: Path) -> None:
    pytest.importorskip("otava", reason="needs Apache Otava (the history extra)")
    build(tmp_path / "history.sqlite", labels=12, slower={"sha512": 8})
    build(tmp_path / "history.sqlite", board="rpi5", labels=8, seed=5)
    out = tmp_path / "site"
    # two processes, one board each (the path a lab's many boards take)
    assert main(["publish", str(out), "--baselines", str(tmp_path), "--jobs", "2"]) == 0
    marked = check_site(browser, out, {"star64": 4, "rpi5": 4})
    assert marked == {"star64": 1, "rpi5": 0}
    browser.get((out / "index.html").as_uri())
    body = browser.find_element("tag name", "body").text
    assert "star64@L08" in body and "2 boards, 1 open incident" in body
    links = browser.execute_script(
        "return Array.from(document.querySelectorAll('a[href]')).map(a => a.href);")
    assert any(h.endswith("boards/star64.html#star64@L08") for h in links)
