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

Block sizes are read from the output: the ``type`` header, ``+H`` records, or a ``-multi``
parent's children (``-mb`` measures 8192..131072 bytes, and the parent pads its row with
never-measured 0.00 columns); a row whose sizes cannot be known is a :class:`ParseError`.
Each throughput cell carries the code path its printed name states (:func:`printed_api`):
1.0.x prints the legacy ``aes-128 cbc`` and the EVP ``aes-128-cbc`` side by side.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from ..errors import ParseError
from ..words import counted
from . import openssl_pq
from .openssl_blocks import headerless_sizes, lost_header_blocks
from .openssl_checks import check_terminated, no_conflicts
from .openssl_multi import (
    MR_RATE_TAGS,
    MrLines,
    canonical,
    check_parent_sums,
    check_parent_totals,
    child_values,
    multi_row_sizes,
    record_name,
    split_lines,
)

NIST_CURVE = re.compile(r"^nistp(\d+)$", re.IGNORECASE)
VERSION_UNITS = ("1.1.1 and later give op/s; 1.1.0, 1.0.x and LibreSSL give s/op")


@dataclass(frozen=True)
class Throughput:
    algorithm: str
    block_bytes: int
    bytes_per_second: float
    label: str = ""
    api: str = ""  # "evp", "legacy" or "" (the output does not say): see printed_api


@dataclass(frozen=True)
class Rate:
    algorithm: str
    op: str
    per_second: float
    kind: str = ""  # "" the classic tables; "kem" or "signature" 3.2+'s (see .openssl_pq)


@dataclass(frozen=True)
class SpeedReport:
    version: str | None
    throughput: tuple[Throughput, ...]
    rates: tuple[Rate, ...]
    notes: tuple[str, ...] = ()

    def bytes_per_second(self, algorithm: str, block_bytes: int, api: str | None = None
                         ) -> float | None:
        """The first cell for ``algorithm`` at ``block_bytes`` of code path ``api`` (``"evp"``,
        ``"legacy"``; a cell whose path the output does not state matches either), or None.
        Without ``api``, a log that measured both paths is a :class:`ParseError`: the
        legacy and the EVP figure are two results, never one to take the first of."""
        name = canonical(algorithm)
        cells = [cell for cell in self.throughput if cell.algorithm == name
                 and cell.block_bytes == block_bytes and (api is None or cell.api in (api, ""))]
        if api is None and {"evp", "legacy"} <= {cell.api for cell in cells}:
            raise ParseError("openssl speed output", f"{name} at {block_bytes} bytes was "
                             "measured through the legacy API and through EVP: name the path")
        return cells[0].bytes_per_second if cells else None

    def both_paths(self) -> set[str]:
        """Algorithms this log measured through the legacy API and through EVP (1.0.x prints
        ``aes-128 cbc`` and ``aes-128-cbc``): two results each, to be named with the path."""
        paths: dict[str, set[str]] = {}
        for cell in self.throughput:
            paths.setdefault(cell.algorithm, set()).add(cell.api)
        return {name for name, found in paths.items() if {"evp", "legacy"} <= found}

    def per_second(self, algorithm: str, op: str, kind: str | None = None) -> float | None:
        """The first rate of ``algorithm``'s ``op`` in the tables of ``kind``: ``""`` the
        classic RSA/DSA/ECDSA/ECDH/EdDSA tables, ``"kem"`` or ``"signature"`` OpenSSL 3.2+'s
        generic ones (3.5's ``openssl speed rsa2048`` prints an rsa2048 row in all three: three
        results).  Without ``kind``: the classic tables' rate, else the one other table's;
        an op two of the generic tables give (rsa2048 keygen as a KEM and as a signature key)
        is a :class:`ParseError`: name the table."""
        name = canonical(algorithm)
        found: dict[str, float] = {}
        for rate in self.rates:
            if rate.algorithm == name and rate.op == op and (kind is None or rate.kind == kind):
                found.setdefault(rate.kind, rate.per_second)
        if "" in found:
            return found[""]
        if len(found) > 1:
            raise ParseError("openssl speed output", f"{name} {op} is in the "
                             f"{' and the '.join(found)} tables: name the table")
        return next(iter(found.values()), None)


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
    """Parse any ``openssl speed`` output; :class:`ParseError` when it holds no number, ends
    inside a record (no final newline after a result line), or its ``-mr`` records give one
    figure twice with different values (a human table may repeat a row on purpose: sbc-bench
    logs one per cluster, and the first is the one asked for).

    The ``-mr`` records of this process (or of a ``-multi`` parent) are the result when there
    are any; otherwise the human table is, whatever ``+`` progress lines surround it."""
    check_terminated(text, SYM_ROW, RSA_ROW, CURVE_ROW, openssl_pq.ROW)
    version = version or detect_version(text)
    lines = split_lines(text)
    if any(record.startswith("+F") for record in lines.records):
        report = _parse_mr(lines, version)
    else:
        report = _parse_human(text, version, lines)
    notes = lines.notes() + report.notes
    if not report.throughput and not report.rates:
        reason = ("empty output" if not text.strip() else
                  "only the children's 'Got: ... from N' echoes, no usable parent summary"
                  if lines.echoes else "no result lines recognised")
        raise ParseError("openssl speed output", "; ".join((reason, *notes)), text[:600])
    return SpeedReport(report.version, report.throughput, report.rates, notes)


