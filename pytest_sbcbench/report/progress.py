"""A live status line while a benchmark runs: elapsed time, clock and temperature."""

from __future__ import annotations

import threading
import time
from typing import Protocol

from ..measure.sampler import Sample


class Stream(Protocol):
    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


class StatusLine:
    """Rewrites one terminal line in place after ``delay`` seconds; silent when not ``live``."""

    def __init__(self, stream: Stream, label: str, live: bool, delay: float = 3.0) -> None:
        self.stream = stream
        self.label = label
        self.live = live
        self.delay = delay
        self.shown = False
        self._lock = threading.Lock()
        self._start = time.monotonic()

    def render(self, sample: Sample) -> str:
        elapsed = time.monotonic() - self._start
        clocks = [m for m in sample.mhz if m is not None]
        parts = [f"sbcbench {self.label}", f"{elapsed:5.0f} s"]
        if clocks:
            parts.append(f"{max(clocks):.0f} MHz")
        if sample.temp_c is not None:
            parts.append(f"{sample.temp_c:.1f} C")
        return " | ".join(parts)

    def update(self, sample: Sample) -> None:
        if not self.live or time.monotonic() - self._start < self.delay:
            return
        with self._lock:
            if not self.shown:
                self.stream.write("\n")
                self.shown = True
            self.stream.write("\r\x1b[K" + self.render(sample))
            self.stream.flush()

    def close(self) -> bool:
        """Erase the line; True when something was shown (the caller restarts its line)."""
        with self._lock:
            if self.shown:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
            return self.shown
