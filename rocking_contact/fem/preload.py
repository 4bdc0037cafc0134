"""The preload of SDNV105: static gravity, then the tilt, then the supports of the release.

Code_Aster reaches the tilted equilibrium dynamically, with strong numerical damping; an
elastic body has one static equilibrium for given loads and supports, so two static solves
give the same state exactly:

1. gravity on a frictionless base: the block's base (CONHAUT) held in y, O1 held in x
   (it removes the free horizontal translation);
2. the tilt: the top-middle point C1 pulled in x to ``-2 l tilt`` (-0.008 m for tilt = 0.01),
   the pivot (``preload.pivot``: O1 for Code_Aster's test A, O for test B) held in x at its
   gravity value, and the corner O held in y: it is the point the block pivots on, the
   rest of the base lifts off.

With the pivot at O1 (test A) the base keeps O1's abscissa, so a rigid rotation theta about
O gives ``2 l sin(theta) = 0.008``: theta = 0.0100002 rad and A lifts by
``2 b sin(theta) = 0.0036 m`` exactly. With the pivot at O (test B) in large rotation,
``b (cos(theta) - 1) - 2 l sin(theta) = -0.008`` gives theta = 0.0099889 rad and a lift of
0.0035959 m (Code_Aster's test B reached 0.0035958 m). Small strain gives the linearised
rotation 0.01 (the chord OA at atan(0.01) = 0.0099997 rad) and 0.0036 m in both.

The table (if meshed) is always held: CTGROUND in y, S1 in x. Code_Aster's block rests on
the table through a frictionless contact during both phases, so that the table carries its
weight when it is released; here the supports carry it, and a last static solve hands it to
the table (:func:`load_table`): the table, under the forces the block's base supports carry
(at the end of the tilt: M g at O), and the block lowered onto its deflected top. Without
it the contact would load an unloaded table at the release, in one step, and ring about the
pivot reaction; with it the release starts from the static reaction and a block released
flat (tilt 0) stays at rest (docs/fem.md, "Preload"; docs/contact.md, "The release").

Springs to the ground (SDNV105 B) take the weight at the release, lowered rigidly onto the
one spring under the loaded support; where several would share it (a block preloaded flat)
a last static step on the springs puts the block in equilibrium on them instead
(:func:`settle_on_springs`), held by the supports it keeps after the release (the table's
and the case's ``[[constraint]]``), and the run warns if that step finds no equilibrium.

In large rotation the tilt is a nonlinear static problem, and taken in one step from the
gravity state Newton can settle on a spurious equilibrium of the Saint Venant-Kirchhoff
block (corner A below the table). The tilt reached is therefore checked against the rigid
one above (:func:`rocking_contact.block.release_angle`, within 1 %); a tilt that misses is
taken again from the gravity state in twice as many steps, up to :data:`MAX_TILT_STEPS`. A
tilt that misses but is reached again with twice the steps (within
:data:`REPEAT_TOLERANCE`, neither try halving a step) is the block's own equilibrium, not
a spurious one, and is kept with a warning of its shortfall, its cause and the tilt that
reaches the rigid angle (:func:`~rocking_contact.fem.preload_messages.tilt_shortfall`): the
forces that hold the elastic block tilted (its weight on O, the pull at C1) deform it and
turn its base back by about the same angle at any small tilt, as 1/E. A tilt below that
angle leaves the base in the table, which the warning says with the tilts that release it
flat or above (the measured angles: docs/fem.md, "Preload"). The warnings' and failures'
texts are built in :mod:`~rocking_contact.fem.preload_messages`.

Springs that do not hold the block up (it stands deeper in them than
:data:`~rocking_contact.contact.springs.SINK_LIMIT` of its base half-width) are refused as
the case loads and stop the run at the release: :mod:`rocking_contact.contact.springs`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
from petsc4py import PETSc

from rocking_contact.block import Geometry, Preload, release_angle
from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.constraints import Prescribed, fix, hold
from rocking_contact.fem.gather import gather_nodes, gather_values
from rocking_contact.fem.preload_messages import (
    SAG_WARNING,
    Shortfall,
    TiltNotReached,
    remedy_tilt,
    tilt_shortfall,
    units_hint,
)
from rocking_contact.fem.probes import PointProbe, base_rotation
from rocking_contact.geometry.layout import BLOCK, CONBAS, CONHAUT, TABLE
from rocking_contact.solvers.driver import StepDriver, StepFailure
from rocking_contact.solvers.step import StepProblem
from rocking_contact.time.static import Static


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

#: a tilt that misses the rigid one but is reached again with twice the steps within this
#: fraction of the larger of the two angles, neither try halving a step, is an
#: equilibrium of the block: the solves
#: stop at ~1e-10 of their first residual (solver.rtol), so one state taken in n and 2n
#: steps agrees far below it (E = 1e8 Pa: 0.00961785 rad both times), while the spurious
#: state of one large step is another angle altogether (-0.0125 rad for 0.015)
REPEAT_TOLERANCE = 1e-6

#: the supports that hold the block after the release (the table's and the case's
#: ``[[constraint]]``), given the displacement (local array, m) that those without a
#: prescribed value hold: the runner's ``dynamic_supports`` of the case
Released = Callable[[np.ndarray], Sequence[Prescribed]]


def base_clearance(body: ElasticBody, u: np.ndarray) -> tuple[float, float]:
    """How far the block's lowest base node (CONHAUT) stands below the corner O at ``u``
    (local array, m; 0 if none does), and the angle (rad) the base must turn further
    about O for every node to stand above it: the largest drop over distance from O
    (negative when all do). Collective: every rank gets the same values."""
    base = gather_nodes(body, CONHAUT)  # along the base: O, the leftmost, first
    displacement = gather_values([u], base.dofs(body.V.dofmap.index_map_bs)[1],
                                 body.comm)[0]
    at = base.X[:, :2] + displacement
    drop, run = at[0, 1] - at[1:, 1], at[1:, 0] - at[0, 0]
    return max(float(np.max(drop)), 0.0), float(np.max(drop / run))


@dataclass
class PreloadResult:
    """States after each static phase (local arrays; ``tilted``: the released state, the
    table loaded), solver counters, the pseudo-time steps the tilt took, the table's
    deflection under the block (m, :func:`load_table`) and the preload's warnings (the
    settle on the springs that failed, :func:`settle_on_springs`)."""

    gravity: np.ndarray
    tilted: np.ndarray
    newton_iterations: int
    tilt_steps: int = 0
    table_deflection: float = 0.0
    warnings: list[str] = field(default_factory=list)
    #: the tilt reached (rad) when it was kept short of the rigid one, else None
    tilt_reached: float | None = None
    #: how far the base's lowest node stands below the corner O in a tilt kept short
    #: (m, :func:`base_clearance`; 0 if none does)
    base_below: float = 0.0


def static_preload(problem: StepProblem, driver: StepDriver, geometry: Geometry,
                   preload: Preload, *, steps: int = 1, table_contact: bool = False,
                   released: Released | None = None) -> PreloadResult:
    """Gravity then tilt, by static solves in pseudo-time, then, if the block's base is to
    rest on the table (``table_contact``), its weight handed to the table
    (:func:`load_table`), or settled on springs that share it (:func:`settle_on_springs`);
    the problem ends in that state.

    Args:
        problem: starts from its current state (normally at rest, undeformed).
        driver: the step driver of ``problem`` (halves a failed pseudo-time step).
        geometry: block dimensions.
        preload: tilt and pivot.
        steps: pseudo-time steps of the tilt.
        table_contact: the release hands the base to a contact with the table.
        released: the supports of the dynamic phase (:data:`Released`), which hold the
            block in the settle on its springs as after the release; None: the table's
            alone.

    """
    body = problem.body
    static = Static()
    iterations = driver.stats.newton_iterations
    problem.set_prescribed(gravity_supports(body))
    problem.set_state(v=np.zeros_like(problem.v.x.array), a=np.zeros_like(problem.a.x.array),
                      t=0.0)
    with _phase("gravity", 1, driver):
        driver.advance(1.0, static)
    gravity = problem.u.x.array.copy()
    warnings: list[str] = []
    short: float | None = None
    below = 0.0
    if preload.tilt > 0.0:
        expected = release_angle(geometry, preload, not body.linear)
        probe = PointProbe(body, ["O", "A", "C1"])
        zero = np.zeros_like(gravity)
        before = math.nan  # the tilt reached with half the steps (rad), without halvings
        sag = probe.sample(gravity, zero)["DY_C1"] / (2 * geometry.half_height)
        while True:
            problem.set_prescribed(tilt_supports(body, geometry, preload, gravity))
            problem.set_state(u=gravity, t=0.0)
            halvings = driver.stats.halvings
            with _phase("tilt", steps, driver, units_hint(sag)):
                driver.run((k / steps, static) for k in range(1, steps + 1))
            # a try whose steps were halved can retrace the halved steps of the try before
            # (tilt 0.3 at 6 iterations: 1, 2 and 4 steps all reach the spurious 0.27996
            # rad, to the bit): only tries taken as planned confirm one another
            planned = driver.stats.halvings == halvings
            reached = base_rotation(probe.sample(problem.u.x.array, zero),
                                    2 * geometry.half_width)
            if abs(reached - expected) <= 0.01 * abs(expected):
                break
            # a block that sags under its own weight (units) has no trustworthy equilibrium
            if (planned and -sag <= SAG_WARNING and abs(reached - before)
                    <= REPEAT_TOLERANCE * max(abs(reached), abs(before))):
                below, turn = base_clearance(body, problem.u.x.array)
                large = not body.linear
                warnings.append(tilt_shortfall(Shortfall(
                    reached, expected, steps, remedy_tilt(geometry, preload, large,
                                                          expected - reached),
                    below, remedy_tilt(geometry, preload, large, turn)
                    if below > 0.0 else 0.0, table_contact)))
                short = reached
                break
            if 2 * steps > MAX_TILT_STEPS:
                raise TiltNotReached(reached, expected, steps, sag, before)
            before = reached if planned else math.nan
            steps *= 2
    # a block held otherwise after the release (a pinned corner, springs to the ground)
    # leaves the table unloaded: the table would ring under a load nothing holds
    deflection = load_table(problem) if table_contact else 0.0
    unsettled = settle_on_springs(problem, driver, released)
    return PreloadResult(gravity=gravity, tilted=problem.u.x.array.copy(),
                         newton_iterations=driver.stats.newton_iterations - iterations,
                         tilt_steps=steps if preload.tilt > 0.0 else 0,
                         table_deflection=deflection,
                         warnings=warnings + ([] if unsettled is None else [unsettled]),
                         tilt_reached=short, base_below=below)


def settle_on_springs(problem: StepProblem, driver: StepDriver,
                      released: Released | None = None) -> str | None:
    """Hand the block's weight from the preload's base supports to springs to the ground
    that share it, by a static solve on them: the preload's supports replaced by those of
    the dynamic phase (``released``: the table's and the case's ``[[constraint]]``, a
    constraint without a value held where the block stands; None: the table's alone), the
    springs active in one more static step, as if the preload had been computed on the
    springs (Code_Aster's test B computes it so).

    A contribution takes part by overriding ``settle(problem) -> bool``
    (:meth:`Contribution.settle <rocking_contact.solvers.step.Contribution.settle>`, a
    no-op; the shock springs: :meth:`rocking_contact.contact.penalty.PenaltySprings.settle`),
    called with the supports still in place: it arms itself for the step and says whether
    it did. Where
    one spring alone would carry the block (a tilt on its corner) no term arms and nothing
    is done: the release lowers the block rigidly onto that spring, which is exact there.
    A block preloaded flat stands on all its base nodes; its springs, fewer, carry the
    weight otherwise shared (SDNV105 B: O, O1 and A about M g / 3 each instead of the
    supports' M g / 4 at O1 and M g / 8 at O and A on the coarse mesh), and without this
    step the block released flat rings on them (between 0.66 and 1.19 M g).

    Returns:
        None if the block was settled (the problem ends in that state) or no term armed;
        else the warning that the static step found no equilibrium (the weight beyond the
        springs: the block will tip) and that the block is released from the supports'
        state instead, as if no term had armed.

    """
    preloaded = problem.u.x.array.copy()
    armed = False
    for term in problem.terms.contributions:
        armed |= bool(term.settle(problem))
    if not armed:
        return None
    # held where the hooks left the block (lowered onto the springs): the release holds
    # them where the settle leaves it, which is there
    u = problem.u.x.array
    problem.set_prescribed(list(released(u)) if released is not None
                           else table_supports(problem.body))
    problem.set_state(t=0.0)
    # the loads do not depend on pseudo-time: a halved step would solve the same problem
    halvings, driver.max_halvings = driver.max_halvings, 0
    try:
        driver.advance(1.0, Static())
    except StepFailure as exc:
        problem.set_state(u=preloaded)
        return (f"the preload's static step on the springs found no equilibrium (residual "
                f"{exc.residual:.3e} N, {exc.reason}): the block is released from its "
                "supports' state instead, lowered rigidly onto the spring under the largest "
                "support reaction, not in equilibrium on its springs")
    finally:
        driver.max_halvings = halvings
    return None


def load_table(problem: StepProblem) -> float:
    """Hand the block's weight from the preload's base supports to the table.

    The forces the supports holding the block's base in y carry (the static residual
    ``f_int - f_ext`` at those dofs: N, up positive) press on the table top where the base
    nodes stand (shared linearly between the two table nodes around each); the table, held
    by its own supports, is solved statically under them (the block held), and the block
    is lowered onto the deflected top: rigidly by the deflection under its supported nodes
    (weighted by their forces: exact for the one node O of a tilt), each supported node then
    by its own remainder. At the release the contact finds both bodies in equilibrium with
    the supports' forces. Does nothing without a meshed table.

    Returns:
        The table top's deflection under the supported base nodes, force-weighted (m,
        negative: down); 0 without a table.

    """
    body = problem.body
    if TABLE not in body.block_mesh.regions:
        return 0.0
    u, bs = problem.u.x.array, body.V.dofmap.index_map_bs
    base, top = gather_nodes(body, CONHAUT), gather_nodes(body, CONBAS)  # along the curves
    base_dofs, top_dofs = base.dofs(bs)[1], top.dofs(bs)[1]  # local (x, y), -1: not owned
    held_y = np.zeros_like(u)
    held_y[problem.prescribed_dofs] = 1.0
    g = body.vector()
    body.set_point(u, None)
    body.force(g)
    # the supports' force on the block (N, up) where they hold the base in y
    displacement, held, support = gather_values([u, held_y, g.array_r], base_dofs, body.comm)
    g.destroy()
    held = held[:, 1] > 0.0
    if not held.any():
        return 0.0  # nothing holds the base: nothing to hand over
    force = support[held, 1]
    share = _linear_shares(top.X[:, 0], base.X[held, 0] + displacement[held, 0])
    mine = top_dofs[:, 1] >= 0
    load = body.vector()
    with load.localForm() as local:
        local.set(0.0)
        # the block presses the table down with the supports' forces
        local.array[top_dofs[mine, 1]] = -(force @ share)[mine]
    deflection = _table_statics(body, load)  # local array, zero on the block
    load.destroy()
    under = share @ gather_values([deflection], top_dofs[:, 1], body.comm)[0]  # (m)
    total = float(force.sum())
    lowered = float(force @ under) / total if total else 0.0
    u_new = u + deflection
    u_new[body.block_mesh.dofs(body.V, BLOCK, 1)] += lowered
    # each supported node, owned or ghost (found by its global index), by what the rigid
    # lowering left of its own
    remainder = np.zeros(len(base))
    remainder[held] = under - lowered
    y_dofs = body.block_mesh.dofs(body.V, CONHAUT, 1)
    index_map = body.V.dofmap.index_map
    global_nodes = index_map.local_to_global((y_dofs // bs).astype(np.int32))
    order = np.argsort(base.global_nodes)
    node = order[np.searchsorted(base.global_nodes, global_nodes, sorter=order)]
    u_new[y_dofs] += remainder[node]
    problem.set_state(u=u_new)
    return lowered


def _linear_shares(nodes: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Weights (points x nodes) sharing each point between the two sorted ``nodes`` around
    it, linearly (1 on a node it stands on)."""
    k = np.clip(np.searchsorted(nodes, points) - 1, 0, len(nodes) - 2)
    w = (points - nodes[k]) / (nodes[k + 1] - nodes[k])
    share = np.zeros((len(points), len(nodes)))
    rows = np.arange(len(points))
    share[rows, k] = 1.0 - w
    share[rows, k + 1] += w
    return share


def _table_statics(body: ElasticBody, load: PETSc.Vec) -> np.ndarray:
    """The table's displacement (local array, m) under ``load`` (N) with the block held and
    the table on its own supports: one linear solve with the tangent at the current point."""
    K = body.matrix()
    body.tangent(1.0, 0.0, K)
    K.assemble()
    fixed = np.concatenate([body.block_mesh.dofs(body.V, BLOCK),
                            *[p.dofs for p in table_supports(body)]])
    fixed = np.unique(fixed[fixed < body.n_owned])
    index_map = body.V.dofmap.index_map
    bs = body.V.dofmap.index_map_bs
    rows = index_map.local_to_global((fixed // bs).astype(np.int32)) * bs + fixed % bs
    x = body.vector()
    x.set(0.0)
    K.zeroRowsColumns(rows.astype(PETSc.IntType), 1.0, x, load)
    ksp = PETSc.KSP().create(body.comm)
    ksp.setOperators(K)
    ksp.setType("preonly")
    ksp.getPC().setType("lu")
    ksp.getPC().setFactorSolverType("mumps")
    ksp.solve(load, x)
    x.ghostUpdate(addv=PETSc.InsertMode.INSERT, mode=PETSc.ScatterMode.FORWARD)
    with x.localForm() as local:
        out: np.ndarray = local.array_r.copy()
    for obj in (ksp, K, x):
        obj.destroy()
    return out


@contextmanager
def _phase(name: str, steps: int, driver: StepDriver, note: str = "") -> Iterator[None]:
    """Name the static phase in a step failure: its times are pseudo-times in [0, 1], its
    ``steps`` the phase's planned steps; the failed step is numbered within the phase,
    counting the halved steps it took before (the driver counts every accepted step of the
    preload: "step 4 ... over 1 step(s)" read as a contradiction); ``note`` ends the
    message (:func:`~.preload_messages.units_hint`)."""
    taken = driver.stats.steps
    try:
        yield
    except StepFailure as exc:
        step = exc.step - taken
        halved = (f", {step - 1} halved step(s) accepted before it" if step > 1 else "")
        failure = StepFailure(exc.t, exc.h, exc.residual,
                              f"{exc.reason}; preload {name}, pseudo-time in [0, 1] in {steps} "
                              f"planned step(s){halved}", exc.halvings, step, pseudo=True)
        failure.args = (f"{failure}{note}",)
        raise failure from exc
