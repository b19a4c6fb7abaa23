"""Every parser fails with its own clear error on any input, never with another exception."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import DATA
from pytest_sbcbench.errors import ParseError, SchemaError
from pytest_sbcbench.judge.baseline import parse_baseline
from pytest_sbcbench.measure.bssl import parse_bssl_speed
from pytest_sbcbench.measure.openssl_parse import mr_rate_unit, parse_speed
from pytest_sbcbench.measure.openssl_pq import listed_names
from pytest_sbcbench.measure.sysbench import parse_sysbench
from pytest_sbcbench.platform.host import parse_proc_stat
from pytest_sbcbench.platform.isa import accel, features, parse_riscv_isa
from pytest_sbcbench.platform.kcrypto import (
    classify,
    parse_openssl_engines,
    parse_proc_crypto,
)
from pytest_sbcbench.platform.mmc import parse_ios
from pytest_sbcbench.platform.parse import (
    cpu_model,
    infer_arch,
    parse_cpuinfo,
    parse_meminfo,
    parse_os_release,
)

CAPTURES = [p.read_text(errors="replace") for p in sorted(DATA.rglob("*.txt"))
            if not p.name.endswith(".source.txt")]
LINES = sorted({line for text in CAPTURES for line in text.splitlines()})


@st.composite
def tool_like(draw: st.DrawFn) -> str:
    """Real capture lines shuffled, truncated, duplicated, mixed with noise."""
    picked = draw(st.lists(st.sampled_from(LINES), max_size=30))
    noise = draw(st.lists(st.text(max_size=40), max_size=5))
    lines = draw(st.permutations(picked + noise))
    text = "\n".join(lines)
    cut = draw(st.integers(min_value=0, max_value=len(text)))
    return text[:cut] if draw(st.booleans()) else text


INPUTS = st.one_of(st.text(max_size=400), tool_like(),
                   st.sampled_from(CAPTURES).map(lambda t: t[: len(t) // 2]))
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

RAISING: dict[str, Callable[[str], object]] = {
    "openssl": parse_speed, "sysbench": parse_sysbench, "mmc": parse_ios,
    "cpuinfo": parse_cpuinfo, "meminfo": parse_meminfo,
    "proc_stat": parse_proc_stat, "bssl": parse_bssl_speed, "openssl_list": listed_names,
}
TOLERANT: dict[str, Callable[[str], object]] = {
    "proc_crypto": parse_proc_crypto, "engines": parse_openssl_engines,
    "isa": parse_riscv_isa, "os_release": parse_os_release,
}


@pytest.mark.parametrize("name", sorted(RAISING))
def test_parsers_raise_only_parse_errors(name: str) -> None:
    parser = RAISING[name]

    @FUZZ
    @given(INPUTS)
    def check(text: str) -> None:
        try:
            parser(text)
        except ParseError as exc:
            assert exc.reason  # a message a user can act on
    check()


@pytest.mark.parametrize("name", sorted(TOLERANT))
def test_tolerant_parsers_never_raise(name: str) -> None:
    parser = TOLERANT[name]

    @FUZZ
    @given(INPUTS)
    def check(text: str) -> None:
        parser(text)
    check()


@FUZZ
@given(INPUTS)
def test_whatever_cpuinfo_parses_is_fully_readable(text: str) -> None:
    """Arch, model, features and accelerators never fail on a cpuinfo the parser accepted, and
    every CPU record it returns carries its index."""
    try:
        info = parse_cpuinfo(text)
    except ParseError:
        return
    arch = infer_arch(info)
    found = features(info, arch)
    assert isinstance(cpu_model(info), str) and set(accel(found)) >= {"aes", "vector"}
    assert all(cpu["processor"].isdigit() for cpu in info.processors)


@FUZZ
@given(INPUTS)
def test_every_kernel_crypto_entry_gets_one_of_four_kinds(text: str) -> None:
    for algo in parse_proc_crypto(text):
        assert algo.kind in ("engine", "cpu", "generic", "unknown")
        assert classify(algo.driver, algo.module) == algo.kind


@FUZZ
@given(st.one_of(st.text(max_size=300), st.sampled_from([
    '{"schema": "sbcbench-baseline/1", "board": "b", "entries": [{}]}',
    '{"schema": "sbcbench-baseline/1", "board": "b", "entries": 5}',
    '{"schema": "sbcbench-baseline/1", "board": "b", "entries": [{"test": 1, "metric": 2, '
    '"unit": 3, "better": "up", "identity": {}, "sessions": []}]}',
    '{"schema": "sbcbench-baseline/1", "board": "b", "entries": [{"test": "t", "metric": "m",'
    ' "unit": "s", "better": "lower", "identity": [], "sessions": [{"samples": ["x"]}]}]}',
])))
def test_baselines_fail_only_with_schema_errors(text: str) -> None:
    try:
        parse_baseline(text, Path("b.json"))
    except SchemaError as exc:
        assert "b.json" in str(exc)


# --- openssl speed: -multi logs whose parent stdout is cut by children's stderr lines -----------

MULTI_LOGS = [DATA / "openssl_speed" / name for name in (
    "openssl-3.3.0_mr-multi2_hetzner-cax11-ampere-altra-arm64.txt",
    "openssl-3.0.19_multi2-merged-stderr_rsa2048.txt",
    "openssl-3.0.19_multi2-merged-stderr_evp-sha256.txt",
)]
PROGRESS = ["+R:223701:AES-256-CBC:3.000000", "+DT:sha256:3:16384", "+R1:1291:2048:1.00",
            "+DTP:2048:public:rsa:1"]


def echo_offsets(text: str) -> list[int]:
    """Character offsets inside the parent's 'Got: ... from N' echo lines."""
    offsets: list[int] = []
    at = 0
    for line in text.splitlines(keepends=True):
        if line.startswith("Got: "):
            offsets += range(at, at + len(line) - 1)
        at += len(line)
    return offsets


