"""Which boots a baseline save keeps out of judging (issue 28, item 5): quarantined sessions.

A quarantined session is written to the baseline (kept, shown by ``sbcbench baseline list``)
but never judged against, so one bad boot cannot poison every later verdict:

* **Contaminated**: the result was measured under a finding that disturbs its numbers
  (:data:`CONTAMINATION`: other load on the machine, steal time, throttling, swap growth).  A
  loaded baseline makes every candidate look faster.  Other load does not disturb a rate per
  second of the tool's own CPU time (``openssl speed``): such a session is kept, its finding
  recorded, unless its own numbers say otherwise (:mod:`.disturbance`).
* **Regressed**: the save's own gate judged it a regression (against however few boots):
  never folded in silently, it would make the same regression pass next time.
* **Far**: its boot mean is further from the median of the reference's other boots (the
  entry's used sessions of other boots) than :data:`FAR_SPREADS` robust spreads allow.  The
  spread is the MAD of the other boots' means (log scale, x 1.4826), never below
  :data:`FAR_FLOOR_PCT`, so with one or two other boots the limit is 3 x 5%: about 15%, far
  beyond the drift of a reboot (the gate's design point is 1%), while a far boot within it is
  recorded (it is the drift the gate must learn, issue 22).  With one other boot the rule
  cannot tell which of the two is wrong: the summary says so and ``sbcbench baseline list``
  shows both.

``--sbc-accept`` naming the test saves it as used anyway (its findings are still recorded);
``sbcbench baseline restore FILE SESSION`` accepts a quarantined session later."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..model import Result
from ..words import counted
from .baseline import Baseline, BaselineEntry, StoredSession, boot_of
from .boots import logs
from .disturbance import contaminating

CONTAMINATION = ("background-load", "steal-time", "clock-below-max", "thermal-trip",
                 "time-below-max", "swap-growth")
CPU_TIMED = ("measured beside other work: kept, a rate per second of the tool's own CPU time, "
             "which time-sharing does not move")
FAR_SPREADS = 3.0
FAR_FLOOR_PCT = 5.0
MAD_SCALE = 1.4826  # MAD x this estimates the SD of normal data
# the smallest limit far_limit_pct can give (the floor's): a boot within it is never far
NEAREST_LIMIT_PCT = 100.0 * math.expm1(FAR_SPREADS * math.log1p(FAR_FLOOR_PCT / 100.0))


def contamination(result: Result) -> tuple[tuple[str, str], ...]:
    """The result's findings of a contaminating kind, as (kind, detail)."""
    out = []
    for f in result.telemetry.get("findings", ()):
        if isinstance(f, Mapping) and f.get("kind") in CONTAMINATION:
            out.append((str(f["kind"]), str(f.get("detail", ""))))
    return tuple(out)


def regressed(result: Result) -> str | None:
    """Why a result its own save's gate judged a regression is held: a save never folds a
    regression in unless ``--sbc-accept`` names it, however few boots it was judged against
    (it would make the same regression pass next time)."""
    if result.verdict.status != "regression":
        return None
    e = result.verdict.evidence
    how = "" if e is None else (f" ({e.change_pct:+.1f}% against "
                                f"{counted(e.baseline_boots, 'boot')} saved before it)")
    return (f"the gate of this save judged it a regression{how}: a regression is never "
            "folded into the baseline unless --sbc-accept names it")


def far_limit_pct(means: Sequence[float]) -> float:
    """How far (percent, log scale) a boot mean may lie from the median of ``means``."""
    centre = statistics.median(means)
    mad = statistics.median([abs(m - centre) for m in means])
    spread = max(MAD_SCALE * mad, math.log1p(FAR_FLOOR_PCT / 100.0))
    return 100.0 * math.expm1(FAR_SPREADS * spread)


