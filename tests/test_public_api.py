"""The public API (issue 32, item 12): ``pytest_sbcbench``'s ``__all__`` is what the extension
recipe in docs/usage.md imports, the recipe imports nothing else of the package and runs as
written, and every module below the root says on its docstring's first line that it is
private."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import pytest_sbcbench
from pytest_sbcbench.workload import check_workloads

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pytest_sbcbench"
PRIVATE = "Private: "


def recipe() -> str:
    """The ``# conftest.py`` block of docs/usage.md's "Extending", unindented."""
    text = (ROOT / "docs/usage.md").read_text(encoding="utf-8")
    found = re.search(r"\n((?:    # conftest\.py\n)(?:(?:    .*)?\n)+)", text)
    assert found, "docs/usage.md has no indented '# conftest.py' block"
    return "\n".join(line[4:] for line in found[1].splitlines()) + "\n"


def package_imports(source: str) -> list[str]:
    """The package modules ``source`` imports from (``""``: the root)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pytest_sbcbench"):
            out.append(node.module or "")
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.startswith("pytest_sbcbench")]
    return out


def test_the_recipe_imports_only_the_public_api() -> None:
    code = recipe()
    assert "def pytest_sbcbench_workloads(config):" in code
    assert package_imports(code) == ["pytest_sbcbench"]
    names = {a.name for node in ast.walk(ast.parse(code)) if isinstance(node, ast.ImportFrom)
             and node.module == "pytest_sbcbench" for a in node.names}
    assert names <= set(pytest_sbcbench.__all__)


def test_every_public_name_resolves() -> None:
    for name in pytest_sbcbench.__all__:
        assert getattr(pytest_sbcbench, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'Session'"):
        getattr(pytest_sbcbench, "Session")  # noqa: B009 - a name that is not public


def test_importing_the_root_imports_none_of_the_public_names() -> None:
    """The names are imported on first use: a pytest run with the plugin installed and unused
    pays for none of them."""
    code = "import pytest_sbcbench, sys; print('\\n'.join(sorted(sys.modules)))"
    modules = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout.split()
    assert [m for m in modules if m.startswith("pytest_sbcbench.")] == ["pytest_sbcbench.version"]


def test_the_recipe_defines_a_workload_the_registry_accepts() -> None:
    space: dict[str, object] = {}
    exec(compile(recipe(), "docs/usage.md", "exec"), space)
    hook = space["pytest_sbcbench_workloads"]
    assert callable(hook)
    (workload,) = check_workloads(hook(None), "the recipe")
    assert workload.name == "7zip" and workload.markers == ("compression",)


def test_the_recipe_runs_as_written(pytester: pytest.Pytester,
                                    copy_benchmarks: Callable[..., None]) -> None:
    """The recipe as a rootdir conftest.py: its workload is collected and runs (measured where
    7zz is installed; skipped with the recipe's own reason where it is not)."""
    pytester.makeconftest(recipe())
    copy_benchmarks("test_registered.py")
    result = pytester.runpytest("benchmarks", "-m", "compression", "--strict-markers",
                                "--sbc-idle-wait", "0", "--sbc-runs", "1", "-rs")
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) + outcomes.get("skipped", 0) == 1, result.outlines
    if outcomes.get("skipped"):
        result.stdout.fnmatch_lines(["*7zz not installed (Debian 12: apt-get install 7zip)*"])


def private_modules() -> list[Path]:
    """Every top-level module and subpackage below the root (a subpackage marks all its
    modules; ``run/`` is a namespace package without a docstring of its own, listed as
    private in docs/architecture.md)."""
    return sorted([p for p in PACKAGE.glob("*.py") if p.name != "__init__.py"]
                  + list(PACKAGE.glob("*/__init__.py")))


def test_every_module_below_the_root_is_marked_private() -> None:
    unmarked = [str(p.relative_to(ROOT)) for p in private_modules()
                if not (ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) or "")
                .startswith(PRIVATE)]
    assert not unmarked, f"modules whose docstring does not start with {PRIVATE!r}: {unmarked}"


def test_the_architecture_lists_the_public_surface() -> None:
    """docs/architecture.md's last section names every public name, and ``run/``."""
    text = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    section = text[text.index("## The public API"):]
    missing = [n for n in pytest_sbcbench.__all__ if f"`{n}`" not in section]
    assert not missing, f"public names docs/architecture.md does not list: {missing}"
    assert "`run/`" in section
