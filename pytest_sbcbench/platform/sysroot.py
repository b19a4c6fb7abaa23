"""The single gateway to the kernel's files.

:class:`Sysroot` is the only code in the package that names the ``/proc``, ``/sys`` and ``/etc``
trees.  Everything platform-related takes a Sysroot, so a test (or a user replaying a captured
board) can point it at any directory laid out like a root file system.

A captured tree is untrusted input: its reads are confined to the tree (a symlink leading out
of it, ``boot_id -> /etc/shadow`` say, is an error naming the link, never a read of this
machine's file) and take only regular files of bounded size (a FIFO cannot hang the run).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ..errors import SysrootError
from ..fileio import InputFileError, read_regular


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Final = _Required()

PROC: Final = "proc"
SYS: Final = "sys"
ETC: Final = "etc"
DEV: Final = "dev"
BOOT_ID: Final = f"{PROC}/sys/kernel/random/boot_id"  # relative to the root, like every path

DEVICE_TREE_DIRS: Final = ("proc/device-tree", "sys/firmware/devicetree/base")
DMI_DIR: Final = "sys/class/dmi/id"
CPU_DIR: Final = "sys/devices/system/cpu"
POLICY_DIR: Final = "sys/devices/system/cpu/cpufreq"
DEVFREQ_DIR: Final = "sys/class/devfreq"
THERMAL_DIR: Final = "sys/class/thermal"
HWMON_DIR: Final = "sys/class/hwmon"
BLOCK_DIR: Final = "sys/block"
ATA_LINK_DIR: Final = "sys/class/ata_link"
MMC_DEBUG_DIR: Final = "sys/kernel/debug"
MAX_KERNEL_FILE: Final = 16 << 20  # /proc/interrupts of a 256-CPU machine is well under 1 MiB


@dataclass(frozen=True)
class Sysroot:
    """A root directory to read kernel files from; ``/`` is the running machine."""

    root: Path = Path("/")

    def __post_init__(self) -> None:
        object.__setattr__(self, "root", Path(self.root))

    @property
    def is_host(self) -> bool:
        """True when this sysroot is the machine the tests are running on."""
        try:
            return self.root.resolve() == Path(os.sep).resolve()
        except OSError:
            return False

    def path(self, rel: str) -> Path:
        """The absolute path of ``rel`` (``"proc/cpuinfo"``) under this root."""
        return self.root / rel.lstrip("/")

    def confined(self, rel: str) -> Path:
        """The real path ``rel`` leads to, which must lie inside the tree: a symlink out of a
        captured tree is a :class:`SysrootError` naming the link (the running machine's root
        holds everything, so ``/`` is not checked)."""
        path = self.path(rel)
        if self.root == Path(os.sep):
            return path
        root = os.path.realpath(self.root)
        real = os.path.realpath(path)
        if real != root and not real.startswith(root.rstrip(os.sep) + os.sep):
            raise SysrootError(path, f"leads out of the sysroot {self.root} (a symlink to a "
                                     "file outside the captured tree): refusing to read it")
        return Path(real)

    def exists(self, rel: str) -> bool:
        return self.confined(rel).exists()

    def read(self, rel: str, default: str | _Required = REQUIRED) -> str:
        """Read a text file.  Without ``default`` a missing or unreadable file raises
        :class:`SysrootError`; with it, such a file gives ``default``.  A link out of a
        captured tree, a FIFO, a device or a file of over 16 MiB is a :class:`SysrootError`
        either way: not a missing file, a broken tree."""
        path = self.confined(rel)
        try:
            return read_regular(path, MAX_KERNEL_FILE).decode("utf-8", errors="replace")
        except InputFileError as exc:
            raise SysrootError(self.path(rel), exc.strerror or str(exc)) from exc
        except OSError as exc:
            if isinstance(default, _Required):
                raise SysrootError(self.path(rel), exc.strerror or str(exc)) from exc
            return default

    def read_int(self, rel: str) -> int | None:
        """An optional integer file (sysfs style); ``None`` when absent or not a number."""
        text = self.read(rel, default="").strip()
        try:
            return int(text)
        except ValueError:
            return None

    def listdir(self, rel: str) -> list[str]:
        """Sorted entry names of a directory; empty when it does not exist."""
        try:
            return sorted(os.listdir(self.confined(rel)))
        except OSError:
            return []

    def resolve(self, rel: str) -> str | None:
        """A symlink's target as a path relative to the root (sysfs device links)."""
        try:
            target = self.path(rel).resolve()
            return str(target.relative_to(self.root.resolve()))
        except (OSError, ValueError):
            return None

    def write(self, rel: str, text: str) -> None:
        """Write a sysfs attribute (governors); errors name the path."""
        path = self.confined(rel)
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise SysrootError(path, exc.strerror or str(exc)) from exc

    def drop_caches(self) -> None:
        """Drop the page cache (root only): ``echo 3 > /proc/sys/vm/drop_caches``."""
        self.write(f"{PROC}/sys/vm/drop_caches", "3\n")

    # Named readers: the kernel files the package uses, in one place.
    def cpuinfo(self) -> str:
        return self.read(f"{PROC}/cpuinfo")

    def meminfo(self, default: str | _Required = REQUIRED) -> str:
        return self.read(f"{PROC}/meminfo", default)

    def proc_crypto(self, default: str | _Required = REQUIRED) -> str:
        return self.read(f"{PROC}/crypto", default)

    def proc_stat(self, default: str | _Required = REQUIRED) -> str:
        """System-wide CPU time counters (the ``cpu`` lines)."""
        return self.read(f"{PROC}/stat", default)

    def mounts(self, default: str | _Required = REQUIRED) -> str:
        """The mount table as this process sees it."""
        return self.read(f"{PROC}/self/mounts", default)

    def self_status(self, default: str | _Required = REQUIRED) -> str:
        """This process's status (``Cpus_allowed_list``: the CPUs it may run on)."""
        return self.read(f"{PROC}/self/status", default)

    def process_ids(self) -> list[int]:
        """The process ids listed under the proc tree."""
        return sorted(int(name) for name in self.listdir(PROC) if name.isdigit())

    def process_stat(self, pid: int) -> str:
        """One process's ``stat`` line; empty when the process is gone."""
        return self.read(f"{PROC}/{pid}/stat", default="")

    def kernel_release(self) -> str:
        return self.read(f"{PROC}/sys/kernel/osrelease", default="").strip()

    def boot_id(self) -> str | None:
        """The kernel's random id of this boot (a new one every boot), or None when absent."""
        return self.read(BOOT_ID, default="").strip() or None

    def uptime_s(self) -> float | None:
        """Seconds since boot (the first field of the uptime file), or None when unreadable."""
        fields = self.read(f"{PROC}/uptime", default="").split()
        try:
            return float(fields[0]) if fields else None
        except ValueError:
            return None

    def os_release(self) -> str:
        text = self.read(f"{ETC}/os-release", default="")
        return text or self.read("usr/lib/os-release", default="")

    def device_tree(self, name: str) -> str | None:
        """A device-tree property (``model``, ``compatible``), raw with its NUL bytes."""
        for base in DEVICE_TREE_DIRS:
            text = self.read(f"{base}/{name}", default="")
            if text:
                return text
        return None

    def dmi(self, name: str) -> str | None:
        """A DMI identification field (``product_name``, ``sys_vendor``) stripped, or None."""
        text = self.read(f"{DMI_DIR}/{name}", default="").strip()
        return text or None

    def cpu_attr(self, cpu: int, rel: str) -> str | None:
        """A per-CPU sysfs attribute such as ``cpufreq/cpuinfo_max_freq``."""
        text = self.read(f"{CPU_DIR}/cpu{cpu}/{rel}", default="").strip()
        return text or None
