"""Lab stage (.ci/lab): ``sbcbench fleet run`` over two QEMU places behind one labgrid
coordinator, writing both into one history on a real PostgreSQL server (issue 29, "Done when").
Two A72 guests of ``scripts/qemu_lab.py build`` boot with their serial console on a TCP port
each, an exporter exports both as ``NetworkSerialPort``, places ``qemu-1`` and ``qemu-2`` (tagged
``lab=qemu``, boards ``qemu-a72-1`` and ``qemu-a72-2``) match one each, and the env file drives
them with labgrid's SerialDriver + ShellDriver through ``RemotePlace: !template '$LG_PLACE'``.
Both suites run on their own guest, ``--sbc-history postgresql://...`` (tests/pg_server.py's
server) takes both sessions, and ``sbcbench history``, ``history changes`` and ``publish`` read
both boards back from it.  Skips with the reason without ``SBCBENCH_QEMU_LAB`` (the lab
directory), its a72 images, qemu or labgrid (fails instead in the lab stage,
``SBCBENCH_QEMU_REQUIRE``), or without the PostgreSQL server (fails under
``SBCBENCH_REQUIRE_PG=1``, which the lab stage sets)."""

from __future__ import annotations

import getpass
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
from labgrid_lab import Lab, LabUnavailable, free_port, labgrid_tool, preload_labgrid
from pg_server import PgServer, pg_server, psql

from helpers import cli

preload_labgrid()
__all__ = ["pg_server"]  # the session fixture, used by name below

REPO = Path(__file__).resolve().parents[1]
EXPORTER = "sbc-qemu-exporter"
BOARDS = {"qemu-1": "qemu-a72-1", "qemu-2": "qemu-a72-2"}  # place -> its board tag
PLACES = tuple(BOARDS)
PROMPT = "sbc-lab # "


def unavailable(reason: str) -> NoReturn:
    """Skip saying why; a failure in the CI lab stage (``SBCBENCH_QEMU_REQUIRE`` set)."""
    if os.environ.get("SBCBENCH_QEMU_REQUIRE"):
        pytest.fail(f"the lab stage cannot run this check: {reason}")
    pytest.skip(reason)


def a72() -> dict[str, Any]:
    """The a72 board's entry in the lab's boards.json (kernel and initramfs), or a skip."""
    lab = os.environ.get("SBCBENCH_QEMU_LAB")
    if not lab:
        unavailable("SBCBENCH_QEMU_LAB is not set (the lab stage .ci/lab sets it)")
    boards = Path(lab) / "boards.json"
    if not boards.is_file() or shutil.which("qemu-system-aarch64") is None:
        unavailable(f"no QEMU lab in {lab} or no qemu-system-aarch64: "
                    "scripts/qemu_lab.py build")
    entry: dict[str, Any] = json.loads(boards.read_text())["a72"]
    return entry


def _qemu(lab: Lab, env_file: Path, name: str) -> int:
    """One A72 guest with its console on a TCP port of 127.0.0.1 (the guest's shell)."""
    from labgrid import Environment

    target = Environment(str(env_file)).get_target("main")
    assert target is not None
    qemu = target.env.config.get_tool("qemu")
    images = target.env.config.get_images()
    driver: dict[str, Any] = target.env.config.get_targets()["main"]["drivers"]["QEMUDriver"]
    port = free_port()
    lab.start([qemu, "-M", "virt", "-cpu", driver["cpu"], "-m", driver["memory"],
               *driver["extra_args"].split(), "-kernel", images[driver["kernel"]],
               "-append", driver["boot_args"], "-nographic", "-monitor", "none", "-nic",
               "none", "-serial", f"tcp:127.0.0.1:{port},server=on,wait=off"], name)
    return port


def start_qemu_fleet(root: Path, entry: dict[str, Any]) -> Lab:
    lab = Lab(root=root, user=getpass.getuser())
    try:
        ports = [_qemu(lab, Path(entry["env"]), place) for place in PLACES]
        lab.coordinator = f"127.0.0.1:{free_port()}"
        lab.start([labgrid_tool("labgrid-coordinator"), "--listen", lab.coordinator],
                  "coordinator")
        lab.wait_ready("coordinator", f"listening on {lab.coordinator}")
        exports = root / "exporter.yaml"
        exports.write_text("".join(
            f"{place}:\n  NetworkSerialPort:\n    host: 127.0.0.1\n    port: {port}\n"
            "    protocol: raw\n" for place, port in zip(PLACES, ports, strict=True)))
        lab.start([labgrid_tool("labgrid-exporter"), "-c", lab.coordinator, "-n", EXPORTER,
                   "--hostname", "127.0.0.1", str(exports)], "exporter")
        for place in PLACES:
            if not lab.outputs["coordinator"].wait_for(f"set_resource {place} "
                                                       "NetworkSerialPort"):
                raise RuntimeError(f"the exporter never registered {place}:\n"
                                   f"{lab.log('exporter')}")
            lab.client("create", place=place)
            lab.client("set-tags", "lab=qemu", f"board={BOARDS[place]}", place=place)
            lab.client("add-match", f"{EXPORTER}/{place}/NetworkSerialPort", place=place)
        lab.env_file = root / "env-qemu-fleet.yaml"
        lab.env_file.write_text(f"""targets:
  main:
    resources:
      RemotePlace:
        name: !template '$LG_PLACE'
    drivers:
      SerialDriver: {{}}
      ShellDriver:
        prompt: '{PROMPT}'
        login_prompt: 'login: '
        username: root
        login_timeout: 240
options:
  coordinator_address: {lab.coordinator}
""")
    except BaseException:
        lab.close()
        raise
    return lab


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    entry = a72()
    try:
        running = start_qemu_fleet(tmp_path_factory.mktemp("qemu-fleet"), entry)
    except LabUnavailable as exc:
        unavailable(str(exc))
    try:
        yield running
    finally:
        running.close()


