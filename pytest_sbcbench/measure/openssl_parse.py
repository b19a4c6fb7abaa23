"""Parse ``openssl speed`` output: human tables and ``-mr`` lines, OpenSSL 1.0 to 3.x, LibreSSL.

Pure functions.  Units: human symmetric cells ending in ``k`` are 1000s of bytes/s, cells without
``k`` are bytes/s (OpenSSL prints small values unscaled); ``-mr`` ``+F:`` values are bytes/s.
Asymmetric ``-mr`` lines (``+F2`` RSA, ``+F4`` ECDSA) are operations per second from OpenSSL 3.0
on, seconds per operation before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ParseError

STANDARD_BLOCKS: dict[int, tuple[int, ...]] = {
    6: (16, 64, 256, 1024, 8192, 16384),
    5: (16, 64, 256, 1024, 8192),
}
ECDSA_INDEX = {0: "ecdsa-secp160r1", 1: "ecdsa-p192", 2: "ecdsa-p224", 3: "ecdsa-p256",
               4: "ecdsa-p384", 5: "ecdsa-p521"}
NIST_CURVE = re.compile(r"^nistp(\d+)$", re.IGNORECASE)


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


def rates_are_per_second(version: str | None, pair: tuple[float, float]) -> bool:
    """Whether ``-mr`` ``+F2``/``+F4`` values are op/s (3.x) or s/op (before 3.0)."""
    if version and not version.startswith("LibreSSL"):
        major = re.match(r"(\d+)", version)
        if major:
            return int(major.group(1)) >= 3
    if version and version.startswith("LibreSSL"):
        return False
    return not all(0 < v < 1 for v in pair)


def parse_speed(text: str, version: str | None = None) -> SpeedReport:
    """Parse any ``openssl speed`` output; :class:`ParseError` when it holds no number."""
    version = version or detect_version(text)
    if any(line.startswith("+") for line in text.splitlines()):
        report = _parse_mr(text, version)
    else:
        report = _parse_human(text, version)
    if not report.throughput and not report.rates:
        reason = "empty output" if not text.strip() else "no result lines recognised"
        raise ParseError("openssl speed output", reason, text[:600])
    return report


def _number(cell: str) -> float:
    if cell.endswith("k"):
        return float(cell[:-1]) * 1000.0
    return float(cell)


def _parse_mr(text: str, version: str | None) -> SpeedReport:
    blocks: tuple[int, ...] = ()
    throughput: list[Throughput] = []
    rates: list[Rate] = []
    for raw in text.splitlines():
        line = raw.strip()
        child_header = re.match(r"^Got:\s*(\+H:[\d:]+)", line)
        if child_header:
            line = child_header.group(1)
        fields = line.split(":")
        tag = fields[0]
        try:
            if tag == "+H":
                blocks = tuple(int(f) for f in fields[1:] if f)
            elif tag == "+F" and len(fields) >= 4:
                values = [float(f) for f in fields[3:]]
                throughput += [Throughput(canonical(fields[2]), b, v)
                               for b, v in zip(blocks, values, strict=False)]
            elif tag in ("+F2", "+F4") and len(fields) >= 5:
                rates += _mr_rates(tag, int(fields[1]), int(fields[2]),
                                   (float(fields[3]), float(fields[4])), version)
        except ValueError as exc:
            raise ParseError("openssl speed -mr output", f"bad line {line!r}: {exc}") from exc
    return SpeedReport(version, tuple(throughput), tuple(rates))


def _mr_rates(tag: str, index: int, bits: int, pair: tuple[float, float],
              version: str | None) -> list[Rate]:
    name = f"rsa{bits}" if tag == "+F2" else ECDSA_INDEX.get(index, f"ecdsa-{bits}")
    if not rates_are_per_second(version, pair):
        pair = tuple(1.0 / v if v > 0 else 0.0 for v in pair)  # type: ignore[assignment]
    return [Rate(name, "sign", pair[0]), Rate(name, "verify", pair[1])]


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
    match = RSA_ROW.match(line) or CURVE_ROW.match(line)
    if not match:
        return []
    cells = match.group("cells").split()
    if len(cells) != len(header):
        return []
    name = _asym_name(match)
    out = []
    for column, cell in zip(header, cells, strict=True):
        op = OP_COLUMNS.get(column)
        if op:
            try:
                out.append(Rate(name, op, float(cell)))
            except ValueError:
                return []
    return out
