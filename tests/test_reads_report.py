"""What a person reads from ``sbcbench report``: a before/after of one board's files, fleet
charts with titles, units and block sizes, trace charts of what the machine has, and the
real reason when no chart is drawn.  Real files: the QEMU a72 board on kernels 6.1 and 6.12,
the published fleet, a trace of this VM.  Charts are built in child processes (matplotlib's C
extensions load once per process; in-process pytester runs may have unloaded it)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import DATA, REPO
from pytest_sbcbench.cli import main
from pytest_sbcbench.report import beforeafter
from pytest_sbcbench.report.compare import compare, load_reference
from pytest_sbcbench.report.fleet import load_fleet
from pytest_sbcbench.report.markdown import render
from pytest_sbcbench.report.results import load_results
from pytest_sbcbench.words import pct_text

OLD = DATA / "this_machine" / "results_qemu-a72_kernel-6.1.json"
NEW = DATA / "this_machine" / "results_qemu-a72_kernel-6.12.json"
OTHER = DATA / "this_machine" / "results_crypto-quick_generic-x86_64.json"
TRACE = DATA / "this_machine" / "trace_openssl-scaling_2vcpu-vm.csv"
PUBLISHED = sorted((REPO / "baselines" / "published").glob("*.json"))
needs_plot = pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                                reason="charts need the 'plot' extra")


def child(script: str, cwd: Path) -> object:
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=cwd)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def with_label(tmp_path: Path, source: Path, name: str, label: str | None) -> Path:
    data = json.loads(source.read_text())
    if label is not None:
        data["environment"]["label"] = label
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_columns_are_named_by_kernel_then_label_and_never_alike(tmp_path: Path) -> None:
    files = [(p, load_results(p).environment) for p in (OLD, NEW)]
    assert beforeafter.column_names(files) == ["6.1.0-57-arm64", "6.12.118+deb13-arm64"]
    labelled = with_label(tmp_path, NEW, "new.json", "v6.12-rc1-candidate")
    assert beforeafter.column_names([files[0], (labelled, load_results(labelled).environment)]
                                    ) == ["6.1.0-57-arm64", "v6.12-rc1-candidate"]
    # the same kernel twice: the file names tell them apart
    again = [(OLD, files[0][1]), (tmp_path / "rerun.json", files[0][1])]
    assert beforeafter.column_names(again) == ["6.1.0-57-arm64 (results_qemu-a72_kernel-6.1.json)",
                                               "6.1.0-57-arm64 (rerun.json)"]
    # the same file twice: still two names
    names = beforeafter.column_names([(OLD, files[0][1]), (OLD, files[0][1])])
    assert len(set(names)) == 2


def test_report_of_two_kernels_is_a_before_after(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(OLD), str(NEW)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Before/after: generic-aarch64")
    assert "Values are medians of the runs" in out
    assert "| metric | 6.1.0-57-arm64 median | 6.12.118+deb13-arm64 median | " \
        "6.12.118+deb13-arm64 vs 6.1.0-57-arm64 |" in out
    # the same gate as sbcbench compare: its change, interval and verdict
    loaded = load_results(NEW)
    done = compare(load_reference(OLD), loaded.board, loaded.environment, loaded.results, {})
    for _, verdict in done.verdicts:
        e = verdict.evidence
        assert e is not None
        low, high = e.ci_pct
        if low is not None and high is not None and (high < 0 or low > 0 or (
                low > -50 and high < 50)):
            cell = (f"{e.change_pct:+.1f}% [{low:+.1f}%, {high:+.1f}%] "
                    f"{e.confidence_pct:.0f}% CI: {verdict.status}")
        else:  # an interval that holds no change and reaches past 50%: said as such
            cell = (f"{e.change_pct:+.1f}% (cannot tell: the interval spans "
                    f"{pct_text(low) if low is not None else 'unbounded'} .. "
                    f"{pct_text(high) if high is not None else 'unbounded'}): "
                    f"{verdict.status}")
        assert f"| {cell} |" in out, cell
    assert "| aes-128-gcm (higher is better) | 7.10 MB/s (n=2) | 4.28 MB/s (n=2) |" in out


def test_before_after_json_and_fleet_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(OLD), str(NEW), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["view"] == "before-after" and data["values"] == "median"
    assert [c["name"] for c in data["columns"]] == ["6.1.0-57-arm64", "6.12.118+deb13-arm64"]
    loaded = load_results(NEW)
    done = compare(load_reference(OLD), loaded.board, loaded.environment, loaded.results, {})
    assert [r["verdicts"][0]["status"] for r in data["rows"]] == [
        v.status for _, v in done.verdicts]  # the gate's verdicts, whatever the engine says
    assert main(["report", str(OLD), str(NEW), "--view", "fleet"]) == 0
    assert capsys.readouterr().out.startswith("# Fleet report")
    assert main(["report", str(OLD), str(OTHER)]) == 0  # two boards: a fleet
    assert "from 2 machines; values are means of each result's runs" in capsys.readouterr().out


def test_fleet_tables_say_means_and_count_right() -> None:
    """The fleet ranks means, as the seeds' published tables ("mean of three"), and says so
    beside the terminal's medians; one machine is "1 machine"."""
    text = render(load_fleet([OLD]), {})
    assert "2 results from 1 machine; values are means of each result's runs" in text
    assert "(the terminal shows medians" in text
    assert "| # | board | mean | vs best |" in render(load_fleet(PUBLISHED), {})


