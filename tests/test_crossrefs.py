"""Every cross-reference resolves (issue 32 item 11): in the docs (README.md, docs/*.md) the
relative links and their anchors, the repository files named in backticks and the
``module.name`` objects named in backticks; in the package's docstrings every ``:mod:``,
``:func:``, ``:class:``, ``:data:``, ``:meth:``, ``:attr:`` and ``:exc:`` target, looked up as
Python would (a leading dot is relative to the module's package, a bare name is the module's,
an enclosing class's, an imported one or a builtin)."""

from __future__ import annotations

import ast
import builtins
import dataclasses
import functools
import importlib
import inspect
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from helpers import REPO

PACKAGE = REPO / "pytest_sbcbench"
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
TICKED = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
ROLE = re.compile(r":(mod|func|class|data|meth|attr|exc|obj):`([^`]+)`")
FILE_SUFFIXES = (".py", ".md", ".ini", ".toml", ".cfg", ".sh")
TOP = ("pytest_sbcbench/", "tests/", "docs/", "scripts/", "benchmarks/", ".ci/")
# results-file fields written as dotted paths (``environment.lab``, ``telemetry.background``):
# JSON keys, not the modules of the same names
JSON_KEYS = ("environment.", "telemetry.")
DATA_FILE = re.compile(r"\.(json|log|key|pub|md|txt|sqlite|csv|svg|png|html|sig|conf|lock|xml)$")


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text())
    return {slug(m) for m in re.findall(r"^#{1,6}\s+(.+?)\s*#*$", text, re.M)}


def prose(path: Path) -> str:
    """The document without its fenced code blocks (commands and output, not references)."""
    return FENCE.sub("", path.read_text())


def broken_links(doc: Path) -> Iterator[str]:
    for match in LINK.finditer(prose(doc)):
        target = match.group(1) or match.group(2)
        if re.match(r"^[a-z]+:", target):
            continue  # https:, mailto:
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        if not path.exists():
            yield f"{target}: no file {file}"
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            yield f"{target}: no heading #{anchor} in {path.name}"


@functools.cache
def repository_files() -> dict[str, list[Path]]:
    """Every tracked-looking file of the repository by its name."""
    found: dict[str, list[Path]] = {}
    for path in REPO.rglob("*"):
        parts = path.relative_to(REPO).parts
        if path.is_file() and not any(p in (".venv", ".git", "__pycache__") or
                                      p.endswith(".egg-info") for p in parts):
            found.setdefault(path.name, []).append(path)
    return found


def names_a_file(word: str) -> bool:
    """A backticked word that names a repository file: a path under one of the repository's
    top directories or a module's name (``conftest.py``); not an absolute path, a placeholder
    such as ``DIR/report.md``, a file a run writes (``report.md``) or a command line."""
    if " " in word or "*" in word or word.startswith(("/", "~", "$", "./")):
        return False
    if re.match(r"^[A-Z]+/", word):
        return False  # DIR/history.sqlite, BOARD/...
    return word.startswith(TOP) or word.endswith(".py") or (
        "/" in word and word.endswith(FILE_SUFFIXES))


def file_exists(word: str, doc: Path, files: dict[str, list[Path]]) -> bool:
    word = word.partition("::")[0].rstrip("/")  # a test id names its file
    if "/" not in word:
        return word in files or (REPO / word).is_dir()
    return any((base / word).exists() for base in (REPO, PACKAGE, doc.parent)) or any(
        str(p.relative_to(REPO)).endswith("/" + word) for p in files.get(Path(word).name, []))


@functools.cache
def module_names() -> frozenset[str]:
    """The first components a dotted name of the package's may start with: the package,
    its subpackages and its modules' own names (``boot_test.boot_noise``)."""
    names = {"pytest_sbcbench"}
    for path in PACKAGE.rglob("*.py"):
        names.add(path.parent.name if path.name == "__init__.py" else path.stem)
    return frozenset(names)


