"""The sampler that runs on the board: a POSIX ``sh`` loop streaming one line per reading.

A board without Python still has a shell.  :func:`sampler_script` is a small ``sh`` program that
every ``interval`` seconds prints one line with the uptime clock, each CPU's cpufreq clock, max
and governor, every thermal zone's type and temperature, the CPU lines of the kernel's ``stat``
and four meminfo fields.  It uses only shell builtins (``read``, ``printf``, ``case``), so each
sample costs one fork: the ``sleep``.  On TERM it kills the current ``sleep`` (which never holds
the output channel, so even one started as the TERM arrives cannot keep the channel open), prints
a last sample (as the local sampler's stop does) and exits.  :func:`parse_lines` turns the lines
into the same :class:`~.sampler.Trace` the local sampler returns, so telemetry and validity
findings come out the same way.

The board has no process tree of the benchmark to follow, so load is the system's
(``load_source="system"``) and the CPUs counted as busy are those at least half busy over the
interval.  Kernel paths come from :mod:`..platform.sysroot`, the one module naming them.

Line format (records separated by ``|``, fields by spaces, ``-`` for unreadable)::

    S <uptime s>|F cpu<N> <cur kHz> <max kHz> <governor>|Z <zone> <type> <millidegrees>
    |C cpu<N?> <user> <nice> <system> <idle> <iowait> <irq> <softirq> <steal> ...
    |M <MemTotal kB> <MemAvailable kB> <SwapTotal kB> <SwapFree kB>

The first and the last sample also carry trip points (``P <zone> <kind> <millidegrees>``) and
cpufreq residency (``I cpu<N> <kHz>:<ticks>,...``).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..errors import ParseError, ToolError
from ..model import Reading, Sensor, Trace
from ..platform import thermal
from ..platform.executor import Executor, Spawned
from ..platform.sysroot import CPU_DIR, PROC, THERMAL_DIR

_SCRIPT = r"""interval=$1
rd() { v=; { read -r v < "$1"; } 2>/dev/null; [ -n "$v" ] || v=-; }
sample() {
  rd @PROC@/uptime; line="S ${v%% *}"
  for d in @CPU@/cpu[0-9]*; do
    [ -d "$d/cpufreq" ] || continue
    rd "$d/cpufreq/cpuinfo_cur_freq"; cur=$v
    [ "$cur" = - ] && { rd "$d/cpufreq/scaling_cur_freq"; cur=$v; }
    rd "$d/cpufreq/cpuinfo_max_freq"; max=$v
    rd "$d/cpufreq/scaling_governor"; line="$line|F ${d##*/} $cur $max $v"
    if [ "$1" = full ]; then
      tis=; f="$d/cpufreq/stats/time_in_state"
      { while read -r k n; do tis="$tis$k:$n,"; done < "$f"; } 2>/dev/null
      line="$line|I ${d##*/} ${tis:--}"
    fi
  done
  for z in @THERMAL@/thermal_zone*; do
    [ -d "$z" ] || continue
    rd "$z/type"; ty=$v; rd "$z/temp"; line="$line|Z ${z##*/} $ty $v"
    if [ "$1" = full ]; then
      for tp in "$z"/trip_point_*_temp; do
        [ -e "$tp" ] || continue
        rd "$tp"; tt=$v; rd "${tp%_temp}_type"; line="$line|P ${z##*/} $v $tt"
      done
    fi
  done
  { while read -r name rest; do
      case $name in cpu*) line="$line|C $name $rest" ;; *) break ;; esac
    done < @PROC@/stat; } 2>/dev/null
  mt=- ma=- st=- sf=-
  { while read -r k n _; do
      case $k in MemTotal:) mt=$n ;; MemAvailable:) ma=$n ;; SwapTotal:) st=$n ;;
                 SwapFree:) sf=$n ;; esac
    done < @PROC@/meminfo; } 2>/dev/null
  printf '%s|M %s %s %s %s\n' "$line" "$mt" "$ma" "$st" "$sf"
}
s=
trap '[ -n "$s" ] && kill "$s" 2>/dev/null; sample full; exit 0' TERM
sample full
while :; do
  sleep "$interval" </dev/null >/dev/null 2>&1 & s=$!
  wait "$s"; s=
  sample
