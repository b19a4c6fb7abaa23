#!/usr/bin/env python3
"""The kernel gate on the QEMU lab, end to end (issue 22): baseline, new kernel, lost core.

    scripts/qemu_gate.py [--lab DIR] [--out DIR] [--steps baseline,6.12,maxcpus1]
                         [--baseline-boots 10] [--candidate-boots 3] [--mode auto]

On the A72 board of ``scripts/qemu_lab.py build a72`` (labgrid's QEMUDriver and ShellDriver,
env ``<lab>/env/a72.yaml``), through ``pytest -p labgrid --lg-env``:

1. ``baseline``: kernel 6.1, ``--sbc-boots 10 --sbc-save-baseline``;
2. ``6.12``: kernel 6.12 as the candidate, ``--sbc-boots 3 --sbc-candidate 6.12 --sbc-gate``
   (expected: no regression: exit 0, or 6 when emulation noise leaves metrics undecided);
3. ``maxcpus1``: kernel 6.1 booted with ``maxcpus=1`` (a BSP change that loses a core; images
   key ``kernel-6.1-maxcpus1``), ``--sbc-boots 3 --sbc-candidate maxcpus1 --sbc-gate``
   (expected: exit 1, the multi-thread scaling figures regress, no single-thread one does).

The suite (:data:`SELECT`, ``-k`` :data:`KEEP_OUT`) is the quick openssl ciphers and digests
(single-thread) and openssl's thread scaling at 1 and 2 threads: the in-process metrics measure
the controller, the board has no sysbench or stress-ng, and the signatures are left out for
time (one boot is about a minute under TCG without them).  Each step prints its tally line
(the last line starting ``gate:``), exit code and wall time; ``<out>/summary.md`` sums them
up with every boot's id, kernel and wall time.  Exit 0 when every step ended as expected.

``--mode native`` runs one pytest per step with ``--sbc-boots N`` (the run reboots the board
between boots); ``--mode emulate`` runs N single-boot pytest runs per step instead: each run
powers the emulator on through labgrid and quits it at its end (a power cycle through
labgrid's QEMUDriver), and the script checks that every boot id is new.  ``auto`` (default)
is native when ``pytest --help`` lists ``--sbc-boots``.  Standalone: the standard library and
this checkout's Python environment (``sys.executable`` runs pytest).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The board's ciphers and digests (single-thread) and openssl's thread scaling; not the
# in-process metrics (they measure the controller), sysbench and stress-ng (not on the board),
# or the signatures (24 s of a boot's ~60 under TCG for four more single-thread metrics), nor
# ML-KEM and ML-DSA (the A72's bookworm openssl 3.0 has neither) nor bssl (not on the board):
# they would only skip.
KEEP_OUT = ("not inprocess and not sysbench and not stress_ng and not rsa and not ecdsa"
            " and not test_kem and not test_pq_signature and not test_bssl")
SELECT = ["benchmarks/", "-m", "crypto or scaling", "--sbc-quick"]
COMMON = ["-p", "no:cacheprovider", "-p", "labgrid", "--sbc-idle-wait", "0", "-rs"]
BOOT_TIMEOUT_S = 900.0  # one boot's session at most (TCG under load)


@dataclass(frozen=True)
class Step:
    name: str
    image: str  # the images key the QEMUDriver boots (--sbc-lab-kernel)
    role: str  # "baseline" or "candidate"
    expect: int  # the exit code the step should end with
    also: tuple[int, ...] = ()  # other exit codes that are as expected (6: undecided)

    def args(self) -> list[str]:
        if self.role == "baseline":
            return ["--sbc-save-baseline"]
        return ["--sbc-candidate", self.name, "--sbc-gate"]


STEPS = {s.name: s for s in (
    Step("baseline", "kernel-6.1", "baseline", 0),
    Step("6.12", "kernel-6.12", "candidate", 0, (6,)),
    Step("maxcpus1", "kernel-6.1-maxcpus1", "candidate", 1),
)}


@dataclass
class Outcome:
    step: Step
    argv: list[str]
    boots: int
    mode: str
    code: int = 0
    wall_s: float = 0.0
    tally: str = ""
    boot_s: list[float] = field(default_factory=list)  # emulate mode: each run's wall time
    results: list[Path] = field(default_factory=list)  # every boot's results file, in order
    problems: list[str] = field(default_factory=list)

    @property
    def as_expected(self) -> bool:
        return self.code in (self.step.expect, *self.step.also) and not self.problems


def lab_dir(given: Path | None) -> Path:
    if given is not None:
        return given
    if os.environ.get("SBCBENCH_LAB_DIR"):
        return Path(os.environ["SBCBENCH_LAB_DIR"])
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "sbcbench" / "lab"


def child_env() -> dict[str, str]:
    """This environment without what would point the runs elsewhere."""
    return {k: v for k, v in os.environ.items() if k not in ("LG_ENV", "SBCBENCH_OPENSSL")}


def has_boots_option() -> bool:
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--help"],
                          cwd=REPO, capture_output=True, text=True, check=False,
                          env=child_env(), timeout=300)
    return "--sbc-boots" in done.stdout


def pytest_argv(env_file: Path, out: Path, step: Step, results: Path, keep_out: str
                ) -> list[str]:
    return [sys.executable, "-m", "pytest", *SELECT, "-k", keep_out, *COMMON, "--lg-env",
            str(env_file),
            "--sbc-lab-kernel", step.image, "--sbc-baselines", str(out / "baselines"),
            "--sbc-results", str(results), *step.args()]


def run_pytest(argv: list[str], log: Path, boots: int) -> tuple[int, str, float]:
    """Run ``argv`` (its output kept in ``log``); exit code, tally line, wall seconds."""
    start = time.monotonic()
    with log.open("w") as sink:
        done = subprocess.run(argv, cwd=REPO, stdout=sink, stderr=subprocess.STDOUT, text=True,
                              check=False, env=child_env(), timeout=BOOT_TIMEOUT_S * boots)
    wall = time.monotonic() - start
    tallies = [line for line in log.read_text().splitlines() if line.startswith("gate:")]
    return done.returncode, tallies[-1] if tallies else "(no tally line)", wall


def run_step(step: Step, boots: int, mode: str, env_file: Path, out: Path, keep_out: str
             ) -> Outcome:
    results = out / f"{step.name}.json"
    argv = pytest_argv(env_file, out, step, results, keep_out)
    if mode == "native":
        outcome = Outcome(step, [*argv, "--sbc-boots", str(boots)], boots, mode)
        outcome.code, outcome.tally, outcome.wall_s = run_pytest(
            outcome.argv, out / f"{step.name}.log", boots)
        outcome.results = [*(results.with_name(f"{step.name}.boot{i}.json")
                             for i in range(1, boots)), results]
    else:
        outcome = Outcome(step, argv, boots, mode)
        for boot in range(1, boots + 1):
            each = results.with_name(f"{step.name}.boot{boot}.json")
            code, tally, wall = run_pytest(pytest_argv(env_file, out, step, each, keep_out),
                                           out / f"{step.name}.boot{boot}.log", 1)
            outcome.boot_s.append(wall)
            outcome.results.append(each)
            outcome.code, outcome.tally = code, tally
            say(f"{step.name}: boot {boot} of {boots}: exit {code} in {wall:.0f} s: {tally}")
            if code not in (0, step.expect, *step.also):  # a broken boot: the rest says no more
                break
        outcome.wall_s = sum(outcome.boot_s)
    check(outcome)
    return outcome


def load(path: Path) -> dict[str, object] | None:
    try:
        doc: dict[str, object] = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return doc


def lab_of(doc: dict[str, object]) -> dict[str, object]:
    env = doc.get("environment")
    lab = env.get("lab") if isinstance(env, dict) else None
    return lab if isinstance(lab, dict) else {}


def results_of(doc: dict[str, object] | None) -> list[dict[str, object]]:
    found = doc.get("results") if doc else None
    return [r for r in found if isinstance(r, dict)] if isinstance(found, list) else []


def threads(result: dict[str, object]) -> int:
    identity = result.get("identity")
    value = identity.get("threads") if isinstance(identity, dict) else None
    return int(value) if isinstance(value, int) else 1


def verdict(result: dict[str, object]) -> dict[str, object]:
    found = result.get("verdict")
    return found if isinstance(found, dict) else {}


def regressions(doc: dict[str, object] | None) -> list[dict[str, object]]:
    return [r for r in results_of(doc) if verdict(r).get("status") == "regression"]


def check(outcome: Outcome) -> None:
    """What the results files must show: one new boot id per boot, on the step's kernel
    image; the lost core's step regressed in multi-thread figures only."""
    docs = [load(p) for p in outcome.results]
    ids = [str(lab_of(d).get("boot_id")) for d in docs if d is not None]
    if len(ids) != len(outcome.results):
        lost = len(outcome.results) - len(ids)
        outcome.problems.append(f"{lost} boot{'' if lost == 1 else 's'} wrote no results")
    if len(set(ids)) != len(ids):
        outcome.problems.append(f"a boot id repeats: {ids}")
    images = {str(lab_of(d).get("kernel_image")) for d in docs if d is not None}
    if images - {outcome.step.image}:
        outcome.problems.append(f"booted {sorted(images)}, not {outcome.step.image}")
    if outcome.step.name == "maxcpus1" and docs and docs[-1] is not None:
        named = regressions(docs[-1])
        single = [str(r.get("label") or r.get("metric")) for r in named if threads(r) < 2]
        if single:
            outcome.problems.append(f"single-thread metrics regressed: {', '.join(single)}")
        if outcome.code == 1 and not named:
            outcome.problems.append("exit 1 but no result's verdict is a regression")


