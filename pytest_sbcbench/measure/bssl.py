"""``bssl speed``: BoringSSL's and AWS-LC's benchmark tool (``tool/speed.cc``), a format of its own.

Every result is one line (``TimeResults::Print`` / ``PrintWithBytes`` / ``PrintWithPrimes``)::

    Did %u %s operations in %uus (%.1f ops/sec)
    Did %u %s operations in %uus (%.1f ops/sec): %.1f MB/s     (a chunk size in the description)
    Did %u %s operations in %uus (%.3f ops/sec)                (DH check: " (N bits)")

``ops/sec`` is ``num_calls / us * 1e6`` and ``MB/s`` is ``bytes_per_call * num_calls / us``:
10^6 bytes per second, not MiB.  Each line is checked against its own counts within the
printed rounding, so a figure the counts do not give is an error, not a result.  The chunk
size is in the description, where the release put it: ``AEAD-AES-128-GCM seal (16384 bytes)``
(AWS-LC), ``AES-128-GCM seal (16 bytes)`` (BoringSSL), ``AES-128-GCM (16 bytes) seal`` (older
BoringSSL); the name is the description without it.  RSA key generation adds a
``  min: Nus, median: Nus, max: Nus`` line; a debug build says ``Benchmarking in debug mode.``
first (kept in the notes: its figures are not a release build's).

The tool prints no version: AWS-LC's ``bssl version`` prints ``AWSLC_VERSION_NUMBER_STRING``,
BoringSSL's ``bssl`` has no such command (see :func:`parse_version_output`)."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass

from ..errors import ParseError, ToolError
from ..model import Identity, Measurement
from ..platform.executor import Executor
from .sanity import checked
from .sysbench import NUMBER
from .tools import run_tool, which

DID = re.compile(r"^Did (?P<calls>\d+) (?P<desc>.+?) operations in (?P<us>\d+)us "
                 r"\((?P<rate>" + NUMBER[1:-1] + r") ops/sec\)"
                 r"(?:: +(?P<mbps>" + NUMBER[1:-1] + r") MB/s)?$")
DISTRIBUTION = re.compile(r"^\s+min: \d+us, median: \d+us, max: \d+us$")
CHUNK = re.compile(r" \((\d+) bytes?\)")
DEBUG = "Benchmarking in debug mode."
AWSLC_VERSION = re.compile(r"^\d+\.\d+\.\d+$")


@dataclass(frozen=True)
class BsslResult:
    description: str  # as printed, chunk size included
    name: str  # without the chunk size: "AEAD-AES-128-GCM seal", "RSA 2048 signing"
    calls: int
    microseconds: int
    ops_per_second: float
    block_bytes: int | None = None
    bytes_per_second: float | None = None


@dataclass(frozen=True)
class BsslReport:
    results: tuple[BsslResult, ...]
    notes: tuple[str, ...] = ()

    def find(self, name: str, block_bytes: int | None = None) -> BsslResult | None:
        """The result named ``name`` (the description without its chunk size) at
        ``block_bytes``, or None."""
        for result in self.results:
            if result.name == name and result.block_bytes == block_bytes:
                return result
        return None


def parse_bssl_speed(text: str) -> BsslReport:
    """Every ``Did ...`` line of a ``bssl speed`` output; a line starting ``Did `` that is not
    one, one whose figures its counts do not give, one description with two different results,
    or no result at all is a :class:`ParseError`."""
    results: list[BsslResult] = []
    notes: list[str] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.startswith("Did "):
            results.append(_result(line))
        elif line.strip() == DEBUG:
            notes.append("a debug build ('Benchmarking in debug mode.'): not a release "
                         "build's speed")
    if not results:
        raise ParseError("bssl speed output", "no 'Did N ... operations in Tus' line",
                         text[:600])
    seen: dict[str, BsslResult] = {}
    for result in results:
        other = seen.setdefault(result.description, result)
        if other != result:
            raise ParseError("bssl speed output", f"{result.description!r} is printed twice "
                             f"with different results ({other.ops_per_second} and "
                             f"{result.ops_per_second} ops/sec): which run is meant?")
    return BsslReport(tuple(seen.values()), tuple(notes))


def _result(line: str) -> BsslResult:
    match = DID.match(line)
    if match is None:
        raise ParseError("bssl speed output", f"line {line!r} is not 'Did N <description> "
                         "operations in Tus (R ops/sec)[: B MB/s]'")
    calls, us = int(match.group("calls")), int(match.group("us"))
    description = match.group("desc")
    rate = float(match.group("rate"))
    if us == 0 or not _printed_as(rate, calls / us * 1e6, match.group("rate")):
        raise ParseError("bssl speed output", f"{description}: {rate} ops/sec is not {calls} "
                         f"calls in {us} us", line)
    chunks = CHUNK.findall(description)
    block = int(chunks[0]) if len(chunks) == 1 else None
    name = CHUNK.sub("", description) if block is not None else description
    mbps = match.group("mbps")
    if mbps is None:
        return BsslResult(description, name, calls, us, rate)
    if block is None:
        raise ParseError("bssl speed output", f"{description}: MB/s without one "
                         "'(N bytes)' chunk size", line)
    if not _printed_as(float(mbps), block * calls / us, mbps):
        raise ParseError("bssl speed output", f"{description}: {mbps} MB/s is not {calls} "
                         f"calls of {block} bytes in {us} us", line)
    return BsslResult(description, " ".join(name.split()), calls, us, rate, block,
                      float(mbps) * 1e6)


def _printed_as(value: float, exact: float, printed: str) -> bool:
    """Whether ``printed`` (``value``) is ``exact`` rounded to its printed decimals."""
    if not math.isfinite(value):
        return False
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    half_unit = 0.5 / 10.0 ** decimals
    return abs(value - exact) <= half_unit * (1 + 1e-9) + 1e-12 * abs(exact)


def parse_version_output(stdout: str, returncode: int) -> tuple[str, str]:
    """``(library, version)`` from ``bssl version``: AWS-LC prints its version number
    (``1.49.0``); BoringSSL has no such command (it prints its usage and exits 1): its
    version is unknown, said so rather than guessed."""
    text = stdout.strip()
    if returncode == 0 and AWSLC_VERSION.match(text):
        return "AWS-LC", text
    if "Usage:" in text and "speed" in text:
        return "BoringSSL", "unknown (bssl has no version command)"
    raise ParseError("bssl version output", "neither an AWS-LC version number nor BoringSSL's "
                     "usage", stdout[:300])


BSSL_ENV = "SBCBENCH_BSSL"
# canonical AEAD -> (the -filter, the result names in AWS-LC's and BoringSSL's releases)
AEADS = {"aes-128-gcm": ("AES-128-GCM", ("AEAD-AES-128-GCM", "AES-128-GCM"))}


@dataclass(frozen=True)
class BsslTool:
    path: str
    library: str  # "AWS-LC" or "BoringSSL"
    version: str
    executor: Executor


def find_bssl(*, executor: Executor) -> str | None:
    """``$SBCBENCH_BSSL`` if set, else ``bssl`` on the PATH where ``executor`` runs."""
    return os.environ.get(BSSL_ENV) or which("bssl", executor=executor)


def bssl_tool(path: str, *, executor: Executor) -> BsslTool:
    """The bssl at ``path`` and the library it belongs to (``bssl version``)."""
    done = executor.run([path, "version"], 30)
    if done.timed_out:
        raise ToolError([path, "version"], None, done.stderr, "bssl version: timed out")
    library, version = parse_version_output(done.stdout, done.returncode)
    return BsslTool(path, library, version, executor)


def measure_aead_seal(tool: BsslTool, aead: str, *, block_bytes: int, seconds: int,
                      runs: int) -> Measurement:
    """``bssl speed -filter NAME -timeout N -chunks BYTES`` ``runs`` times: the AEAD's seal
    throughput at ``block_bytes``, in bytes per second (the tool's MB/s are 10^6 bytes)."""
    filt, names = AEADS[aead]
    argv = [tool.path, "speed", "-filter", filt, "-timeout", str(seconds), "-chunks",
            str(block_bytes)]
    samples = []
    for _ in range(runs):
        out = run_tool(argv, 120.0 + 20 * seconds, "bssl speed", executor=tool.executor)
        try:
            report = parse_bssl_speed(out)
        except ParseError as exc:
            raise ToolError(argv, 0, out[-2000:], f"bssl speed output unusable: {exc.reason}"
                            ) from exc
        found = next((r for n in names if (r := report.find(f"{n} seal", block_bytes))), None)
        if found is None or found.bytes_per_second is None:
            raise ToolError(argv, 0, out[-2000:], f"bssl speed printed no {filt} seal at "
                            f"{block_bytes} bytes (looked for {', '.join(names)})")
        samples.append(checked(found.bytes_per_second, "B/s", argv, f"bssl speed {filt} seal"))
    identity = Identity.of(tool="bssl", library=tool.library, version=tool.version,
                           algorithm=aead, op="seal", block_bytes=block_bytes, threads=1,
                           seconds=seconds)
    return Measurement(f"{aead}-seal", "B/s", "higher", identity, tuple(samples),
                       label=f"{aead} seal ({tool.library})")
