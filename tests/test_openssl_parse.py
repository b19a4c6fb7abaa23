"""The openssl speed parser on real captures from other machines and from this one."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers import DATA
from pytest_sbcbench.cli import main
from pytest_sbcbench.errors import ParseError
from pytest_sbcbench.measure.openssl_multi import canonical, split_lines
from pytest_sbcbench.measure.openssl_parse import detect_version, mr_rate_unit, parse_speed

SPEED = DATA / "openssl_speed"
K = 1000.0

# (file, algorithm, block bytes, value in 1000s of bytes/s) as the captures' sources state them
THROUGHPUT_CELLS = [
    ("openssl-1.0.1e_rpi1-armv6_raspbian_full-speed.txt", "aes-256-cbc", 1024, 11969.50),
    ("openssl-1.0.1e_rpi1-armv6_raspbian_full-speed.txt", "sha256", 8192, 19586.83),
    ("openssl-1.0.1f_rpi2-armv7_ubuntu_full-speed.txt", "aes-128-cbc", 16, 20525.47),
    ("openssl-1.0.1f_rpi2-armv7_ubuntu_full-speed.txt", "md5", 1024, 69563.39),
    ("openssl-1.0.1f_rpi2-armv7_ubuntu_full-speed.txt", "sha512", 1024, 20718.25),
    ("openssl-1.0.1f_x86-64_i5-4690K_full-speed.txt", "aes-256-cbc", 1024, 124509.53),
    ("openssl-1.0.1f_x86-64_i5-4690K_full-speed.txt", "ghash", 16, 1555713.02),
    ("openssl-1.0.2k-freebsd_x86-64_opnsense_evp-aes-128-cbc.txt", "aes-128-cbc", 16, 259552.04),
    ("openssl-1.0.2k-freebsd_x86-64_opnsense_evp-aes-128-cbc.txt", "aes-128-cbc", 8192,
     390116.57),
    ("openssl-1.0.2k-freebsd_x86-64_opnsense_plain-aes-128-cbc_space-name.txt", "aes-128 cbc",
     1024, 85214.55),
    ("openssl-1.0.2k-freebsd_x86-64_opnsense_plain-aes-128-cbc_space-name.txt", "aes-128-cbc",
     8192, 86029.65),
    ("libressl-2.8.3_macos-x86-64_evp-aes-256-gcm.txt", "aes-256-gcm", 16, 575878.68),
    ("libressl-2.8.3_macos-x86-64_evp-aes-256-gcm.txt", "aes-256-gcm", 8192, 2122290.74),
    ("openssl-1.1.1t-freebsd_rk3588s-nanopi-r6s_opnsense_evp-aes-256-gcm.txt", "aes-256-gcm",
     64, 318361.38),
    ("openssl-1.1.1t-freebsd_rk3588s-nanopi-r6s_opnsense_evp-aes-256-gcm.txt", "aes-256-gcm",
     16384, 572997.42),
    ("openssl-1.1.1t-freebsd_rpi4-bcm2711_evp-aes-256-gcm.txt", "aes-256-gcm", 16384, 28910.35),
    ("openssl-1.1.1u_rk3399-nanopi-r4s_openwrt_evp-aes-256-gcm.txt", "aes-256-gcm", 16, 83109.60),
    ("openssl-1.1.1u_rk3399-nanopi-r4s_openwrt_evp-aes-256-gcm.txt", "aes-256-gcm", 16384,
     124073.06),
    ("openssl-3.0.9_rk3588-rock5b_gentoo_evp-aes-256-gcm.txt", "AES-256-GCM", 16, 319587.05),
    ("openssl-3.0.9_rk3588-rock5b_gentoo_evp-aes-256-gcm.txt", "AES-256-GCM", 16384, 1864138.75),
    ("openssl-3.0.9_rk3588-rock5b_gentoo_evp-aes-256-gcm.txt", "aes-256-gcm", 8192, 1864214.26),
    ("openssl-3.0.11_rk3566-cortex-a55_evp-gcm-cbc-sha256.txt", "AES-128-GCM", 16384, 874086.40),
    ("openssl-3.0.11_rk3566-cortex-a55_evp-gcm-cbc-sha256.txt", "aes-128-cbc", 1024, 1189352.45),
    ("openssl-3.0.11_rk3566-cortex-a55_evp-gcm-cbc-sha256.txt", "sha256", 16, 13900.53),
    ("openssl-3.3.0_mr-multi2_hetzner-cax11-ampere-altra-arm64.txt", "aes-256-cbc", 16384,
     3347409.57867),
    ("openssl-3.3.0_mr-multi2_hetzner-cax11-ampere-altra-arm64.txt", "sha256", 16, 155141.88267),
    ("openssl-3.3.0_mr-multi2_hetzner-cpx11-amd-epyc-x86-64.txt", "aes-256-cbc", 16384,
     1709315.41334),
    ("openssl-3.3.0_mr-multi2_hetzner-cpx11-amd-epyc-x86-64.txt", "sha256", 16384, 3061596.16),
    ("openssl-3.4.0_x86-64_docker-oqsprovider_full-speed-seconds2.txt", "aes-128-cbc", 16,
     931099.21),
    ("openssl-3.5.3_spacemit-k3-riscv_multi4-tail5_evp-aes-256-gcm.txt", "aes-256-gcm", 16,
     88486.50),
    ("openssl-3.5.3_spacemit-k3-riscv_multi4-tail5_evp-aes-256-gcm.txt", "aes-256-gcm", 16384,
     7578408.28),
    ("openssl-3.5.6_karu64-riscv-fpga_bytes16384_evp-aes-128-ecb.txt", "aes-128-ecb", 16384,
     199.26),
    ("sbcbench_openssl-1.0.1t_armv7-8core_aes-cbc-5col.txt", "aes-128-cbc", 16, 26810.76),
    ("sbcbench_openssl-1.1.1f_rk3588_aes-cbc-gcm-per-cluster.txt", "aes-256-gcm", 16384,
     1648547.16),
    ("sbcbench_openssl-3.0.10_spacemit-k1_riscv_aes-cbc.txt", "aes-256-cbc", 16384, 27213.82),
]

RATE_CELLS = [
    ("openssl-1.0.1e_rpi1-armv6_raspbian_full-speed.txt", "rsa2048", 13.6, 439.5),
    ("openssl-1.0.1e_rpi1-armv6_raspbian_full-speed.txt", "ecdsa-p256", 307.7, 73.2),
    ("openssl-1.0.1f_x86-64_i5-4690K_full-speed.txt", "rsa2048", 1046.3, 34247.7),
    ("openssl-1.0.2k-fips_x86-64_rsa2048-ecdsap256.txt", "rsa2048", 1456.4, 34250.1),
    ("openssl-1.0.2k-fips_x86-64_rsa2048-ecdsap256.txt", "ecdsa-p256", 23677.2, 9516.5),
    ("openssl-3.4.0_x86-64_docker-oqsprovider_full-speed-seconds2.txt", "rsa2048", 656.7,
     23043.5),
    ("openssl-3.4.0_x86-64_docker-oqsprovider_full-speed-seconds2.txt", "ecdsa-p256", 31178.2,
     10865.5),
]


def parse_file(path: Path, version: str | None = None):  # type: ignore[no-untyped-def]
    return parse_speed(path.read_text(), version)


@pytest.mark.parametrize(("name", "algorithm", "block", "kilo"), THROUGHPUT_CELLS)
def test_known_throughput_cells(name: str, algorithm: str, block: int, kilo: float) -> None:
    report = parse_file(SPEED / name)
    assert report.bytes_per_second(algorithm, block) == pytest.approx(kilo * K, rel=1e-9)


@pytest.mark.parametrize(("name", "algorithm", "sign", "verify"), RATE_CELLS)
def test_known_rate_cells(name: str, algorithm: str, sign: float, verify: float) -> None:
    report = parse_file(SPEED / name)
    assert report.per_second(algorithm, "sign") == pytest.approx(sign)
    assert report.per_second(algorithm, "verify") == pytest.approx(verify)


def test_eight_column_rsa_table_has_encrypt_and_decrypt() -> None:
    report = parse_file(SPEED / "openssl-3.4.0_x86-64_docker-oqsprovider_full-speed-seconds2.txt")
    assert report.per_second("rsa2048", "encrypt") == pytest.approx(22322.5)
    assert report.per_second("rsa2048", "decrypt") == pytest.approx(618.0)


def test_multi_takes_the_combined_total_not_a_child() -> None:
    report = parse_file(SPEED / "openssl-3.3.0_mr-multi2_hetzner-cax11-ampere-altra-arm64.txt")
    total = report.bytes_per_second("aes-256-cbc", 16384)
    assert total == pytest.approx(3347409578.67)
    assert total != pytest.approx(1679196160.00)  # child 0's line


def test_repeated_rows_keep_their_cluster_labels() -> None:
    report = parse_file(SPEED / "sbcbench_openssl-1.1.1f_rk3588_aes-cbc-gcm-per-cluster.txt")
    rows = [c for c in report.throughput if c.algorithm == "aes-128-cbc" and c.block_bytes == 16384]
    assert [r.label for r in rows[:2]] == ["Cortex-A55", "Cortex-A76"]
    assert rows[1].bytes_per_second == pytest.approx(1871495.17 * K)
    cbc = [c for c in report.throughput if c.algorithm == "aes-128-cbc" and c.block_bytes == 16]
    assert cbc[0].bytes_per_second == pytest.approx(173982.22 * K)


def test_sbcbench_repeated_rows_first_and_second() -> None:
    report = parse_file(SPEED / "sbcbench_openssl-1.0.1t_armv7-8core_aes-cbc-5col.txt")
    rows = [c for c in report.throughput if c.algorithm == "aes-128-cbc" and c.block_bytes == 16]
    assert [r.bytes_per_second for r in rows[:2]] == [pytest.approx(26810.76 * K),
                                                      pytest.approx(74115.00 * K)]
    assert report.version == "1.0.1t"


def test_unscaled_small_cells_are_bytes_not_kilobytes() -> None:
    report = parse_file(SPEED / "openssl-1.0.1e_rpi1-armv6_raspbian_full-speed.txt")
    assert report.bytes_per_second("md2", 16) == 0.0


@pytest.mark.parametrize(("name", "version"), [
    ("openssl-1.0.1e_rpi1-armv6_raspbian_full-speed.txt", "1.0.1e"),
    ("openssl-3.0.9_rk3588-rock5b_gentoo_evp-aes-256-gcm.txt", "3.0.9"),
    ("libressl-2.8.3_macos-x86-64_evp-aes-256-gcm.txt", "LibreSSL 2.8.3"),
    ("openssl-1.0.2k-fips_x86-64_rsa2048-ecdsap256.txt", "1.0.2k"),
    ("openssl-3.3.0_mr-multi2_hetzner-cax11-ampere-altra-arm64.txt", None),
])
def test_version_from_banner(name: str, version: str | None) -> None:
    assert detect_version((SPEED / name).read_text()) == version


def test_this_machine_mr_symmetric() -> None:
    report = parse_file(DATA / "this_machine/openssl-3.0.19_mr_evp-aes-128-gcm_bytes16384.txt")
    assert report.bytes_per_second("aes-128-gcm", 16384) == pytest.approx(4490920597.98)


def test_this_machine_mr_asymmetric_is_per_second_in_3x() -> None:
    rsa = parse_file(DATA / "this_machine/openssl-3.0.19_mr_rsa2048.txt", "3.0.19")
    assert rsa.per_second("rsa2048", "sign") == pytest.approx(4154.545455)
    assert rsa.per_second("rsa2048", "verify") == pytest.approx(60760.0)
    ec = parse_file(DATA / "this_machine/openssl-3.0.19_mr_ecdsap256.txt", "3.0.19")
    assert ec.per_second("ecdsa-p256", "sign") == pytest.approx(50259.0)
    assert ec.per_second("ecdsa-p256", "verify") == pytest.approx(16832.0)


def test_this_machine_human_tables() -> None:
    sha = parse_file(DATA / "this_machine/openssl-3.0.19_human_evp-sha512_bytes16384.txt")
    assert sha.bytes_per_second("sha512", 16384) is not None
    asym = parse_file(DATA / "this_machine/openssl-3.0.19_human_rsa2048_ecdsap256.txt")
    assert asym.per_second("rsa2048", "sign") == pytest.approx(3683.0)
    assert asym.per_second("ecdsa-p256", "verify") == pytest.approx(16174.0)


@pytest.mark.parametrize("text", ["", "   \n", "hello world\n", "+H:16384\n",
                                  "Doing aes-128-gcm for 3s on 16 size blocks\n"])
def test_no_number_is_an_error(text: str) -> None:
    with pytest.raises(ParseError, match="openssl speed output"):
        parse_speed(text)


def test_bad_mr_line_is_an_error_naming_it() -> None:
    with pytest.raises(ParseError, match=r"\+F:25:AES-128-GCM:abc"):
        parse_speed("+H:16384\n+F:25:AES-128-GCM:abc\n")


def test_canonical_names() -> None:
    assert canonical("AES-128-GCM") == "aes-128-gcm"
    assert canonical("aes-128 cbc") == "aes-128-cbc"
    assert canonical("ChaCha20-Poly1305") == "chacha20-poly1305"


# --- issue 11, class 1: the unit of asymmetric -mr records depends on the version -------------

@pytest.mark.parametrize(("version", "unit"), [
    ("3.0.19", "op/s"), ("3.5.3", "op/s"), ("1.1.1w", "op/s"), ("1.1.1", "op/s"),
    ("1.1.1h", "op/s"), ("1.1.0l", "s/op"), ("1.0.2k", "s/op"), ("1.0.1e", "s/op"),
    ("0.9.8zh", "s/op"), ("LibreSSL 2.8.3", "s/op"), ("LibreSSL 3.8.2", "s/op"),
    (None, None), ("BoringSSL", None),
])
def test_mr_rate_unit_by_version(version: str | None, unit: str | None) -> None:
    assert mr_rate_unit(version) == unit


def test_mr_rsa_is_per_second_from_111_on() -> None:
    """1.1.1's speed.c: rsa_results = count / d, printed as +F2:%u:%u:%f:%f."""
    report = parse_speed("+F2:2:2048:988.100000:32216.500000\n", "1.1.1w")
    assert report.per_second("rsa2048", "sign") == pytest.approx(988.1)
    assert report.per_second("rsa2048", "verify") == pytest.approx(32216.5)


