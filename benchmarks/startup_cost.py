"""Start-up cost: what the installed plugin adds to pytest in a project that never uses it.

    python3 benchmarks/startup_cost.py [--pairs 20] [--import-runs 5] [--top 15] [--python PY]
                                       [--no-bytecode-cache]

Makes a temporary, unrelated project with one plain test and runs the whole
`python -m pytest -q` process there, interleaved with the plugin and without it
(`-p no:sbcbench`), in pairs whose order alternates (one warm-up pair is not counted).
Prints:
- the median wall and CPU time of each side, and the median of the paired differences
  (ms and % of the run without the plugin) with a distribution-free 95% interval
  (order statistics of the differences: no assumption about their distribution);
- the modules a run loads only with the plugin (from `sys.modules` at the end of the run),
  the `pytest_sbcbench` modules among them, and whether any of its measure/judge/report
  layers load (the target is none);
- the top `python -X importtime` contributors among those modules (self time, median of
  several runs) with the module that imported each, and what `import pytest_sbcbench.plugin`
  costs after `import pytest`.
pytest rewrites the asserts of every module of an installed plugin's distribution (not of an
editable install) and caches the result beside the bytecode; `--no-bytecode-cache` measures a
machine where that cache cannot be written (PYTHONDONTWRITEBYTECODE=1, read-only
site-packages) where none was cached before (one written earlier is still read: the
script prints how many are cached).  For a user's figure give `--python` a virtualenv with
the package installed normally (`pip install .`), not this repository's editable one.
The targets (issues 20 and 31): the plugin adds < 20 ms of CPU time (the median of the paired
CPU-time differences: wall time is judged nowhere, it moves by a second on a shared machine)
and loads none of its measure/judge/report layers.  A figure, not a test: the numbers depend
on the machine and on what else runs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "pytest_sbcbench"
PLUGIN = "sbcbench"  # the pytest11 entry-point name
HEAVY_LAYERS = ("measure", "judge", "report")
TARGET_MS = 20.0
TEST = "def test_plain():\n    assert 1 + 1 == 2\n"
# Runs pytest in-process exactly as `python -m pytest` does, then lists what got imported.
WRAPPER = ("import json, sys, pytest\n"
           "code = pytest.main(sys.argv[2:])\n"
           "with open(sys.argv[1], 'w') as out:\n"
           "    json.dump(sorted(sys.modules), out)\n"
           "sys.exit(code)\n")
IMPORT_PLUGIN = f"import pytest; import {PACKAGE}.plugin"
UNSET = ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTEST_DISABLE_PLUGIN_AUTOLOAD")


# ---- pure helpers (tests/test_startup_cost.py checks them) ----

@dataclass(frozen=True)
class Interval:
    low: float
    high: float
    coverage: float  # the exact probability that the interval holds the true median


def median_interval(values: Sequence[float], confidence: float = 0.95) -> Interval:
    """Distribution-free interval for the median: the (j+1)-th smallest and largest values,
    with j the most values left out on each side whose binomial tail stays within
    (1 - confidence) / 2.  With too few values for the confidence asked, the whole range
    (and its lower coverage)."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    n = len(ordered)

    def below(j: int) -> float:  # P(at most j of n values fall below the median)
        return sum(math.comb(n, i) for i in range(j + 1)) / (1 << n)

    j = 0  # values left out on each side
    while j + 1 <= (n - 1) // 2 and below(j + 1) <= (1 - confidence) / 2:
        j += 1
    return Interval(ordered[j], ordered[n - 1 - j], 1 - 2 * below(j))


def percent(part: float, whole: float) -> float:
    return 100 * part / whole


@dataclass(frozen=True)
class ImportLine:
    name: str
    self_us: int
    cumulative_us: int
    depth: int


