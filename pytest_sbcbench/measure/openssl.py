"""Run the real ``openssl speed`` and turn its output into measurements."""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import ParseError, ToolError
from ..model import Identity, Measurement
from ..platform.executor import Executor, default_executor
from .clocks import RunClock, openssl_phases
from .openssl_parse import SpeedReport, parse_speed
from .openssl_pq import KEM, SIGNATURE, listed_names
from .sanity import checked
from .tools import run_checked, run_tool, which

OPENSSL_ENV = "SBCBENCH_OPENSSL"
THROUGHPUT_ALGORITHMS = ("aes-128-gcm", "aes-256-gcm", "aes-128-cbc", "aes-192-cbc",
                         "aes-256-cbc", "sha1", "sha256", "sha512", "md5", "chacha20-poly1305")
# canonical name -> the name ``openssl speed`` takes for it
ASYMMETRIC_ALGORITHMS = {f"rsa{bits}": f"rsa{bits}" for bits in (512, 1024, 2048, 3072, 4096)}
ASYMMETRIC_ALGORITHMS.update({f"ecdsa-p{bits}": f"ecdsap{bits}" for bits in (256, 384, 521)})
ASYMMETRIC_OPS = ("sign", "verify")
# canonical name -> (the name ``openssl speed`` and ``openssl list`` use, its table, its ops):
# OpenSSL 3.5's default provider (FIPS 203 ML-KEM, FIPS 204 ML-DSA); 3.2-3.4 measure them only
# through a provider that brings them (the OQS provider names them mlkem768, mldsa65)
POST_QUANTUM = {"ml-kem-768": ("ML-KEM-768", KEM, ("keygen", "encaps", "decaps")),
                "ml-dsa-65": ("ML-DSA-65", SIGNATURE, ("keygen", "sign", "verify"))}
LIST_OPTION = {KEM: "-kem-algorithms", SIGNATURE: "-signature-algorithms"}
DEFAULT_BLOCK = 16384


@dataclass(frozen=True)
class OpensslTool:
    path: str
    version: str
    banner: str
    executor: Executor = field(default_factory=default_executor, compare=False, repr=False)


def find_openssl(*, executor: Executor | None = None) -> str | None:
    """``$SBCBENCH_OPENSSL`` if set, else ``openssl`` on the PATH where ``executor`` runs
    commands (default: this machine)."""
    chosen = os.environ.get(OPENSSL_ENV)
    if chosen:
        return chosen
    return which("openssl", executor=executor)


def env_problem(path: str) -> str | None:
    """Why the openssl named by ``$SBCBENCH_OPENSSL`` cannot run, in one line naming the path
    (no such file, a directory, not executable); None when it may run or was found on PATH."""
    if os.environ.get(OPENSSL_ENV) != path:
        return None
    fix = f"point {OPENSSL_ENV} at an openssl binary, or unset it to use openssl on PATH"
    if not os.path.exists(path):
        return f"{OPENSSL_ENV}={path}: no such file; {fix}"
    if os.path.isdir(path) or not os.access(path, os.X_OK):
        return f"{OPENSSL_ENV}={path}: not an executable file; {fix}"
    return None


def parse_version(banner: str) -> str:
    """``OpenSSL 3.0.19 27 Jan 2026 (...)`` -> ``3.0.19``; LibreSSL keeps its prefix."""
    match = re.match(r"^\s*(OpenSSL|LibreSSL)\s+(\d+\.\d+\.\d+[a-z]*)", banner)
    if not match:
        raise ParseError("openssl version", "unrecognised banner", banner[:200])
    return match.group(2) if match.group(1) == "OpenSSL" else f"LibreSSL {match.group(2)}"


def openssl_tool(path: str, *, executor: Executor | None = None) -> OpensslTool:
    """The openssl at ``path`` and its version, run through ``executor`` (default: this
    machine; the session passes its own), which every later run of the tool uses."""
    runner = executor if executor is not None else default_executor()
    banner = run_tool([path, "version"], 30, "openssl version", executor=runner).strip()
    try:
        version = parse_version(banner)
    except ParseError as exc:
        raise ToolError([path, "version"], 0, banner, str(exc)) from exc
    return OpensslTool(path=path, version=version, banner=banner, executor=runner)


