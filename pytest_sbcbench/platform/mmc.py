"""The mmc debugfs ``ios`` file: bus clock, width and timing, and the throughput they allow."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ParseError

DDR_TIMINGS = ("ddr", "hs400")


@dataclass(frozen=True)
class MmcIos:
    clock_hz: int
    actual_clock_hz: int | None
    bus_width_bits: int
    timing: str

    @property
    def double_data_rate(self) -> bool:
        return any(t in self.timing.lower() for t in DDR_TIMINGS)

    @property
    def limit_bytes_per_s(self) -> float:
        """The interface ceiling: clock x width (x2 for DDR modes) / 8."""
        clock = self.actual_clock_hz or self.clock_hz
        return clock * self.bus_width_bits * (2 if self.double_data_rate else 1) / 8


def parse_ios(text: str) -> MmcIos:
    fields: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip()] = value.strip()
    try:
        clock = int(re.match(r"(\d+)", fields["clock"]).group(1))  # type: ignore[union-attr]
        width = int(re.search(r"\((\d+) bits?\)", fields["bus width"]).group(1))  # type: ignore[union-attr]
        timing = re.search(r"\((.+)\)", fields["timing spec"]).group(1)  # type: ignore[union-attr]
    except (KeyError, AttributeError, ValueError) as exc:
        raise ParseError("mmc ios", f"missing or malformed field ({exc})", text[:300]) from exc
    actual = re.match(r"(\d+)", fields.get("actual clock", ""))
    return MmcIos(clock, int(actual.group(1)) if actual else None, width, timing)
