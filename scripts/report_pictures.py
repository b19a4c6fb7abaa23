#!/usr/bin/env python3
"""Make the pictures of docs/reports.md (and the README) with the project's own commands.

    .venv/bin/python scripts/report_pictures.py [--live] [--out docs/img]

- ``before-after-two-kernels.png``: ``sbcbench report`` of the QEMU a72 board on kernels 6.1
  and 6.12 (``tests/data/this_machine/results_qemu-a72_kernel-6.1.json`` and ``-6.12.json``).
- ``fleet-crypto-16384.png``, ``fleet-compile-ranking.png``: ``sbcbench report`` of the
  published fleet (``baselines/published/*.json``): the 2026 16 KiB crypto table and the
  pinned ballistics-engine build.
- ``trace-this-vm.png``: the trace chart of ``benchmarks/test_scaling.py::test_openssl_scaling``
  on this machine, redrawn from its CSV (``tests/data/this_machine/trace_openssl-scaling_2vcpu-vm
  .csv``); with ``--live`` the test is run here now (``sbcbench run -k "scaling and openssl"
  --sbc-trace-dir``) and its own PNG is copied.

Needs the ``plot`` extra (matplotlib)."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "this_machine"
KERNELS = [DATA / "results_qemu-a72_kernel-6.1.json", DATA / "results_qemu-a72_kernel-6.12.json"]
TRACE_CSV = DATA / "trace_openssl-scaling_2vcpu-vm.csv"
TRACE_TEST = "benchmarks/test_scaling.py::test_openssl_scaling"


def sbcbench(*args: str, cwd: Path = REPO) -> None:
    subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", *args], cwd=cwd, check=True,
                   stdout=subprocess.DEVNULL)


def crypto_chart_of(folder: Path, block: str) -> Path:
    """The fleet crypto chart of the single-thread ``block``-byte table (charts are numbered
    in the order of :func:`fleet.crypto_families`)."""
    from pytest_sbcbench.report import fleet

    entries = fleet.load_fleet(sorted((REPO / "baselines" / "published").glob("*.json")))
    for i, identity in enumerate(fleet.crypto_families(entries)):
        values = identity.as_dict()
        if str(values.get("block_bytes")) == block and values.get("threads") == 1 \
                and "aesni" not in values:
            return folder / f"crypto-{i}.png"
    raise SystemExit(f"no {block}-byte crypto table in the published fleet")


def trace_png(out: Path, live: bool, work: Path) -> None:
    if live:
        traces = work / "traces"
        sbcbench("run", "-k", "scaling and openssl", "--sbc-trace-dir", str(traces), cwd=work)
        (png,) = traces.glob("benchmarks_test_scaling.py_test_openssl_scaling-*.png")
        shutil.copy(png, out)
        return
    from pytest_sbcbench.measure.sampler import unavailable_probes
    from pytest_sbcbench.platform.sysroot import Sysroot
    from pytest_sbcbench.report import trace
    from pytest_sbcbench.report.trace_figure import figure

    # the reasons this machine gives for what its sampler cannot read (as the run recorded)
    reasons = unavailable_probes(Sysroot(), clocks=False, sensors=False)
    plt = trace.pyplot()
    fig = figure(plt, trace.read_csv(TRACE_CSV, reasons), TRACE_TEST)
    fig.savefig(out, dpi=90)
    plt.close(fig)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "img")
    parser.add_argument("--live", action="store_true",
                        help="measure the trace on this machine now instead of redrawing the "
                             "stored CSV")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sbcbench("report", *map(str, KERNELS), "--out", str(work / "kernels"))
        shutil.copy(work / "kernels" / "before-after.png",
                    args.out / "before-after-two-kernels.png")
        published = sorted(map(str, (REPO / "baselines" / "published").glob("*.json")))
        sbcbench("report", *published, "--out", str(work / "fleet"))
        shutil.copy(crypto_chart_of(work / "fleet", "16384"), args.out / "fleet-crypto-16384.png")
        shutil.copy(work / "fleet" / "compile-ranking-0.png",
                    args.out / "fleet-compile-ranking.png")
        trace_png(args.out / "trace-this-vm.png", args.live, work)
    for png in sorted(args.out.glob("*.png")):
        print(png.relative_to(REPO) if png.is_relative_to(REPO) else png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