def speed_argv(tool: OpensslTool, algorithm: str, seconds: int,
               block_bytes: int = DEFAULT_BLOCK) -> list[str]:
    """The ``openssl speed -mr`` command line for one canonical algorithm."""
    if algorithm in POST_QUANTUM:  # no -mr: its +F9/+F10 records name no algorithm (openssl_pq)
        return [tool.path, "speed", "-seconds", str(seconds), POST_QUANTUM[algorithm][0]]
    base = [tool.path, "speed", "-mr", "-seconds", str(seconds)]
    if algorithm in ASYMMETRIC_ALGORITHMS:
        return [*base, ASYMMETRIC_ALGORITHMS[algorithm]]
    return [*base, "-evp", algorithm, "-bytes", str(block_bytes)]


def speed_once(tool: OpensslTool, argv: list[str], phases: int, seconds: int,
               prefix: Sequence[str] = ()) -> SpeedReport:
    """One ``openssl speed`` invocation (behind ``prefix``: a ``taskset`` pin), parsed."""
    return speed_timed(tool, argv, phases, seconds, prefix)[0]


def speed_timed(tool: OpensslTool, argv: list[str], phases: int, seconds: int,
                prefix: Sequence[str] = ()) -> tuple[SpeedReport, list[RunClock]]:
    """:func:`speed_once` and its timed phases in order (:func:`.clocks.openssl_phases`: each
    phase's user CPU seconds, the divisor of its rate, beside the wall seconds asked for;
    none where the log does not say)."""
    timeout = 60.0 + 5.0 * phases * seconds
    done = run_checked([*prefix, *argv], timeout, "openssl speed", executor=tool.executor)
    out = done.stdout
    if not out.strip():
        raise ToolError(argv, done.returncode, done.stderr, "openssl speed: printed nothing")
    try:
        return parse_speed(out, tool.version), openssl_phases(done.stderr)
    except ParseError as exc:
        reason = f"openssl speed output unusable: {exc.reason}"
        raise ToolError(argv, 0, out[-2000:], reason) from exc


def no_result(argv: list[str], what: str, report: SpeedReport) -> ToolError:
    found = sorted({c.algorithm for c in report.throughput} | {r.algorithm for r in report.rates})
    return ToolError(argv, 0, "", f"openssl speed printed no {what}; found: {found or 'nothing'}")


def throughput_samples(tool: OpensslTool, argv: list[str], algorithm: str, block_bytes: int,
                       seconds: int, runs: int, what: str) -> tuple[float, ...]:
    """Bytes/s of ``algorithm`` at ``block_bytes`` from ``runs`` invocations of ``argv``;
    a run that prints no figure for it, or one that cannot be a measurement (NaN, infinite,
    zero, negative, absurd), is a :class:`ToolError` naming ``what`` and the command."""
    return tuple(v for v, _ in timed_throughput(tool, argv, algorithm, block_bytes, seconds,
                                                runs, what))


def timed_throughput(tool: OpensslTool, argv: list[str], algorithm: str, block_bytes: int,
                     seconds: int, runs: int, what: str, prefix: Sequence[str] = ()
                     ) -> list[tuple[float, RunClock | None]]:
    """:func:`throughput_samples` with each run's clock (None: the log does not say)."""
    samples = []
    for _ in range(runs):
        report, phases = speed_timed(tool, argv, 1, seconds, prefix)
        value = report.bytes_per_second(algorithm, block_bytes, api="evp")  # speed_argv: -evp
        if value is None:
            raise no_result(argv, what, report)
        samples.append((checked(value, "B/s", argv, f"openssl speed {what}"),
                        phases[-1] if len(phases) == 1 else None))
    return samples


def _clocked(m: Measurement, clocks: Sequence[RunClock | None]) -> Measurement:
    """``m`` with each run's clock in ``details["runs"]`` (when every run's log gave one)."""
    if not clocks or any(c is None for c in clocks):
        return m
    runs = [c.as_dict() for c in clocks if c is not None]
    return dataclasses.replace(m, details={**m.details, "runs": runs})


