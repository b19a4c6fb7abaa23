"""OpenSSL 3.2+ KEM and signature tables (ML-KEM, the X25519MLKEM768 hybrids, ML-DSA) read from
real captures: OpenSSL 3.4.0 with the OQS provider (jiep/pqc-demos), 3.5.6 on a Xeon with a QAT
engine (a public blog post) and Debian trixie's 3.5.9 on the QEMU rv64imafdc lab board."""

from __future__ import annotations

import json
import re

import pytest

from helpers import DATA
from pytest_sbcbench.cli import main
from pytest_sbcbench.errors import ParseError
from pytest_sbcbench.measure.openssl_parse import parse_speed
from pytest_sbcbench.measure.openssl_pq import listed_names

SPEED = DATA / "openssl_speed"
OQS_FULL = "openssl-3.4.0_x86-64_docker-oqsprovider_full-speed-seconds2.txt"
OQS_KEM = "openssl-3.4.0_oqsprovider_x86-64_kem-mlkem512-x25519.txt"
OQS_SIG = "openssl-3.4.0_oqsprovider_x86-64_sig-mldsa44-ed25519.txt"
QAT = "openssl-3.5.6_xeon-8562y-qat-engine_rsa2048_kem-and-signature-tables.txt"
TRIXIE = "openssl-3.5.9_qemu-rv64imafdc_debian13_"
TRIXIE_KEM = TRIXIE + "kem-ml-kem-512-768-1024-x25519mlkem768_stdout.txt"
TRIXIE_SIG = TRIXIE + "sig-ml-dsa-44-65_stdout.txt"
TRIXIE_MR = TRIXIE + "mr-ml-kem-768-ml-dsa-65_stderr-then-stdout.txt"
TRIXIE_MR_STDOUT = TRIXIE + "mr-ml-kem-768-ml-dsa-65_stdout.txt"

# (file, kind, algorithm, op, op/s) as the captures print them
CELLS = [
    (OQS_FULL, "kem", "X25519MLKEM768", "encaps", 5402.6),
    (OQS_FULL, "kem", "SecP256r1MLKEM768", "decaps", 2379.5),
    (OQS_FULL, "kem", "mlkem1024", "keygen", 8189.3),
    (OQS_FULL, "kem", "ECP-256", "keygen", 51872.0),
    (OQS_FULL, "kem", "rsa15360", "keygen", 0.1),  # 19.170000s overflows its column
    (OQS_FULL, "signature", "rsa2048", "sign", 975.0),
    (OQS_FULL, "signature", "dsa2048", "verify", 2230.3),
    (OQS_KEM, "kem", "mlkem512", "decaps", 13341.0),
    (OQS_KEM, "kem", "X25519", "keygen", 23496.4),
    (OQS_SIG, "signature", "mldsa44", "sign", 1332.0),
    (OQS_SIG, "", "ed25519", "sign", 19221.0),
    (QAT, "kem", "rsa2048", "encaps", 237510.5),
    (QAT, "signature", "rsa2048", "verify", 348601.4),
    (QAT, "", "rsa2048", "verify", 367271.7),
    (TRIXIE_KEM, "kem", "ML-KEM-512", "keygen", 3030.6),
    (TRIXIE_KEM, "kem", "ML-KEM-768", "encaps", 3786.2),
    (TRIXIE_KEM, "kem", "ML-KEM-1024", "decaps", 1494.8),
    (TRIXIE_KEM, "kem", "X25519MLKEM768", "decaps", 575.0),
    (TRIXIE_SIG, "signature", "ML-DSA-44", "verify", 906.1),
    (TRIXIE_SIG, "signature", "ML-DSA-65", "sign", 98.9),
    (TRIXIE_MR, "kem", "ML-KEM-768", "keygen", 645.360825),
    (TRIXIE_MR, "kem", "ML-KEM-768", "decaps", 970.408163),
    (TRIXIE_MR, "signature", "ML-DSA-65", "sign", 41.666667),
]


def read(name: str) -> str:
    return (SPEED / name).read_text()


@pytest.mark.parametrize(("name", "kind", "algorithm", "op", "rate"), CELLS)
def test_known_kem_and_signature_cells(name: str, kind: str, algorithm: str, op: str,
                                       rate: float) -> None:
    assert parse_speed(read(name)).per_second(algorithm, op, kind) == pytest.approx(rate)


def test_every_row_of_both_tables_is_read() -> None:
    """65 KEMs (RSA sizes, ECP curves, X25519/X448, the OQS provider's and their hybrids) and
    9 signature algorithms, three operations each; the classic tables stay as they were."""
    report = parse_speed(read(OQS_FULL))
    kem = {r.algorithm for r in report.rates if r.kind == "kem"}
    signature = {r.algorithm for r in report.rates if r.kind == "signature"}
    assert (len(kem), len(signature)) == (65, 9)
    assert len([r for r in report.rates if r.kind]) == 3 * (65 + 9)
    assert report.per_second("rsa2048", "sign") == pytest.approx(656.7)  # the rsa table's


def test_one_algorithm_in_three_tables_is_three_results() -> None:
    """3.5's ``openssl speed rsa2048`` measures RSA in its own loops, as a KEM (RSASVE) and as
    a generic signature: the same name, three kinds, never one figure taken for another."""
    report = parse_speed(read(QAT))
    assert report.per_second("rsa2048", "sign") == pytest.approx(59355.3)
    assert report.per_second("rsa2048", "keygen", "signature") == pytest.approx(28.4)
    assert report.per_second("rsa2048", "keygen", "kem") == pytest.approx(28.8)
    assert report.per_second("x25519", "keygen", "kem") is None
    with pytest.raises(ParseError, match="rsa2048 keygen is in the kem and the signature "
                                         "tables: name the table"):
        report.per_second("rsa2048", "keygen")


