"""A dependency-free progress report for long runs, shown only when a run is slow."""

from __future__ import annotations

import contextlib
import math
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TextIO

#: a log (not a terminal) gets a line when the run has gone this fraction further...
LOG_FRACTION = 0.1
#: ... or this many wall seconds have passed since the last line, whichever comes first,
LOG_INTERVAL = 10.0
#: but never two lines within this many wall seconds (the last one, at 100 %, excepted)
LOG_GAP = 1.0
#: a terminal's bar is redrawn at most this often (wall seconds)
BAR_GAP = 0.2


class Progress:
    """Progress over simulated time, on stderr once the run exceeds ``delay`` wall seconds.

    A terminal gets a bar redrawn in place. A file or a pipe (CI, ``nohup``) gets lines,
    one each time the run has gone :data:`LOG_FRACTION` further or :data:`LOG_INTERVAL`
    wall seconds have passed since the last one, whichever comes first (never two within
    :data:`LOG_GAP` s but the last, at 100 %)::

        sdnv105a:  40%  t=0.132 s  step 1320  12.3 s elapsed, ~18 s left  h=1e-05

    The time left is the wall time per simulated second since the first report (the mesh
    and preload before it excluded) times the simulated time left. Work before the first
    step that is not the run's (numba compiling its kernels) goes in :meth:`preparing`:
    one line while it lasts, and the elapsed time counted from its end::

        sdnd101a: compiling numba kernels ...

    Args:
        start, end: simulated time span (s).
        label: text shown before the bar.
        enabled: False for ``--quiet`` (and on ranks other than 0 under MPI): nothing shown.
        delay: wall seconds before anything appears, so short runs stay silent.
        stream: where to write (stderr).
        clock: wall time in seconds (a test's fake clock).

    """

    def __init__(self, start: float, end: float, label: str = "", *, enabled: bool = True,
                 delay: float = 2.0, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.perf_counter):
        self.start, self.end, self.label = start, end, label
        self.enabled, self.delay = enabled, delay
        self.stream = stream or sys.stderr
        self.clock = clock
        self.t0 = clock()
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._drawn = False  # a bar is on the terminal's line
        self._last_draw = self.t0  # wall time of the last bar or line
        self._last_fraction = 0.0  # fraction of the run at the last line
        self._first: tuple[float, float] | None = None  # (wall time, fraction) first seen

    @contextlib.contextmanager
    def preparing(self, what: str) -> Iterator[None]:
        """Work before the first step that is not the run's, whose length nobody knows in
        advance (numba compiling the kernels: 6 to 27 s cold, 0.3 s from its cache): once
        it has lasted ``delay`` wall seconds, one line ``<label>: <what> ...`` (nothing
        when it is quicker, or when not ``enabled``); after it the clock starts again, so
        that "elapsed", the time left and the ``delay`` count the run's steps only."""
        timer = None
        if self.enabled:  # a thread: the work holds this one until it is done
            timer = threading.Timer(self.delay, self._say, (f"{what} ...",))
            timer.daemon = True
            timer.start()
        try:
            yield
        finally:
            if timer is not None:
                timer.cancel()
                timer.join()  # its line, if it is being written, before any bar
            self.t0 = self._last_draw = self.clock()

    def _say(self, text: str) -> None:
        """One line ``<label>: <text>``, on a terminal as in a log."""
        self.stream.write(f"{self.label}: {text}\n")
        self.stream.flush()

    def update(self, t: float, info: str = "", step: int | None = None) -> None:
        """Report that the solution has reached simulated time ``t`` (s), after ``step``
        steps if the caller counts them; ``info`` is appended (``h=1e-05``)."""
        if not self.enabled:
            return
        now = self.clock()
        span = self.end - self.start
        frac = min(max((t - self.start) / span, 0.0), 1.0) if span > 0 else 1.0
        if self._first is None:
            self._first = (now, frac)
        if now - self.t0 < self.delay or not self._due(now, frac):
            return
        self._last_draw, self._last_fraction = now, frac
        elapsed = now - self.t0
        counted = f"  step {step}" if step is not None else ""
        text = (f"{100 * frac:3.0f}%  t={t:.6g} s{counted}  {elapsed:.1f} s elapsed, "
                f"~{_duration(self._left(now, frac))} left  {info}".rstrip())
        if self._tty:
            width = 30
            bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
            self.stream.write(f"\r{self.label} [{bar}] {text}\033[K")
            self._drawn = True
        else:
            self.stream.write(f"{self.label}: {text}\n")
        self.stream.flush()

    def _due(self, now: float, frac: float) -> bool:
        """Whether to draw the bar, or write a line, at ``now`` (wall s) and ``frac``."""
        since = now - self._last_draw
        if self._tty:
            return since >= BAR_GAP or frac >= 1.0
        if frac >= 1.0 > self._last_fraction:
            return True
        return since >= LOG_GAP and (frac - self._last_fraction >= LOG_FRACTION - 1e-12
                                     or since >= LOG_INTERVAL)

    def _left(self, now: float, frac: float) -> float:
        """Wall seconds left at the pace since the first report (nan before it moved)."""
        assert self._first is not None
        wall, first = self._first
        if frac <= first:
            return math.nan
        return (now - wall) * (1.0 - frac) / (frac - first)

    def close(self) -> None:
        """End the bar's line if one was drawn."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


def _duration(seconds: float) -> str:
    """``18 s``, ``3 min 20 s``, ``2 h 05 min``; ``?`` when not known."""
    if not math.isfinite(seconds):
        return "?"
    s = round(seconds)
    if s < 120:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"
