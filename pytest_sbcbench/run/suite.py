"""The shipped suite outside pytest's own command line: ``sbcbench run`` and ``sbcbench list``.

``sbcbench run [pytest args]`` runs ``pytest_sbcbench/benchmarks`` from any directory with the
package as rootdir, so test ids read ``benchmarks/test_crypto.py::test_cipher[aes-128-gcm]``
exactly as ``pytest benchmarks/`` in the repository gives them (baselines recorded either way
match); baselines default to ``./baselines``, the results JSON to ``./run.json``."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..settings import Settings
from ..values import IDLE_WAIT, QUICK_IDLE_WAIT
from ..workload import Context
from ..workloads import Registry

if TYPE_CHECKING:
    from ..platform.executor import Executor
    from ..platform.host import Host

PACKAGE = Path(__file__).parent.parent  # the installed pytest_sbcbench package
SUITE = PACKAGE / "benchmarks"
SUITE_INI = SUITE / "suite.ini"


RESULTS = "run.json"
"""The results JSON ``sbcbench run`` writes in the current directory without ``--sbc-results``
(the summary's ``results JSON:`` line names it; ``sbcbench compare`` reads it)."""


REPORT_SKIPS = "-ra"
"""pytest's short summary of ``sbcbench run``: skips with their reasons, xfails, failures and
errors (pytest's default, ``-rfE``, names no skip's reason)."""


def _given(args: Sequence[str], option: str) -> bool:
    return any(a == option or a.startswith(f"{option}=") for a in args)


def run_argv(args: Sequence[str], cwd: Path, results: bool = False) -> list[str]:
    """pytest's arguments for the shipped suite plus the user's ``args``; ``results``: a run
    that measures (not a listing) writes :data:`RESULTS` unless told where, and lists every skip
with its reason (:data:`REPORT_SKIPS`)."""
    argv = [str(SUITE), "-c", str(SUITE_INI), "--rootdir", str(PACKAGE),
            "-p", "no:cacheprovider"]
    if not _given(args, "--sbc-baselines"):
        argv += ["--sbc-baselines", str(cwd / "baselines")]
    if results and not _given(args, "--sbc-results"):
        argv += ["--sbc-results", str(cwd / RESULTS)]
    if results:  # every skip with its reason at the end, as -ra in the repository's settings
        argv.append(REPORT_SKIPS)  # (a later -r of the user's wins)
    return [*argv, *args]


def run(args: Sequence[str], plugins: Sequence[object] = ()) -> int:
    """``sbcbench run``.  The shipped suite lives in the installed package, so pytest would
    cache its assertion-rewritten bytecode there: files pip never recorded, which a later
    ``pip install -e`` leaves behind as a ``pytest_sbcbench`` namespace of bytecode that shadows
    the editable checkout.  No bytecode is written while the suite runs.  ``plugins`` are
    handed to pytest (``sbcbench run`` passes its up-front skip notice)."""
    import sys

    import pytest

    sys.dont_write_bytecode = True
    return int(pytest.main(run_argv(args, Path.cwd(), results=True), plugins=list(plugins)))


def list_registered(as_json: bool, sysroot: Path) -> int:
    """``sbcbench list``: exactly what ``sbcbench run`` would run from this directory (the
    start-up of :func:`run_argv`: built-in workloads and installed plugins', not this
    directory's ``conftest.py``, which ``sbcbench run`` never loads), then the listing instead
    of tests.  ``pytest --sbc-list`` lists a project's own (its conftest included)."""
    import pytest

    # no terminal plugin here, so neither plugins that need its options (labgrid's reads
    # --verbose at start-up) nor any that write files
    args = ["-p", "no:terminal", "-p", "no:benchmark", "-p", "no:labgrid", "--capture=no",
            "--sbc-list", "json" if as_json else "text"]
    if sysroot != Path("/"):
        args += ["--sbc-sysroot", str(sysroot)]
    code = pytest.main(run_argv(args, Path.cwd()))
    return 0 if code in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED) else int(code)


