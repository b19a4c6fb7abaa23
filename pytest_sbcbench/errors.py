"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

The one error hierarchy of pytest-sbcbench.

Every failure the tool detects is an :class:`SbcBenchError` carrying the facts a user needs to
act on it (a path, a command line and its stderr, a schema version).  Degraded-but-continuing
situations are :class:`SbcBenchWarning`, a :class:`pytest.PytestWarning`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest


class SbcBenchError(Exception):
    """Base class of every error raised by pytest-sbcbench.

    Picklable whatever a subclass's ``__init__`` takes (its message and attributes are
    carried, the constructor is not called again), so an error raised in a worker process
    (``sbcbench publish --jobs N``) reaches the parent instead of killing the pool's result
    thread and leaving the command waiting forever."""

    def __reduce__(self) -> tuple[object, ...]:
        return _rebuilt, (type(self), self.args, dict(self.__dict__))


def _rebuilt(cls: type[SbcBenchError], args: tuple[object, ...],
             state: dict[str, object]) -> SbcBenchError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class SysrootError(SbcBenchError):
    """A required file under the sysroot is missing or unreadable."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


class ParseError(SbcBenchError):
    """Tool output or a data file that cannot be understood.  Never "missing data"."""

    def __init__(self, what: str, reason: str, excerpt: str = "") -> None:
        self.what = what
        self.reason = reason
        self.excerpt = excerpt
        detail = f"\n--- start of input ---\n{excerpt}" if excerpt else ""
        super().__init__(f"cannot parse {what}: {reason}{detail}")


class ToolError(SbcBenchError):
    """An external tool failed, timed out or printed nothing usable."""

    def __init__(
        self, argv: Sequence[str], returncode: int | None, stderr: str, reason: str
    ) -> None:
        self.argv = tuple(argv)
        self.returncode = returncode
        self.stderr = stderr
        self.reason = reason
        tail = "\n".join(stderr.strip().splitlines()[-30:])
        super().__init__(
            f"{reason}\n  command: {' '.join(self.argv)}\n  exit code: {returncode}"
            f"\n  stderr:\n{tail or '    (empty)'}"
        )


NO_SCHEMA_FIELD = type("NoSchemaField", (), {"__repr__": lambda self: "no schema field"})()
"""The ``version`` of a :class:`SchemaError` for a document that has no ``schema`` field."""


def schema_field(data: object) -> object:
    """The ``schema`` of a parsed document, or :data:`NO_SCHEMA_FIELD` when it has none."""
    if isinstance(data, dict) and "schema" in data:
        return data["schema"]
    return NO_SCHEMA_FIELD


class SchemaError(SbcBenchError):
    """A JSON document (baseline, results, board profile) of an unknown or broken schema.

    ``version`` is the schema the document named, :data:`NO_SCHEMA_FIELD` when it named none,
    or None when the document was never read that far (unreadable, not JSON): then the
    message says nothing about a schema."""

    def __init__(self, path: Path | str, version: object, reason: str) -> None:
        self.path = path
        self.version = version
        self.reason = reason
        if version is NO_SCHEMA_FIELD:
            suffix = " (no schema field)"
        elif version is None:
            suffix = ""
        else:
            suffix = f" (schema {version!r})"
        super().__init__(f"{path}: {reason}{suffix}")


class SignatureError(SbcBenchError):
    """A baseline that is unsigned, or whose Ed25519 signature does not match."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


class BuildError(ToolError):
    """A build that failed; the message carries the command and the log's last lines."""


class CheckoutError(SbcBenchError):
    """A commit that cannot be pinned: unknown, ambiguous, a branch name, or the wrong tree."""


class BoardError(SbcBenchError):
    """An unknown board name, or a board that is not the machine being measured."""


class BoardLost(BoardError):
    """The board stopped answering mid-run (its emulator exited, its console closed): nothing
    more can be measured on it in this boot."""


class SbcBenchWarning(pytest.PytestWarning):
    """A measurement continues, but with less than the user asked for."""
