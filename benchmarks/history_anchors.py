"""The anchors' change-point rules, re-implemented from their documentation and source for
``history_simulation.py``, each on one series of labels (oldest first).

- **Perfherder** (Mozilla, ``treeherder/perf/alerts``' ``detect_changes``): at each point a
  back window of 12 to 24 values (values: here each label's boot means) and a fore window of
  12, a weighted t (linear weights on the back window, variances over n revisions) above 7,
  the local maximum of t, and the alert floor of 2% (a signature's default alert threshold).
- **Chromeperf** (Chromium's dashboard, ``find_change_points``): the split minimising the
  spread about each side's median, kept when each side has at least 6 points, the medians
  differ by at least 1% and by at least 2.5 standard deviations of the quieter side (its
  steppiness filter is left out: it only removes more).
- **Otava's defaults**: ``compute_change_points`` with window 50, p <= 0.001, no magnitude
  floor, on one point per label (the mean of its boots).

Each returns the indices (first point after the change) it reports."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

PERFHERDER_T = 7.0
PERFHERDER_FLOOR = 0.02
CHROMEPERF_SIDE = 6
CHROMEPERF_RELATIVE = 0.01
CHROMEPERF_SIGMAS = 2.5


def _weighted(windows: Sequence[Sequence[float]], linear: bool) -> tuple[float, float, int]:
    """Perfherder's ``analyze``: weighted mean, variance of the values, n revisions."""
    n = len(windows)
    weights = [(n - i) / n if linear else 1.0 for i in range(n)]
    total = sum(w * v for w, vals in zip(weights, windows, strict=True) for v in vals)
    count = sum(w * len(vals) for w, vals in zip(weights, windows, strict=True))
    avg = total / count
    values = [v for vals in windows for v in vals]
    var = sum((v - avg) ** 2 for v in values) / (len(values) - 1) if len(values) > 1 else 0.0
    return avg, var, n


def perfherder(labels: Sequence[Sequence[float]], back: tuple[int, int] = (12, 24),
               fore: int = 12) -> list[int]:
    """Perfherder's t-test rule over labels' values."""
    n = len(labels)
    ts = [0.0] * n
    enough = [False] * n
    since = 0
    for i in range(1, n):
        jw: list[Sequence[float]] = []
        got = 0
        j = i - 1
        while got < back[1] and j >= 0 and i - j <= min(max(since, back[0]), back[1]):
            jw.append(labels[j])
            got += len(labels[j])
            j -= 1
        kw: list[Sequence[float]] = []
        ahead = 0
        k = i
        while ahead < fore and k < n:
            kw.append(labels[k])
            ahead += len(labels[k])
            k += 1
        a1, v1, n1 = _weighted(jw, True)
        a2, v2, n2 = _weighted(kw, False)
        se = math.sqrt(v1 / n1 + v2 / n2)
        ts[i] = 0.0 if got < back[0] else (abs(a2 - a1) / se if se > 0 else math.inf)
        enough[i] = got >= back[0] and ahead >= fore and abs(a2 - a1) >= PERFHERDER_FLOOR * a1
        since = 0 if ts[i] > PERFHERDER_T else since + 1
    return [i for i in range(1, n) if enough[i] and ts[i] > PERFHERDER_T
            and ts[i - 1] <= ts[i] and (i + 1 >= n or ts[i + 1] <= ts[i])]


def chromeperf(values: Sequence[float], window: int = 50) -> list[int]:
    """Chromeperf's split and thresholds on the last ``window`` points."""
    start = max(0, len(values) - window)
    v = list(values[start:])
    if len(v) < 2 * CHROMEPERF_SIDE:
        return []

    def spread(j: int) -> float:
        left, right = v[:j], v[j:]
        ml, mr = statistics.median(left), statistics.median(right)
        return sum((x - ml) ** 2 for x in left) + sum((x - mr) ** 2 for x in right)

    j = min(range(CHROMEPERF_SIDE, len(v) - CHROMEPERF_SIDE + 1), key=spread)
    left, right = v[:j], v[j:]
    ml, mr = statistics.median(left), statistics.median(right)
    change = abs(mr - ml)
    quiet = min(statistics.stdev(left), statistics.stdev(right))
    if change / abs(ml) < CHROMEPERF_RELATIVE or change < CHROMEPERF_SIGMAS * quiet:
        return []
    return [start + j]


def otava_defaults(values: Sequence[float]) -> list[int]:
    """Otava as its command line runs by default."""
    from otava.analysis import compute_change_points

    points, _ = compute_change_points([float(x) for x in values], window_len=50,
                                      max_pvalue=0.001)
    return sorted(int(p.index) for p in points)
