"""A dependency-free progress bar for long runs, shown only when a run is slow."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Progress over simulated time, drawn on stderr once the run exceeds ``delay`` seconds.

    Args:
        start, end: simulated time span (s).
        label: text shown before the bar.
        enabled: False for ``--quiet`` (and on ranks other than 0 under MPI).
        delay: wall seconds before the bar first appears, so short runs stay silent.

    """

    def __init__(self, start: float, end: float, label: str = "", *, enabled: bool = True,
                 delay: float = 2.0, stream: TextIO | None = None):
        self.start, self.end, self.label = start, end, label
        self.enabled, self.delay = enabled, delay
        self.stream = stream or sys.stderr
        self.t0 = time.perf_counter()
        self._last_draw = 0.0
        self._drawn = False
        # A terminal gets a redrawn bar; a log file gets a line per fifth of the run.
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._next_fraction = 0.2

    def update(self, t: float, info: str = "") -> None:
        """Report that the solution has reached simulated time ``t`` (s)."""
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.t0 < self.delay or now - self._last_draw < 0.2:
            return
        frac = min(max((t - self.start) / (self.end - self.start), 0.0), 1.0)
        if not self._tty:
            if frac + 1e-12 < self._next_fraction:
                return
            while self._next_fraction <= frac + 1e-12:
                self._next_fraction += 0.2
            elapsed = now - self.t0
            self.stream.write(f"{self.label}: {100 * frac:3.0f}%  t={t:.6g} s  "
                              f"{elapsed:.1f} s elapsed {info}\n")
            self.stream.flush()
            return
        self._last_draw = now
        width = 30
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        elapsed = now - self.t0
        eta = elapsed * (1 - frac) / frac if frac > 0 else float("nan")
        self.stream.write(
            f"\r{self.label} [{bar}] {100 * frac:5.1f}%  t={t:.6g} s  "
            f"{elapsed:6.1f}s elapsed, ~{eta:5.1f}s left {info}"
        )
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """End the bar's line if one was drawn."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False