done
"""

STAT_FIELDS = 8  # user nice system idle iowait irq softirq steal (guest is inside user)
BUSY_CPU_FRACTION = 0.5


def sampler_script(root: str = "/") -> str:
    """The board-side ``sh`` program; run it as ``sh -c SCRIPT sbcbench-sampler INTERVAL``.
    ``root`` prefixes every kernel path (a captured tree in tests)."""
    base = root.rstrip("/")
    return (_SCRIPT.replace("@PROC@", f"{base}/{PROC}").replace("@CPU@", f"{base}/{CPU_DIR}")
            .replace("@THERMAL@", f"{base}/{THERMAL_DIR}"))


def sampler_argv(interval: float, root: str = "/") -> list[str]:
    """The argv that starts the sampler on the board (``sleep`` takes whole seconds in POSIX;
    GNU and busybox accept fractions, which is what sub-second intervals rely on)."""
    return ["sh", "-c", sampler_script(root), "sbcbench-sampler", f"{interval:g}"]


Freq = tuple[int | None, int | None, str | None]  # cur kHz, max kHz, governor


@dataclass
class RawReading:
    """One parsed line, before it is placed in the trace's CPU and sensor order."""

    uptime: float
    freqs: dict[int, Freq] = field(default_factory=dict)
    zones: dict[str, tuple[str, int | None]] = field(default_factory=dict)
    stat: dict[str, tuple[int, ...]] = field(default_factory=dict)
    mem_kb: tuple[int | None, ...] = ()
    trips: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    residency: dict[int, dict[int, int]] = field(default_factory=dict)


def _int(word: str) -> int | None:
    return None if word == "-" else int(word)


def _cpu(word: str) -> int:
    if not word.startswith("cpu") or not word[3:].isdigit():
        raise ValueError(f"not a cpu name: {word!r}")
    return int(word[3:])


def _residency(word: str) -> dict[int, int]:
    pairs = [p.split(":") for p in word.split(",") if p] if word != "-" else []
    return {int(k): int(n) for k, n in pairs}


def _add(raw: RawReading, kind: str, words: list[str]) -> None:
    """Add one ``|``-separated record of a line to ``raw``."""
    if kind == "F":
        raw.freqs[_cpu(words[0])] = (_int(words[1]), _int(words[2]),
                                     None if words[3] == "-" else words[3])
    elif kind == "Z":
        raw.zones[words[0]] = (" ".join(words[1:-1]), _int(words[-1]))
    elif kind == "C":
        raw.stat[words[0]] = tuple(int(w) for w in words[1:])
    elif kind == "M":
        if len(words) != 4:
            raise ValueError("meminfo record needs 4 fields")
        raw.mem_kb = tuple(_int(w) for w in words)
    elif kind == "P":
        millis = _int(words[2])
        if millis is not None:
            raw.trips.setdefault(words[0], []).append((words[1], millis))
    elif kind == "I":
        raw.residency[_cpu(words[0])] = _residency(words[1])
    else:
        raise ValueError(f"unknown record {kind!r}")


def parse_line(line: str) -> RawReading:
    """One sampler line; anything else is a :class:`ParseError` quoting the line."""
    records = line.rstrip("\n").split("|")
    try:
        kind, _, uptime = records[0].partition(" ")
        if kind != "S":
            raise ValueError("a sample starts with 'S <uptime>'")
        raw = RawReading(float(uptime))
        for record in records[1:]:
            kind, *words = record.split(" ")
            _add(raw, kind, words)
        if not raw.mem_kb or "cpu" not in raw.stat:
            raise ValueError("no meminfo record or no total cpu line")
        if len(raw.stat["cpu"]) < STAT_FIELDS:
            raise ValueError(f"the cpu line has fewer than {STAT_FIELDS} fields")
        return raw
    except (ValueError, IndexError) as exc:
        raise ParseError("board sampler line", str(exc), line[:400]) from exc


def _busy(prev: tuple[int, ...], cur: tuple[int, ...]) -> tuple[float, float, float] | None:
    """(busy fraction, steal fraction, total ticks) of one kernel stat cpu line's interval."""
    delta = [c - p for p, c in zip(prev[:STAT_FIELDS], cur[:STAT_FIELDS], strict=False)]
    total = sum(delta)
    if total <= 0:
        return None
    idle = delta[3] + delta[4]
    steal = delta[7] if len(delta) > 7 else 0
    return max(0.0, (total - idle - steal) / total), max(0.0, steal / total), float(total)


