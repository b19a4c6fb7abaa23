"""Thread scaling: the same CPU-bound work at 1, 2, 4, ... threads up to the CPU count, with
efficiency against one thread and what the extra threads are (SMT siblings, another cluster).
The seeds: the Star64 scales 2.00x at 2 and 3.93x at 4; the MacBook's Hyper-Threading adds
nothing to FP work (1.51x at 2 and at 4)."""

from __future__ import annotations

import dataclasses
import os
import shutil
import statistics
from collections.abc import Callable

import pytest

from pytest_sbcbench.fixtures import Bench
from pytest_sbcbench.measure import scaling
from pytest_sbcbench.measure.openssl import OpensslTool
from pytest_sbcbench.model import Measurement
from pytest_sbcbench.platform.topology import describe_threads

pytestmark = pytest.mark.scaling


def run_scaling(sbcbench: Bench, measure: Callable[[int], Measurement]) -> dict[int, float]:
    cpus = len(os.sched_getaffinity(0))
    results = {n: measure(n) for n in scaling.thread_counts(cpus)}
    rates = {n: statistics.median(m.samples) for n, m in results.items()}
    eff = scaling.efficiency(rates)
    for n, m in results.items():
        details = {"speedup": rates[n] / rates[1], "efficiency": eff[n],
                   "threads_are": describe_threads(sbcbench.settings.sysroot, n)}
        sbcbench.record(dataclasses.replace(m, details=details))
    return eff


def test_openssl_scaling(sbcbench: Bench, sbc_openssl: OpensslTool) -> None:
    settings = sbcbench.settings
    eff = run_scaling(sbcbench, lambda n: scaling.openssl_multi(
        sbc_openssl, n, settings.seconds, settings.runs_for()))
    assert eff[1] == 1.0


@pytest.mark.skipif(shutil.which("sysbench") is None,
                    reason="sysbench not installed (apt-get install sysbench)")
def test_sysbench_scaling(sbcbench: Bench) -> None:
    settings = sbcbench.settings
    run_scaling(sbcbench, lambda n: scaling.sysbench_cpu(n, settings.seconds,
                                                         settings.runs_for()))


@pytest.mark.skipif(shutil.which("stress-ng") is None,
                    reason="stress-ng not installed (apt-get install stress-ng)")
def test_stress_ng_matrixprod_scaling(sbcbench: Bench) -> None:
    settings = sbcbench.settings
    run_scaling(sbcbench, lambda n: scaling.stress_ng_matrixprod(n, settings.seconds,
                                                                 settings.runs_for()))
