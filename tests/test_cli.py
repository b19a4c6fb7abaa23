"""The ``sbcbench`` command line: ``probe`` on this machine and on captured board trees,
``list``, ``run``, ``compare`` and ``--version``."""

from __future__ import annotations

import json
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import RAW
from pytest_sbcbench.cli import main
from pytest_sbcbench.run.suite import duration_text, render


def test_probe_json_on_this_machine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["arch"] == platform.machine()
    assert facts["cpus"] >= 1 and facts["cpu_model"]
    assert "board_model" in facts


def test_probe_star64_tree(star64: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--sysroot", str(star64), "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert (facts["arch"], facts["cpus"], facts["board_model"]) == ("riscv64", 4, "Pine64 Star64")


def test_probe_text_output(star64: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--sysroot", str(star64)]) == 0
    assert "Pine64 Star64" in capsys.readouterr().out


def test_probe_of_a_missing_tree_exits_2(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--sysroot", str(tmp_path)]) == 2
    assert "proc/cpuinfo" in capsys.readouterr().err


def test_console_script_is_installed() -> None:
    done = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "probe", "--json"],
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["cpus"] >= 1


def test_list_names_every_workload_with_availability(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no tool at all: each says why it cannot run
    monkeypatch.delenv("SBCBENCH_OPENSSL", raising=False)
    assert main(["list", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert {"openssl-aes-128-gcm", "openssl-rsa2048-sign", "cryptography-aes-128-gcm",
            "compile-offline-crate", "compile-ballistics-pinned", "scaling-openssl",
            "scaling-sysbench", "scaling-stress-ng", "memory-stream",
            "storage-sequential"} <= set(rows)
    assert rows["openssl-sha256"]["test"] == "test_digest[sha256]"
    assert rows["openssl-sha256"]["markers"] == ["crypto"]
    assert not rows["openssl-sha256"]["available"]
    assert "openssl not found on PATH" in rows["openssl-sha256"]["reason"]
    assert "sysbench not installed" in rows["scaling-sysbench"]["reason"]
    assert rows["cryptography-aes-128-gcm"]["available"]
    times = rows["openssl-rsa2048-sign"]["expected_s"]
    assert times == {"quick": 4.0, "full": 18.0}  # sign and verify phases, 2 or 3 runs
    # at most: the idle gate's whole wait (2 s quick, 10 s) and re-measuring up to 2x the runs,
    # twice (a measurement disturbed by other work is waited out and taken again)
    assert rows["openssl-rsa2048-sign"]["at_most_s"] == {"quick": 2 * (2 + 8.0),
                                                         "full": 2 * (10 + 36.0)}


def test_list_text_columns_fit_their_widest_cell(capsys: pytest.CaptureFixture[str]) -> None:
    """The real listing plus a third party's workload with a long name and markers longer than
    the built-in ones: every column of every line starts where its header does."""
    assert main(["list", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    table.append({"name": "7zip-compress-and-decompress-a-large-corpus", "test": "t",
                  "markers": ["compression", "long-running"], "available": False,
                  "reason": "7z not installed", "expected_s": {"quick": 1234.0, "full": 5.0},
                  "at_most_s": {"quick": 4000.0, "full": 25.0}})
    header, *lines = render(table, as_json=False).splitlines()
    total, blank, note = lines[-3:]
    lines = lines[:-3]
    assert len(lines) == len(table)
    markers, quick, full = header.index("markers"), header.index("quick"), header.index("full")
    available = header.index("available")
    for row, line in zip(table, lines, strict=True):
        assert line.startswith(row["name"] + " ")
        assert line[markers:].startswith(",".join(row["markers"]) + " "), line
        least, most = row["expected_s"], row["at_most_s"]
        assert line[:quick + len("quick")].endswith(
            f" {duration_text(least['quick'])}-{duration_text(most['quick'])}"), line
        assert line[:full + len("full")].endswith(
            f" {duration_text(least['full'])}-{duration_text(most['full'])}"), line
        assert line[available:].startswith("yes" if row["available"] else "no: "), line
    # the third party's 1234 s to 4000 s quick: 21m-1h07m, a total of the available ones only
    assert lines[-1][:quick + len("quick")].endswith(" 21m-1h07m")
    here = [r for r in table if r["available"]]
    assert total.startswith(f"total ({len(here)} available)")
    full_least = sum(r["expected_s"]["full"] for r in here)
    full_most = sum(r["at_most_s"]["full"] for r in here)
    assert total[:full + len("full")].endswith(
        f" {duration_text(full_least)}-{duration_text(full_most)}"), total
    assert blank == "" and note.startswith("times: at least (the planned runs on an idle "
                                           "machine) to at most (the idle gate's whole wait")


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl not on PATH")
def test_run_ships_the_suite_to_any_directory(tmp_path: Path) -> None:
    """``sbcbench run`` from an empty directory: the shipped suite, test ids as in the
    repository, results where asked, baselines under ./baselines."""
    done = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "run", "-m", "crypto",
                           "--sbc-quick", "-k", "sha256", "--sbc-idle-wait", "0",
                           "--sbc-results", "r.json", "--sbc-save-baseline"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:]
    doc = json.loads((tmp_path / "r.json").read_text())
    assert [r["test"] for r in doc["results"]] == ["benchmarks/test_crypto.py::test_digest[sha256]"]
    assert (tmp_path / "baselines" / f"{doc['board']}.json").exists()


def test_compare_uses_the_same_judge_as_pytest(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Physics and the other-machine check apply offline as they do inside pytest."""
    def results(samples: list[float], cpu: str) -> Path:
        entry = {"test": "benchmarks/test_storage.py::test_sequential", "metric": "storage-read",
                 "unit": "B/s", "better": "higher", "identity": {"tool": "sbcbench-storage"},
                 "samples": samples, "telemetry": {}, "verdict": {"status": "pass"}}
        doc = {"schema": "sbcbench-results/1", "board": "star64", "created": "x",
               "environment": {"cpu_model": cpu, "cpus": 4}, "results": [entry]}
        path = tmp_path / f"{cpu}-{samples[0]}.json"
        path.write_text(json.dumps(doc))
        return path
    baseline = tmp_path / "star64.json"
    baseline.write_text(json.dumps({"schema": "sbcbench-baseline/1", "board": "star64",
                                    "entries": [{
        "test": "benchmarks/test_storage.py::test_sequential", "metric": "storage-read",
        "unit": "B/s", "better": "higher", "identity": {"tool": "sbcbench-storage"},
        "sessions": [{"created": "x", "samples": [20e6, 20.1e6, 19.9e6],
                      "environment": {"cpu_model": "U74", "cpus": 4}}]}]}))
    capsys.readouterr()
    # one boot each side: undecided, as the pytest gate exits on the same files (it was 0)
    assert main(["compare", str(baseline), str(results([20e6, 20.05e6], "U74"))]) == 6
    assert main(["compare", str(baseline), str(results([40e6, 40.1e6], "U74"))]) == 1
    assert "implausible  benchmarks/test_storage.py::test_sequential: storage-read 40" in \
        capsys.readouterr().out
    assert main(["compare", str(baseline), str(results([20e6, 20.05e6], "Cortex-A76"))]) == 4
    out = capsys.readouterr().out
    assert "incomparable" in out and "measured on another machine (cpu_model: baseline 'U74'" \
        in out
    assert "exit 4: cannot gate: 1 result incomparable with the baseline" in out


def _speed_results(tmp_path: Path, name: str, samples: list[float], cpu: str,
                   version: str = "3.0.19") -> Path:
    """A results file of one aes-128-gcm result as the plugin writes it (figures from
    tests/data/this_machine/openssl-3.0.19_mr_evp-aes-128-gcm_bytes16384.txt)."""
    entry = {"test": "benchmarks/test_crypto.py::test_cipher[aes-128-gcm]",
             "metric": "aes-128-gcm", "unit": "B/s", "better": "higher",
             "identity": {"tool": "openssl", "version": version, "algorithm": "aes-128-gcm",
                          "block_bytes": 16384, "threads": 1, "seconds": 3},
             "samples": samples, "telemetry": {}, "verdict": {"status": "no-baseline"}}
    doc = {"schema": "sbcbench-results/1", "board": "generic-x86_64", "created": name,
           "environment": {"arch": "x86_64", "cpu_model": cpu, "cpus": 2},
           "results": [entry]}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc))
    return path


AES = [4.6e9, 4.61e9, 4.59e9]


def test_compare_accepts_a_results_file_as_the_baseline(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two results files: the first is the baseline (one session, its environment), judged
    as pytest judges; a regression exits 1, the same numbers are undecided with one boot a
    side (6, the gate's code: a one-boot comparison cannot promise a pass)."""
    before = _speed_results(tmp_path, "before", AES, "AMD EPYC")
    same = _speed_results(tmp_path, "same", [4.605e9, 4.595e9, 4.6e9], "AMD EPYC")
    slower = _speed_results(tmp_path, "slower", [3.1e9, 3.12e9, 3.09e9], "AMD EPYC")
    assert main(["compare", str(before), str(same)]) == 6
    assert "exit 6: undecided: 1 metric neither passed nor regressed" in capsys.readouterr().out
    assert main(["compare", str(before), str(slower)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("regression   benchmarks/test_crypto.py::test_cipher[aes-128-gcm]")


def test_compare_refuses_a_candidate_session_the_baseline_holds_or_given_twice(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A candidate boot compared with itself would pass whatever it holds: a session already
    in the baseline (same created, boot and samples) or given twice is refused (exit 2); the
    same samples under another name are another session."""
    before = _speed_results(tmp_path, "before", AES, "AMD EPYC")
    (tmp_path / "copy").mkdir()
    again = _speed_results(tmp_path / "copy", "before", AES, "AMD EPYC")  # the same session
    same = _speed_results(tmp_path, "same", AES, "AMD EPYC")
    assert main(["compare", str(before), str(again)]) == 2
    assert "is one of the baseline's sessions (same session" in capsys.readouterr().err
    assert main(["compare", str(before), str(same), str(same)]) == 2
    assert f"candidate {same}: " in (err := capsys.readouterr().err) and "given twice" in err
    assert main(["compare", str(before), str(same)]) == 6


def test_compare_never_trusts_a_files_boots_left(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28, item 7: ``verdict._plan_values`` read ``boots_left`` from the file judged, so
    a file claiming boots still to come made every metric ``pending`` and a -33% drop exit 0.
    The last file given is the deciding boot, whatever it claims."""
    before = _speed_results(tmp_path, "before", AES, "AMD EPYC")
    slower = _speed_results(tmp_path, "slower", [3.1e9, 3.12e9, 3.09e9], "AMD EPYC")
    doc = json.loads(slower.read_text())
    doc["results"][0]["details"] = {"sequential": {
        "min_runs": 3, "max_runs": 6, "min_effect_pct": 3, "alpha": 0.0016, "n_metrics": 25,
        "boots_left": 5}}
    slower.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["compare", str(before), str(slower)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("regression ") and "pending" not in out


def test_compare_refuses_samples_beyond_arithmetic(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 31, item 4: samples of 1e308 crashed compare with a raw OverflowError and exit 1
    (the regression code); they are unusable input, named (exit 2)."""
    before = _speed_results(tmp_path, "before", AES, "AMD EPYC")
    huge = _speed_results(tmp_path, "huge", [1e308, 1e308, 1e308], "AMD EPYC")
    doc = json.loads(huge.read_text())
    doc["results"][0]["unit"] = "widgets"  # no believable range of its own
    huge.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["compare", str(before), str(huge)]) == 2
    err = capsys.readouterr().err
    assert f"sbcbench compare: {huge}: malformed result" in err and "sample 1e+308" in err
    assert main(["compare", str(huge), str(before)]) == 2


def test_compare_refuses_another_cpu_from_a_results_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The other-machine check uses the reference results file's environment, as pytest
    uses the baseline session's: another CPU is incomparable, so exit 4 (cannot gate), not 0."""
    before = _speed_results(tmp_path, "before", AES, "AMD EPYC")
    other = _speed_results(tmp_path, "other", AES, "Intel Xeon")
    assert main(["compare", str(before), str(other)]) == 4
    out = capsys.readouterr().out
    assert "another machine (cpu_model: baseline 'AMD EPYC', this run 'Intel Xeon')" in out
    # allowed, it is still nothing judged: a gate that compared nothing passed nothing
    assert main(["compare", "--allow-incomparable", str(before), str(other)]) == 4
    assert "no result has a comparable baseline" in capsys.readouterr().out


def test_compare_with_nothing_comparable_exits_4(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every result incomparable (another openssl), or none with a baseline: not a pass."""
    before = _speed_results(tmp_path, "before", AES, "AMD EPYC")
    upgraded = _speed_results(tmp_path, "upgraded", AES, "AMD EPYC", version="3.5.0")
    assert main(["compare", str(before), str(upgraded)]) == 4
    assert "version: baseline '3.0.19', this run '3.5.0'" in capsys.readouterr().out
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"schema": "sbcbench-baseline/1", "board": "generic-x86_64",
                                 "entries": []}))
    assert main(["compare", str(empty), str(before)]) == 4
    assert "exit 4: cannot gate: 1 result without a baseline" in capsys.readouterr().out


def test_compare_names_both_schemas_for_an_unknown_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"schema": "something/9"}))
    before = _speed_results(tmp_path, "before", AES, "AMD EPYC")
    assert main(["compare", str(odd), str(before)]) == 2
    err = capsys.readouterr().err
    assert "neither a baseline (sbcbench-baseline/1) nor a results file" in err


def test_compare_help_documents_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    out = capsys.readouterr().out
    assert "2 unusable input" in out and "4 cannot gate" in out and "6 undecided" in out


def test_sbcbench_run_passes_under_warnings_as_errors(tmp_path: Path) -> None:
    """Review round 2, L16: an installed (non-editable) plugin's package is marked for assertion
    rewriting, but the console script has imported it already: ``sbcbench run -W error`` failed on
    PytestAssertRewriteWarning.  ``-p pytest_sbcbench`` marks the package the same way here, where
    the editable install would not."""
    script = ("import sys; from pytest_sbcbench.cli import main; "
              "sys.exit(main(['run', '-W', 'error', '-p', 'pytest_sbcbench', '--co', '-q']))")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert "PytestAssertRewriteWarning" not in done.stderr
    assert done.returncode == 0, done.stderr[-2000:]
    assert "benchmarks/test_crypto.py::test_digest[sha256]" in done.stdout


def test_version_comes_from_package_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"sbcbench {version('pytest-sbcbench')}"


def test_probe_prints_text_not_python(star64: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--sysroot", str(star64)]) == 0
    out = capsys.readouterr().out
    assert not any(raw in out for raw in RAW), out
    assert "max mhz                1500, 1500, 1500, 1500" in out
    assert "  policy0  0,1,2,3  1500     performance" in out
    assert main(["probe", "--sysroot", str(star64), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["max_mhz"] == [1500.0] * 4  # JSON unchanged


def test_probe_with_a_missing_sbcbench_openssl_still_probes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SBCBENCH_OPENSSL", str(tmp_path / "nope"))
    assert main(["probe", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cpus"] >= 1
    assert main(["probe"]) == 0
    err = capsys.readouterr().err
    assert err.strip() == (f"note: openssl engines not probed: SBCBENCH_OPENSSL={tmp_path}/nope: "
                           "no such file; point SBCBENCH_OPENSSL at an openssl binary, or unset "
                           "it to use openssl on PATH")


def test_offline_commands_escape_names_from_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A results file is data a user was handed: a test id holding a terminal escape sequence
    (here one that clears the screen) is shown escaped by compare, validate and report, never
    written raw (compare and report printed it as it was)."""
    hostile = "benchmarks/test_crypto.py::test_cipher[\x1b[2Jaes]"
    paths = []
    for name, samples in (("before", AES), ("after", [4.605e9, 4.595e9, 4.6e9])):
        path = _speed_results(tmp_path, name, samples, "AMD EPYC")
        doc = json.loads(path.read_text())
        doc["results"][0]["test"] = hostile
        path.write_text(json.dumps(doc))
        paths.append(str(path))
    main(["compare", *paths])
    main(["validate", paths[1], "--board", "generic-x86_64"])
    main(["report", *paths])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "test_cipher[\\x1b[2Jaes]" in out