def test_mr_rsa_is_seconds_per_op_before_111() -> None:
    """1.1.0, 1.0.x and LibreSSL: rsa_results = d / count."""
    for version in ("1.1.0l", "1.0.2k", "LibreSSL 2.8.3"):
        report = parse_speed("+F2:2:2048:0.001012:0.000031\n", version)
        assert report.per_second("rsa2048", "sign") == pytest.approx(1 / 0.001012)
        assert report.per_second("rsa2048", "verify") == pytest.approx(1 / 0.000031)


@pytest.mark.parametrize(("line", "version", "algorithm", "op", "rate"), [
    ("+F3:1:1024:9000.000000:11000.000000", "1.1.1w", "dsa1024", "verify", 11000.0),
    ("+F3:1:1024:0.000111:0.000091", "1.0.2k", "dsa1024", "sign", 1 / 0.000111),
    ("+F4:3:256:50259.000000:16832.000000", "3.0.19", "ecdsa-p256", "sign", 50259.0),
    ("+F4:5:521:0.000700:0.001400", "1.1.0l", "ecdsa-p521", "verify", 1 / 0.0014),
    # +F5: the first value follows the rule, the second is its reciprocal
    ("+F5:3:256:13612.000000:0.000073", "1.1.1k", "ecdh-p256", "derive", 13612.0),
    ("+F5:3:256:0.000073:13612.000000", "1.0.2k", "ecdh-p256", "derive", 1 / 0.000073),
    ("+F6:0:253:Ed25519:25000.000000:9000.000000", "1.1.1w", "ed25519", "sign", 25000.0),
    ("+F2:2:2048:4154.545455:60760.000000:58000.000000:4000.000000", "3.4.0", "rsa2048",
     "decrypt", 4000.0),
])
def test_mr_record_shapes(line: str, version: str, algorithm: str, op: str, rate: float) -> None:
    assert parse_speed(line + "\n", version).per_second(algorithm, op) == pytest.approx(rate)


