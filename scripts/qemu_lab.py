#!/usr/bin/env python3
"""A lab in a box: QEMU boards built from Debian packages, driven through labgrid.

    scripts/qemu_lab.py build [BOARD...]   download the packages, build the images, write env files
    scripts/qemu_lab.py env [BOARD...]     print the labgrid env file of each board (built ones)
    scripts/qemu_lab.py boot BOARD [--kernel SERIES]   start a board on this terminal (Ctrl-A x)
    scripts/qemu_lab.py list               the boards, their CPUs, kernels and images

Each board is a kernel and a busybox initramfs holding openssl and its libraries, unpacked with
``dpkg -x`` from the Debian packages named below (``apt-get download`` with an apt configuration
of this script's own: its own sources.list, lists, cache and ``APT::Architecture``; the system's
apt configuration is neither read nor changed).  No foreign code runs on the host.  An image is
cached under the package versions it holds (``<lab>/images/NAME-KEY``) and rebuilt only when
one of them changes; ``<lab>`` is ``$SBCBENCH_LAB_DIR``, else
``${XDG_CACHE_HOME:-~/.cache}/sbcbench/lab``.  ``build`` writes one labgrid environment per
board and kernel (``<lab>/env/BOARD.yaml``, ``BOARD-kSERIES.yaml`` for a second kernel,
``BOARD-VARIANT.yaml`` for a kernel booted with more on its command line) using
labgrid's own QEMUDriver (power, console) and ShellDriver.  Plain emulation (TCG) only.

Standalone: Python's standard library, ``apt-get``, ``dpkg-deb``, ``cpio`` and QEMU.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from qemu_images import PROMPT, Kernel, build_initramfs, build_kernel, say

QEMU = {"arm64": "qemu-system-aarch64", "riscv64": "qemu-system-riscv64"}
CONSOLE = {"arm64": "ttyAMA0", "riscv64": "ttyS0"}


@dataclass(frozen=True)
class Variant:
    """One of a board's kernels booted with more on its command line: a BSP change (a core
    lost with ``maxcpus=1``), selected exactly like another kernel (images key
    ``kernel-SERIES-NAME``, ``--sbc-lab-kernel``)."""

    name: str
    kernel: Kernel
    args: str  # appended to the board's own kernel command line

    @property
    def series(self) -> str:
        return f"{self.kernel.series}-{self.name}"


@dataclass(frozen=True)
class Board:
    name: str
    arch: str
    cpu: str
    userland: str  # the suite of the initramfs (its architecture is the board's)
    kernels: tuple[Kernel, ...]  # the first is the one the board boots by default
    about: str
    variants: tuple[Variant, ...] = ()

    def boots(self) -> list[Kernel | Variant]:
        return [*self.kernels, *self.variants]


BOOKWORM_ARM64 = Kernel("bookworm", "arm64", "6.1")
TRIXIE_ARM64 = Kernel("trixie", "arm64", "6.12")
TRIXIE_RISCV64 = Kernel("trixie", "riscv64", "6.12")
BOARDS = {b.name: b for b in (
    Board("a72", "arm64", "cortex-a72", "bookworm", (BOOKWORM_ARM64, TRIXIE_ARM64),
          "Cortex-A72 with the crypto extensions (RK3399 class; the Pi 4 has none), bookworm, "
          "kernels 6.1 and 6.12, and 6.1 with maxcpus=1 (a BSP change that loses a core)",
          (Variant("maxcpus1", BOOKWORM_ARM64, "maxcpus=1"),)),
    Board("a53", "arm64", "cortex-a53", "bookworm", (BOOKWORM_ARM64,),
          "Cortex-A53, bookworm userland and kernel 6.1"),
    Board("rv64imafdc", "riscv64",
          "rv64,zba=false,zbb=false,zbc=false,zbs=false,h=false,sstc=false", "trixie",
          (TRIXIE_RISCV64,), "the JH7110's ISA rv64imafdc: no B, V or K extensions; trixie"),
    Board("rv64-v-zk", "riscv64", "rv64,v=true,vlen=256,zbkb=true,zkne=true,zknh=true",
          "trixie", (TRIXIE_RISCV64,),
          "RISC-V with vector 1.0 (VLEN 256) and scalar crypto Zkne/Zknh; trixie"),
)}


def lab_dir() -> Path:
    if os.environ.get("SBCBENCH_LAB_DIR"):
        return Path(os.environ["SBCBENCH_LAB_DIR"])
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "sbcbench" / "lab"


SMP = 2  # every board has two CPUs (a variant may keep one of them offline)


def kernel_args(board: Board, boot: Kernel | Variant | None = None) -> str:
    own = f" {boot.args}" if isinstance(boot, Variant) else ""
    return f"console={CONSOLE[board.arch]} rdinit=/init{own}"


def env_name(board: Board, boot: Kernel | Variant) -> str:
    if boot == board.kernels[0]:
        return board.name
    return f"{board.name}-{boot.name}" if isinstance(boot, Variant) else \
        f"{board.name}-k{boot.series}"


def image_of(boot: Kernel | Variant, kernels: dict[Kernel, Path]) -> Path:
    return kernels[boot.kernel if isinstance(boot, Variant) else boot] / "kernel"


def env_text(board: Board, boot: Kernel | Variant, kernels: dict[Kernel, Path],
             initramfs: Path, qemu: str) -> str:
    """A labgrid environment: labgrid's QEMUDriver (power, console) and ShellDriver.  Every
    kernel and variant of the board is an image (``kernel-SERIES``, ``kernel-SERIES-NAME``)
    with its own command line (target option ``image_boot_args``, read by the lab layer's
    kernel switch); the driver boots ``boot``'s."""
    q = json.dumps
    images = "\n".join(f"  kernel-{b.series}: {q(str(image_of(b, kernels)))}"
                       for b in board.boots())
    args = "\n".join(f"        kernel-{b.series}: {q(kernel_args(board, b))}"
                     for b in board.boots())
    manifest = image_of(boot, kernels).parent / "manifest.json"
    return f"""# labgrid environment of the QEMU board {board.name}: {board.about}
# kernel {boot.series}; written by scripts/qemu_lab.py build (the image manifests hold
# the package versions: {initramfs / 'manifest.json'}, {manifest})
targets:
  main:
    options:
      image_boot_args:
{args}
    drivers:
      QEMUDriver:
        qemu_bin: qemu
        machine: virt
        cpu: {q(board.cpu)}
        memory: 512M
        nic: none
        kernel: kernel-{boot.series}
        extra_args: {q(f"-smp {SMP} -initrd {shlex.quote(str(initramfs / 'initramfs.gz'))}")}
        boot_args: {q(kernel_args(board, boot))}
      ShellDriver:
        prompt: {q(PROMPT)}
        login_prompt: "login: "
        username: root
        login_timeout: 120
images:
{images}
tools:
  qemu: {q(qemu)}
"""


