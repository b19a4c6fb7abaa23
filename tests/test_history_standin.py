"""The issue's stand-in run of the history views (issue 29, "Done when"): labels L01..L12 of
three boots each on the stand-in openssl (scripts/fake-openssl/openssl: its own boot offsets,
drift 0.3% a boot and algorithm, seeded noise CV 0.5%), sha512 5% slower from L08 on.

The boots that decide it are real pytest runs (``SBCBENCH_BOOT_ID`` boots, ``--sbc-candidate
LABEL``): the first boot of L01 and all three of L08.  The other 32 boots cost no pytest run:
each is the first run's results document with its samples drawn by the stand-in's own code
(what it would have printed in that boot) and appended through the store's writer, so the
history is real-shaped throughout.  Then ``sbcbench history changes`` finds one incident,
naming sha512 with L08 as first bad label and nothing else; ``history show -k sha512`` draws
it; ``publish`` renders it in a real headless Chromium."""

from __future__ import annotations

import copy
import datetime
import importlib.machinery
import importlib.util
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from browser import check_site, chromium

from helpers import cli
from pytest_sbcbench.judge import history

REPO = Path(__file__).resolve().parent.parent
FAKE_OPENSSL = REPO / "scripts" / "fake-openssl" / "openssl"
ARGS = ["benchmarks", "-m", "crypto", "-k", "test_digest and (sha256 or sha512)",
        "--sbc-quick", "--sbc-runs", "3", "--sbc-idle-wait", "0", "--sbc-interval", "0.2"]
STEP_FROM = 8


def stand_in() -> ModuleType:
    loader = importlib.machinery.SourceFileLoader("fake_openssl", str(FAKE_OPENSSL))
    spec = importlib.util.spec_from_loader("fake_openssl", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def boot_env(monkeypatch: pytest.MonkeyPatch, label: int, boot: int) -> str:
    name = f"L{label:02d}-{boot}"
    monkeypatch.setenv("SBCBENCH_BOOT_ID", name)
    monkeypatch.setenv("SBCBENCH_FAKE_BOOT", name)
    if label >= STEP_FROM:
        monkeypatch.setenv("SBCBENCH_FAKE_SHIFT", "-5")
        monkeypatch.setenv("SBCBENCH_FAKE_SHIFT_ALGS", "sha512")
    else:
        monkeypatch.delenv("SBCBENCH_FAKE_SHIFT", raising=False)
        monkeypatch.delenv("SBCBENCH_FAKE_SHIFT_ALGS", raising=False)
    return name


def drawn(fake: ModuleType, template: dict[str, Any], name: str) -> dict[str, Any]:
    """The template session as boot ``name`` would have measured it (the stand-in's draws)."""
    doc = copy.deepcopy(template)
    doc["environment"]["boot_id"] = name
    # to the second, as a run records it: a run started after these appends but in the same
    # second must not look earlier than them (labels are ordered by their first session)
    doc["created"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    for result in doc["results"]:
        algorithm, block = result["identity"]["algorithm"], result["identity"]["block_bytes"]
        result["samples"] = [float(fake.lines(algorithm, block)[1].rsplit(":", 1)[1])
                             for _ in result["samples"]]
    return doc


@pytest.fixture
def boots(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
          copy_benchmarks: Callable[..., None]) -> Path:
    """The history of L01..L12, three boots each; the baselines folder holding it."""
    copy_benchmarks()
    baselines = pytester.path / "bl"
    record_stand_in(pytester, monkeypatch, baselines, history.history_path(baselines))
    return baselines


def record_stand_in(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                    baselines: Path, where: history.Location, *args: str) -> None:
    """L01..L12, three boots each, into the history at ``where``: the first boot and the
    labels from :data:`STEP_FROM` by real pytest runs of the stand-in openssl (with ``args``),
    the others drawn as it would have measured them."""
    monkeypatch.setenv("SBCBENCH_OPENSSL", str(FAKE_OPENSSL))
    monkeypatch.setenv("SBCBENCH_FAKE_SEED", "29")
    monkeypatch.setenv("SBCBENCH_FAKE_STATE", str(pytester.path / "fake-openssl.count"))
    monkeypatch.setenv("SBCBENCH_FAKE_CV", "0.5")
    monkeypatch.setenv("SBCBENCH_FAKE_DRIFT", "0.3")
    baselines.mkdir()
    fake, template = stand_in(), None
    for label in range(1, 13):
        for boot in (1, 2, 3):
            name = boot_env(monkeypatch, label, boot)
            if (label, boot) == (1, 1) or label == STEP_FROM:
                out = pytester.path / f"{name}.json"
                done = pytester.runpytest(*ARGS, "--sbc-baselines", str(baselines),
                                          "--sbc-candidate", f"L{label:02d}", *args,
                                          "--sbc-results", str(out))
                assert done.ret == pytest.ExitCode.OK, done.stdout.str()
                template = template or json.loads(out.read_text())
                continue
            assert template is not None
            history.append(where, drawn(fake, template, name), "candidate", f"L{label:02d}")

def one_sha512_incident(where: history.Location, *source: str) -> str:
    """The stand-in history at ``where`` (``source``: the CLI's option naming it) holds its 12
    labels of 3 boots and exactly one incident, sha512 from L08; its board."""
    summary = history.summary(where)
    assert [(r.label, r.boots, r.results) for r in summary] == [
        (f"L{j:02d}", 3, 6) for j in range(1, 13)]
    code, text = cli("history", "changes", "--json", *source)
    assert code == 0
    (incident,) = json.loads(text)["incidents"]
    board = str(incident["board"])
    assert (incident["id"], incident["first_bad"], incident["last_good"]) == (
        f"{board}@L08", "L08", "L07")
    (step,) = incident["metrics"]
    assert step["metric"] == "sha512" and step["direction"] == "regression"
    assert step["ci_pct"][0] < -5.0 < step["ci_pct"][1] < -3.0
    return board


@pytest.fixture
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as driver:
        yield driver


def test_one_incident_names_sha512_from_l08_and_is_drawn_and_published(
        boots: Path, browser: Any, tmp_path: Path) -> None:
    pytest.importorskip("otava", reason="needs Apache Otava (the history extra)")
    board = one_sha512_incident(history.history_path(boots), "--baselines", str(boots))

    code, text = cli("history", "show", "-k", "sha512", "--out", str(tmp_path / "charts"),
                     "--baselines", str(boots))
    assert code == 0 and f"<- {board}@L08 (open)" in text  # the chart: matplotlib (test extra)
    assert (tmp_path / "charts" / f"{board}-sha512.png").stat().st_size > 10_000

    site = tmp_path / "site"
    assert cli("publish", str(site), "--baselines", str(boots))[0] == 0
    assert check_site(browser, site, {board: 2}) == {board: 1}
