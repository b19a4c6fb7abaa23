"""FreeBSD as a platform: the probe from ``sysctl`` and the boot messages, the sampler's clocks
and temperatures from ``sysctl`` and its load and memory from psutil, the capture of a FreeBSD
machine, and ZFS's ARC for the storage workload.

Every reading goes through the executor seam (:class:`.machine.FreeBsd`): the live machine's
commands, or a capture's stand-in (:class:`.capture.CaptureExecutor`) that answers them from the
captured outputs.  Parsers are pure ``str -> value`` functions (:mod:`.sysctl`, :mod:`.dmesg`,
:mod:`.system`, :mod:`.zfs`)."""

from .capture import (
    CAPTURE_FILES,
    OPTIONAL_FILES,
    CaptureExecutor,
    collect,
    is_capture,
    is_freebsd,
)
from .detect import freebsd_machine
from .dmesg import BootFacts, last_boot, parse_dmesg
from .facts import freebsd_facts
from .features import boot_features
from .host import PsutilHost
from .identity import FreeBsdIdentity, identify
from .machine import DMESG_BOOT, FreeBsd
from .readings import FreeBsdReadings
from .sysctl import freq_levels, parse_sysctl, temperature_c
from .system import host_is_freebsd, linux_arch, parse_kenv, parse_uname
from .zfs import ArcDecision, arc_cache_defeat, parse_zfs_get

__all__ = [
    "CAPTURE_FILES", "DMESG_BOOT", "OPTIONAL_FILES", "ArcDecision", "BootFacts",
    "CaptureExecutor", "FreeBsd", "FreeBsdIdentity", "FreeBsdReadings", "PsutilHost",
    "arc_cache_defeat", "boot_features", "collect", "freebsd_facts", "freebsd_machine",
    "freq_levels", "host_is_freebsd", "identify", "is_capture", "is_freebsd", "last_boot",
    "linux_arch", "parse_dmesg", "parse_kenv", "parse_sysctl", "parse_uname", "parse_zfs_get",
    "temperature_c",
]
