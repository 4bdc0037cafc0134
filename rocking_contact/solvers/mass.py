"""The mass solve with prescribed rows: ``y = M^-1 b``, prescribed dofs getting zero
acceleration (the initial acceleration of :class:`~rocking_contact.solvers.step.StepProblem`
and the contact treatments' releases, :mod:`rocking_contact.contact.release`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from petsc4py import PETSc

from rocking_contact.fem.constraints import merge
from rocking_contact.solvers.newton import solve_columns

if TYPE_CHECKING:
    from rocking_contact.solvers.step import StepProblem


class MassSolver:
    """``y = M^-1 b`` with the problem's prescribed rows (at its time) made identity rows.

    The initial acceleration and the contact treatments' releases (which correct it by the
    forces the contact takes over from the preload's supports) solve with it; prescribed
    dofs get zero acceleration. A context manager: the factorisation is freed on exit.

    Args:
        problem: the step problem (body, supports, time, linear solver).
        prefix: PETSc options prefix of the solve.

    """

    def __init__(self, problem: StepProblem, *, prefix: str):
        body = problem.body
        dofs, _ = merge(problem.prescribed, problem.t)
        #: owned prescribed dofs (local indices)
        self.prescribed = dofs[dofs < body.n_owned]
        self.mass = body.M.copy()
        self.mass.zeroRows(body.global_rows(self.prescribed), diag=1.0)
        self.ksp = PETSc.KSP().create(body.comm)
        self.ksp.setOptionsPrefix(prefix)
        self.ksp.setOperators(self.mass)
        self.ksp.setType("preonly")
        self.ksp.getPC().setType("lu")
        self.ksp.getPC().setFactorSolverType(problem.linear_solver)

    def __enter__(self) -> MassSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.destroy()

    def solve(self, b: PETSc.Vec, y: PETSc.Vec) -> None:
        """``y = M^-1 b``; entries of ``b`` on prescribed rows must be zero."""
        self.ksp.solve(b, y)

    def solve_columns(self, rhs: np.ndarray) -> np.ndarray:
        """``M^-1 B`` for the columns of ``rhs`` (owned rows), as :meth:`solve`."""
        return solve_columns(self.ksp, rhs)

    def accelerate(self, problem: StepProblem, forces: PETSc.Vec) -> None:
        """``a += M^-1 forces`` for the problem's acceleration (N -> m/s^2; ghosts updated).
        ``forces`` loses its entries on prescribed rows."""
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
