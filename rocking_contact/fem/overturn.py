"""Overturning: a run stops when the block's base turns past its overturning limit.

On a still table the limit is ``atan(b / l)``: turned that far on a corner, the block has
its centre of mass above the corner and gravity turns it further. A moving table can pull
it back from there, so on a moving table the limit is pi/2, the block on its side
(:func:`rocking_contact.block.overturn_limit`, as the rigid-block solver's ``overturn``
event). The model follows a block rocking on its table, not its fall: without this the run
went on for
thousands of halved steps (a tilt of 0.42 rad: 7651 halvings in 88 s for 0.2 s, reported
as completed). A preload that releases the block past that angle is refused before the run
(:func:`rocking_contact.fem.case.check_release`); this watch stops a run that gets there,
driven by a shaking table for instance.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rocking_contact.block import Geometry, overturn_limit
from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.probes import PointProbe, base_rotation
from rocking_contact.solvers.step import StepProblem


class Overturn(Exception):
    """Raised by :class:`OverturnWatch` between two steps.

    Attributes:
        t: end of the step that passed the angle (s).

    """

    def __init__(self, t: float, theta: float, limit: float, table_still: bool):
        where = (f"past atan(b/l) = {limit:.6g} rad, where it topples" if table_still else
                 f"to pi/2 = {limit:.6g} rad: it lies on its side")
        super().__init__(f"the block overturned at t = {t:.9g} s: its base turned by "
                         f"{theta:.6g} rad, {where} (the model follows rocking on the "
                         "table, not the fall)")
        self.t = t


class OverturnWatch:
    """A step observer of the step driver: raises :class:`Overturn` after the first step
    whose base chord OA turned past the overturning limit (either way).

    Args:
        body: the bodies (O and A are sampled on every rank).
        geometry: the block (b, l).
        table_still: whether the table stands still (the limit is atan(b/l), else pi/2).

    """

    def __init__(self, body: ElasticBody, geometry: Geometry, table_still: bool):
        self.probe = PointProbe(body, ["O", "A"])
        self.width = 2 * geometry.half_width
        self.table_still = table_still
        self.limit = overturn_limit(geometry.overturn_angle, table_still)
        self._zero = np.zeros_like(body.u.x.array)

    def __call__(self, problem: StepProblem, info: Any) -> None:
        theta = base_rotation(self.probe.sample(problem.u.x.array, self._zero), self.width)
        if abs(theta) >= self.limit:
            raise Overturn(info.t, theta, self.limit, self.table_still)