def test_mr_curves_past_p521_are_named_by_index_not_guessed() -> None:
    report = parse_speed("+F4:7:233:1000.0:500.0\n", "3.0.19")
    assert report.per_second("ecdsa-curve7-233bits", "sign") == pytest.approx(1000.0)


def test_unknown_version_leaves_asymmetric_records_out_with_a_note() -> None:
    text = "+H:16384\n+F:22:sha256:1000000.00\n+F2:2:2048:988.100000:32216.500000\n"
    report = parse_speed(text)
    assert report.bytes_per_second("sha256", 16384) == pytest.approx(1e6)
    assert report.rates == ()
    assert any("rsa2048" in n and "names no OpenSSL version" in n for n in report.notes)
    with pytest.raises(ParseError, match=r"rsa2048.*1\.1\.1 and later give op/s"):
        parse_speed("+F2:2:2048:988.100000:32216.500000\n")


def test_real_111_mr_record_is_count_over_seconds() -> None:
    """Tongsuo 8.2 (OpenSSL 1.1.1h-dev): the child's echoed +F6 value is its +R8 count divided
    by the seconds it reports, so a 1.1.1 record is op/s; the whole log has no usable parent
    summary (its row says 'infs') and is refused."""
    text = (SPEED / "tongsuo-8.2_openssl-1.1.1h-dev_multi2-merged-stderr_sm2_broken-parent.txt"
            ).read_text()
    version = detect_version(text)
    assert version == "1.1.1h"
    first_count, seconds = 11373, 10.00  # '+R8:11373:256:CurveSM2:10.00'
    echo = split_lines(text).echoes[0].record
    child = parse_speed(echo + "\n", version)  # the record as its line, newline included
    assert child.per_second("curvesm2", "sign") == pytest.approx(first_count / seconds)
    with pytest.raises(ParseError, match="no usable parent summary"):
        parse_speed(text)


