"""Pinned checkouts and clean builds on real local git repositories made in tmp_path; a local
path or file URL that is missing or no repository is an error, never a network skip."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_sbcbench.errors import BuildError, CheckoutError
from pytest_sbcbench.measure import offline_crate
from pytest_sbcbench.measure import timed_build as builds
from pytest_sbcbench.measure.checkout import MIRROR_ENV, checkout, clone_dir, local_path
from pytest_sbcbench.measure.fingerprint import count_crates, count_lines
from pytest_sbcbench.measure.git import NetworkError

needs_cargo = pytest.mark.skipif(shutil.which("cargo") is None,
                                 reason="cargo not on PATH (install Rust)")
needs_make = pytest.mark.skipif(shutil.which("make") is None or shutil.which("cc") is None,
                                reason="make and cc needed (apt-get install build-essential)")
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git not found on PATH")

CARGO_TOML = '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n'
LOCK = ('version = 3\n\n[[package]]\nname = "tiny"\nversion = "0.1.0"\n')
LIB_V1 = "pub fn add(a: u64, b: u64) -> u64 {\n    a + b\n}\n"
LIB_V2 = LIB_V1 + "\npub fn mul(a: u64, b: u64) -> u64 {\n    a * b\n}\n"
MAKEFILE = "all: prog\nprog: a.o b.o\n\tcc -o prog a.o b.o\n%.o: %.c\n\tcc -c $< -o $@\n" \
           "clean:\n\trm -f prog *.o\n"


def git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, env=env).stdout.strip()


def commit_files(repo: Path, files: dict[str, str], message: str) -> str:
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    git(repo, "add", "--all")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def crate(tmp_path: Path) -> tuple[Path, str, str]:
    """A dependency-free Rust crate with two commits: (repo, first sha, second sha)."""
    repo = tmp_path / "tiny"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    first = commit_files(repo, {"Cargo.toml": CARGO_TOML, "Cargo.lock": LOCK,
                                "src/lib.rs": LIB_V1}, "one")
    second = commit_files(repo, {"src/lib.rs": LIB_V2, "src/extra.rs": "// x\n"}, "two")
    return repo, first, second


@pytest.fixture
def ctree(tmp_path: Path) -> tuple[Path, str]:
    repo = tmp_path / "ctree"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    sha = commit_files(repo, {"Makefile": MAKEFILE, "a.c": "int f(void);\nint main(void) "
                              "{ return f(); }\n", "b.c": "int f(void) { return 0; }\n"}, "c")
    return repo, sha


def test_exact_fingerprints_and_short_sha(crate: tuple[Path, str, str], tmp_path: Path) -> None:
    repo, first, second = crate
    tree = checkout(f"file://{repo}", first[:7], tmp_path / "cache",
                    expect={"files": 1, "loc": 3, "crates": 1})
    assert tree.sha == first and len(tree.sha) == 40
    assert (tree.fingerprint.files, tree.fingerprint.loc, tree.fingerprint.lockfile) == \
        (1, 3, "tracked")
    assert git(tree.path, "rev-parse", "HEAD") == first
    detached = subprocess.run(["git", "-C", str(tree.path), "symbolic-ref", "-q", "HEAD"],
                              capture_output=True)
    assert detached.returncode == 1  # HEAD is detached at the commit, not on a branch
    newer = checkout(str(repo), second[:8], tmp_path / "cache")
    assert (newer.fingerprint.files, newer.fingerprint.loc) == (2, 8)


def test_counts_like_wc_and_cargo_lock() -> None:
    assert count_lines(b"a\nb\nno newline at end") == 2
    assert count_crates(LOCK + '\n[[package]]\nname = "x"\n') == 2


def test_wrong_expect_names_the_fingerprint(crate: tuple[Path, str, str],
                                            tmp_path: Path) -> None:
    repo, first, _ = crate
    with pytest.raises(CheckoutError) as err:
        checkout(str(repo), first, tmp_path / "cache", expect={"files": 43, "loc": 16639})
    text = str(err.value)
    assert "fingerprint" in text and "not the tree the baseline was measured on" in text
    assert "files: expected 43, found 1" in text and "loc: expected 16639, found 3" in text


def test_branch_names_are_refused_for_pinned(crate: tuple[Path, str, str],
                                             tmp_path: Path) -> None:
    repo, _, second = crate
    with pytest.raises(CheckoutError, match="branch or tag name; the pinned tier needs"):
        checkout(str(repo), "main", tmp_path / "cache")
    head = checkout(str(repo), "main", tmp_path / "cache", tier="head")
    assert head.sha == second and head.tier == "head"


def test_unknown_commit_is_named(crate: tuple[Path, str, str], tmp_path: Path) -> None:
    repo, _, _ = crate
    with pytest.raises(CheckoutError, match="commit 'abcdef12' not found in"):
        checkout(str(repo), "abcdef12", tmp_path / "cache")


def test_hex_looking_branch_is_ambiguous(crate: tuple[Path, str, str], tmp_path: Path) -> None:
    repo, first, _ = crate
    git(repo, "branch", first[:6], first)  # a branch named like the short SHA
    with pytest.raises(CheckoutError, match="ambiguous"):
        checkout(str(repo), first[:6], tmp_path / "cache")


def test_ambiguous_short_sha(tmp_path: Path) -> None:
    """Thousands of commits through git fast-import until two share a 4-digit prefix."""
    repo = tmp_path / "many"
    repo.mkdir()
    git(repo, "init", "-q")
    stream = []
    for i in range(1500):
        msg = f"c{i}"
        stream.append(f"commit refs/heads/main\ncommitter t <t@t> {1700000000 + i} +0000\n"
                      f"data {len(msg)}\n{msg}\n")
    subprocess.run(["git", "-C", str(repo), "fast-import", "--quiet"], check=True,
                   input="".join(stream), text=True)
    shas = git(repo, "rev-list", "--all").split()
    seen: dict[str, str] = {}
    prefix = next(s[:4] for s in shas if seen.setdefault(s[:4], s) != s)
    with pytest.raises(CheckoutError, match=f"commit '{prefix}' is ambiguous: it matches"):
        checkout(str(repo), prefix, tmp_path / "cache")


def test_cache_is_reused(crate: tuple[Path, str, str], tmp_path: Path) -> None:
    repo, first, second = crate
    cache = tmp_path / "cache"
    checkout(str(repo), first, cache)
    marker = clone_dir(cache, str(repo)) / ".git" / "sbcbench-marker"
    marker.write_text("still here")
    tree = checkout(str(repo), second, cache)
    assert marker.read_text() == "still here" and tree.sha == second


def test_new_commits_are_fetched(crate: tuple[Path, str, str], tmp_path: Path) -> None:
    repo, first, _ = crate
    cache = tmp_path / "cache"
    checkout(str(repo), first, cache)
    third = commit_files(repo, {"src/more.rs": "// more\n"}, "three")
    assert checkout(str(repo), third[:9], cache).sha == third


def test_bare_repository_and_mirror(crate: tuple[Path, str, str], tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    repo, first, _ = crate
    mirrors = tmp_path / "mirrors"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(mirrors / "tiny.git")],
                   check=True)
    assert checkout(str(mirrors / "tiny.git"), first, tmp_path / "c1").sha == first
    monkeypatch.setenv(MIRROR_ENV, str(mirrors))
    tree = checkout("https://example.invalid/owner/tiny", first, tmp_path / "c2")
    assert tree.sha == first and tree.url == "https://example.invalid/owner/tiny"


def test_unreachable_remote_is_a_network_error(tmp_path: Path) -> None:
    with pytest.raises(NetworkError):
        checkout("https://nonexistent.invalid/owner/repo.git", "abcdef1", tmp_path / "cache")


@needs_cargo
def test_missing_lock_is_resolved_fresh(tmp_path: Path) -> None:
    repo = tmp_path / "nolock"
    repo.mkdir()
    git(repo, "init", "-q")
    sha = commit_files(repo, {"Cargo.toml": CARGO_TOML, "src/lib.rs": LIB_V1}, "no lock")
    tree = checkout(str(repo), sha, tmp_path / "cache", cargo=shutil.which("cargo"))
    assert tree.fingerprint.lockfile == "generated" and tree.fingerprint.crates == 1
    with pytest.raises(CheckoutError, match="no cargo to resolve one"):
        checkout(str(repo), sha, tmp_path / "cache2")


@needs_make
def test_every_timed_run_is_clean(ctree: tuple[Path, str], tmp_path: Path) -> None:
    repo, sha = ctree
    tree = checkout(str(repo), sha, tmp_path / "cache")
    log = tmp_path / "build.log"
    builds.run_logged(["make"], tree.path, log, None, "warm-up")
    prepare = builds.prepare_clean(["make", "clean"], tree.path, log, None, None)
    runs = []
    ticks = iter(range(100))

    def clock() -> float:  # every reading 2.5 s after the last: each build lasts 2.5 s
        return 2.5 * next(ticks)
    for _ in range(2):
        prepare()
        runs.append(builds.run_logged(["make"], tree.path, log, None, "build", clock))
    assert log.read_text().count("cc -c a.c -o a.o") == 3  # warm-up + two full rebuilds
    assert [r.wall_s for r in runs] == [2.5, 2.5]
    # the compiler's real CPU time, reaped: a rebuild that cost none was not accounted
    assert all(r.user_s + r.sys_s > 0 and r.max_process_rss_bytes > 0 for r in runs)
    # sampled every 0.1 s: a build that short may end unseen, which is unknown, not 0 bytes
    assert all(r.peak_tree_rss_bytes is None or r.peak_tree_rss_bytes > 0 for r in runs)


@needs_make
def test_failing_build_shows_command_and_log_tail(ctree: tuple[Path, str],
                                                  tmp_path: Path) -> None:
    repo, _ = ctree
    broken = commit_files(repo, {"b.c": "int f(void) { return syntax error; }\n"}, "broken")
    tree = checkout(str(repo), broken, tmp_path / "cache")
    with pytest.raises(BuildError) as err:
        builds.run_logged(["make"], tree.path, tmp_path / "b.log", None, "build")
    text = str(err.value)
    assert "build failed" in text and "command: make" in text and "error" in text


def test_offline_crate_is_deterministic(tmp_path: Path) -> None:
    repo = offline_crate.ensure_repo(tmp_path)
    assert git(repo, "rev-parse", "HEAD") == offline_crate.SHA
    tree = checkout(f"file://{repo}", offline_crate.SHA[:12], tmp_path / "cache",
                    expect=offline_crate.EXPECT)
    assert tree.fingerprint.files == offline_crate.MODULES + 1


def test_with_jobs() -> None:
    assert builds.with_jobs(["cargo", "build"], 4) == ["cargo", "build", "-j", "4"]
    assert builds.with_jobs(["./build.sh"], 4) == ["./build.sh"]
    assert builds.with_jobs(["make"], None) == ["make"]


REAL_HOME = Path.home()  # pytester points HOME elsewhere; rustup needs its own


def keep_rust_toolchain(monkeypatch: pytest.MonkeyPatch) -> None:
    for var, folder in (("RUSTUP_HOME", ".rustup"), ("CARGO_HOME", ".cargo")):
        if var not in os.environ and (REAL_HOME / folder).is_dir():
            monkeypatch.setenv(var, str(REAL_HOME / folder))


@needs_cargo
def test_compile_bench_end_to_end(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                  crate: tuple[Path, str, str]) -> None:
    keep_rust_toolchain(monkeypatch)
    repo, first, _ = crate
    pytester.makepyfile(test_tiny=f"""
        import pytest

        @pytest.mark.compile
        def test_tiny(pinned_checkout, compile_bench):
            tree = pinned_checkout("file://{repo}", "{first[:7]}",
                                   expect={{"files": 1, "loc": 3, "crates": 1}})
            compile_bench(tree, build=["cargo", "build", "--release", "--offline"],
                          clean=["cargo", "clean"], runs=2)

        @pytest.mark.compile
        def test_wrong_tree(pinned_checkout):
            pinned_checkout("file://{repo}", "{first[:7]}", expect={{"files": 43}})
    """)
    out = pytester.path / "r.json"
    result = pytester.runpytest("--sbc-cache", str(pytester.path / "cache"), "--sbc-quick",
                                "--sbc-idle-wait", "0", "--sbc-results", str(out),
                                "-p", "no:benchmark")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*fingerprint*not the tree the baseline was measured on*"])
    entry = json.loads(out.read_text())["results"][0]
    assert len(entry["samples"]) == 2 and entry["unit"] == "s" and entry["better"] == "lower"
    identity = entry["identity"]
    assert identity["commit"] == first and identity["repository"] == "local:tiny"
    assert identity["toolchain"].startswith("rustc ") and "cargo " in identity["toolchain"]
    assert (identity["files"], identity["loc"], identity["crates"]) == (1, 3, 1)
    runs = entry["telemetry"]["runs"]
    assert len(runs) == 2 and all(r["user_s"] + r["sys_s"] > 0 and r["max_process_rss_bytes"] > 0
                                  for r in runs)
    # sampled: a sub-interval build on a loaded machine may end unseen (None), never 0
    assert all(r["peak_tree_rss_bytes"] is None or r["peak_tree_rss_bytes"] > 0 for r in runs)
    assert "swap_used_max_bytes" in entry["telemetry"]
    assert Path(entry["telemetry"]["log"]).exists()


def test_unreachable_remote_skips_with_a_mirror_hint(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        def test_remote(pinned_checkout):
            pinned_checkout("https://nonexistent.invalid/ajokela/ballistics-engine", "2821bba")
    """)
    result = pytester.runpytest("--sbc-cache", str(pytester.path / "cache"), "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*cannot reach https://nonexistent.invalid/*SBCBENCH_GIT_MIRROR"
                                 "=DIR where DIR holds ballistics-engine or "
                                 "ballistics-engine.git*"])


