"""JUnit XML properties of a measured test, so Jenkins and GitLab show the numbers.

pytest writes ``item.user_properties`` into ``--junitxml`` as ``<property name= value=>``
elements of the test case; the plugin extends them with :func:`junit_properties` once the
verdict is known.  Values are plain strings: the metric as people read it, its unit, the median
of the samples (full precision, the results file's unit), the change against the baseline and the
tolerance in percent (when the verdict carries them) and the verdict status.
"""

from __future__ import annotations

import math

from ..model import Result


def _pct(value: object) -> str | None:
    """A percentage as ``+1.23`` (None when the verdict does not carry it)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return f"{value:+.2f}"


def junit_properties(result: Result) -> list[tuple[str, str]]:
    """``metric, unit, median, change_pct, tolerance_pct, verdict`` of one result; the two
    percentages only when the verdict's evidence has them (a baseline verdict)."""
    m = result.measurement
    props = [("metric", m.display_name), ("unit", m.unit),
             ("median", repr(float(result.summary.median)))]
    evidence = result.verdict.evidence
    values = {"change_pct": evidence.change_pct if evidence else None,
              "tolerance_pct": evidence.tolerance_pct if evidence else None}
    for name, value in values.items():
        shown = _pct(value)
        if shown is not None:
            props.append((name, shown.lstrip("+") if name == "tolerance_pct" else shown))
    props.append(("verdict", result.verdict.status))
    return props
