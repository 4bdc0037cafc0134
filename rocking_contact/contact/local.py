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
from typing import NamedTuple

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
        """The problem with ``rho = augmentation / mean(diag W)`` (N/m: Phi's two terms
        of the same size), times ``weights / mean(weights)`` per contact if given.

        Args:
            W: Delassus operator (m/N), shape (2c, 2c).
            q_free: relative displacements without contact forces (m), shape (2c,).
            mu: Coulomb coefficient of each contact, shape (c,).
            augmentation: ``(normal, tangential)`` factors, without unit
                (``contact.augmentation_normal``, ``contact.augmentation_tangential``).
            weights: one positive weight per contact (any unit: only their ratios to
                their mean count), or None.

        """
        c = len(mu)
        # the diagonal's mean: trace sums it as mean() does (one reduction of the diagonal,
        # then the division by its length), in a third of the time
        scale = float(W.trace()) / len(W) if len(W) else 1.0
        rho = np.empty((c, 2))
        floor = max(scale, 1e-300)
        rho[:, 0] = float(augmentation[0]) / floor
        rho[:, 1] = float(augmentation[1]) / floor
        if weights is not None and c:
            weights = np.asarray(weights)
            rho *= (weights / weights.mean())[:, None]
        return cls(W=W, q_free=q_free, mu=np.asarray(mu, dtype=float), rho=rho)


@dataclass
class LocalSolution:
    """Forces of the local problem and how they were found.

    Attributes:
        lam: contact forces (N), (N, T) per contact.
        status: :class:`Status` of each contact.
        iterations: Newton (active-set) iterations.
        converged: ``|Phi| <= tol``; False where the caller did not evaluate it (the
            continuous treatment's corrector, which reads ``lam`` and ``iterations`` only).
        residual: ``max |Phi|`` (N); NaN where not evaluated.

    """

    lam: np.ndarray
    status: np.ndarray
    iterations: int
    converged: bool
    residual: float


class _Sets(NamedTuple):
    """Where each contact of an Alart-Curnier evaluation is (Python lists, one entry per
    contact): closed, sticking, sliding, the sign of ``tau_T`` (numpy's ``sign``: 0 for
    either zero, NaN for NaN), and the :class:`Status`."""

    closed: list[bool]
    stick: list[bool]
    slip: list[bool]
    sign: list[float]
    status: list[int]


def _sign(x: float) -> float:
    """The sign of ``x`` as numpy gives it: +1, -1, 0 for either zero, NaN for NaN."""
    return 1.0 if x > 0.0 else -1.0 if x < 0.0 else 0.0 if x == 0.0 else x


def alart_curnier(lam: np.ndarray, q: np.ndarray, mu: np.ndarray, rho: np.ndarray
                  ) -> tuple[np.ndarray, _Sets]:
    """``Phi`` (N) and the sets it was evaluated on: :func:`complementarity` without the
    derivatives, for the callers that only test ``Phi`` (same arguments)."""
    c = len(mu)
    # One contact at a time in Python floats: a few contacts, for which numpy's cost per
    # call exceeds the arithmetic (the same IEEE operations either way)
    lam_, q_, mu_, rho_ = lam.tolist(), q.tolist(), mu.tolist(), rho.tolist()
    phi = list(lam_)  # open: Phi = lam
    sets = _Sets([False] * c, [False] * c, [False] * c, [0.0] * c, [Status.OPEN] * c)
    for i in range(c):
        n, t = 2 * i, 2 * i + 1
        rho_n, rho_t = rho_[i]
        rq_n, rq_t = rho_n * q_[n], rho_t * q_[t]
        tau_n, tau_t = lam_[n] - rq_n, lam_[t] - rq_t
        sets.sign[i] = sign = _sign(tau_t)
        if not tau_n > 0.0:  # open (a NaN too)
            continue
        sets.closed[i] = True
        phi[n] = rq_n
        bound = mu_[i] * tau_n
        if abs(tau_t) <= bound:
            sets.stick[i] = True
            sets.status[i] = Status.STICK
            phi[t] = rq_t
        else:
            sets.slip[i] = True
            sets.status[i] = Status.SLIP
            phi[t] = lam_[t] - bound * sign
    return np.array(phi, dtype=float), sets


