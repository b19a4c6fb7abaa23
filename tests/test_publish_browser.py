"""``sbcbench publish`` in a real headless Chromium (Debian's ``chromium`` and
``chromium-driver``, driven by Selenium): every page loads with no console error, every chart
is drawn, every link resolves (its file exists and its #fragment names an element there)."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from history_docs import build

from pytest_sbcbench.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    if CHROMIUM is None or DRIVER is None:
        pytest.skip("needs chromium and chromedriver (Debian: apt-get install chromium "
                    "chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver",
                                    reason="needs selenium (pip install 'pytest-sbcbench[test]')")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


CHARTS = """return Array.from(document.querySelectorAll('svg.chart')).map(function (s) {
  var line = s.querySelector('.series');
  var box = line ? line.getBBox() : {width: 0, height: 0};
  var shown = s.getBoundingClientRect();
  return [shown.width, shown.height, box.width, box.height,
          s.querySelectorAll('.incident').length];
});"""


def _errors(driver: Any) -> list[Any]:
    return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def _visit(driver: Any, path: Path) -> list[str]:
    """Load ``path``; the absolute links on it (console errors fail the test)."""
    driver.get(path.as_uri())
    assert driver.execute_script("return document.readyState") == "complete"
    assert not _errors(driver), f"{path}: {_errors(driver)}"
    links: list[str] = driver.execute_script(
        "return Array.from(document.querySelectorAll('a[href]')).map(a => a.href);")
    return links


def _resolves(driver: Any, href: str) -> None:
    parts = urlsplit(href)
    assert parts.scheme == "file", href
    target = Path(unquote(parts.path))
    assert target.is_file(), f"{href}: no such file"
    if target.suffix == ".xml":
        root = ET.parse(target).getroot()
        assert root.tag == "{http://www.w3.org/2005/Atom}feed"
        return
    driver.get(href)
    if parts.fragment:
        assert driver.execute_script("return document.getElementById(arguments[0]) !== null",
                                     unquote(parts.fragment)), f"{href}: no such anchor"


def test_the_published_site_loads_draws_every_chart_and_every_link_resolves(
        browser: Any, tmp_path: Path) -> None:
    build(tmp_path / "history.sqlite", labels=12, slower={"sha512": 8})
    build(tmp_path / "history.sqlite", board="rpi5", labels=8, seed=5)
    out = tmp_path / "site"
    assert main(["publish", str(out), "--baselines", str(tmp_path)]) == 0
    pages = [out / "index.html", out / "boards" / "star64.html", out / "boards" / "rpi5.html"]
    links = []
    for page in pages:
        links += _visit(browser, page)
        charts = browser.execute_script(CHARTS)
        if page.name == "index.html":
            assert charts == []
            assert "star64@L08" in browser.find_element("tag name", "body").text
            continue
        assert len(charts) == 4, page  # one per metric
        for width, height, line_w, line_h, _ in charts:
            assert width > 100 and height > 50 and line_w > 100 and line_h > 0
        marked = sum(c[4] for c in charts)
        assert marked == (1 if page.stem == "star64" else 0)
    assert any(h.endswith("feed.xml") for h in links)
    assert any("#star64@L08" in unquote(h) for h in links)
    for href in sorted(set(links)):
        _resolves(browser, href)
    assert not _errors(browser)
