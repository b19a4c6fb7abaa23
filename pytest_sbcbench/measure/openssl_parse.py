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

``2>&1`` logs mix the children's stderr progress lines (``+DT:``, ``+DTP:``, ``+R*:``) and the
parent's ``Got: ... from N`` echoes of each child's records with the final results; in ``-multi``
logs the parent's buffered stdout is cut at block boundaries, so an echo can lose its ``Got: ``
(``+F:25:...:1223316821.33 from 26`` alone) or have a progress line glued into it.  Echoes are
never results: damaged ones are skipped and counted in ``SpeedReport.notes``; the parent's own
totals are the result, each algorithm a child echoed must have one, and where every child's
echo survived the total must be their sum (or combined seconds).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..errors import ParseError

STANDARD_BLOCKS: dict[int, tuple[int, ...]] = {
    6: (16, 64, 256, 1024, 8192, 16384),
    5: (16, 64, 256, 1024, 8192),
}
# R_EC_P160 .. R_EC_P521: the curve indices every release from 1.0.0 to 3.x shares; later indices
# move with build options (OPENSSL_NO_EC2M), so they are named by index and size only.
EC_INDEX = {0: "secp160r1", 1: "p192", 2: "p224", 3: "p256", 4: "p384", 5: "p521"}
NIST_CURVE = re.compile(r"^nistp(\d+)$", re.IGNORECASE)
MR_RATE_TAGS = {"+F2": ("sign", "verify"), "+F3": ("sign", "verify"), "+F4": ("sign", "verify"),
                "+F5": ("derive",), "+F6": ("sign", "verify")}
ECHO = re.compile(r"^Got: (\+\S+) from (\d+)$")
FORKED = re.compile(r"^Forked child (\d+)$")
ECHO_TAIL = re.compile(r" from \d*$")
GLUED = re.compile(r"\+[A-Z]+\d*:")
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


def canonical(name: str) -> str:
    """``AES-128-GCM`` / ``aes-128 cbc`` / ``ChaCha20-Poly1305`` -> ``aes-128-gcm`` style."""
    return re.sub(r"\s+", "-", name.strip()).lower()


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


@dataclass(frozen=True)
class Echo:
    """A child's record as the ``-multi`` parent echoed it: ``Got: <record> from <child>``."""

    child: int
    record: str


@dataclass
class MrLines:
    """A log's ``-mr`` lines sorted by origin: this process's (or the ``-multi`` parent's) own
    records, intact child echoes (payload only), and damaged echo fragments."""

    records: list[str] = field(default_factory=list)
    echoes: list[Echo] = field(default_factory=list)
    children: set[int] = field(default_factory=set)
    damaged: int = 0

    def notes(self) -> tuple[str, ...]:
        if not self.damaged:
            return ()
        return (f"{self.damaged} damaged child echo line(s) skipped (stdout and stderr "
                "interleaved)",)


def split_lines(text: str) -> MrLines:
    """Sort every line of ``text``: ``Got: +X... from N`` with nothing glued in is an intact
    child echo (an echoed ``+H`` also stands for the parent's block sizes); any other ``Got:``
    line, a line ending in `` from N`` and a ``+`` line with a second record glued into it are
    damaged echoes; other ``+`` lines are own records."""
    lines = MrLines()
    for raw in text.splitlines():
        line = raw.strip()
        echo = ECHO.match(line)
        forked = FORKED.match(line)
        if forked:
            lines.children.add(int(forked.group(1)))
        elif echo and not GLUED.search(echo.group(1), 1):
            lines.echoes.append(Echo(int(echo.group(2)), echo.group(1)))
            lines.children.add(int(echo.group(2)))
            if echo.group(1).startswith("+H:"):  # a -multi -mr parent prints no +H of its own
                lines.records.append(echo.group(1))
        elif line.startswith("Got:") or ECHO_TAIL.search(line) or (
                line.startswith("+") and GLUED.search(line, 1)):
            lines.damaged += 1
        elif line.startswith("+"):
            lines.records.append(line)
    return lines


def _number(cell: str) -> float:
    if cell.endswith("k"):
        return float(cell[:-1]) * 1000.0
    return float(cell)