@needs_plot
def test_no_charts_gives_the_real_reason(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "report", str(OLD),
                           "--out", str(tmp_path / "one")], capture_output=True, text=True,
                          check=True)
    assert "no charts: fleet charts need the same measurement from at least two boards " \
        "(compile rankings three); these files hold 1 board" in done.stderr
    assert "pip install" not in done.stderr


def test_no_charts_without_matplotlib(tmp_path: Path) -> None:
    """A child whose matplotlib cannot be imported (a module of that name that raises)."""
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "matplotlib.py").write_text("raise ImportError('not installed here')\n")
    done = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "report",
                           *map(str, PUBLISHED), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": str(fake), "PATH": "/usr/bin:/bin"})
    assert "no charts: matplotlib is not installed (pip install 'pytest-sbcbench[plot]')" \
        in done.stderr


@needs_plot
def test_before_after_chart(tmp_path: Path) -> None:
    script = f"""
import json
from pathlib import Path
from pytest_sbcbench.report import beforeafter, beforeafter_chart
from pytest_sbcbench.report.results import load_results
from pytest_sbcbench.report.trace import pyplot
paths = [Path({str(OLD)!r}), Path({str(NEW)!r})]
names = beforeafter.column_names([(p, load_results(p).environment) for p in paths])
cols = [beforeafter.Column(n, p, load_results(p)) for n, p in zip(names, paths)]
fig = beforeafter_chart.figure(pyplot(), cols, {{}})
print(json.dumps({{"title": fig._suptitle.get_text(),
    "panels": [ax.get_title(loc="left") for ax in fig.axes],
    "ticks": [[t.get_text() for t in ax.get_yticklabels()] for ax in fig.axes],
    "texts": [[t.get_text() for t in ax.texts] for ax in fig.axes],
    "xlabel": fig.axes[-1].get_xlabel()}}))
"""
    got = child(script, tmp_path)
    assert isinstance(got, dict)
    assert got["title"] == "generic-aarch64: before/after, medians"
    old, new = load_results(OLD), load_results(NEW)
    done = compare(load_reference(OLD), new.board, new.environment, new.results, {})
    (result, verdict), _ = done.verdicts
    assert got["panels"][0] == ("aes-128-gcm (MB/s, higher is better)\n6.12.118+deb13-arm64: "
                                + beforeafter.change_text(old.results[0], result, verdict))
    assert got["ticks"] == [["6.1.0-57-arm64", "6.12.118+deb13-arm64"]] * 2
    assert got["texts"][0] == ["  7.10 MB/s (n=2)", "  4.28 MB/s (n=2)"]
    assert "median of runs" in got["xlabel"] and "linear axis" in got["xlabel"]


@needs_plot
def test_fleet_crypto_chart_titles_units_legend_and_log_axis(tmp_path: Path) -> None:
    """The published 2026 table: star64 is 100x below the A76 on aes-128-gcm, so the axis is
    logarithmic (automatic), the title names workload, block size and threads, and the
    legend sits right of the axes, not over the bars."""
    script = f"""
import json
from pathlib import Path
from pytest_sbcbench.report import charts, fleet
from pytest_sbcbench.report.trace import pyplot
entries = fleet.load_fleet([Path(p) for p in {[str(p) for p in PUBLISHED]!r}])
out = []
plt = pyplot()
for identity, family in fleet.crypto_families(entries).items():
    for log in (None, False):
        fig = charts.crypto_figure(plt, family, identity, log) if len(family) > 1 else None
        if fig is None:
            continue
        ax = fig.axes[0]
        fig.canvas.draw()
        legend = ax.get_legend().get_window_extent()
        out.append({{"title": ax.get_title(), "ylabel": ax.get_ylabel(), "log": log,
                    "scale": ax.get_yscale(),
                    "legend_right_of_axes": bool(legend.x0 >= ax.get_window_extent().x1)}})
print(json.dumps(out))
"""
    got = child(script, tmp_path)
    assert isinstance(got, list) and got
    assert all(c["legend_right_of_axes"] for c in got)
    assert all("MB/s, mean of runs" in c["ylabel"] for c in got)
    assert all("-byte blocks" in c["title"] and "thread" in c["title"] for c in got)
    auto = {c["title"]: c for c in got if c["log"] is None}
    forced = {c["title"]: c for c in got if c["log"] is False}
    new = auto["crypto throughput: openssl speed -evp, 16384-byte blocks, 1 thread"]
    assert new["scale"] == "log" and "log axis" in new["ylabel"]
    assert forced[new["title"]]["scale"] == "linear"
    assert "linear axis" in forced[new["title"]]["ylabel"]


