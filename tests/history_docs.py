"""Results documents shaped as the stand-in openssl runs write them (``sbcbench-results/1``),
and a history built from them through the store's own writer (``judge.history.append``), for
the history views' tests and the publish benchmark."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pytest_sbcbench.judge import history

DIGESTS = ("sha256", "sha512")
CIPHERS = ("aes-128-gcm", "chacha20-poly1305")
BASE = {"aes-128-gcm": 4.29e9, "chacha20-poly1305": 3.70e9, "sha256": 1.74e9,
        "sha512": 8.42e8}


def result(metric: str, samples: Sequence[float], status: str = "pass") -> dict[str, Any]:
    kind = "digest" if metric in DIGESTS or metric.startswith("m") else "cipher"
    return {"test": f"benchmarks/test_crypto.py::test_{kind}[{metric}]", "metric": metric,
            "unit": "B/s", "better": "higher",
            "identity": {"tool": "openssl", "version": "3.0.19", "algorithm": metric,
                         "block_bytes": 16384, "threads": 1, "workload": "openssl speed -evp"},
            "samples": list(samples), "summary": {"n": len(samples)},
            "telemetry": {"findings": []},
            "verdict": {"status": status, "detail": f"{status} (history test)"}}


def results_doc(board: str, created: str, boot: str, kernel: str,
                samples: Mapping[str, Sequence[float]]) -> dict[str, Any]:
    return {"schema": "sbcbench-results/1", "board": board, "created": created,
            "environment": {"kernel": kernel, "boot_id": boot, "arch": "aarch64"},
            "results": [result(m, s) for m, s in samples.items()]}


def build(path: history.Location, board: str = "star64", labels: int = 12, boots: int = 3,
          metrics: Sequence[str] = tuple(BASE), slower: Mapping[str, int] | None = None,
          runs: int = 3, seed: int = 29, cv: float = 0.005, drift: float = 0.003) -> None:
    """``labels`` labels L01.. of ``boots`` boots each on ``board``; ``slower``: metric ->
    1-based label from which it is 5% slower."""
    rng = random.Random(seed)
    for j in range(1, labels + 1):
        for b in range(1, boots + 1):
            samples = {}
            for m in metrics:
                step = 0.95 if slower and m in slower and j >= slower[m] else 1.0
                offset = 1 + rng.gauss(0, drift)
                samples[m] = [BASE.get(m, 1e9) * step * offset * (1 + rng.gauss(0, cv))
                              for _ in range(runs)]
            created = f"2026-12-01T{j % 24:02d}:{b:02d}:00+00:00"
            history.append(path, results_doc(board, created, f"{board}-L{j:02d}-{b}",
                                             f"6.12.{j}", samples), "candidate", f"L{j:02d}")