def parse_importtime(text: str) -> list[ImportLine]:
    """The lines of `python -X importtime` output (stderr), in the order printed."""
    out: list[ImportLine] = []
    for line in text.splitlines():
        if not line.startswith("import time:"):
            continue
        fields = line[len("import time:"):].split("|")
        if len(fields) != 3 or not fields[0].strip().isdigit():
            continue  # the header line
        name = fields[2].rstrip()
        stripped = name.lstrip(" ")
        out.append(ImportLine(stripped, int(fields[0]), int(fields[1]),
                              (len(name) - len(stripped) - 1) // 2))
    return out


def importers(lines: Sequence[ImportLine]) -> dict[str, str]:
    """Each module's importer.  importtime prints a module after everything it imports,
    indented one level deeper; a module at depth 0 has no timed importer (pytest loads
    entry points with importlib, which importtime does not time) and is left out."""
    parent: dict[str, str] = {}
    pending: list[ImportLine] = []
    for line in lines:
        while pending and pending[-1].depth > line.depth:
            parent[pending.pop().name] = line.name
        pending.append(line)
    return parent


def package_importer(name: str, parent: Mapping[str, str]) -> str:
    """The nearest `pytest_sbcbench` module that (indirectly) imported ``name``; for a module
    of the package with none, "pytest" (the entry point itself) or "a hook" (imported at run
    time, not by the plugin import)."""
    current = name
    while current in parent:
        current = parent[current]
        if current.split(".")[0] == PACKAGE:
            return current
    return "pytest (entry point)" if name == f"{PACKAGE}.plugin" else "a hook, at run time"


def heavy_modules(names: Iterable[str]) -> list[str]:
    """The package's modules in the layers that must not load in an unrelated project."""
    prefixes = tuple(f"{PACKAGE}.{layer}" for layer in HEAVY_LAYERS)
    return sorted(n for n in names if n in prefixes or n.startswith(tuple(p + "." for p in
                                                                              prefixes)))


def median_self_ms(runs: Sequence[Sequence[ImportLine]], names: Iterable[str]
                   ) -> dict[str, float]:
    """Median self time (ms) of each named module over the runs that imported it."""
    wanted = set(names)
    times: dict[str, list[int]] = {}
    for run in runs:
        for line in run:
            if line.name in wanted:
                times.setdefault(line.name, []).append(line.self_us)
    return {name: statistics.median(us) / 1000 for name, us in times.items()}


# ---- running pytest ----

@dataclass(frozen=True)
class Timing:
    wall_ms: float
    cpu_ms: float


def judged(without: Sequence[Timing], with_: Sequence[Timing]) -> tuple[float, bool]:
    """The verdict on the target: the median of the paired differences of CPU time (user +
    system of the whole pytest process), never of wall time, which on a shared machine moves
    by a second with what else runs; and whether it is under :data:`TARGET_MS`."""
    diffs = [b.cpu_ms - a.cpu_ms for a, b in zip(without, with_, strict=True)]
    cpu = statistics.median(diffs)
    return cpu, cpu < TARGET_MS


@dataclass(frozen=True)
class Target:
    python: str
    project: Path
    env: Mapping[str, str]


def environment(bytecode_cache: bool) -> dict[str, str]:
    """This process's environment less pytest's own variables.  pytest rewrites the asserts
    of every module of an installed plugin's distribution when it loads, and caches the
    result only where Python may write bytecode: ``bytecode_cache`` False measures a machine
    where it may not (PYTHONDONTWRITEBYTECODE, a read-only site-packages)."""
    env = {k: v for k, v in os.environ.items()
           if k not in UNSET and k != "PYTHONDONTWRITEBYTECODE"}
    if not bytecode_cache:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def make_project(root: Path) -> None:
    (root / "pytest.ini").write_text("[pytest]\n")  # anchors the rootdir here
    (root / "test_plain.py").write_text(TEST)


def plugin_args(with_plugin: bool) -> list[str]:
    return ["-q"] if with_plugin else ["-q", "-p", f"no:{PLUGIN}"]


def children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(target: Target, *args: str) -> subprocess.CompletedProcess[str]:
    command = [target.python, *args]
    done = subprocess.run(command, cwd=target.project, env=target.env, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n"
                         f"{done.stdout}{done.stderr}")
    return done


def time_run(target: Target, with_plugin: bool) -> Timing:
    cpu = children_cpu_s()
    start = time.perf_counter()
    run(target, "-m", "pytest", *plugin_args(with_plugin))
    wall = time.perf_counter() - start
    return Timing(1000 * wall, 1000 * (children_cpu_s() - cpu))


def time_pairs(target: Target, pairs: int) -> tuple[list[Timing], list[Timing]]:
    """(without, with) timings of interleaved pairs; odd pairs run the plugin first."""
    without: list[Timing] = []
    with_: list[Timing] = []
    for index in range(pairs + 1):
        order = (True, False) if index % 2 else (False, True)
        first, second = (time_run(target, side) for side in order)
        if index == 0:
            continue  # warm-up: file caches, bytecode
        by_side = dict(zip(order, (first, second), strict=True))
        with_.append(by_side[True])
        without.append(by_side[False])
    return without, with_


def loaded_modules(target: Target, with_plugin: bool) -> tuple[set[str], list[ImportLine]]:
    """What one run leaves in sys.modules, and its importtime lines."""
    listing = target.project / "modules.json"
    done = run(target, "-X", "importtime", "-c", WRAPPER, str(listing),
               *plugin_args(with_plugin))
    names = set(json.loads(listing.read_text()))
    listing.unlink()
    return names, parse_importtime(done.stderr)


def plugin_imports(target: Target) -> list[ImportLine]:
    """The importtime lines of `import pytest_sbcbench.plugin` after `import pytest`: the whole
    import tree, timed (a pytest run does not time the entry point's own module)."""
    return parse_importtime(run(target, "-X", "importtime", "-c", IMPORT_PLUGIN).stderr)


def rewrite_cache(target: Target) -> str:
    """How many of the installed package's modules have pytest's rewritten bytecode cached."""
    where = run(target, "-c", f"import {PACKAGE}, os; print(os.path.dirname({PACKAGE}.__file__))"
                ).stdout.strip()
    sources = list(Path(where).rglob("*.py"))
    cached = [p for p in Path(where).rglob("__pycache__/*.pyc") if "-pytest-" in p.name]
    return f"{len(cached)} of {len(sources)} modules in {where}"


# ---- report ----

def print_timing(label: str, without: Sequence[float], with_: Sequence[float]) -> float:
    diffs = [b - a for a, b in zip(without, with_, strict=True)]
    mid = statistics.median(diffs)
    base = statistics.median(without)
    interval = median_interval(diffs)
    print(f"{label:<8}{base:>10.1f}{statistics.median(with_):>10.1f}{mid:>+12.1f}"
          f"  [{interval.low:+.1f}, {interval.high:+.1f}] ({100 * interval.coverage:.0f}%)"
          f"{percent(mid, base):>+9.1f}%  [{percent(interval.low, base):+.1f}%, "
          f"{percent(interval.high, base):+.1f}%]")
    return mid


def print_modules(extra: set[str], runs: Sequence[Sequence[ImportLine]],
                  direct: Sequence[Sequence[ImportLine]], top: int) -> None:
    """``runs``: importtime of pytest runs with the plugin; ``direct``: of the plugin import."""
    ours = sorted(n for n in extra if n.split(".")[0] == PACKAGE)
    heavy = heavy_modules(ours)
    print(f"\nmodules loaded only with the plugin: {len(extra)} "
          f"({len(ours)} of {PACKAGE}, {len(extra) - len(ours)} others)")
    print(f"{PACKAGE} modules: {', '.join(ours)}")
    print(f"others: {', '.join(sorted(set(extra) - set(ours))) or 'none'}")
    print(f"measure/judge/report modules: {', '.join(heavy) or 'none'} (target: none)")
    costs = median_self_ms(runs, extra)
    untimed = {k: v for k, v in median_self_ms(direct, extra).items() if k not in costs}
    parent = {**importers(runs[0]), **importers(direct[0])}
    print(f"\nimport costs, self time (median of {len(runs)} runs); * the entry point's own "
          "modules, which\na pytest run does not time, from the plugin import below")
    print(f"{'ms':>7}  {'module':<42}imported by")
    ranked = sorted({**costs, **untimed}.items(), key=lambda item: -item[1])
    for name, ms in ranked[:top]:
        mark = "*" if name in untimed else " "
        print(f"{ms:>7.1f}{mark} {name:<42}{package_importer(name, parent)}")
    print(f"{sum(ms for _, ms in ranked):>7.1f}  all {len(ranked)} modules")
    plugin = [ln.cumulative_us for run in direct for ln in run if ln.name == f"{PACKAGE}.plugin"]
    print(f"\n`{IMPORT_PLUGIN}`: the plugin import costs "
          f"{statistics.median(plugin) / 1000:.1f} ms (cumulative, median of {len(direct)} runs)")


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20, help="interleaved pairs (default 20)")
    parser.add_argument("--import-runs", type=int, default=5,
                        help="-X importtime runs per side (default 5)")
    parser.add_argument("--top", type=int, default=15, help="import costs listed (default 15)")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter with pytest and the plugin installed")
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="run with PYTHONDONTWRITEBYTECODE=1, as where site-packages is "
                             "read-only (pytest then rewrites the plugin's modules each run)")
    args = parser.parse_args()
    if args.pairs < 1 or args.import_runs < 1:
        parser.error("--pairs and --import-runs must be at least 1")
    return args


