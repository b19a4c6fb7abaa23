"""Issue 24, truth classes 3 and 5: block sizes read from the output (``-mb`` runs, a
``-multi`` parent's padded row), never invented; the legacy and the EVP path of one algorithm
kept apart (captures: see each ``.source.txt``)."""

from __future__ import annotations

import json

import pytest

from helpers import DATA
from pytest_sbcbench.cli import main
from pytest_sbcbench.errors import ParseError
from pytest_sbcbench.measure.openssl_parse import parse_speed

SPEED = DATA / "openssl_speed"
THIS = DATA / "this_machine"
MB_SIZES = (8192, 16384, 32768, 65536, 131072)
MULTI_MB = (SPEED
            / "openssl-4.1.0-dev_x86-64_multi1-mb_evp-aes-128-cbc-hmac-sha256_no-type-header.txt")
BOTH_PATHS = SPEED / "openssl-1.0.1-era_x86-64-i7-2760QM_legacy-and-evp-aes-128-cbc.txt"
GOT_F = "Got: +F:25:AES-128-CBC-HMAC-SHA256:"
# what the child printed before its +F (multiblock_speed in -mr mode; this machine's
# openssl-3.0.19_mr-mb capture shows the line), as the parent echoes it
GOT_H = "Got: +H:8192:16384:32768:65536:131072 from 0"


def with_line_before(text: str, marker: str, line: str) -> str:
    head, sep, tail = text.partition(marker)
    assert sep, marker
    return f"{head}{line}\n{sep}{tail}"


# --- class 3: -mb block sizes and a -multi parent's padding ------------------------------------

def test_multi_mb_parent_row_without_sizes_is_an_error_not_standard_sizes() -> None:
    """openssl#31772: no 'type' header, six cells for the child's five values, no '+H' echo.
    Before issue 24 the row was filed under 16..16384 bytes with a 0.00 at 16384."""
    with pytest.raises(ParseError, match="block sizes unknown"):
        parse_speed(MULTI_MB.read_text())


def test_cli_refuses_the_multi_mb_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "openssl", str(MULTI_MB), "--json"]) == 2
    assert "block sizes unknown" in capsys.readouterr().err


def test_multi_mb_row_takes_the_childrens_sizes_and_drops_the_padding_cell() -> None:
    text = with_line_before(MULTI_MB.read_text(), GOT_F, GOT_H)
    report = parse_speed(text)
    cells = {(c.algorithm, c.block_bytes): c.bytes_per_second for c in report.throughput}
    assert cells == {("aes-128-cbc-hmac-sha256", size): value * 1000.0 for size, value in zip(
        MB_SIZES, (822804.48, 914194.43, 961839.10, 1026949.12, 1071382.53), strict=True)}
    assert any("1 trailing 0.00 cell left out" in note for note in report.notes)


def test_childrens_sizes_win_over_a_parents_standard_header() -> None:
    """A parent that prints its standard lengths over multi-block sums (1.0.2's show_res
    prints ``lengths`` whatever the children ran): the children's '+H' decides, said."""
    text = with_line_before(MULTI_MB.read_text(), GOT_F, GOT_H)
    header = ("type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes"
              "  16384 bytes")
    text = with_line_before(text, "AES-128-CBC-HMAC-SHA256   ", header)
    report = parse_speed(text)
    assert sorted({c.block_bytes for c in report.throughput}) == list(MB_SIZES)
    assert any("not the parent's 'type' header" in note for note in report.notes)


def test_a_nonzero_cell_past_the_childrens_values_is_an_error() -> None:
    text = with_line_before(MULTI_MB.read_text(), GOT_F, GOT_H)
    text = text.replace("        0.00", "       12.00")
    with pytest.raises(ParseError, match="do not fit its children's"):
        parse_speed(text)


def test_headerless_row_with_trailing_zeros_is_not_read_as_a_standard_run() -> None:
    """The same summary row without its children's echo (a grep or tail of the log)."""
    text = "".join(line for line in MULTI_MB.read_text().splitlines(keepends=True)
                   if not line.startswith("Got:"))
    with pytest.raises(ParseError, match=r"trailing 0\.00 cell"):
        parse_speed(text)


def test_headerless_standard_row_is_still_read_and_the_assumption_said() -> None:
    report = parse_speed((SPEED / "openssl-3.5.3_spacemit-k3-riscv_multi4-tail5_evp-aes-256-gcm"
                          ".txt").read_text())
    assert report.bytes_per_second("aes-256-gcm", 16384) == pytest.approx(7578408280.0)
    assert any("standard block sizes" in note and "no 'type' header" in note
               for note in report.notes)


