"""The candidate a run belongs to: its label, this boot and the sessions of its earlier boots.

A kernel or BSP under test is judged over c >= 1 of its boots (issue 22): every boot's
session is kept (the history store, or the results files given to ``sbcbench compare``), and
each metric's verdict judges all of the candidate's boots against all of the baseline's
(:mod:`.boot_decide`).  :class:`Candidate` holds what a verdict needs of that: the sessions of
the earlier boots per metric (test, metric and identity, so only the same measurement is
pooled) and this session's boot id.  (The boots still to come under ``--sbc-boots``, which
make this boot's look ``pending``, are the label's plan: :class:`.looks.LabelPlan`.)"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..model import Measurement
from .boot_test import BootSession
from .looks import ONE_BOOT, LabelPlan

MetricKey = tuple[str, str, str]  # test, metric, identity as canonical JSON


def metric_key(test: str, metric: str, identity: Mapping[str, object]) -> MetricKey:
    return test, metric, json.dumps(dict(identity), sort_keys=True)


def key_of(test: str, m: Measurement) -> MetricKey:
    return metric_key(test, m.metric, m.identity.as_dict())


@dataclass(frozen=True)
class Candidate:
    """``label``: the candidate (``--sbc-candidate``, else the kernel release); ``boot_id``:
    this session's boot; ``earlier``: per metric, the sessions of the earlier boots;
    ``plan``: the label's boot plan (fixed at its first run; a run judged alone: one boot)."""

    label: str | None = None
    boot_id: str | None = None
    earlier: Mapping[MetricKey, tuple[BootSession, ...]] = field(default_factory=dict)
    plan: LabelPlan = ONE_BOOT

    def sessions(self, test: str, m: Measurement) -> list[BootSession]:
        """Every candidate session of ``test``'s measurement ``m``, this one last."""
        return [*self.earlier.get(key_of(test, m), ()), BootSession(tuple(m.samples),
                                                                     self.boot_id)]

    def boots_of(self, test: str, m: Measurement) -> int:
        """Candidate boots of this metric so far, this one included."""
        keys = {s.boot_id if s.boot_id is not None else ("session", i)
                for i, s in enumerate(self.earlier.get(key_of(test, m), ()))}
        return len(keys | {self.boot_id if self.boot_id is not None else ("session", -1)})


ALONE = Candidate()


def pooled(sessions: Sequence[tuple[MetricKey, BootSession]]
           ) -> dict[MetricKey, tuple[BootSession, ...]]:
    """Sessions grouped by metric, in the order given."""
    out: dict[MetricKey, list[BootSession]] = {}
    for key, session in sessions:
        out.setdefault(key, []).append(session)
    return {k: tuple(v) for k, v in out.items()}
