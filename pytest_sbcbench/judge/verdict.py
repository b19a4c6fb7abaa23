"""Verdicts: the one judging pipeline (physics, validity, baseline) used by the plugin,
``sbcbench compare`` and ``sbcbench validate``.

The baseline verdict is the candidate-boots decision of :mod:`.boot_decide` (the candidate's
boots against the baseline's, a two-sample t on boot means at Holm's first step, pass only
with power): the run loop asks :func:`wants_more` before each further sample, and :func:`judge`
gives the final verdict with the same plan, which the result carries in its details
(``details["sequential"]``), so a results file judged later gets the same decision.  Holm's
later steps and the suite-mean test run when the run ends (:mod:`.closing`).

:func:`judge_result` judges a result as it is written to the results JSON: telemetry with the
workload's details merged in (a storage read carries its interface ceiling), so a results file
judged later gets the verdict the run gave."""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..model import Evidence, Finding, Judgeable, Measurement, Status, Verdict, display
from ..platform.board import BoardProfile
from ..words import counted
from ..workload import PLAN_KEY as PLAN_KEY  # a result's plan, in its details
from ..workload import Limits, believable, sampling
from . import physics
from .baseline import Baseline, BaselineEntry, quick_mode_hint
from .baseline import boot_of as boot_of  # where report.compare and others read it
from .boot_decide import BootDecision, BootPlan, decide_sides
from .boot_test import BootSession, reduce_side
from .candidates import ALONE, Candidate
from .disturbance import disturbance
from .family import per_test_alpha
from .held import cannot_judge, unusable
from .looks import DEFAULT_MIN_EFFECT_PCT, ONE_BOOT, LabelPlan
from .validity import HOST_NOISE, KERNEL_THREADS

MACHINE_KEYS = ("cpu_model", "cpus")  # recorded and compared; only the model makes a run
# incomparable: the CPUs online are the kernel's or BSP's doing (maxcpus=1, a lost cluster),
# exactly what a kernel gate must judge, not another machine
MODEL_KEYS = ("cpu_model",)

SAVE_HINT = "record one with --sbc-save-baseline"
STATUS_OF: dict[str, Status] = {"regression": "regression", "pass": "pass",
                                 "improvement": "improvement", "inconclusive": "inconclusive",
                                 "continue": "inconclusive", "pending": "inconclusive"}
DEFAULT_SUITE_METRICS = 25  # alpha for a result that carries no plan: the shipped suite's size


def no_baseline(board: str) -> Verdict:
    return Verdict("no-baseline", f"no baseline for board {board}; {SAVE_HINT}")


def other_machine(entry: BaselineEntry, machine: Mapping[str, Any] | None) -> str | None:
    """Why the baseline's latest used session was measured on another machine, if it was."""
    then = entry.last_environment
    if not machine or then is None:
        return None
    diffs = [f"{k}: baseline {then[k]!r}, this run {machine.get(k)!r}" for k in MODEL_KEYS
             if k in then and machine.get(k) is not None and then[k] != machine.get(k)]
    return "; ".join(diffs) or None


def cpus_note(entry: BaselineEntry, machine: Mapping[str, Any] | None) -> str | None:
    """The CPUs online differ from the baseline's latest session (same CPU model): said in the
    verdict, and judged like any other change."""
    last = entry.last_environment
    then = last.get("cpus") if last is not None else None
    now = machine.get("cpus") if machine else None
    if not isinstance(then, int) or not isinstance(now, int) or then == now:
        return None
    return (f"this run has {counted(now, 'CPU')} online, the baseline {then}: a kernel or BSP "
            "change, judged as such")


