"""DRAM bandwidth with arrays at least 4x the last-level cache, judged by the physics gate."""

from __future__ import annotations

import pytest

from pytest_sbcbench.errors import SbcBenchError
from pytest_sbcbench.fixtures import Bench
from pytest_sbcbench.fixtures_compile import cache_dir
from pytest_sbcbench.measure import stream
from pytest_sbcbench.measure.c_helpers import compiler
from pytest_sbcbench.platform.topology import last_level_cache

pytestmark = pytest.mark.memory


def test_stream(sbcbench: Bench, request: pytest.FixtureRequest) -> None:
    llc = last_level_cache(sbcbench.settings.sysroot)
    spec = stream.plan(llc.size_bytes if llc else None)
    if compiler() is None:
        pytest.skip("no C compiler for the memory kernel (apt-get install gcc, or set CC)")
    try:
        binary = stream.build(cache_dir(request.config))
    except SbcBenchError as exc:
        pytest.fail(str(exc), pytrace=False)
    quick = sbcbench.settings.quick
    for measurement in stream.measure(binary, spec, passes=3 if quick else 10,
                                      runs=sbcbench.settings.runs_for()):
        sbcbench.record(measurement)
