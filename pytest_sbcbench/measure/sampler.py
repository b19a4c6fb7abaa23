"""Background sampling of clocks, temperature, memory and CPU use while a workload runs.

A :class:`Sampler` wakes every ``interval`` seconds (``Event.wait``, so :meth:`Sampler.stop`
returns within one interval), reads the board's clocks, temperatures and memory
(:mod:`~pytest_sbcbench.platform.readings`: cpufreq, thermal and meminfo through the Sysroot, so
a captured board tree replays anywhere; ``sysctl`` and psutil on FreeBSD) and the CPU time of
the benchmark's process tree and of the whole system through a
:class:`~pytest_sbcbench.platform.host.Host`.  Each wake-up is one
:class:`~pytest_sbcbench.model.Reading`; :meth:`Sampler.stop` returns them as an immutable
:class:`~pytest_sbcbench.model.Trace`.

The host and the clock are injectable: the session passes its own host, and tests drive a
sampler without its thread (``start(background=False)`` and explicit :meth:`Sampler.read`
calls) over scripted readings, so nothing depends on how fast the machine is.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from ..model import Reading, Trace
from ..platform.host import Host, default_host
from ..platform.readings import BoardReadings, board_readings
from ..platform.sysroot import Sysroot
from .background import OTHER_CPUS, Background, Sleep, Window, window
from .cputime import CpuShare, ProcessTree, SystemCpu

DISCOVER_EVERY_S = 5.0  # at most one listing of every process per this many seconds

OnReading = Callable[[Reading], None]
Clock = Callable[[], float]


class Sampler:
    """Read every interval until stopped; ``pid`` roots the benchmark's process tree
    (default: this one).

    ``host`` gives process-tree and system CPU readings (default: this machine); ``clock``
    gives reading times in seconds (default: ``time.monotonic``)."""

    def __init__(self, sysroot: Sysroot, interval: float, pid: int | None = None,
                 on_reading: OnReading | None = None, load_source: str = "tree", *,
                 host: Host | None = None, clock: Clock = time.monotonic,
                 board: BoardReadings | None = None) -> None:
        self.sysroot = sysroot
        self.interval = interval
        self.on_reading = on_reading
        self.load_source = load_source
        self.clock = clock
        host = host if host is not None else default_host()
        self._tree = ProcessTree(pid, host=host)
        self._system = SystemCpu(host=host)
        self.board = board if board is not None else board_readings(sysroot)
        self.cpus = self.board.cpus
        self.max_mhz = self.board.max_mhz
        self.governors = self.board.governors
        self.sensors = self.board.sensors
        self.unavailable = dict(self.board.unavailable)
        self._readings: list[Reading] = []
        self._tis_start: tuple[dict[int, int], ...] = ()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start = 0.0
        self.thread_cpu_s = 0.0
        self.background = Background(host, self.now)
        self._forks = -1  # the fork count at the last listing of every process
        self._listed_at = float("-inf")
        self._lock = threading.Lock()  # the thread's readings and a window's closing one
        self._read_done = threading.Condition()  # notified after each reading (wait_for)

    def available(self) -> str | None:
        """Preflight: None when every probe can run, else the reasons of those that cannot."""
        if not self.unavailable:
            return None
        return "; ".join(f"{name}: {reason}" for name, reason in self.unavailable.items())

    def now(self) -> float:
        """Seconds since :meth:`start`, on the sampler's clock."""
        return self.clock() - self._start

    def begin(self) -> float:
        """A measurement window starts now: its first loaded interval is attributed whenever
        the last attribution was (returns the window's start, for :meth:`window`)."""
        self.background.rearm()
        return self.now()

    def read(self) -> Reading:
        """Take one reading now (then, when the interval was loaded, attribute it)."""
        with self._lock:
            reading = self._read()
        with self._read_done:
            self._read_done.notify_all()
        return reading

    def window(self, since: float, sleep: Sleep) -> Window:
        """What ran beside the benchmark from ``since`` (sampler seconds) until now: a reading
        closes the window; a measurement shorter than one interval is read over the last full
        interval (:func:`~.background.window`).  A loaded window the thread did not attribute
        is attributed now (two scans ``sleep`` apart), unless it is such a short one: its
        readings already tell the load, and a run of short measurements would pay two scans of
        every process and a wait after each (its load, not attributed, counts as other work)."""
        self.read()
        found = window(self._readings, self.background.attributions, since, self.interval)
        if found.loaded and found.attribution is None and not found.short:
            self.background.attribute_now(self._tree.pids, sleep)
            found = window(self._readings, self.background.attributions, since, self.interval)
        return found

    def wait_for(self, ready: Callable[[Sampler], bool], timeout: float) -> bool:
        """Block until ``ready(self)`` holds after a reading (checked at once, then after each
        one the thread takes), at most ``timeout`` seconds; whether it held.  For a caller
        that must know the sampler has read something (a test's load) before it goes on."""
        with self._read_done:
            return self._read_done.wait_for(lambda: ready(self), timeout)

    def _read(self) -> Reading:
        board = self.board.read()
        tree_cpu, busy = self._tree.read(discover=False)
        system = self._system.read()
        t = self.clock() - self._start
        if self._unexplained(t, tree_cpu, system):
            tree_cpu, busy = self._tree.reread()
        reading = Reading(
            t=t,
            mhz=board.mhz, temps_c=board.temps_c,
            mem_used=board.mem_used, swap_used=board.swap_used, tree_cpu_s=tree_cpu,
            system_busy_cpus=system.busy if system else None, busy_cpus=busy,
            steal_pct=system.steal_pct if system else None)
        prev = self._readings[-1] if self._readings else None
        self._readings.append(reading)
        self.background.after(prev, reading, self._tree.pids)
        if self.on_reading is not None:
            self.on_reading(reading)
        return reading

    def _unexplained(self, t: float, tree_cpu: float, system: CpuShare | None) -> bool:
        """Time to list every process for the tree's new members: CPU time the known tree
        does not explain, processes created since the last listing, and at least
        :data:`DISCOVER_EVERY_S` since it (so the cost stays bounded on a loaded host)."""
        times = self._system.last
        if not self._readings or system is None or times is None:
            return False
        prev = self._readings[-1]
        dt = t - prev.t
        if dt <= 0 or times.forks == self._forks or t - self._listed_at < DISCOVER_EVERY_S:
            return False
        if system.busy - (tree_cpu - prev.tree_cpu_s) / dt < OTHER_CPUS:
            return False
        self._forks, self._listed_at = times.forks, t
        return True

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.read()
        self.thread_cpu_s = time.thread_time()

    def start(self, background: bool = True) -> None:
        """Take the first reading; then, with ``background``, read every interval in a
        thread until :meth:`stop` (without it, the caller calls :meth:`read`)."""
        self._start = self.clock()
        self._tis_start = self.board.residency()
        self.read()
        if not background:
            return
        self._thread = threading.Thread(target=self._run, name="sbcbench-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> Trace:
        """Stop the thread (within one interval), take a last reading, return the trace."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.read()
        tis_end = self.board.residency()
        delta = tuple({k: end.get(k, 0) - start.get(k, 0) for k in end}
                      for start, end in zip(self._tis_start, tis_end, strict=True))
        return Trace(self.interval, self.cpus, self.max_mhz, self.governors, self.sensors,
                     tuple(self._readings), dict(self.unavailable), delta, self.load_source,
                     self.thread_cpu_s if self._thread is not None else None,
                     tuple(self.background.attributions))