def record_name(fields: list[str]) -> str | None:
    """The canonical algorithm an ``+F``..``+F6`` record is about, None for other tags."""
    tag = fields[0]
    if tag == "+F" and len(fields) >= 3:
        return canonical(fields[2])
    if tag not in MR_RATE_TAGS or len(fields) < 3:
        return None
    if tag in ("+F2", "+F3"):
        return f"{'rsa' if tag == '+F2' else 'dsa'}{fields[2]}"
    if tag == "+F6":
        return canonical(fields[3]) if len(fields) > 3 else None
    fam = "ecdsa" if tag == "+F4" else "ecdh"
    curve = EC_INDEX.get(int(fields[1])) if fields[1].isdigit() else None
    return f"{fam}-{curve}" if curve else f"{fam}-curve{fields[1]}-{fields[2]}bits"


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
    _check_parent_totals(lines)
    _check_parent_sums(lines, unit)
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


def _check_parent_totals(lines: MrLines) -> None:
    """Every algorithm a child echoed needs the parent's total: without it the log was cut
    short or the total itself was damaged, and a child's share must not stand in for it."""
    own = {record_name(record.split(":")) for record in lines.records}
    missing = sorted({name for echo in lines.echoes
                      if (name := record_name(echo.record.split(":"))) is not None
                      and name not in own})
    if missing:
        raise ParseError("openssl speed -multi output",
                         f"children reported {', '.join(missing)} but the parent printed no "
                         "total for it (log cut short or total damaged)")


RecordKey = tuple[str, ...]


def _record_values(fields: list[str]) -> tuple[RecordKey, list[float]] | None:
    """A result record's identity (tag, index, size or name) and its numbers; ``+F5``'s second
    number is the first one's reciprocal and is left out."""
    tag = fields[0]
    if tag not in ("+F", *MR_RATE_TAGS) or len(fields) < 4:
        return None
    first = 4 if tag == "+F6" else 3
    numbers = fields[first:first + 1] if tag == "+F5" else fields[first:]
    try:
        return tuple(fields[:first]), [float(v) for v in numbers]
    except ValueError:
        return None


def _check_parent_sums(lines: MrLines, unit: str | None) -> None:
    """A ``-multi`` parent's total is its children's sum (op/s, bytes/s) or their combined
    seconds ``1 / sum(1 / d)`` (s/op): checked wherever every child's echo survived, so a
    parent that mis-adds (1.1.1's ``do_multi`` once read EdDSA's name field as the sign rate,
    openssl/openssl#10261) is refused instead of reported."""
    parents: dict[RecordKey, list[list[float]]] = {}
    for record in lines.records:
        if (found := _record_values(record.split(":"))) is not None:
            parents.setdefault(found[0], []).append(found[1])
    shares: dict[RecordKey, dict[int, list[float]]] = {}
    for echo in lines.echoes:
        if (found := _record_values(echo.record.split(":"))) is not None:
            shares.setdefault(found[0], {})[echo.child] = found[1]
    for key, by_child in shares.items():
        if len(parents.get(key, [])) != 1 or set(by_child) != lines.children:
            continue  # a child's echo was damaged, or the log holds several runs of it
        reciprocal = key[0] != "+F" and unit == "s/op"
        for column, total in enumerate(parents[key][0]):
            parts = [values[column] for values in by_child.values() if column < len(values)]
            expected = _combined(parts, reciprocal)
            slack = 0.01 if key[0] == "+F" else 2e-6  # printed with %.2f / %f
            if expected is not None and abs(total - expected) > slack + 1e-6 * abs(expected):
                raise ParseError("openssl speed -multi output",
                                 f"the parent's {':'.join(key)} value {total} is not its "
                                 f"{len(parts)} children's combined {expected:.6f}")


def _combined(parts: list[float], reciprocal: bool) -> float | None:
    if not reciprocal:
        return sum(parts)
    if any(part <= 0 for part in parts):
        return None
    return 1.0 / sum(1.0 / part for part in parts)


def _mr_rates(fields: list[str], per_second: bool) -> list[Rate]:
    """Rates from one asymmetric record (3.x ``+F2`` adds encrypt and decrypt to sign and
    verify).  A zero stays zero (no result), never an infinity."""
    name = record_name(fields)
    if name is None:
        raise ValueError("record too short")
    ops = MR_RATE_TAGS[fields[0]]
    if fields[0] == "+F2" and len(fields) >= 7:
        ops = (*ops, "encrypt", "decrypt")
    first = 4 if fields[0] == "+F6" else 3
    values = [float(v) for v in fields[first:first + len(ops)]]
    if len(values) != len(ops):
        raise ValueError(f"expected {len(ops)} value(s)")
    if not per_second:
        values = [1.0 / v if v > 0 else 0.0 for v in values]
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
