"""The release: the contact takes over from the supports of the static preload.

The preload (:mod:`rocking_contact.fem.preload`) holds the block's base by supports; at the
release they are removed and the contact carries the block. The step problem computes the
initial acceleration from ``M a0 = -g(u0, v0)`` without any contact force, i.e. with the
base falling freely. Each treatment corrects it with its own forces at the released state,
``a0 += M^-1 F_contact``, solving with the mass matrix whose prescribed rows are identity
rows (the supports that stay, the table's, have zero acceleration; the same
:class:`~rocking_contact.solvers.mass.MassSolver` as the initial acceleration):

- condensed treatments (Lagrange, continuous): the forces of the closed contacts solve the
  Signorini-Coulomb problem at the acceleration level (normal acceleration >= 0, tangential
  acceleration zero while sticking) on ``W = H M^-1 H^T``;
- shock springs: where one spring carries the block (a tilted block on its corner), it is
  first compressed by the force the support carried (the block is lowered by ``R / kn``,
  a rigid translation that leaves the stresses as they are), as if the preload had been
  computed on the springs, which is what Code_Aster's test B does; only if that spring is
  closed where the preload left the block (a spring with a clearance, ``gap > 0``, lets
  the block fall it). Where several carry it (a block preloaded flat), the preload has
  settled it on them by a static step instead
  (:func:`rocking_contact.fem.preload.settle_on_springs`): a rigid lowering cannot share
  the weight as the springs do.

A table that already accelerates at the release (a shaking table whose record is not zero at
``time.start``) puts its drag ``-M u_table`` on both bodies at once. The mass solve gives
every free node, the table's included, the frame's ``-u_table``; and the block's base nodes,
whose share of the mass is small, stick at the acceleration level on any table (51 N of
friction on the free table top, 179 N on a table held rigid, where the sliding block of
SDNV105 at mu = 0.2 needs mu M g = 819 N). That is the continuum's response for the
nanoseconds a wave takes to cross the stiff bodies, but the average-acceleration step carries
``a0`` on through ``v1 = v0 + h/2 (a0 + a1)``: the block's velocity kept an error of
``h mu g / 2`` for good (+0.89 % at 0.05 s with 0.5 ms steps). The condensed treatments
therefore release without the drag and then add it at the scale of the first step
(:class:`StepMobility`, :meth:`CondensedContact.start_shaking
<rocking_contact.contact.condensed.CondensedContact.start_shaking>`): the stiff modes (the
table, the block's elastic modes) take it quasi-statically and the block's rigid motion
decides whether the base slides. A release with the table still (the shipped cases) is
unchanged.
"""

from __future__ import annotations

from petsc4py import PETSc

from rocking_contact.solvers.mass import MassSolver
from rocking_contact.solvers.step import StepProblem
from rocking_contact.time.stage import Stage

#: PETSc options prefix of the mass solve
PREFIX = "contact_release_"
#: PETSc options prefix of the step's solve of the table's drag
STEP_PREFIX = "contact_release_step_"


def mass_solver(problem: StepProblem) -> MassSolver:
    """The mass solve of a release, at the problem's supports and time (a context manager)."""
    return MassSolver(problem, prefix=PREFIX)


class StepMobility(MassSolver):
    """``y = (M + (c_u K + c_v C) / c_a)^-1 b`` (m/s^2 for N): the acceleration a step of
    ``stage`` gives to a force ``b`` added to its equation.

    ``c_a``, ``c_u``, ``c_v`` are the stage's factors of M, dg/du and dg/dv in its
    Jacobian ``J``, so ``y = c_a J^-1 b``: the modes with ``omega h >> 1`` answer
    quasi-statically, the slow ones (the rigid motions) by their mass; for ``h -> 0`` it is
    ``M^-1 b``. The tangents are taken at the problem's state; prescribed rows are identity
    rows as in :class:`MassSolver` (zero acceleration). A context manager.

    Args:
        problem: the step problem (body, state, supports, time, linear solver).
        stage: the step (a dynamic one: ``c_a > 0``).

    """

    def __init__(self, problem: StepProblem, stage: Stage):
        super().__init__(problem, prefix=STEP_PREFIX)
        body = problem.body
        c = stage.mass_coefficient
        matrix = body.matrix()
        body.set_point(problem.u.x.array, problem.v.x.array)
        body.tangent(stage.stiffness_coefficient / c, stage.damping_coefficient / c, matrix)
        matrix.axpy(1.0, body.M, PETSc.Mat.Structure.SAME_NONZERO_PATTERN)
        matrix.zeroRows(body.global_rows(self.prescribed), diag=1.0)
        self.ksp.setOperators(matrix)
        self.mass.destroy()
        self.mass = matrix


def table_drag(problem: StepProblem) -> PETSc.Vec | None:
    """The drag ``-M u_table(t)`` of a shaking table at the problem's time (N, owned
    entries; a vector the caller destroys), None while the table is still."""
    ux, uy = problem.body.table_acceleration(problem.t)
    if not (ux or uy):
        return None
    field, drag = problem.vector(), problem.vector()
    field.array[0::2] = -ux
    field.array[1::2] = -uy
    problem.body.M.mult(field, drag)
    field.destroy()
    return drag
