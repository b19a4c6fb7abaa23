"""The FreeBSD parsers are pure and total: any text (real outputs shuffled and cut, noise) gives
a value, never an exception; what ``sysctl`` prints reads back as printed."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_sbcbench.platform.freebsd import (
    freq_levels,
    parse_dmesg,
    parse_kenv,
    parse_sysctl,
    parse_uname,
    parse_zfs_get,
    temperature_c,
)
from pytest_sbcbench.platform.freebsd.sysctl import TOP_LEVEL, format_entries, select

DATA = Path(__file__).parent / "data" / "freebsd"
REAL = [p.read_text(errors="replace") for p in sorted(DATA.rglob("*"))
        if p.is_file() and not p.name.endswith(".source.txt")]
LINES = sorted({line for text in REAL for line in text.splitlines()})
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def output_like(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.sampled_from(LINES), max_size=40))
    noise = draw(st.lists(st.text(max_size=40), max_size=5))
    text = "\n".join(draw(st.permutations(lines + noise)))
    return text[:draw(st.integers(min_value=0, max_value=len(text)))]


@FUZZ
@given(st.one_of(st.text(max_size=400), output_like()))
def test_the_parsers_take_any_text(text: str) -> None:
    entries = parse_sysctl(text)
    assert all(name.split(".")[0] in TOP_LEVEL for name in entries)
    boot = parse_dmesg(text)
    assert boot.cpus is None or boot.cpus >= 0
    parse_zfs_get(text)
    parse_kenv(text)
    parse_uname(text)
    for value in [*entries.values(), text]:
        temperature_c(value)
        assert all(mhz >= 0 for mhz, _ in freq_levels(value))


NAMES = st.lists(st.sampled_from(["a", "b0", "tz1", "ARM MPCore Timecounter", "%desc"]),
                 min_size=1, max_size=4).map(".".join)
VALUES = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")),
                 max_size=30).map(str.strip)


@FUZZ
@given(st.dictionaries(st.tuples(st.sampled_from(TOP_LEVEL), NAMES).map(".".join), VALUES,
                       max_size=20))
def test_what_sysctl_prints_reads_back(entries: dict[str, str]) -> None:
    assert parse_sysctl(format_entries(entries)) == entries
    found, unknown = select(entries, [*entries, "kern.no_such_oid_here"])
    assert found == entries and unknown == (["kern.no_such_oid_here"]
                                            if "kern.no_such_oid_here" not in entries else [])
