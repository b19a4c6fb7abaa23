"""The lab in a box, for real: Debian kernels and a busybox userland with Debian's openssl on
QEMU boards (``scripts/qemu_lab.py``), driven through labgrid's own QEMUDriver and ShellDriver.

``sbcbench capture --lg-env`` + ``sbcbench probe`` name each board's CPU and accelerators from
its own ``/proc/cpuinfo``; the shipped crypto suite runs on the board's openssl and its results
carry the board's arch, kernel release, openssl version and boot id (and ML-KEM-768 runs on the
trixie board's OpenSSL 3.5); a power cycle gives a new
boot id and the kernel switch boots the other kernel under the same userland.

Runs when ``SBCBENCH_QEMU_LAB`` names a lab directory that ``scripts/qemu_lab.py build`` filled
(the CI stage ``.ci/lab`` does both); skips with the reason otherwise (variable unset, boards not
built, QEMU or labgrid missing).  With ``SBCBENCH_QEMU_OUT`` set, the results files are copied
there (the CI stage keeps them).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, NoReturn

import pytest

REPO = Path(__file__).resolve().parents[1]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
QEMU = {"arm64": "qemu-system-aarch64", "riscv64": "qemu-system-riscv64"}
ARCH = {"arm64": "aarch64", "riscv64": "riscv64"}
OPENSSL = {"bookworm": "3.0.", "trixie": "3.5."}
QUICK = "aes-128-gcm or sha256"  # two metrics keep the stage short; each runs on the board
SBCBENCH = ["-c", "import sys; from pytest_sbcbench.cli import main; sys.exit(main())"]


def unavailable(reason: str) -> NoReturn:
    """Skip saying why; a failure in the CI lab stage (``SBCBENCH_QEMU_REQUIRE`` set), which
    must prove every check."""
    if os.environ.get("SBCBENCH_QEMU_REQUIRE"):
        pytest.fail(f"the lab stage cannot run this check: {reason}")
    pytest.skip(reason)


def board(name: str) -> dict[str, Any]:
    """The lab's entry for the env ``name`` (boards.json), or a skip saying what is missing."""
    lab = os.environ.get("SBCBENCH_QEMU_LAB")
    if not lab:
        unavailable("SBCBENCH_QEMU_LAB is not set: build the boards with scripts/qemu_lab.py "
                    "build and point it at the lab directory (the CI stage .ci/lab does)")
    index_file = Path(lab) / "boards.json"
    if not index_file.exists():
        unavailable(f"{index_file} missing: run scripts/qemu_lab.py --lab {lab} build")
    entry: dict[str, Any] | None = json.loads(index_file.read_text()).get(name)
    if entry is None or not Path(entry["env"]).exists():
        unavailable(f"board {name} not built in {lab}: scripts/qemu_lab.py build")
    if shutil.which(QEMU[entry["arch"]]) is None:
        unavailable(f"{QEMU[entry['arch']]} not installed (apt-get install qemu-system-arm "
                    "qemu-system-misc)")
    try:
        import labgrid  # noqa: F401
    except ImportError:
        unavailable("labgrid not installed: pip install '.[labgrid]'")
    return entry


def run(argv: list[str], timeout: float = 900) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LG_ENV", "SBCBENCH_OPENSSL")}
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=timeout,
                          check=False, env=env)
    assert done.returncode == 0, f"{argv}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done


def keep(path: Path) -> None:
    out = os.environ.get("SBCBENCH_QEMU_OUT")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(out) / path.name)