def resolves(dotted: str) -> bool:
    """``dotted`` names a module, or an attribute reached from one (a class's instance
    attribute or dataclass field counts)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        if parts[cut - 1] == "__main__":
            continue  # importing it runs the command
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for at, name in enumerate(parts[cut:], start=cut):
            if hasattr(obj, name):
                obj = getattr(obj, name)
            elif at == len(parts) - 1 and inspect.isclass(obj):
                return instance_attribute(obj, name)
            else:
                return False
        return True
    return False


def instance_attribute(cls: type, name: str) -> bool:
    if dataclasses.is_dataclass(cls) and name in {f.name for f in dataclasses.fields(cls)}:
        return True
    source = inspect.getsource(cls)
    return re.search(rf"self\.{re.escape(name)}\b\s*(:[^=\n]*)?=(?!=)", source) is not None


def in_package(dotted: str) -> bool:
    """A dotted name of the package's written short: ``platform.sysroot``, ``judge.x.y`` or
    ``boot_test.boot_noise`` (a module's own name first)."""
    if resolves(dotted) and dotted.startswith("pytest_sbcbench"):
        return True
    if resolves(f"pytest_sbcbench.{dotted}"):
        return True
    head, _, rest = dotted.partition(".")
    return any(resolves(f"{module_of(p)}.{rest}") for p in PACKAGE.rglob(f"{head}.py"))


def module_of(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def broken_mentions(doc: Path, files: dict[str, list[Path]], modules: frozenset[str]
                    ) -> Iterator[str]:
    for word in TICKED.findall(prose(doc)):
        word = word.strip().removesuffix("()")
        if names_a_file(word.partition("::")[0]):
            if not file_exists(word, doc, files):
                yield f"`{word}`: no such file in the repository"
        elif re.fullmatch(r"[a-z_]\w*(\.[A-Za-z_]\w*)+", word) and \
                word.partition(".")[0] in modules and not word.startswith(JSON_KEYS) and \
                not DATA_FILE.search(word):
            if not in_package(word):
                yield f"`{word}`: no such module or object in pytest_sbcbench"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_doc_reference_resolves(doc: Path) -> None:
    files, modules = repository_files(), module_names()
    broken = [*broken_links(doc), *broken_mentions(doc, files, modules)]
    assert broken == [], f"{doc.relative_to(REPO)}: " + "; ".join(broken)


def docstrings(tree: ast.Module) -> Iterator[tuple[str, list[str]]]:
    """Every docstring of a module with the classes it is inside."""
    def walk(node: ast.AST, classes: list[str]) -> Iterator[tuple[str, list[str]]]:
        inside = [*classes, node.name] if isinstance(node, ast.ClassDef) else classes
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield doc, inside
        for child in ast.iter_child_nodes(node):
            yield from walk(child, inside)
    return walk(tree, [])


def imports(tree: ast.Module, package: str) -> dict[str, str]:
    """Every name a module imports (at its top, in a function or under TYPE_CHECKING), with
    where it comes from."""
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = absolute(package, node.level, node.module or "")
            for alias in node.names:
                found[alias.asname or alias.name] = f"{source}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                found[alias.asname or alias.name.partition(".")[0]] = \
                    alias.name if alias.asname else alias.name.partition(".")[0]
    return found


def absolute(package: str, level: int, name: str) -> str:
    """The module ``name`` imported ``level`` dots up from ``package``, as ``from`` does."""
    if not level:
        return name
    parts = package.split(".")
    base = parts[:len(parts) - (level - 1)]
    return ".".join([*base, name] if name else base)


def candidates(target: str, module: str, package: str, classes: list[str],
               imported: dict[str, str]) -> list[str]:
    if target.startswith("."):
        level = len(target) - len(target.lstrip("."))
        return [absolute(package, level, target.lstrip("."))]
    head, _, tail = target.partition(".")
    found = [".".join([module, *classes[:cut], target]) for cut in range(len(classes), -1, -1)]
    if head in imported:
        found.append(imported[head] + (f".{tail}" if tail else ""))
    if hasattr(builtins, head):
        found.append(f"builtins.{target}")
    return [*found, target, f"pytest_sbcbench.{target}"]  # judge.closing.close_run


def broken_roles(path: Path) -> Iterator[str]:
    module = module_of(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    imported = imports(tree, package)
    for doc, classes in docstrings(tree):
        for role, written in ROLE.findall(doc):
            target = re.sub(r"^.*<(.+)>$", r"\1", written).lstrip("~").removesuffix("()")
            if not any(resolves(c) for c in candidates(target, module, package, classes,
                                                       imported)):
                yield f":{role}:`{written}`"


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_docstring_reference_resolves(path: Path) -> None:
    broken = list(broken_roles(path))
    assert broken == [], f"{path.relative_to(REPO)}: " + ", ".join(broken)


def test_the_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    """A broken link, anchor, file and object are each reported; a module's own relative
    reference resolves only with the right number of dots."""
    doc = tmp_path / "x.md"
    doc.write_text("# Top heading\n[a](#top-heading) [b](#gone) [c](nowhere.md)\n"
                   "`pytest_sbcbench/run/session.py` `run/nowhere.py` "
                   "`platform.sysroot.Sysroot` `platform.sysroot.Nothing`\n")
    files, modules = repository_files(), module_names()
    assert list(broken_links(doc)) == ["#gone: no heading #gone in x.md",
                                       "nowhere.md: no file nowhere.md"]
    assert list(broken_mentions(doc, files, modules)) == [
        "`run/nowhere.py`: no such file in the repository",
        "`platform.sysroot.Nothing`: no such module or object in pytest_sbcbench"]
    trace = "pytest_sbcbench.report.trace"
    assert any(resolves(c) for c in candidates("..fileio.write_atomic", trace,
                                               "pytest_sbcbench.report", [], {}))
    assert not any(resolves(c) for c in candidates(".fileio.write_atomic", trace,
                                                   "pytest_sbcbench.report", [], {}))


def test_the_module_namespace_is_searched() -> None:
    module: ModuleType = importlib.import_module("pytest_sbcbench.measure.background")

    def found(target: str) -> bool:
        return any(resolves(c) for c in candidates(target, module.__name__,
                                                   "pytest_sbcbench.measure", ["Window"], {}))
    assert found("loaded")  # the enclosing class's
    assert found("OTHER_CPUS") and found("Sampler.window") is False
    assert not found("NO_SUCH_NAME")
