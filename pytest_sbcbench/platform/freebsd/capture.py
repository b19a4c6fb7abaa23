"""The capture of a FreeBSD machine: the command outputs the package reads, as files.

A capture is a directory holding ``sysctl-a.txt`` (the output of ``sysctl -a``), ``dmesg.boot``
(a copy of ``/var/run/dmesg.boot``) and ``uname-a.txt`` (the output of ``uname -a``); ``kenv.txt``
(``kenv``: the SMBIOS strings that name the machine) and ``zfs-get-all.txt`` (``zfs get all``)
are written when the machine has them, and nothing else is required: a capture of public
outputs may hold only some of the files.  ``sbcbench capture`` writes one on FreeBSD
(:func:`collect`), and :class:`CaptureExecutor` answers the commands the live code runs
(``sysctl``, ``uname``, ``kenv``, ``zfs get``, the read of ``dmesg.boot``) from those files, so
``sbcbench probe --sysroot DIR`` reads a capture exactly as the live code reads the machine.
The files are read through a :class:`~..sysroot.Sysroot` (confined to the directory, bounded
in size): a capture is untrusted input."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ...errors import ToolError
from ..executor import Completed, Executor, Spawned
from ..sysroot import PROC, Sysroot
from .machine import DMESG_BOOT, TIMEOUT_S
from .sysctl import format_entries, parse_sysctl, select
from .system import parse_uname

SYSCTL_FILE = "sysctl-a.txt"
DMESG_FILE = "dmesg.boot"
UNAME_FILE = "uname-a.txt"
KENV_FILE = "kenv.txt"
ZFS_FILE = "zfs-get-all.txt"
CAPTURE_FILES = (SYSCTL_FILE, DMESG_FILE, UNAME_FILE)
OPTIONAL_FILES = (KENV_FILE, ZFS_FILE)
LINUX_MARKER = f"{PROC}/cpuinfo"  # a captured Linux tree


def is_capture(sysroot: Sysroot) -> bool:
    """Whether ``sysroot`` is a FreeBSD capture (one of its command outputs at the top, and no
    Linux ``proc`` tree beside them)."""
    if sysroot.is_host or sysroot.exists(LINUX_MARKER):
        return False
    return any(sysroot.exists(name) for name in (*CAPTURE_FILES, KENV_FILE))


def is_freebsd(executor: Executor, timeout: float = TIMEOUT_S) -> bool:
    """Whether ``executor``'s machine runs FreeBSD (``uname -s``)."""
    try:
        done = executor.run(["uname", "-s"], timeout)
    except OSError:
        return False
    return done.returncode == 0 and done.stdout.strip() == "FreeBSD"


def collect(executor: Executor, timeout: float = TIMEOUT_S) -> dict[str, bytes]:
    """The capture's files, read on ``executor``'s FreeBSD machine.  ``sysctl -a`` and the boot
    messages are required (a :class:`ToolError` names the one that failed); ``uname -a``,
    ``kenv`` and ``zfs get all`` are kept when they answer."""
    files: dict[str, bytes] = {}
    for name, argv, required in ((SYSCTL_FILE, ["sysctl", "-a"], True),
                                 (UNAME_FILE, ["uname", "-a"], False),
                                 (KENV_FILE, ["kenv"], False),
                                 (ZFS_FILE, ["zfs", "get", "all"], False)):
        try:
            done = executor.run(argv, timeout)
        except OSError as exc:
            done = Completed(tuple(argv), 127, "", exc.strerror or str(exc))
        if done.stdout.strip():
            files[name] = done.stdout.encode()
        elif required:
            raise ToolError(argv, done.returncode, done.stderr, f"{executor.name}: no output")
    boot = executor.read(DMESG_BOOT)
    if not boot:
        raise ToolError(["cat", DMESG_BOOT], None, "", f"{executor.name}: {DMESG_BOOT} is "
                        "unreadable")
    files[DMESG_FILE] = boot
    return files