def boot_rows(outcome: Outcome) -> list[str]:
    rows = []
    for i, path in enumerate(outcome.results, 1):
        doc = load(path)
        lab = lab_of(doc) if doc else {}
        wall = f"{outcome.boot_s[i - 1]:.0f}" if i <= len(outcome.boot_s) else "-"
        rows.append(f"| {outcome.step.name} | {i} | {lab.get('boot_id', '-')} | "
                    f"{lab.get('kernel_release', '-')} | {lab.get('kernel_image', '-')} | "
                    f"{wall} |")
    return rows


def summary(outcomes: list[Outcome], out: Path) -> str:
    lines = ["# The kernel gate on the QEMU A72 board", "",
             f"Results, logs and baselines in `{out}`.", "",
             "| step | boots | mode | exit | expected | wall s | s per boot | tally |",
             "|---|---|---|---|---|---|---|---|"]
    for o in outcomes:
        ok = "yes" if o.as_expected else f"no ({o.step.expect}){'; ' if o.problems else ''}" \
            + "; ".join(o.problems)
        lines.append(f"| {o.step.name} | {o.boots} | {o.mode} | {o.code} | {ok} | "
                     f"{o.wall_s:.0f} | {o.wall_s / o.boots:.0f} | `{o.tally}` |")
    lines += ["", "Commands (native mode: once with `--sbc-boots N`; emulate mode: N times "
              "without it):", ""]
    lines += [f"    {shlex.join(o.argv)}" for o in outcomes]
    for o in outcomes:
        named = regressions(load(o.results[-1])) if o.results else []
        if named:
            lines += ["", f"Regressions of `{o.step.name}` (its last boot's verdicts):", ""]
            lines += [f"- {r.get('label') or r.get('metric')} (threads {threads(r)}): "
                      f"{verdict(r).get('detail', '')}"
                      for r in named]
    lines += ["", "| step | boot | boot id | kernel release | images key | wall s |",
              "|---|---|---|---|---|---|"]
    for o in outcomes:
        lines += boot_rows(o)
    return "\n".join(lines) + "\n"