def measure_throughput(tool: OpensslTool, algorithm: str, *, seconds: int, runs: int,
                       block_bytes: int = DEFAULT_BLOCK, prefix: Sequence[str] = ()
                       ) -> Measurement:
    """``runs`` independent ``openssl speed -evp`` invocations; samples in bytes/s, each
    run's clock (its user CPU seconds, the rate's divisor, beside its wall seconds) in
    ``details["runs"]``; ``prefix``: a command the invocation runs behind (a ``taskset``
    pin)."""
    argv = speed_argv(tool, algorithm, seconds, block_bytes)
    taken = timed_throughput(tool, argv, algorithm, block_bytes, seconds, runs,
                             f"{algorithm} at {block_bytes} bytes", prefix)
    identity = Identity.of(tool="openssl", version=tool.version, algorithm=algorithm,
                           block_bytes=block_bytes, threads=1, seconds=seconds)
    return _clocked(Measurement(algorithm, "B/s", "higher", identity,
                                tuple(v for v, _ in taken)), [c for _, c in taken])


def measure_rates(tool: OpensslTool, algorithm: str, *, seconds: int, runs: int,
                  prefix: Sequence[str] = ()) -> dict[str, Measurement]:
    """Sign and verify rates (op/s) of an asymmetric algorithm, ``runs`` invocations (behind
    ``prefix``), each run's clock per op in ``details["runs"]`` (sign the first timed phase,
    verify the second, as ``openssl speed`` runs them)."""
    argv = speed_argv(tool, algorithm, seconds)
    series: dict[str, list[float]] = {op: [] for op in ASYMMETRIC_OPS}
    clocks: dict[str, list[RunClock | None]] = {op: [] for op in ASYMMETRIC_OPS}
    for _ in range(runs):
        report, phases = speed_timed(tool, argv, 2, seconds, prefix)
        for i, (op, values) in enumerate(series.items()):
            value = report.per_second(algorithm, op, "")  # the RSA/ECDSA tables
            if value is None:
                raise no_result(argv, f"{algorithm} {op} rate", report)
            values.append(checked(value, "op/s", argv, f"openssl speed {algorithm} {op} rate"))
            clocks[op].append(phases[i] if len(phases) == len(ASYMMETRIC_OPS) else None)
    return {
        op: _clocked(Measurement(algorithm, "op/s", "higher",
                                 Identity.of(tool="openssl", version=tool.version,
                                             algorithm=algorithm, op=op, threads=1,
                                             seconds=seconds),
                                 tuple(values), label=f"{algorithm} {op}"), clocks[op])
        for op, values in series.items()
    }


def post_quantum_problem(tool: OpensslTool, algorithm: str) -> str | None:
    """Why ``tool`` cannot measure ``algorithm`` (a :data:`POST_QUANTUM` name), from its own
    ``openssl list -kem-algorithms`` / ``-signature-algorithms``; None when it lists it."""
    name, kind, _ = POST_QUANTUM[algorithm]
    argv = [tool.path, "list", LIST_OPTION[kind]]
    listed = listed_names(run_tool(argv, 60, "openssl list", executor=tool.executor))
    if name.lower() in {n.lower() for n in listed}:
        return None
    names = sorted(n for n in listed if not re.fullmatch(r"[\d.]+", n))  # OIDs left out
    return (f"openssl {tool.version} at {tool.path} has no {name} ({' '.join(argv[1:])} "
            f"lists {', '.join(names[:8]) or 'nothing'}): OpenSSL's default provider "
            "has ML-KEM and ML-DSA from 3.5")


def measure_post_quantum(tool: OpensslTool, algorithm: str, *, seconds: int, runs: int,
                         prefix: Sequence[str] = ()) -> dict[str, Measurement]:
    """The rates (op/s) of a :data:`POST_QUANTUM` algorithm's three operations from ``runs``
    invocations of ``openssl speed -seconds N NAME``, read from its KEM or signature table."""
    _, kind, ops = POST_QUANTUM[algorithm]
    argv = speed_argv(tool, algorithm, seconds)
    series: dict[str, list[float]] = {op: [] for op in ops}
    for _ in range(runs):
        report = speed_once(tool, argv, len(ops), seconds, prefix)
        for op, values in series.items():
            value = report.per_second(algorithm, op, kind)
            if value is None:
                raise no_result(argv, f"{algorithm} {op} rate ({kind} table)", report)
            values.append(checked(value, "op/s", argv, f"openssl speed {algorithm} {op} rate"))
    return {
        op: Measurement(algorithm, "op/s", "higher",
                        Identity.of(tool="openssl", version=tool.version, algorithm=algorithm,
                                    op=op, table=kind, threads=1, seconds=seconds),
                        tuple(values), label=f"{algorithm} {op}")
        for op, values in series.items()
    }
