"""A case's loads as functions of time: the table's accelerations of a block or rigid case
(``[loading]``) and a discrete model's support acceleration (``model.support.acceleration``),
scalar functions given as data in the case file (:class:`TimeFunction`), and the table's
motion they integrate to (:class:`TableMotion`).

A case file is data, never code: a function is a ``type`` with its parameters, or a table
of samples (inline or a CSV record).

A record's ``path`` is absolute once it is set: the case file's loading makes a relative
one absolute from the folder of the text that gives it (``config.anchor_paths``: the file's
folder, the current directory for an override), and one set in Python is made absolute
from the current directory (:meth:`TimeFunction.__setattr__`; one in a table set whole as a
dict, by ``rc.run``). The functions below read
the path as it stands, and their messages name it so.

This module sits above the case files' schema (:mod:`rocking_contact.config.schema`,
:mod:`~rocking_contact.config.names`), which knows nothing of it.
"""

from __future__ import annotations

import math
import re
import warnings
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import ClassVar, Literal

import numpy as np

from rocking_contact.config.names import close_hint
from rocking_contact.config.schema import (
    FINITE,
    NONNEGATIVE,
    SCALES,
    Check,
    distinct_texts,
    param,
)

#: a record's value column: a name of its header line, or a number from 2 (1 is time)
COLUMN = Check(lambda x: (x.strip() != "") if isinstance(x, str) else x >= 2,
               "a name of the record's header line, or a column number >= 2 (column 1 is "
               "the time)")


