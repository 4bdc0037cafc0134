"""The release: the contact takes over from the supports of the static preload.

The preload (:mod:`rocking_contact.fem.preload`) holds the block's base by supports; at the
release they are removed and the contact carries the block. The step problem computes the
initial acceleration from ``M a0 = -g(u0, v0)`` without any contact force, i.e. with the
base falling freely. Each treatment corrects it with its own forces at the released state,
``a0 += M^-1 F_contact``, solving with the mass matrix whose prescribed rows are identity
rows (the supports that stay, the table's, have zero acceleration):

- condensed treatments (Lagrange, continuous): the forces of the closed contacts solve the
  Signorini-Coulomb problem at the acceleration level (normal acceleration >= 0, tangential
  acceleration zero while sticking) on ``W = H M^-1 H^T``;
- shock springs: the springs are first compressed by the force the supports carried (the
  block is lowered by ``R / kn`` of the most loaded spring, a rigid translation that
  leaves the stresses as they are), as if the preload had been computed on the springs,
  which is what Code_Aster's test B does.
"""

from __future__ import annotations

from petsc4py import PETSc

from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.constraints import merge
from rocking_contact.solvers.step import StepProblem

#: PETSc options prefix of the mass solve
PREFIX = "contact_release_"


class MassSolver:
    """``y = M^-1 b`` with the prescribed rows of the problem at its time made identity rows.

    Args:
        problem: the step problem (supports and time).
        body: its bodies (mass matrix).

    """

    def __init__(self, problem: StepProblem, body: ElasticBody):
        dofs, _ = merge(problem.prescribed, problem.t)
        owned = dofs[dofs < body.n_owned]
        imap = body.V.dofmap.index_map
        start = imap.local_range[0] * body.V.dofmap.index_map_bs
        self.prescribed = owned
        self.mass = body.M.copy()
        self.mass.zeroRows((owned + start).astype(PETSc.IntType), diag=1.0)
        self.ksp = PETSc.KSP().create(body.comm)
        self.ksp.setOptionsPrefix(PREFIX)
        self.ksp.setOperators(self.mass)
        self.ksp.setType("preonly")
        self.ksp.getPC().setType("lu")
        self.ksp.getPC().setFactorSolverType("mumps")

    def solve(self, b: PETSc.Vec, y: PETSc.Vec) -> None:
        """``y = M^-1 b``; entries of ``b`` on prescribed rows must be zero."""
        self.ksp.solve(b, y)

    def correct(self, problem: StepProblem, forces: PETSc.Vec) -> None:
        """``a += M^-1 forces`` for the problem's acceleration (ghosts updated)."""
        forces.array[self.prescribed] = 0.0
        y = forces.duplicate()
        self.solve(forces, y)
        problem.a.x.petsc_vec.axpy(1.0, y)
        problem.a.x.scatter_forward()
        y.destroy()

    def destroy(self) -> None:
        """Free the matrix and the solver."""
        self.ksp.destroy()
        self.mass.destroy()
