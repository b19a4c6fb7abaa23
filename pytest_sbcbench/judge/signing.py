"""Ed25519 signatures for baselines, so a kernel under test cannot edit its own baseline.

``sbcbench keygen PREFIX`` writes ``PREFIX.key`` (private, mode 0600) and ``PREFIX.pub``;
``sbcbench sign BASELINE --key KEY`` writes ``BASELINE.sig`` (base64 of the signature over the
file's exact bytes); ``--sbc-verify-key PUBKEY`` refuses baselines without a matching one."""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Callable
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..errors import SignatureError
from ..fileio import read_regular, write_atomic

SUFFIX = ".sig"
MAX_KEY_BYTES = 64 << 10  # a PEM key or a .sig is a few hundred bytes


def signature_path(baseline: Path) -> Path:
    return baseline.with_name(baseline.name + SUFFIX)


def keygen(prefix: Path) -> tuple[Path, Path]:
    """Write ``PREFIX.key`` (0600) and ``PREFIX.pub``, each created exclusively: an existing
    file or any symlink there (a dangling one included, which would write through to where it
    points) is refused, and a half-made pair is removed."""
    key = Ed25519PrivateKey.generate()
    private = prefix.with_name(prefix.name + ".key")
    public = prefix.with_name(prefix.name + ".pub")
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    pub = key.public_key().public_bytes(serialization.Encoding.PEM,
                                        serialization.PublicFormat.SubjectPublicKeyInfo)
    made: list[Path] = []
    try:
        for path, data, mode in ((private, pem, 0o600), (public, pub, 0o644)):
            fd = _create_new(path, mode)
            made.append(path)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
    except BaseException:
        for path in made:
            path.unlink(missing_ok=True)
        raise
    return private, public


def _create_new(path: Path, mode: int) -> int:
    """A new regular file at ``path`` (never through a symlink), opened for writing."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        return os.open(path, flags, mode)
    except FileExistsError as exc:
        what = "a symlink" if path.is_symlink() else "an existing file"
        raise SignatureError(path, f"refusing to overwrite {what} (keygen writes new files "
                                   "only)") from exc
    except OSError as exc:
        raise SignatureError(path, f"cannot create the key file: {exc.strerror}") from exc


def _private_key(path: Path) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(read_regular(path, MAX_KEY_BYTES),
                                                   password=None)
    except OSError as exc:
        raise SignatureError(path, f"cannot read private key: {exc.strerror or exc}") from exc
    except (ValueError, TypeError) as exc:
        raise SignatureError(path, f"cannot read private key: {exc}") from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise SignatureError(path, "not an Ed25519 private key")
    return key


def public_key(path: Path) -> Ed25519PublicKey:
    try:
        key = serialization.load_pem_public_key(read_regular(path, MAX_KEY_BYTES))
    except OSError as exc:
        raise SignatureError(path, f"cannot read public key: {exc.strerror or exc}") from exc
    except (ValueError, TypeError) as exc:
        raise SignatureError(path, f"cannot read public key: {exc}") from exc
    if not isinstance(key, Ed25519PublicKey):
        raise SignatureError(path, "not an Ed25519 public key")
    return key


def sign(baseline: Path, key_path: Path, data: bytes | None = None) -> Path:
    """Sign ``baseline``'s bytes (``data``: what stands for them, a directory's manifest)
    into ``BASELINE.sig``."""
    try:
        data = read_regular(baseline) if data is None else data
    except OSError as exc:
        raise SignatureError(baseline, f"cannot read: {exc.strerror}") from exc
    signature = _private_key(key_path).sign(data)
    out = signature_path(baseline)
    write_atomic(out, base64.b64encode(signature) + b"\n")
    return out


def read_signature(baseline: Path, what: str = "baseline") -> bytes:
    """The raw signature in ``BASELINE.sig``; a missing, unreadable or non-base64 one (a
    directory included) is a :class:`SignatureError` naming it (``what``: the signed file's
    kind, for the message)."""
    sig = signature_path(baseline)
    try:
        text = read_regular(sig, MAX_KEY_BYTES).decode("ascii").strip()
        return base64.b64decode(text, validate=True)
    except FileNotFoundError as exc:
        raise SignatureError(baseline, f"unsigned {what} (no {sig.name}); sign it with "
                                       "'sbcbench sign' or drop --sbc-verify-key") from exc
    except OSError as exc:
        raise SignatureError(sig, f"unreadable signature: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, binascii.Error, ValueError) as exc:
        raise SignatureError(sig, "not a signature written by 'sbcbench sign' (base64 of "
                                  "64 bytes)") from exc


def verify_bytes(data: bytes, baseline: Path, key: Ed25519PublicKey, what: str = "baseline"
                 ) -> None:
    """Raise :class:`SignatureError` unless ``data`` (the bytes read from ``baseline``, the ones
    the caller goes on to parse) carry a matching signature."""
    signature = read_signature(baseline, what)
    try:
        key.verify(signature, data)
    except InvalidSignature as exc:
        raise SignatureError(baseline, f"signature {signature_path(baseline).name} does not "
                                       f"match this {what}: it was changed after signing, or "
                                       "signed by another key") from exc


def require_signed(data: bytes | None, baseline: Path, key: Ed25519PublicKey, missing: str
                   ) -> bytes:
    """``data`` verified (:func:`verify_bytes`); None (nothing there to verify) is a
    :class:`SignatureError` saying ``missing``, never "no baseline"."""
    if data is None:
        raise SignatureError(baseline, missing)
    verify_bytes(data, baseline, key)
    return data


def signed_file_check(key_path: Path, what: str) -> Callable[[Path, bytes], None]:
    """A check that the bytes read from a file (a board profile) carry a signature by the
    key at ``key_path`` (read now: a missing key is an error before any file is)."""
    key = public_key(key_path)

    def check(path: Path, data: bytes) -> None:
        verify_bytes(data, path, key, what)
    return check


def verify(baseline: Path, key: Ed25519PublicKey) -> bytes:
    """Read ``baseline`` once, verify it, and return the verified bytes (parse those, never a
    second read: the file may change in between)."""
    try:
        data = read_regular(baseline)
    except OSError as exc:
        raise SignatureError(baseline, f"unreadable baseline: {exc.strerror or exc}") from exc
    verify_bytes(data, baseline, key)
    return data