@dataclass(kw_only=True)
class TimeFunction:
    """A scalar function of time: ``zero``, ``sine`` (amplitude sin(2 pi f t + phase)) or
    ``table`` (linear interpolation in ``times``/``values``, or in a CSV ``path`` of t,
    value, or of t and more columns, ``column`` naming the one read; held constant
    outside).
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
    path: str = param("", doc="CSV record (t, value; or t and more, column naming the values "
                              "read); a relative path starts at the case "
                              "file that gives it, or at the current directory for --set "
                              "(and for one set in Python on a loaded case)")
    column: str | int | None = param(
        None, check=COLUMN,
        doc="the record's value column (path): its name in the record's header line, or its "
            "number, column 1 being the time; unset: the record has two columns, t and value")

    #: the keys each type reads (config.load_case refuses the others)
    VARIANTS: ClassVar = {"type": {"zero": (), "sine": ("amplitude", "frequency", "phase"),
                                   "table": ("amplitude", "times", "values", "path",
                                             "column")}}
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
            value = str(Path(value).absolute())
        super().__setattr__(name, value)

    def __repr__(self) -> str:
        # the keys its type reads alone (VARIANTS): a table switched from a sine would show
        # the sine's frequency=2.0, which it does not read; a type no variant names (set in
        # Python, refused by rc.run) shows every key
        every = [key.name for key in dataclass_fields(self) if key.name != "type"]
        shown = ("type", *self.VARIANTS["type"].get(self.type, every))
        return f"TimeFunction({', '.join(f'{k}={getattr(self, k)!r}' for k in shown)})"

    def aliasing(self, key: str, step: float) -> dict[str, str] | None:
        """Why a sine sampled every ``step`` (s, the run's longest step) cannot be seen:
        at :data:`ALIASED` periods a step or more (two samples a period, Nyquist's bound)
        its samples are those of a slower sine, and at a whole number of half periods a
        step they are all zero (1e6 Hz at a 1e-4 s step runs without load, without a
        word). As a :class:`~rocking_contact.config.Conflict`'s problems: said from its
        ``frequency`` (``key``: this function's dotted key) and from ``time.step``; None
        for another type or a sine of more samples a period."""
        periods = self.frequency * step
        if self.type != "sine" or periods < ALIASED:
            return None
        samples = f"{1.0 / periods:.3g} samples a period"
        why = ("at most 2: its samples are those of a slower sine (all zero at a whole "
               "number of half periods a step), and the run cannot show it")
        return {
            f"{key}.frequency": (
                f"{self.frequency:g} Hz, sampled every time.step {step:g} s, has {samples}, "
                f"{why}; allowed: a frequency below {ALIASED / step:g} Hz (at least "
                f"{FEW_SAMPLES} samples a period below {1.0 / (FEW_SAMPLES * step):g} Hz), "
                f"or a shorter time.step"),
            "time.step": (
                f"{step:g} s samples the sine of {key} ({self.frequency:g} Hz) with "
                f"{samples}, {why}; allowed: a step below {ALIASED / self.frequency:g} s "
                f"({1.0 / (FEW_SAMPLES * self.frequency):g} s or less for {FEW_SAMPLES} "
                f"samples a period)")}

    def validate(self) -> None:
        if self.type == "sine":
            _check_peak(self.amplitude, None)
        if self.type != "table":
            return
        if self.column is not None and not self.path:
            raise ValueError(f"column: {self.column!r} names a column of a CSV record, and "
                             "this table has none (allowed: column with a path; unset with "
                             "times and values)")
        if self.path:
            if self.times or self.values:
                raise ValueError("times: a table takes times and values, or a path, not both")
        elif len(self.times) < 2 or len(self.times) != len(self.values):
            raise ValueError("times: a table needs >= 2 times and as many values")
        else:
            _check_increasing("times", np.asarray(self.times))
        # a record is read now: a bad one is bad input
        _, values, names, _ = _read_table(self)
        if names:
            _check_time_unit(self, names)
        _check_peak(self.amplitude, values)


#: periods of a sine in a step from which its samples alias (refused,
#: :meth:`TimeFunction.aliasing`): under two samples a period, Nyquist's bound
ALIASED = 0.5
#: samples a period under which a sine is seen coarsely (warned: :func:`few_samples`)
FEW_SAMPLES = 10


def few_samples(f: TimeFunction, key: str, step: float,
                seen: str = "the run sees its peaks cut and its phase shifted") -> list[str]:
    """The warning of a sine sampled every ``step`` (s, the run's longest step) fewer
    than :data:`FEW_SAMPLES` times a period, but not aliased (those are refused,
    :meth:`TimeFunction.aliasing`): ``seen`` says what that does. ``key`` names the
    function in the sentence."""
    periods = f.frequency * step
    if f.type != "sine" or not 1.0 / FEW_SAMPLES < periods < ALIASED:
        return []
    return [f"{key}: a sine of {f.frequency:g} Hz sampled every time.step {step:g} s has "
            f"{1.0 / periods:.3g} samples a period, fewer than {FEW_SAMPLES}: {seen} (a "
            f"step <= "
            f"{1.0 / (FEW_SAMPLES * f.frequency):g} s gives {FEW_SAMPLES})"]


#: the largest magnitude a function may reach: every one is an acceleration (a table's, a
#: support's), and 1e300 m/s^2 fails the first step on a NaN
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


def held_values(f: TimeFunction, key: str, start: float, end: float) -> list[str]:
    """A table holds its first value before its samples and its last after them: one
    sentence per end of the record that lies inside the run ``[start, end]`` (s) with a
    nonzero value there (an earthquake record shorter than the run would go on shaking at
    its last acceleration without a word), or that lies wholly after (before) the run,
    whose first (last) value is then held over all of it; and one when the run lies between
    two samples of a record of three or more (a record in ms read as s); before them, the
    sentence of a record whose header names its values in another acceleration than they
    are read in (:func:`_unit_warning`). ``key`` names the function in the sentences."""
    if f.type != "table":
        return []
    times, values, names, read = _read_table(f)
    out = _unit_warning(f, key, values, names, read)
    for t, value, outside, side in ((times[0], values[0], start < times[0], "starts"),
                                    (times[-1], values[-1], end > times[-1], "ends")):
        if outside and value != 0.0:
            # a record wholly after the run (or wholly before it) is never reached: its
            # first (last) value is the whole run's load, which "inside the run" denied
            run = f"[{start:g}, {end:g}] s"
            if side == "starts" and t >= end:
                where = (f"after the run {run} ends: the run never reaches it, and its "
                         "first value")
                held = "over the whole run"
            elif side == "ends" and t <= start:
                where = (f"before the run {run} starts: the run never reaches it, and its "
                         "last value")
                held = "over the whole run"
            else:
                where = f"inside the run {run}: its value there"
                held = f"{'before' if side == 'starts' else 'after'} it"
            out.append(f"{key}: the record {side} at t = {t:g} s, {where}, "
                       f"{f.amplitude * value:g} m/s^2, is held {held} (add a row 't, 0' "
                       f"there to keep it at zero)")
    inside = np.count_nonzero((times > start) & (times < end))
    if inside == 0 and len(times) >= 3 and times[0] < end and times[-1] > start:
        # a record in ms read as s: the run sees one straight segment of it
        k = int(np.searchsorted(times, end))
        out.append(f"{key}: the run [{start:g}, {end:g}] s lies between two samples of the "
                   f"record, at t = {times[k - 1]:g} and {times[k]:g} s: it sees the straight "
                   f"line between them, not the record (are its times in seconds?)")
    return out


#: the units of time a record's header may name for its times (``time (s)``), in s: a
#: column in another is refused, the record is read in s
TIME_UNITS = {"s": 1.0, "sec": 1.0, "ms": 1e-3, "us": 1e-6, "\u00b5s": 1e-6, "\u03bcs": 1e-6,
              "min": 60.0,
              "h": 3600.0}
#: the units of acceleration a record's header may name for its values (``accel (g)``,
#: ``ax [mm/s^2]``), in m/s^2 (standard gravity for g; gal is cm/s^2): the values are read
#: in m/s^2 times ``amplitude``, which converts one of these (9.80665 for g)
ACCELERATION_UNITS = {"m/s^2": 1.0, "g": 9.80665, "mg": 9.80665e-3, "mm/s^2": 1e-3,
                      "cm/s^2": 1e-2, "gal": 1e-2, "ft/s^2": 0.3048, "in/s^2": 0.0254}
#: a unit at the end of a column's name, in parentheses or brackets: ``accel (g)``
NAMED_UNIT = re.compile(r"[(\[]\s*([^()\[\]]+?)\s*[)\]]$")


def named_unit(name: str) -> str | None:
    """The unit a record's column name ends with, in parentheses or brackets, spelt as
    :data:`TIME_UNITS` and :data:`ACCELERATION_UNITS` spell it (``m/s2``, ``m.s-2`` and
    ``m/s²`` are ``m/s^2``; ``G`` and ``Gal`` are ``g`` and ``gal``); None without one."""
    found = NAMED_UNIT.search(name.strip())
    if found is None:
        return None
    unit = found.group(1).replace(" ", "").replace("\u00b2", "^2").replace("**", "^")
    unit = re.sub(r"^(\w+)[.*\u00b7]?s\^?-2$", r"\1/s^2", unit)  # m.s-2, m s^-2
    unit = re.sub(r"/s2$", "/s^2", unit)
    return unit if unit.endswith("/s^2") or unit in TIME_UNITS else unit.lower()


def _check_time_unit(f: TimeFunction, names: list[str]) -> None:
    """Refuse a record whose header names its times (column 1) in another unit than s:
    they are read in s, and no key scales them."""
    unit = named_unit(names[0])
    if unit in TIME_UNITS and TIME_UNITS[unit] != 1.0:
        raise ValueError(f"path: {f.path}: column 1 ({names[0]}) is in {unit}, and a "
                         f"record's times are read in s (allowed: its times in s, "
                         f"{TIME_UNITS[unit]:g} times the column's)")


def _unit_warning(f: TimeFunction, key: str, values: np.ndarray, names: list[str],
                  read: int) -> list[str]:
    """The warning of a record (``values`` read from column ``read`` from 0, under the
    header's ``names``) whose header names its values in an acceleration other than
    m/s^2 while ``amplitude`` is +-1, which reads them as given, in m/s^2 (a record headed
    ``accel (g)`` is read as 0.5 m/s^2 where it means 0.5 g, without a word). Another
    amplitude is taken to convert them, and a unit this module does not know is not
    judged (``ax (filtered)``). A warning, not a refusal: the loaded case's amplitude is
    known once its layers are merged (a parent's sine amplitude stays behind,
    config.load_case)."""
    if abs(f.amplitude) != 1.0:
        return []
    name = names[read] if read < len(names) else ""
    unit = named_unit(name)
    factor = ACCELERATION_UNITS.get(unit or "")
    if unit is None or factor is None or factor == 1.0:
        return []
    peak = float(np.max(np.abs(values)))
    return [f"{key}: the record's column {read + 1} is headed {name!r}, in {unit}, and is "
            f"read in m/s^2 (times amplitude {f.amplitude:g}): {peak:g} m/s^2 at most; a "
            f"record in {unit} wants amplitude = {f.amplitude * factor:g}"]


def table_samples(f: TimeFunction) -> tuple[np.ndarray, np.ndarray]:
    """The ``(times, values)`` of a ``table`` function, before ``amplitude`` is applied.

    A CSV record (``path``, absolute as every time function holds it) is read here, once
    per call, and checked:
    rows of numbers, as many fields each, at least two rows, times (column 1) increasing
    strictly, and the times and the values read finite. The values are column 2 of a
    record of two columns, or the ``column`` it names (by the name its header line gives
    it, or by its number from 1) of a record of any width. Lines starting with ``#`` are
    comments; a first line of column names (``t_s,ax``, as a spreadsheet writes) is
    skipped.

    Raises:
        ValueError: ``"path: <file>: what is wrong"``, or ``"column: ..."`` for a column
            the record has not.

    """
    times, values, _, _ = _read_table(f)
    return times, values


def _read_table(f: TimeFunction) -> tuple[np.ndarray, np.ndarray, list[str], int]:
    """:func:`table_samples`, with the names of a record's header line (none: no header
    line, or inline samples) and the index (from 0) of the column its values are read
    from."""
    if not f.path:
        return np.asarray(f.times, dtype=float), np.asarray(f.values, dtype=float), [], 1
    path = Path(f.path)
    if not path.is_file():
        raise ValueError(f"path: {path}: no such file (a CSV record of t, value; a "
                         "relative path starts at the case file that gives it, or at the "
                         "current directory for --set, overrides and a path set in Python)")
    allowed = ("allowed: rows 't, value' of numbers, at least 2, times increasing"
               if f.column is None else
               "allowed: rows of numbers, as many each, at least 2, times increasing")
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
    names = [_unquoted(n) for n in first[1]] if first is not None and skip else []
    rows, width = data.shape
    if f.column is None and (width != 2 or rows < 2):
        wider = (f"; or set column to the values' {_choices(names, width)}" if width > 2
                 else "")
        raise ValueError(f"path: {path}: {rows} row(s) of {width} column(s) ({allowed}"
                         f"{wider})")
    if rows < 2:
        raise ValueError(f"path: {path}: {rows} row(s) ({allowed})")
    read = 1 if f.column is None else _column(f.column, path, skip, names, width)
    # said at its line, as an editor counts them
    lines = [n for n, _ in _rows(path) if n > skip]
    used = data[:, [0, read]]  # the other columns of a wider record may hold NaN (unmeasured)
    bad = np.argwhere(~np.isfinite(used))
    if len(bad):
        r, c = bad[0]
        c = (0, read)[c] + 1
        raise ValueError(f"path: {path}: line {lines[r]}, column {c}{_name(names, c)}: "
                         f"{data[r, c - 1]} is not finite ({allowed})")
    k = _first_decrease(data[:, 0])
    if k is not None:
        before, after = distinct_texts(data[k - 1, 0], data[k, 0])
        raise ValueError(f"path: {path}: line {lines[k]}, column 1{_name(names, 1)}: time "
                         f"{after} after {before} on line {lines[k - 1]} ({allowed} strictly)")
    return data[:, 0], data[:, read], names, read


def _choices(names: list[str], width: int) -> str:
    """The values ``column`` may take in a record of ``width`` columns whose header line
    gives ``names`` (none: no header line): ``name (ax, ay, az) or number 2 to 4``."""
    numbers = ("number 2" if width == 2 else "number 2 or 3" if width == 3 else
               f"number 2 to {width}")
    given = [n for n in names[1:width] if n]
    return f"name ({', '.join(given)}) or {numbers}" if given else numbers


def _column(column: str | int, path: Path, header: int, names: list[str], width: int) -> int:
    """The index (from 0) of the value column that ``column`` names, by name (on the
    header line ``header`` of ``names``; 0: none) or by number (from 1), in a record of
    ``width`` columns.

    Raises:
        ValueError: ``"column: ..."``, with the names and numbers allowed and the names
            closest to a misspelt one.

    """
    allowed = f"allowed: its values' column by {_choices(names, width)}"
    if isinstance(column, int):
        if column > width:
            raise ValueError(f"column: {column} is past the last column of {path}, column "
                             f"{width} ({allowed})")
        return column - 1
    if not names:
        raise ValueError(f"column: {column!r} names no column of {path}: its first line "
                         f"is no header line of names ({allowed})")
    if len(names) != width:
        raise ValueError(f"column: {column!r}: line {header} of {path} names {len(names)} "
                         f"columns and its rows have {width} ({allowed}, or a header line "
                         "naming each column)")
    found = [c for c, name in enumerate(names, start=1) if name == column.strip()]
    if found == [1]:
        raise ValueError(f"column: {column!r} is column 1 of {path} (line {header}), the "
                         f"times ({allowed})")
    if len(found) > 1:
        values = [str(c) for c in found if c != 1]  # column 1 is the times, whatever its name
        raise ValueError(f"column: {column!r} names columns {', '.join(map(str, found))} of "
                         f"{path} (line {header}) (allowed: the number "
                         f"{' or '.join(values)})")
    if not found:
        # a name in other letter cases is the closest there is (difflib scores it 0)
        same = [n for n in names[1:] if n.casefold() == column.strip().casefold()]
        close = f"; close: {', '.join(same)}" if same else close_hint(column, names[1:])
        raise ValueError(f"column: {column!r} is no column of {path} (line {header}: "
                         f"{', '.join(names)}; {allowed}{close})")
    return found[0] - 1


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


def _unquoted(name: str) -> str:
    """A header field without the double quotes a spreadsheet may put around it
    (``"ax"`` names the column ``ax``)."""
    return name[1:-1].strip() if len(name) >= 2 and name[0] == name[-1] == '"' else name


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
            names = [_unquoted(x) for x in fields]
            continue
        for c, value in enumerate(fields, start=1):
            if not NUMBER.match(value):
                return _no_comma(n, fields) or (
                    f"line {n}, column {c}{_name(names, c)}: {value!r} is not a number")
        if width is not None and len(fields) != width:
            return f"line {n}: {len(fields)} fields, the lines before have {width}"
        width = len(fields)
    return None


def time_function_values(f: TimeFunction, t: np.ndarray) -> np.ndarray:
    """Sample a :class:`TimeFunction` at the instants ``t``."""
    if f.type == "zero":
        return np.zeros_like(t)
    if f.type == "sine":
        return f.amplitude * np.sin(2.0 * np.pi * f.frequency * t + f.phase)
    times, values = table_samples(f)
    sampled: np.ndarray = f.amplitude * np.interp(t, times, values)
    return sampled


def time_function_callable(f: TimeFunction) -> Callable[[float], float]:
    """A scalar function ``t -> value`` for ODE right-hand sides and event functions.

    Same values as :func:`time_function_values`; a CSV record is read once, here, not at
    every call, and evaluated by :class:`Record`.
    """
    if f.type == "table":
        return Record(*table_samples(f), f.amplitude)
    return lambda t: float(time_function_values(f, np.asarray(t, dtype=float)))


class Record:
    """``amplitude * numpy.interp(t, times, values)`` for one instant ``t`` (s), as a
    Python float: the value of a ``table`` time function (m/s^2 for an acceleration).
    Before the first time it is the first value, after the last the last, as
    ``numpy.interp`` has it.

    An ODE's right-hand side or event function asks for one instant at a time, hundreds of
    thousands of times over a long record (the rigid block on 20 s of a 20,001-point
    record: 433,727 calls): ``numpy.interp`` on the record's arrays takes 16 us a call
    there, 16 s of a 39 s run. A bisection on the held times finds the segment, and the
    value is computed with ``numpy.interp``'s floating-point operations in their order:
    the same values to the last bit (``tests/analytic/test_table_record.py``), 0.45 us a
    call.

    Args:
        times: instants (s), increasing strictly.
        values: the values there, before ``amplitude``.
        amplitude: the factor applied to them.

    """

    def __init__(self, times: Iterable[float], values: Iterable[float], amplitude: float):
        self.times = [float(t) for t in times]
        self.values = [float(v) for v in values]
        self.amplitude = float(amplitude)
        x, y = self.times, self.values
        # numpy.interp's slope of segment j, computed as it computes it
        self.slopes = [(y[j + 1] - y[j]) / (x[j + 1] - x[j]) for j in range(len(x) - 1)]

    def __call__(self, t: float) -> float:
        return self.amplitude * self._interpolated(t)

    def _interpolated(self, t: float) -> float:
        """numpy.interp's branches (numpy/_core/src/multiarray/compiled_base.c): NaN
        stays NaN, the ends are held, a breakpoint gives its value, and a NaN from one
        end of the segment is tried from the other."""
        x, y = self.times, self.values
        if math.isnan(t):
            return t
        j = bisect_right(x, t) - 1  # x[j] <= t < x[j + 1]
        if j < 0:
            return y[0]
        if j >= len(x) - 1 or x[j] == t:
            return y[j]
        slope = self.slopes[j]
        value = slope * (t - x[j]) + y[j]
        if math.isnan(value):
            value = slope * (t - x[j + 1]) + y[j + 1]
            if math.isnan(value) and y[j] == y[j + 1]:
                value = y[j]
        return value


#: steps per period (s) that resolve a sine: an event search samples its extrema finely
SINE_STEPS_PER_PERIOD = 32


def time_function_features(f: TimeFunction) -> tuple[float, tuple[float, ...]]:
    """``(resolution, breakpoints)`` of a function: a step (s) short enough that no feature
    falls between two samples (inf for a constant or a table, linear between its samples),
    and the instants (s) where a table changes slope."""
    if f.type == "sine" and f.frequency > 0.0:
        return 1.0 / (SINE_STEPS_PER_PERIOD * f.frequency), ()
    if f.type == "table":
        times, _ = table_samples(f)
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