def far_from(entry: BaselineEntry | None, samples: Sequence[float], boot_id: str | None,
             reference: str | None) -> str | None:
    """Why this session is far outside what ``entry``'s used sessions of other boots make
    plausible, or None (no other boot: nothing to compare with)."""
    if entry is None:
        return None
    boots = entry.side
    means = list(boots.means) if boot_id not in boots.keys else \
        [m for key, m in zip(boots.keys, boots.means, strict=True) if key != boot_id]
    if not means:
        return None
    mine = statistics.fmean(logs(samples))
    centre = statistics.median(means)
    change = 100.0 * math.expm1(mine - centre)
    if abs(change) <= NEAREST_LIMIT_PCT:  # within the floor's limit: near, whatever the MAD
        return None
    limit = far_limit_pct(means)
    if abs(change) <= limit:
        return None
    side = "below" if change < 0 else "above"
    which = " (with one other boot the rule cannot tell which of the two is wrong: compare " \
            "them with 'sbcbench baseline list')" if len(means) == 1 else ""
    return (f"this boot is {abs(change):.1f}% {side} the median of the other "
            f"{counted(len(means), 'boot')} of {reference or 'this reference'}, beyond the "
            f"{limit:.1f}% that {FAR_SPREADS:g} robust spreads allow{which}")


def hold(entry: BaselineEntry | None, result: Result, created: str,
         environment: Mapping[str, Any], accepted: bool, reference: str | None
         ) -> StoredSession:
    """The session stored for ``result``: quarantined when contaminated (the findings that
    disturb its numbers, by its clock: :func:`.disturbance.contaminating`), judged a
    regression by its own save's gate, or far (unless ``accepted``), with its contamination
    findings recorded either way."""
    found = contamination(result)
    moving = contaminating(result.measurement, result.telemetry, found)
    whys = []
    if moving:
        kinds = ", ".join(dict.fromkeys(k for k, _ in moving))
        whys.append(f"saved under {kinds}: its numbers were disturbed")
    worse = regressed(result)
    if worse:
        whys.append(worse)
    far = far_from(entry, result.measurement.samples, boot_of(environment), reference)
    if far:
        whys.append(far)
    samples = result.measurement.samples
    if accepted or not whys:
        why = f"accepted by --sbc-accept: {'; '.join(whys)}" if whys else \
            (CPU_TIMED if found else "")
        return StoredSession(created, samples, environment, "used", why, found)
    return StoredSession(created, samples, environment, "quarantined", "; ".join(whys), found)


def reference_session(result: Result, created: str, environment: Mapping[str, Any]
                      ) -> StoredSession:
    """A results file's result as a session of ``sbcbench compare``'s reference: quarantined,
    as a save would hold it, when what was recorded beside it disturbed its numbers (its
    verdict against whatever baseline it had is not the reference's business)."""
    found = contamination(result)
    moving = contaminating(result.measurement, result.telemetry, found)
    samples = result.measurement.samples
    if not moving:
        return StoredSession(created, samples, environment, "used", "", found)
    kinds = ", ".join(dict.fromkeys(k for k, _ in moving))
    return StoredSession(created, samples, environment, "quarantined",
                         f"measured under {kinds}: its numbers were disturbed", found)


def holds_for(created: str, environment: Mapping[str, Any], accepted: Callable[[Result], bool],
              reference: str | None, record: dict[tuple[str, str], StoredSession]
              ) -> Callable[[Baseline | None], Callable[[Result], StoredSession]]:
    """``session_for`` of :func:`.baseline.append_session_locked`: against the baseline
    re-read under the lock, each result's session (see :func:`hold`), each also put in
    ``record`` by (test, metric) for the summary."""
    def session_for(current: Baseline | None) -> Callable[[Result], StoredSession]:
        def session_of(result: Result) -> StoredSession:
            m = result.measurement
            entry = current.entry(result.test, m.metric, m.identity) if current else None
            session = hold(entry, result, created, environment, accepted(result), reference)
            record[result.test, m.metric] = session
            return session
        return session_of
    return session_for
