"""Whether a sysroot is a FreeBSD machine: a FreeBSD capture directory, or this machine when it
runs FreeBSD; and the reader for it."""

from __future__ import annotations

from ..executor import LocalExecutor
from ..sysroot import Sysroot
from .capture import CaptureExecutor, is_capture
from .machine import FreeBsd
from .system import host_is_freebsd


def freebsd_machine(sysroot: Sysroot) -> FreeBsd | None:
    """The FreeBSD machine ``sysroot`` stands for: a capture's stand-in for a capture directory,
    this machine (its own commands) at ``/`` on FreeBSD; None for anything else (a Linux tree,
    this machine on Linux)."""
    if is_capture(sysroot):
        return FreeBsd(CaptureExecutor(sysroot))
    if sysroot.is_host and host_is_freebsd():
        return FreeBsd(LocalExecutor())
    return None
