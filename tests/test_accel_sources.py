"""Accelerators attributed to the features that provide them (``accel_from`` in ``sbcbench
probe``), on the /proc/cpuinfo of the QEMU lab boards (tests/data/proc_cpuinfo/*_qemu-virt_*,
captured over labgrid; see each .source.txt) and of real boards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import CPUINFO, build_tree
from pytest_sbcbench.cli import main
from pytest_sbcbench.platform.isa import accel, accel_sources, features
from pytest_sbcbench.platform.parse import infer_arch, parse_cpuinfo


def capture(prefix: str) -> Path:
    (path,) = [p for p in CPUINFO.glob(f"{prefix}*.txt") if not p.name.endswith("source.txt")]
    return path


def sources(prefix: str) -> dict[str, list[str]]:
    info = parse_cpuinfo(capture(prefix).read_text())
    return accel_sources(features(info, infer_arch(info)))


def test_scalar_crypto_riscv_attributes_aes_and_sha2_to_zkne_and_zknh() -> None:
    assert sources("riscv64_qemu-virt_rv64-v-zkne-zknh") == {
        "aes": ["zkne"], "sha256": ["zknh"], "sha512": ["zknh"], "pmull": ["zbc"],
        "vector": ["v"]}


def test_jh7110_isa_has_nothing_to_attribute() -> None:
    assert sources("riscv64_qemu-virt_rv64imafdc") == {}
    assert sources("riscv64_milkv-mars") == {}  # the real JH7110 board agrees


@pytest.mark.parametrize("prefix", ["arm64_qemu-virt_cortex-a72", "arm64_qemu-virt_cortex-a53",
                                    "arm64_rpi5_bcm2712"])
def test_arm_crypto_extensions_are_attributed_to_their_features(prefix: str) -> None:
    found = sources(prefix)
    assert (found["aes"], found["sha256"], found["pmull"]) == (["aes"], ["sha2"], ["pmull"])
    assert "sha512" not in found


def test_sources_and_booleans_agree_on_every_capture() -> None:
    """``accel`` is true exactly where ``accel_from`` names a feature, on every capture."""
    for path in sorted(CPUINFO.glob("*.txt")):
        if path.name.endswith("source.txt"):
            continue
        info = parse_cpuinfo(path.read_text())
        found = features(info, infer_arch(info))
        assert {k for k, v in accel(found).items() if v} == set(accel_sources(found)), path


@pytest.mark.parametrize(("prefix", "model", "aes", "vector"), [
    ("arm64_qemu-virt_cortex-a72", "ARM Cortex-A72", ["aes"], ["asimd"]),
    ("arm64_qemu-virt_cortex-a53", "ARM Cortex-A53", ["aes"], ["asimd"]),
    ("riscv64_qemu-virt_rv64imafdc", "unknown", None, None),
    ("riscv64_qemu-virt_rv64-v-zkne-zknh", "unknown", ["zkne"], ["v"]),
])
def test_probe_cli_names_the_lab_boards(prefix: str, model: str, aes: list[str] | None,
                                        vector: list[str] | None, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``sbcbench probe --json`` on a tree holding each board's cpuinfo: the ARM core named
    from its part number, the accelerators with what provides them."""
    tree = build_tree(tmp_path, capture(prefix))
    assert main(["probe", "--sysroot", str(tree), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cpu_model"] == model
    assert (data["accel_from"].get("aes"), data["accel_from"].get("vector")) == (aes, vector)
    assert data["accel"]["aes"] is (aes is not None)
