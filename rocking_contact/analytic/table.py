"""The table's acceleration as the rigid block's integration evaluates it: a record
(``type = "table"``) as a piecewise-linear function held in Python lists.

The integration asks for the table's acceleration at one instant at a time, hundreds of
thousands of times over a long record (433,727 calls for 20 s of a 20,001-point record):
``numpy.interp`` on the record's arrays took 16 µs a call there, 16 s of a 39 s run. A
bisection on the held times finds the segment, and the value is computed as
``numpy.interp`` computes it, with the same floating-point operations in the same order:
the values are the same to the last bit (``tests/analytic/test_table_record.py``).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import replace
from pathlib import Path
from typing import Any

from rocking_contact.time_function import TableMotion, table_samples


class Record:
    """``amplitude * numpy.interp(t, times, values)`` for one instant ``t`` (s), as a
    Python float: the value of a ``table`` time function (m/s^2 for the table's
    acceleration). Before the first time it is the first value, after the last the last,
    as ``numpy.interp`` has it.

    Args:
        times: instants (s), increasing strictly.
        values: the values there, before ``amplitude``.
        amplitude: the factor applied to them.

    """

    def __init__(self, times: Any, values: Any, amplitude: float):
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


def held_table(loading: Any, base: Path | None = None) -> TableMotion:
    """``loading.table_motion(base)`` with its records (``table`` functions) evaluated by
    :class:`Record`: the same values, the same resolution and breakpoints.

    Args:
        loading: a ``[loading]`` with ``table_acceleration_x`` and ``table_acceleration_y``
            (:class:`~rocking_contact.block.Loading`).
        base: the directory a record's relative ``path`` starts at.

    """
    table: TableMotion = loading.table_motion(base)
    x, y = loading.table_acceleration_x, loading.table_acceleration_y
    return replace(table, horizontal=_held(x, base) or table.horizontal,
                   vertical=_held(y, base) or table.vertical)


def _held(function: Any, base: Path | None) -> Record | None:
    """The :class:`Record` of a ``table`` time function, None for another type."""
    if function.type != "table":
        return None
    return Record(*table_samples(function, base), function.amplitude)