def comparable(test: str, m: Measurement, baseline: Baseline | None, board: str,
               machine: Mapping[str, Any] | None = None) -> BaselineEntry | Verdict:
    """The baseline entry test ``test``'s measurement ``m`` is judged against, or the verdict
    saying why there is none (``no-baseline``, ``incomparable``: another identity, machine or
    direction)."""
    slot = baseline.slot(test, m.metric) if baseline else []
    if not slot:
        held = baseline.held(test, m.metric) if baseline else []
        return unusable(m, held, baseline) if held and baseline else no_baseline(board)
    same = [e for e in slot if e.identity == m.identity]
    if not same:
        latest = slot[-1]
        keys = m.identity.differing_keys(latest.identity)
        mine, theirs = m.identity.as_dict(), latest.identity.as_dict()
        detail = ", ".join(f"{k}: baseline {theirs.get(k)!r}, this run {mine.get(k)!r}"
                           for k in keys)
        return Verdict("incomparable", f"{m.display_name}: identity differs from the baseline "
                                       f"({detail}); re-baseline with --sbc-save-baseline"
                                       f"{quick_mode_hint(keys)}")
    entry = same[0]
    moved = other_machine(entry, machine)
    if moved:
        return Verdict("incomparable", f"{m.display_name}: the baseline was measured on another "
                                       f"machine ({moved})")
    if entry.better != m.better:
        return Verdict("incomparable", f"{m.display_name}: baseline says better={entry.better}, "
                                       f"this run better={m.better}")
    return entry


def judge(result: Judgeable, *, baseline: Baseline | None, board: str,
          machine: Mapping[str, Any] | None = None, candidate: Candidate = ALONE,
          n_metrics: int = DEFAULT_SUITE_METRICS, min_effect_pct: float | None = None
          ) -> Verdict:
    """regression / pass / improvement / inconclusive against the same identity: the candidate's
    boots (``candidate``: its earlier boots, this session last) against the baseline's
    (:mod:`.boot_decide`), at Holm's first step over ``n_metrics`` metrics judged and the plan
    the result carries (:func:`plan_of`; ``min_effect_pct``: delta from the judge's side, as
    ``sbcbench compare --min-effect`` gives it; the boot plan is the candidate's, never what
    the file says); incomparable or no-baseline otherwise."""
    m = result.measurement
    found = comparable(result.test, m, baseline, board, machine)
    if isinstance(found, Verdict):
        return found
    sessions = candidate.sessions(result.test, m)
    weight = baseline.tail_weight if baseline is not None else 0.0
    plan = plan_of(m, n_metrics, candidate.plan, min_effect_pct, weight)
    verdict = verdict_of(final_decision(found, m, plan, sessions), m, found, plan, sessions)
    note = cpus_note(found, machine)
    return dataclasses.replace(verdict, detail=f"{verdict.detail}; {note}") if note else verdict


def count_metrics(baseline: Baseline | None, tests: Iterable[str]) -> int:
    """m for Holm's first step: the metrics of ``tests`` (node ids) that have a baseline entry
    (a metric under several identities, quick and full, counts once), at least 1.  Only they
    can fail against the baseline; a custom ``record()`` test counts once per metric it
    recorded when its baseline was saved."""
    if baseline is None:
        return 1
    wanted = set(tests)
    return max(1, len({(e.test, e.metric) for e in baseline.entries if e.test in wanted}))


def run_plan(min_runs: int, max_runs: int | None, min_effect_pct: float | None,
             n_metrics: int, label_plan: LabelPlan = ONE_BOOT, tail_weight: float = 0.0
             ) -> BootPlan:
    """A metric's plan in a run: its sampling (:func:`..workload.sampling`: ``max_runs`` or
    RUN_BUDGET_FACTOR x ``min_runs``, never below ``min_runs``; delta ``min_effect_pct``,
    default 3); alpha 4% / m (Holm's first step); ``label_plan``: the candidate label's boot
    plan (which boots are looks, and what each spends of the error rates); ``tail_weight``: the
    baseline's (:attr:`.baseline_model.Baseline.tail_weight`)."""
    runs = sampling(min_runs, max_runs, min_effect_pct)
    return BootPlan(runs.min_runs, runs.max_runs, label_plan.boots, runs.min_effect_pct,
                    per_test_alpha(n_metrics), every_boot=label_plan.every_boot,
                    tail_weight=tail_weight)


MAX_PLANNED_BOOTS = 100