class CaptureExecutor:
    """The commands of a FreeBSD machine, answered from its capture directory.

    ``sysctl [-a] [-n] [-i] [NAME...]`` prints the captured entries (a name is a leaf or a
    node); ``uname [-a|-s|-r|-m|-n]``, ``kenv`` and ``zfs get PROPS DATASET...`` print what was
    captured; reading ``/var/run/dmesg.boot`` gives the copy.  A command whose output the
    capture does not hold fails (exit status 1, the missing file named), as a command that
    cannot run does; anything else is exit status 127.  Nothing runs on this machine."""

    is_capture = True
    is_local = False

    def __init__(self, sysroot: Sysroot) -> None:
        self.sysroot = sysroot
        self._sysctl: dict[str, str] | None = None

    @property
    def name(self) -> str:
        return f"capture:{self.sysroot.root}"

    def _file(self, name: str) -> str | None:
        return self.sysroot.read(name) if self.sysroot.exists(name) else None

    def _absent(self, argv: tuple[str, ...], name: str) -> Completed:
        return Completed(argv, 1, "", f"no {name} in the capture {self.sysroot.root}")

    def _entries(self) -> dict[str, str] | None:
        if self._sysctl is None:
            text = self._file(SYSCTL_FILE)
            if text is None:
                return None
            self._sysctl = parse_sysctl(text)
        return self._sysctl

    def _sysctl_cmd(self, argv: tuple[str, ...]) -> Completed:
        entries = self._entries()
        if entries is None:
            return self._absent(argv, SYSCTL_FILE)
        flags = "".join(a[1:] for a in argv[1:] if a.startswith("-"))
        names = [a for a in argv[1:] if not a.startswith("-")]
        if set(flags) - set("ani") or ("a" in flags) == bool(names):
            return Completed(argv, 64, "", "usage: sysctl [-ani] name ...")
        found, unknown = (entries, []) if "a" in flags else select(entries, names)
        errors = "" if "i" in flags else "".join(f"sysctl: unknown oid '{n}'\n" for n in unknown)
        return Completed(argv, 1 if errors else 0, format_entries(found, "n" in flags), errors)

    def _uname_cmd(self, argv: tuple[str, ...]) -> Completed:
        text = self._file(UNAME_FILE)
        parsed = parse_uname(text or "")
        if text is None or parsed is None:
            ostype = (self._entries() or {}).get("kern.ostype")
            if argv[1:] == ("-s",) and ostype:
                return Completed(argv, 0, f"{ostype}\n", "")
            return self._absent(argv, UNAME_FILE)
        fields = {"-a": text.strip(), "-s": parsed.sysname, "-n": parsed.nodename,
                  "-r": parsed.release, "-m": parsed.machine, "": parsed.sysname}
        flag = argv[1] if len(argv) == 2 else "" if len(argv) == 1 else "?"
        if flag not in fields:
            return Completed(argv, 64, "", "usage: uname [-amnrs]")
        return Completed(argv, 0, f"{fields[flag]}\n", "")

    def _zfs_cmd(self, argv: tuple[str, ...]) -> Completed:
        text = self._file(ZFS_FILE)
        if text is None:
            return self._absent(argv, ZFS_FILE)
        if len(argv) < 4 or argv[1] != "get" or argv[2].startswith("-"):
            return Completed(argv, 64, "", "usage: zfs get property[,...] dataset ...")
        wanted = set(argv[2].split(","))
        lines = text.splitlines()
        rows = [line for line in lines[1:] if len(line.split()) >= 2
                and line.split()[0] in argv[3:] and ("all" in wanted
                                                      or line.split()[1] in wanted)]
        if not rows:
            return Completed(argv, 1, "", f"cannot open '{argv[3]}': dataset does not exist")
        return Completed(argv, 0, "".join(f"{line}\n" for line in [lines[0], *rows]), "")

    def run(self, argv: Sequence[str], timeout: float, env: Mapping[str, str] | None = None,
            cwd: str | None = None) -> Completed:
        args = tuple(str(a) for a in argv)
        if args and args[0] == "sysctl":
            return self._sysctl_cmd(args)
        if args and args[0] == "uname":
            return self._uname_cmd(args)
        if args and args[0] == "zfs":
            return self._zfs_cmd(args)
        if args == ("kenv",):
            text = self._file(KENV_FILE)
            return self._absent(args, KENV_FILE) if text is None else Completed(args, 0, text, "")
        return Completed(args, 127, "", f"{args[0] if args else ''}: not answered by a capture")

    def read(self, path: str) -> bytes | None:
        if path != DMESG_BOOT:
            return None
        text = self._file(DMESG_FILE)
        return text.encode() if text is not None else None

    def put(self, local: Path, remote: str) -> None:
        raise ToolError(["put", remote], None, "", f"{self.name}: a capture is read-only")

    def get(self, remote: str, local: Path) -> None:
        raise ToolError(["get", remote], None, "", f"{self.name}: nothing to copy from a capture")

    def spawn(self, argv: Sequence[str], env: Mapping[str, str] | None = None) -> Spawned:
        raise ToolError(list(argv), None, "", f"{self.name}: a capture runs no command")