def test_an_algorithm_of_one_table_needs_no_kind() -> None:
    """ML-KEM-768 is only in the KEM table, ML-DSA-65 only in the signature table: asked
    without a table, each is found where it is."""
    assert parse_speed(read(TRIXIE_KEM)).per_second("ML-KEM-768", "encaps") == 3786.2
    assert parse_speed(read(TRIXIE_SIG)).per_second("ML-DSA-65", "sign") == 98.9
    assert parse_speed(read(TRIXIE_KEM)).per_second("ML-KEM-768", "sign") is None


def test_mr_records_are_named_by_the_progress_lines() -> None:
    """``+F9:13:...`` names no algorithm (13 is its index in speed.c's run-time table): the
    ``+R15:626:ML-KEM-768:0.97`` progress record on stderr does, and its count and time agree
    with the record's 645.36 op/s."""
    report = parse_speed(read(TRIXIE_MR))
    assert {(r.algorithm, r.kind) for r in report.rates} == {("ml-kem-768", "kem"),
                                                             ("ml-dsa-65", "signature")}
    assert report.notes == ()


def test_mr_records_without_their_names_are_refused_not_guessed() -> None:
    with pytest.raises(ParseError, match=r"\+R15 progress lines on stderr \(capture 2>&1\)"):
        parse_speed(read(TRIXIE_MR_STDOUT))


def test_mr_record_that_is_not_its_run_is_an_error() -> None:
    text = read(TRIXIE_MR).replace("+R15:626:ML-KEM-768", "+R15:700:ML-KEM-768")
    with pytest.raises(ParseError, match="is not ML-KEM-768's run"):
        parse_speed(text)


def test_row_whose_seconds_contradict_its_rates_is_an_error() -> None:
    """0.000264s is 1/3786.2; swapped with decaps' 0.000475s the columns are no longer one
    value and its reciprocal: not the table the parser knows."""
    text = read(TRIXIE_KEM).replace("0.000264s 0.000475s", "0.000475s 0.000264s")
    with pytest.raises(ParseError, match=r"ML-KEM-768 encaps: .* disagree"):
        parse_speed(text)


def test_row_with_a_nan_rate_is_an_error() -> None:
    text = read(TRIXIE_SIG).replace("    98.9", "     nan")
    with pytest.raises(ParseError, match="ML-DSA-65 sign: nan is not a rate"):
        parse_speed(text)


def test_output_cut_inside_a_kem_row_is_refused() -> None:
    text = read(TRIXIE_KEM).rstrip("\n")
    with pytest.raises(ParseError, match="cut off mid-write"):
        parse_speed(text)


def test_cli_names_the_table_of_each_rate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "openssl", str(SPEED / QAT), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["results"]
    keygens = {(r.get("table"), r["per_second"]) for r in rows if r["op"] == "keygen"}
    assert keygens == {("kem", 28.8), ("signature", 28.4)}
    assert {"algorithm": "rsa2048", "op": "sign", "per_second": 59355.3} in rows
    assert main(["parse", "openssl", str(SPEED / TRIXIE_KEM)]) == 0
    assert "x25519mlkem768 (kem)" in capsys.readouterr().out


@pytest.mark.parametrize(("name", "listed", "absent"), [
    ("openssl-3.5.9_qemu-rv64imafdc_debian13_list-kem-algorithms.txt",
     {"ML-KEM-768", "X25519MLKEM768", "SecP256r1MLKEM768", "X25519", "RSA"}, set()),
    ("openssl-3.5.9_qemu-rv64imafdc_debian13_list-signature-algorithms.txt",
     {"ML-DSA-44", "ML-DSA-65", "ED25519", "ED448ph"}, set()),
    ("openssl-3.0.22_list-kem-algorithms.txt", {"RSA", "rsaEncryption"}, {"ML-KEM-768"}),
    ("openssl-3.0.22_list-signature-algorithms.txt", {"ECDSA", "CMAC", "DSA-SHA1"},
     {"ML-DSA-65"}),
])
def test_openssl_list_names_what_the_provider_has(name: str, listed: set[str],
                                                  absent: set[str]) -> None:
    names = listed_names((DATA / "this_machine" / name).read_text())
    assert listed <= names and not absent & names


def test_an_unknown_listing_is_an_error_not_an_absence() -> None:
    with pytest.raises(ParseError, match=re.escape("not '{ names } @ provider'")):
        listed_names("Provided KEMs:\n  ML-KEM-768 @ default\n")


def test_the_suite_skips_ml_kem_on_openssl_3_0_saying_why() -> None:
    """This machine's openssl is 3.0: the post-quantum workloads are unavailable, and the
    reason names the version, the listing it read and where ML-KEM arrives."""
    from pytest_sbcbench.measure.openssl import find_openssl, openssl_tool, post_quantum_problem

    path = find_openssl()
    if path is None:
        pytest.skip("no openssl on PATH")
    tool = openssl_tool(path)
    if not tool.version.startswith("3.0."):
        pytest.skip(f"this check is about OpenSSL 3.0; found {tool.version}")
    reason = post_quantum_problem(tool, "ml-kem-768")
    assert reason is not None and f"openssl {tool.version} at {path} has no ML-KEM-768" in reason
    assert "list -kem-algorithms lists RSA, rsaEncryption" in reason
    assert reason.endswith("OpenSSL's default provider has ML-KEM and ML-DSA from 3.5")