def tiny_compile_test(pytester: pytest.Pytester, repo: Path, first: str) -> None:
    """A test of two timed runs of the tiny crate at ``first``, through ``compile_bench``."""
    pytester.makepyfile(test_tiny=f"""
        def test_tiny(pinned_checkout, compile_bench):
            tree = pinned_checkout("file://{repo}", "{first[:7]}")
            handle = compile_bench(tree, build=["cargo", "build", "--release", "--offline"],
                                   clean=["cargo", "clean"], runs=2, warmup=0)
            assert handle.summary.n == 2 and not handle.final
    """)


@needs_cargo
def test_compile_bench_runs_go_through_pytest_benchmark(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
        crate: tuple[Path, str, str]) -> None:
    """pytest-benchmark is the integration it is: the timed runs go through its public
    ``benchmark.pedantic`` (clean as setup) and the identity lands in its ``extra_info``."""
    keep_rust_toolchain(monkeypatch)
    repo, first, _ = crate
    tiny_compile_test(pytester, repo, first)
    bench_json = pytester.path / "bench.json"
    result = pytester.runpytest("--sbc-cache", str(pytester.path / "cache"),
                                "--sbc-idle-wait", "0", "--benchmark-json", str(bench_json))
    result.assert_outcomes(passed=1)
    (entry,) = json.loads(bench_json.read_text())["benchmarks"]
    assert entry["stats"]["rounds"] == 2
    assert entry["extra_info"]["commit"] == first and entry["extra_info"]["tool"] == "cargo"