def say(message: str) -> None:
    print(f"qemu_gate: {message}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="qemu_gate.py", description=__doc__.split("\n")[0])
    parser.add_argument("--lab", type=Path, default=None,
                        help="lab directory (default $SBCBENCH_LAB_DIR or ~/.cache/sbcbench/lab)")
    parser.add_argument("--out", type=Path, default=None,
                        help="results, logs, baselines, summary.md (default: a new temp dir)")
    parser.add_argument("--steps", default=",".join(STEPS),
                        help=f"comma-separated, in order (default {','.join(STEPS)})")
    parser.add_argument("--baseline-boots", type=int, default=10)
    parser.add_argument("--candidate-boots", type=int, default=3)
    parser.add_argument("--mode", choices=("auto", "native", "emulate"), default="auto")
    parser.add_argument("-k", dest="keep_out", default=KEEP_OUT,
                        help=f"pytest -k of every step (default {KEEP_OUT!r})")
    args = parser.parse_args(argv)
    env_file = lab_dir(args.lab).absolute() / "env" / "a72.yaml"
    if not env_file.exists():
        raise SystemExit(f"qemu_gate: {env_file} missing: scripts/qemu_lab.py build a72")
    steps = [STEPS[name] for name in args.steps.split(",") if name]
    out = (args.out or Path(tempfile.mkdtemp(prefix="sbcbench-gate-"))).absolute()
    out.mkdir(parents=True, exist_ok=True)
    mode = args.mode
    if mode == "auto":
        mode = "native" if has_boots_option() else "emulate"
    say(f"mode {mode}; out {out}")
    outcomes = []
    for step in steps:
        boots = args.baseline_boots if step.role == "baseline" else args.candidate_boots
        say(f"{step.name}: {boots} boot{'' if boots == 1 else 's'} of {step.image} ...")
        outcome = run_step(step, boots, mode, env_file, out, args.keep_out)
        outcomes.append(outcome)
        print(f"{step.name}: exit {outcome.code} (expected {step.expect}) in "
              f"{outcome.wall_s:.0f} s ({outcome.wall_s / boots:.0f} s per boot)"
              f"{'' if not outcome.problems else ': ' + '; '.join(outcome.problems)}\n"
              f"  {outcome.tally}", flush=True)
        (out / "summary.md").write_text(summary(outcomes, out))
    print(f"summary: {out / 'summary.md'}")
    return 0 if all(o.as_expected for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