def test_fleet_run_over_two_qemu_places_into_postgresql(
        lab: Lab, pg_server: PgServer, tmp_path: Path) -> None:
    """``--places lab=qemu lab=qemu --sbc-history postgresql://...``: both guests reserved,
    both suites run on their own guest (its own boot id), both candidate sessions in the one
    PostgreSQL history (no SQLite file made), every place released; then the history commands
    and the published site read both boards from that database."""
    url = pg_server.database("qemu_fleet")
    baselines = tmp_path / "baselines"
    (baselines / "boards").mkdir(parents=True)
    for board in BOARDS.values():
        (baselines / "boards" / f"{board}.json").write_text(json.dumps({
            "schema": "sbcbench-board/1", "name": board, "title": "QEMU A72 guest",
            "soc": "none", "arch": "aarch64", "clusters": [{"cores": 2, "core": "cortex-a72"}]}))
    argv = [sys.executable, "-m", "pytest_sbcbench.cli", "fleet", "run", "--places",
            "lab=qemu", "lab=qemu", "--lg-env", str(lab.env_file), "--coordinator",
            lab.coordinator, "--reserve-timeout", "120", "--logs", str(tmp_path / "logs"),
            "--sbc-history", url, "--", "benchmarks/test_crypto.py", "-k", "sha256",
            "--sbc-quick", "--sbc-idle-wait", "0", "-p", "no:cacheprovider",
            "--sbc-baselines", str(baselines), "--sbc-candidate", "L1"]
    env = {k: v for k, v in os.environ.items()
           if k not in ("LG_ENV", "LG_PLACE", "LG_TOKEN", "SBCBENCH_HISTORY")}
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=1500,
                          check=False, env=env)
    logs = "".join(p.read_text() for p in (tmp_path / "logs").glob("*.log"))
    assert done.returncode == 0, done.stdout + done.stderr + logs
    assert f"fleet: every place's sessions go to the history {url}\n" in done.stderr
    for place in PLACES:
        assert f"place {place} [lab=qemu]: exit 0 (no regression): 1 passed" in done.stdout
        assert f"fleet: place {place} [lab=qemu]: pytest collected " in done.stderr
    assert not (baselines / "history.sqlite").exists()
    rows = psql(url, "SELECT board, role, label, boot_id, environment FROM sessions "
                     "ORDER BY board")
    assert [(b, r, label) for b, r, label, _, _ in rows] == [
        (board, "candidate", "L1") for board in sorted(BOARDS.values())]
    assert len({boot for _, _, _, boot, _ in rows}) == 2  # two guests, two boots
    assert {board: json.loads(e)["lab"]["place"] for board, *_, e in rows} == {
        board: place for place, board in BOARDS.items()}
    kernel = a72()["kernel_release"]  # the guest's kernel, not this machine's
    assert [json.loads(e)["lab"]["kernel_release"] for *_, e in rows] == [kernel] * 2
    assert "Reservation '" not in lab.client("reservations", place=None)

    code, listed = cli("history", "--history", url)
    assert code == 0
    assert sorted(line.split()[:3] for line in listed.splitlines()) == [
        [board, "candidate", "L1"] for board in sorted(BOARDS.values())], listed
    assert all("1 session on 1 boot, 1 result" in line for line in listed.splitlines())
    code, changes = cli("history", "changes", "--json", "--history", url)
    assert code == 0
    assert (json.loads(changes)["boards"], json.loads(changes)["incidents"]) == (
        sorted(BOARDS.values()), [])  # one label each: nothing to change from
    site = tmp_path / "site"
    assert cli("publish", str(site), "--history", url)[0] == 0
    index = (site / "index.html").read_text()
    for board in BOARDS.values():
        assert f'href="boards/{board}.html"' in index, index
        assert "sha256" in (site / "boards" / f"{board}.html").read_text()
