"""The condensed Signorini-Coulomb problem: active set and generalised Newton solvers."""

import numpy as np
import pytest

from rocking_contact.contact.local import (
    LocalProblem,
    Status,
    complementarity,
    newton_step,
    residual,
    solve_active_set,
)


def _check_laws(problem, lam, tol=1e-9):
    """Signorini and Coulomb hold at ``lam`` (forces in N, gaps in m)."""
    q = problem.q_free + problem.W @ lam
    scale = max(1.0, np.max(np.abs(lam)))
    gap_scale = max(1e-300, np.max(np.abs(problem.q_free)))
    for i, mu in enumerate(problem.mu):
        ln, lt, gn, gt = lam[2 * i], lam[2 * i + 1], q[2 * i], q[2 * i + 1]
        assert ln >= -tol * scale and gn >= -tol * gap_scale
        assert min(abs(ln) / scale, abs(gn) / gap_scale) <= tol
        assert abs(lt) <= mu * ln + tol * scale
        if ln <= tol * scale:  # open: no force at all
            assert abs(lt) <= tol * scale
        elif abs(lt) < mu * ln * (1 - 1e-6):  # inside the cone: stick
            assert abs(gt) <= tol * gap_scale
        elif abs(gt) > tol * gap_scale:  # sliding: the force opposes the slip
            assert lt * gt < 0


def test_one_contact_frictionless_closes_and_opens():
    W = np.diag([2e-9, 1e-9])
    closing = LocalProblem.scaled(W, np.array([-4e-6, 0.0]), np.array([0.0]))
    sol = solve_active_set(closing, tol=1e-9)
    assert sol.converged and sol.status[0] == Status.STICK
    assert sol.lam[0] == pytest.approx(2000.0, rel=1e-12)  # closes the gap exactly
    opening = LocalProblem.scaled(W, np.array([+4e-6, 0.0]), np.array([0.0]))
    sol = solve_active_set(opening, tol=1e-9)
    assert sol.converged and sol.status[0] == Status.OPEN and not np.any(sol.lam)


def test_one_contact_sticks_or_slides_with_coulomb():
    W = np.array([[1e-9, 0.0], [0.0, 1e-9]])
    # Stick: the tangential force needed (1000 N) is below mu * 4000 N.
    stick = LocalProblem.scaled(W, np.array([-4e-6, 1e-6]), np.array([0.9]))
    sol = solve_active_set(stick, tol=1e-9)
    assert sol.status[0] == Status.STICK
    assert sol.lam == pytest.approx([4000.0, -1000.0], rel=1e-12)
    # Slide: 5000 N would be needed; the force saturates at mu * 4000 N against the slip.
    slide = LocalProblem.scaled(W, np.array([-4e-6, 5e-6]), np.array([0.9]))
    sol = solve_active_set(slide, tol=1e-9)
    assert sol.status[0] == Status.SLIP
    assert sol.lam == pytest.approx([4000.0, -3600.0], rel=1e-12)
    _check_laws(slide, sol.lam)


@pytest.mark.parametrize("seed", range(20))
def test_random_coupled_problems_satisfy_both_laws(seed):
    rng = np.random.default_rng(seed)
    c = int(rng.integers(1, 6))
    A = rng.normal(size=(2 * c, 2 * c))
    W = 1e-9 * (A @ A.T + 2 * c * np.eye(2 * c))  # SPD, well conditioned
    q_free = 1e-6 * rng.normal(size=2 * c)
    problem = LocalProblem.scaled(W, q_free, rng.uniform(0.0, 0.5, size=c))
    sol = solve_active_set(problem, tol=1e-9, max_iterations=100)
    assert sol.converged, sol
    _check_laws(problem, sol.lam)


def test_phi_vanishes_exactly_at_the_solution_and_not_elsewhere():
    W = np.diag([1e-9, 1e-9])
    problem = LocalProblem.scaled(W, np.array([-4e-6, 1e-6]), np.array([0.9]))
    sol = solve_active_set(problem, tol=1e-9)
    assert residual(problem, sol.lam)[0] <= 1e-9
    assert residual(problem, sol.lam * 1.01)[0] > 1.0
    phi, d_lam, d_q, status = complementarity(sol.lam, problem.q_free + W @ sol.lam,
                                              problem.mu, problem.rho)
    assert d_lam.shape == d_q.shape == (2, 2) and status[0] == Status.STICK


def test_generalised_newton_step_is_exact_once_the_sets_are_right():
    """One Newton step from a guess on the right sets lands on the solution (the
    continuous treatment takes one such step per iteration of the coupled problem)."""
    W = np.array([[2e-9, 3e-10], [3e-10, 1e-9]])
    for q_free in ([-4e-6, 5e-7], [-4e-6, 9e-6]):  # a sticking, then a sliding contact
        problem = LocalProblem.scaled(W, np.array(q_free), np.array([0.9]))
        exact = solve_active_set(problem, tol=1e-9)
        guess = 0.99 * exact.lam
        assert np.array_equal(residual(problem, guess)[1], exact.status)
        lam, _ = newton_step(problem, guess)
        assert lam == pytest.approx(exact.lam, rel=1e-12)


@pytest.mark.parametrize("mu", [0.0, 0.3])
def test_a_contact_no_force_moves_leaves_the_others_solved(mu):
    """A closed contact held on both sides (its normal row and column of W zero: both
    of its dofs prescribed) makes the Newton Jacobian singular; the step is then the
    least-squares one (was numpy's LinAlgError) and the other contact still obeys its laws."""
    W = np.array([[0.0, 0.0, 0.0, 0.0],
                  [0.0, 2e-6, 0.0, 1e-7],
                  [0.0, 0.0, 1e-6, 1e-7],
                  [0.0, 1e-7, 1e-7, 2e-6]])
    problem = LocalProblem.scaled(W, np.array([0.0, 1e-7, -1e-5, 0.0]), np.full(2, mu))
    sol = solve_active_set(problem, np.array([100.0, 0.0, 0.0, 0.0]), tol=1e-8)
    assert sol.converged and residual(problem, sol.lam)[0] <= 1e-8
    held = LocalProblem(W[2:, 2:], problem.q_free[2:] + W[2:, :2] @ sol.lam[:2],
                        problem.mu[1:], problem.rho[1:])
    _check_laws(held, sol.lam[2:])
    assert sol.lam[2] > 0.0  # it closes its 1e-5 m penetration