def _mhz(khz: int | None) -> float | None:
    return khz / 1000.0 if khz is not None else None


def _used(total: int | None, free: int | None) -> int | None:
    return (total - free) * 1024 if total is not None and free is not None else None


@dataclass(frozen=True)
class Layout:
    """What the first reading fixes: CPUs with cpufreq, chosen sensors (zone names)."""

    cpus: tuple[int, ...]
    zones: tuple[str, ...]
    sensors: tuple[Sensor, ...]


def layout(first: RawReading) -> Layout:
    """CPUs in order; thermal zones chosen like :func:`..platform.thermal.choose_sensors`."""
    cpus = tuple(sorted(c for c, (_, top, _) in first.freqs.items() if top is not None))
    names = sorted(first.zones)  # the order Sysroot.listdir gives the local sampler
    preferred = [z for z in names if thermal.PREFERRED.search(first.zones[z][0])]
    chosen = tuple(preferred or names)
    sensors = tuple(Sensor(first.zones[z][0], f"{THERMAL_DIR}/{z}/temp",
                                   _trips(first.trips.get(z, []))) for z in chosen)
    return Layout(cpus, chosen, sensors)


def _trips(trips: list[tuple[str, int]]) -> tuple[tuple[str, float], ...]:
    kept = [(kind, millis / 1000.0) for kind, millis in trips
            if kind in ("passive", "hot", "critical")]
    return tuple(sorted(kept, key=lambda t: t[1]))


def _temp(zone: tuple[str, int | None] | None) -> float | None:
    if zone is None or zone[1] is None:
        return None
    celsius = zone[1] / 1000.0
    return celsius if thermal.plausible(celsius) else None


def to_reading(raw: RawReading, prev: RawReading | None, start: float, shape: Layout) -> Reading:
    """One :class:`Reading`: clocks and temperatures now, CPU use since ``prev``."""
    system = per_cpu = None
    busy_cpus: list[int] = []
    if prev is not None:
        system = _busy(prev.stat["cpu"], raw.stat["cpu"])
        for name, ticks in raw.stat.items():
            if name != "cpu" and name in prev.stat:
                per_cpu = _busy(prev.stat[name], ticks)
                if per_cpu is not None and per_cpu[0] >= BUSY_CPU_FRACTION:
                    busy_cpus.append(_cpu(name))
    online = sum(1 for name in raw.stat if name != "cpu") or 1
    total, avail, swap_total, swap_free = raw.mem_kb
    return Reading(
        t=raw.uptime - start,
        mhz=tuple(_mhz(raw.freqs.get(c, (None, None, None))[0]) for c in shape.cpus),
        temps_c=tuple(_temp(raw.zones.get(z)) for z in shape.zones),
        mem_used=_used(total, avail), swap_used=_used(swap_total, swap_free), tree_cpu_s=0.0,
        system_busy_cpus=system[0] * online if system else None,
        busy_cpus=tuple(sorted(busy_cpus)),
        steal_pct=100.0 * system[1] if system else None)


def _unavailable(first: RawReading, shape: Layout) -> dict[str, str]:
    out: dict[str, str] = {}
    if not shape.cpus:
        out["cpufreq"] = "no cpufreq on the board (a VM, or no cpufreq driver): clocks are " \
                         "not sampled"
    if not shape.zones:
        out["thermal"] = "no thermal zone on the board: temperature is not sampled"
    if first.mem_kb[0] is None:
        out["memory"] = "no meminfo on the board: memory and swap are not sampled"
    return out


def parse_lines(lines: Sequence[str], interval: float) -> Trace:
    """The board sampler's lines as the :class:`Trace` the local sampler would return."""
    raws = [parse_line(line) for line in lines if line.strip()]
    if not raws:
        raise ParseError("board sampler output", "no sample lines", "")
    shape = layout(raws[0])
    first = raws[0]
    readings = [to_reading(raw, prev, first.uptime, shape)
                for raw, prev in zip(raws, [None, *raws[:-1]], strict=True)]
    last = raws[-1]
    residency = tuple(
        {k: v - first.residency.get(c, {}).get(k, 0) for k, v in last.residency[c].items()}
        for c in shape.cpus if c in last.residency and c in first.residency
    ) if len(raws) > 1 else ()
    return Trace(interval, shape.cpus,
                 tuple(_mhz(first.freqs[c][1]) for c in shape.cpus),
                 tuple(first.freqs[c][2] for c in shape.cpus), shape.sensors, tuple(readings),
                 _unavailable(first, shape), residency if len(residency) == len(shape.cpus)
                 else (), load_source="system")