# --- issue 11, class 2: merged stderr and damaged child echoes ----------------------------------

def test_multi_merged_stderr_human_rsa_is_the_parents_sum() -> None:
    """'+DTP/+R/Got:' lines precede the human table: the table is the result, and 3.x's
    parent adds the children's op/s (1291.0 + 1353.465347 = 2644.5)."""
    path = SPEED / "openssl-3.0.19_multi2-merged-stderr_rsa2048.txt"
    report = parse_file(path)
    assert report.per_second("rsa2048", "sign") == pytest.approx(2644.5)
    assert report.per_second("rsa2048", "verify") == pytest.approx(63414.0)
    children = [parse_speed(echo.record + "\n", "3.0.19")
                for echo in split_lines(path.read_text()).echoes]
    total = sum(c.per_second("rsa2048", "sign") or 0.0 for c in children)
    assert total == pytest.approx(2644.5, abs=0.05)


def test_multi_merged_stderr_human_sha256() -> None:
    report = parse_file(SPEED / "openssl-3.0.19_multi2-merged-stderr_evp-sha256.txt")
    assert report.version == "3.0.19"
    assert report.bytes_per_second("sha256", 16) == pytest.approx(114135.87 * K)
    assert report.bytes_per_second("sha256", 16384) == pytest.approx(1159872.51 * K)
    assert report.notes == ()


