"""What the board must have.  A new kernel or BSP that loses a feature, a CPU or max clock
fails here first, before any benchmark number is trusted.

The facts come from the board profile (``baselines/boards/<board>.json``): CPU count and
clusters, max MHz per cluster, the ISA string, and ``must_have`` / ``must_not_have`` feature
names (the Star64: no V, no scalar or vector crypto; the Pi 5: aes, pmull, sha1, sha2)."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_sbcbench.platform.board import BoardProfile
from pytest_sbcbench.platform.isa import parse_riscv_isa

__all__ = [  # noqa: RUF022 - the collection order
    "pytestmark",
    "test_cpu_count",
    "test_max_clock_per_cluster",
    "test_required_features",
    "test_isa_string",
]

pytestmark = pytest.mark.platform
CLOCK_TOLERANCE = 0.02


def known(board: BoardProfile) -> None:
    if board.generic:
        pytest.skip(f"{board.name}: no board profile names this machine, so there is nothing "
                    "to hold it to; add one under baselines/boards/ or pass --board")


def test_cpu_count(sbc_board: BoardProfile, sbc_platform: dict[str, Any]) -> None:
    known(sbc_board)
    assert sbc_platform["cpus"] == sbc_board.cores, (
        f"{sbc_board.name} has {sbc_board.cores} CPUs, this kernel shows {sbc_platform['cpus']}")


def test_max_clock_per_cluster(sbc_board: BoardProfile, sbc_platform: dict[str, Any]) -> None:
    known(sbc_board)
    expected = sorted(c.max_mhz for c in sbc_board.clusters if c.max_mhz)
    found = sorted(c["max_mhz"] for c in sbc_platform["clusters"] if c["max_mhz"])
    if not found:
        pytest.skip("no cpufreq policies under this sysroot: max clock cannot be checked")
    assert sorted(set(found)) == pytest.approx(sorted(set(expected)), rel=CLOCK_TOLERANCE), (
        f"{sbc_board.name} clusters should reach {expected} MHz, cpufreq says {found}")


def test_required_features(sbc_board: BoardProfile, sbc_platform: dict[str, Any]) -> None:
    known(sbc_board)
    features = set(sbc_platform["features"])
    missing = sorted(set(sbc_board.facts.get("must_have", [])) - features)
    unexpected = sorted(set(sbc_board.facts.get("must_not_have", [])) & features)
    assert not missing, f"{sbc_board.name} lost CPU features: {missing}"
    assert not unexpected, f"{sbc_board.name} unexpectedly reports: {unexpected}"


def test_isa_string(sbc_board: BoardProfile, sbc_platform: dict[str, Any]) -> None:
    known(sbc_board)
    if not sbc_board.isa or sbc_platform["isa"] is None:
        pytest.skip("no RISC-V ISA string to check on this board")
    expected = parse_riscv_isa(sbc_board.isa)
    assert sbc_platform["isa"]["base"] == expected.base
    missing = sorted(set(expected.extensions) - set(sbc_platform["isa"]["extensions"]))
    assert not missing, f"{sbc_board.name} ISA lost {missing}"