def printed_api(printed: str) -> str:
    """The code path a row's printed name states.  ``apps/speed.c`` names its own (non-EVP)
    cipher tests with a space in 1.0.x to 1.1.1 and LibreSSL (``aes-128 cbc``, ``des ede3``,
    ``camellia-128 cbc``): ``"legacy"``.  An ``-evp`` row carries the EVP object's name:
    ``OBJ_nid2ln`` (``aes-128-cbc``) before 3.0, ``EVP_CIPHER_get0_name`` (``AES-128-CBC``) from
    3.0, whose own test names are all lower case: an upper-case letter is ``"evp"``.
    Otherwise the name alone does not say: ``""`` (see :func:`with_paths`)."""
    if re.search(r"\s", printed.strip()):
        return "legacy"
    return "evp" if re.search(r"[A-Z]", printed) else ""


def with_paths(cells: list[Throughput]) -> tuple[Throughput, ...]:
    """Where one log holds the legacy row of an algorithm, its unmarked row of the same
    canonical name is the other path: before 3.0 only ``-evp`` prints ``aes-128-cbc`` where
    the legacy test prints ``aes-128 cbc`` (issue 24: OpenSSL 1.0.1's generic C 115 MB/s and
    AES-NI 665 MB/s must not share one name)."""
    legacy = {cell.algorithm for cell in cells if cell.api == "legacy"}
    return tuple(replace(cell, api="evp") if cell.api == "" and cell.algorithm in legacy
                 else cell for cell in cells)


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
                sizes = blocks or lost_header_blocks(fields, lines, assumed)
                throughput += _mr_cells(fields, sizes)
            elif fields[0] in MR_RATE_TAGS and unit is None:
                unitless.append(record_name(fields) or fields[0])
            elif fields[0] in MR_RATE_TAGS:
                rates += _mr_rates(fields, unit == "op/s")
        except (ValueError, IndexError) as exc:
            raise ParseError("openssl speed -mr output", f"bad line {line!r}: {exc}") from exc
    check_parent_totals(lines)
    check_parent_sums(lines, unit)
    pq, pq_notes = openssl_pq.mr_rates(lines.records, multi=bool(lines.children))
    rates += [Rate(canonical(name), op, value, kind) for kind, (name, op, value) in pq]
    no_conflicts([*(((c.algorithm, c.block_bytes, c.api), c.bytes_per_second,
                     f"{c.algorithm} at {c.block_bytes} bytes") for c in throughput),
                  *(((r.algorithm, r.op, r.kind), r.per_second, f"{r.algorithm} {r.op}")
                    for r in rates)])
    return SpeedReport(version, with_paths(throughput), tuple(rates),
                       (*_mr_notes(unitless, assumed), *pq_notes))


