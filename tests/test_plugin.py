"""The plugin end to end with pytester: markers, the board (named, detected, from a tree or
the baselines directory), selections and the results JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import needs_openssl, star64_tree

TRIVIAL = """
def test_board(sbc_board):
    print("BOARD=" + sbc_board.name)
"""


@pytest.mark.parametrize("name", ["../x", "Star64", "a b", "star64;rm"])
def test_bad_board_name_is_a_usage_error(pytester: pytest.Pytester, name: str) -> None:
    pytester.makepyfile(TRIVIAL)
    result = pytester.runpytest("--board", name)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--board*lowercase letters a-z, digits 0-9, '-' and '_' only*"])


def test_markers_are_registered_for_strict_markers(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest
        @pytest.mark.crypto
        @pytest.mark.compile
        @pytest.mark.platform
        @pytest.mark.scaling
        @pytest.mark.memory
        @pytest.mark.storage
        def test_marked():
            pass
    """)
    pytester.runpytest("--strict-markers").assert_outcomes(passed=1)


def test_board_mismatch_names_both(pytester: pytest.Pytester, tmp_path: Path) -> None:
    pytester.makepyfile(TRIVIAL)
    result = pytester.runpytest("--board", "star64")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--board star64 does not match this machine: detected*"])


def test_star64_tree_matches_star64(pytester: pytest.Pytester, tmp_path: Path) -> None:
    tree = star64_tree(tmp_path / "star64")
    pytester.makepyfile(TRIVIAL)
    result = pytester.runpytest("--board", "star64", "--sbc-sysroot", str(tree), "-s")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*sbcbench: board star64 (Pine64 Star64)*", "*BOARD=star64*"])


def test_auto_detected_board_on_tree(pytester: pytest.Pytester, tmp_path: Path) -> None:
    tree = star64_tree(tmp_path / "star64")
    pytester.makepyfile(TRIVIAL)
    result = pytester.runpytest("--sbc-sysroot", str(tree), "-s")
    result.stdout.fnmatch_lines(["*BOARD=star64*"])


def test_board_profiles_from_baselines_dir(pytester: pytest.Pytester, tmp_path: Path) -> None:
    boards = pytester.path / "baselines" / "boards"
    boards.mkdir(parents=True)
    (boards / "broken.json").write_text("{not json")
    pytester.makepyfile(TRIVIAL)
    result = pytester.runpytest("-s")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*broken.json*unreadable board profile*"])


def test_crypto_and_compile_select_disjoint_sets(
        pytester: pytest.Pytester, copy_benchmarks: Callable[..., None]) -> None:
    copy_benchmarks("test_crypto.py", "test_compile.py")
    crypto = pytester.runpytest("benchmarks", "-m", "crypto", "--collect-only", "-q")
    compile_ = pytester.runpytest("benchmarks", "-m", "compile", "--collect-only", "-q")
    crypto_ids = {line for line in crypto.outlines if "::" in line}
    compile_ids = {line for line in compile_.outlines if "::" in line}
    assert len(crypto_ids) == 18
    assert not crypto_ids & compile_ids


@needs_openssl
def test_results_json_end_to_end(pytester: pytest.Pytester,
                                 copy_benchmarks: Callable[..., None]) -> None:
    copy_benchmarks()
    out = pytester.path / "run.json"
    result = pytester.runpytest("benchmarks", "-m", "crypto", "-k",
                                "sha512 or rsa2048 or test_inprocess and aes",
                                "--sbc-quick", "--sbc-idle-wait", "0", "--sbc-results", str(out))
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines([
        "*sbcbench: generic-*", "*test*metric*tool*median*unit*CV %*n*verdict*",
        "*test_digest?sha512?*sha512*openssl*MB/s*2*no-baseline*",
        "*rsa2048 sign*op/s*no-baseline*", "*--sbc-save-baseline*"])
    doc = json.loads(out.read_text())
    assert doc["schema"] == "sbcbench-results/1" and doc["board"].startswith("generic-")
    assert {"arch", "kernel", "os", "cpu_model", "cpus", "openssl", "python",
            "governor"} <= doc["environment"].keys()
    by_test = {r["test"]: r for r in doc["results"]}
    sha = by_test["benchmarks/test_crypto.py::test_digest[sha512]"]
    assert sha["unit"] == "B/s" and sha["better"] == "higher" and len(sha["samples"]) == 2
    assert sha["identity"] == {"tool": "openssl", "version": doc["environment"]["openssl"],
                               "algorithm": "sha512", "block_bytes": 16384, "threads": 1,
                               "seconds": 1}
    assert set(sha["summary"]) == {"n", "mean", "median", "stdev", "cv"}
    assert sha["verdict"]["status"] == "no-baseline"
    sign = by_test["benchmarks/test_crypto.py::test_asymmetric[rsa2048-sign]"]
    assert sign["unit"] == "op/s" and sign["identity"]["op"] == "sign"
    inproc = by_test["benchmarks/test_crypto.py::test_inprocess[aes-128-gcm]"]
    assert inproc["identity"]["tool"] == "cryptography"
    assert inproc["identity"]["library"].startswith(("OpenSSL", "LibreSSL", "BoringSSL"))


def test_missing_openssl_skips_with_a_reason(pytester: pytest.Pytester,
                                             monkeypatch: pytest.MonkeyPatch,
                                             copy_benchmarks: Callable[..., None]) -> None:
    copy_benchmarks()
    empty = pytester.path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("SBCBENCH_OPENSSL", raising=False)
    result = pytester.runpytest("benchmarks", "-k", "test_digest", "-rs")
    result.assert_outcomes(skipped=2)
    result.stdout.fnmatch_lines(["*openssl not found on PATH: install it*SBCBENCH_OPENSSL*"])