def build(lab: Path, boards: list[Board], offline: bool) -> dict[str, dict[str, object]]:
    """Build (or find cached) every image of ``boards``; write their env files and
    ``<lab>/boards.json`` (what each env boots: release, openssl version, env path)."""
    kernels: dict[Kernel, Path] = {}
    userlands: dict[tuple[str, str], Path] = {}
    for board in boards:
        for kernel in board.kernels:
            if kernel not in kernels:
                kernels[kernel] = build_kernel(lab, kernel, offline)
        if (board.userland, board.arch) not in userlands:
            userlands[board.userland, board.arch] = build_initramfs(
                lab, board.userland, board.arch, offline)
    index_path = lab / "boards.json"
    index = json.loads(index_path.read_text()) if index_path.exists() else {}
    (lab / "env").mkdir(parents=True, exist_ok=True)
    for board in boards:
        initramfs = userlands[board.userland, board.arch]
        own = {k: kernels[k] for k in board.kernels}
        qemu = shutil.which(QEMU[board.arch]) or f"/usr/bin/{QEMU[board.arch]}"
        userland = json.loads((initramfs / "manifest.json").read_text())
        for boot in board.boots():
            name = env_name(board, boot)
            path = lab / "env" / f"{name}.yaml"
            path.write_text(env_text(board, boot, own, initramfs, qemu))
            kernel = image_of(boot, own)
            release = json.loads((kernel.parent / "manifest.json").read_text())["release"]
            index[name] = {"board": board.name, "arch": board.arch, "cpu": board.cpu,
                           "kernel_series": boot.series, "kernel_release": release,
                           "image_key": f"kernel-{boot.series}", "smp": SMP,
                           "boot_args": kernel_args(board, boot),
                           "openssl": userland["packages"]["openssl"],
                           "userland": board.userland, "env": str(path),
                           "kernel": str(kernel),
                           "initramfs": str(initramfs / "initramfs.gz")}
    index_path.write_text(json.dumps(index, indent=2, sort_keys=True) + "\n")
    return index


