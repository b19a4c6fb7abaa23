"""A live status line while a benchmark runs: elapsed time, clock and temperature."""

from __future__ import annotations

import os
import threading
import time
from typing import Any, Protocol, TextIO

from ..model import Reading


class TextSink(Protocol):
    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


class StatusLine:
    """Rewrites one terminal line in place after ``delay`` seconds; silent when not ``live``."""

    def __init__(self, stream: TextSink, label: str, live: bool, delay: float = 3.0) -> None:
        self.stream = stream
        self.label = label
        self.live = live
        self.delay = delay
        self.shown = False
        self._lock = threading.Lock()
        self._start = time.monotonic()

    def render(self, reading: Reading) -> str:
        elapsed = time.monotonic() - self._start
        clocks = [m for m in reading.mhz if m is not None]
        parts = [f"sbcbench {self.label}", f"{elapsed:5.0f} s"]
        if clocks:
            parts.append(f"{max(clocks):.0f} MHz")
        if reading.temp_c is not None:
            parts.append(f"{reading.temp_c:.1f} C")
        if reading.steal_pct:
            parts.append(f"steal {reading.steal_pct:.0f}%")
        return " | ".join(parts)

    def update(self, reading: Reading) -> None:
        if not self.live or time.monotonic() - self._start < self.delay:
            return
        with self._lock:
            if not self.shown:
                self.stream.write("\n")
                self.shown = True
            self.stream.write("\r\x1b[K" + self.render(reading))
            self.stream.flush()

    def close(self, column: int | None = None) -> bool:
        """Erase the status line.  With ``column`` (where pytest's own line ended) the cursor
        goes back to the end of that line; returns True when something was shown."""
        with self._lock:
            if self.shown:
                back = f"\x1b[A\r\x1b[{column}C" if column else ("\x1b[A\r" if column == 0
                                                                  else "")
                self.stream.write("\r\x1b[K" + back)
                self.stream.flush()
            return self.shown


def open_terminal() -> TextIO | None:
    """The controlling terminal, which pytest's output capture does not redirect."""
    try:
        return open(os.ctermid(), "w", encoding="utf-8")
    except OSError:
        return None


def line_end_column(config: Any) -> int | None:
    """The column where pytest's current output line ends, so an erased status line puts the
    cursor back there.  The one place that touches pytest's terminal writer: through the public
    ``Config.get_terminal_writer()`` and the writer's ``width_of_current_line``; ``None`` when
    either is missing (a test checks both still exist)."""
    if config.pluginmanager.get_plugin("terminalreporter") is None:
        return None
    getter = getattr(config, "get_terminal_writer", None)
    width = getattr(getter(), "width_of_current_line", None) if getter else None
    return width if isinstance(width, int) else None
