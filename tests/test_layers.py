"""The package's shape, read from its source with ``ast`` (beside the inert-import test in
test_session.py): no import cycle, imports only to the same or a lower layer, argument parsing
only in the CLI, no class name defined twice, no module over 400 lines.

Every ``import`` and ``from ... import`` counts: at module level, inside functions, and under
``if TYPE_CHECKING:`` (a type-only import still ties the two modules' meanings together)."""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator, Mapping
from pathlib import Path

PACKAGE = "pytest_sbcbench"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE

# Bottom to top: a module may import from its own layer or a lower one.  "entry": the ways in,
# the pytest plugin, the ``sbcbench`` command and the package root (the public API).
LAYERS = ("base", "platform", "settings", "measure", "workloads", "judge", "report", "run",
          "entry")
# Each top-level module or package of the package, and its layer.
LAYER_OF: Mapping[str, str] = {
    "": "entry",  # the package root, the public API: it re-exports; nothing inside imports it
    "errors": "base", "model": "base", "fileio": "base", "jsonload": "base", "version": "base",
    "words": "base",
    "platform": "platform",
    "settings": "settings", "values": "settings",
    "measure": "measure",
    "workload": "workloads", "workloads": "workloads",
    "judge": "judge",
    "report": "report",
    "run": "run",
    "plugin": "entry",
    "cli": "entry",
    "benchmarks": "entry",  # the shipped suite's test modules: users of the fixtures
}
# Import cycles that exist today and are being dissolved; each entry is one cycle exactly.
# Empty this as they go: a new cycle, or a known one that grew, fails.
KNOWN_CYCLES: frozenset[frozenset[str]] = frozenset()
MAX_LINES = 400
LONG_MODULES: frozenset[str] = frozenset()  # modules allowed over MAX_LINES while split
FACADE_LINES = 200  # the run's Session facade (run/session.py) holds objects, it does no work


def module_name(path: Path) -> str:
    """``platform/executor.py`` -> ``platform.executor``; a package's ``__init__`` is the
    package; the root is ``""``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _absolute(name: str) -> str | None:
    """``pytest_sbcbench.x.y`` -> ``x.y`` (the root -> ``""``); None outside the package."""
    if name == PACKAGE:
        return ""
    return name[len(PACKAGE) + 1:] if name.startswith(PACKAGE + ".") else None


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str | None:
    if node.level == 0:
        return _absolute(node.module or "")
    here = module.split(".") if module else []
    if not is_package:
        here = here[:-1]
    if node.level > 1:
        here = here[:len(here) - (node.level - 1)]
    return ".".join([*here, *([node.module] if node.module else [])])


def imported(module: str, path: Path, known: set[str]) -> Iterator[str]:
    """Every package module ``module`` imports, anywhere in its file.  ``from X import name``
    is the submodule ``X.name`` when there is one, else ``X``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _absolute(alias.name)
                if target is not None:
                    yield target
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, path.name == "__init__.py", node)
            if base is None:
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}" if base else alias.name
                yield sub if sub in known else base


def graph() -> dict[str, set[str]]:
    files = sources()
    known = set(files)
    edges: dict[str, set[str]] = defaultdict(set)
    for module, path in files.items():
        edges[module] |= {t for t in imported(module, path, known) if t != module}
    return edges


def dotted(module: str) -> str:
    return f"{PACKAGE}.{module}" if module else PACKAGE


def layer_of(module: str) -> str:
    top = module.split(".")[0]
    if top not in LAYER_OF:
        raise AssertionError(f"{dotted(module)} is in no layer: add {top!r} to LAYER_OF")
    return LAYER_OF[top]


