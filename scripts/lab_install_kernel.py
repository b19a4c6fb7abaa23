#!/usr/bin/env python3
"""Install a kernel on a QEMU lab board: rewrite the labgrid env file the suite boots from.

    scripts/lab_install_kernel.py ENV [--image KEY | --kernel FILE] [--boot-args ARGS]
    scripts/lab_install_kernel.py ENV --config FILE     # lines image=KEY, boot_args=ARGS

What a real lab's build script does by copying a kernel where the board boots it from, this does
for a board of ``scripts/qemu_lab.py`` (labgrid's ``QEMUDriver``): it sets the driver's
``kernel`` (a key of the env file's ``images:``; ``--kernel FILE`` adds the key ``installed``
naming FILE) and its ``boot_args`` (the kernel command line), in place, atomically.  The next
``pytest -p labgrid --lg-env ENV`` boots that kernel with that command line.  It is the build
command of ``sbcbench bisect`` on the lab (docs/bisect.md), run in the bisected repository:

    --build "python3 scripts/lab_install_kernel.py $board --config kernel.conf"

Exit 0 installed; 125 when the config names no image (the commit cannot be booted: skip it, as
``git bisect run``); 2 on an env file with no QEMUDriver or an unknown image key.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

SKIP = 125


def read_config(path: Path) -> dict[str, str]:
    """``key=value`` lines (``#`` comments, blank lines ignored)."""
    out = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            out[key.strip()] = value.strip()
    return out


def install(doc: dict[str, Any], image: str | None, kernel: Path | None,
            boot_args: str | None) -> str:
    """Set the QEMUDriver's kernel and boot_args in ``doc``; the image key installed."""
    targets = doc.get("targets") or {}
    drivers = (targets.get("main") or {}).get("drivers") or {}
    qemu = drivers.get("QEMUDriver") if isinstance(drivers, dict) else None
    if not isinstance(qemu, dict):
        raise ValueError("no QEMUDriver in targets.main.drivers")
    images = doc.setdefault("images", {})
    if kernel is not None:
        images["installed"] = str(kernel.resolve())
        image = "installed"
    if image is not None:
        if image not in images:
            raise ValueError(f"image {image!r} is not a key of images: ({', '.join(images)})")
        qemu["kernel"] = image
    if boot_args is not None:
        qemu["boot_args"] = boot_args
    return str(qemu["kernel"])


def write(path: Path, doc: dict[str, Any]) -> None:
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(fd, "w") as out:
        out.write("# rewritten by scripts/lab_install_kernel.py\n")
        yaml.safe_dump(doc, out, sort_keys=False)
    os.replace(temp, path)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("env", type=Path, help="the labgrid env file the suite uses")
    parser.add_argument("--image", default=None, help="a key of the env file's images:")
    parser.add_argument("--kernel", type=Path, default=None, help="a kernel file to boot")
    parser.add_argument("--boot-args", default=None, help="the kernel command line")
    parser.add_argument("--config", type=Path, default=None,
                        help="a file of image=KEY and boot_args=ARGS lines (the commit's)")
    args = parser.parse_args(argv)
    image, boot_args = args.image, args.boot_args
    if args.config is not None:
        config = read_config(args.config)
        image, boot_args = config.get("image") or image, config.get("boot_args", boot_args)
        if not image:
            print(f"{args.config}: no image= line: this commit cannot be booted (skip)")
            return SKIP
    doc = yaml.safe_load(args.env.read_text())
    try:
        installed = install(doc, image, args.kernel, boot_args)
    except ValueError as exc:
        print(f"{args.env}: {exc}", file=sys.stderr)
        return 2
    write(args.env, doc)
    qemu = doc["targets"]["main"]["drivers"]["QEMUDriver"]
    print(f"{args.env}: kernel {installed} ({doc['images'][installed]}), "
          f"boot_args {qemu.get('boot_args')!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
