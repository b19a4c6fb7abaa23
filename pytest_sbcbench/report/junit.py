"""JUnit XML properties of a measured test, so Jenkins and GitLab show the numbers.

pytest writes ``item.user_properties`` into ``--junitxml`` as ``<property name= value=>``
elements of the test case; the plugin extends them with :func:`junit_properties` once the
verdict is known.  Values are plain strings in the unit the terminal shows (MB/s, not B/s),
to five significant digits (:mod:`.figures`): the metric, its unit, the median and the number
of runs; for a verdict judged against a baseline (its evidence) also the change and its
interval (``ci_low_pct``, ``ci_high_pct``, at ``confidence_pct``), the tolerance, the drop
this run could detect, the baseline's runs, boots and median; then the verdict.
"""

from __future__ import annotations

import math

from ..model import Evidence, Result
from .figures import in_display_unit, percent


def _finite(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) \
        and math.isfinite(value)


def _evidence(evidence: Evidence, unit: str) -> list[tuple[str, str]]:
    """The baseline verdict's numbers that are known (an unbounded interval side is left out)."""
    signed = {"change_pct": evidence.change_pct, "ci_low_pct": evidence.ci_pct[0],
              "ci_high_pct": evidence.ci_pct[1]}
    plain = {"confidence_pct": evidence.confidence_pct,
             "tolerance_pct": evidence.tolerance_pct,
             "detectable_drop_pct": evidence.detectable_pct}
    props = [(k, percent(v)) for k, v in signed.items() if v is not None and _finite(v)]
    props += [(k, f"{v:.2f}") for k, v in plain.items() if v is not None and _finite(v)]
    props += [("baseline_runs", str(evidence.baseline_samples)),
              ("baseline_boots", str(evidence.baseline_boots))]
    if evidence.baseline_median is not None and _finite(evidence.baseline_median):
        props.append(("baseline_median", in_display_unit(evidence.baseline_median, unit)[0]))
    return props


def junit_properties(result: Result) -> list[tuple[str, str]]:
    """``metric, unit, median, runs``, the evidence's numbers when there is evidence, then
    ``verdict``."""
    m = result.measurement
    median, unit = in_display_unit(result.summary.median, m.unit) \
        if _finite(result.summary.median) else ("nan", m.unit)
    props = [("metric", m.display_name), ("unit", unit), ("median", median),
             ("runs", str(result.summary.n))]
    if result.verdict.evidence is not None:
        props += _evidence(result.verdict.evidence, m.unit)
    props.append(("verdict", result.verdict.status))
    return props
