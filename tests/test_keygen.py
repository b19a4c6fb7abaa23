"""``sbcbench keygen`` writes new files only (issue 23 item 23): a dangling ``PREFIX.pub``
symlink is refused, not written through to wherever it points, and no half pair is left."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_sbcbench.cli import main
from pytest_sbcbench.errors import SignatureError
from pytest_sbcbench.judge import signing


def test_a_dangling_public_key_symlink_is_refused(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    keys, outside = tmp_path / "keys", tmp_path / "outside"
    keys.mkdir()
    outside.mkdir()
    (keys / "lab.pub").symlink_to(outside / "planted.pub")
    assert main(["keygen", str(keys / "lab")]) == 2
    err = capsys.readouterr().err
    assert "lab.pub: refusing to overwrite a symlink" in err
    assert list(outside.iterdir()) == []  # nothing written through the link
    assert sorted(p.name for p in keys.iterdir()) == ["lab.pub"]  # no private key left behind
    assert (keys / "lab.pub").is_symlink()


def test_a_dangling_private_key_symlink_is_refused(tmp_path: Path) -> None:
    (tmp_path / "lab.key").symlink_to(tmp_path / "elsewhere.key")
    with pytest.raises(SignatureError, match=r"lab\.key: refusing to overwrite a symlink"):
        signing.keygen(tmp_path / "lab")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lab.key"]


def test_a_new_pair_is_private_and_usable(tmp_path: Path) -> None:
    private, public = signing.keygen(tmp_path / "lab")
    assert private.stat().st_mode & 0o777 == 0o600
    assert signing.public_key(public) is not None
    with pytest.raises(SignatureError, match="refusing to overwrite an existing file"):
        signing.keygen(tmp_path / "lab")
    assert signing.public_key(public) is not None  # the first pair is untouched