def cycles(edges: Mapping[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_import_reader_sees_every_kind_of_import() -> None:
    """The checks below are only as good as the reader: module-level, function-level,
    TYPE_CHECKING, relative from a package and from a module, and ``from . import sub``."""
    edges = graph()
    assert "model" in edges["measure.idle"]  # module level, ``from ..model import``
    assert "judge.stats" in edges["run.loop"]  # inside a method
    assert "judge.baseline" in edges["run.session"]  # under ``if TYPE_CHECKING:``
    assert "cli.commands" in edges["cli"]  # ``from . import commands`` in a package
    assert "measure.stream" in edges["workloads.memory"]  # ``from ..measure import stream``
    assert {"model", "version"} <= edges[""]


def test_no_import_cycle() -> None:
    found = set(cycles(graph()))
    new = sorted(sorted(c) for c in found - KNOWN_CYCLES)
    assert not new, f"import cycles in {PACKAGE}: {new}"


def test_known_cycles_are_still_cycles() -> None:
    """An allowed cycle that is gone leaves the allow-list: remove it from KNOWN_CYCLES."""
    gone = sorted(sorted(c) for c in KNOWN_CYCLES - set(cycles(graph())))
    assert not gone, f"no longer cycles, remove from KNOWN_CYCLES: {gone}"


def test_imports_point_down() -> None:
    rank = {name: i for i, name in enumerate(LAYERS)}
    upward = sorted(
        f"{dotted(module)} ({layer_of(module)}) imports {dotted(target)} ({layer_of(target)})"
        for module, targets in graph().items() for target in targets
        if rank[layer_of(target)] > rank[layer_of(module)])
    assert not upward, "imports from a lower layer to a higher one:\n" + "\n".join(upward)


def test_every_module_has_a_layer() -> None:
    unplaced = sorted({m.split(".")[0] for m in sources()} - set(LAYER_OF))
    assert not unplaced, f"modules in no layer (add them to LAYER_OF): {unplaced}"


def test_no_class_name_defined_twice() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for module, path in sources().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                where[node.name].append(f"{dotted(module)}:{node.lineno}")
    twice = {name: places for name, places in where.items() if len(places) > 1}
    assert not twice, f"class names defined more than once: {twice}"


def test_argument_parsing_only_in_the_cli() -> None:
    """argparse parsers are built in cli/ alone (pytest's own options are declared through
    pytest's parser, ``addoption``, which this does not count)."""
    building = {"ArgumentParser", "add_argument", "add_subparsers", "add_parser"}
    found = sorted(f"{dotted(module)}:{call.lineno} {name}"
                   for module, path in sources().items() if module.split(".")[0] != "cli"
                   for call, name in calls(path) if name in building)
    assert not found, f"argument parsing outside cli/: {found}"


def calls(path: Path) -> Iterator[tuple[ast.Call, str]]:
    """Every call in the file and the name it calls (``f()`` or ``x.f()``: ``f``)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            yield node, name


def test_no_module_over_400_lines() -> None:
    sizes = {m: len(p.read_text(encoding="utf-8").splitlines()) for m, p in sources().items()}
    long = {dotted(m): n for m, n in sizes.items() if n > MAX_LINES and m not in LONG_MODULES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"
    done = sorted(m for m in LONG_MODULES if sizes.get(m, 0) <= MAX_LINES)
    assert not done, f"no longer over {MAX_LINES} lines, remove from LONG_MODULES: {done}"


def test_the_session_facade_stays_small() -> None:
    lines = len(sources()["run.session"].read_text(encoding="utf-8").splitlines())
    assert lines < FACADE_LINES, f"run/session.py has {lines} lines: move work into its parts"


# -- item 7 of issue 32: only run/session.py writes a Session's attributes ------------------------

SESSION_MODULE = "run.session"


def session_attributes(path: Path) -> frozenset[str]:
    """What a ``Session`` has: every ``self.NAME`` its class assigns, and its properties."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Session"]
    names = {node.name for node in ast.walk(cls) if isinstance(node, ast.FunctionDef)
             and any(ast.unparse(d) in ("property", "functools.cached_property")
                     for d in node.decorator_list)}
    for node in ast.walk(cls):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id == "self":
            names.add(node.attr)
    return frozenset(names)


def _written(node: ast.AST) -> Iterator[ast.expr]:
    """The expressions ``node`` writes: assignment targets (tuples unpacked), augmented and
    annotated assignments, ``del`` and ``setattr(obj, "name", ...)`` (as ``obj.name``)."""
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    elif isinstance(node, ast.Delete):
        targets = list(node.targets)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id == "setattr" and len(node.args) >= 2 \
            and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
        targets = [ast.Attribute(value=node.args[0], attr=node.args[1].value, ctx=ast.Store())]
    while targets:
        target = targets.pop()
        if isinstance(target, (ast.Tuple, ast.List)):
            targets += target.elts
        elif isinstance(target, ast.Starred):
            targets.append(target.value)
        else:
            yield target


def session_writes(source: str, attributes: frozenset[str]) -> list[str]:
    """Writes of a session's state in ``source``: ``X.name = ...`` (or ``+=``, ``del``,
    ``setattr``) where ``name`` is a ``Session`` attribute and ``X`` is not the writer's own
    ``self``, and ``X.part.name = ...`` where ``part`` is one (the recorder, the outputs...
    reached through the session); each as ``line: expression``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        for target in _written(node):
            if not isinstance(target, ast.Attribute):
                continue
            owner = target.value
            own = isinstance(owner, ast.Name) and owner.id == "self"
            through = isinstance(owner, ast.Attribute) and owner.attr in attributes
            if (target.attr in attributes and not own) or through:
                found.append((getattr(node, "lineno", 0), ast.unparse(target)))
    return [f"{line}: {text}" for line, text in sorted(found)]


def test_the_session_write_reader_sees_every_kind_of_write() -> None:
    names = frozenset({"boot", "target", "recorder", "terminal"})
    source = """
run.boot = 2
run.boot += 1
session.target, other = a, b
setattr(run, "terminal", None)
del run.terminal
run.recorder.far_boot = f
self.boot = 3
self._session.target = t
item.session.shouldstop = "x"
config.stash[KEY] = run
"""
    assert session_writes(source, names) == [
        "2: run.boot", "3: run.boot", "4: session.target", "5: run.terminal", "6: run.terminal",
        "7: run.recorder.far_boot", "9: self._session.target"]


def test_only_the_session_writes_its_attributes() -> None:
    """A boot is a value that ``run/boot_cycle.py`` returns and the session installs
    (``Session.install``); the hooks call session methods.  Nothing else assigns a session's
    attribute, or an attribute of a part reached through it (``run.recorder.far_boot = ...``)."""
    files = sources()
    attributes = session_attributes(files[SESSION_MODULE])
    assert {"boot", "target", "baseline", "lookup", "recorder", "outputs"} <= attributes
    writes = {dotted(m): found for m, p in files.items() if m != SESSION_MODULE
              if (found := session_writes(p.read_text(encoding="utf-8"), attributes))}
    assert not writes, f"only run/session.py writes a Session's attributes: {writes}"
