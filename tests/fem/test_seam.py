"""The contact seam: a point spring as a Contribution and as a condensed Corrector.

A spring of stiffness k between the corner A and the ground (vertical) is the simplest
"contact law that is always active". Added to the step equation (Contribution), or solved
after the free step with the factorised step matrix (Corrector, the Delassus way), it
must give the same motion; and the first must keep a linear run on one factorisation.
"""

import numpy as np
import pytest
from petsc4py import PETSc

import rocking_contact as rc
from rocking_contact.fem import runner
from rocking_contact.solvers.step import Contribution, Corrector

K_SPRING = 1.0e7  # N/m


def _dof(problem, name="A", component=1):
    dofs = problem.body.block_mesh.dofs(problem.body.V, name, component)
    owned = dofs[dofs < problem.body.n_owned]
    return int(owned[0]) if len(owned) else -1


def _global(problem, local):
    imap, bs = problem.body.V.dofmap.index_map, problem.body.V.dofmap.index_map_bs
    return imap.local_range[0] * bs + local


def _spring_force(problem):
    """History column: the spring force k u_A (N), global."""
    dof = _dof(problem)
    u = problem.u.x.array[dof] if dof >= 0 else 0.0
    return {"FN_A": problem.comm.allreduce(K_SPRING * u)}


class SpringContribution(Contribution):
    """r += H^T k u1_A(x), J += k u1.x H^T H."""

    linear = True

    def begin_step(self, problem):
        self.dof = _dof(problem)

    def add_residual(self, problem, x, r):
        if self.dof >= 0:
            s = problem.stage
            u1 = (s.u.x * x.array_r[self.dof] + s.u.u * problem.u.x.array[self.dof]
                  + s.u.v * problem.v.x.array[self.dof] + s.u.a * problem.a.x.array[self.dof])
            r.array[self.dof] += K_SPRING * u1

    def add_jacobian(self, problem, x, jac):
        if self.dof >= 0:
            row = _global(problem, self.dof)
            jac.setValue(row, row, K_SPRING * problem.stage.u.x, addv=PETSc.InsertMode.ADD)
        jac.assemble()

    def accept(self, problem):
        pass

    def columns(self, problem):
        return _spring_force(problem)


class SpringCorrector(Corrector):
    """x = x_free - J^-1 H^T f with f = k u1_A / (1 + k u1.x W), W = (J^-1 H^T)_A."""

    def begin_step(self, problem):
        self.dof = _dof(problem)

    def correct(self, problem, solver, x):
        s = problem.stage
        e = problem.vector()
        if self.dof >= 0:
            e.array[self.dof] = 1.0
        column = problem.vector()
        solver.solve_linear(e, column)  # J^-1 H^T: the Delassus column
        column.ghostUpdate(addv=PETSc.InsertMode.INSERT, mode=PETSc.ScatterMode.FORWARD)
        local = 0.0
        w = 0.0
        if self.dof >= 0:
            d = self.dof
            local = (s.u.x * x.array_r[d] + s.u.u * problem.u.x.array[d]
                     + s.u.v * problem.v.x.array[d] + s.u.a * problem.a.x.array[d])
            w = column.array_r[d]
        u1_free, w = problem.comm.allreduce(local), problem.comm.allreduce(w)
        f = K_SPRING * u1_free / (1.0 + K_SPRING * s.u.x * w)
        x.axpy(-f, column)
        x.ghostUpdate(addv=PETSc.InsertMode.INSERT, mode=PETSc.ScatterMode.FORWARD)
        return True

    def accept(self, problem):
        pass

    def columns(self, problem):
        return _spring_force(problem)


@pytest.fixture(scope="module")
def case():
    # The block alone, released from rest at 0.5 m/s downwards with O pinned and a spring
    # under A: it swings about O and bounces on the spring.
    return rc.load_case("sdnv105_preload_small_strain", {
        "initial.state": "rest", "initial.velocity": [0.0, -0.5], "mesh.table": False,
        "time.window": [], "time.end": 0.05, "time.step": 1e-3, "output.points": ["O", "A"]})


def test_contribution_and_corrector_give_the_same_motion(case):
    a = runner.simulate(case, runner.build_body(case), contributions=[SpringContribution()])
    b = runner.simulate(case, runner.build_body(case), correctors=[SpringCorrector()])
    free = runner.simulate(case, runner.build_body(case))
    scale = np.max(np.abs(a.history["DY_A"]))
    assert scale > 1e-4
    # Two algebraic routes to the same solution: they agree to round-off amplified by the
    # conditioning of the step matrix (K ~ 6e11 N/m against M / (beta h^2) ~ 1e9 N/m).
    assert np.max(np.abs(a.history["DY_A"] - b.history["DY_A"])) <= 1e-8 * scale
    assert np.max(np.abs(a.history["FN_A"] - b.history["FN_A"])) <= 1e-8 * np.max(
        np.abs(a.history["FN_A"]))
    assert np.max(np.abs(a.history["DY_A"] - free.history["DY_A"])) > 1e-3 * scale
    # linear contribution: one factorisation of the step matrix for the whole run
    assert a.timing["jacobian_builds"] == 1 and a.timing["steps"] == 50


def test_delassus_columns_in_one_solve_equal_one_solve_per_column():
    """``solve_columns`` (KSPMatSolve, what the condensed treatments use) against KSPSolve
    column by column, with the same MUMPS factorisation."""
    from rocking_contact.solvers.newton import solve_columns

    n = 12
    A = PETSc.Mat().createAIJ([n, n], comm=PETSc.COMM_SELF)
    A.setUp()
    for i in range(n):
        A[i, i] = 4.0 + i
        if i:
            A[i, i - 1] = A[i - 1, i] = -1.0
    A.assemble()
    ksp = PETSc.KSP().create(PETSc.COMM_SELF)
    ksp.setOperators(A)
    ksp.setType("preonly")
    ksp.getPC().setType("lu")
    ksp.getPC().setFactorSolverType("mumps")
    rhs = np.random.default_rng(1).standard_normal((n, 3))
    Z = solve_columns(ksp, rhs)
    b, z = A.createVecLeft(), A.createVecRight()
    for j in range(3):
        b.array[:] = rhs[:, j]
        ksp.solve(b, z)
        assert np.array_equal(Z[:, j], z.array)
    assert solve_columns(ksp, np.zeros((n, 0))).shape == (n, 0)
    for obj in (b, z, ksp, A):
        obj.destroy()


class _RaisingProblem:
    """A step problem whose residual raises: a bug, or a numerical breakdown."""

    comm = PETSc.COMM_SELF
    linear = False
    stage = None

    def __init__(self, error):
        self.error = error
        self.J = PETSc.Mat().createAIJ([2, 2], comm=self.comm)
        self.J.setUp()
        self.J.assemble()

    def vector(self):
        return PETSc.Vec().createSeq(2)

    def residual(self, snes, x, r):
        raise self.error

    def jacobian(self, snes, x, jac, p):
        pass


def test_a_bug_in_a_callback_surfaces_and_a_breakdown_fails_the_step():
    from rocking_contact.solvers.newton import NewtonSolver

    with pytest.raises(KeyError, match="typo"):
        NewtonSolver(_RaisingProblem(KeyError("typo")), prefix="bug_").solve(
            PETSc.Vec().createSeq(2))
    report = NewtonSolver(_RaisingProblem(np.linalg.LinAlgError("Singular matrix")),
                          prefix="breakdown_").solve(PETSc.Vec().createSeq(2))
    assert not report.converged and "LinAlgError: Singular matrix" in report.reason
