"""Pinned checkouts: a full commit SHA and a verified tree fingerprint, or nothing.

A compile time measured on "whatever main was" is an orphan.  :func:`checkout` clones (or
reuses) a cached clone, resolves the commit to exactly one full SHA, checks it out detached and
clean, and fingerprints the tree so a baseline is only ever compared with the same tree."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..errors import CheckoutError
from .fingerprint import Fingerprint, fingerprint, tracked_files
from .git import NetworkError, commits_with_prefix, git, is_hex_commit, ref_names
from .tools import run_tool

MIRROR_ENV = "SBCBENCH_GIT_MIRROR"
TIERS = ("pinned", "head")


@dataclass(frozen=True)
class Tree:
    url: str
    requested: str
    sha: str
    tier: str
    path: Path
    fingerprint: Fingerprint


def repo_name(url: str) -> str:
    """``https://github.com/o/ballistics-engine.git`` -> ``ballistics-engine``."""
    return url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")


def is_url(url: str) -> bool:
    """A ``scheme://`` URL or an scp-like ``user@host:path``; anything else is a local path."""
    return bool(re.match(r"^[a-z][a-z0-9+.-]*://", url) or re.match(r"^[^/]+@[^/]+:", url))


def local_source(url: str) -> str:
    """A local path (bare repository included) as an absolute path; URLs unchanged."""
    if is_url(url):
        return url
    return str(Path(url).expanduser().resolve())


def source_for(url: str) -> str:
    """``$SBCBENCH_GIT_MIRROR/<name>[.git]`` when such a mirror exists, else the URL."""
    mirror = os.environ.get(MIRROR_ENV)
    if mirror:
        name = repo_name(url)
        for candidate in (Path(mirror) / name, Path(mirror) / f"{name}.git"):
            if candidate.exists():
                return str(candidate)
    return local_source(url)


def local_path(source: str) -> Path | None:
    """The directory a local source names (a path, or a ``file://`` URL); None for a remote."""
    if source.startswith("file://"):
        return Path(unquote(urlsplit(source).path))
    return None if is_url(source) else Path(source)


def check_local(url: str, source: str) -> Path | None:
    """A local repository that does not exist is the user's typo, not a network problem: a
    :class:`CheckoutError` naming it (never a skip).  Returns the local path, if any."""
    path = local_path(source)
    if path is not None and not path.exists():
        raise CheckoutError(f"repository {url}: {path} does not exist (a local path or file:// "
                            "URL, so this is not a network problem: fix the path)")
    return path


def clone_dir(cache: Path, url: str) -> Path:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", url.rstrip("/").rsplit("/", 1)[-1])[:40].strip("-")
    return cache / "checkouts" / f"{slug}-{hashlib.sha256(url.encode()).hexdigest()[:10]}"


PARTIAL = ".partial-"
REMOVE_TRIES = 50


def remove_tree(path: Path) -> None:
    """Remove ``path`` entirely.  After an interrupt, git's killed helpers (same process group)
    may still be exiting and finishing a last write: retry until the directory is gone."""
    for _ in range(REMOVE_TRIES):
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.lexists(path):
            return
        time.sleep(0.1)
    shutil.rmtree(path)  # still there: fail loudly, naming it


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_partials(repo: Path) -> list[Path]:
    """Remove ``<repo>.partial-<pid>`` directories left by clones whose process is gone (a
    run killed with SIGKILL cannot clean up after itself).  Returns those removed."""
    removed = []
    for old in repo.parent.glob(repo.name + PARTIAL + "*"):
        pid = old.name.rsplit("-", 1)[-1]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            remove_tree(old)
            removed.append(old)
    return removed


def ensure_clone(source: str, repo: Path) -> None:
    """Clone once into the cache (via a temporary name, so an interrupt leaves no half clone:
    the executor kills git's whole process group on Ctrl-C, or SIGTERM, SIGHUP or SIGQUIT
    under the plugin, then the partial directory is removed)."""
    if (repo / ".git").is_dir():
        return
    repo.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_partials(repo)
    tmp = repo.with_name(repo.name + f"{PARTIAL}{os.getpid()}")
    remove_tree(tmp)
    try:
        git(None, "clone", "--no-checkout", "--quiet", source, str(tmp), timeout=3600)
    except BaseException:
        remove_tree(tmp)
        raise
    os.replace(tmp, repo)


