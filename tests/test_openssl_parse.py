"""The openssl speed parser on real captures from other machines and from this one."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import DATA
from pytest_sbcbench.errors import ParseError
from pytest_sbcbench.measure.openssl_parse import (
    canonical,
    detect_version,
    parse_speed,
    rates_are_per_second,
)

SPEED = DATA / "openssl_speed"
K = 1000.0

# (file, algorithm, block bytes, value in 1000s of bytes/s) from shared/captures/INDEX.md
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


def test_mr_asymmetric_before_3_is_seconds_per_op() -> None:
    path = DATA / "constructed/openssl-1.1.1-style_mr_rsa2048_ecdsap256.txt"
    report = parse_file(path, "1.1.1w")
    assert report.per_second("rsa2048", "sign") == pytest.approx(1 / 0.001456)
    assert report.per_second("rsa2048", "verify") == pytest.approx(1 / 0.000029)
    assert report.per_second("ecdsa-p256", "sign") == pytest.approx(1 / 0.000042)
    # Without a version, values all below 1 are read as seconds per operation.
    assert parse_file(path).per_second("ecdsa-p256", "verify") == pytest.approx(1 / 0.000105)


def test_this_machine_human_tables() -> None:
    sha = parse_file(DATA / "this_machine/openssl-3.0.19_human_evp-sha512_bytes16384.txt")
    assert sha.bytes_per_second("sha512", 16384) is not None
    asym = parse_file(DATA / "this_machine/openssl-3.0.19_human_rsa2048_ecdsap256.txt")
    assert asym.per_second("rsa2048", "sign") == pytest.approx(3683.0)
    assert asym.per_second("ecdsa-p256", "verify") == pytest.approx(16174.0)


@pytest.mark.parametrize(("version", "pair", "expected"), [
    ("3.0.19", (0.5, 0.2), True),
    ("1.1.1w", (3000.0, 50000.0), False),
    ("LibreSSL 2.8.3", (3000.0, 50000.0), False),
    (None, (0.0003, 0.00002), False),
    (None, (3000.0, 50000.0), True),
])
def test_rate_semantics_by_version(version: str | None, pair: tuple[float, float],
                                   expected: bool) -> None:
    assert rates_are_per_second(version, pair) is expected


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
