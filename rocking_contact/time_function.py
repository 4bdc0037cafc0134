"""Scalar functions of time given as data in case files (support and table accelerations).

A case file is data, never code: a function is a ``type`` with its parameters, or a table
of samples (inline or a CSV record).
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal

import numpy as np

from rocking_contact.config import CASE_FOLDER, FINITE, NONNEGATIVE, param


@dataclass(kw_only=True)
class TimeFunction:
    """A scalar function of time: ``zero``, ``sine`` (amplitude sin(2 pi f t + phase)) or
    ``table`` (linear interpolation in ``times``/``values``, or in a two-column CSV ``path``
    of t, value; held constant outside).
    """

    type: Literal["zero", "sine", "table"] = param("zero")
    amplitude: float = param(1.0, check=FINITE,
                             doc="a sine's peak (the function's unit), or the factor on a "
                                 "table's values (a record's too); given for another type "
                                 "in an extended file, it stays behind")
    frequency: float = param(0.0, unit="Hz", check=NONNEGATIVE)
    phase: float = param(0.0, unit="rad", check=FINITE)
    times: list[float] = param(default_factory=list, unit="s", check=FINITE)
    values: list[float] = param(default_factory=list, check=FINITE)
    path: str = param("", doc="CSV record (t, value); a relative path starts at the case "
                              "file that gives it, or at the current directory for --set")

    #: the keys each type reads (config.load_case refuses the others)
    VARIANTS: ClassVar = {"type": {"zero": (), "sine": ("amplitude", "frequency", "phase"),
                                   "table": ("amplitude", "times", "values", "path")}}
    #: what ``amplitude`` means for each type that reads it: a sine's is its peak, in the
    #: function's unit, a table's a factor without unit. One given for another type than
    #: a later layer chooses stays behind with it (config.load_case: a parent's sine of
    #: 6 m/s^2 scaled a child's record by 6); changed after loading, it is refused.
    MEANINGS: ClassVar = {"type": {"amplitude": {
        "sine": "its peak (the function's unit)",
        "table": "a factor on its values (1.0: the values as given)"}}}

    def validate(self) -> None:
        if self.type != "table":
            return
        if self.path:
            if self.times or self.values:
                raise ValueError("times: a table takes times and values, or a path, not both")
            table_samples(self, CASE_FOLDER.get())  # read now: a bad record is bad input
            return
        if len(self.times) < 2 or len(self.times) != len(self.values):
            raise ValueError("times: a table needs >= 2 times and as many values")
        _check_increasing("times", np.asarray(self.times))


def _check_increasing(key: str, times: np.ndarray) -> None:
    bad = np.flatnonzero(np.diff(times) <= 0.0)
    if len(bad):
        k = int(bad[0])
        raise ValueError(f"{key}: must increase strictly (got {times[k]:g} then "
                         f"{times[k + 1]:g})")


def held_values(f: TimeFunction, key: str, start: float, end: float,
                base: Path | None = None, unit: str = "m/s^2") -> list[str]:
    """A table holds its first value before its samples and its last after them: one
    sentence per end of the record that lies inside the run ``[start, end]`` (s) with a
    nonzero value there (an earthquake record shorter than the run would go on shaking at
    its last acceleration without a word). ``key`` names the function in the sentence."""
    if f.type != "table":
        return []
    times, values = table_samples(f, base)
    out = []
    for t, value, outside, side in ((times[0], values[0], start < times[0], "starts"),
                                    (times[-1], values[-1], end > times[-1], "ends")):
        if outside and value != 0.0:
            out.append(f"{key}: the record {side} at t = {t:g} s, inside the run "
                       f"[{start:g}, {end:g}] s: its value there, {f.amplitude * value:g} "
                       f"{unit}, is held {'before' if side == 'starts' else 'after'} it (add "
                       f"a row 't, 0' there to keep it at zero)")
    return out


def table_samples(f: TimeFunction, base: Path | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The ``(times, values)`` of a ``table`` function, before ``amplitude`` is applied.

    A CSV record (``path``, relative to ``base``) is read here, once per call, and checked:
    two columns of finite numbers, at least two rows, times increasing strictly. Lines
    starting with ``#`` are comments; a first line of column names (``t_s,ax``, as a
    spreadsheet writes) is skipped.

    Raises:
        ValueError: ``"path: <file>: what is wrong"``.

    """
    if not f.path:
        return np.asarray(f.times, dtype=float), np.asarray(f.values, dtype=float)
    path = Path(f.path) if base is None else base / f.path
    if not path.is_file():
        raise ValueError(f"path: {path}: no such file (a CSV record of t, value; a "
                         "relative path starts at the case file that gives it, or at the "
                         "current directory for --set)")
    allowed = "allowed: rows 't, value' of numbers, at least 2, times increasing"
    try:
        with warnings.catch_warnings():  # an empty file is reported below, not warned
            warnings.simplefilter("ignore", UserWarning)
            skip = _header_lines(path)
            data = np.loadtxt(path, delimiter=",", ndmin=2, skiprows=skip)
    except ValueError as exc:  # numpy counts rows from 0 after the header: say the line
        where = _bad_field(path, skip) or str(exc)
        raise ValueError(f"path: {path}: {where} ({allowed})") from None
    if data.size == 0:
        raise ValueError(f"path: {path}: empty ({allowed})")
    if data.shape[1] != 2 or data.shape[0] < 2:
        raise ValueError(f"path: {path}: {data.shape[0]} row(s) of {data.shape[1]} column(s) "
                         f"({allowed})")
    if not np.isfinite(data).all():
        raise ValueError(f"path: {path}: a value is not finite ({allowed})")
    _check_increasing(f"path: {path}: times", data[:, 0])
    return data[:, 0], data[:, 1]