def _mr_cells(fields: list[str], sizes: tuple[int, ...]) -> list[Throughput]:
    """One ``+F`` record's cells.  Values past the ``+H`` sizes are a ``-multi`` parent's
    columns no child measured (0.00, see :func:`.openssl_multi.multi_row_sizes`); any other
    value there has no block size and is an error."""
    values = [float(v) for v in fields[3:]]
    if any(values[len(sizes):]):
        raise ValueError(f"{len(values)} values for {len(sizes)} block sizes")
    api = printed_api(fields[2])
    return [Throughput(canonical(fields[2]), size, value, api=api)
            for size, value in zip(sizes, values, strict=False)]


def _mr_notes(unitless: list[str], assumed: list[str]) -> tuple[str, ...]:
    notes = []
    if unitless:
        notes.append(f"asymmetric -mr records skipped ({', '.join(unitless)}): the output names "
                     f"no OpenSSL version, and {VERSION_UNITS}")
    if assumed:
        notes.append(f"standard block sizes assumed for {', '.join(assumed)}: every child's "
                     "'+H' echo was damaged")
    return tuple(notes)


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
        raise ValueError(f"expected {counted(len(ops), 'value')}")
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


def _parse_human(text: str, version: str | None, lines: MrLines) -> SpeedReport:
    blocks: tuple[int, ...] | None = None
    header: list[str] = []
    throughput: list[Throughput] = []
    rates: list[Rate] = []
    notes: list[str] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        type_header = TYPE_HEADER.match(line.strip())
        if type_header:
            blocks = tuple(int(b) for b in re.findall(r"(\d+)\s+bytes", line))
            continue
        if "/s" in line and not re.search(r"\d", line):
            header = line.split()
            continue
        table = openssl_pq.table_of(header)
        if table is not None:
            found_pq = openssl_pq.parse_row(line, table[1])
            if found_pq is not None:
                rates += [Rate(canonical(name), op, value, table[0])
                          for name, op, value in found_pq]
                continue
            header = []  # the table ended
        elif header:
            found = _asym_row(line, header)
            if found:
                rates += found
                continue
        try:
            throughput += _sym_row(line, blocks, lines, notes)
        except ValueError as exc:
            raise ParseError("openssl speed output", f"row {line.strip()!r}: {exc}") from exc
    return SpeedReport(version, with_paths(throughput), tuple(rates), tuple(dict.fromkeys(notes)))


def _sym_row(line: str, blocks: tuple[int, ...] | None, lines: MrLines, notes: list[str]
             ) -> list[Throughput]:
    """One human throughput row; its block sizes come from the output (the ``type`` header,
    or a ``-multi`` parent's children, :func:`.openssl_multi.multi_row_sizes`); only a row
    with neither, whose cells could all be a standard run's, is read with the standard
    sizes, said in ``notes``."""
    if line.startswith(("Doing", "+", "version:", "built on", "options", "compiler", "CPUINFO")):
        return []
    match = SYM_ROW.match(line)
    if not match:
        return []
    name = canonical(match.group("name"))
    values = [_number(cell) for cell in match.group("cells").split()]
    if child_values(lines, name):
        sizes, values = multi_row_sizes(name, values, blocks, lines, notes)
    elif blocks is not None:
        sizes = blocks
    else:
        sizes = headerless_sizes(name, values, notes)
    if len(sizes) != len(values):
        return []
    label, api = match.group("label") or "", printed_api(match.group("name"))
    return [Throughput(name, size, value, label, api) for size, value in zip(sizes, values,
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