def boot(lab: Path, board: Board, series: str | None) -> int:
    """Start ``board`` with its console on this terminal (as the env file would)."""
    index = json.loads((lab / "boards.json").read_text()) if (lab / "boards.json").exists() \
        else {}
    kernel = next((k for k in board.boots() if series in (None, k.series)), None)
    if kernel is None:
        raise SystemExit(f"qemu_lab: {board.name} has no kernel {series} "
                         f"(it has {', '.join(k.series for k in board.boots())})")
    entry = index.get(env_name(board, kernel))
    if entry is None:
        raise SystemExit(f"qemu_lab: {board.name} is not built: scripts/qemu_lab.py build "
                         f"{board.name}")
    argv = [QEMU[board.arch], "-M", "virt", "-cpu", board.cpu, "-m", "512M", "-smp", str(SMP),
            "-nographic", "-nic", "none", "-kernel", str(entry["kernel"]),
            "-initrd", str(entry["initramfs"]),
            "-append", kernel_args(board, kernel)]
    say(" ".join(shlex.quote(a) for a in argv))
    os.execvp(argv[0], argv)
    return 1  # not reached


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="qemu_lab.py", description=__doc__.split("\n")[0])
    parser.add_argument("--lab", type=Path, default=None, help="lab directory (images, "
                        "apt, env files); default $SBCBENCH_LAB_DIR or ~/.cache/sbcbench/lab")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the images and write the labgrid env files")
    b.add_argument("boards", nargs="*", choices=[[], *BOARDS], metavar="BOARD")
    b.add_argument("--offline", action="store_true",
                   help="no apt-get update: the package lists already here decide")
    e = sub.add_parser("env", help="print the labgrid env file of each built board")
    e.add_argument("boards", nargs="*", metavar="BOARD")
    s = sub.add_parser("boot", help="start a board on this terminal (quit: Ctrl-A x)")
    s.add_argument("board", choices=list(BOARDS))
    s.add_argument("--kernel", default=None, metavar="SERIES",
                   help="e.g. 6.12, or a variant: 6.1-maxcpus1")
    sub.add_parser("list", help="the boards")
    args = parser.parse_args(argv)
    lab = (args.lab or lab_dir()).absolute()
    if args.command == "build":
        lab.mkdir(parents=True, exist_ok=True)
        index = build(lab, [BOARDS[n] for n in args.boards or BOARDS], args.offline)
        for name in sorted(index):
            print(f"{name}\t{index[name]['env']}")
        return 0
    if args.command == "boot":
        return boot(lab, BOARDS[args.board], args.kernel)
    index = json.loads((lab / "boards.json").read_text()) if (lab / "boards.json").exists() \
        else {}
    if args.command == "env":
        wanted = [n for n in sorted(index) if not args.boards or index[n]["board"] in
                  args.boards or n in args.boards]
        if not wanted:
            raise SystemExit("qemu_lab: nothing built: scripts/qemu_lab.py build")
        for name in wanted:
            print(f"{name}\t{index[name]['env']}")
        return 0
    for board in BOARDS.values():
        kernels = ", ".join(k.series for k in board.boots())
        print(f"{board.name:11} {board.arch:8} -cpu {board.cpu}\n{'':11} kernels {kernels}; "
              f"{board.about}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