def _plan_values(raw: Any) -> tuple[int, int, float] | None:
    """The runs and delta a result's plan records; its ``boots_left`` is never read (a file
    claiming boots still to come would make every verdict ``pending``: see :func:`plan_of`)."""
    if not isinstance(raw, Mapping):
        return None
    raws = [raw.get("min_runs"), raw.get("max_runs"), raw.get("min_effect_pct")]
    values = [float(v) for v in raws if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if len(values) != len(raws) or not all(math.isfinite(v) for v in values):
        return None
    low, high, effect = int(values[0]), int(values[1]), values[2]
    if not believable(low, high, effect):
        return None
    return low, high, effect


def plan_of(m: Measurement, n_metrics: int, label_plan: LabelPlan = ONE_BOOT,
            min_effect_pct: float | None = None, tail_weight: float = 0.0) -> BootPlan:
    """The plan recorded in the measurement's details (runs, budget, delta), at alpha
    4% / ``n_metrics`` and the judge's boot plan ``label_plan`` (never the file's: a file's
    claim of boots still to come is not believed); without a believable one (a results file
    written before plans were stored, or one whose values no run would use), its samples as a
    fixed count, delta 3%."""
    values = _plan_values(m.details.get(PLAN_KEY))
    alpha = per_test_alpha(max(1, n_metrics))
    boots, every = label_plan.boots, label_plan.every_boot
    if values is None:
        n = max(1, len(m.samples))
        return BootPlan(n, n, boots, min_effect_pct or DEFAULT_MIN_EFFECT_PCT, alpha,
                        every_boot=every, tail_weight=tail_weight)
    low, high, effect = values
    return BootPlan(low, high, boots, min_effect_pct or effect, alpha, every_boot=every,
                    tail_weight=tail_weight)


def decision(entry: BaselineEntry, m: Measurement, plan: BootPlan,
             sessions: Sequence[BootSession]) -> BootDecision:
    """One look at the candidate's sessions (this one last, ``m``'s samples so far)."""
    better: Literal["higher", "lower"] = "higher" if m.better == "higher" else "lower"
    if not sessions:
        raise ValueError("a look needs at least one candidate session")
    # the baseline's side is reduced once per entry (BaselineEntry.side), not at every look
    return decide_sides(entry.side, reduce_side(sessions), len(sessions[-1].samples), better,
                        plan)


def final_decision(entry: BaselineEntry, m: Measurement, plan: BootPlan,
                   sessions: Sequence[BootSession]) -> BootDecision:
    """The decision on the samples taken: a look that would still continue (the loop was cut
    short, or a results file judged later) is judged as the last look."""
    found = decision(entry, m, plan, sessions)
    if found.status != "continue":
        return found
    n = len(m.samples)
    return decision(entry, m, dataclasses.replace(plan, min_runs=min(plan.min_runs, n),
                                                  max_runs=n), sessions)


def wants_more(test: str, m: Measurement, baseline: Baseline | None,
               machine: Mapping[str, Any] | None, plan: BootPlan,
               candidate: Candidate = ALONE) -> bool:
    """True while the rule says ``continue`` for a comparable baseline entry: what the run loop
    asks before each further sample."""
    found = comparable(test, m, baseline, "", machine)
    if isinstance(found, Verdict):
        return False
    return decision(found, m, plan, candidate.sessions(test, m)).status == "continue"


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def verdict_of(d: BootDecision, m: Measurement, entry: BaselineEntry, plan: BootPlan,
               sessions: Sequence[BootSession] = ()) -> Verdict:
    """The verdict of a final decision: its line (medians first) and its evidence.  A boot
    before the last planned one is ``inconclusive`` with ``pending`` evidence: nothing is
    decided until the candidate's boots are in."""
    status: Status = STATUS_OF[d.status]
    base_samples = entry.columns.used_samples
    base, shown = display(entry.median, m.unit)
    detail = (f"{m.display_name}: baseline median {base} {shown}, {_now(m, sessions, d)}, "
              f"{_said(d.detail)}")
    shared = _shared_boot(entry, sessions)
    if shared:
        detail += (f"; this session ran in baseline boot {shared[:8]}: not a new boot, so the "
                   "boot-to-boot drift counted for it is not in its numbers")
    hint = d.needed
    evidence = Evidence(
        change_pct=d.change_pct, ci_pct=(_finite(d.ci_pct[0]), _finite(d.ci_pct[1])),
        confidence_pct=100.0 * (1 - 2 * d.alpha), tolerance_pct=_finite(d.tolerance_pct),
        detectable_pct=_finite(d.detectable_pct), min_effect_pct=plan.min_effect_pct,
        samples=d.samples_used, baseline_samples=base_samples,
        baseline_boots=d.baseline_boots,
        runs_needed=hint.runs_at_planned if hint else None,
        boots_needed=hint.baseline_boots if hint else None, candidate_boots=d.candidate_boots,
        candidate_boots_needed=hint.candidate_boots if hint else None,
        catch95_pct=_finite(d.catch95_pct), p_value=d.p_value, df=d.df,
        pending=d.status == "pending", baseline_median=entry.median)
    return Verdict(status, detail, evidence)


def _said(detail: str) -> str:
    """The decision's line with its change named for what it is: the change of the boot
    means (geometric, each boot weighed once), which is not the ratio of the two medians
    printed before it (``median 6.32 -> 7.42`` beside a -8.4% change read as a contradiction)."""
    return "change of boot means " + detail[len("change "):] if detail.startswith("change ") \
        else detail


def _now(m: Measurement, sessions: Sequence[BootSession], d: BootDecision) -> str:
    """This run's median; over several candidate boots, the candidate's (every boot's runs),
    since the change is over all of them."""
    if d.candidate_boots <= 1 or not sessions:
        return f"this run {display(statistics.median(m.samples), m.unit)[0]} " \
               f"{display(1.0, m.unit)[1]}"
    every = [v for s in sessions for v in s.samples]
    value, unit = display(statistics.median(every), m.unit)
    return f"candidate median {value} {unit} over {d.candidate_boots} boots"


def _shared_boot(entry: BaselineEntry, sessions: Sequence[BootSession]) -> str | None:
    """This session's boot id when the baseline has a session of that boot."""
    if not sessions or sessions[-1].boot_id is None:
        return None
    mine = sessions[-1].boot_id
    return mine if mine in entry.side.keys else None


@dataclass(frozen=True)
class JudgeContext:
    """What a result is judged against: the board (physics limits; ``None`` when unknown, so
    only the limits the result itself carries apply), the baseline, the machine that ran
    (``cpu_model``, ``cpus``: a baseline from another machine is incomparable), the validity
    findings of the run, ``--sbc-strict``, the physical limits the run's workloads declare
    (board facts and ceilings; ``None``: the built-in workloads' declarations), the candidate (its
    earlier boots) and m, the metrics judged in the run (Holm's first step: 4% / m).  In a
    pytest run the recorder is handed one per boot (``run/boot_cycle.py`` plans it) and each
    test's trial (``run/trial.py``) adds the test's findings to it; ``compare`` and
    ``validate`` build their own."""

    board_name: str
    board: BoardProfile | None = None
    baseline: Baseline | None = None
    machine: Mapping[str, Any] | None = None
    findings: Sequence[Finding] = field(default_factory=tuple)
    strict: bool = False
    limits: Limits | None = None
    candidate: Candidate = ALONE
    n_metrics: int = DEFAULT_SUITE_METRICS
    min_effect_pct: float | None = None  # delta from the judge's side (compare --min-effect)
    saving: bool = False  # a run saving a baseline: its verdicts stand (the save holds them)


def unknown_board(name: str) -> BoardProfile:
    """A profile with no limits, for a board no profile describes."""
    return BoardProfile(name=name, title=name, soc="unknown", arch="unknown", clusters=())


def judge_result(result: Judgeable, context: JudgeContext) -> Verdict:
    """``implausible`` when a number beats physics; ``invalid`` under strict when the run had
    findings; else the baseline gate's verdict, ``invalid`` when the work recorded beside the
    measurement disturbed it (:mod:`.disturbance`; not while ``saving``: the save holds it)."""
    implausible = physics.check(result, context.board or unknown_board(context.board_name),
                                context.limits)
    if implausible is not None:
        return implausible
    if context.findings and context.strict:
        return Verdict("invalid", "; ".join(f.detail for f in context.findings))
    verdict = judge(result, baseline=context.baseline, board=context.board_name,
                    machine=context.machine, candidate=context.candidate,
                    n_metrics=context.n_metrics, min_effect_pct=context.min_effect_pct)
    if context.saving:
        return verdict
    found = disturbance(result.measurement, result.telemetry)
    if found.invalid is not None:
        return disturbed_verdict(verdict, found.invalid)
    if found.note is not None and verdict.status not in UNDISTURBED:
        return dataclasses.replace(verdict, detail=f"{verdict.detail}; {found.note}")
    return verdict


@dataclass(frozen=True)
class Judgement:
    """A test's result judged: its verdict, and the line that fails the test (None: none)."""

    verdict: Verdict
    message: str | None


def judge_test(result: Judgeable, context: JudgeContext, disturbed: str | None = None,
               allow_incomparable: bool = False, gate: bool = False) -> Judgement:
    """:func:`judge_result` (``invalid`` when other work ``disturbed`` the measurement:
    :func:`disturbed_verdict`) and its :func:`failure_message`, in one call (a trial's)."""
    verdict = judge_result(result, context)
    verdict = disturbed_verdict(verdict, disturbed) if disturbed is not None else verdict
    message = failure_message(verdict, context.findings, allow_incomparable, context.strict,
                              gate)
    if context.saving and cannot_judge(verdict):
        message = None  # a save builds the baseline: its held sessions judge nothing yet
    return Judgement(verdict, message)


UNDISTURBED = ("no-baseline", "incomparable", "implausible", "invalid")  # kept when disturbed


def disturbed_verdict(verdict: Verdict, why: str) -> Verdict:
    """A judged verdict of a measurement other work disturbed (``why`` names the processes or
    the steal) becomes ``invalid``: a number measured beside other work judges nothing, so a
    loaded host is never a regression.  No baseline, incomparable and implausible stand."""
    if verdict.status in UNDISTURBED:
        return verdict
    return Verdict("invalid", f"disturbed by other work: {why} (judged on these numbers it "
                              f"would have been {verdict.status}); rerun on a quiet machine")


def failure_message(verdict: Verdict, found: Sequence[Finding],
                    allow_incomparable: bool, strict: bool = False,
                    gate: bool = False) -> str | None:
    """The line a failing verdict fails its test with (``None``: the test passes);
    ``inconclusive`` fails only under ``strict`` (``--sbc-strict``); ``invalid`` never fails a
    test in gate mode (``gate``: it is undecided, exit 6, not a regression)."""
    if verdict.status == "implausible":
        return f"implausible: {verdict.detail}"
    if verdict.status == "invalid":
        if gate:
            return None
        return f"invalid run{' (--sbc-strict)' if strict else ''}: {verdict.detail}"
    if verdict.status == "regression":
        noisy = list(dict.fromkeys(f.kind for f in found if f.kind in HOST_NOISE))
        hint = (f" (this run had {', '.join(noisy)}: rerun on a quiet machine before "
                "believing it)") if noisy else ""
        kernel = "".join(f" ({f.detail})" for f in found if f.kind == KERNEL_THREADS)
        return f"regression: {verdict.detail}{hint}{kernel}"
    if verdict.status == "inconclusive" and strict:
        return f"inconclusive (--sbc-strict): {verdict.detail}"
    if verdict.status == "incomparable" and not allow_incomparable:
        return f"incomparable (--sbc-allow-incomparable to pass): {verdict.detail}"
    if cannot_judge(verdict):
        return f"cannot judge: {verdict.detail}"
    return None