def probe(entry: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    """``sbcbench capture --lg-env`` (labgrid powers the emulator on and logs in on its
    console), then ``sbcbench probe --sysroot --json`` on the extracted tree."""
    tarball = tmp_path / "board.tar.gz"
    run([sys.executable, *SBCBENCH, "capture", "--lg-env", entry["env"], "--out", str(tarball)])
    tree = tmp_path / "tree"
    tree.mkdir()
    subprocess.run(["tar", "-xzf", str(tarball), "-C", str(tree)], check=True)
    facts: dict[str, Any] = json.loads(run([sys.executable, *SBCBENCH, "probe", "--sysroot",
                                            str(tree), "--json"]).stdout)
    assert facts["kernel"] == entry["kernel_release"]
    assert facts["arch"] == ARCH[entry["arch"]] and facts["cpus"] == 2
    return facts


@pytest.mark.parametrize("name", ["a72", "a53"])
def test_probe_names_the_arm_core_from_its_part_number(name: str, tmp_path: Path) -> None:
    facts = probe(board(name), tmp_path)
    assert facts["cpu_model"] == {"a72": "ARM Cortex-A72", "a53": "ARM Cortex-A53"}[name]
    assert {k for k, v in facts["accel"].items() if v} == {"aes", "sha1", "sha256", "pmull",
                                                           "vector"}
    assert facts["accel_from"]["aes"] == ["aes"] and facts["accel_from"]["sha256"] == ["sha2"]
    assert facts["accel_from"]["pmull"] == ["pmull"]


def test_probe_of_the_jh7110_isa_has_no_crypto_and_no_vector(tmp_path: Path) -> None:
    facts = probe(board("rv64imafdc"), tmp_path)
    assert facts["isa"]["extensions"][:6] == ["i", "m", "a", "f", "d", "c"]
    assert not set(facts["isa"]["extensions"]) & {"v", "zba", "zbb", "zbc", "zkne", "zknh"}
    assert not any(facts["accel"].values()) and facts["accel_from"] == {}


def test_probe_attributes_aes_and_sha2_to_zkne_and_zknh(tmp_path: Path) -> None:
    facts = probe(board("rv64-v-zk"), tmp_path)
    assert facts["accel"]["vector"] and facts["accel_from"]["vector"] == ["v"]
    assert facts["accel_from"]["aes"] == ["zkne"]
    assert facts["accel_from"]["sha256"] == ["zknh"] == facts["accel_from"]["sha512"]
    assert not facts["isa"]["vector_0_7_1"]


def upstream(version: str) -> str:
    """``3.0.22-1~deb12u2`` -> ``3.0.22`` (the Debian revision off)."""
    return version.split(":")[-1].split("-")[0]


@pytest.mark.parametrize(("name", "kernel"), [("a72", None), ("a72", "6.12"),
                                              ("rv64imafdc", None)])
def test_crypto_suite_runs_on_the_board(name: str, kernel: str | None, tmp_path: Path) -> None:
    """The shipped crypto suite (quick, two metrics) through ``pytest -p labgrid --lg-env``:
    openssl ran on the board (its version, not this machine's), the results carry the board's
    arch, kernel release and boot id; ``--sbc-lab-kernel`` boots the other kernel image."""
    entry = board(name)
    expected_release = entry["kernel_release"]
    extra: list[str] = []
    if kernel is not None:
        other = board(f"{name}-k{kernel}")
        expected_release = other["kernel_release"]
        extra = ["--sbc-lab-kernel", f"kernel-{kernel}"]
    results = tmp_path / f"results-{name}{'-k' + kernel if kernel else ''}.json"
    done = run([sys.executable, "-m", "pytest", "-p", "labgrid", "--lg-env", entry["env"],
                "benchmarks/", "-m", "crypto", "-k", QUICK, "--sbc-quick",
                "--sbc-idle-wait", "0", "-p", "no:cacheprovider", "-rs",
                "--sbc-results", str(results), *extra])
    assert "2 passed" in done.stdout, done.stdout
    keep(results)
    doc = json.loads(results.read_text())
    env, lab = doc["environment"], doc["environment"]["lab"]
    assert env["arch"] == ARCH[entry["arch"]]
    assert lab["kernel_release"] == env["kernel_release"] == expected_release
    assert lab["power"] == "QEMUDriver"
    assert lab["kernel_image"] == (f"kernel-{kernel}" if kernel else
                                   f"kernel-{entry['kernel_series']}")
    assert UUID.fullmatch(lab["boot_id"]) and env["boot_id"] == lab["boot_id"]
    version = upstream(entry["openssl"])
    assert env["openssl"] == version and version.startswith(OPENSSL[entry["userland"]])
    assert "ShellDriver" in env["not_sampled"]["sampler"]  # one console: no board sampler
    metrics = {r["metric"]: r for r in doc["results"]}
    assert set(metrics) == {"aes-128-gcm", "sha256"}
    for result in metrics.values():
        assert result["identity"]["version"] == version and result["summary"]["median"] > 0


def test_ml_kem_runs_on_the_trixie_board(tmp_path: Path) -> None:
    """The shipped suite's ML-KEM-768 tests (``test_kem``: keygen, encaps, decaps) on the
    board whose userland is Debian trixie: its openssl 3.5 lists ML-KEM-768 in its default
    provider, so the tests run there (on bookworm's 3.0 they skip saying why), and each rate
    comes from the KEM table of the board's own ``openssl speed``."""
    entry = board("rv64imafdc")
    assert entry["userland"] == "trixie"
    results = tmp_path / "results-rv64imafdc-ml-kem.json"
    done = run([sys.executable, "-m", "pytest", "-p", "labgrid", "--lg-env", entry["env"],
                "benchmarks/", "-m", "crypto", "-k", "test_kem", "--sbc-quick",
                "--sbc-idle-wait", "0", "-p", "no:cacheprovider", "-rs",
                "--sbc-results", str(results)])
    assert "3 passed" in done.stdout, done.stdout
    keep(results)
    doc = json.loads(results.read_text())
    version = upstream(entry["openssl"])
    assert doc["environment"]["openssl"] == version and version.startswith("3.5.")
    by_op = {r["identity"]["op"]: r for r in doc["results"]}
    assert sorted(by_op) == ["decaps", "encaps", "keygen"]
    for result in by_op.values():
        assert result["metric"] == "ml-kem-768" and result["unit"] == "op/s"
        assert result["identity"]["table"] == "kem" and result["identity"]["version"] == version
        assert result["summary"]["median"] > 0


def test_power_cycle_gives_a_new_boot_id_and_the_kernel_switch_another_kernel() -> None:
    """labgrid's QEMUDriver quit and started again is a reboot (new boot id, checked by the
    lab layer's BoardPower); switching its kernel image boots 6.12 under the same userland."""
    from pytest_sbcbench.measure.tools import which
    from pytest_sbcbench.platform.labgrid_executor import LabgridExecutor, open_target
    from pytest_sbcbench.platform.labgrid_power import BoardPower

    entry, other = board("a72"), board("a72-k6.12")
    target = open_target(Path(entry["env"]))
    try:
        executor = LabgridExecutor(target)
        first = executor.run(["cat", "/proc/sys/kernel/osrelease"], timeout=60)
        assert first.stdout.strip() == entry["kernel_release"]
        # busybox-static's ash answers `command -v dd` with the bare applet name
        assert which("dd", executor=executor) == "/usr/bin/dd"
        assert which("openssl", executor=executor) == "/usr/bin/openssl"
        power = BoardPower(target, "qemu a72")
        cycled = power.reboot()
        assert cycled.boot_id_before != cycled.boot_id_after
        assert UUID.fullmatch(cycled.boot_id_after)
        switched = power.reboot(kernel="kernel-6.12")
        assert switched.kernel_image == "kernel-6.12"
        assert len({cycled.boot_id_before, cycled.boot_id_after, switched.boot_id_after}) == 3
        now = executor.run(["sh", "-c", "cat /proc/sys/kernel/osrelease; openssl version"],
                           timeout=60)
        release, openssl = now.stdout.splitlines()
        assert release == other["kernel_release"] != entry["kernel_release"]
        assert openssl.startswith(f"OpenSSL {upstream(entry['openssl'])} ")
    finally:
        target.cleanup()


def test_maxcpus1_loses_a_core_that_the_probe_shows() -> None:
    """The A72 board's 6.1 kernel booted with ``maxcpus=1`` (``a72-maxcpus1``: a BSP change,
    images key ``kernel-6.1-maxcpus1``) on the same two emulated CPUs: ``nproc`` on the board
    says 1, and the controller's probe of the captured tree shows 1 CPU of 2 present."""
    import tempfile

    from pytest_sbcbench.platform.capture import capture, extract
    from pytest_sbcbench.platform.labgrid_executor import LabgridExecutor, open_target
    from pytest_sbcbench.platform.probe import probe as probe_tree
    from pytest_sbcbench.platform.sysroot import CPU_DIR, Sysroot

    entry = board("a72-maxcpus1")
    assert entry["image_key"] == "kernel-6.1-maxcpus1" and entry["smp"] == 2
    assert entry["boot_args"].endswith(" maxcpus=1")
    target = open_target(Path(entry["env"]))
    try:
        executor = LabgridExecutor(target)
        done = executor.run(["sh", "-c", "nproc; cat /proc/cmdline; uname -r"], timeout=60)
        nproc, cmdline, release = done.stdout.splitlines()
        assert nproc == "1" and "maxcpus=1" in cmdline.split()
        assert release == entry["kernel_release"] == board("a72")["kernel_release"]
        with tempfile.TemporaryDirectory() as tmp:
            tree = Sysroot(extract(capture(executor, Path(tmp) / "b.tar.gz").path,
                                   Path(tmp) / "root"))
            assert probe_tree(tree).cpus == 1
            assert tree.read(f"{CPU_DIR}/present", default="").strip() == "0-1"
            assert tree.read(f"{CPU_DIR}/online", default="").strip() == "0"
    finally:
        target.cleanup()


def test_scaling_on_the_board_that_lost_a_core_keeps_two_threads(tmp_path: Path) -> None:
    """openssl's thread scaling through ``--sbc-lab-kernel kernel-6.1-maxcpus1``: it still runs
    1 and 2 threads (the board's affinity list keeps the offline CPU), so the lost core is
    lost throughput at 2 threads, and the 2-thread result says its threads share one online
    CPU.  (How much throughput is lost is the gate's business: scripts/qemu_gate.py.)"""
    entry = board("a72")
    board("a72-maxcpus1")
    results = tmp_path / "scaling-maxcpus1.json"
    done = run([sys.executable, "-m", "pytest", "-p", "labgrid", "--lg-env", entry["env"],
                "benchmarks/test_scaling.py::test_openssl_scaling", "--sbc-quick",
                "--sbc-idle-wait", "0", "-p", "no:cacheprovider", "--sbc-results", str(results),
                "--sbc-baselines", str(tmp_path / "baselines"),
                "--sbc-lab-kernel", "kernel-6.1-maxcpus1"])
    assert "1 passed" in done.stdout, done.stdout
    keep(results)
    doc = json.loads(results.read_text())
    assert doc["environment"]["lab"]["kernel_image"] == "kernel-6.1-maxcpus1"
    assert doc["environment"]["cpus"] == 1
    by_threads = {r["identity"]["threads"]: r for r in doc["results"]}
    assert sorted(by_threads) == [1, 2]
    assert all(r["telemetry"]["online_cpus"] == 1 for r in by_threads.values())
    assert by_threads[2]["telemetry"]["threads_are"].endswith(
        "2 threads share 1 online CPU: the others are offline in this boot")


def test_the_lab_env_gives_each_boot_its_own_command_line(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``scripts/qemu_lab.py``'s env of the a72 board (written here from fake image paths, no
    download, no emulator started), read by labgrid and switched by the lab layer: the
    ``maxcpus1`` key boots the 6.1 kernel file with ``maxcpus=1`` on two emulated CPUs, the
    other keys with the board's own command line."""
    import importlib
    import shlex

    from pytest_sbcbench.platform.labgrid_executor import open_target
    from pytest_sbcbench.platform.labgrid_power import select_kernel

    monkeypatch.syspath_prepend(str(REPO / "scripts"))
    qemu_lab = importlib.import_module("qemu_lab")
    a72 = qemu_lab.BOARDS["a72"]
    kernels = {k: tmp_path / k.name for k in a72.kernels}
    qemu = tmp_path / "qemu-version-only"  # labgrid asks the emulator its version, no more
    qemu.write_text("#!/bin/sh\necho 'QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7)'\n")
    qemu.chmod(0o755)
    env = tmp_path / "a72.yaml"
    env.write_text(qemu_lab.env_text(a72, a72.kernels[0], kernels, tmp_path / "ramfs", str(qemu)))
    assert [qemu_lab.env_name(a72, b) for b in a72.boots()] == ["a72", "a72-k6.12",
                                                                 "a72-maxcpus1"]
    target = open_target(env)
    try:
        def booted(key: str) -> tuple[str, str, str]:
            power = select_kernel(target, key)
            argv = power.get_qemu_base_args()
            smp = shlex.split(power.extra_args)
            return (argv[argv.index("-kernel") + 1], argv[argv.index("-append") + 1],
                    smp[smp.index("-smp") + 1])
        six_one = str(tmp_path / "kernel-6.1-arm64" / "kernel")
        assert booted("kernel-6.1-maxcpus1") == (six_one, "console=ttyAMA0 rdinit=/init "
                                                 "maxcpus=1", "2")
        assert booted("kernel-6.12") == (str(tmp_path / "kernel-6.12-arm64" / "kernel"),
                                         "console=ttyAMA0 rdinit=/init", "2")
        assert booted("kernel-6.1") == (six_one, "console=ttyAMA0 rdinit=/init", "2")
    finally:
        target.cleanup()