@pytest.mark.parametrize(("name", "last"), [
    ("openssl-3.0.19_mb_evp-aes-128-cbc-hmac-sha256_seconds1.txt", 981204990.0),
    ("openssl-3.0.19_mr-mb_evp-aes-128-cbc-hmac-sha256_seconds1.txt", 1020133376.0),
])
def test_this_machine_mb_sizes_come_from_the_header_or_record(name: str, last: float) -> None:
    report = parse_speed((THIS / name).read_text())
    assert [c.block_bytes for c in report.throughput] == list(MB_SIZES)
    assert report.bytes_per_second("aes-128-cbc-hmac-sha256", 131072) == pytest.approx(last)


def test_this_machine_multi_mb_crash_has_no_result() -> None:
    with pytest.raises(ParseError, match="no result lines"):
        parse_speed((THIS / "openssl-3.0.19_mr-multi2-mb_evp-aes-128-cbc-hmac-sha256_segfault"
                     ".txt").read_text())


# --- class 5: legacy and EVP rows of one algorithm ---------------------------------------------

def test_legacy_and_evp_rows_are_two_results() -> None:
    """erlang/otp#372 (OpenSSL 1.0.1): 'aes-128 cbc' (generic C) and 'aes-128-cbc' (EVP,
    AES-NI) canonicalise to one name; the path keeps them apart."""
    report = parse_speed(BOTH_PATHS.read_text())
    at_1024 = {c.api: c.bytes_per_second for c in report.throughput
               if c.algorithm == "aes-128-cbc" and c.block_bytes == 1024}
    assert at_1024 == {"legacy": 115345410.0, "evp": 665051480.0}
    assert report.bytes_per_second("aes-128-cbc", 1024, api="evp") == 665051480.0
    assert report.bytes_per_second("aes-128-cbc", 1024, api="legacy") == 115345410.0
    with pytest.raises(ParseError, match="legacy API and through EVP"):
        report.bytes_per_second("aes-128-cbc", 1024)
    # a row whose path the log does not contrast stays readable either way
    assert report.bytes_per_second("aes-128-gcm", 1024) == 1277712380.0
    assert report.bytes_per_second("aes-128-gcm", 1024, api="evp") == 1277712380.0
    assert report.both_paths() == {"aes-128-cbc"}


def test_cli_rows_carry_the_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "openssl", str(BOTH_PATHS), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["results"]
    paths = {(r["algorithm"], r.get("api")) for r in rows if r["block_bytes"] == 1024}
    assert paths == {("aes-128-cbc", "legacy"), ("aes-128-cbc", "evp"), ("rc4", None),
                     ("aes-128-gcm", None)}
    assert main(["parse", "openssl", str(BOTH_PATHS)]) == 0
    out = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert ["aes-128-cbc", "(legacy)", "1024", "1.15345e+08"] in out
    assert ["aes-128-cbc", "(evp)", "1024", "6.65051e+08"] in out


@pytest.mark.parametrize(("name", "printed", "api"), [
    ("openssl-3.0.11_rk3566-cortex-a55_evp-gcm-cbc-sha256.txt", "aes-128-gcm", "evp"),
    ("openssl-3.0.11_rk3566-cortex-a55_evp-gcm-cbc-sha256.txt", "aes-128-cbc", ""),
    ("openssl-1.0.2k-freebsd_x86-64_opnsense_plain-aes-128-cbc_space-name.txt", "aes-128-cbc",
     "legacy"),
    ("openssl-3.3.0_mr-multi2_hetzner-cpx11-amd-epyc-x86-64.txt", "aes-256-cbc", "evp"),
])
def test_the_printed_name_states_the_path(name: str, printed: str, api: str) -> None:
    """3.x: '-evp' rows carry the EVP name (AES-128-GCM), its own tests print lower case;
    1.x: its own cipher tests print a space (aes-128 cbc)."""
    report = parse_speed((SPEED / name).read_text())
    assert {c.api for c in report.throughput if c.algorithm == printed} == {api}


def test_a_multi_parents_headerless_row_takes_the_childrens_progress_sizes() -> None:
    """3.0.19's -multi parent prints no 'type' header; with both children's '+H' echoes cut
    from the log, their '+DT:sha256:1:<size>' stderr lines still name the sizes."""
    path = SPEED / "openssl-3.0.19_multi2-merged-stderr_evp-sha256.txt"
    text = path.read_text()
    without_h = "".join(line for line in text.splitlines(keepends=True)
                        if not line.startswith("Got: +H:"))
    assert parse_speed(without_h).throughput == parse_speed(text).throughput
    no_progress = "".join(line for line in without_h.splitlines(keepends=True)
                          if not line.startswith("+DT:"))
    with pytest.raises(ParseError, match="block sizes unknown"):
        parse_speed(no_progress)
