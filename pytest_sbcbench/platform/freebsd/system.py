"""``uname -a`` and ``kenv`` output of a FreeBSD machine, parsed (pure ``str -> value``), and
whether this process runs on FreeBSD."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

KENV = re.compile(r'^([A-Za-z0-9_.,-]+)="(.*)"$')
# FreeBSD machine names -> the ``uname -m`` names Linux prints, which the rest of the package
# (feature families, board profiles, generic profile names) uses.
LINUX_ARCH = {"amd64": "x86_64", "arm64": "aarch64", "aarch64": "aarch64", "i386": "i686",
              "armv7": "armv7l", "armv6": "armv6l", "riscv64": "riscv64",
              "powerpc64": "ppc64", "powerpc64le": "ppc64le", "powerpc": "ppc"}


@dataclass(frozen=True)
class Uname:
    sysname: str
    nodename: str
    release: str
    machine: str


def parse_uname(text: str) -> Uname | None:
    """``uname -a``: ``FreeBSD host 13.1-RELEASE-p4 FreeBSD 13.1-RELEASE-p4 releng/... GENERIC
    amd64``; the version in the middle has spaces, the machine is the last word.  None for
    text that is not one such line."""
    words = text.strip().split()
    if len(words) < 4 or "\n" in text.strip():
        return None
    return Uname(words[0], words[1], words[2], words[-1])


def parse_kenv(text: str) -> dict[str, str]:
    """``kenv``: ``name="value"`` lines (the loader's environment, where the SMBIOS strings
    are: ``smbios.system.product="MacBookPro8,1"``)."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        match = KENV.match(line.strip())
        if match:
            out[match.group(1)] = match.group(2)
    return out


def linux_arch(machine: str | None) -> str | None:
    """The ``uname -m`` name Linux gives the same machine (``amd64`` -> ``x86_64``)."""
    if not machine:
        return None
    return LINUX_ARCH.get(machine, machine)


def host_is_freebsd() -> bool:
    """Whether this process runs on FreeBSD."""
    return sys.platform.startswith("freebsd")
