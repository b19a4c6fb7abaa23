"""A FreeBSD machine, read through the executor seam: thin readers over the commands it answers.

Everything the package learns about a FreeBSD machine comes from four sources: ``sysctl``
(``-a`` once, or named entries each reading), the boot messages (``/var/run/dmesg.boot``),
``uname -a`` and ``kenv``.  :class:`FreeBsd` asks them of an :class:`~..executor.Executor`:
this machine's, a board's, or a capture's stand-in that answers from the captured outputs
(:class:`.capture.CaptureExecutor`), so live machines and captures are read by the same code.
A source that fails is recorded in :attr:`FreeBsd.missing` (why), never guessed."""

from __future__ import annotations

from ..executor import Executor
from .dmesg import BootFacts, parse_dmesg
from .sysctl import parse_sysctl
from .system import Uname, parse_kenv, parse_uname

DMESG_BOOT = "/var/run/dmesg.boot"
TIMEOUT_S = 60.0


class FreeBsd:
    """The sources of one FreeBSD machine; ``sysctl -a``, the boot messages, ``uname`` and
    ``kenv`` are read once (they describe the boot), named ``sysctl`` entries at each call."""

    def __init__(self, executor: Executor, timeout: float = TIMEOUT_S) -> None:
        self.executor = executor
        self.timeout = timeout
        self.missing: dict[str, str] = {}
        self._all: dict[str, str] | None = None
        self._boot: BootFacts | None = None
        self._uname: Uname | bool | None = False
        self._kenv: dict[str, str] | None = None

    @property
    def live(self) -> bool:
        """False when the executor answers from a capture (nothing there changes)."""
        return not getattr(self.executor, "is_capture", False)

    def _run(self, argv: list[str]) -> str | None:
        """``argv``'s output; None (and why, in :attr:`missing`) when it could not run or
        printed nothing but an error."""
        try:
            done = self.executor.run(argv, self.timeout)
        except OSError as exc:  # LocalExecutor: the command does not exist here
            self.missing[argv[0]] = f"{' '.join(argv)}: {exc.strerror or exc}"
            return None
        if done.returncode != 0 and not done.stdout.strip():
            why = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
            self.missing[argv[0]] = f"{' '.join(argv)}: {why[0][:300]}"
            return None
        return done.stdout

    def sysctl_all(self) -> dict[str, str]:
        """Every entry of ``sysctl -a`` (read once)."""
        if self._all is None:
            self._all = parse_sysctl(self._run(["sysctl", "-a"]) or "")
        return self._all

    def sysctl(self, *names: str) -> dict[str, str]:
        """The entries at or below ``names`` now (``sysctl -i``: unknown names print nothing)."""
        text = self._run(["sysctl", "-i", *names]) if names else ""
        return parse_sysctl(text or "")

    def boot(self) -> BootFacts:
        """The last boot's messages, parsed (read once)."""
        if self._boot is None:
            raw = self.executor.read(DMESG_BOOT)
            if raw is None:
                self.missing["dmesg.boot"] = f"{DMESG_BOOT} is unreadable"
            self._boot = parse_dmesg((raw or b"").decode("utf-8", "replace"))
        return self._boot

    def uname(self) -> Uname | None:
        if self._uname is False:
            self._uname = parse_uname(self._run(["uname", "-a"]) or "")
        return self._uname if isinstance(self._uname, Uname) else None

    def kenv(self) -> dict[str, str]:
        """The loader's environment (SMBIOS strings), read once; empty where kenv is absent."""
        if self._kenv is None:
            self._kenv = parse_kenv(self._run(["kenv"]) or "")
        return self._kenv
