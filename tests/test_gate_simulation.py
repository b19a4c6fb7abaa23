"""benchmarks/gate_simulation.py, the evidence behind the README's gate tables: a small seeded
run of its default mode (the candidate-boots procedure over the bound and detection cells, the
anchors' rules beside them), and the real samples of this VM replayed through the procedure."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
import gate_simulation

TRIALS = 4


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split(" | ")]


def test_default_mode_holds_the_bound_and_detects_the_drops() -> None:
    """Every bound cell of the issue (k = 2, 3, 5, 10 against c = 1, 3; heterogeneous drifts)
    and every detection cell (10 vs 3) gets a row; few unchanged suites fail anywhere, every
    detection target is met on these seeded suites, and the anchors are judged on the same
    draws."""
    every = [*gate_simulation.tables("bound", TRIALS, 7), "",
             *gate_simulation.tables("detect", TRIALS, 7)[2:],
             *gate_simulation.tables("protocols", TRIALS, 7)[1:],
             *gate_simulation.tables("few", TRIALS, 7)[2:],
             *gate_simulation.tables("auto", TRIALS, 7)[2:]]
    cut = every.index("A label's boots under each protocol:")
    lines, later = every[:cut - 1], every[cut:]
    _protocols_few_boots_and_auto(later)
    assert lines[0] == f"{TRIALS} suites of 25 metrics per cell, seed 7"
    assert lines[2].startswith("| cell (25 metrics, 3 runs a boot) | k baseline vs c candidate")
    rows = [_cells(x) for x in lines[4:] if x.startswith("| ") and " vs " in x
            and not x.startswith("| cell")]
    bound = [r for r in rows if r[6] == "-"]
    detect = [r for r in rows if r[6] != "-"]
    mixes = {"1 at 1% drift, 24 at 0; CV 1%", "5 at 1%, 20 at 0.25% drift; CV 1%",
             "CV 0.3/1/3%, drift 1%", "drift 0.5% shared by all; CV 1%"}
    assert {(r[0], r[1]) for r in bound} == {
        (mix, f"{k} vs {c}") for mix, k, c in itertools.product(mixes, (2, 3, 5, 10), (1, 3))}
    assert len(bound) == 32
    failing = [float(r[2].split("%")[0]) / 100 * TRIALS for r in rows]
    assert sum(failing) <= 0.05 * TRIALS * len(rows)  # the bound, over every cell at once
    assert [r[0] for r in detect] == [
        "lone 3% drop; CV 1%, drift 0.5%", "lone 3% drop; CV 0.3%, drift 0.5%",
        "lone 5% drop; CV 1%, drift 1%", "lone 10% drop; CV 3%, drift 1%",
        "suite 3% drop; CV 1%, drift 0.5%", "suite 3% drop; CV 1%, drift 0.5% shared"]
    assert all(r[1] == "10 vs 3" and r[6].endswith(": met)") for r in detect)
    assert detect[0][4].endswith("%")  # the design cell's unchanged metrics judged pass
    anchors = [_cells(x) for x in lines if x.count(" | ") == 3 and not x.startswith("| cell")]
    assert len(anchors) == 6 * len(gate_simulation.ANCHORS)
    assert {a[1] for a in anchors} == set(gate_simulation.ANCHORS)
    pyperf = next(a for a in anchors if a[0] == "lone 3% drop; CV 0.3%, drift 0.5%"
                  and a[1].startswith("pyperf"))
    assert pyperf[2] == "100.0%"  # its t-test on one session calls the boot's drift a change


def _heavy(cell: str) -> bool:
    return cell.startswith(("t(3) offsets", "one baseline boot"))


def _protocols_few_boots_and_auto(lines: list[str]) -> None:
    """Issue 28's tables: every bound mix and k, the heavy-tailed and one-outlier-boot cells,
    under the five protocols; the few-boots rows beside the plain t; auto on the detection
    cells with the boots it took."""
    rows = [_cells(x) for x in lines if x.startswith("| ") and x.count(" | ") == 7
            and not x.startswith("| cell")]
    protocols = {"--sbc-boots 1", "--sbc-boots 3", "1 boot by hand / compare",
                 "3 boots by hand / compare", "--sbc-boots auto"}
    assert {r[2] for r in rows} == protocols
    cells = {(r[0], r[1]) for r in rows}
    assert len(cells) == 16 + 8 and len(rows) == 3 * 16 + 5 * 8
    assert {c for c, _ in cells if _heavy(c)} == {
        "t(3) offsets, drift 1%, CV 0.3%", "t(3) offsets, drift 0.5%, CV 1%",
        "one baseline boot 4 SD fast; drift 1%, CV 0.3%",
        "one baseline boot 4 SD fast; drift 0.5%, CV 1%"}
    assert {r[2] for r in rows if not _heavy(r[0])} == {
        "1 boot by hand / compare", "3 boots by hand / compare", "--sbc-boots auto"}
    # the bound over the cells at once, every protocol (--sbc-boots 1 under t(3) boots too:
    # the board's tail weight, judge/boot_tails.py)
    failing = [float(r[3].split("%")[0]) / 100 * TRIALS for r in rows]
    assert sum(failing) <= 0.05 * TRIALS * len(failing)
    for r in rows:
        assert r[5].endswith("%") and r[6].endswith("%")
        if r[2] == "--sbc-boots auto":
            boots, drop = r[7].split(", ")[0].split("; ")
            assert 1 <= float(boots) <= 6 and 1 <= float(drop) <= 6
        else:
            assert r[7] == "-"
    few = [_cells(x) for x in lines if x.startswith("| 1 |") or x.startswith("| 2 |")]
    assert [r[0] for r in few] == ["1", "2"] and all(r[3].endswith(" points") for r in few)
    auto = [_cells(x) for x in lines if x.count(" | ") == 3 and x.startswith(("| lone",
                                                                              "| suite"))]
    assert len(auto) == 6 and all(r[2].endswith("met)") for r in auto)


def test_real_samples_from_this_host_through_the_procedure() -> None:
    """The four openssl metrics recorded on the busy development VM
    (tests/data/this_machine/gate-replay_*): unchanged, nothing regresses and nothing passes
    whose drop bound is not under 3%; 90% slower (the AES-NI-masked scale), every metric and
    the suite mean fail; against one group the boot drift is the assumed allowance, and no
    regression."""
    unchanged = gate_simulation.replay()
    assert [r.algorithm for r in unchanged] == ["aes-128-gcm", "chacha20-poly1305", "sha256",
                                                "sha512"]
    for r in unchanged:
        assert sorted(r.groups) == [1, 2, 3, 4] and all(len(v) == 6 for v in r.groups.values())
        d = r.decision
        assert d.status != "regression" and d.baseline_boots == 3 and d.candidate_boots == 1
        assert d.status != "pass" or d.upper_pct < 3.0
    assert not unchanged[0].family.failed
    masked = gate_simulation.replay(-0.90)
    assert all(r.decision.status == "regression" and r.decision.change_pct < -85
               for r in masked)
    assert masked[0].family.failed and masked[0].family.suite.status == "regression"
    for r in gate_simulation.replay(baseline_groups=(1,)):
        assert r.decision.status != "regression"
        assert r.decision.noise_source.startswith("assumed: one-boot allowance")
    table = gate_simulation.replay_table()
    assert table[2].startswith("| aes-128-gcm | 2.5%-15.7% | 7.2% | inconclusive (+7.7%")
    assert table[-1].startswith("| gate (Holm over 4 metrics + suite mean) | | | passes: 0 ")


def test_the_looks_table_gives_every_protocol_at_1_2_3_and_6_boots() -> None:
    """The look-by-look table (``--cells looks``): a row per cell and protocol, four figures a
    look, each a share; the bound and the false-pass rate hold on these seeded suites, and the
    auto table gives the boots taken."""
    import gate_looks

    cells = gate_looks.look_cells()[:1]
    lines = gate_looks.looks_tables(TRIALS, 3, cells)
    rows = [_cells(x) for x in lines[2:] if x.startswith("| CV 1%") and x.count(" | ") == 5]
    assert [r[1] for r in rows] == ["compare", "by hand", "--sbc-boots c"]
    for r in rows:
        for look in r[2:]:
            failed, passed, false_pass, caught = (float(v.strip("%")) for v in look.split(" / "))
            assert 0 <= passed <= 100 and 0 <= caught <= 100
            assert false_pass <= 10.0 and failed <= 50.0  # a few suites: loose, not the bound
    auto = [_cells(x) for x in lines if x.startswith("| CV 1%, drift 0.5% |")
            and x.count(" | ") == 4]
    assert len(auto) == 1 and 1 <= float(auto[0][2]) <= 6
    short = lines[lines.index("In short (the README's table):") + 2:]
    assert [r[0] for r in map(_cells, short[2:])] == [
        "unchanged suites failing, worst of every cell and protocol",
        "metrics truly 3% slower judged pass, worst of every cell and protocol",
        *(f"CV 1%, drift 0.5%, {p}: unchanged metrics judged pass / unchanged suites exiting "
          "0 / lone 3% caught" for p in ("compare", "by hand", "--sbc-boots c"))]
