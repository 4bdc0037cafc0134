"""Scalar functions of time given as data in case files (support and table accelerations).

A case file is data, never code: a function is a ``type`` with its parameters, or a table
of samples (inline or a CSV record).
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal

import numpy as np

from rocking_contact.config import CASE_FOLDER, FINITE, NONNEGATIVE, param
from rocking_contact.config.schema import SCALES, distinct_texts


@dataclass(kw_only=True)
class TimeFunction:
    """A scalar function of time: ``zero``, ``sine`` (amplitude sin(2 pi f t + phase)) or
    ``table`` (linear interpolation in ``times``/``values``, or in a two-column CSV ``path``
    of t, value; held constant outside).
    """

    type: Literal["zero", "sine", "table"] = param("zero")
    amplitude: float = param(1.0, check=FINITE,
                             doc="a sine's peak (the function's unit), or the factor on a "
                                 "table's values (a record's too); signed: a negative one "
                                 "reverses the motion; the peak it gives within 1e4 m/s^2; "
                                 "given for another type in an extended file, it stays "
                                 "behind")
    frequency: float = param(0.0, unit="Hz", check=NONNEGATIVE)
    phase: float = param(0.0, unit="rad", check=FINITE)
    times: list[float] = param(default_factory=list, unit="s", check=FINITE)
    values: list[float] = param(default_factory=list, check=FINITE)
    path: str = param("", doc="CSV record (t, value); a relative path starts at the case "
                              "file that gives it, or at the current directory for --set "
                              "(and for an attribute set in Python)")

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

    def __setattr__(self, name: str, value: object) -> None:
        # A relative record path set on a loaded case (``case.loading.table_acceleration_x
        # .path = "ux.csv"``) is read from the current directory, as one given by --set or
        # in overrides: the run read it from the shipped case's folder. A loaded case's
        # own paths are absolute already (config.anchor_paths), and one built in code
        # read it from the current directory anyway.
        if name == "path" and isinstance(value, str) and value and not Path(value).is_absolute():
            value = str(((CASE_FOLDER.get() or Path.cwd()) / value).absolute())
        super().__setattr__(name, value)

    def validate(self) -> None:
        if self.type == "sine":
            _check_peak(self.amplitude, None)
        if self.type != "table":
            return
        if self.path:
            if self.times or self.values:
                raise ValueError("times: a table takes times and values, or a path, not both")
        elif len(self.times) < 2 or len(self.times) != len(self.values):
            raise ValueError("times: a table needs >= 2 times and as many values")
        else:
            _check_increasing("times", np.asarray(self.times))
        # a record is read now: a bad one is bad input
        _check_peak(self.amplitude, table_samples(self, CASE_FOLDER.get())[1])


#: the largest magnitude a function may reach: every one is an acceleration (a table's, a
#: support's), and 1e300 m/s^2 failed the first step on a NaN
PEAK = SCALES["m/s2"]


def _check_peak(amplitude: float, values: np.ndarray | None) -> None:
    """Refuse a function whose peak, ``|amplitude|`` for a sine, ``|amplitude|`` times the
    largest ``|value|`` for a table, is beyond :data:`PEAK` (m/s^2). The amplitude is
    signed: a negative one reverses the motion (a sine's is its phase shifted by pi, a
    record's mirrors it), which is a motion as any other."""
    largest = float(np.max(np.abs(values))) if values is not None else 1.0
    peak = abs(amplitude) * largest
    if peak <= PEAK.limit:
        return
    of = "" if values is None else f" times the table's largest |value| {largest:g}"
    raise ValueError(f"amplitude: got {amplitude:g}{of}, a peak of {peak:g} m/s^2; allowed: "
                     f"a number, negative to reverse the motion, with a peak within "
                     f"{PEAK.limit:g} m/s^2 ({PEAK.reason})")


def _first_decrease(times: np.ndarray) -> int | None:
    """The index of the first time that does not follow its predecessor strictly, or
    None if the times increase strictly."""
    bad = np.flatnonzero(np.diff(times) <= 0.0)
    return int(bad[0]) + 1 if len(bad) else None


def _check_increasing(key: str, times: np.ndarray) -> None:
    k = _first_decrease(times)
    if k is not None:
        before, after = distinct_texts(times[k - 1], times[k])
        raise ValueError(f"{key}[{k}]: {after} after {before}; allowed: times increasing "
                         "strictly")


def held_values(f: TimeFunction, key: str, start: float, end: float,
                base: Path | None = None, unit: str = "m/s^2") -> list[str]:
    """A table holds its first value before its samples and its last after them: one
    sentence per end of the record that lies inside the run ``[start, end]`` (s) with a
    nonzero value there (an earthquake record shorter than the run would go on shaking at
    its last acceleration without a word), and one when the run lies between two samples of
    a record of three or more (a record in ms read as s). ``key`` names the function in the
    sentence."""
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
    inside = np.count_nonzero((times > start) & (times < end))
    if inside == 0 and len(times) >= 3 and times[0] < end and times[-1] > start:
        # a record in ms read as s: the run sees one straight segment of it
        k = int(np.searchsorted(times, end))
        out.append(f"{key}: the run [{start:g}, {end:g}] s lies between two samples of the "
                   f"record, at t = {times[k - 1]:g} and {times[k]:g} s: it sees the straight "
                   f"line between them, not the record (are its times in seconds?)")
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
                         "current directory for --set, overrides and a path set in Python)")
    allowed = "allowed: rows 't, value' of numbers, at least 2, times increasing"
    first = next(_rows(path), None)
    if first is not None and (problem := _no_comma(*first)):  # (else taken for names)
        raise ValueError(f"path: {path}: {problem} ({allowed})")
    skip = first[0] if first is not None and _names(first[1]) else 0
    try:
        with warnings.catch_warnings():  # an empty file is reported below, not warned
            warnings.simplefilter("ignore", UserWarning)
            data = np.loadtxt(path, delimiter=",", ndmin=2, skiprows=skip)
    except ValueError as exc:  # numpy counts rows from 0 after the header: say the line
        where = _bad_field(path, skip) or str(exc)
        raise ValueError(f"path: {path}: {where} ({allowed})") from None
    if data.size == 0:
        raise ValueError(f"path: {path}: empty ({allowed})")
    if data.shape[1] != 2 or data.shape[0] < 2:
        raise ValueError(f"path: {path}: {data.shape[0]} row(s) of {data.shape[1]} column(s) "
                         f"({allowed})")
    # said at its line, as an editor counts them
    lines = [n for n, _ in _rows(path) if n > skip]
    names = first[1] if first is not None and skip else []
    bad = np.argwhere(~np.isfinite(data))
    if len(bad):
        r, c = bad[0]
        raise ValueError(f"path: {path}: line {lines[r]}, column {c + 1}{_name(names, c + 1)}: "
                         f"{data[r, c]} is not finite ({allowed})")
    k = _first_decrease(data[:, 0])
    if k is not None:
        before, after = distinct_texts(data[k - 1, 0], data[k, 0])
        raise ValueError(f"path: {path}: line {lines[k]}, column 1{_name(names, 1)}: time "
                         f"{after} after {before} on line {lines[k - 1]} ({allowed} strictly)")
    return data[:, 0], data[:, 1]


