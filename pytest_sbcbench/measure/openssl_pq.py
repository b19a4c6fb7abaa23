"""OpenSSL 3.2+ ``openssl speed`` KEM and signature tables (ML-KEM, X25519MLKEM768, ML-DSA...).

From 3.2, ``apps/speed.c`` measures every KEM and signature algorithm its providers offer
through the generic ``EVP_PKEY`` calls, after the classic RSA/DSA/ECDSA/ECDH/EdDSA tables, and
prints two more tables (format strings of 3.5.9's binary; 3.4.0 prints the same)::

    %31skeygen    encaps    decaps keygens/s  encaps/s  decaps/s
    %31skeygen     signs    verify keygens/s    sign/s  verify/s
    %27s %8.6fs %8.6fs %8.6fs %9.1f %9.1f %9.1f        (one row per algorithm, both tables)

A row is the algorithm's name (right-aligned: ``ML-KEM-768``, ``X25519MLKEM768``,
``ML-DSA-65``, an RSA size ``rsa2048`` for RSASVE and RSA signatures, a provider's own names
such as the OQS provider's ``mlkem512``), three seconds per operation, then the three rates
(``kems_results[k][i] = count / time``, op/s, summed over the children under ``-multi``); the
seconds are ``1.0 /`` the rates, so each pair is checked against the other within their printed
rounding (a row whose columns disagree is not this table: an error).

``-mr`` prints ``+F9:k:r0:r1:r2`` (KEM) and ``+F10:k:...`` (signatures), ``k`` the index in a
table of names speed.c builds at run time from the providers: the record names no algorithm.
The names are in the ``+R15``/``+R18`` progress records (``+R15:count:name:seconds``), which go
to stderr; a ``2>&1`` capture names each record by them (the i-th ``+F9`` is the i-th KEM run,
checked against that run's count and time), a stdout-only capture leaves the records out with
a note instead of guessing."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import ParseError

KEM = "kem"
SIGNATURE = "signature"
TABLES: dict[tuple[str, ...], tuple[str, tuple[str, str, str]]] = {
    ("keygen", "encaps", "decaps", "keygens/s", "encaps/s", "decaps/s"):
        (KEM, ("keygen", "encaps", "decaps")),
    ("keygen", "signs", "verify", "keygens/s", "sign/s", "verify/s"):
        (SIGNATURE, ("keygen", "sign", "verify")),
}
MR_TAGS = {"+F9": (KEM, "+R15"), "+F10": (SIGNATURE, "+R18")}
# +R15 keygen, +R16 encaps, +R17 decaps; +R18 keygen, +R19 sign, +R20 verify
PROGRESS = {"+R15": 0, "+R16": 1, "+R17": 2, "+R18": 0, "+R19": 1, "+R20": 2}
ROW = re.compile(r"^\s*(?P<name>\S+)\s+(?P<secs>\S+s)\s+(?P<secs2>\S+s)\s+(?P<secs3>\S+s)"
                 r"\s+(?P<r1>\S+)\s+(?P<r2>\S+)\s+(?P<r3>\S+)\s*$")
SECONDS_HALF_UNIT = 0.5e-6  # %8.6f
RATE_HALF_UNIT = 0.05  # %9.1f
TIME_HALF_UNIT = 0.005  # the +R records' %.2f seconds

PqRate = tuple[str, str, float]  # (printed name, op, per second)


def table_of(header: Sequence[str]) -> tuple[str, tuple[str, str, str]] | None:
    """The kind (``"kem"``, ``"signature"``) and operations of a table header, None for any
    other header."""
    return TABLES.get(tuple(header))


def parse_row(line: str, ops: tuple[str, str, str]) -> list[PqRate] | None:
    """One row of a KEM or signature table as ``(name, op, rate)``; None when the line is no
    row of it (the table ended).  A rate that is not a finite, non-negative number, or one its
    seconds column contradicts, is a :class:`ParseError`; a 0.0 rate (printed with ``infs``
    seconds) is passed on as 0, as the classic tables' are."""
    match = ROW.match(line)
    if not match:
        return None
    name = match.group("name")
    try:
        seconds = [_seconds(match.group(g)) for g in ("secs", "secs2", "secs3")]
        rates = [float(match.group(g)) for g in ("r1", "r2", "r3")]
    except ValueError:
        return None
    for op, secs, rate in zip(ops, seconds, rates, strict=True):
        if not math.isfinite(rate) or rate < 0:
            raise ParseError("openssl speed output", f"{name} {op}: {rate} is not a rate",
                             line)
        if not _agree(secs, rate):
            raise ParseError("openssl speed output", f"{name} {op}: {secs} s per operation "
                             f"and {rate} op/s disagree: not speed.c's KEM/signature row", line)
    return [(name, op, rate) for op, rate in zip(ops, rates, strict=True)]


def _seconds(cell: str) -> float:
    value = float(cell.removesuffix("s"))
    if math.isnan(value) or value < 0:
        raise ValueError(cell)
    return value


