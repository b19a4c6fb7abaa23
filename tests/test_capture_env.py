"""``sbcbench capture --lg-env`` with an environment file labgrid cannot use (issue 23 item 19):
exit 2 and one line naming the file and what is wrong, never a traceback; nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_sbcbench.cli import main

ENVS = {
    "unclosed-flow": "targets: [\n  main: {",
    "resources-not-a-mapping": "targets:\n  main:\n    resources: 7\n",
    "top-level-list": "- 1\n- 2\n",
    "unknown-resource": "targets:\n  main:\n    resources:\n      NoSuchThing: {}\n",
    "empty": "",
    "no-main-target": "targets:\n  other:\n    resources: {}\n",
}


@pytest.mark.parametrize("name", sorted(ENVS))
def test_a_malformed_environment_is_a_clean_error(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("labgrid", reason="the [labgrid] extra is not installed")
    env = tmp_path / f"{name}.yaml"
    env.write_text(ENVS[name])
    monkeypatch.chdir(tmp_path)
    assert main(["capture", "--lg-env", str(env)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sbcbench capture: {env}: "), err
    assert err.count("\n") == 1, err  # one line
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [env.name]


def test_a_missing_or_directory_environment_is_a_clean_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("labgrid", reason="the [labgrid] extra is not installed")
    assert main(["capture", "--lg-env", str(tmp_path / "typo.yaml")]) == 2
    assert "typo.yaml: labgrid environment file not found" in capsys.readouterr().err
    assert main(["capture", "--lg-env", str(tmp_path)]) == 2
    assert "not a usable labgrid environment: IsADirectoryError" in capsys.readouterr().err