def parse_cpu_seconds(stat: str, clk_tck: int) -> float:
    """A process's own plus its reaped children's CPU seconds from its kernel ``stat`` file
    (utime, stime, cutime, cstime; fields 14 to 17, counted after the parenthesised name)."""
    try:
        fields = stat[stat.rindex(")") + 2:].split()
        ticks = sum(int(fields[i]) for i in (11, 12, 13, 14))
    except (ValueError, IndexError) as exc:
        raise ParseError("process stat file", str(exc), stat[:300]) from exc
    return ticks / clk_tck


class BoardSampler:
    """Run the sampler on the board through an :class:`Executor`; :meth:`stop` returns the
    :class:`Trace` with the sampler's own CPU time on the board (``sampler_cpu_s``, also kept
    in ``cpu_s``).

    An executor that cannot stream a command beside the workload's (labgrid's ShellDriver: one
    serial console) makes the sampler unavailable, not an error: :meth:`start` records the
    reason under ``unavailable["sampler"]`` and starts nothing (the caller then has no trace
    to stop, as :meth:`..run.watch.Watch.stop` knows)."""

    def __init__(self, executor: Executor, interval: float) -> None:
        self.executor = executor
        self.interval = interval
        self.cpu_s: float | None = None
        self.lines: list[str] = []
        self.unavailable: dict[str, str] = {}  # what the board cannot sample, known at start
        self._handle: Spawned | None = None
        self._thread: threading.Thread | None = None

    def available(self) -> str | None:
        """Preflight: None when the executor can stream the sampler, else why it cannot."""
        check = getattr(self.executor, "stream_unavailable", None)
        reason = check() if callable(check) else None
        return str(reason) if reason is not None else None

    def start(self) -> None:
        """Start the sampler and wait for its first (idle) reading, as the local one does."""
        reason = self.available()
        if reason is not None:
            self.unavailable = {"sampler": f"no board sampler: {reason}"}
            return
        argv = sampler_argv(self.interval)
        self._handle = self.executor.spawn(argv)
        stream = self._handle.lines()
        first = next(stream, None)
        if first is None:
            self._handle.stop()
            raise ToolError([*argv[:2], "<sampler script>"], None, "",
                            f"{self.executor.name}: the board sampler printed nothing")
        self.lines.append(first)
        raw = parse_line(first)
        self.unavailable = _unavailable(raw, layout(raw))
        self._thread = threading.Thread(target=lambda: self.lines.extend(stream),
                                        name="sbcbench-board-sampler", daemon=True)
        self._thread.start()

    def own_cpu_seconds(self) -> float | None:
        """The sampler's CPU time so far (its sh and every reaped ``sleep``), read on the board."""
        handle = self._handle  # a remote handle knows the board-side pid; a local one its own
        pid = getattr(handle, "remote_pid", None) or getattr(handle, "pid", None)
        if pid is None:
            return None
        argv = ["sh", "-c", f'getconf CLK_TCK; cat "/{PROC}/$1/stat"', "sbcbench-cost", str(pid)]
        done = self.executor.run(argv, timeout=30)
        if done.returncode != 0:
            raise ToolError(argv, done.returncode, done.stderr, "board sampler cost unreadable")
        tck, _, stat = done.stdout.partition("\n")
        return parse_cpu_seconds(stat, int(tck))

    def stop(self) -> Trace:
        """Stop the board-side sampler (its last reading is kept)."""
        if self._handle is None or self._thread is None:
            why = self.unavailable.get("sampler", "stop() before start()")
            raise RuntimeError(f"BoardSampler never ran: {why}")
        self.cpu_s = self.own_cpu_seconds()
        self._handle.stop()
        self._thread.join(timeout=60)
        trace = parse_lines(self.lines, self.interval)
        return replace(trace, sampler_cpu_s=self.cpu_s)