#: a field of a record that is a number (a column name is not)
NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|[-+]?(nan|inf(inity)?)$",
                    re.IGNORECASE)


def _header_lines(path: Path) -> int:
    """1 when the record's first line that is no comment names its columns (no field of
    it is a number), else 0; comments before it count as lines too."""
    with path.open(encoding="utf-8", errors="replace") as lines:
        for n, line in enumerate(lines):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            names = not any(NUMBER.match(x.strip()) for x in text.split(","))
            return n + 1 if names else 0
    return 0


def _bad_field(path: Path, skip: int) -> str | None:
    """Where a record stops being rows of numbers, as an editor shows it: ``line 3, column
    2 (ax): 'x' is not a number`` (lines and columns from 1, the column's name from the
    header line among the ``skip`` first lines, if any), or ``line 4: 3 fields, the lines
    before have 2``; None if every line reads (the fault is elsewhere)."""
    names: list[str] = []
    width = None
    with path.open(encoding="utf-8", errors="replace") as lines:
        for n, line in enumerate(lines, start=1):
            text = line.split("#", 1)[0].strip()  # a comment, as np.loadtxt's, ends a line
            if not text:
                continue
            fields = [x.strip() for x in text.split(",")]
            if n <= skip:
                names = fields
                continue
            for c, value in enumerate(fields, start=1):
                if not NUMBER.match(value):
                    name = f" ({names[c - 1]})" if c <= len(names) and names[c - 1] else ""
                    return f"line {n}, column {c}{name}: {value!r} is not a number"
            if width is not None and len(fields) != width:
                return f"line {n}: {len(fields)} fields, the lines before have {width}"
            width = len(fields)
    return None


def time_function_values(f: TimeFunction, t: np.ndarray, base: Path | None = None) -> np.ndarray:
    """Sample a :class:`TimeFunction` at the instants ``t``."""
    if f.type == "zero":
        return np.zeros_like(t)
    if f.type == "sine":
        return f.amplitude * np.sin(2.0 * np.pi * f.frequency * t + f.phase)
    times, values = table_samples(f, base)
    sampled: np.ndarray = f.amplitude * np.interp(t, times, values)
    return sampled


def time_function_callable(f: TimeFunction, base: Path | None = None) -> Callable[[float], float]:
    """A scalar function ``t -> value`` for ODE right-hand sides and event functions.

    Same values as :func:`time_function_values`; a CSV record is read once, here, not at
    every call.
    """
    if f.type == "table":
        times, values = table_samples(f, base)
        return lambda t: f.amplitude * float(np.interp(t, times, values))
    return lambda t: float(time_function_values(f, np.asarray(t, dtype=float), base))


#: steps per period (s) that resolve a sine: an event search samples its extrema finely
SINE_STEPS_PER_PERIOD = 32


def time_function_features(f: TimeFunction, base: Path | None = None
                           ) -> tuple[float, tuple[float, ...]]:
    """``(resolution, breakpoints)`` of a function: a step (s) short enough that no feature
    falls between two samples (inf for a constant or a table, linear between its samples),
    and the instants (s) where a table changes slope."""
    if f.type == "sine" and f.frequency > 0.0:
        return 1.0 / (SINE_STEPS_PER_PERIOD * f.frequency), ()
    if f.type == "table":
        times, _ = table_samples(f, base)
        return math.inf, tuple(float(t) for t in times)
    return math.inf, ()


@dataclass(frozen=True)
class TableMotion:
    """Acceleration of the table (m/s^2): ``horizontal`` ux(t) along +x, ``vertical``
    uy(t) along +y (up); None means zero.

    ``resolution`` (s) and ``breakpoints`` (s) say where the motion can change between
    samples of an integration or an event search: a step no longer than ``resolution``,
    stopping at every breakpoint, sees all of it (``inf`` and none: smooth at any scale).
    """

    horizontal: Callable[[float], float] | None = None
    vertical: Callable[[float], float] | None = None
    resolution: float = math.inf
    breakpoints: tuple[float, ...] = ()

    @property
    def still(self) -> bool:
        """True when the table does not move."""
        return self.horizontal is None and self.vertical is None

    def at(self, t: float) -> tuple[float, float]:
        """(ux, uy) at ``t`` (s)."""
        ux = self.horizontal(t) if self.horizontal is not None else 0.0
        uy = self.vertical(t) if self.vertical is not None else 0.0
        return ux, uy
