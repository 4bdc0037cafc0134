"""The condensed (local) frictional contact problem and its semismooth Newton solvers.

After condensation of the step equation on the contact coordinates (Delassus), the
relative displacements (or velocities) of ``c`` contacts are affine in their forces:

    q = q_free + W lambda,     q = (q_N1, q_T1, q_N2, q_T2, ...),   lambda likewise,

with ``W = H K_eff^-1 H^T`` (m/N) symmetric positive definite. Each contact obeys

- Signorini on the normal part: ``q_N >= 0``, ``lambda_N >= 0``, ``q_N lambda_N = 0``
  (``q_N`` is the gap at the end of the step; a velocity for the theta-scheme);
- Coulomb on the tangential part: ``|lambda_T| <= mu lambda_N``; ``q_T = 0`` (stick) or
  ``lambda_T = -mu lambda_N sign(q_T)`` (slip; ``q_T`` is the slip over the step).

Complementarity function (Alart & Curnier 1991), per contact, in force units, with
augmentation coefficients ``rho_N``, ``rho_T`` (N/m):

    tau_N = lambda_N - rho_N q_N,       Phi_N = lambda_N - max(0, tau_N)
    tau_T = lambda_T - rho_T q_T,       Phi_T = lambda_T - proj_[-mu max(0, tau_N), +](tau_T)

``Phi = 0`` is equivalent to the two laws. The contact is *open* when ``tau_N <= 0``,
*sticking* when closed and ``|tau_T| <= mu tau_N``, *sliding* otherwise. On each of these
sets ``Phi`` is affine in ``(lambda, q)``: its generalised Jacobian gives the semismooth
Newton step :func:`newton_step`. Taking full steps (their active sets settle after a few)
until ``max |Phi|`` is below the tolerance is the primal-dual active set method
(Hintermueller, Ito & Kunisch 2002; Hueber & Wohlmuth 2005 for friction):
:func:`solve_active_set`, which the Lagrange treatment runs to convergence at each Newton
iteration of the step. The continuous treatment takes one such step per Newton iteration of
the coupled problem (generalised Newton on the whole system).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np


class Status(IntEnum):
    """State of a contact on the current iterate."""

    OPEN = 0
    STICK = 1
    SLIP = 2


@dataclass(frozen=True)
class LocalProblem:
    """``q = q_free + W lambda`` with Signorini-Coulomb on each contact.

    Attributes:
        W: Delassus operator (m/N), shape (2c, 2c), rows (N, T) per contact.
        q_free: relative displacements without contact forces (m), shape (2c,).
        mu: Coulomb coefficient of each contact, shape (c,).
        rho: augmentation coefficients (rho_N, rho_T) (N/m) of each contact, shape (c, 2).

    """

    W: np.ndarray
    q_free: np.ndarray
    mu: np.ndarray
    rho: np.ndarray

    @property
    def size(self) -> int:
        """Number of contacts."""
        return len(self.mu)

    @classmethod
    def scaled(cls, W: np.ndarray, q_free: np.ndarray, mu: np.ndarray,
               augmentation: tuple[float, float] = (1.0, 1.0),
               weights: np.ndarray | None = None) -> LocalProblem:
        """With ``rho = augmentation / mean(diag W)`` (Phi's two terms of the same size),
        times ``weights / mean(weights)`` per contact if given."""
        c = len(mu)
        scale = float(np.mean(np.diag(W))) if len(W) else 1.0
        rho = np.tile(np.asarray(augmentation, dtype=float) / max(scale, 1e-300), (c, 1))
        if weights is not None and c:
            rho *= (np.asarray(weights) / np.mean(weights))[:, None]
        return cls(W=W, q_free=q_free, mu=np.asarray(mu, dtype=float), rho=rho)


@dataclass
class LocalSolution:
    """Forces of the local problem and how they were found.

    Attributes:
        lam: contact forces (N), (N, T) per contact.
        status: :class:`Status` of each contact.
        iterations: Newton (active-set) iterations.
        converged: ``|Phi| <= tol``.
        residual: ``max |Phi|`` (N).

    """

    lam: np.ndarray
    status: np.ndarray
    iterations: int
    converged: bool
    residual: float


def complementarity(lam: np.ndarray, q: np.ndarray, mu: np.ndarray, rho: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Alart-Curnier function and its generalised derivatives.

    Args:
        lam: forces (N), (N, T) interleaved.
        q: relative displacements (m), same layout.
        mu: Coulomb coefficients, one per contact.
        rho: (rho_N, rho_T) (N/m) per contact, shape (c, 2).

    Returns:
        ``(phi, d_lam, d_q, status)``: ``Phi`` (N), its derivatives with respect to
        ``lam`` (block diagonal, 2c x 2c) and to ``q`` (N/m), and the :class:`Status`.

    """
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
    d_lam = np.zeros((2 * c, 2 * c))
    d_q = np.zeros((2 * c, 2 * c))
    for i in range(c):
        n, t = 2 * i, 2 * i + 1
        if closed[i]:
            d_q[n, n] = rho_n[i]
        else:
            d_lam[n, n] = 1.0
        if stick[i]:
            d_q[t, t] = rho_t[i]
        elif slip[i]:
            # d(lam_T - mu sign tau_N) = d lam_T - mu sign (d lam_N - rho_N d q_N)
            d_lam[t, t] = 1.0
            d_lam[t, n] = -mu[i] * sign[i]
            d_q[t, n] = mu[i] * sign[i] * rho_n[i]
        else:
            d_lam[t, t] = 1.0
    status = np.where(closed, np.where(stick, Status.STICK, Status.SLIP), Status.OPEN)
    return phi.ravel(), d_lam, d_q, status.astype(np.int64)


@dataclass(frozen=True)
class _Evaluation:
    """``Phi`` at some forces, its derivatives and status, and ``max |Phi|`` (N)."""

    phi: np.ndarray
    d_lam: np.ndarray
    d_q: np.ndarray
    status: np.ndarray
    norm: float


def _evaluate(problem: LocalProblem, lam: np.ndarray) -> _Evaluation:
    q = problem.q_free + problem.W @ lam
    phi, d_lam, d_q, status = complementarity(lam, q, problem.mu, problem.rho)
    return _Evaluation(phi, d_lam, d_q, status, float(np.max(np.abs(phi))) if len(phi) else 0.0)


def _step(problem: LocalProblem, lam: np.ndarray, at: _Evaluation) -> np.ndarray:
    """The semismooth Newton step from ``lam`` (``at``: its evaluation)."""
    jac = at.d_lam + at.d_q @ problem.W
    new: np.ndarray = lam - np.linalg.solve(jac, at.phi)
    return new


def residual(problem: LocalProblem, lam: np.ndarray) -> tuple[float, np.ndarray]:
    """``max |Phi|`` (N) and the status at ``lam``."""
    at = _evaluate(problem, lam)
    return at.norm, at.status


def newton_step(problem: LocalProblem, lam: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One semismooth Newton step from ``lam``: the forces and the status it was built on.

    ``(d_lam + d_q W) dlam = -Phi``; on the status of ``lam`` the equations are affine, so
    the new forces solve them exactly.
    """
    at = _evaluate(problem, lam)
    return _step(problem, lam, at), at.status


def solve_active_set(problem: LocalProblem, lam0: np.ndarray | None = None, *,
                     tol: float, max_iterations: int = 50) -> LocalSolution:
    """Primal-dual active set: full semismooth Newton steps until ``max |Phi| <= tol``.

    Args:
        problem: the local problem.
        lam0: first guess (N); zero if None.
        tol: ``max |Phi|`` (N) accepted.
        max_iterations: iterations before giving up. A cycle between active sets (possible
            with friction) is broken by halving the step (damped Newton on ``|Phi|^2``).

    """
    lam = np.zeros(2 * problem.size) if lam0 is None else lam0.astype(float).copy()
    if problem.size == 0:
        return LocalSolution(lam, np.zeros(0, np.int64), 0, True, 0.0)
    # Each iterate is evaluated once: its residual decides convergence, and the next Newton
    # step is built on the same evaluation.
    at = _evaluate(problem, lam)
    seen: set[bytes] = set()
    for it in range(1, max_iterations + 1):
        trial = _step(problem, lam, at)
        trial_at = _evaluate(problem, trial)
        key = at.status.tobytes()
        if key in seen and trial_at.norm > at.norm:
            # The sets came back without progress: damp the step (Armijo on |Phi|).
            step = 0.5
            while step > 1e-6:
                candidate = lam + step * (trial - lam)
                candidate_at = _evaluate(problem, candidate)
                if candidate_at.norm < at.norm:
                    trial, trial_at = candidate, candidate_at
                    break
                step *= 0.5
        seen.add(key)
        lam, at = trial, trial_at
        if at.norm <= tol:
            return LocalSolution(lam, at.status, it, True, at.norm)
    return LocalSolution(lam, at.status, max_iterations, False, at.norm)