@needs_cargo
def test_a_disabled_pytest_benchmark_runs_the_plain_loop_without_a_warning(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
        crate: tuple[Path, str, str]) -> None:
    """``--benchmark-disable`` (and every pytest-xdist worker, which pytest-benchmark disables
    itself on) runs the planned runs through the plain loop; the fixture asked for is marked
    used, so pytest-benchmark's "fixture was not used at all" warning cannot fail the test
    under ``-W error`` (it did: an error at teardown of every compile test)."""
    keep_rust_toolchain(monkeypatch)
    repo, first, _ = crate
    tiny_compile_test(pytester, repo, first)
    result = pytester.runpytest("--sbc-cache", str(pytester.path / "cache"),
                                "--sbc-idle-wait", "0", "--benchmark-disable", "-W", "error")
    result.assert_outcomes(passed=1)
    assert "not used at all" not in result.stdout.str()


def test_local_paths_and_file_urls_are_local() -> None:
    assert local_path("file:///srv/git/my%20repo.git") == Path("/srv/git/my repo.git")
    assert local_path("/srv/git/repo") == Path("/srv/git/repo")
    assert local_path("https://example.org/o/r.git") is None
    assert local_path("git@example.org:o/r.git") is None


@needs_git
@pytest.mark.parametrize("form", ["file", "path"])
def test_a_missing_local_repository_is_an_error_not_a_skip(tmp_path: Path, form: str) -> None:
    missing = tmp_path / "no-such-repo.git"
    url = f"file://{missing}" if form == "file" else str(missing)
    with pytest.raises(CheckoutError, match=f"{missing} does not exist .*not a network problem"):
        checkout(url, "abcdef1", tmp_path / "cache")


@needs_git
def test_a_local_directory_that_is_not_a_repository_is_an_error(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(CheckoutError, match=f"git cannot read the local repository {plain}"):
        checkout(f"file://{plain}", "abcdef1", tmp_path / "cache")


@needs_git
def test_an_unreachable_remote_is_still_a_network_skip(tmp_path: Path) -> None:
    with pytest.raises(NetworkError):
        checkout("https://127.0.0.1:9/owner/repo.git", "abcdef1", tmp_path / "cache")
