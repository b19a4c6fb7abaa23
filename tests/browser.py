"""A real headless Chromium for the published site's tests (Debian's ``chromium`` and
``chromium-driver``, driven by Selenium), and the site's checks: every page loads with no
console error, every chart is drawn, every link resolves (its file exists and its #fragment
names an element there)."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")


@contextmanager
def chromium(profile: Path) -> Iterator[Any]:
    """A Selenium driver of headless Chromium (skips the test when either is missing)."""
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
    options.add_argument(f"--user-data-dir={profile}")
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


def errors(driver: Any) -> list[Any]:
    return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def visit(driver: Any, path: Path) -> list[str]:
    """Load ``path``; the absolute links on it (console errors fail the test)."""
    driver.get(path.as_uri())
    assert driver.execute_script("return document.readyState") == "complete"
    assert not errors(driver), f"{path}: {errors(driver)}"
    links: list[str] = driver.execute_script(
        "return Array.from(document.querySelectorAll('a[href]')).map(a => a.href);")
    return links


def resolves(driver: Any, href: str) -> None:
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


def check_site(driver: Any, out: Path, charts_per_board: dict[str, int]) -> dict[str, int]:
    """Load every page of the site in ``out``, check its charts and links; per board page, the
    incidents marked on its charts."""
    pages = [out / "index.html", *(out / "boards" / f"{b}.html" for b in charts_per_board)]
    links: list[str] = []
    marked = {}
    for page in pages:
        links += visit(driver, page)
        drawn = driver.execute_script(CHARTS)
        if page.name == "index.html":
            assert drawn == []
            continue
        assert len(drawn) == charts_per_board[page.stem], page
        for width, height, line_w, line_h, _ in drawn:
            assert width > 100 and height > 50 and line_w > 100 and line_h > 0, page
        marked[page.stem] = sum(c[4] for c in drawn)
    assert any(h.endswith("feed.xml") for h in links)
    for href in sorted(set(links)):
        resolves(driver, href)
    assert not errors(driver)
    return marked
