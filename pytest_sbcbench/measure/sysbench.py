"""sysbench 0.4, 1.0 and 1.1: the syntax of the detected version, and results that must exist.

sysbench 0.4.12 silently printed nothing for 1.0-style invocations; here a run that printed
no result is a :class:`ParseError`, never "missing data".

The run's length is ``total time:`` under ``General statistics:`` in 1.0 and ``time elapsed:``
under ``Throughput:`` in 1.1 (``src/sysbench.c`` ``report_cumulative``: 1.1 prints ``events/s
(eps)``, ``time elapsed`` and ``total number of events`` there); the cpu test's ``CPU speed:
events per second`` is printed by both.  A paste without the ``sysbench X.Y`` banner is read
when its test is unambiguous (the cpu test's ``CPU speed:`` or ``Prime numbers limit``, the
memory test's ``MiB transferred``): its version is then None.  An output of any other test
(an OLTP run's ``SQL statistics:``) is an error, never a cpu rate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ParseError

MIB = 1024 * 1024
# a figure as printed, signs, exponents and C's nan/inf included: the caller judges it
# (measure/sanity.py), so "1e300" is never silently read as 1 and "nan" never skipped
NUMBER = r"([-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|(?i:nan|inf(?:inity)?)))"


@dataclass(frozen=True)
class SysbenchResult:
    version: str | None  # None: the paste has no banner
    test: str  # "cpu" or "memory"
    threads: int | None
    total_time_s: float | None
    events: int | None
    events_per_second: float | None = None
    bytes_per_second: float | None = None
    max_prime: int | None = None
    block_bytes: int | None = None


def parse_version(text: str) -> str:
    match = re.search(r"^sysbench\s+(\d+\.\d+(?:\.\d+)?)", text, re.MULTILINE)
    if not match:
        raise ParseError("sysbench output", "no 'sysbench X.Y' banner", text[:300])
    return match.group(1)


def major_minor(version: str) -> tuple[int, int]:
    parts = [int(p) for p in version.split(".")[:2]]
    return parts[0], parts[1] if len(parts) > 1 else 0


def cpu_argv(version: str, threads: int, max_prime: int, seconds: int) -> list[str]:
    """The command line in the syntax of ``version``."""
    if major_minor(version) >= (1, 0):
        return ["sysbench", "cpu", f"--threads={threads}", f"--cpu-max-prime={max_prime}",
                f"--time={seconds}", "run"]
    return ["sysbench", "--test=cpu", f"--num-threads={threads}",
            f"--cpu-max-prime={max_prime}", f"--max-time={seconds}", "run"]


def _number(pattern: str, text: str) -> float | None:
    match = re.search(pattern, text, re.MULTILINE)
    return float(match.group(1)) if match else None


def _block_bytes(text: str) -> int | None:
    match = re.search(r"block size:\s*(\d+)\s*(K|KiB|M|MiB)?", text, re.IGNORECASE)
    if not match:
        return None
    unit = (match.group(2) or "").upper()
    return int(match.group(1)) * (MIB if unit.startswith("M") else 1024 if unit else 1)


CPU_MARKERS = re.compile(r"^\s*(CPU speed:|Prime numbers limit:|Maximum prime number checked in "
                         r"CPU test:|Doing CPU performance benchmark)", re.MULTILINE)


def _version(text: str) -> str | None:
    try:
        return parse_version(text)
    except ParseError:
        return None


def parse_sysbench(text: str) -> SysbenchResult:
    """cpu or memory output of 0.4, 1.0 or 1.1, with or without its banner; no result figure,
    or no sign of which test printed it, is an error."""
    version = _version(text)
    total = _number(r"(?:total time|time elapsed):\s*([\d.]+)s", text)
    events_f = _number(r"total number of events:\s*(\d+)", text)
    events = int(events_f) if events_f is not None else None
    threads_f = _number(r"Number of threads:\s*(\d+)", text)
    threads = int(threads_f) if threads_f is not None else None
    transferred = re.search(r"([\d.]+)\s*(MiB|MB) transferred \(\s*" + NUMBER
                            + r"\s*(MiB|MB)/sec\)", text)
    if transferred:
        # 1.x prints MiB; 0.4 prints "MB" but means MiB (10240 ops of 1024K = "10240.00 MB")
        return SysbenchResult(version, "memory", threads, total, events,
                              bytes_per_second=float(transferred.group(3)) * MIB,
                              block_bytes=_block_bytes(text))
    what = f"sysbench {version or '(no banner)'} output"
    if not CPU_MARKERS.search(text):
        found = "no banner, and " if version is None else ""
        raise ParseError(what, f"{found}no cpu test ('CPU speed:', 'Prime numbers limit') nor "
                         "memory test ('MiB transferred') in it: which test printed these "
                         "numbers?", text[:400])
    rate = _number(r"events per second:\s*" + NUMBER, text)
    if rate is None:
        rate = _number(r"events/s \(eps\):\s*" + NUMBER, text)
    if rate is None and total and events:
        rate = events / total
    if rate is None:
        raise ParseError(what, "no result: neither 'events per second' nor total time and "
                         "events (wrong syntax for this version?)", text[:400])
    prime = _number(r"(?:Prime numbers limit|Maximum prime number checked in CPU test):\s*(\d+)",
                    text)
    return SysbenchResult(version, "cpu", threads, total, events, events_per_second=rate,
                          max_prime=int(prime) if prime is not None else None)
