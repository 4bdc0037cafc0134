"""Time grids with windows of a different step size (the collision windows of SDNV105).

A run from ``start`` to ``end`` with a base step is cut at the window bounds into segments;
each segment is divided into equal steps no longer than its requested step, so that every
window bound is hit exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Segment:
    """Steps of equal size from ``start`` to ``end`` (s).

    Attributes:
        window: index of the window the segment lies in, None outside windows.

    """

    start: float
    end: float
    step: float
    window: int | None

    @property
    def n_steps(self) -> int:
        """Number of steps (the step actually used is (end - start) / n_steps <= step)."""
        return max(1, math.ceil((self.end - self.start) / self.step * (1.0 - 1e-9)))

    def times(self) -> np.ndarray:
        """End times of the steps; the last one is ``end`` exactly."""
        n = self.n_steps
        out = self.start + (self.end - self.start) * np.arange(1, n + 1) / n
        out[-1] = self.end
        return out


def segments(start: float, end: float, step: float,
             windows: Sequence[tuple[float, float, float]] = ()) -> list[Segment]:
    """Cut ``[start, end]`` at the windows ``(w_start, w_end, w_step)``.

    Every time and step is in seconds: ``step`` is the base step outside the windows.
    Windows must not overlap; parts outside ``[start, end]`` are ignored.
    """
    out: list[Segment] = []
    t = start
    for i, (w0, w1, wstep) in sorted(enumerate(windows), key=lambda item: item[1][0]):
        a, b = max(w0, start), min(w1, end)
        if b <= a:
            continue
        if a > t:
            out.append(Segment(t, a, step, None))
        out.append(Segment(a, b, wstep, i))
        t = b
    if end > t:
        out.append(Segment(t, end, step, None))
    return out
