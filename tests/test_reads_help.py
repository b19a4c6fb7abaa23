"""Help and first steps: ``sbcbench run --help`` short and ours, the tests ``sbcbench run``
will skip said before anything runs, a misspelled board gets "did you mean", ``validate``
reads the board from the file, a replayed tree says once that its load cannot be judged,
and counts read "1 result", not "1 results"."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import DATA, listing_settings, star64_tree
from pytest_sbcbench.cli import main
from pytest_sbcbench.cli.run_help import run_help, wants_help
from pytest_sbcbench.errors import BoardError
from pytest_sbcbench.platform.board import builtin_profiles, merge, resolve, unknown_board
from pytest_sbcbench.platform.probe import probe
from pytest_sbcbench.platform.sysroot import Sysroot
from pytest_sbcbench.plugin.options import OPTIONS
from pytest_sbcbench.plugin.skip_notice import skip_lines
from pytest_sbcbench.run.preflight import REPLAY_NOTE
from pytest_sbcbench.run.quiet import Quiet

RESULTS = DATA / "this_machine" / "results_crypto-quick_generic-x86_64.json"
QEMU = DATA / "this_machine" / "results_qemu-a72_kernel-6.1.json"


def cli(*args: str, cwd: Path, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600, env=env)


def test_run_help_is_short_and_ours(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--help"]) == 0
    out = capsys.readouterr().out
    assert out == run_help()
    assert out.startswith("usage: sbcbench run [pytest options] [sbcbench options]")
    assert "pytest.main()" not in out and len(out.splitlines()) < 80
    # every option of the plugin's table, the baselines default as sbcbench run sets it
    for option in OPTIONS:
        assert option.flag in out or option.flag == "--sbc-list", option.flag
    assert "--sbc-baselines DIR   baseline directory (default: ./baselines in the current " \
        "directory;" in out
    assert "--pytest-help" in out and "sbcbench run --sbc-gate --sbc-candidate" in out


def test_help_flags_before_a_double_dash_only() -> None:
    assert wants_help(["-m", "crypto", "-h"]) == "ours"
    assert wants_help(["--pytest-help"]) == "pytest"
    assert wants_help(["-k", "sha512"]) is None
    assert wants_help(["--", "--help"]) is None


def test_pytest_help_is_one_option_away(tmp_path: Path) -> None:
    done = cli("run", "--pytest-help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: ") and "--sbc-baselines" in done.stdout
    assert "--junit-xml" in done.stdout  # pytest's own options: the full help


def test_run_says_up_front_what_it_will_skip(tmp_path: Path) -> None:
    """No tool on PATH: before anything is collected into a run, one line per missing tool
    naming the tests it skips (PTS lists missing dependencies before it starts)."""
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}
    done = cli("run", "--collect-only", "-q", "-m", "crypto or scaling", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("will be skipped here"))
    assert lines[head] == "will be skipped here: 19 of 21 selected tests, before anything runs:"
    assert lines[head + 1] == (
        "  test_cipher[aes-128-gcm, aes-256-gcm, aes-128-cbc, chacha20-poly1305], "
        "test_digest[sha256, sha512], test_asymmetric[rsa2048-sign, rsa2048-verify, "
        "ecdsa-p256-sign, ecdsa-p256-verify], test_kem[ml-kem-768-keygen, ml-kem-768-encaps, "
        "ml-kem-768-decaps], test_pq_signature[ml-dsa-65-sign, ml-dsa-65-verify], "
        "test_openssl_scaling: openssl not found on "
        "PATH: install it (Debian/Ubuntu: apt-get install openssl) or point SBCBENCH_OPENSSL "
        "at an openssl binary")
    assert lines[head + 2] == ("  test_bssl[aes-128-gcm-seal]: bssl not found on PATH: build "
                               "BoringSSL or AWS-LC (their tool/bssl) or point SBCBENCH_BSSL "
                               "at a bssl binary")
    assert lines[head + 3] == ("  test_sysbench_scaling: sysbench not installed "
                               "(apt-get install sysbench)")
    assert lines[head + 4].startswith("  test_stress_ng_matrixprod_scaling: stress-ng not "
                                      "installed")
    # the in-process tests (the cryptography package) run: not listed
    assert "test_inprocess" not in "\n".join(lines[head:head + 5])


def test_skip_lines_group_by_reason() -> None:
    assert skip_lines(["test_a[x]", "test_b", "test_a[y]"], ["no x", None, "no x"], 3) == [
        "will be skipped here: 2 of 3 selected tests, before anything runs:",
        "  test_a[x, y]: no x"]
    assert skip_lines(["test_b"], [None], 1) == []


def test_a_misspelled_board_gets_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(RESULTS), "--board", "star46"]) == 2
    err = capsys.readouterr().err
    assert "unknown board 'star46' (did you mean star64?); known boards: generic-<arch> " \
        "and " in err
    # pytest's --board goes through the same message (this machine, a misspelled Pi 5)
    with pytest.raises(BoardError, match=r"did you mean rpi5 or rpi-cm5\?"):
        resolve("rpi-5", probe(Sysroot()), merge(builtin_profiles()))
    assert "did you mean" not in unknown_board("zzzz", {})


def test_validate_reads_the_board_from_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(QEMU)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"board: generic-aarch64 (named by {QEMU})"
    assert out[-1] == "2 results, 0 implausible on generic-aarch64 (no limits)"


def test_one_result_is_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    data = json.loads(QEMU.read_text())
    data["results"] = data["results"][:1]
    one = tmp_path / "one.json"
    one.write_text(json.dumps(data))
    assert main(["validate", str(one)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("1 result, 0 implausible")


def test_a_captured_tree_has_no_idle_gate(tmp_path: Path) -> None:
    """The idle gate on a replayed tree would read a /proc/stat that never moves: it is not
    run (no wait, no bogus 'did not settle' finding)."""
    settings = listing_settings(star64_tree(tmp_path / "t"), quick=True)
    assert settings.idle_wait == 2.0 and not settings.sysroot.is_host
    from pytest_sbcbench.platform.host import SysrootHost

    quiet = Quiet([], sleep=lambda s: pytest.fail("waited on a captured tree"))
    assert quiet.before_test(settings, SysrootHost(settings.sysroot)) is None
    assert not quiet.settle(settings, SysrootHost(settings.sysroot))


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl not on PATH")
def test_a_replay_says_once_that_load_cannot_be_judged(tmp_path: Path) -> None:
    tree = star64_tree(tmp_path / "t")
    done = cli("run", "-k", "sha256 or sha512", "-m", "crypto", "--sbc-quick",
               "--sbc-sysroot", str(tree), "--board", "star64", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "did not settle" not in done.stdout and "background-load" not in done.stdout
    assert done.stdout.count(REPLAY_NOTE) == 1