def _agree(seconds: float, rate: float) -> bool:
    """Whether ``seconds`` (``%8.6f``) and ``rate`` (``%9.1f``) can be one value and its
    reciprocal, each within half its last printed digit."""
    if rate == 0:
        return math.isinf(seconds)
    if math.isinf(seconds):
        return False
    low, high = rate - RATE_HALF_UNIT, rate + RATE_HALF_UNIT
    slow = 1.0 / (seconds + SECONDS_HALF_UNIT)
    fast = math.inf if seconds <= SECONDS_HALF_UNIT else 1.0 / (seconds - SECONDS_HALF_UNIT)
    return slow <= high and low <= fast


@dataclass(frozen=True)
class Run:
    """One algorithm's progress records: its name and (count, seconds) per operation."""

    name: str
    counts: dict[int, tuple[int, float]]


def mr_rates(records: Sequence[str], multi: bool) -> tuple[list[tuple[str, PqRate]], list[str]]:
    """``(kind, (name, op, rate))`` from the ``+F9``/``+F10`` records, named by the
    ``+R15``..``+R20`` progress records in ``records``; and the notes of records left out."""
    found: list[tuple[str, PqRate]] = []
    notes: list[str] = []
    for tag, (kind, keygen_tag) in MR_TAGS.items():
        results = [r.split(":") for r in records if r.startswith(tag + ":")]
        if not results:
            continue
        ops = next(o for k, o in TABLES.values() if k == kind)
        runs = _runs(records, keygen_tag)
        if multi or not runs:
            why = ("a -multi parent's totals are no single run's counts" if multi else
                   f"they carry speed.c's table index, not the algorithm; the names are in the "
                   f"{keygen_tag} progress lines on stderr (capture 2>&1)")
            notes.append(f"{len(results)} {kind} -mr record(s) ({tag}) skipped: {why}")
            continue
        if len(runs) != len(results):
            raise ParseError("openssl speed -mr output", f"{len(results)} {tag} records but "
                             f"{len(runs)} {kind} runs in the {keygen_tag} progress lines")
        for fields, run in zip(results, runs, strict=True):
            found += [(kind, rate) for rate in _named(fields, run, ops)]
    return found, notes


def _runs(records: Sequence[str], keygen_tag: str) -> list[Run]:
    first = int(keygen_tag.removeprefix("+R"))
    tags = {f"+R{first + i}": i for i in range(3)}
    runs: list[Run] = []
    for record in records:
        fields = record.split(":")
        if fields[0] not in tags or len(fields) != 4:
            continue
        index = tags[fields[0]]
        if index == 0:
            runs.append(Run(fields[2], {}))
        elif not runs or runs[-1].name != fields[2]:
            raise ParseError("openssl speed -mr output", f"{record!r} follows no {keygen_tag} "
                             f"record of {fields[2]}")
        try:
            runs[-1].counts[index] = (int(fields[1]), float(fields[3]))
        except ValueError as exc:
            raise ParseError("openssl speed -mr output", f"bad progress record {record!r}"
                             ) from exc
    return runs


def _named(fields: list[str], run: Run, ops: tuple[str, str, str]) -> list[PqRate]:
    try:
        rates = [float(v) for v in fields[2:5]]
    except ValueError as exc:
        raise ParseError("openssl speed -mr output", f"bad record {':'.join(fields)!r}") from exc
    if len(rates) != 3 or not all(math.isfinite(r) and r >= 0 for r in rates):
        raise ParseError("openssl speed -mr output", f"bad record {':'.join(fields)!r}")
    for index, (count, secs) in run.counts.items():
        slow = count / (secs + TIME_HALF_UNIT)
        fast = math.inf if secs <= TIME_HALF_UNIT else count / (secs - TIME_HALF_UNIT)
        if not slow * (1 - 1e-9) <= rates[index] <= fast * (1 + 1e-9):
            raise ParseError("openssl speed -mr output", f"{':'.join(fields)} is not "
                             f"{run.name}'s run ({count} {ops[index]} in {secs} s)")
    return [(run.name, op, rate) for op, rate in zip(ops, rates, strict=True)]


LISTED = re.compile(r"^\s*(?:\{ (?P<names>.+) \}|(?P<name>\S+)) @ \S+\s*$")


def listed_names(text: str) -> set[str]:
    """The algorithm names ``openssl list -kem-algorithms`` / ``-signature-algorithms`` prints
    (OpenSSL 3.x: ``{ 2.16.840.1.101.3.4.4.2, id-alg-ml-kem-768, ML-KEM-768, MLKEM768 } @
    default``, or ``ECDSA @ default``): every name and OID of every line; a line of any other
    shape is a :class:`ParseError` (a listing we do not know proves nothing absent)."""
    names: set[str] = set()
    for line in text.splitlines():
        if not line.strip():
            continue
        match = LISTED.match(line)
        if match is None:
            raise ParseError("openssl list output", f"line {line.strip()!r} is not "
                             "'{ names } @ provider' nor 'NAME @ provider'", text[:600])
        names.update(n.strip() for n in (match.group("names") or match.group("name")).split(","))
    return names
