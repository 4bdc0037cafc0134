"""Leaving the table: a run stops when the block overturns or slides off its table.

Overturning: on a still table the limit is ``atan(b / l)``: turned that far on a corner,
the block has its centre of mass above the corner and gravity turns it further. A moving
table can pull it back from there, so on a moving table the limit is pi/2, the block on its
side (:func:`rocking_contact.block.overturn_limit`, as the rigid-block solver's
``overturn`` event). The model follows a block rocking on its table, not its fall: without
this the run went on for thousands of halved steps (a tilt of 0.42 rad: 7651 halvings in
88 s for 0.2 s, reported as completed). A preload that releases the block past that angle
is refused before the run (:func:`rocking_contact.fem.case.check_release`); this watch
stops a run that gets there, driven by a shaking table for instance.

Sliding off: the base corners' contacts are node-to-node pairs fixed at the start (small
sliding, as Code_Aster's), which would hold a corner up past the table's end. Shaken at
40 m/s^2, corner O slid 1.47 m, beyond the end at -0.18 m, and stayed supported; a corner
past an end of the meshed table by more than :data:`OVERHANG` of the base width now stops
the run.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rocking_contact.block import Geometry, overturn_limit
from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.probes import PointProbe, base_rotation
from rocking_contact.solvers.step import StepProblem

#: how far past an end of its table (fraction of the base width 2b) a corner may stand
#: before the run stops: a table flush with the block (table_right = 2b, allowed) is crossed
#: by the preload alone, which with pivot O1 moves the base along +x by b (1 - cos theta)
#: (9.0e-6 m at SDNV105's 0.01 rad: such a block was said to slide off at 0.0295 s, 9 nm
#: past the end). A corner carried that far out moves its moment arm by 0.1 % at most.
OVERHANG = 1e-3


class Overturn(Exception):
    """Raised by :class:`OverturnWatch` between two steps: its message is the run's status.

    Attributes:
        t: end of the step that left the model (s).

    """

    def __init__(self, t: float, message: str):
        super().__init__(f"the block {message} (the model follows the block on its table)")
        self.t = t


class OverturnWatch:
    """A step observer of the step driver: raises :class:`Overturn` after the first step
    whose base chord OA turned past the overturning limit (either way), or that left a base
    corner past an end of the table.

    Args:
        body: the bodies (O and A are sampled on every rank).
        geometry: the block (b, l) and its table's ends (m).
        table_still: whether the table stands still (the limit is atan(b/l), else pi/2).
        meshed_table: whether the model has the table (no ends to slide off otherwise: the
            springs of SDNV105 B).

    """

    def __init__(self, body: ElasticBody, geometry: Geometry, table_still: bool,
                 meshed_table: bool):
        self.probe = PointProbe(body, ["O", "A"])
        self.width = 2 * geometry.half_width
        self.table_still = table_still
        self.limit = overturn_limit(geometry.overturn_angle, table_still)
        self.ends = (geometry.table_left, geometry.table_right) if meshed_table else None
        self.overhang = OVERHANG * self.width
        self._zero = np.zeros_like(body.u.x.array)

    def __call__(self, problem: StepProblem, info: Any) -> None:
        values = self.probe.sample(problem.u.x.array, self._zero)
        theta = base_rotation(values, self.width)
        if abs(theta) >= self.limit:
            where = (f"past atan(b/l) = {self.limit:.6g} rad, where it topples"
                     if self.table_still else f"to pi/2 = {self.limit:.6g} rad: it lies on "
                     "its side")
            raise Overturn(info.t, f"overturned at t = {info.t:.9g} s: its base turned by "
                                   f"{theta:.6g} rad, {where}")
        if self.ends is None:
            return
        x_o, x_a = values["DX_O"], self.width + values["DX_A"]
        left, right = self.ends
        if x_o < left - self.overhang or x_a > right + self.overhang:
            corner, x, end = ("O", x_o, left) if x_o < left - self.overhang else ("A", x_a, right)
            raise Overturn(info.t, f"slid off its table at t = {info.t:.9g} s: corner "
                                   f"{corner} at x = {x:.6g} m, past the table's end at "
                                   f"{end:.6g} m by {abs(x - end):.3g} m (more than "
                                   f"{OVERHANG:g} of the base width)")
