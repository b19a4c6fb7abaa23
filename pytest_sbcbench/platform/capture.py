"""``sbcbench capture``: the files the platform layer reads, as a tarball ``--sbc-sysroot`` replays.

The copy runs on the target as a POSIX ``sh`` program through an :class:`~.executor.Executor`
(``cat``, ``mkdir``, ``ln``, ``tar``; no Python on the board).  ``/proc`` and ``/sys`` files
cannot be archived directly: their sizes are lies (0 or 4096 bytes), so each one is copied with
``cat`` into a staging tree first, which ``tar`` then packs.  A block device's ``device`` link is
re-created as a link into the captured tree so :meth:`.sysroot.Sysroot.resolve` still sees the
bus (mmc, ata) on replay.  The controller fetches the tar, checks every member (relative names,
no ``..``, links only where expected), adds ``sbcbench-capture.json`` (where and when) and
writes it gzip-compressed.  Extract it and point ``--sbc-sysroot`` or ``sbcbench probe
--sysroot`` at the directory.  A FreeBSD machine has no ``/proc`` or ``/sys`` to copy: its
capture holds the outputs of ``sysctl -a``, ``/var/run/dmesg.boot`` and ``uname -a`` (and
``kenv``, ``zfs get all`` where they answer; :mod:`.freebsd.capture`).
"""

from __future__ import annotations

import datetime as _dt
import io
import json
import posixpath
import tarfile
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..errors import SchemaError, ToolError
from ..version import __version__
from .executor import Executor, LocalExecutor
from .freebsd.capture import collect, is_freebsd
from .sysroot import (
    ATA_LINK_DIR,
    BLOCK_DIR,
    CPU_DIR,
    DEVFREQ_DIR,
    DEVICE_TREE_DIRS,
    DMI_DIR,
    ETC,
    HWMON_DIR,
    MMC_DEBUG_DIR,
    POLICY_DIR,
    PROC,
    SYS,
    THERMAL_DIR,
)

META = "sbcbench-capture.json"
SCHEMA = "sbcbench-capture/1"
DT_BASE = DEVICE_TREE_DIRS[1]

# Shell glob patterns relative to the root: what probe, facts, board detection, the physics
# limits, the samplers and the storage interface read (see the modules using Sysroot).
PATTERNS: tuple[str, ...] = (
    f"{PROC}/cpuinfo", f"{PROC}/cmdline", f"{PROC}/crypto", f"{PROC}/meminfo", f"{PROC}/stat",
    f"{PROC}/version",
    f"{PROC}/{SYS}/kernel/osrelease", f"{PROC}/{SYS}/kernel/random/boot_id",
    f"{ETC}/os-release", "usr/lib/os-release",
    f"{DT_BASE}/model", f"{DT_BASE}/compatible",
    *(f"{DMI_DIR}/{name}" for name in ("product_name", "product_version", "sys_vendor",
                                       "board_name", "board_vendor", "bios_version")),
    f"{CPU_DIR}/online", f"{CPU_DIR}/present", f"{CPU_DIR}/possible",
    f"{CPU_DIR}/cpu[0-9]*/online", f"{CPU_DIR}/cpu[0-9]*/cpufreq/*",
    f"{CPU_DIR}/cpu[0-9]*/cpufreq/stats/time_in_state", f"{CPU_DIR}/cpu[0-9]*/topology/*",
    f"{CPU_DIR}/cpu[0-9]*/cache/index[0-9]*/*",
    f"{POLICY_DIR}/policy*/*", f"{POLICY_DIR}/policy*/stats/time_in_state",
    f"{THERMAL_DIR}/thermal_zone*/type", f"{THERMAL_DIR}/thermal_zone*/temp",
    f"{THERMAL_DIR}/thermal_zone*/trip_point_*",
    f"{HWMON_DIR}/hwmon*/name", f"{HWMON_DIR}/hwmon*/temp*_input",
    f"{DEVFREQ_DIR}/*/governor", f"{DEVFREQ_DIR}/*/cur_freq", f"{DEVFREQ_DIR}/*/max_freq",
    f"{BLOCK_DIR}/*/queue/rotational", f"{BLOCK_DIR}/*/queue/scheduler", f"{BLOCK_DIR}/*/size",
    f"{ATA_LINK_DIR}/link*/sata_spd", f"{MMC_DEBUG_DIR}/mmc*/ios",
)

_HEAD = r"""r=${1%/}
stage=$(mktemp -d "${TMPDIR:-/tmp}/sbcbench-capture.XXXXXX") || exit 1
copy() {
  [ -f "$1" ] && [ -r "$1" ] || return 0
  rel=${1#"$r"/}
  mkdir -p "$stage/${rel%/*}" && { cat "$1" > "$stage/$rel"; } 2>/dev/null \
    || rm -f "$stage/$rel"
}
"""
# A block device's bus link, made relative to the captured tree (cd -P/pwd -P are POSIX).
_LINKS = r"""for d in "$r"/@BLOCK@/*; do
  [ -e "$d/device" ] || continue
  t=$(cd -P "$d/device" 2>/dev/null && pwd -P) || continue
  rr=$( (cd -P "$r/" && pwd -P) ); rr=${rr%/}
  n=${d##*/}; mkdir -p "$stage/@BLOCK@/$n"
  ln -s "../../..${t#"$rr"}" "$stage/@BLOCK@/$n/device"
done
tar -cf "$stage.tar" -C "$stage" . && rm -rf "$stage" && echo "$stage.tar"
"""


