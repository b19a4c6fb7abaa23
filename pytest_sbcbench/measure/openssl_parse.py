"""Parse ``openssl speed`` output: human tables and ``-mr`` lines, OpenSSL 1.0 to 3.x, LibreSSL.

Pure functions.  Units: human symmetric cells ending in ``k`` are 1000s of bytes/s, cells without
``k`` are bytes/s (OpenSSL prints small values unscaled); ``-mr`` ``+F:`` values are bytes/s.

Asymmetric ``-mr`` records (``+F2`` RSA, ``+F3`` DSA, ``+F4`` ECDSA, ``+F5`` ECDH, ``+F6`` EdDSA)
change unit with the version, as each release's ``apps/speed.c`` shows:

* OpenSSL 1.1.1 (every letter release) and 3.x: operations per second.  ``speed_main`` stores
  ``rsa_results[testnum][0] = (double)count / d`` (likewise ``dsa_``, ``ecdsa_``, ``ecdh_``,
  ``eddsa_results``), prints it with ``+F2:%u:%u:%f:%f``, and its human table prints
  ``1.0 / rsa_results`` in the seconds column; in ``-multi`` the parent's ``do_multi`` adds the
  children's values (``rsa_results[k][0] += d``).
* OpenSSL 1.1.0 and 1.0.x (``apps/speed.c``) and LibreSSL (``src/usr.bin/openssl/speed.c``):
  seconds per operation.  ``speed_main`` stores ``rsa_results[..][0] = d / (double)count``, the
  human table prints it as the seconds column and ``1.0 / rsa_results`` as sign/s, and
  ``do_multi`` combines the children as ``1 / (1 / a + 1 / d)``.

So either way the reciprocal (older) or the value (newer) is the machine's total rate.  ``+F5``'s
first value follows the same rule (its second is the reciprocal).  Without a version the unit is
unknown: those records are left out with a note rather than guessed.

``2>&1`` and ``-multi`` logs (progress lines, child echoes, damaged echoes) are sorted out
in :mod:`.openssl_multi`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..errors import ParseError
from .openssl_multi import (
    MR_RATE_TAGS,
    MrLines,
    canonical,
    check_parent_sums,
    check_parent_totals,
    record_name,
    split_lines,
)

STANDARD_BLOCKS: dict[int, tuple[int, ...]] = {
    6: (16, 64, 256, 1024, 8192, 16384),
    5: (16, 64, 256, 1024, 8192),
}
NIST_CURVE = re.compile(r"^nistp(\d+)$", re.IGNORECASE)
VERSION_UNITS = ("1.1.1 and later give op/s; 1.1.0, 1.0.x and LibreSSL give s/op")


@dataclass(frozen=True)
class Throughput:
    algorithm: str
    block_bytes: int
    bytes_per_second: float
    label: str = ""


@dataclass(frozen=True)
class Rate:
    algorithm: str
    op: str
    per_second: float


@dataclass(frozen=True)
class SpeedReport:
    version: str | None
    throughput: tuple[Throughput, ...]
    rates: tuple[Rate, ...]
    notes: tuple[str, ...] = ()

    def bytes_per_second(self, algorithm: str, block_bytes: int) -> float | None:
        """The first cell for ``algorithm`` at ``block_bytes``, or None."""
        name = canonical(algorithm)
        for cell in self.throughput:
            if cell.algorithm == name and cell.block_bytes == block_bytes:
                return cell.bytes_per_second
        return None

    def per_second(self, algorithm: str, op: str) -> float | None:
        for rate in self.rates:
            if rate.algorithm == canonical(algorithm) and rate.op == op:
                return rate.per_second
        return None


def detect_version(text: str) -> str | None:
    """``3.0.9`` / ``1.0.1e`` / ``LibreSSL 2.8.3`` from the banner lines, if present."""
    for line in text.splitlines():
        line = line.strip()
        match = re.match(r"^version:\s*(\S+)", line)
        if match:
            return match.group(1)
        match = re.match(r"^(OpenSSL|LibreSSL)\s+(\d+\.\d+\.\d+[a-z]*)", line)
        if match:
            prefix = "LibreSSL " if match.group(1) == "LibreSSL" else ""
            return prefix + match.group(2)
    return None


def mr_rate_unit(version: str | None) -> str | None:
    """The unit of asymmetric ``-mr`` records: ``"op/s"`` for OpenSSL 1.1.1 and later,
    ``"s/op"`` for 1.1.0, 1.0.x and LibreSSL, None when the version is unknown or unrecognised
    (see the module docstring for the ``apps/speed.c`` code behind each)."""
    if version is None:
        return None
    if version.startswith("LibreSSL"):
        return "s/op"
    match = re.match(r"^(\d+)\.(\d+)\.(\d+)", version)
    if not match:
        return None
    major, minor, patch = (int(part) for part in match.groups())
    return "op/s" if (major, minor, patch) >= (1, 1, 1) else "s/op"


def parse_speed(text: str, version: str | None = None) -> SpeedReport:
    """Parse any ``openssl speed`` output; :class:`ParseError` when it holds no number.

    The ``-mr`` records of this process (or of a ``-multi`` parent) are the result when there
    are any; otherwise the human table is, whatever ``+`` progress lines surround it."""
    version = version or detect_version(text)
    lines = split_lines(text)
    if any(record.startswith("+F") for record in lines.records):
        report = _parse_mr(lines, version)
    else:
        report = _parse_human(text, version)
    notes = lines.notes() + report.notes
    if not report.throughput and not report.rates:
        reason = ("empty output" if not text.strip() else
                  "only the children's 'Got: ... from N' echoes, no usable parent summary"
                  if lines.echoes else "no result lines recognised")
        raise ParseError("openssl speed output", "; ".join((reason, *notes)), text[:600])
    return SpeedReport(report.version, report.throughput, report.rates, notes)


def _number(cell: str) -> float:
    if cell.endswith("k"):
        return float(cell[:-1]) * 1000.0
    return float(cell)


def _parse_mr(lines: MrLines, version: str | None) -> SpeedReport:
    blocks: tuple[int, ...] = ()
    throughput: list[Throughput] = []
    rates: list[Rate] = []
    unit = mr_rate_unit(version)
    unitless: list[str] = []
    assumed: list[str] = []
    for line in lines.records:
        fields = line.split(":")
        try:
            if fields[0] == "+H":
                blocks = tuple(int(f) for f in fields[1:] if f)
            elif fields[0] == "+F" and len(fields) >= 4:
                sizes = blocks or _lost_header_blocks(fields, lines, assumed)
                throughput += [Throughput(canonical(fields[2]), b, float(v))
                               for b, v in zip(sizes, fields[3:], strict=False)]
            elif fields[0] in MR_RATE_TAGS and unit is None:
                unitless.append(record_name(fields) or fields[0])
            elif fields[0] in MR_RATE_TAGS:
                rates += _mr_rates(fields, unit == "op/s")
        except (ValueError, IndexError) as exc:
            raise ParseError("openssl speed -mr output", f"bad line {line!r}: {exc}") from exc
    check_parent_totals(lines)
    check_parent_sums(lines, unit)
    return SpeedReport(version, tuple(throughput), tuple(rates), _mr_notes(unitless, assumed))


def _mr_notes(unitless: list[str], assumed: list[str]) -> tuple[str, ...]:
    notes = []
    if unitless:
        notes.append(f"asymmetric -mr records skipped ({', '.join(unitless)}): the output names "
                     f"no OpenSSL version, and {VERSION_UNITS}")
    if assumed:
        notes.append(f"standard block sizes assumed for {', '.join(assumed)}: every child's "
                     "'+H' echo was damaged")
    return tuple(notes)


def _lost_header_blocks(fields: list[str], lines: MrLines, assumed: list[str]
                        ) -> tuple[int, ...]:
    """Block sizes for a ``+F`` total with no ``+H`` before it.  Only in a damaged ``-multi``
    log (the children's ``+H`` echoes all cut) are the standard sizes assumed, as for a
    headerless human table, and said in a note; otherwise the output is not one we know."""
    sizes = STANDARD_BLOCKS.get(len(fields) - 3) if lines.damaged else None
    if sizes is None:
        raise ValueError("no +H block sizes before it")
    assumed.append(canonical(fields[2]))
    return sizes


def _per_second(seconds: str) -> float:
    """Operations per second from a seconds-per-operation value; 0 (how an algorithm that did
    not run is printed) stays 0.  A negative, NaN or infinite time is a broken tool: an error
    (the caller names the line), never a "not run" 0 nor a rate the sanity check would see as
    plausible."""
    value = float(seconds)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{seconds!r} is not a time per operation")
    return 1.0 / value if value > 0 else 0.0


def _mr_rates(fields: list[str], per_second: bool) -> list[Rate]:
    """Rates from one asymmetric record (3.x ``+F2`` adds encrypt and decrypt to sign and
    verify).  A zero stays zero (no result), never an infinity; a negative or NaN time per
    operation is an error (rates pass on as printed, to the sanity check)."""
    name = record_name(fields)
    if name is None:
        raise ValueError("record too short")
    ops = MR_RATE_TAGS[fields[0]]
    if fields[0] == "+F2" and len(fields) >= 7:
        ops = (*ops, "encrypt", "decrypt")
    first = 4 if fields[0] == "+F6" else 3
    printed = fields[first:first + len(ops)]
    if len(printed) != len(ops):
        raise ValueError(f"expected {len(ops)} value(s)")
    values = [float(v) if per_second else _per_second(v) for v in printed]
    return [Rate(name, op, v) for op, v in zip(ops, values, strict=True)]


TYPE_HEADER = re.compile(r"^type\s+((?:\d+\s+bytes\s*)+)$")
SYM_ROW = re.compile(r"^(?P<name>\S.*?)\s+(?P<cells>(?:\d+\.\d+k?\s+)*\d+\.\d+k?)"
                     r"(?:\s+\((?P<label>[^)]*)\))?\s*$")
RSA_ROW = re.compile(r"^\s*(?P<fam>rsa|dsa)\s+(?P<bits>\d+)\s+bits?\s+(?P<cells>.*)$")
CURVE_ROW = re.compile(r"^\s*(?P<bits>\d+)\s+bits?\s+(?P<fam>ecdsa|ecdh|eddsa|sm2)\s+"
                       r"\((?P<curve>[^)]+)\)\s+(?P<cells>.*)$", re.IGNORECASE)
OP_COLUMNS = {"sign/s": "sign", "verify/s": "verify", "encr./s": "encrypt",
              "decr./s": "decrypt", "op/s": "derive"}


def _parse_human(text: str, version: str | None) -> SpeedReport:
    blocks: tuple[int, ...] | None = None
    header: list[str] = []
    throughput: list[Throughput] = []
    rates: list[Rate] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        type_header = TYPE_HEADER.match(line.strip())
        if type_header:
            blocks = tuple(int(b) for b in re.findall(r"(\d+)\s+bytes", line))
            continue
        if "/s" in line and not re.search(r"\d", line):
            header = line.split()
            continue
        if header and "keygens/s" not in header:
            found = _asym_row(line, header)
            if found:
                rates += found
                continue
        throughput += _sym_row(line, blocks)
    return SpeedReport(version, tuple(throughput), tuple(rates))


def _sym_row(line: str, blocks: tuple[int, ...] | None) -> list[Throughput]:
    if line.startswith(("Doing", "+", "version:", "built on", "options", "compiler", "CPUINFO")):
        return []
    match = SYM_ROW.match(line)
    if not match:
        return []
    cells = match.group("cells").split()
    sizes = blocks if blocks is not None else STANDARD_BLOCKS.get(len(cells))
    if sizes is None or len(sizes) != len(cells):
        return []
    name = canonical(match.group("name"))
    label = match.group("label") or ""
    return [Throughput(name, size, _number(cell), label) for size, cell in zip(sizes, cells,
                                                                             strict=True)]


def _asym_name(match: re.Match[str]) -> str:
    fam = match.group("fam").lower()
    if fam in ("rsa", "dsa"):
        return f"{fam}{match.group('bits')}"
    curve = match.group("curve")
    nist = NIST_CURVE.match(curve)
    if fam == "eddsa":
        return curve.lower()
    return f"{fam}-p{nist.group(1)}" if nist else f"{fam}-{curve.lower()}"


def _asym_row(line: str, header: list[str]) -> list[Rate]:
    """Rates from one asymmetric row; a row with any cell that is not a finite number (a
    broken ``-multi`` summary prints ``infs``) is no result at all."""
    match = RSA_ROW.match(line) or CURVE_ROW.match(line)
    if not match:
        return []
    cells = match.group("cells").split()
    if len(cells) != len(header) or not all(_is_number(cell.removesuffix("s")) for cell in cells):
        return []
    name = _asym_name(match)
    return [Rate(name, OP_COLUMNS[column], float(cell))
            for column, cell in zip(header, cells, strict=True) if column in OP_COLUMNS]


def _is_number(cell: str) -> bool:
    try:
        return math.isfinite(float(cell))
    except ValueError:
        return False
