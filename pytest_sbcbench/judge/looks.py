"""When a metric's plan looks at its samples and what each look may spend, shared by the
candidate-boots decision (:mod:`.boot_decide`) and its hints (:mod:`.boot_hints`).

Two error rates are spent, each over the label's boot looks:

* **Regression** (a false alarm): the metric's rate ``alpha`` (Holm's first step, 4% / m).
  Within a boot, a regression is declared only at the regression looks: ``2 x min_runs`` (the
  confirmation: a suspect is re-measured with as many runs again) and ``max_runs`` if later (by
  default ``max_runs = RUN_BUDGET_FACTOR x min_runs``: one look); the boot's level is split
  over them by Bonferroni.
* **Pass** (a false "no regression of delta or more"): :data:`PASS_RATE` per metric, the
  one-sided upper confidence bound of the drop below delta (non-inferiority); within a boot it
  is split over every run look from ``min_runs`` to ``max_runs``.

**Boots.** A candidate label's plan (:class:`LabelPlan`, fixed at the label's first run) says
which of its boots are looks: ``--sbc-boots N`` looks once, at boot N, with the whole of both
rates (the boots before are ``pending``); every other protocol (``auto``, boots recorded by
hand, ``sbcbench compare`` on the files given) looks at every boot up to a budget of B boots,
and spends both rates over those looks as a group-sequential design does
(:mod:`.spending`: Lan-DeMets boundaries, the looks' correlation counted), so that the label's
looks together keep each rate, whatever the boots show at each.  A boot beyond the plan spends
nothing and decides nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..workload import DEFAULT_MIN_EFFECT_PCT as DEFAULT_MIN_EFFECT_PCT  # the run's sampling
from ..workload import RUN_BUDGET_FACTOR as RUN_BUDGET_FACTOR
from .spending import boot_level

PASS_RATE = 0.05  # "no regression of at least delta" at 95% confidence, per metric
PASS_ALPHA = PASS_RATE  # the name earlier versions used
POWER = 0.8  # the power the hints plan for (reported, never a condition of pass)


DEFAULT_BOOT_BUDGET = 6  # --sbc-boots-budget: the boots a label may look at (every-boot plans)


@dataclass(frozen=True)
class LabelPlan:
    """A candidate label's boot plan: ``boots`` is the one look (``every_boot`` False:
    ``--sbc-boots N``) or the budget of an every-boot plan (``auto``, hand-recorded boots,
    offline compare)."""

    boots: int = DEFAULT_BOOT_BUDGET
    every_boot: bool = True

    def __post_init__(self) -> None:
        if self.boots < 1:
            raise ValueError(f"a label's plan needs at least one boot, got {self}")

    def is_look(self, c: int) -> bool:
        """Whether the plan looks at candidate boot ``c``."""
        if c > self.boots or c < 1:
            return False
        return self.every_boot or c == self.boots

    def level(self, c: int, k: int, rate: float) -> float:
        """The nominal one-sided level the look at candidate boot ``c`` (against ``k`` baseline
        boots) spends of ``rate``: all of it at a fixed plan's one look, the group-sequential
        boundary's at an every-boot plan's, 0 where the plan does not look."""
        if not self.is_look(c):
            return 0.0
        if not self.every_boot:
            return rate
        return boot_level(k, c, self.boots, rate)

    def judged_boot(self, c: int) -> int:
        """The look whose level a boot's figures are given at: its own where it is a look;
        a pending boot's, the plan's next look; beyond the plan, its last look."""
        if self.is_look(c):
            return c
        return min(max(c, 1), self.boots) if self.every_boot else self.boots

    def as_dict(self) -> dict[str, object]:
        return {"boots": self.boots, "every_boot": self.every_boot}

    @classmethod
    def from_dict(cls, raw: object) -> LabelPlan | None:
        """A recorded plan, or None where it is not one this version would have written."""
        if not isinstance(raw, dict):
            return None
        boots, every = raw.get("boots"), raw.get("every_boot")
        if isinstance(boots, bool) or not isinstance(boots, int) or not 1 <= boots <= 50 \
                or not isinstance(every, bool):
            return None
        return cls(boots, every)

    def describe(self) -> str:
        if self.every_boot:
            return (f"a look at every boot up to {self.boots}, the error rates spent over "
                    "them (group-sequential)")
        return f"one look at boot {self.boots} with the whole error rates"


ONE_BOOT = LabelPlan(1, every_boot=False)  # a run judged alone: its one boot, the whole budget
OFFLINE = LabelPlan()  # compare on the files given: no claim in them is trusted


class LookSchedule:
    """When a plan looks and what each look may spend (see the module docstring)."""

    min_runs: int
    max_runs: int
    alpha: float
    boots: int
    every_boot: bool

    @property
    def label_plan(self) -> LabelPlan:
        return LabelPlan(self.boots, self.every_boot)

    @property
    def confirm_at(self) -> int:
        return min(2 * self.min_runs, self.max_runs)

    @property
    def regression_looks(self) -> tuple[int, ...]:
        return tuple(sorted({self.confirm_at, self.max_runs}))

    @property
    def pass_looks(self) -> int:
        return self.max_runs - self.min_runs + 1

    def spent(self, c: int, k: int) -> float:
        """The share of the metric's rate the look at boot ``c`` rejects at (its nominal level
        over ``alpha``; 0: not a look): a p-value divided by it is counted at the whole rate,
        as Holm's later steps count it."""
        return self.label_plan.level(c, k, self.alpha) / self.alpha

    def regression_level(self, c: int, k: int) -> float:
        """A regression look's one-sided level at boot ``c`` (a boot that is no look: the level
        its figures are given at, :meth:`LabelPlan.judged_boot`)."""
        plan = self.label_plan
        return plan.level(plan.judged_boot(c), k, self.alpha) / len(self.regression_looks)

    def pass_level(self, c: int, k: int) -> float:
        """A pass look's one-sided level at boot ``c`` (as :meth:`regression_level`)."""
        plan = self.label_plan
        return plan.level(plan.judged_boot(c), k, PASS_RATE) / self.pass_looks
