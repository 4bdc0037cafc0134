"""The step solver's last resort: Newton iterations that stall at a noise floor are
accepted only when the driver armed it, and only below ``stagnation_rtol``."""

import numpy as np
from mpi4py import MPI
from petsc4py import PETSc

import rocking_contact as rc
from rocking_contact.fem.runner import newton_options
from rocking_contact.solvers.newton import NewtonOptions, NewtonSolver


class _NoisyLine:
    """R(x) = x - 1 plus a reproducible noise of size ``floor`` (N): Newton reaches the
    floor in one iteration and stalls there, as round-off makes it stall."""

    linear = False
    stage = None  # no time step: PETSc's default update test

    def __init__(self, floor: float, n: int = 4):
        self.comm = MPI.COMM_SELF
        self.floor, self.n = floor, n
        self.J = PETSc.Mat().createAIJ((n, n), nnz=1, comm=self.comm)
        for i in range(n):
            self.J.setValue(i, i, 1.0)
        self.J.assemble()
        self._rng = np.random.default_rng(0)

    def vector(self):
        return PETSc.Vec().createSeq(self.n, comm=self.comm)

    def residual(self, _snes, x, r):
        r.array[:] = x.array_r - 1.0 + self.floor * self._rng.uniform(-1, 1, self.n)

    def jacobian(self, _snes, x, jac, _p):
        pass


def _solve(floor, armed, stagnation_rtol=1e-6):
    problem = _NoisyLine(floor)
    options = NewtonOptions(rtol=1e-12, atol=1e-30, stol=0.0, max_iterations=8,
                            stagnation_rtol=stagnation_rtol, linear_solver="petsc")
    solver = NewtonSolver(problem, prefix="stall_test_", options=options)
    x = problem.vector()
    x.set(1e3)  # first residual ~2e3
    if armed:
        solver.accept_stagnation()
    report = solver.solve(x)
    solver.destroy()
    return report


def test_a_stall_fails_unless_armed():
    report = _solve(1e-5, armed=False)
    assert not report.converged and report.stalled is None
    assert report.reason == "DIVERGED_MAX_IT"


def test_an_armed_solve_accepts_a_stall_below_the_bound_and_says_where():
    report = _solve(1e-5, armed=True)
    assert report.converged and report.reason == "DIVERGED_MAX_IT"
    assert 1e-10 < report.stalled < 1e-6  # ~1e-5 N of a ~2e3 N first residual


def test_an_armed_solve_refuses_a_stall_above_the_bound():
    report = _solve(1.0, armed=True)  # stalls at ~5e-4 of the first residual
    assert not report.converged and report.stalled is None


def test_the_arming_lasts_one_solve():
    problem = _NoisyLine(1e-5)
    options = NewtonOptions(rtol=1e-12, atol=1e-30, stol=0.0, max_iterations=8,
                            linear_solver="petsc")
    solver = NewtonSolver(problem, prefix="stall_once_", options=options)
    solver.accept_stagnation()
    reports = []
    for _ in range(2):
        x = problem.vector()
        x.set(1e3)
        reports.append(solver.solve(x))
    solver.destroy()
    assert [r.converged for r in reports] == [True, False]


def test_the_case_file_sets_the_bound():
    assert newton_options(rc.load_case("sdnv105d")).stagnation_rtol == 1e-6
    case = rc.load_case("sdnv105d", {"solver.stagnation_rtol": 0.0})  # 0: never accept
    assert newton_options(case).stagnation_rtol == 0.0
