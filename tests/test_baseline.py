"""Baseline store, verdicts, signatures and ``sbcbench compare`` on synthetic files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_sbcbench.cli import main
from pytest_sbcbench.errors import SchemaError, SignatureError
from pytest_sbcbench.judge import signing
from pytest_sbcbench.judge.baseline import load_baseline, parse_baseline, with_session
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.judge.verdict import judge
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict

TEST = "benchmarks/test_crypto.py::test_cipher[aes-128-gcm]"
IDENTITY = Identity.of(tool="openssl", version="3.0.19", algorithm="aes-128-gcm",
                       block_bytes=16384, threads=1, seconds=1)


def result(samples: tuple[float, ...], identity: Identity = IDENTITY) -> Result:
    m = Measurement("aes-128-gcm", "B/s", "higher", identity, samples)
    return Result(TEST, m, summarize(samples), Verdict("no-baseline", ""))


def saved(tmp_path: Path, *sessions: tuple[float, ...], env: dict[str, object] | None = None
          ) -> Path:
    baseline = None
    for i, samples in enumerate(sessions):
        baseline = with_session(baseline, "star64", [result(samples)], f"2026-11-0{i + 1}",
                                env or {"cpu_model": "sifive,u74-mc", "cpus": 4})
    path = tmp_path / "star64.json"
    assert baseline is not None
    path.write_text(json.dumps(baseline.as_dict()))
    return path


def test_sessions_accumulate_per_identity(tmp_path: Path) -> None:
    path = saved(tmp_path, (21.7e6, 21.8e6, 21.6e6), (21.9e6, 21.7e6, 21.8e6))
    baseline = load_baseline(path)
    assert baseline is not None and len(baseline.entries) == 1
    assert [s.created for s in baseline.entries[0].sessions] == ["2026-11-01", "2026-11-02"]
    other = Identity.of(**{**IDENTITY.as_dict(), "version": "3.5.6"})
    grown = with_session(baseline, "star64", [result((30e6, 31e6), other)], "x", {})
    assert len(grown.entries) == 2


def test_verdicts(tmp_path: Path) -> None:
    baseline = load_baseline(saved(tmp_path, (21.7e6, 21.8e6, 21.6e6)))
    machine = {"cpu_model": "sifive,u74-mc", "cpus": 4}
    assert judge(result((21.75e6, 21.7e6, 21.8e6)), baseline, "star64", machine).status == "pass"
    slow = judge(result((15.0e6, 15.1e6, 14.9e6)), baseline, "star64", machine)
    assert slow.status == "regression" and "change -30.88%" in slow.detail
    assert judge(result((21.7e6,)), None, "star64").status == "no-baseline"


def test_incomparable_names_the_differing_keys(tmp_path: Path) -> None:
    baseline = load_baseline(saved(tmp_path, (21.7e6, 21.8e6, 21.6e6)))
    other = Identity.of(**{**IDENTITY.as_dict(), "version": "3.5.6", "seconds": 3})
    verdict = judge(result((21.7e6, 21.8e6), other), baseline, "star64")
    assert verdict.status == "incomparable"
    assert "seconds: baseline 1, this run 3" in verdict.detail
    assert "version: baseline '3.0.19', this run '3.5.6'" in verdict.detail


def test_another_machine_is_incomparable(tmp_path: Path) -> None:
    baseline = load_baseline(saved(tmp_path, (21.7e6, 21.8e6, 21.6e6)))
    verdict = judge(result((21.7e6, 21.8e6)), baseline, "generic-riscv64",
                    {"cpu_model": "AMD EPYC", "cpus": 2})
    assert verdict.status == "incomparable" and "another machine" in verdict.detail


@pytest.mark.parametrize(("text", "message"), [
    ('{"schema": "sbcbench-baseline/1", "board": "x", "entries": [', "corrupt or truncated"),
    ("", "corrupt or truncated"),
    ('{"schema": "sbcbench-baseline/9", "board": "x", "entries": []}', "unknown baseline schema"),
    ("[1, 2]", "must be a JSON object"),
    ('{"schema": "sbcbench-baseline/1", "board": "x", "entries": [{"test": "t"}]}',
     "malformed baseline"),
    ('{"schema": "sbcbench-baseline/1", "board": "x", "entries": [{"test": "t", "metric": "m",'
     ' "unit": "s", "better": "lower", "identity": {}, "sessions": [{"created": "c",'
     ' "samples": [0]}]}]}', "finite positive"),
])
def test_broken_baselines_name_the_file(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "star64.json"
    with pytest.raises(SchemaError, match=message) as err:
        parse_baseline(text, path)
    assert str(path) in str(err.value)


def test_wrong_schema_names_the_version(tmp_path: Path) -> None:
    with pytest.raises(SchemaError) as err:
        parse_baseline('{"schema": "sbcbench-baseline/9"}', tmp_path / "b.json")
    assert "'sbcbench-baseline/9'" in str(err.value) and err.value.version == "sbcbench-baseline/9"


def test_sign_and_verify(tmp_path: Path) -> None:
    path = saved(tmp_path, (21.7e6, 21.8e6, 21.6e6))
    private, public = signing.keygen(tmp_path / "lab")
    assert private.stat().st_mode & 0o777 == 0o600
    with pytest.raises(SignatureError, match="unsigned baseline"):
        signing.verify(path, signing.public_key(public))
    signing.sign(path, private)
    signing.verify(path, signing.public_key(public))
    path.write_text(path.read_text().replace("21700000", "31700000"))
    with pytest.raises(SignatureError, match="does not match"):
        signing.verify(path, signing.public_key(public))
    _, other = signing.keygen(tmp_path / "other")
    signing.sign(path, private)
    with pytest.raises(SignatureError, match="does not match"):
        signing.verify(path, signing.public_key(other))
    with pytest.raises(SignatureError, match="refusing to overwrite"):
        signing.keygen(tmp_path / "lab")


def test_cli_keygen_sign_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = saved(tmp_path, (21.7e6, 21.8e6, 21.6e6))
    assert main(["keygen", str(tmp_path / "k")]) == 0
    assert main(["sign", str(path), "--key", str(tmp_path / "k.key")]) == 0
    assert (tmp_path / "star64.json.sig").exists()

    def results_file(samples: list[float]) -> Path:
        doc = {"schema": "sbcbench-results/1", "board": "star64", "created": "x",
               "environment": {}, "results": [{**result(tuple(samples)).as_dict()}]}
        out = tmp_path / "r.json"
        out.write_text(json.dumps(doc))
        return out
    capsys.readouterr()
    assert main(["compare", str(path), str(results_file([21.7e6, 21.8e6]))]) == 0
    assert main(["compare", str(path), str(results_file([10.0e6, 10.1e6]))]) == 1
    out = capsys.readouterr().out
    assert "regression   benchmarks/test_crypto.py::test_cipher[aes-128-gcm]" in out
    assert "1 results, 1 regression(s)" in out
    (tmp_path / "bad.json").write_text("{")
    assert main(["compare", str(tmp_path / "bad.json"), str(results_file([1.0]))]) == 2
    assert main(["compare", str(path), str(tmp_path / "bad.json")]) == 2
    assert main(["compare", str(path), str(path)]) == 2  # a baseline is not a results file
    assert "not a results file" in capsys.readouterr().err