def main() -> None:
    args = arguments()
    with tempfile.TemporaryDirectory(prefix="startup-cost-") as tmp:
        target = Target(args.python, Path(tmp), environment(not args.no_bytecode_cache))
        make_project(target.project)
        version = run(target, "-c", "import sys, pytest; "
                      "print(sys.version.split()[0], pytest.__version__)").stdout
        without, with_ = time_pairs(target, args.pairs)
        samples = [loaded_modules(target, side)
                   for _ in range(args.import_runs) for side in (True, False)]
        direct = [plugin_imports(target) for _ in range(args.import_runs)]
        cached = rewrite_cache(target)
    python_v, pytest_v = version.split()
    cache = "off (PYTHONDONTWRITEBYTECODE=1)" if args.no_bytecode_cache else "on"
    print(f"{args.python} (Python {python_v}, pytest {pytest_v}), bytecode cache {cache}: "
          f"one plain test, {args.pairs} interleaved pairs after a warm-up pair")
    print(f"{'':<8}{'without':>10}{'with':>10}{'difference':>12}  (median of paired "
          "differences, interval; % of without)")
    print(f"pytest's assert-rewritten bytecode of the plugin, cached after the runs: {cached}")
    print_timing("wall ms", [t.wall_ms for t in without], [t.wall_ms for t in with_])
    print_timing("cpu ms", [t.cpu_ms for t in without], [t.cpu_ms for t in with_])
    cpu, met = judged(without, with_)
    print(f"target: the plugin adds < {TARGET_MS:.0f} ms CPU (median of the paired CPU-time "
          f"differences, {cpu:+.1f} ms; wall time is the machine's noise, not the plugin's "
          f"cost): {'met' if met else 'NOT met'}")
    extra = samples[0][0] - samples[1][0]
    print_modules(extra, [lines for names, lines in samples[::2]], direct, args.top)


if __name__ == "__main__":
    main()
