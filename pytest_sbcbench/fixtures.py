"""Fixtures that benchmarks use: ``sbcbench`` (record and judge), ``sbc_board``, ``sbc_openssl``."""

from __future__ import annotations

from typing import Any

import pytest

from .errors import SbcBenchError
from .judge.stats import summarize
from .judge.verdict import no_baseline
from .measure import inprocess, openssl
from .model import Measurement, Result
from .platform.board import BoardProfile
from .platform.facts import platform_facts
from .settings import Settings
from .state import RunState, get_state

MISSING_OPENSSL = ("openssl not found on PATH: install it (Debian/Ubuntu: apt-get install "
                   "openssl) or point ${env} at an openssl binary")


class Bench:
    """One test's handle on the run: measure with real tools, then record and judge."""

    def __init__(self, request: pytest.FixtureRequest, state: RunState) -> None:
        self._request = request
        self._state = state

    @property
    def settings(self) -> Settings:
        return self._state.settings

    @property
    def board(self) -> BoardProfile:
        return self._state.board

    def _openssl(self) -> openssl.OpensslTool:
        tool: openssl.OpensslTool = self._request.getfixturevalue("sbc_openssl")
        return tool

    def record(self, measurement: Measurement) -> Result:
        """Summarise ``measurement`` and queue it for this test's verdict.

        Telemetry, validity and the verdict are attached when the test's call phase ends; then
        the result enters the summary, the results JSON and the ``pytest_sbcbench_result``
        hook."""
        result = Result(
            test=self._request.node.nodeid,
            measurement=measurement,
            summary=summarize(measurement.samples),
            verdict=no_baseline(self.board.name),
        )
        self._state.pending.setdefault(result.test, []).append(result)
        return result

    def openssl_throughput(self, algorithm: str, block_bytes: int = openssl.DEFAULT_BLOCK
                           ) -> Result:
        """``openssl speed -evp ALG -bytes N`` run ``runs`` times, in bytes per second."""
        settings = self.settings
        measurement = openssl.measure_throughput(
            self._openssl(), algorithm, seconds=settings.seconds,
            runs=settings.runs_for(), block_bytes=block_bytes)
        return self.record(measurement)

    def openssl_rate(self, algorithm: str, op: str) -> Result:
        """Sign or verify operations per second (``openssl speed rsa2048`` / ``ecdsap256``).

        Each test runs its own invocations, so its telemetry describes its own load."""
        settings = self.settings
        rates = openssl.measure_rates(self._openssl(), algorithm, seconds=settings.seconds,
                                      runs=settings.runs_for())
        return self.record(rates[op])

    def inprocess_aead(self, algorithm: str, block_bytes: int = 16384) -> Result:
        """AEAD encryption through the ``cryptography`` package, in this Python process."""
        settings = self.settings
        measurement = inprocess.measure_aead(
            algorithm, seconds=float(settings.seconds), runs=settings.runs_for(),
            block_bytes=block_bytes)
        return self.record(measurement)


@pytest.fixture
def sbcbench(request: pytest.FixtureRequest, sbc_board: BoardProfile) -> Bench:
    """Measure with real tools and record judged results for the summary and results JSON
    (``sbc_board`` first: a board that cannot be resolved fails the test with the reason)."""
    return Bench(request, get_state(request.config))


@pytest.fixture(scope="session")
def sbc_board(request: pytest.FixtureRequest) -> BoardProfile:
    """The board profile this run is judged against."""
    try:
        return get_state(request.config).board
    except SbcBenchError as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="session")
def sbc_platform(request: pytest.FixtureRequest) -> dict[str, Any]:
    """Platform facts of the machine (or --sbc-sysroot tree): features, ISA, accelerators,
    clusters, kernel crypto (``sbcbench probe --json``)."""
    return platform_facts(get_state(request.config).settings.sysroot)


@pytest.fixture(scope="session")
def sbc_openssl(request: pytest.FixtureRequest) -> openssl.OpensslTool:
    """The real ``openssl`` binary and its version; skips with a reason when absent."""
    path = openssl.find_openssl()
    if path is None:
        pytest.skip(MISSING_OPENSSL.replace("${env}", openssl.OPENSSL_ENV))
    tool = openssl.openssl_tool(path)
    get_state(request.config).tools["openssl"] = tool.version
    return tool
