"""A prefixed PETSc SNES around a :class:`~rocking_contact.solvers.step.StepProblem`.

Modelled on ``dolfinx.fem.petsc.NonlinearProblem``: the solver owns its SNES, takes a
mandatory options prefix, pushes user options under that prefix only and removes them
afterwards (no global side effect). The linear solver is a direct LU factorisation (MUMPS by
default) of the step Jacobian.

A step whose Newton iterations stall above ``rtol`` fails, and the step driver halves it.
Halving does not help when the residual stalls at round-off (large rotations of a stiff
body: the residual's noise grows with the displacement). After the last halving the driver
arms :meth:`NewtonSolver.accept_stagnation`: the retried solve is accepted when its residual
has come below ``stagnation_rtol`` of its first value, and the step is reported as a
fallback.

A linear problem (small strain, no nonlinear contribution) uses SNES type ``ksponly``: one
solve per step, exact for an affine residual; the step problem leaves the Jacobian untouched
while the step size is unchanged, so PETSc keeps the factorisation (PCSetUp does nothing
for an operator whose state has not changed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from mpi4py import MPI
from petsc4py import PETSc

from rocking_contact.time.stage import Stage


@dataclass
class NewtonReport:
    """Outcome of one solve.

    Attributes:
        converged: the step can be accepted.
        iterations: Newton iterations (1 for a linear solve).
        residual: final residual norm (N), NaN if not computed.
        reason: PETSc's converged reason, or a message.
        stalled: the residual relative to the first one, when the solve was accepted only
            because its iterations stalled there (:meth:`NewtonSolver.accept_stagnation`).

    """

    converged: bool
    iterations: int
    residual: float
    reason: str
    stalled: float | None = None


@dataclass(kw_only=True)
class NewtonOptions:
    """Convergence of the Newton iterations.

    Attributes:
        rtol: residual reduction relative to the step's first residual.
        atol: absolute residual (N).
        stol: Newton update relative to the unknown (PETSc's test, 2-norms); for a velocity
            unknown (the theta-method) the update's change of the end displacement relative
            to that displacement instead (max norms, :meth:`StepProblem.settled
            <rocking_contact.solvers.step.StepProblem.settled>`).
        max_iterations: iterations before the step is declared failed.
        stagnation_rtol: residual reduction the fallback accepts from iterations that
            stalled (Code_Aster's default ``RESI_GLOB_RELA``).
        linear_solver: PETSc factorisation package (``mumps``, ``superlu_dist``, ``petsc``).

    """

    rtol: float = 1e-10
    atol: float = 1e-10
    stol: float = 1e-12
    max_iterations: int = 25
    stagnation_rtol: float = 1e-6
    linear_solver: str = "mumps"


#: exceptions of a residual or Jacobian callback that fail the step instead of the run
NUMERICAL_FAILURES = (ArithmeticError, np.linalg.LinAlgError)

_REASONS = {v: k for k, v in vars(PETSc.SNES.ConvergedReason).items() if not k.startswith("_")}


class Solvable(Protocol):
    """What :class:`NewtonSolver` needs of its problem
    (:class:`~rocking_contact.solvers.step.StepProblem` is one).

    ``stage`` (:class:`~rocking_contact.time.stage.Stage`) is the step's, whose unknown
    picks the update test; None before a step problem's first step, and for a plain
    nonlinear system (``tests/fem/test_newton_stagnation.py``), which takes PETSc's
    default test.
    """

    @property
    def stage(self) -> Stage | None:
        """The stage of the step under way, or None."""

    @property
    def comm(self) -> MPI.Comm:
        """Communicator of the unknown."""

    @property
    def linear(self) -> bool:
        """The residual is affine in the unknown: one solve (``ksponly``)."""

    @property
    def J(self) -> PETSc.Mat:
        """The Jacobian matrix the callback fills."""

    def vector(self) -> PETSc.Vec:
        """A vector of the unknown's layout."""

    def residual(self, snes: Any, x: PETSc.Vec, r: PETSc.Vec) -> None:
        """SNES function callback: ``r = R(x)`` (N)."""

    def jacobian(self, snes: Any, x: PETSc.Vec, jac: PETSc.Mat, p: PETSc.Mat) -> None:
        """SNES Jacobian callback."""

    def settled(self, x: PETSc.Vec, change: float, tolerance: float) -> bool:
        """Newton has stalled at round-off: the update test of a velocity unknown, asked
        only of a problem whose ``stage`` has one. ``change``: the last correction's max
        norm in the unknown's unit (m/s); ``tolerance``: relative to the end displacement
        it moves (:meth:`~rocking_contact.solvers.step.StepProblem.settled`)."""


class NewtonSolver:
    """SNES for the step equation of ``problem``.

    Args:
        problem: the equation (:class:`Solvable`): ``comm``, ``linear``, ``J`` (matrix),
            ``vector()``, ``residual`` and ``jacobian`` with the SNES callback signatures,
            ``settled``; a step problem's ``stage``.
        prefix: PETSc options prefix, e.g. ``"block_"`` (mandatory, ends with ``_``).
        options: tolerances and linear solver.

    """

    def __init__(self, problem: Solvable, *, prefix: str, options: NewtonOptions | None = None):
        if not prefix:
            raise ValueError("prefix: empty; give a PETSc options prefix such as 'block_'")
        opts = options or NewtonOptions()
        self.problem = problem
        self.prefix = prefix
        self.snes = PETSc.SNES().create(problem.comm)
        self.snes.setOptionsPrefix(prefix)
        self.F = problem.vector()
        self.F.setOptionsPrefix(f"{prefix}F_")
        problem.J.setOptionsPrefix(f"{prefix}J_")
        self.snes.setFunction(problem.residual, self.F)
        self.snes.setJacobian(problem.jacobian, problem.J)
        self.snes.setType("ksponly" if problem.linear else "newtonls")
        self.snes.getLineSearch().setType("basic")
        self.snes.setTolerances(rtol=opts.rtol, atol=opts.atol, stol=opts.stol,
                                max_it=opts.max_iterations)
        self.options = opts
        self._f0 = math.nan  # first residual of the solve under way (N)
        # state of the last converged solution whose residual the SNES left in F (or None)
        self._solution_state: int | None = None
        self._test_on_velocity = False
        self.snes.setConvergenceHistory(length=opts.max_iterations + 1, reset=True)
        self.stagnation_rtol = opts.stagnation_rtol
        self._accept_stagnation = False
        self._dense: dict[int, tuple[PETSc.Mat, PETSc.Mat]] = {}  # solve_columns' B and X
        self._x: PETSc.Vec | None = None  # the unknown of the last solve
        ksp = self.snes.getKSP()
        ksp.setType("preonly")
        ksp.getPC().setType("lu")
        ksp.getPC().setFactorSolverType(opts.linear_solver)
        self.snes.setFromOptions()

    def solve(self, x: PETSc.Vec) -> NewtonReport:
        """Solve ``R(x) = 0`` from the initial guess in ``x`` (ghosts updated on return)."""
        stage = self.problem.stage
        on_velocity = stage is not None and stage.unknown == "velocity"
        if on_velocity != self._test_on_velocity:
            self.snes.setConvergenceTest(self._velocity_test if on_velocity else "default")
            self._test_on_velocity = on_velocity
        self._x = x
        try:
            self.snes.solve(None, x)
        except PETSc.Error as exc:
            # petsc4py hands an exception raised in a callback back as error 101 with the
            # original as its cause. A numerical breakdown there (a singular local system
            # at a wild iterate) fails the step, which the driver retries smaller; anything
            # else is a bug or Ctrl-C and must surface with its own traceback.
            cause = exc.__cause__
            if cause is not None and not isinstance(cause, NUMERICAL_FAILURES):
                raise cause from None
            detail = f": {type(cause).__name__}: {cause}" if cause is not None else ""
            return NewtonReport(False, self.snes.getIterationNumber(), math.nan,
                                f"PETSc error {exc.ierr}{detail}")
        x.ghostUpdate(addv=PETSc.InsertMode.INSERT, mode=PETSc.ScatterMode.FORWARD)
        reason = self.snes.getConvergedReason()
        # Newton's convergence test evaluates R at the solution; ksponly's one solve does not.
        self._solution_state = (x.stateGet() if reason > 0 and self.snes.getType() != "ksponly"
                                else None)
        iterations = max(self.snes.getIterationNumber(), 1)
        norm = self.snes.getFunctionNorm() if not self.problem.linear else math.nan
        if reason == PETSc.SNES.ConvergedReason.DIVERGED_FUNCTION_NANORINF:
            norm = math.nan  # PETSc leaves the norm it could not compute at 0
        finite = math.isfinite(x.norm())
        text = _REASONS.get(reason, str(reason)) if finite else "not finite"
        armed, self._accept_stagnation = self._accept_stagnation, False
        if reason > 0 or not finite or not armed:
            return NewtonReport(reason > 0 and finite, iterations, norm, text)
        stalled = self._stalled_at(norm)
        return NewtonReport(stalled is not None, iterations, norm, text, stalled)

    def _velocity_test(self, snes: PETSc.SNES, it: int,
                       norms: tuple[float, float, float]) -> int:
        """PETSc's default test for an unknown that is a velocity, its update test taken on
        the end displacement (:meth:`StepProblem.settled`): the default compares the update
        with the velocity, which is zero for a block at rest, so Newton stalling at the
        round-off of the large-rotation forces (1e-5 N) would never converge there (sdnv105d
        without gravity would fail at its sixth step)."""
        reasons = PETSc.SNES.ConvergedReason
        _, _, fnorm = norms
        opts = self.options
        if it == 0:
            self._f0 = fnorm
        if not math.isfinite(fnorm):
            return int(reasons.DIVERGED_FUNCTION_NANORINF)
        if fnorm < opts.atol:
            return int(reasons.CONVERGED_FNORM_ABS)
        if it and fnorm <= self._f0 * opts.rtol:
            return int(reasons.CONVERGED_FNORM_RELATIVE)
        divtol = snes.getDivergenceTolerance()
        if it and divtol > 0 and fnorm > divtol * self._f0:
            return int(reasons.DIVERGED_DTOL)  # as PETSc's: far above the first residual
        if it:
            change = snes.getSolutionUpdate().norm(PETSc.NormType.NORM_INFINITY)
            if self.problem.settled(snes.getSolution(), change, opts.stol):
                return int(reasons.CONVERGED_SNORM_RELATIVE)
        return int(reasons.ITERATING)

    def accept_stagnation(self) -> None:
        """Arm the next solve to accept iterations that stalled below ``stagnation_rtol``
        of the first residual (the step driver's last resort, after every halving)."""
        self._accept_stagnation = True

    def _stalled_at(self, norm: float) -> float | None:
        """``norm`` relative to the solve's first residual, if below ``stagnation_rtol``."""
        history, _ = self.snes.getConvergenceHistory()
        if not len(history) or not history[0] > 0.0 or not math.isfinite(norm):
            return None
        ratio = norm / history[0]
        return ratio if ratio <= self.stagnation_rtol else None

    def residual_at_solution(self, x: PETSc.Vec, r: PETSc.Vec) -> bool:
        """Copy ``R(x)`` into ``r`` (owned entries) if ``x`` is, unchanged, the solution of the
        last converged Newton solve, whose residual the SNES evaluated there; False if not
        (nothing copied).

        The condensed contact's first iteration needs that residual: copying it saves one
        assembly of the forces per step, with the same numbers.
        """
        if self._solution_state is None or x.stateGet() != self._solution_state:
            return False
        self.F.copy(r)
        return True

    def solve_linear(self, b: PETSc.Vec, y: PETSc.Vec) -> None:
        """``y = J^-1 b`` with the current factorisation of the step Jacobian.

        For condensed contact problems (a Delassus operator ``H J^-1 H^T``): valid after a
        solve of the current step, while the step size is unchanged.
        """
        self._factorised()
        self.snes.getKSP().solve(b, y)

    def solve_columns(self, rhs: np.ndarray) -> np.ndarray:
        """``J^-1 B`` for the columns of ``rhs`` (owned rows), as :meth:`solve_linear`."""
        self._factorised()
        return solve_columns(self.snes.getKSP(), rhs, self._dense)

    def _factorised(self) -> None:
        """Factorise the Jacobian at the last solution if that solve took no iteration: a
        residual under ``atol`` at the initial guess (a block at rest with no load) ends
        the SNES before any Jacobian, and MUMPS would then be asked to solve with no
        factorisation (``INFOG(1)=-3``, a traceback) at the first step."""
        if self._x is None or self.snes.getIterationNumber() > 0:
            return
        self.snes.computeJacobian(self._x, self.problem.J)
        ksp = self.snes.getKSP()
        ksp.setOperators(self.problem.J)
        ksp.setUp()

    def destroy(self) -> None:
        """Free the PETSc objects owned here."""
        self.snes.destroy()
        self.F.destroy()
        for mats in self._dense.values():
            for mat in mats:
                mat.destroy()
        self._dense.clear()


def solve_columns(ksp: PETSc.KSP, rhs: np.ndarray,
                  dense: dict[int, tuple[PETSc.Mat, PETSc.Mat]] | None = None) -> np.ndarray:
    """``A^-1 B`` with the factorisation held by ``ksp``, for all columns of ``B`` at once.

    One multi-right-hand-side solve (``KSPMatSolve``: MUMPS solves the columns together)
    instead of one solve per column, which is what a Delassus operator needs.

    Args:
        ksp: a set-up direct solver of ``A``.
        rhs: ``B`` on this rank's owned rows, shape (owned rows, columns).
        dense: the dense matrices ``B`` and ``X`` of earlier calls by column count, reused
            and completed here (the caller destroys them); None: made and destroyed here.

    Returns:
        ``A^-1 B`` on the owned rows (a new array).

    """
    m = rhs.shape[1]
    if m == 0:
        return np.zeros_like(rhs)
    if dense is not None and m in dense:
        B, X = dense[m]
    else:
        A, _ = ksp.getOperators()
        rows, _ = A.getSizes()
        B = PETSc.Mat().createDense((rows, (PETSc.DECIDE, m)), comm=A.getComm())
        B.setUp()
        X = B.duplicate()
        if dense is not None:
            dense[m] = (B, X)
    B.getDenseArray()[:] = rhs
    B.assemble()
    ksp.matSolve(B, X)
    out: np.ndarray = X.getDenseArray().copy()
    if dense is None:
        B.destroy()
        X.destroy()
    return out
