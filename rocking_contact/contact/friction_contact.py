"""The one-step nonsmooth problem of Moreau-Jean: velocity-level Signorini and Coulomb.

Siconos calls it a *FrictionContact* one-step nonsmooth problem (2D). After the Delassus
condensation of a time step (a block run's ``theta`` treatment,
:mod:`rocking_contact.contact.theta`; the dense integrator of the tests,
:mod:`rocking_contact.contact.moreau`), the ``m`` active contacts see

    U = W P + q                                                    (condensed dynamics)

with ``P`` the impulses over the step (N.s) and ``U`` the end-of-step relative velocities
(m/s), both in local coordinates ordered ``[N_0, T_0, N_1, T_1, ...]`` (normal first, then
tangential; the normal points from the master surface towards the slave body), ``W`` the
Delassus operator (1/kg, symmetric positive semi-definite) and ``q`` the free relative
velocity. Each contact follows the :class:`NewtonImpactFrictionLaw`
(Siconos' ``NewtonImpactFrictionNSL``):

- Signorini-Moreau with Newton's impact law, on the velocity:
  ``0 <= U_N + e U_N^- _|_ P_N >= 0`` (``U_N^-`` the normal relative velocity at the start
  of the step, ``e`` the restitution coefficient: 0 is a perfectly inelastic impact);
- Coulomb on the tangential velocity: ``|P_T| <= mu P_N``; ``U_T = 0`` if ``|P_T| < mu P_N``,
  otherwise ``P_T = -mu P_N sign(U_T)``.

The shift ``e U_N^-`` is constant over the step, so the restitution is folded into ``q``
(:meth:`FrictionContactProblem.shifted`) and every solver below sees ``e = 0``.

Solvers
-------
- :func:`solve_semismooth_newton` (the default): generalised Newton on the Alart-Curnier
  function (Alart & Curnier 1991), per contact with ``rho = 1 / max(W_NN, W_TT)`` (kg)::

      Phi_N = P_N - max(0, P_N - rho U_N)
      Phi_T = P_T - proj([-mu r_N, mu r_N], P_T - rho U_T),  r_N = max(0, P_N - rho U_N)

  ``Phi(P) = 0`` is exactly the law. Newton steps use one element of the generalised
  Jacobian (``d Phi/dP + d Phi/dU W``), with a backtracking line search on ``|Phi|^2/2``
  and a least-squares solve where the Jacobian is singular (a rigid body with more contact
  rows than degrees of freedom); typically 2-4 iterations.
- :func:`solve_gauss_seidel`: nonsmooth Gauss-Seidel (LMGC90's NLGS), each contact solved
  exactly in turn with the others frozen (:func:`solve_single_contact`). The fallback when
  Newton stalls; it only needs ``W_aa`` to be positive definite.
- :func:`solve_enumerative`: every combination of open / stick / slip+ / slip- states (``4^m``
  linear solves), for a few contacts: the exact reference of the tests.

:func:`law_residual` measures how far a pair (P, U) is from the law (N.s), the same way for
every solver, and :func:`solve` chains Newton and Gauss-Seidel and checks the result.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from rocking_contact.contact.local import complementarity


@dataclass(frozen=True)
class NewtonImpactFrictionLaw:
    """The nonsmooth law of a contact: Newton impact and Coulomb friction.

    Attributes:
        restitution: Newton's coefficient e in [0, 1] (0: no rebound).
        friction: Coulomb's coefficient mu >= 0.

    """

    restitution: float = 0.0
    friction: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.restitution <= 1.0:
            raise ValueError(f"restitution: got {self.restitution:g}, allowed: [0, 1]")
        if not self.friction >= 0.0:
            raise ValueError(f"friction: got {self.friction:g}, allowed: a number >= 0")


@dataclass
class FrictionContactProblem:
    """``U = W P + q`` for ``m`` 2D contacts, each with its Coulomb coefficient.

    Attributes:
        W: Delassus operator (2m x 2m, 1/kg), local ordering ``[N_0, T_0, N_1, ...]``.
        q: free relative velocity (2m, m/s).
        mu: Coulomb coefficient of each contact (m,).

    """

    W: np.ndarray
    q: np.ndarray
    mu: np.ndarray

    @property
    def size(self) -> int:
        """Number of contacts m."""
        return len(self.mu)

    @classmethod
    def shifted(cls, W: np.ndarray, q: np.ndarray, law: NewtonImpactFrictionLaw,
                normal_velocity_before: np.ndarray) -> FrictionContactProblem:
        """The problem with Newton's shift ``q_N + e U_N^-`` folded in (one law for all).

        Args:
            W: Delassus operator (2m x 2m, 1/kg).
            q: free relative velocity (2m, m/s).
            law: restitution and friction of every contact.
            normal_velocity_before: ``U_N^-`` of each contact (m, m/s).

        """
        q = np.array(q, dtype=float)
        q[0::2] += law.restitution * np.asarray(normal_velocity_before, dtype=float)
        return cls(np.asarray(W, dtype=float), q, np.full(len(q) // 2, law.friction))

    def velocity(self, P: np.ndarray) -> np.ndarray:
        """``U = W P + q`` (m/s)."""
        U: np.ndarray = self.W @ P + self.q
        return U

    def rho(self) -> np.ndarray:
        """Alart-Curnier weight of each contact, ``1 / max(W_NN, W_TT)`` (kg)."""
        d = np.diag(self.W).reshape(-1, 2).max(axis=1)
        positive = d[d > 0]
        floor = positive.max() * 1e-14 if len(positive) else 1.0
        rho: np.ndarray = 1.0 / np.maximum(d, floor)
        return rho


@dataclass
class FrictionContactSolution:
    """Impulses, velocities and how they were obtained.

    Attributes:
        P: impulses (2m, N.s). U: relative velocities (2m, m/s).
        iterations: Newton iterations or Gauss-Seidel sweeps.
        residual: :func:`law_residual` of (P, U) (N.s).
        converged: residual within the tolerance.

    """

    P: np.ndarray
    U: np.ndarray
    iterations: int
    residual: float
    converged: bool


def law_residual(problem: FrictionContactProblem, P: np.ndarray,
                 U: np.ndarray | None = None) -> float:
    """Distance of (P, U) to the law, as the Alart-Curnier function ``max |Phi|`` (N.s).

    The function is zero exactly when the law holds; its size is an impulse, weighted per
    contact by ``rho`` so that velocity errors count as the impulse that would remove them.
    """
    if problem.size == 0:
        return 0.0
    U = problem.velocity(P) if U is None else U
    phi, _, _ = _alart_curnier(P, U, problem.mu, problem.rho())
    return float(np.abs(phi).max())


def impulse_scale(problem: FrictionContactProblem, P: np.ndarray,
                  rho: np.ndarray | None = None) -> float:
    """Scale of the impulses: ``max(|P|, rho |q|)`` (N.s), for relative tolerances;
    ``rho``: ``problem.rho()`` if the caller has it already (a solver's every iteration)."""
    if problem.size == 0:
        return 0.0
    weights = np.repeat(problem.rho() if rho is None else rho, 2)
    return float(max(np.abs(P).max(), (weights * np.abs(problem.q)).max()))


def _alart_curnier(P: np.ndarray, U: np.ndarray, mu: np.ndarray,
                   rho: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Alart-Curnier function of the impulses, ``Phi`` (2m, N.s), with ``A = dPhi/dP`` and
    ``B = dPhi/dU`` (2m x 2m, block diagonal): the function of the displacement-level
    problem (:func:`rocking_contact.contact.local.complementarity`) with impulses for forces,
    velocities for displacements and one weight ``rho`` (kg) per contact for both rows."""
    phi, A, B, _ = complementarity(P, U, mu, np.column_stack([rho, rho]))
    return phi, A, B


def solve_semismooth_newton(problem: FrictionContactProblem, P0: np.ndarray | None = None, *,
                            tol: float = 1e-12, max_iterations: int = 50
                            ) -> FrictionContactSolution:
    """Generalised Newton on the Alart-Curnier function (see the module docstring).

    Args:
        problem: the condensed problem.
        P0: first guess (2m, N.s), e.g. the previous step's impulses; zero if None.
        tol: stop when ``law_residual <= tol * impulse_scale``.
        max_iterations: Newton iterations before giving up.

    """
    m = problem.size
    P = np.zeros(2 * m) if P0 is None else np.array(P0, dtype=float)
    if m == 0:
        return FrictionContactSolution(P, problem.q.copy(), 0, 0.0, True)
    rho = problem.rho()
    W = problem.W

    def merit(p: np.ndarray) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
        """``|Phi|^2 / 2`` ((N.s)^2) at the impulses ``p`` (N.s), with ``Phi`` (N.s),
        ``dPhi/dP`` and ``dPhi/dU`` (:func:`_alart_curnier`)."""
        phi, A, B = _alart_curnier(p, W @ p + problem.q, problem.mu, rho)
        return 0.5 * float(phi @ phi), phi, A, B

    f, phi, A, B = merit(P)
    it = 0
    for it in range(max_iterations + 1):
        # the arrays' max(), not np.max(): the same reduction without numpy's dispatch
        if np.abs(phi).max() <= tol * max(impulse_scale(problem, P, rho), 1e-300):
            return FrictionContactSolution(P, problem.velocity(P), it,
                                           float(np.abs(phi).max()), True)
        if it == max_iterations:
            break
        jac = A + B @ W
        try:
            dP = np.linalg.solve(jac, -phi)
        except np.linalg.LinAlgError:
            dP = np.linalg.lstsq(jac, -phi, rcond=None)[0]
        # Backtracking on |Phi|^2 / 2; a full step whenever it decreases (semismooth
        # Newton converges locally without damping, the line search only globalises).
        step = 1.0
        while True:
            trial = P + step * dP
            f_trial, phi_t, A_t, B_t = merit(trial)
            if f_trial <= (1.0 - 1e-4 * step) * f or step < 1e-6:
                break
            step *= 0.5
        if f_trial >= f and step < 1e-6:
            break  # no descent: leave it to Gauss-Seidel
        P, f, phi, A, B = trial, f_trial, phi_t, A_t, B_t
    residual = law_residual(problem, P)
    return FrictionContactSolution(P, problem.velocity(P), it, residual, False)


def solve_single_contact(W: np.ndarray, q: np.ndarray, mu: float) -> np.ndarray:
    """Exact solution of one 2D contact ``U = W P + q`` (W 2x2 positive semi-definite,
    1/kg; ``q`` its free relative velocity ``(q_N, q_T)``, m/s, ``q_N < 0`` approaching).

    The states are tried in the order open, stick, slip; the first consistent one is
    returned (for a symmetric positive definite W and the usual mu it is the only one).
    A singular W (a contact whose tangential row moves nothing, as the stop of a
    one-dimensional system) can stick only if the least-squares impulse stops both
    velocities.

    Returns:
        ``(P_N, P_T)`` (N.s).

    """
    if q[0] >= 0.0:
        return np.zeros(2)  # open: separating without any impulse
    try:
        stick = np.linalg.solve(W, -q)
    except np.linalg.LinAlgError:
        stick = np.linalg.lstsq(W, -q, rcond=None)[0]
        if np.max(np.abs(W @ stick + q)) > 1e-12 * np.max(np.abs(q)):
            stick = np.array([-1.0, 0.0])  # no impulse stops both: not a stick state
    if stick[0] >= 0.0 and abs(stick[1]) <= mu * stick[0]:
        return stick
    best, best_violation = np.zeros(2), math.inf
    for s in (1.0, -1.0):  # sliding along +T (s = 1) or -T: P_T = -s mu P_N
        denom = W[0, 0] - s * mu * W[0, 1]
        if denom <= 0.0:
            continue
        pn = -q[0] / denom
        P = np.array([pn, -s * mu * pn])
        ut = W[1] @ P + q[1]
        violation = max(-pn, 0.0) + max(-s * ut, 0.0) / max(W[1, 1], 1e-300)
        if violation < best_violation:
            best, best_violation = P, violation
    return best


def solve_gauss_seidel(problem: FrictionContactProblem, P0: np.ndarray | None = None, *,
                       tol: float = 1e-12, max_sweeps: int = 10000) -> FrictionContactSolution:
    """Nonsmooth Gauss-Seidel: each contact solved exactly with the others frozen.

    Args:
        problem: the condensed problem.
        P0: first guess (2m, N.s); zero if None.
        tol: relative tolerance: stop when ``law_residual <= tol * impulse_scale`` (both
            N.s).
        max_sweeps: sweeps over every contact before giving up.

    """
    m = problem.size
    P = np.zeros(2 * m) if P0 is None else np.array(P0, dtype=float)
    W, q = problem.W, problem.q
    for sweep in range(1, max_sweeps + 1):
        for c in range(m):
            sl = slice(2 * c, 2 * c + 2)
            local_q = q[sl] + W[sl] @ P - W[sl, sl] @ P[sl]
            P[sl] = solve_single_contact(W[sl, sl], local_q, problem.mu[c])
        residual = law_residual(problem, P)
        if residual <= tol * max(impulse_scale(problem, P), 1e-300):
            return FrictionContactSolution(P, problem.velocity(P), sweep, residual, True)
    return FrictionContactSolution(P, problem.velocity(P), max_sweeps,
                                   law_residual(problem, P), False)


#: contact states of the enumerative solver
STATES = ("open", "stick", "slip+", "slip-")


def solve_enumerative(problem: FrictionContactProblem, *, tol: float = 1e-10,
                      max_contacts: int = 6) -> FrictionContactSolution:
    """Try every combination of contact states; the first consistent one is returned.

    ``4^m`` linear solves: meant for a few contacts (the reference of the tests).
    ``tol`` is relative: velocities within ``tol * max |q|`` (m/s) and impulses within
    ``tol * max |P|`` (N.s) of their state's conditions.

    Raises:
        ValueError: more than ``max_contacts`` contacts.

    """
    m = problem.size
    if m > max_contacts:
        raise ValueError(f"solve_enumerative: {m} contacts, at most {max_contacts}")
    W, q, mu = problem.W, problem.q, problem.mu
    scale = max(float(np.max(np.abs(q))) if m else 0.0, 1e-300)
    for states in itertools.product(STATES, repeat=m):
        rows = np.zeros((2 * m, 2 * m))
        rhs = np.zeros(2 * m)
        for c, state in enumerate(states):
            i, j = 2 * c, 2 * c + 1
            if state == "open":  # P_N = P_T = 0
                rows[i, i] = rows[j, j] = 1.0
            elif state == "stick":  # U_N = U_T = 0
                rows[i], rows[j] = W[i], W[j]
                rhs[i], rhs[j] = -q[i], -q[j]
            else:  # U_N = 0, P_T = -s mu P_N
                s = 1.0 if state == "slip+" else -1.0
                rows[i], rhs[i] = W[i], -q[i]
                rows[j, j], rows[j, i] = 1.0, s * mu[c]
        try:
            P = np.linalg.solve(rows, rhs)
        except np.linalg.LinAlgError:
            continue
        U = W @ P + q
        if _consistent(states, P, U, mu, tol * scale, tol):
            return FrictionContactSolution(P, U, 1, law_residual(problem, P, U), True)
    return FrictionContactSolution(np.zeros(2 * m), q.copy(), 4**m,
                                   law_residual(problem, np.zeros(2 * m)), False)


def _consistent(states: tuple[str, ...], P: np.ndarray, U: np.ndarray, mu: np.ndarray,
                u_tol: float, p_rel: float) -> bool:
    """Whether the impulses ``P`` (N.s) and velocities ``U`` (m/s) obey each contact's
    state: velocities within ``u_tol`` (m/s), impulses within ``p_rel`` of ``max |P|``."""
    p_tol = p_rel * max(float(np.max(np.abs(P))), 1e-300)
    for c, state in enumerate(states):
        pn, pt, un, ut = P[2 * c], P[2 * c + 1], U[2 * c], U[2 * c + 1]
        if state == "open":
            ok = un >= -u_tol
        elif state == "stick":
            ok = pn >= -p_tol and abs(pt) <= mu[c] * pn + p_tol
        else:
            s = 1.0 if state == "slip+" else -1.0
            ok = pn >= -p_tol and s * ut >= -u_tol
        if not ok:
            return False
    return True


def solve(problem: FrictionContactProblem, P0: np.ndarray | None = None, *,
          tol: float = 1e-12, max_iterations: int = 50,
          max_sweeps: int = 10000) -> FrictionContactSolution:
    """Semismooth Newton, then nonsmooth Gauss-Seidel from its last iterate if it stalls.

    Args:
        problem: the condensed problem.
        P0: first guess (N.s), e.g. the previous iterate's impulses.
        tol: relative tolerance on :func:`law_residual` (of :func:`impulse_scale`).
        max_iterations: Newton iterations.
        max_sweeps: Gauss-Seidel sweeps.

    """
    if problem.size == 0:
        return FrictionContactSolution(np.zeros(0), np.zeros(0), 0, 0.0, True)
    newton = solve_semismooth_newton(problem, P0, tol=tol, max_iterations=max_iterations)
    if newton.converged:
        return newton
    gs = solve_gauss_seidel(problem, newton.P, tol=tol, max_sweeps=max_sweeps)
    gs.iterations += newton.iterations
    return gs
