"""The Alart-Curnier function evaluated one contact at a time in Python floats gives bit for bit
what the array formulas give.

The SDNV105 A and C runs amplify any round-off at their impacts, so the faster
``local.complementarity`` (Python scalars: a few contacts, where numpy's cost per call exceeds
the arithmetic) must keep every bit: it is checked here against the array evaluation of the
same formulas, on random forces and gaps and on special values (signed zeros, infinities,
NaN: only a NaN's sign may differ, which no comparison and no output sees).
"""

import numpy as np
import pytest

from rocking_contact.contact.local import LocalProblem, Status, complementarity, newton_step


def _array_formulas(lam, q, mu, rho):
    """``Phi``, its derivatives and the status, with numpy's array operations."""
    c = len(mu)
    lam2, q2 = lam.reshape(c, 2), q.reshape(c, 2)
    rho_n, rho_t = rho[:, 0], rho[:, 1]
    tau_n = lam2[:, 0] - rho_n * q2[:, 0]
    tau_t = lam2[:, 1] - rho_t * q2[:, 1]
    closed = tau_n > 0.0
    bound = mu * np.maximum(tau_n, 0.0)
    stick = closed & (np.abs(tau_t) <= bound)
    slip = closed & ~stick
    sign = np.sign(tau_t)
    phi = np.empty((c, 2))
    phi[:, 0] = np.where(closed, rho_n * q2[:, 0], lam2[:, 0])
    phi[:, 1] = np.where(stick, rho_t * q2[:, 1],
                         np.where(slip, lam2[:, 1] - bound * sign, lam2[:, 1]))
    n, t = 2 * np.arange(c), 2 * np.arange(c) + 1
    d_lam, d_q = np.zeros((2 * c, 2 * c)), np.zeros((2 * c, 2 * c))
    d_lam[n, n] = np.where(closed, 0.0, 1.0)
    d_q[n, n] = np.where(closed, rho_n, 0.0)
    d_lam[t, t] = np.where(stick, 0.0, 1.0)
    d_q[t, t] = np.where(stick, rho_t, 0.0)
    d_lam[t, n] = np.where(slip, -mu * sign, 0.0)
    d_q[t, n] = np.where(slip, mu * sign * rho_n, 0.0)
    status = np.where(closed, np.where(stick, Status.STICK, Status.SLIP), Status.OPEN)
    return phi.ravel(), d_lam, d_q, status.astype(np.int64)


def _same_bits(a, b):
    """Equal bits, NaNs equal whatever their sign and payload."""
    assert a.shape == b.shape and a.dtype == b.dtype
    if a.dtype.kind != "f":
        return np.array_equal(a, b)
    return bool(np.all((a.view(np.uint64) == b.view(np.uint64)) | (np.isnan(a) & np.isnan(b))))


@pytest.mark.parametrize("special", [False, True])
def test_complementarity_is_the_array_evaluation_to_the_bit(special):
    rng = np.random.default_rng(11)
    values = np.array([0.0, -0.0, 1.0, -1.0, 1e-300, np.inf, -np.inf, np.nan, 1e3, 2.5e-7])
    statuses = set()
    for _ in range(3000):
        c = int(rng.integers(1, 7))
        if special:
            lam, q = rng.choice(values, 2 * c), rng.choice(values, 2 * c)
            mu = rng.choice(np.array([0.0, 0.9, np.inf, np.nan]), c)
            rho = rng.choice(np.array([0.0, 1.0, 1e9, np.inf]), (c, 2))
        else:
            lam, q = 1e3 * rng.standard_normal(2 * c), 1e-6 * rng.standard_normal(2 * c)
            mu, rho = rng.uniform(0.0, 1.2, c), 10.0 ** rng.uniform(8, 10, (c, 2))
        with np.errstate(all="ignore"):
            expected = _array_formulas(lam, q, mu, rho)
            got = complementarity(lam, q, mu, rho)
        for e, g in zip(expected, got, strict=True):
            assert _same_bits(e, g)
        statuses |= set(got[3].tolist())
    assert statuses == {Status.OPEN, Status.STICK, Status.SLIP}


def test_newton_step_is_the_array_evaluation_to_the_bit():
    """The semismooth Newton step (derivatives built only when a step needs them) is the
    one built on the array formulas, and so are the active-set solver's iterates."""
    rng = np.random.default_rng(5)
    for _ in range(500):
        c = int(rng.integers(1, 6))
        A = rng.standard_normal((2 * c, 2 * c))
        W = 1e-9 * (A @ A.T + 2 * c * np.eye(2 * c))
        problem = LocalProblem.scaled(W, 1e-6 * rng.standard_normal(2 * c),
                                      rng.uniform(0.0, 1.0, c))
        lam = 1e3 * np.abs(rng.standard_normal(2 * c))
        phi, d_lam, d_q, status = _array_formulas(lam, problem.q_free + W @ lam, problem.mu,
                                                  problem.rho)
        step, step_status = newton_step(problem, lam)
        assert _same_bits(step, lam - np.linalg.solve(d_lam + d_q @ W, phi))
        assert _same_bits(step_status, status)
