"""Scalar functions of time given as data in case files (support and table accelerations).

A case file is data, never code: a function is a ``type`` with its parameters, or a table
of samples (inline or a CSV record).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from rocking_contact.config import FINITE, NONNEGATIVE, param


@dataclass(kw_only=True)
class TimeFunction:
    """A scalar function of time: ``zero``, ``sine`` (amplitude sin(2 pi f t + phase)) or
    ``table`` (linear interpolation in ``times``/``values``, or in a two-column CSV ``path``
    of t, value; held constant outside).
    """

    type: Literal["zero", "sine", "table"] = param("zero")
    amplitude: float = param(1.0, check=FINITE)
    frequency: float = param(0.0, unit="Hz", check=NONNEGATIVE)
    phase: float = param(0.0, unit="rad", check=FINITE)
    times: list[float] = param(default_factory=list, unit="s", check=FINITE)
    values: list[float] = param(default_factory=list, check=FINITE)
    path: str = param("", doc="CSV record (t, value), relative to the case file")

    def validate(self) -> None:
        if self.type == "table":
            if self.path:
                return
            if len(self.times) < 2 or len(self.times) != len(self.values):
                raise ValueError("times: a table needs >= 2 times and as many values")
            if any(b <= a for a, b in zip(self.times, self.times[1:])):
                raise ValueError("times: must increase strictly")


def table_samples(f: TimeFunction, base: Path | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The ``(times, values)`` of a ``table`` function, before ``amplitude`` is applied.

    A CSV record (``path``, relative to ``base``) is read here, once per call.
    """
    if f.path:
        path = Path(f.path) if base is None else base / f.path
        data = np.loadtxt(path, delimiter=",", ndmin=2)
        return data[:, 0], data[:, 1]
    return np.asarray(f.times, dtype=float), np.asarray(f.values, dtype=float)


def time_function_values(f: TimeFunction, t: np.ndarray, base: Path | None = None) -> np.ndarray:
    """Sample a :class:`TimeFunction` at the instants ``t``."""
    if f.type == "zero":
        return np.zeros_like(t)
    if f.type == "sine":
        return f.amplitude * np.sin(2.0 * np.pi * f.frequency * t + f.phase)
    times, values = table_samples(f, base)
    return f.amplitude * np.interp(t, times, values)


def time_function_callable(f: TimeFunction, base: Path | None = None) -> Callable[[float], float]:
    """A scalar function ``t -> value`` for ODE right-hand sides and event functions.

    Same values as :func:`time_function_values`; a CSV record is read once, here, not at
    every call.
    """
    if f.type == "table":
        times, values = table_samples(f, base)
        return lambda t: f.amplitude * float(np.interp(t, times, values))
    return lambda t: float(time_function_values(f, np.asarray(t, dtype=float), base))


@dataclass(frozen=True)
class TableMotion:
    """Acceleration of the table (m/s^2): ``horizontal`` ux(t) along +x, ``vertical``
    uy(t) along +y (up); None means zero."""

    horizontal: Callable[[float], float] | None = None
    vertical: Callable[[float], float] | None = None

    @property
    def still(self) -> bool:
        """True when the table does not move."""
        return self.horizontal is None and self.vertical is None

    def at(self, t: float) -> tuple[float, float]:
        """(ux, uy) at ``t`` (s)."""
        ux = self.horizontal(t) if self.horizontal is not None else 0.0
        uy = self.vertical(t) if self.vertical is not None else 0.0
        return ux, uy
