"""The step loop's shortcuts give the numbers of the plain evaluations, bit for bit.

- :func:`~rocking_contact.solvers.step.combine` is the sum ``0.0 + f.x x + f.u u + f.v v
  + f.a a`` in that order, its zero terms left out (a first term of -0.0 gives +0.0);
- :meth:`StepProblem.jacobian` at the unknown the residual was just evaluated at reuses
  the end state the residual put in the body's evaluation point, and evaluates it again
  once the point or the unknown changed;
- :meth:`StepProblem.end_values` at the unknown the residual was just evaluated at picks
  ``u1`` and ``v1`` from the body's evaluation point instead of combining them again;
- :meth:`LocalProblem.scaled` takes the mean of W's diagonal as its trace over its size.
"""

import itertools

import numpy as np
import pytest
from fem_checks import block_body, clamped, stepper  # tests/fem, beside this file
from petsc4py import PETSc

from rocking_contact.contact.local import LocalProblem
from rocking_contact.solvers import step
from rocking_contact.solvers.step import combine
from rocking_contact.time import Newmark
from rocking_contact.time.stage import Affine

#: values whose sums show a changed order or sign of zero
SPECIAL = np.array([0.0, -0.0, 1e-300, -1e-300, 1e300, np.inf, -np.inf, np.nan, 1.0, -2.0])


def _reference(f: Affine, x, u, v, a) -> np.ndarray:
    """The sum from zero, term by term, as numpy adds each term to the array."""
    out = np.zeros_like(u)
    for coef, arr in ((f.x, x), (f.u, u), (f.v, v), (f.a, a)):
        if coef != 0.0 and arr is not None:
            out += coef * arr
    return out


def test_combine_is_the_sum_from_zero_to_the_bit():
    rng = np.random.default_rng(7)
    values = (0.0, 1.0, -1.0, 2.5e-3, -4.0e5, 0.5)
    for coefficients in itertools.product(values, repeat=4):
        f = Affine(*coefficients)
        arrays = [np.concatenate([rng.standard_normal(30) * 10.0 ** rng.integers(-12, 6, 30),
                                  rng.permutation(SPECIAL)]) for _ in range(4)]
        for x in (arrays[0], None):
            with np.errstate(invalid="ignore", over="ignore"):
                expected = _reference(f, x, *arrays[1:])
                got = combine(f, x, *arrays[1:], np.full_like(expected, 3.0))
            assert got.tobytes() == expected.tobytes(), coefficients


def test_combine_of_one_negative_zero_term_is_positive_zero():
    out = combine(Affine(1.0, 0.0, 0.0, 0.0), np.array([-0.0]), np.zeros(1), np.zeros(1),
                  np.zeros(1), np.empty(1))
    assert np.signbit(out[0]) == np.signbit(0.0 + -0.0)
    assert not np.signbit(out[0])


@pytest.mark.parametrize("size", [1, 2, 5, 8, 9, 17, 40])
def test_scaled_rho_is_the_diagonal_mean_to_the_bit(size):
    rng = np.random.default_rng(size)
    for _ in range(200):
        W = rng.standard_normal((size, size)) * 10.0 ** rng.integers(-12, 3, (size, size))
        W = W @ W.T
        c = size // 2 or 1
        problem = LocalProblem.scaled(W, np.zeros(size), np.full(c, 0.9), (0.5, 2.0))
        scale = max(float(W.diagonal().mean()), 1e-300)
        expected = np.empty((c, 2))
        expected[:] = np.asarray((0.5, 2.0)) / scale
        assert problem.rho.tobytes() == expected.tobytes()


def _jacobian_values(problem, x) -> np.ndarray:
    problem.jacobian(None, x, problem.J, problem.J)
    return problem.J.getValuesCSR()[2].copy()


def _perturbed_step(prefix: str, seed: int):
    """A large-rotation block's first Newmark step, its unknown ``x`` the predictor
    perturbed: the body, the problem, its driver, ``x`` and a residual vector ``r``."""
    body = block_body("large_rotation", size=0.1)
    problem, driver = stepper(body, clamped(body), prefix=prefix)
    problem.begin(1e-3, Newmark())
    x, r = problem.vector(), problem.vector()
    problem.predictor(x)
    rng = np.random.default_rng(seed)
    with x.localForm() as local:
        local.array[:] += 1e-4 * rng.standard_normal(local.array.size)
    x.ghostUpdate(addv=PETSc.InsertMode.INSERT, mode=PETSc.ScatterMode.FORWARD)
    return body, problem, driver, x, r


def _destroy(problem, driver, *vectors) -> None:
    for obj in vectors:
        obj.destroy()
    driver.solver.destroy()
    driver.destroy()
    problem.destroy()


def test_jacobian_reuses_the_residual_point_and_only_that():
    body, problem, driver, x, r = _perturbed_step("overheads_", 3)
    # the reference: the point set by the Jacobian itself
    body.set_point(None, None)
    fresh = _jacobian_values(problem, x)
    point = body.u.x.array.copy()
    # after the residual at x, the Jacobian finds the same point and the same matrix
    problem.residual(None, x, r)
    version = body.point_version
    assert _jacobian_values(problem, x).tobytes() == fresh.tobytes()
    assert body.point_version == version  # not evaluated again
    # another point in the body (a history row's energies): evaluated again
    body.set_point(None, None)
    assert _jacobian_values(problem, x).tobytes() == fresh.tobytes()
    assert body.u.x.array.tobytes() == point.tobytes()
    # another unknown: evaluated there
    problem.residual(None, x, r)
    x.array[:] *= 2.0
    moved = _jacobian_values(problem, x)
    assert moved.tobytes() != fresh.tobytes()
    body.set_point(None, None)
    assert _jacobian_values(problem, x).tobytes() == moved.tobytes()
    _destroy(problem, driver, x, r)


def test_end_values_take_the_residual_point_to_the_bit(monkeypatch):
    """After the residual at ``x``, :meth:`StepProblem.end_values` picks ``u1`` and ``v1``
    from the body's evaluation point (no combination), the numbers it combines otherwise;
    once the point or ``x`` moved, it combines them again."""
    body, problem, driver, x, r = _perturbed_step("overheads_end_", 5)
    combined = [0]

    def counting(*args):
        combined[0] += 1
        return combine(*args)

    monkeypatch.setattr(step, "combine", counting)

    def pick(arrays):  # a few entries of each array, as a contact's gather takes them
        return np.array([array[[7, 3, 0]] for array in arrays])

    def values():
        return [*problem.end_values(x, pick, velocity=True),
                *problem.end_values(x, velocity=True)]

    body.set_point(None, None)
    fresh = [array.copy() for array in values()]
    assert combined[0] == 4  # no end state in the point: combined
    problem.residual(None, x, r)
    combined[0] = 0
    taken = values()
    assert combined[0] == 0  # picked from the point
    assert [a.tobytes() for a in taken] == [a.tobytes() for a in fresh]
    taken[2][:] = np.nan  # a copy: the point stays
    assert body.u.x.array.tobytes() == fresh[2].tobytes()
    # another unknown: combined there
    x.array[:] *= 2.0
    moved = values()
    assert combined[0] == 4
    assert moved[0].tobytes() != fresh[0].tobytes()
    _destroy(problem, driver, x, r)