def resolve(repo: Path, commit: str, tier: str) -> str | None:
    """Exactly one full SHA for ``commit``; None when the clone does not have it yet."""
    if is_hex_commit(commit):
        refs = ref_names(repo, commit)
        shas = commits_with_prefix(repo, commit)
        if refs and tier == "pinned":
            raise CheckoutError(f"commit {commit!r} is ambiguous: it is also the name of "
                                f"{', '.join(refs)}; give more hex digits")
        if len(shas) > 1:
            raise CheckoutError(f"commit {commit!r} is ambiguous: it matches "
                                f"{', '.join(s[:12] for s in shas)}; give more hex digits")
        return shas[0] if shas else None
    if tier == "pinned":
        raise CheckoutError(f"{commit!r} is a branch or tag name; the pinned tier needs a "
                            "commit SHA (a name moves, a SHA does not)")
    for ref in (f"refs/remotes/origin/{commit}", f"refs/tags/{commit}"):
        if ref in git(repo, "for-each-ref", "--format=%(refname)").split():
            return git(repo, "rev-parse", "--verify", f"{ref}^{{commit}}",
                       expect_output=True).strip()
    return None


def _lockfile(repo: Path, sha: str, cargo: str | None) -> str:
    tracked = tracked_files(repo, sha)
    if "Cargo.toml" not in tracked:
        return "none"
    if "Cargo.lock" in tracked:
        return "tracked"
    if cargo is None:
        raise CheckoutError(f"{repo}: no Cargo.lock at {sha[:12]} and no cargo to resolve one "
                            "(install Rust: apt-get install cargo)")
    run_tool([cargo, "generate-lockfile"], 1800, "cargo generate-lockfile", expect_output=False,
             cwd=repo)
    return "generated"


def check_expect(tree: Tree, expect: Mapping[str, int] | None) -> None:
    found = tree.fingerprint.as_dict()
    wrong = {k: (v, found.get(k)) for k, v in (expect or {}).items() if found.get(k) != v}
    if wrong:
        detail = ", ".join(f"{k}: expected {e}, found {f}" for k, (e, f) in wrong.items())
        raise CheckoutError(f"tree fingerprint of {tree.url} at {tree.sha} differs ({detail}): "
                            "not the tree the baseline was measured on")


def _clone_and_resolve(source: str, repo: Path, commit: str, tier: str) -> str | None:
    ensure_clone(source, repo)
    sha = resolve(repo, commit, tier)
    if sha is None:
        git(repo, "fetch", "--quiet", "--tags", "origin",
            "+refs/heads/*:refs/remotes/origin/*", timeout=3600)
        sha = resolve(repo, commit, tier)
    return sha


def checkout(url: str, commit: str, cache: Path, *, tier: str = "pinned",
             expect: Mapping[str, int] | None = None, cargo: str | None = None) -> Tree:
    if tier not in TIERS:
        raise CheckoutError(f"unknown tier {tier!r}; use one of {', '.join(TIERS)}")
    source = source_for(url)
    local = check_local(url, source)
    repo = clone_dir(cache, url)
    try:
        sha = _clone_and_resolve(source, repo, commit, tier)
    except NetworkError as exc:
        if local is None:
            raise  # an unreachable remote: the fixture skips with the mirror hint
        last = (exc.stderr.strip().splitlines() or ["no output"])[-1]
        raise CheckoutError(f"repository {url}: git cannot read the local repository {local} "
                            f"({last})") from exc
    if sha is None:
        raise CheckoutError(f"commit {commit!r} not found in {url}")
    git(repo, "checkout", "--quiet", "--detach", "--force", sha)
    git(repo, "clean", "-fdxq")
    lockfile = _lockfile(repo, sha, cargo)
    tree = Tree(url, commit, sha, tier, repo, fingerprint(repo, sha, lockfile))
    check_expect(tree, expect)
    return tree