DAMAGED = SPEED / ("openssl-3.4.0_sparecores-azure-e48s-v6_mr-multi48_evp-aes-256-cbc"
                   "_damaged-echo.txt")


def test_damaged_child_echo_is_skipped_and_counted() -> None:
    report = parse_file(DAMAGED)
    assert report.bytes_per_second("aes-256-cbc", 16384) == pytest.approx(58272448512.00)
    assert report.bytes_per_second("aes-256-cbc", 16) == pytest.approx(31548346453.34)
    assert len(report.throughput) == 6  # the parent's total only, no child's share
    assert report.notes == ("2 damaged child echo lines skipped (stdout and stderr "
                            "interleaved)",)


def test_child_echoes_without_the_parents_total_are_an_error() -> None:
    lines = DAMAGED.read_text().splitlines()
    assert lines[-1].startswith("+F:25:AES-256-CBC:")  # the parent's total
    with pytest.raises(ParseError, match="no usable parent summary"):
        parse_speed("\n".join(lines[:-1]) + "\n")
    multi = (SPEED / "openssl-3.3.0_mr-multi2_hetzner-cax11-ampere-altra-arm64.txt").read_text()
    cut = [line for line in multi.splitlines() if not line.startswith("+F:25:blake2b512:")]
    with pytest.raises(ParseError, match="children reported blake2b512 but the parent"):
        parse_speed("\n".join(cut) + "\n")


