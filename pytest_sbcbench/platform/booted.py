"""What was booted: the identity of a boot that the history orders labels by and that a
candidate's boots must share (issues 28 and 29).

``kernel_release``; ``kernel_commit`` (``--sbc-kernel-commit``, else the ``-g<sha>`` suffix a
kernel built from git puts in its release); ``kernel_image`` (a labgrid env's images key) and
``image_sha256`` (that image file's SHA-256) where the board exposes them, else None;
``cmdline`` (the kernel command line); ``cpus_online`` (the kernel's online CPU list, such as
``0-3``); ``dt_model`` and ``dt_compatible`` (the device tree's, if any).  A field that is None
is unknown, and never differs from anything."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .parse import parse_nul_strings
from .sysroot import CPU_DIR, PROC, Sysroot

FIELDS = ("kernel_release", "kernel_commit", "kernel_image", "image_sha256", "cmdline",
          "cpus_online", "dt_model", "dt_compatible")
_GIT_SUFFIX = re.compile(r"-g([0-9a-f]{7,40})(?![0-9a-f])")
_COMMIT = re.compile(r"[0-9a-fA-F]{7,64}")
_CHUNK = 1 << 20


def commit_of(release: str | None) -> str | None:
    """The commit a release names in its ``-g<sha>`` suffix (``6.12.0-rc1-00042-gdeadbeef12``:
    ``deadbeef12``), else None."""
    found = _GIT_SUFFIX.search(release or "")
    return found.group(1) if found else None


def valid_commit(text: str) -> str | None:
    """Why ``text`` is not a commit hash (7 to 64 hex digits), else None."""
    return None if _COMMIT.fullmatch(text) else "expected a commit hash (7 to 64 hex digits)"


def file_sha256(path: Path) -> str | None:
    """SHA-256 of a regular file, None when it cannot be read."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as stream:
            for chunk in iter(lambda: stream.read(_CHUNK), b""):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def lab_image(target: Any) -> tuple[str | None, str | None]:
    """The images key a labgrid target's QEMUDriver boots and its file's SHA-256 (None, None
    without one; the hash None when the file cannot be read)."""
    from .labgrid_power import kernel_image

    key = kernel_image(target) if target is not None else None
    if key is None:
        return None, None
    try:
        path = Path(target.env.config.get_image_path(key))
    except Exception:  # labgrid's own errors for a key without a file; informative only
        return key, None
    return key, file_sha256(path) if path.is_file() else None


def _one_line(text: str) -> str | None:
    return " ".join(text.replace("\0", " ").split()) or None


def booted(sysroot: Sysroot, commit: str | None = None, image: str | None = None,
           image_sha256: str | None = None) -> dict[str, Any]:
    """This boot's identity, read through ``sysroot`` (plain data, keys :data:`FIELDS`)."""
    release = sysroot.kernel_release() or None
    compatible = parse_nul_strings(sysroot.device_tree("compatible") or "")
    return {
        "kernel_release": release,
        "kernel_commit": (commit.lower() if commit else None) or commit_of(release),
        "kernel_image": image,
        "image_sha256": image_sha256,
        "cmdline": _one_line(sysroot.read(f"{PROC}/cmdline", default="")),
        "cpus_online": _one_line(sysroot.read(f"{CPU_DIR}/online", default="")),
        "dt_model": _one_line(sysroot.device_tree("model") or ""),
        "dt_compatible": ", ".join(compatible) or None,
    }


def differences(earlier: Mapping[str, Any], now: Mapping[str, Any]) -> list[str]:
    """The fields known on both sides whose values differ (``cpus_online 0-3 -> 0``)."""
    return [f"{k} {earlier[k]} -> {now[k]}" for k in FIELDS
            if earlier.get(k) is not None and now.get(k) is not None and earlier[k] != now[k]]


def describe(identity: Mapping[str, Any]) -> str:
    """One line: the known fields, ``kernel_release=6.12 cpus_online=0-3 ...``."""
    return " ".join(f"{k}={identity[k]}" for k in FIELDS if identity.get(k) is not None) \
        or "nothing known"