def _derivatives(sets: _Sets, mu: np.ndarray, rho: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The derivatives of ``Phi`` with respect to ``lam`` and to ``q`` on ``sets``."""
    c = len(mu)
    d_lam = np.zeros((2 * c, 2 * c))
    d_q = np.zeros((2 * c, 2 * c))
    mu_, rho_ = mu.tolist(), rho.tolist()
    for i in range(c):
        n, t = 2 * i, 2 * i + 1
        rho_n, rho_t = rho_[i]
        if sets.closed[i]:
            d_q[n, n] = rho_n
        else:
            d_lam[n, n] = 1.0
        if sets.stick[i]:
            d_q[t, t] = rho_t
        elif sets.slip[i]:
            # d(lam_T - mu sign tau_N) = d lam_T - mu sign (d lam_N - rho_N d q_N)
            d_lam[t, t] = 1.0
            d_lam[t, n] = -mu_[i] * sets.sign[i]
            d_q[t, n] = mu_[i] * sets.sign[i] * rho_n
        else:
            d_lam[t, t] = 1.0
    return d_lam, d_q


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
    phi, sets = alart_curnier(lam, q, mu, rho)
    d_lam, d_q = _derivatives(sets, mu, rho)
    return phi, d_lam, d_q, np.array(sets.status, dtype=np.int64)


class _Evaluation(NamedTuple):
    """``Phi`` at some forces, the sets and status it was evaluated on, and ``max |Phi|``
    (N)."""

    phi: np.ndarray
    sets: _Sets
    status: np.ndarray
    norm: float


def _evaluate(problem: LocalProblem, lam: np.ndarray) -> _Evaluation:
    """``Phi`` (N) at the forces ``lam`` (N) and the sets it was evaluated on."""
    q = problem.q_free + problem.W @ lam
    phi, sets = alart_curnier(lam, q, problem.mu, problem.rho)
    return _Evaluation(phi, sets, np.array(sets.status, dtype=np.int64),
                       float(np.abs(phi).max()) if len(phi) else 0.0)


def _step(problem: LocalProblem, lam: np.ndarray, at: _Evaluation) -> np.ndarray:
    """The semismooth Newton step from ``lam`` (``at``: its evaluation); the derivatives
    are built here, for the evaluations that need a step (not the converged one).

    A closed contact that no force moves (both of its sides prescribed: a zero row of
    ``W``) makes the Jacobian singular: the step is then the least-squares one, as in
    :func:`~rocking_contact.contact.friction_contact.solve_semismooth_newton`. Its force is
    undetermined and acts on supports only (the minimum-norm step picks one); a gap that no
    force can close leaves ``Phi`` above the tolerance, and the solve unconverged.
    """
    d_lam, d_q = _derivatives(at.sets, problem.mu, problem.rho)
    jac = d_lam + d_q @ problem.W
    try:
        dlam = np.linalg.solve(jac, at.phi)
    except np.linalg.LinAlgError:
        dlam = np.linalg.lstsq(jac, at.phi, rcond=None)[0]
    new: np.ndarray = lam - dlam
    return new


def residual(problem: LocalProblem, lam: np.ndarray) -> tuple[float, np.ndarray]:
    """``max |Phi|`` (N) and the status at ``lam`` (the tests' check of a solution; the
    treatments' correctors judge convergence by the step's complementarity and equilibrium
    residuals)."""
    at = _evaluate(problem, lam)
    return at.norm, at.status


def newton_step(problem: LocalProblem, lam: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One semismooth Newton step from ``lam`` (N): the forces (N) and the status it was
    built on.

    ``(d_lam + d_q W) dlam = -Phi``; on the status of ``lam`` the equations are affine, so
    the new forces solve them exactly. Forces ``(lambda_N, lambda_T)`` per contact, as
    :class:`LocalSolution`'s ``lam``.
    """
    at = _evaluate(problem, lam)
    return _step(problem, lam, at), at.status


def solve_active_set(problem: LocalProblem, lam0: np.ndarray | None = None, *,
                     tol: float, max_iterations: int = 50) -> LocalSolution:
    """Primal-dual active set: full semismooth Newton steps until ``max |Phi| <= tol``;
    an active set that comes back without a smaller ``max |Phi|`` only halves the step
    (Armijo), it does not stop the iteration.

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