def test_a_damaged_header_echo_never_sets_the_block_sizes() -> None:
    text = ("Got: +H:16:6+R:31851:shake128:3.000000\n"
            "Got: +H:16:64:256:1024:8192:16384 from 1\n"
            "Got: +F:25:shake128:1.00:2.00:3.00:4.00:5.00:6.00 from 0\n"
            "Got: +F:25:shake128:9.00:18.00:27.00:36.00:45.00:54.00 from 1\n"
            "+F:25:shake128:10.00:20.00:30.00:40.00:50.00:60.00\n")
    report = parse_speed(text)
    assert [c.block_bytes for c in report.throughput] == [16, 64, 256, 1024, 8192, 16384]
    assert report.bytes_per_second("shake128", 16384) == pytest.approx(60.0)
    assert len(report.notes) == 1


def test_a_progress_line_does_not_turn_a_human_table_into_mr() -> None:
    text = (SPEED / "openssl-1.0.2k-fips_x86-64_rsa2048-ecdsap256.txt").read_text()
    report = parse_speed("+DTP:2048:private:rsa:10\n+R1:14564:2048:10.00\n" + text)
    assert report.per_second("rsa2048", "sign") == pytest.approx(1456.4)


# --- sbcbench parse openssl ----------------------------------------------------------------------

def test_cli_reads_a_log_with_a_damaged_child_echo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "openssl", str(DAMAGED), "--json"]) == 0
    out, err = capsys.readouterr()
    parsed = json.loads(out)
    cells = {(r["algorithm"], r["block_bytes"]): r["bytes_per_second"] for r in parsed["results"]}
    assert cells == {("aes-256-cbc", b): v for b, v in zip(
        (16, 64, 256, 1024, 8192, 16384),
        (31548346453.34, 52092361621.34, 54772220330.65, 56923089920.02, 57830981631.97,
         58272448512.00), strict=True)}
    assert parsed["notes"] == ["2 damaged child echo lines skipped (stdout and stderr "
                               "interleaved)"]
    assert "note: 2 damaged child echo lines" in err


@pytest.mark.parametrize(("name", "expected"), [
    ("openssl-3.0.19_multi2-merged-stderr_rsa2048.txt",
     [["rsa2048", "sign", "2644.5"], ["rsa2048", "verify", "63414"]]),
    ("openssl-3.0.19_multi2-merged-stderr_evp-sha256.txt",
     [["sha256", "16384", "1.15987e+09"]]),
    ("openssl-3.3.0_mr-multi2_hetzner-cax11-ampere-altra-arm64.txt",
     [["aes-256-cbc", "16384", "3.34741e+09"]]),
])
def test_cli_reads_merged_stderr_multi_logs(name: str, expected: list[list[str]],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "openssl", str(SPEED / name)]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert all(row in rows for row in expected)


def test_cli_needs_the_version_for_headerless_asymmetric_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "rsa.txt"
    log.write_text("+DTP:2048:private:rsa:10\n+R1:9881:2048:10.00\n+F2:2:2048:988.1:32216.5\n")
    assert main(["parse", "openssl", str(log)]) == 2
    assert "names no OpenSSL version" in capsys.readouterr().err
    assert main(["parse", "openssl", str(log), "--openssl-version", "1.1.1w", "--json"]) == 0
    rates = {r["op"]: r["per_second"] for r in json.loads(capsys.readouterr().out)["results"]}
    assert rates == {"sign": 988.1, "verify": 32216.5}


