"""The preload of SDNV105: static gravity, then the tilt, then the supports of the release.

Code_Aster reaches the tilted equilibrium dynamically, with strong numerical damping; an
elastic body has one static equilibrium for given loads and supports, so two static solves
give the same state exactly:

1. gravity on a frictionless base: the block's base (CONHAUT) held in y, O1 held in x
   (it removes the free horizontal translation);
2. the tilt: the top-middle point C1 pulled in x to ``-2 l tilt`` (-0.008 m for tilt = 0.01),
   the pivot (``preload.pivot``: O1 for Code_Aster's test A, O for test B) held in x at its
   gravity value, and the corner O held in y. O stands in for the table contact until the
   contact treatments exist: it is the point the block pivots on, the rest of the base
   lifts off.

With the pivot at O1 (test A) the base keeps O1's abscissa, so a rigid rotation theta about
O gives ``2 l sin(theta) = 0.008``: theta = 0.0100002 rad and A lifts by
``2 b sin(theta) = 0.0036 m`` exactly. With the pivot at O (test B) in large rotation,
``b (cos(theta) - 1) - 2 l sin(theta) = -0.008`` gives theta = 0.0099889 rad and a lift of
0.0035959 m (Code_Aster's test B reached 0.0035958 m). Small strain gives the linearised
rotation 0.01 (the chord OA at atan(0.01) = 0.0099997 rad) and 0.0036 m in both.

The table (if meshed) is always held: CTGROUND in y, S1 in x.

In large rotation the tilt is a nonlinear static problem, and taken in one step from the
gravity state Newton can settle on a spurious equilibrium of the Saint Venant-Kirchhoff
block (tilt = 0.015 in one step reached -0.0125 rad, A below the table). The tilt reached
is therefore checked against the rigid one above
(:func:`rocking_contact.block.release_angle`, within 1 %); a tilt that misses is taken
again from the gravity state in twice as many steps, up to :data:`MAX_TILT_STEPS`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from rocking_contact.block import Geometry, Preload, release_angle
from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.constraints import Prescribed, fix, hold
from rocking_contact.fem.probes import PointProbe, base_rotation
from rocking_contact.geometry.layout import TABLE
from rocking_contact.solvers.driver import StepDriver, StepFailure
from rocking_contact.solvers.step import StepProblem
from rocking_contact.time.schemes import Static


def table_supports(body: ElasticBody) -> list[Prescribed]:
    """The table's own supports: CTGROUND in y, S1 in x (none without a table)."""
    if TABLE not in body.block_mesh.regions:
        return []
    return [fix(body, "CTGROUND", ["DY"]), fix(body, "S1", ["DX"])]


def gravity_supports(body: ElasticBody) -> list[Prescribed]:
    """Frictionless base: CONHAUT in y, O1 in x; plus the table's supports."""
    return [*table_supports(body), fix(body, "CONHAUT", ["DY"]), fix(body, "O1", ["DX"])]


def tilt_supports(body: ElasticBody, geometry: Geometry, preload: Preload,
                  u: np.ndarray) -> list[Prescribed]:
    """C1 pulled to ``-2 l tilt`` in x over pseudo-time [0, 1], pivot held in x, O in y.

    Args:
        body: the bodies.
        geometry: for l (m).
        preload: tilt (no unit: the sine of the release angle with the pivot at O1 in
            large rotation, its tangent in small strain: :func:`release_angle`) and pivot.
        u: displacement at the start of the tilt (local array); C1 starts from its value.

    """
    dofs = hold(body, "C1", ["DX"], u).dofs
    start = u[dofs].copy()
    target = -2.0 * geometry.half_height * preload.tilt
    pull = Prescribed(f"C1: DX -> {target:g} m", dofs, target - start, factor=ramp, start=start)
    return [*table_supports(body), fix(body, "O", ["DY"]), hold(body, preload.pivot, ["DX"], u),
            pull]


def ramp(tau: float) -> float:
    """0 -> 1 over pseudo-time [0, 1], constant outside."""
    return min(max(tau, 0.0), 1.0)


#: most pseudo-time steps the tilt is retried with (see the module doc)
MAX_TILT_STEPS = 64


@dataclass
class PreloadResult:
    """States after each static phase (local arrays), solver counters, and the
    pseudo-time steps the tilt took."""

    gravity: np.ndarray
    tilted: np.ndarray
    newton_iterations: int
    tilt_steps: int = 0


def static_preload(problem: StepProblem, driver: StepDriver, geometry: Geometry,
                   preload: Preload, *, steps: int = 1) -> PreloadResult:
    """Gravity then tilt, by static solves in pseudo-time; the problem ends in the tilt.

    Args:
        problem: starts from its current state (normally at rest, undeformed).
        driver: the step driver of ``problem`` (halves a failed pseudo-time step).
        geometry: block dimensions.
        preload: tilt and pivot.
        steps: pseudo-time steps of the tilt.

    """
    body = problem.body
    static = Static()
    iterations = driver.stats.newton_iterations
    problem.set_prescribed(gravity_supports(body))
    problem.set_state(v=np.zeros_like(problem.v.x.array), a=np.zeros_like(problem.a.x.array),
                      t=0.0)
    with _phase("gravity", 1):
        driver.advance(1.0, static)
    gravity = problem.u.x.array.copy()
    if preload.tilt > 0.0:
        expected = release_angle(geometry, preload, not body.linear)
        probe = PointProbe(body, ["O", "A"])
        zero = np.zeros_like(gravity)
        while True:
            problem.set_prescribed(tilt_supports(body, geometry, preload, gravity))
            problem.set_state(u=gravity, t=0.0)
            with _phase("tilt", steps):
                driver.run((k / steps, static) for k in range(1, steps + 1))
            reached = base_rotation(probe.sample(problem.u.x.array, zero),
                                    2 * geometry.half_width)
            if abs(reached - expected) <= 0.01 * abs(expected):
                break
            if 2 * steps > MAX_TILT_STEPS:
                raise StepFailure(0.0, 1.0 / steps, math.nan,
                                  f"the tilt reached {reached:.6g} rad, not the rigid "
                                  f"{expected:.6g} rad (a spurious static equilibrium); "
                                  f"preload tilt over {steps} steps", 0, steps, pseudo=True)
            steps *= 2
    return PreloadResult(gravity=gravity, tilted=problem.u.x.array.copy(),
                         newton_iterations=driver.stats.newton_iterations - iterations,
                         tilt_steps=steps if preload.tilt > 0.0 else 0)


@contextmanager
def _phase(name: str, steps: int) -> Iterator[None]:
    """Name the static phase in a step failure: its times are pseudo-times in [0, 1]."""
    try:
        yield
    except StepFailure as exc:
        raise StepFailure(exc.t, exc.h, exc.residual,
                          f"{exc.reason}; preload {name}, pseudo-time in [0, 1] over "
                          f"{steps} step(s)", exc.halvings, exc.step, pseudo=True) from exc