#: a field of a record that is a number (a column name is not)
NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|[-+]?(nan|inf(inity)?)$",
                    re.IGNORECASE)


#: a separator other than the comma, in a line read as one field
SEPARATOR = re.compile(r"[;\t]|\S\s+\S")


def _rows(path: Path) -> Iterator[tuple[int, list[str]]]:
    """The lines of a record that hold data or column names, as ``(line number from 1,
    its comma-separated fields)``: comments (``#`` to the end of the line, as np.loadtxt
    reads them) and blank lines are skipped."""
    with path.open(encoding="utf-8", errors="replace") as lines:
        for n, line in enumerate(lines, start=1):
            text = line.split("#", 1)[0].strip()
            if text:
                yield n, [x.strip() for x in text.split(",")]


def _no_comma(n: int, fields: list[str]) -> str | None:
    """Why line ``n`` of a record, read as ``fields``, is no comma-separated row: a
    spreadsheet's semicolons or a text file's spaces or tabs make one field of it; None
    if it is not such a line."""
    if len(fields) == 1 and SEPARATOR.search(fields[0]):
        return f"line {n}: {fields[0]!r} has no comma; a record is comma-separated"
    return None


def _name(names: list[str], c: int) -> str:
    """`` (name)`` of column ``c`` (from 1) given the header's ``names``, or ``""``."""
    return f" ({names[c - 1]})" if c <= len(names) and names[c - 1] else ""


def _names(fields: list[str]) -> bool:
    """Whether a record's first row names its columns (no field of it is a number)."""
    return not any(NUMBER.match(x) for x in fields)


def _bad_field(path: Path, skip: int) -> str | None:
    """Where a record stops being rows of numbers, as an editor shows it: ``line 3, column
    2 (ax): 'x' is not a number`` (lines and columns from 1, the column's name from the
    header line among the ``skip`` first lines, if any), or ``line 4: 3 fields, the lines
    before have 2``; None if every line reads (the fault is elsewhere)."""
    names: list[str] = []
    width = None
    for n, fields in _rows(path):
        if n <= skip:
            names = fields
            continue
        for c, value in enumerate(fields, start=1):
            if not NUMBER.match(value):
                return _no_comma(n, fields) or (
                    f"line {n}, column {c}{_name(names, c)}: {value!r} is not a number")
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
