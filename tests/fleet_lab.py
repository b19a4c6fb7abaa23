"""A labgrid lab of two places for ``sbcbench fleet run`` (tests/labgrid_lab.py's sshd "board",
coordinator and exporter): the exporter exports the one sshd twice, as groups ``fleet-1`` and
``fleet-2``; places ``sbc-fleet-1`` and ``sbc-fleet-2`` match one each, tagged ``lab=fleet`` and
``board=lab-a`` / ``board=lab-b``, and are left free (``fleet run`` reserves them).  The env
file names its place as ``!template '$LG_PLACE'``, as docs/lab.md's does."""

from __future__ import annotations

import getpass
from pathlib import Path

from labgrid_lab import (
    Lab,
    _start_sshd,
    check_available,
    free_port,
    labgrid_tool,
)

EXPORTER = "sbc-fleet-exporter"
PLACES = {"sbc-fleet-1": {"board": "lab-a", "lab": "fleet", "soc": "none"},
          "sbc-fleet-2": {"board": "lab-b", "lab": "fleet", "soc": "none"}}


def _exporter(lab: Lab) -> None:
    port = free_port()
    lab.coordinator = f"127.0.0.1:{port}"
    lab.start([labgrid_tool("labgrid-coordinator"), "--listen", lab.coordinator],
              "coordinator")
    lab.wait_ready("coordinator", f"listening on {lab.coordinator}")
    exports = lab.root / "exporter.yaml"
    exports.write_text("".join(
        f"fleet-{n}:\n  NetworkService:\n    address: 127.0.0.1\n    port: {lab.sshd_port}\n"
        f"    username: {lab.user}\n" for n in (1, 2)))
    lab.start([labgrid_tool("labgrid-exporter"), "-c", lab.coordinator, "-n", EXPORTER,
               "--hostname", "127.0.0.1", str(exports)], "exporter")
    for n in (1, 2):
        if not lab.outputs["coordinator"].wait_for(f"set_resource fleet-{n} NetworkService"):
            raise RuntimeError(f"the exporter never registered fleet-{n}:\n"
                               f"{lab.log('exporter')}\n{lab.log('coordinator')}")


def _places(lab: Lab) -> None:
    for n, (place, tags) in enumerate(PLACES.items(), start=1):
        lab.client("create", place=place)
        lab.client("set-tags", *(f"{k}={v}" for k, v in tags.items()), place=place)
        lab.client("add-match", f"{EXPORTER}/fleet-{n}/NetworkService", place=place)


def _env_file(lab: Lab) -> None:
    lab.env_file = lab.root / "env-fleet.yaml"
    lab.env_file.write_text(f"""targets:
  main:
    resources:
      RemotePlace:
        name: !template '$LG_PLACE'
    drivers:
      SSHDriver:
        keyfile: {lab.key}
options:
  coordinator_address: {lab.coordinator}
""")


def start_fleet_lab(root: Path) -> Lab:
    """The two-place lab; on any failure everything started is stopped."""
    check_available()
    lab = Lab(root=root, user=getpass.getuser())
    try:
        _start_sshd(lab)
        _exporter(lab)
        _places(lab)
        _env_file(lab)
    except BaseException:
        lab.close()
        raise
    return lab