def test_when_every_header_echo_is_damaged_the_standard_sizes_are_assumed_and_said() -> None:
    path = SPEED / "openssl-3.3.0_mr-multi2_hetzner-cax11-ampere-altra-arm64.txt"
    text = path.read_text()
    clean = parse_speed(text)
    first_block = text[:text.index("ALGO: -evp sha256")]
    cut = first_block.replace("Got: +H:16:64:256", "Got: +H:16:6+R:7336214:blake2b512:3.000000\n"
                              "4:256")
    assert cut.count("+R:7336214:blake2b512:3.000000\n4:256") == 2
    report = parse_speed(cut + text[len(first_block):])
    assert report.throughput == clean.throughput
    assert report.notes == ("4 damaged child echo lines skipped (stdout and stderr "
                            "interleaved)",
                            "standard block sizes assumed for blake2b512: every child's '+H' "
                            "echo was damaged")


def test_a_total_with_no_header_in_an_undamaged_log_is_an_error() -> None:
    with pytest.raises(ParseError, match=r"no \+H block sizes before it"):
        parse_speed("+F:25:sha256:1.00:2.00:3.00:4.00:5.00:6.00\n")



def test_a_parent_that_mis_adds_its_children_is_refused() -> None:
    """openssl/openssl#10261: 1.1.1's do_multi read +F6's curve name as the sign rate, so the
    parent said sign 0 and verify = the children's signs.  Where every child's echo survived,
    the parent must be their sum (op/s) or their combined seconds (s/op)."""
    children = ("Forked child 0\nForked child 1\n"
                "Got: +F6:0:253:Ed25519:25000.000000:9000.000000 from 0\n"
                "Got: +F6:0:253:Ed25519:24000.000000:8800.000000 from 1\n")
    good = parse_speed(children + "+F6:0:253:Ed25519:49000.000000:17800.000000\n", "1.1.1w")
    assert good.per_second("ed25519", "sign") == pytest.approx(49000.0)
    with pytest.raises(ParseError, match=r"parent's \+F6:0:253:Ed25519 value 0\.0 is not"):
        parse_speed(children + "+F6:0:253:Ed25519:0.000000:49000.000000\n", "1.1.1d")
    old = ("Got: +F2:2:2048:0.002000:0.000100 from 0\nGot: +F2:2:2048:0.002000:0.000100 from 1\n"
           "+F2:2:2048:0.001000:0.000050\n")
    assert parse_speed(old, "1.0.2k").per_second("rsa2048", "sign") == pytest.approx(1000.0)
    unknown = parse_speed("+H:16384\n+F:22:sha256:1000.00\n" + old)  # no version: no sum rule
    assert unknown.rates == () and unknown.notes


def test_real_multi_parents_equal_their_childrens_sums() -> None:
    """The sum check passes on real -multi logs (3.x: op/s and bytes/s added)."""
    for name in ("openssl-3.3.0_mr-multi2_hetzner-cax11-ampere-altra-arm64.txt",
                 "openssl-3.3.0_mr-multi2_hetzner-cpx11-amd-epyc-x86-64.txt"):
        lines = split_lines((SPEED / name).read_text())
        assert lines.children == {0, 1} and len(lines.echoes) == 44
        assert parse_file(SPEED / name).throughput


@pytest.mark.parametrize("version", ["1.0.2k", "LibreSSL 2.8.3"])
@pytest.mark.parametrize("bad", ["-4154.545455", "nan", "inf"])
def test_a_negative_or_nan_time_per_op_is_an_error_naming_the_line(version: str, bad: str
                                                                     ) -> None:
    """This machine's real ``+F2`` record with its sign value replaced, read as seconds per
    operation (1.0.2k, LibreSSL): a negative used to become a "not run" 0, NaN and infinity
    too.  A broken tool: the error names the line.  (Rates and throughputs pass on as printed
    to the sanity check, which refuses them: tests/test_plausibility.py.)"""
    real = (DATA / "this_machine/openssl-3.0.19_mr_rsa2048.txt").read_text()
    assert real.startswith("+F2:2:2048:4154.545455:")
    broken = real.replace("4154.545455", bad)
    with pytest.raises(ParseError, match=re.escape(repr(broken.strip()))):
        parse_speed(broken, version)
    assert parse_speed(real.replace("4154.545455", "0.000000"), version).per_second(
        "rsa2048", "sign") == 0.0  # printed as 0: not run, said as such by `sbcbench parse`
