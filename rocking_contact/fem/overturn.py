"""Leaving the table: a run stops when the block overturns or slides off its table.

Overturning: on a still table the limit is ``atan(b / l)``: turned that far on a corner,
the block has its centre of mass above the corner and gravity turns it further. A moving
table can pull it back from there, so on a moving table the limit is pi/2, the block on its
side (:func:`rocking_contact.block.overturn_limit`, as the rigid-block solver's
``overturn`` event). The model follows a block rocking on its table, not its fall: without
this watch a block past that angle takes thousands of halved steps and the run reports
completed. A preload that releases the block past that angle
is refused before the run (:func:`rocking_contact.fem.case.check_release`); this watch
stops a run that gets there, driven by a shaking table for instance.

Divergence: steps that create energy can throw the block over too. On a still table a block
released at rest below ``atan(b/l)`` cannot overturn (SDNV105: tipping from 0.01 rad takes
M g (R - l cos theta - b sin theta) = 151 J, the release gives 7.3 J), yet steps far too
long (A with ``time.step = 0.02`` and no refinement) create enough energy to turn its base
past the limit, a distorted block that an overturn stop would misreport as "the block
overturned". A stop whose run
created energy beyond what the energy warning tolerates (:func:`rocking_contact.post.energy.
created_energy`: the total energy, after a shaking table's work, above its released value
or above the lowest value it had reached, by more than 1 % of the energy of the motion) is
:class:`Diverged`, a failure, not an overturn (:func:`divergence`).

Sliding off: the base corners' contacts are node-to-node pairs fixed at the start (small
sliding, as Code_Aster's), which would hold a corner up past the table's end (shaken at
40 m/s^2: docs/theta.md, "Past the static overturning angle"); a corner past an end of the
meshed table by more than :data:`OVERHANG` of the base width stops the run.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rocking_contact.block import Geometry, overturn_limit
from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.probes import PointProbe, base_rotation
from rocking_contact.post.energy import created_energy, from_release, released_store, summary
from rocking_contact.solvers.step import StepProblem
from rocking_contact.stops import Diverged as Diverged  # (defined there: rc.Diverged)

#: how far past an end of its table (fraction of the base width 2b) a corner may stand
#: before the run stops: a table flush with the block (table_right = 2b, allowed) is crossed
#: by the preload alone, which with pivot O1 moves the base along +x by b (1 - cos theta)
#: (9.0e-6 m at SDNV105's 0.01 rad: without the margin such a block is said to slide off
#: at 0.0295 s, 9 nm past the end). A corner carried that far out moves its moment arm by
#: 0.1 % at most.
OVERHANG = 1e-3


class Overturn(Exception):
    """Raised by :class:`OverturnWatch` between two steps: its message is the run's status.

    Attributes:
        t: end of the step that left the model (s).
        what: what the block did, ``overturned`` or ``slid off its table``.
        detail: how it left the model (``its base turned by ... rad, past ...``).

    """

    def __init__(self, t: float, what: str, detail: str, remedy: str = ""):
        super().__init__(f"the block {what} at t = {t:.9g} s: {detail} (the model follows "
                         f"the block on its table){'; ' + remedy if remedy else ''}")
        self.t = t
        self.what = what
        self.detail = detail



def divergence(stop: Overturn, history: dict[str, np.ndarray], advice: str,
               least: float = 0.0) -> str | None:
    """The message of a :class:`Diverged` run when the run that ``stop`` ended had created
    energy beyond the energy warning's tolerance (:func:`~rocking_contact.post.energy.
    created_energy` of its ``history`` up to the stop, the stop's own state a row of it):
    the release and a shaking table's work cannot have taken the block there; None for an
    overturn or a slide that they can explain. ``advice`` is what to change
    (:func:`~rocking_contact.post.energy.remedy`); ``least`` the least energy of the
    motion (J, :func:`~rocking_contact.post.energy.motion_floor`)."""
    created = created_energy(summary(history, least))
    if created is None:
        return None
    cause = from_release(created, released_store(history))
    if cause is not None:  # the release stored it, not the steps: no advice on them
        return (f"the run's total energy rose by {created.energy:.4g} J by t = "
                f"{created.time:.6g} s ({100 * created.relative:.3g}% of the energy of the "
                f"motion) and at t = {stop.t:.9g} s took the block off the model "
                f"({stop.detail}): {cause}")
    time = np.asarray(history["time"])
    steps = np.asarray(history["DT"])[time <= created.time]
    return (f"the run diverged: its steps created {created.energy:.4g} J by t = "
            f"{created.time:.6g} s (the total energy above {created.above}, "
            f"{100 * created.relative:.3g}% of the energy of the motion, in steps of up to "
            f"{np.max(steps):.3g} s), which neither the release nor the table's motion can "
            f"supply, and at t = {stop.t:.9g} s that energy took the block off the model "
            f"({stop.detail}); {advice}")


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
        values = self.probe.sample(problem.arrays[0], self._zero)
        theta = base_rotation(values, self.width)
        if abs(theta) >= self.limit:
            where = (f"past atan(b/l) = {self.limit:.6g} rad, where it topples"
                     if self.table_still else f"to pi/2 = {self.limit:.6g} rad: it lies on "
                     "its side")
            raise Overturn(info.t, "overturned", f"its base turned by {theta:.6g} rad, {where}")
        if self.ends is None:
            return
        x_o, x_a = values["DX_O"], self.width + values["DX_A"]
        left, right = self.ends
        if x_o < left - self.overhang or x_a > right + self.overhang:
            corner, x, end = ("O", x_o, left) if x_o < left - self.overhang else ("A", x_a, right)
            key = "geometry.table_left" if corner == "O" else "geometry.table_right"
            # a base width beyond where the corner got: the run stopped at the first step
            # past the end, and the slide may have gone on
            room = x - self.width if corner == "O" else x + self.width
            raise Overturn(info.t, "slid off its table",
                           f"corner {corner} at x = {x:.6g} m, past the table's end at "
                           f"{end:.6g} m by {abs(x - end):.3g} m (more than {OVERHANG:g} of "
                           "the base width)", f"a longer table lets it slide on: {key} = "
                           f"{room:.3g} gives it a base width more")
