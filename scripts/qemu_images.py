"""The images of scripts/qemu_lab.py: Debian packages by name, unpacked into a kernel and a
busybox initramfs, cached under the package versions they hold.

apt runs with a configuration of its own per suite and architecture (``<lab>/apt/SUITE-ARCH``:
its own sources.list, lists, cache, dpkg status and ``APT::Architecture``; ``APT_CONFIG`` points
at it and ``Dir::Etc::main``/``parts`` away from the system's, which is neither read nor
changed).  ``apt-get download`` fetches, ``dpkg-deb -x`` unpacks: no foreign code runs here.
An image lives in ``<lab>/images/NAME-KEY`` where KEY hashes the package versions and the
recipe (:data:`RECIPE`, the files of :data:`FILES`); ``manifest.json``, written last, marks it
complete and lists the versions.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

RECIPE = 1  # bump when the image recipe (init, inittab, pruning) changes: every image rebuilds
MIRROR = "http://deb.debian.org/debian"
SECURITY = "http://deb.debian.org/debian-security"
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
USERLAND = ("busybox-static", "openssl")  # with their Depends and Pre-Depends, recursively
ALONE = ("base-files",)  # without its dependencies: for /etc/os-release, /etc/debian_version
PROMPT = "sbc-lab # "


@dataclass(frozen=True)
class Kernel:
    suite: str
    arch: str
    series: str  # the version the resolved kernel must start with ("6.1", "6.12")

    @property
    def name(self) -> str:
        return f"kernel-{self.series}-{self.arch}"


INIT = """#!/bin/busybox sh
/bin/busybox mkdir -p /proc /sys /dev /tmp /run /root
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev
/bin/busybox mount -t tmpfs tmpfs /tmp
/bin/busybox mount -t tmpfs tmpfs /root
/bin/busybox --install -s
echo 1 > /proc/sys/kernel/printk
hostname sbc-lab
exec /bin/busybox init
"""
INITTAB = """::respawn:/bin/cttyhack /bin/sh -l
::ctrlaltdel:/sbin/reboot
::shutdown:/bin/umount -a -r
"""
PROFILE = f"""export HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin PS1='{PROMPT}'
cd /root
"""
FILES = {"init": INIT, "etc/inittab": INITTAB, "etc/profile": PROFILE,
         "etc/passwd": "root:x:0:0:root:/root:/bin/sh\n", "etc/group": "root:x:0:\n",
         "etc/hostname": "sbc-lab\n"}
PRUNE = ("usr/share/doc", "usr/share/man", "usr/share/locale", "usr/share/lintian",
         "usr/share/info", "usr/share/bug")


def say(message: str) -> None:
    print(f"qemu_lab: {message}", file=sys.stderr, flush=True)


class Apt:
    """apt for one suite and architecture, configured in ``<lab>/apt/SUITE-ARCH`` only."""

    def __init__(self, lab: Path, suite: str, arch: str) -> None:
        self.suite, self.arch = suite, arch
        self.root = lab / "apt" / f"{suite}-{arch}"
        self.debs = lab / "debs" / f"{suite}-{arch}"
        self.conf = self.root / "apt.conf"
        self._write_config()

    def _write_config(self) -> None:
        r = self.root
        for sub in ("etc/apt.conf.d", "etc/sources.list.d", "etc/preferences.d",
                    "lists/partial", "cache/archives/partial"):
            (r / sub).mkdir(parents=True, exist_ok=True)
        self.debs.mkdir(parents=True, exist_ok=True)
        (r / "status").touch()
        s = self.suite
        sources = [f"deb [signed-by={KEYRING}] {MIRROR} {s} main",
                   f"deb [signed-by={KEYRING}] {MIRROR} {s}-updates main",
                   f"deb [signed-by={KEYRING}] {SECURITY} {s}-security main"]
        (r / "etc/sources.list").write_text("\n".join(sources) + "\n")
        options = {
            "Dir::Etc::main": "/dev/null", "Dir::Etc::parts": f"{r}/etc/apt.conf.d",
            "Dir::Etc::sourcelist": f"{r}/etc/sources.list",
            "Dir::Etc::sourceparts": f"{r}/etc/sources.list.d",
            "Dir::Etc::preferences": f"{r}/etc/preferences",
            "Dir::Etc::preferencesparts": f"{r}/etc/preferences.d",
            "Dir::State": str(r), "Dir::State::lists": f"{r}/lists",
            "Dir::State::status": f"{r}/status", "Dir::Cache": f"{r}/cache",
            "APT::Architecture": self.arch, "APT::Sandbox::User": "root",
            "Acquire::Languages": "none", "Acquire::Check-Valid-Until": "false",
            "Acquire::GzipIndexes": "true", "Dir::Cache::srcpkgcache": "",
        }
        lines = [f'{key} "{value}";' for key, value in options.items()]
        lines.append(f'APT::Architectures {{ "{self.arch}"; }};')
        self.conf.write_text("\n".join(lines) + "\n")

    def apt(self, tool: str, *args: str, cwd: Path | None = None, check: bool = True
            ) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "APT_CONFIG": str(self.conf), "LC_ALL": "C"}
        done = subprocess.run([tool, *args], env=env, cwd=cwd, capture_output=True, text=True,
                              timeout=900, check=False)
        if check and done.returncode != 0:
            raise SystemExit(f"qemu_lab: {tool} {' '.join(args)} failed "
                             f"({done.returncode}):\n{done.stderr.strip()}")
        return done

    def update(self) -> None:
        """``apt-get update``.  A failed -updates or -security index (a mirror caught mid-sync)
        is a warning when the suite's own index arrived: versions are then that index's."""
        done = self.apt("apt-get", "-q", "update", check=False)
        if done.returncode == 0:
            return
        main = f"dists_{self.suite}_main_binary-{self.arch}_Packages"
        if not any(main in p.name for p in (self.root / "lists").iterdir()):
            raise SystemExit(f"qemu_lab: apt-get update ({self.suite} {self.arch}) failed:\n"
                             f"{done.stderr.strip()}")
        errors = [line for line in done.stderr.splitlines() if line.startswith("E: Failed")]
        say(f"warning: {self.suite} {self.arch}: some indexes failed, using the ones that "
            f"arrived: {'; '.join(errors) or done.stderr.strip()}")

    def field(self, package: str, name: str) -> str:
        text = self.apt("apt-cache", "show", "--no-all-versions", package).stdout
        for line in text.splitlines():
            if line.startswith(f"{name}: "):
                return line.split(": ", 1)[1].strip()
        raise SystemExit(f"qemu_lab: {package} ({self.suite} {self.arch}) has no {name}")

    def closure(self, packages: tuple[str, ...]) -> list[str]:
        """The packages with their Depends and Pre-Depends, recursively."""
        done = self.apt("apt-cache", "depends", "--recurse", "--no-recommends",
                        "--no-suggests", "--no-conflicts", "--no-breaks", "--no-replaces",
                        "--no-enhances", *packages)
        names = {line.strip() for line in done.stdout.splitlines()
                 if line and not line.startswith(" ") and not line.startswith("<")}
        return sorted(names)

    def kernel_package(self) -> str:
        """The versioned kernel package the ``linux-image-ARCH`` metapackage depends on."""
        for part in self.field(f"linux-image-{self.arch}", "Depends").split(","):
            name = part.split()[0]
            if name.startswith("linux-image-"):
                return name
        raise SystemExit(f"qemu_lab: linux-image-{self.arch} names no kernel package")

    def versions(self, packages: list[str]) -> dict[str, str]:
        return {p: self.field(p, "Version") for p in packages}

    def download(self, versions: dict[str, str]) -> list[Path]:
        """The .deb files (downloaded only when missing or not matching their SHA256)."""
        paths = []
        for package, version in versions.items():
            spec = f"{package}={version}"
            path = self.debs / Path(self.field(spec, "Filename")).name
            if not path.exists() or sha256(path) != self.field(spec, "SHA256"):
                say(f"downloading {spec} ({self.suite} {self.arch})")
                with tempfile.TemporaryDirectory(dir=self.debs) as tmp:
                    self.apt("apt-get", "-q", "download", spec, cwd=Path(tmp))
                    [got] = Path(tmp).glob("*.deb")  # its name carries the epoch as %3a
                    got.rename(path)
            paths.append(path)
        return paths


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def image_key(kind: str, versions: dict[str, str]) -> str:
    recipe = {"recipe": RECIPE, "kind": kind, "packages": versions,
              "files": FILES if kind == "initramfs" else {}}
    return hashlib.sha256(json.dumps(recipe, sort_keys=True).encode()).hexdigest()[:12]


def cached(lab: Path, name: str, key: str) -> Path | None:
    done = lab / "images" / f"{name}-{key}"
    return done if (done / "manifest.json").exists() else None


def publish(lab: Path, name: str, key: str, staging: Path, manifest: Mapping[str, object]
            ) -> Path:
    """Move a built image into place (the manifest last: it marks the image complete) and
    remove older builds of the same image."""
    (staging / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    images = lab / "images"
    images.mkdir(parents=True, exist_ok=True)
    final = images / f"{name}-{key}"
    shutil.rmtree(final, ignore_errors=True)
    staging.chmod(0o755)
    staging.rename(final)
    for old in images.glob(f"{name}-*"):
        if old != final and len(old.name) == len(final.name):
            shutil.rmtree(old, ignore_errors=True)
    return final


_APTS: dict[tuple[Path, str, str], Apt] = {}


def apt_for(lab: Path, suite: str, arch: str, offline: bool) -> Apt:
    """The apt of ``suite`` and ``arch``, its lists updated once per run (not ``offline``)."""
    key = (lab, suite, arch)
    if key not in _APTS:
        _APTS[key] = Apt(lab, suite, arch)
        if not offline:
            _APTS[key].update()
    return _APTS[key]


def build_kernel(lab: Path, kernel: Kernel, offline: bool) -> Path:
    apt = apt_for(lab, kernel.suite, kernel.arch, offline)
    package = apt.kernel_package()
    versions = apt.versions([package])
    release = package.removeprefix("linux-image-")
    if not release.startswith(kernel.series + "."):
        raise SystemExit(f"qemu_lab: {kernel.suite} {kernel.arch} now has kernel {release}, "
                         f"not the {kernel.series} series this board is for")
    key = image_key("kernel", versions)
    done = cached(lab, kernel.name, key)
    if done is not None:
        say(f"{kernel.name}: up to date ({package} {versions[package]})")
        return done
    [deb] = apt.download(versions)
    staging = Path(tempfile.mkdtemp(prefix=f".{kernel.name}-", dir=lab))
    tar = subprocess.run(f"dpkg-deb --fsys-tarfile {shlex.quote(str(deb))} | tar -x "
                         f"-C {shlex.quote(str(staging))} --wildcards './boot/vmlinu*'",
                         shell=True, capture_output=True, text=True, check=False)
    [image] = list((staging / "boot").glob("vmlinu*")) if tar.returncode == 0 else [None]
    if image is None:
        raise SystemExit(f"qemu_lab: no kernel image in {deb}: {tar.stderr}")
    image.rename(staging / "kernel")
    shutil.rmtree(staging / "boot")
    manifest = {"image": kernel.name, "release": release, "suite": kernel.suite,
                "arch": kernel.arch, "packages": versions}
    say(f"{kernel.name}: built ({package} {versions[package]})")
    return publish(lab, kernel.name, key, staging, manifest)


def merge_usr(root: Path) -> None:
    """Merged /usr (trixie's packages ship it so, bookworm's do not): bin, sbin and lib are
    links into usr, so both layouts find their loader and libraries."""
    for top in ("bin", "sbin", "lib"):
        src, dst = root / top, root / "usr" / top
        if src.is_dir() and not src.is_symlink():
            shutil.copytree(src, dst, symlinks=True, dirs_exist_ok=True)
            shutil.rmtree(src)
        dst.mkdir(parents=True, exist_ok=True)
        if not src.is_symlink():
            src.symlink_to(f"usr/{top}")


def build_initramfs(lab: Path, suite: str, arch: str, offline: bool) -> Path:
    name = f"initramfs-{suite}-{arch}"
    apt = apt_for(lab, suite, arch, offline)
    versions = apt.versions(sorted({*apt.closure(USERLAND), *ALONE}))
    key = image_key("initramfs", versions)
    done = cached(lab, name, key)
    if done is not None:
        say(f"{name}: up to date (openssl {versions['openssl']})")
        return done
    debs = apt.download(versions)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=lab))
    root = staging / "root"
    for deb in debs:
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    merge_usr(root)
    for rel in PRUNE:
        shutil.rmtree(root / rel, ignore_errors=True)
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "init").chmod(0o755)
    pack(root, staging / "initramfs.gz")
    shutil.rmtree(root)
    manifest = {"image": name, "suite": suite, "arch": arch, "packages": versions}
    say(f"{name}: built (openssl {versions['openssl']}, "
        f"{(staging / 'initramfs.gz').stat().st_size // 1024} KiB)")
    return publish(lab, name, key, staging, manifest)


def pack(root: Path, out: Path) -> None:
    """A newc cpio of ``root`` owned by root, compressed with gzip."""
    names = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    done = subprocess.run(["cpio", "-o", "-H", "newc", "-R", "0:0", "--quiet"], cwd=root,
                          input=("\n".join([".", *names]) + "\n").encode(),
                          capture_output=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"qemu_lab: cpio failed: {done.stderr.decode(errors='replace')}")
    with gzip.open(out, "wb", compresslevel=1) as f:
        f.write(done.stdout)