@needs_plot
def test_report_writes_charts_and_log_flag(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "report",
                           *map(str, PUBLISHED), "--no-log", "--out", str(tmp_path)],
                          capture_output=True, text=True, check=True)
    assert "chart files" in done.stderr
    assert (tmp_path / "crypto-0.png").read_bytes()[:4] == b"\x89PNG"
    done = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "report", str(OLD),
                           str(NEW), "--out", str(tmp_path / "ba")], capture_output=True,
                          text=True, check=True)
    assert "and 2 chart files" in done.stderr
    assert (tmp_path / "ba" / "before-after.png").read_bytes()[:4] == b"\x89PNG"


@needs_plot
def test_trace_chart_of_this_vm_plots_what_it_has(tmp_path: Path) -> None:
    """This VM's trace CSV (no cpufreq, no thermal zone): busy CPUs, steal and memory panels,
    no empty clock or temperature axes, the reasons said once under the panels, and no text
    outside the figure."""
    script = f"""
import json
from pathlib import Path
from pytest_sbcbench.report import trace, trace_figure
tr = trace.read_csv(Path({str(TRACE)!r}), {{"cpufreq": "no cpufreq", "thermal": "no zone"}})
fig = trace_figure.figure(trace.pyplot(), tr, "benchmarks/test_scaling.py::test_openssl_scaling")
fig.canvas.draw()
box = fig.bbox
inside = all(box.x0 - 1 <= t.get_window_extent().x0 and t.get_window_extent().x1 <= box.x1 + 1
             and box.y0 - 1 <= t.get_window_extent().y0 for t in fig.texts)
print(json.dumps({{"labels": [ax.get_ylabel() for ax in fig.axes],
                  "lines": [len(ax.lines) for ax in fig.axes],
                  "texts": [t.get_text() for t in fig.texts], "inside": inside,
                  "readings": len(tr.readings)}}))
"""
    got = child(script, tmp_path)
    assert isinstance(got, dict)
    assert got["labels"] == ["busy CPUs", "steal (% CPU)", "in use (MiB)"]
    assert got["lines"] == [2, 1, 2] and got["readings"] == 20
    assert got["texts"] == ["not sampled: clock (no cpufreq); temperature (no zone)"]
    assert got["inside"] is True


def test_trace_csv_reads_back(tmp_path: Path) -> None:
    from pytest_sbcbench.report import trace

    tr = trace.read_csv(TRACE)
    assert tr.cpus == () and tr.sensors == () and tr.interval == pytest.approx(1.0, abs=0.05)
    assert tr.readings[1].system_busy_cpus == 1.95 and tr.readings[1].mem_used == 973766656
    again = trace.write_csv(tr, tmp_path / "again.csv")
    head = again.read_text().splitlines()[0]
    assert head == TRACE.read_text().splitlines()[0]
    assert again.read_text() == TRACE.read_text()  # every cell survives the round trip


def _scaling_file(tmp_path: Path, name: str, kernel: str,
                  samples: dict[int, list[float]]) -> Path:
    """A results file of openssl's thread scaling: one test, one metric, 1 and 2 threads."""
    entries = [{"test": "benchmarks/test_scaling.py::test_openssl_scaling[sha256]",
                "metric": "scaling-openssl-sha256", "label": f"openssl sha256 x{threads}",
                "unit": "B/s", "better": "higher",
                "identity": {"tool": "openssl", "version": "3.0.19", "algorithm": "sha256",
                             "block_bytes": 16384, "threads": threads},
                "samples": values, "telemetry": {}, "verdict": {"status": "no-baseline"}}
               for threads, values in samples.items()]
    doc = {"schema": "sbcbench-results/1", "board": "generic-x86_64", "created": name,
           "environment": {"arch": "x86_64", "cpu_model": "c", "cpus": 2, "kernel": kernel},
           "results": entries}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc))
    return path


def test_before_after_rows_are_keyed_by_the_whole_identity(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28, item 8: 1- and 2-thread results of one test shared a row key, so `openssl
    sha256 x1` was dropped and the verdict shown could be the 2-thread one's."""
    old = _scaling_file(tmp_path, "old", "6.1", {1: [1.0e9, 1.01e9, 0.99e9],
                                                  2: [2.0e9, 2.01e9, 1.99e9]})
    new = _scaling_file(tmp_path, "new", "6.12", {1: [1.0e9, 1.005e9, 0.995e9],
                                                   2: [1.0e9, 1.01e9, 0.99e9]})
    assert main(["report", str(old), str(new)]) == 0
    out = capsys.readouterr().out
    row = {line.split(" | ")[0].lstrip("| "): line for line in out.splitlines()
           if line.startswith("| openssl")}
    assert set(row) == {"openssl sha256 x1 (higher is better)",
                        "openssl sha256 x2 (higher is better)"}, out
    assert "| 1,000.0 MB/s (n=3) | 1,000.0 MB/s (n=3) |" in row["openssl sha256 x1 (higher is "
                                                                "better)"]
    assert "-50.0%" in row["openssl sha256 x2 (higher is better)"]
    assert "-50.0%" not in row["openssl sha256 x1 (higher is better)"]
    assert main(["report", str(old), str(new), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["label"] for r in data["rows"]] == ["openssl sha256 x1", "openssl sha256 x2"]