def _times(plan: Any, settings: Settings, quick: bool) -> dict[str, float]:
    """At least: set-up and the planned runs on an idle machine.  At most: the idle gate's
    whole wait (``--sbc-idle-wait``, 10 s; 2 s quick) and the re-measure budget (up to
    2x the planned runs while a baseline verdict is undecided), twice: a measurement other
    work disturbed is taken again after the host settles (run/recorder.py)."""
    from ..judge.looks import RUN_BUDGET_FACTOR

    runs = plan.runs_for(dataclasses.replace(settings, quick=quick))
    wait = QUICK_IDLE_WAIT if quick else IDLE_WAIT
    once = wait + plan.expected_s(quick, RUN_BUDGET_FACTOR * runs)
    return {"min": round(plan.expected_s(quick, runs), 1), "max": round(2 * once, 1)}


def rows(registry: Registry, settings: Settings, executor: Executor,
         host: Host) -> list[dict[str, Any]]:
    """One row per workload: name, test, markers, availability where ``executor`` runs
    commands (with the reason), expected seconds quick and full (at least: the planned runs
    on an idle machine) and the most it may take (``at_most_s``: idle wait and re-measuring
    included)."""
    shared: dict[str, Any] = {}
    out = []
    for workload in registry:
        plan = workload.plan(settings)
        ctx = Context(settings, executor, host, shared, {}, plan=plan)
        try:
            reason = workload.available(ctx)
        except Exception as exc:  # a listing reports a broken probe, it does not crash
            reason = f"availability check failed: {exc}"
        test = f"{workload.test}[{workload.param}]" if workload.param else workload.test
        quick, full = _times(plan, settings, True), _times(plan, settings, False)
        out.append({"name": workload.name, "test": test, "markers": list(workload.markers),
                    "available": reason is None, "reason": reason,
                    "expected_s": {"quick": quick["min"], "full": full["min"]},
                    "at_most_s": {"quick": quick["max"], "full": full["max"]}})
    return out


def _span(row: dict[str, Any], which: str) -> str:
    return f"{duration_text(row['expected_s'][which])}-{duration_text(row['at_most_s'][which])}"


def duration_text(seconds: float) -> str:
    """``9s``, ``8m``, ``1h05m``: the listing's times at a glance."""
    if seconds < 120:
        return f"{seconds:.0f}s"
    minutes = round(seconds / 60)
    return f"{minutes}m" if minutes < 60 else f"{minutes // 60}h{minutes % 60:02d}m"


NOTE = ("times: at least (the planned runs on an idle machine) to at most (the idle gate's "
        "whole wait, {wait_full:g} s; {wait_quick:g} s quick, and re-measuring up to {factor}x "
        "the runs while a baseline verdict is undecided; twice when other work disturbed the "
        "first measurement); set-up such as checkouts included")


def render(table: list[dict[str, Any]], as_json: bool) -> str:
    """The listing as JSON, or as a text table whose columns are as wide as their widest cell
    (a third party's workload may have a long name or several markers), a total of the
    available workloads and what the times include."""
    from ..judge.looks import RUN_BUDGET_FACTOR

    if as_json:
        return json.dumps(table, indent=2)
    header = ("workload", "markers", "quick", "full", "available")
    cells = [header] + [
        (row["name"], ",".join(row["markers"]), _span(row, "quick"), _span(row, "full"),
         "yes" if row["available"] else f"no: {row['reason']}") for row in table]
    here = [row for row in table if row["available"]]
    total = {w: {k: sum(r[k][w] for r in here) for k in ("expected_s", "at_most_s")}
             for w in ("quick", "full")}
    cells.append((f"total ({len(here)} available)", "",
                  *(f"{duration_text(total[w]['expected_s'])}-{duration_text(total[w]['at_most_s'])}"
                    for w in ("quick", "full")), ""))
    widths = [max(len(line[i]) for line in cells) for i in range(4)]
    lines = [f"{line[0]:{widths[0]}}  {line[1]:{widths[1]}}  {line[2]:>{widths[2]}}  "
             f"{line[3]:>{widths[3]}}  {line[4]}".rstrip() for line in cells]
    note = NOTE.format(wait_full=IDLE_WAIT, wait_quick=QUICK_IDLE_WAIT, factor=RUN_BUDGET_FACTOR)
    return "\n".join([*lines, "", note])