def capture_script() -> str:
    """The sh program: ``sh -c SCRIPT sbcbench-capture ROOT``; prints the tar's path."""
    loops = "".join(f'for f in "$r"/{p}; do copy "$f"; done\n' for p in PATTERNS)
    return _HEAD + loops + _LINKS.replace("@BLOCK@", BLOCK_DIR)


@dataclass(frozen=True)
class Captured:
    """Where the tarball went and what it holds."""

    path: Path
    files: int
    links: int
    source: str


def _member_ok(member: tarfile.TarInfo) -> str | None:
    """Why a member of the board's tar is refused, or None."""
    name = posixpath.normpath(member.name)
    if name == ".":
        return None
    if name.startswith(("/", "..")) or "/../" in f"/{name}/":
        return f"escapes the tree: {member.name!r}"
    if member.issym():
        target = posixpath.normpath(posixpath.join(posixpath.dirname(name), member.linkname))
        if not (name.startswith(f"{BLOCK_DIR}/") and name.endswith("/device")) \
                or target.startswith(("/", "..")):
            return f"unexpected link {member.name!r} -> {member.linkname!r}"
        return None
    if not (member.isfile() or member.isdir()):
        return f"not a file or directory: {member.name!r}"
    return None


def repack(board_tar: Path, out: Path, source: str, root: str) -> Captured:
    """Check the board's tar member by member and write it gzip-compressed with metadata."""
    files = links = 0
    with tarfile.open(board_tar) as src, tarfile.open(out, "w:gz") as dst:
        for member in src.getmembers():
            reason = _member_ok(member)
            if reason is not None:
                raise SchemaError(board_tar, SCHEMA, f"capture refused: {reason}")
            member.name = posixpath.normpath(member.name)
            if member.name == ".":
                continue
            member.uid = member.gid = 0
            member.uname = member.gname = ""
            data = src.extractfile(member) if member.isfile() else None
            files += member.isfile()
            links += member.issym()
            dst.addfile(member, data)
        meta = json.dumps({"schema": SCHEMA, "source": source, "root": root,
                           "created": _dt.datetime.now(_dt.timezone.utc).isoformat(),
                           "sbcbench": __version__, "files": files}, indent=2).encode()
        info = tarfile.TarInfo(META)
        info.size = len(meta)
        dst.addfile(info, io.BytesIO(meta))
    if files == 0:
        raise ToolError(["sbcbench", "capture"], None, "", f"{source}: nothing was captured")
    return Captured(out, files, links, source)


def pack(files: Mapping[str, bytes], out: Path, source: str, root: str) -> Captured:
    """Write ``files`` (name -> content, a FreeBSD machine's command outputs) as the tarball
    ``out`` with the metadata :func:`repack` writes."""
    with tarfile.open(out, "w:gz") as dst:
        meta = {"schema": SCHEMA, "source": source, "root": root, "os": "FreeBSD",
                "created": _dt.datetime.now(_dt.timezone.utc).isoformat(),
                "sbcbench": __version__, "files": len(files)}
        for name, data in {**files, META: json.dumps(meta, indent=2).encode()}.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            dst.addfile(info, io.BytesIO(data))
    return Captured(out, len(files), 0, source)


def capture(executor: Executor, out: Path, root: str = "/", timeout: float = 300) -> Captured:
    """Capture ``root`` on ``executor``'s target into the tarball ``out``.  A FreeBSD target
    (``uname -s``) is captured as its command outputs (:mod:`.freebsd.capture`: ``sysctl -a``,
    ``dmesg.boot``, ``uname -a`` ...; the running system, whatever ``root``)."""
    if is_freebsd(executor):
        return pack(collect(executor), out, executor.name, root)
    argv = ["sh", "-c", capture_script(), "sbcbench-capture", root]
    done = executor.run(argv, timeout=timeout)
    remote = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    if done.returncode != 0 or not remote.endswith(".tar"):
        raise ToolError([*argv[:2], "<capture script>", root], done.returncode, done.stderr,
                        f"{executor.name}: capture failed")
    with tempfile.TemporaryDirectory(prefix="sbcbench-capture-") as tmp:
        local = Path(tmp) / "board.tar"
        try:
            executor.get(remote, local)
        finally:
            executor.run(["rm", "-f", remote], timeout=60)
        return repack(local, out, executor.name, root)


def extract(tarball: Path, dest: Path) -> Path:
    """Unpack a capture into ``dest`` (checked again member by member) for ``--sbc-sysroot``."""
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarball) as tar:
        for member in tar.getmembers():
            reason = _member_ok(member)
            if reason is not None:
                raise SchemaError(tarball, SCHEMA, f"refused: {reason}")
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="data")
        else:  # Python < 3.10.12 / 3.11.4: the members were checked above
            tar.extractall(dest)
    return dest


def run_capture(lg_env: Path | None, out: Path | None, role: str = "main",
                root: str = "/") -> Captured:
    """``sbcbench capture``: the labgrid target of ``lg_env`` (its drivers are cleaned up
    afterwards), else this machine."""
    if lg_env is None:
        return capture(LocalExecutor(), out or Path("sbcbench-capture-local.tar.gz"), root)
    from .labgrid_executor import LabgridExecutor, open_target

    target = open_target(lg_env, role)
    try:
        executor = LabgridExecutor(target)
        name = executor.name.replace(":", "-")
        return capture(executor, out or Path(f"sbcbench-capture-{name}.tar.gz"), root)
    finally:
        target.cleanup()
