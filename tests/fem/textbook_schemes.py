"""The Newmark family written from its defining equations, independently of the package's
coefficient tables: what the FEM (fem_checks.py) and discrete (tests/discrete) integrators
are checked against. No dolfinx: the discrete tests import it without the FEM stack."""

from __future__ import annotations

import numpy as np

from rocking_contact.time import HHT, Newmark, Scheme


def textbook_amplification(scheme: Scheme, omega: float, h: float, xi: float = 0.0) -> np.ndarray:
    """A with (u, v, a)_{n+1} = A (u, v, a)_n for a'' + 2 xi omega u' + omega^2 u = 0.

    omega in rad/s, h in s. Newmark family (Hilber, Hughes & Taylor 1977): the two Newmark
    relations and the (alpha-weighted) equilibrium, solved as a 3x3 linear system
    L s1 = R s0.
    """
    k, c = omega**2, 2 * xi * omega
    if isinstance(scheme, HHT):
        alpha, beta, gamma = scheme.alpha, (1 - scheme.alpha) ** 2 / 4, 0.5 - scheme.alpha
    elif isinstance(scheme, Newmark):
        alpha, beta, gamma = 0.0, scheme.beta, scheme.gamma
    else:
        raise TypeError(scheme)
    lhs = np.array([[1.0, 0.0, -beta * h * h],
                    [0.0, 1.0, -gamma * h],
                    [(1 + alpha) * k, (1 + alpha) * c, 1.0]])
    rhs = np.array([[1.0, h, (0.5 - beta) * h * h],
                    [0.0, 1.0, (1 - gamma) * h],
                    [alpha * k, alpha * c, 0.0]])
    return np.linalg.solve(lhs, rhs)
