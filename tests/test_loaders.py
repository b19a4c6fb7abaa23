"""Malformed input: every loader refuses it with the file named, and the CLI exits 2 (never 1,
which means "regression", and never a traceback)."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from nobody import as_nobody, reachable_dir

from pytest_sbcbench.cli import main
from pytest_sbcbench.errors import SchemaError
from pytest_sbcbench.judge.baseline import load_baseline
from pytest_sbcbench.platform.board import load_profile_file, load_profiles
from pytest_sbcbench.report.fleet import load_fleet
from pytest_sbcbench.report.results import load_results

TEST = "benchmarks/test_crypto.py::test_cipher[aes-128-gcm]"
IDENTITY = {"tool": "openssl", "version": "3.0.19", "algorithm": "aes-128-gcm",
            "block_bytes": 16384, "threads": 1, "seconds": 1}
DEEP = "[" * 100_000 + "]" * 100_000
HUGE = "9" * 400

Doc = dict[str, Any]


def baseline_doc() -> Doc:
    return {"schema": "sbcbench-baseline/1", "board": "star64", "entries": [
        {"test": TEST, "metric": "aes-128-gcm", "unit": "B/s", "better": "higher",
         "identity": dict(IDENTITY),
         "sessions": [{"created": "2026-11-01", "samples": [21.7e6, 21.8e6], "environment": {}}]}
    ]}


def results_doc() -> Doc:
    return {"schema": "sbcbench-results/1", "board": "star64", "created": "x", "environment": {},
            "results": [{"test": TEST, "metric": "aes-128-gcm", "unit": "B/s", "better": "higher",
                         "identity": dict(IDENTITY), "samples": [21.7e6, 21.8e6],
                         "verdict": {"status": "pass", "detail": ""}}]}


def samples_as(raw: str) -> Callable[[str], str]:
    """Replace the first sample with ``raw`` JSON text (NaN and friends are not JSON values
    ``json.dumps`` would write, so they go in as text, as a hostile file would hold them)."""
    return lambda text: text.replace("21700000.0", raw, 1)


def field(key: str, value: object) -> Callable[[str], str]:
    def change(text: str) -> str:
        doc = json.loads(text)
        target = doc["entries"][0] if "entries" in doc else doc["results"][0]
        target[key] = value
        return json.dumps(doc)
    return change


CASES: list[tuple[str, Callable[[str], str], str]] = [
    ("deep nesting", lambda text: text.replace('"environment": {}', f'"environment": {DEEP}', 1),
     "nested deeper than 64 levels"),
    ("400-digit integer", samples_as(HUGE), "integer of 400 digits is out of range"),
    ("NaN", samples_as("NaN"), "NaN is not a number JSON allows"),
    ("Infinity", samples_as("-Infinity"), "-Infinity is not a number JSON allows"),
    ("overflowing float", samples_as("1e400"), "1e400 is out of range"),
    ("boolean sample", samples_as("true"), "True is not a number|samples must be numbers"),
    ("string sample", samples_as('"21700000"'), "is not a number|samples must be numbers"),
    ("numeric unit", field("unit", 1), "unit: 1 is not a non-empty string"),
    ("nested identity", field("identity", {"tool": ["openssl"]}), "must be a scalar"),
    ("not UTF-8", lambda text: text.replace("aes-128-gcm", "aes-\udcff", 1),
     "codec can't decode"),
    # issue 23, item 6: a 1e29 B/s sample turned a confirmed -50% regression into inconclusive
    ("sample beyond physics", samples_as("1e29"),
     r"outside the believable range|more than 1e\+15 times apart"),
    # issue 23, item 18: a reviewer reads the first "samples", json.loads kept the second
    ("duplicate key", lambda text: text.replace('"samples": [', '"samples": [1e6, 1e6], '
                                                '"samples": [', 1),
     "key 'samples' appears twice in one object"),
]


def write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    return path


@pytest.mark.parametrize(("case", "mutate", "message"), CASES, ids=[c[0] for c in CASES])
def test_malformed_baselines_name_the_file(tmp_path: Path, case: str,
                                           mutate: Callable[[str], str], message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "star64.json", mutate(json.dumps(baseline_doc())))
    with pytest.raises(SchemaError, match=message) as err:
        load_baseline(path)
    assert str(path) in str(err.value)
    good = write(tmp_path / "r.json", json.dumps(results_doc()))
    assert main(["compare", str(path), str(good)]) == 2
    assert f"sbcbench compare: {path}" in capsys.readouterr().err


@pytest.mark.parametrize(("case", "mutate", "message"), CASES, ids=[c[0] for c in CASES])
def test_malformed_results_name_the_file(tmp_path: Path, case: str,
                                         mutate: Callable[[str], str], message: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "r.json", mutate(json.dumps(results_doc())))
    with pytest.raises(SchemaError, match=message) as err:
        load_results(path)
    assert str(path) in str(err.value)
    with pytest.raises(SchemaError, match=message):
        load_fleet([path])
    baseline = write(tmp_path / "star64.json", json.dumps(baseline_doc()))
    assert main(["compare", str(baseline), str(path)]) == 2
    assert main(["report", str(path)]) == 2
    assert main(["validate", str(path), "--board", "milkv-mars"]) == 2
    assert capsys.readouterr().err.count(str(path)) == 3


@pytest.mark.parametrize(("board", "message"), [
    ("../../escaped", "invalid board name '../../escaped'"),
    ("star64\n", r"invalid board name 'star64\\n'"),
    (7, "invalid board name 7"),
])
def test_board_names_in_files_are_validated(tmp_path: Path, board: object, message: str) -> None:
    baseline = {**baseline_doc(), "board": board}
    with pytest.raises(SchemaError, match=message):
        load_baseline(write(tmp_path / "b.json", json.dumps(baseline)))
    results = {**results_doc(), "board": board}
    with pytest.raises(SchemaError, match=message):
        load_results(write(tmp_path / "r.json", json.dumps(results)))


def test_unknown_verdict_is_refused(tmp_path: Path) -> None:
    doc = results_doc()
    doc["results"][0]["verdict"] = {"status": "fine"}
    with pytest.raises(SchemaError, match="unknown verdict 'fine'"):
        load_results(write(tmp_path / "r.json", json.dumps(doc)))


def profile_doc() -> Doc:
    return {"schema": "sbcbench-board/1", "name": "testboard", "title": "Test board",
            "soc": "X1", "arch": "aarch64",
            "clusters": [{"cores": 4, "core": "Cortex-A55", "max_mhz": 1800}],
            "match": {"model": ["Test board"]}}


@pytest.mark.parametrize(("change", "message"), [
    ({"name": "../../escaped-board"}, "invalid board name"),
    ({"name": "testboard\n"}, "invalid board name"),
    ({"clusters": [{"cores": True, "core": "A55"}]}, "cores True is not a whole number"),
    ({"clusters": [{"cores": 4, "core": "A55", "max_mhz": "fast"}]}, "max_mhz 'fast'"),
    ({"clusters": []}, "clusters must be a non-empty list"),
    ({"title": 5}, "title: 5 is not a non-empty string"),
    ({"match": {"model": "Test board"}}, "match.model must be a list"),
])
def test_malformed_profiles_name_the_file(tmp_path: Path, change: Doc, message: str) -> None:
    path = write(tmp_path / "testboard.json", json.dumps({**profile_doc(), **change}))
    with pytest.raises(SchemaError, match=message) as err:
        load_profile_file(path)
    assert str(path) in str(err.value)


def test_nan_in_a_profile_names_the_file(tmp_path: Path) -> None:
    text = json.dumps(profile_doc()).replace("1800", "NaN")
    path = write(tmp_path / "testboard.json", text)
    with pytest.raises(SchemaError, match="NaN is not a number JSON allows") as err:
        load_profile_file(path)
    assert str(path) in str(err.value)


@pytest.fixture
def locked_dir() -> Iterator[Path]:
    with reachable_dir("sbcbench-loaders-") as path:
        yield path


def _error_of(call: Callable[[], object]) -> Callable[[], str]:
    def run() -> str:
        try:
            call()
        except SchemaError as exc:
            return f"SchemaError: {exc}"
        except Exception as exc:  # the bug this test guards against: anything unnamed
            return f"{type(exc).__name__}: {exc}"
        return "loaded"
    return run


def test_unreadable_baselines_directory_is_an_error_naming_it(locked_dir: Path) -> None:
    baselines = locked_dir / "baselines"
    (baselines / "boards").mkdir(parents=True)
    write(baselines / "star64.json", json.dumps(baseline_doc()))
    write(baselines / "boards" / "testboard.json", json.dumps(profile_doc()))
    (baselines / "boards").chmod(0o000)
    baselines.chmod(0o000)
    loaded = as_nobody(_error_of(lambda: load_baseline(baselines / "star64.json")))
    assert loaded.startswith(f"SchemaError: {baselines / 'star64.json'}: unreadable baseline: "
                             "Permission denied")
    baselines.chmod(0o755)
    profiles = as_nobody(_error_of(lambda: load_profiles(baselines / "boards")))
    assert profiles.startswith(f"SchemaError: {baselines / 'boards'}: unreadable board "
                               "profiles directory: Permission denied")


def test_sign_refuses_a_signature_path_that_is_a_directory(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "star64.json", json.dumps(baseline_doc()))
    assert main(["keygen", str(tmp_path / "lab")]) == 0
    (tmp_path / "star64.json.sig").mkdir()
    assert main(["sign", str(path), "--key", str(tmp_path / "lab.key")]) == 2
    assert f"{tmp_path / 'star64.json.sig'}: is a directory" in capsys.readouterr().err
    assert (tmp_path / "star64.json.sig").is_dir()


def test_compare_in_an_unreadable_directory_exits_2(locked_dir: Path) -> None:
    baselines = locked_dir / "baselines"
    baselines.mkdir()
    baseline = write(baselines / "star64.json", json.dumps(baseline_doc()))
    results = write(locked_dir / "r.json", json.dumps(results_doc()))
    baselines.chmod(0o000)

    def compare() -> str:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(["compare", str(baseline), str(results)])
        return f"{code} {err.getvalue().strip()}"
    assert as_nobody(compare).startswith(f"2 sbcbench compare: {baseline}: unreadable "
                                         "baseline or results file: Permission denied")


def test_schema_none_is_said_in_words(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A file with no schema field says so, not ``(schema None)``."""
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"board": "star64"}))
    assert main(["validate", str(odd), "--board", "star64"]) == 2
    err = capsys.readouterr().err
    assert "no schema field" in err and "None" not in err