@FUZZ
@given(st.data())
def test_interleaved_child_echoes_never_change_the_parents_totals(data: st.DataObject) -> None:
    """The real mechanism: the parent's block-buffered stdout is cut anywhere inside its echoes
    and a child's whole stderr line lands at the cut.  The totals must not move, and a damaged
    echo is counted, never read."""
    path = data.draw(st.sampled_from(MULTI_LOGS))
    text = path.read_text()
    clean = parse_speed(text)
    cuts = data.draw(st.lists(st.sampled_from(echo_offsets(text)), max_size=6, unique=True))
    damaged = text
    for cut in sorted(cuts, reverse=True):
        damaged = damaged[:cut] + data.draw(st.sampled_from(PROGRESS)) + "\n" + damaged[cut:]
    report = parse_speed(damaged)
    assert (report.throughput, report.rates) == (clean.throughput, clean.rates)
    if report.notes:
        assert "damaged child echo line" in report.notes[0]


VERSIONS = st.builds(lambda a, b, c, letter: f"{a}.{b}.{c}{letter}",
                     st.integers(0, 4), st.integers(0, 9), st.integers(0, 9),
                     st.sampled_from(["", "a", "k", "w", "zh"]))


@FUZZ
@given(VERSIONS, st.floats(min_value=1e-7, max_value=1e7))
def test_mr_rate_is_the_value_from_111_on_and_its_reciprocal_before(version: str,
                                                                   value: float) -> None:
    line = f"+F2:2:2048:{value:f}:{value:f}\n"
    if float(f"{value:f}") == 0.0:
        return
    rate = parse_speed(line, version).per_second("rsa2048", "sign")
    assert rate is not None
    numbers = tuple(int(part) for part in version.rstrip("akwzh").split("."))
    recorded = float(f"{value:f}")
    expected = recorded if numbers >= (1, 1, 1) else 1.0 / recorded
    assert mr_rate_unit(version) == ("op/s" if numbers >= (1, 1, 1) else "s/op")
    assert rate == pytest.approx(expected)
