"""``scripts/hostile_replay.py``, the replay of hostile options, files and signals: every case
ends with a clear message and no byte lost."""

from __future__ import annotations

import subprocess
import sys

from helpers import REPO


def test_the_hostile_replay_loses_nothing() -> None:
    """scripts/hostile_replay.py: every case ends with a clear message and no byte lost,
    the pytest-run cases and every signal at three moments included."""
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "hostile_replay.py")],
                          capture_output=True, text=True, timeout=1800, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")][1:]
    assert len(rows) >= 42, done.stdout
    for row in rows:
        assert row.rstrip().endswith("| yes | no |"), row
    cases = [row.split(" | ")[0].lstrip("| ") for row in rows]
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"):
        for moment in ("during a workload", "during the real-clock check after the run",
                       "during a save"):
            assert f"{name} {moment}" in cases
    for name in ("pytest --sbc-results on a device node", "pytest with five bad output paths",
                 "two pytest runs save the same baseline at once",
                 "pytest --sbc-save-baseline after a regression", "SIGKILL during a save"):
        assert name in cases
