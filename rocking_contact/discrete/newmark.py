"""Implicit Newmark / Hilber-Hughes-Taylor for discrete systems with shocks, Newton on the
shock forces.

Newmark (beta, gamma) and HHT (alpha in [-1/3, 0], beta = (1-alpha)^2/4,
gamma = 1/2 - alpha; equilibrium at t_{n+1+alpha} for the stiffness, damping and shock
forces): with the effective matrix factorised once, each step is condensed on the shock
nodes, ``d = d_free + (1+alpha) W F(d, d')`` with ``W = G K_eff^-1 G^T``, and solved by
Newton with the consistent tangent of the shock law (Hilber, Hughes & Taylor 1977).
"""

from __future__ import annotations

from typing import Self

import numpy as np
from numba import njit

from rocking_contact.discrete.case import DiscreteCase
from rocking_contact.discrete.recording import (
    Chunk,
    any_closed,
    chunk,
    mechanical_energy,
    record,
    record_contact,
)
from rocking_contact.discrete.shock import FREEZE_BRANCH_AFTER, P_GAP, S_VELOCITY, STATE_SIZE
from rocking_contact.discrete.stepping import (
    Integrator,
    add_gtf,
    local_forces,
    matvec,
    row3,
    row_dot,
)
from rocking_contact.discrete.system import DiscreteSystem
from rocking_contact.time.hht import hht_coefficients

#: entries of the kernel's counters (``NewmarkIntegrator.stats``): steps done, Newton
#: iterations, the last failed step's residual (relative to the step's displacement scale),
#: branch corrections, branch cycles and the instant of the first cycle (s)
STAT_STEPS, STAT_ITERATIONS, STAT_RESIDUAL = 0, 1, 2
STAT_CORRECTIONS, STAT_CYCLES, STAT_FIRST_CYCLE = 3, 4, 5
N_STATS = 6


@njit(cache=True)
def branch_contradicted(P: np.ndarray, dloc: np.ndarray, vloc: np.ndarray, state: np.ndarray,
                        branch: np.ndarray, slip_dir: np.ndarray, out: np.ndarray) -> bool:
    """Whether the law, left free at ``(dloc, vloc)``, decides another stick/slip branch
    than the frozen one, or slips against the frozen direction. If so, ``branch`` and
    ``slip_dir`` take the law's decision."""
    ns = P.shape[0]
    free = np.full(ns, -1, dtype=np.int64)
    check = np.empty_like(state)
    Floc = np.empty(dloc.size)
    Jd_all, Jv_all = np.zeros((ns, 3, 3)), np.zeros((ns, 3, 3))
    local_forces(P, dloc, vloc, state, Floc, check, Jd_all, Jv_all, out, False, free,
                 slip_dir)
    contradicted = False
    for j in range(ns):
        if branch[j] < 0 or out[j, 0] <= 0.0:
            continue
        decided = int(check[j, 0])
        along = (slip_dir[j, 0] * check[j, 7] + slip_dir[j, 1] * check[j, 8]
                 + slip_dir[j, 2] * check[j, 9])
        if decided != branch[j] or (decided == 0 and along < 0.0):
            contradicted = True
            branch[j] = decided
            _slip_direction(check[j], slip_dir[j])
    return contradicted


@njit(cache=True, inline="always")
def _slip_direction(row: np.ndarray, out: np.ndarray) -> None:
    """``out`` (3): the unit direction of the slip velocity in a shock's state ``row`` (its
    columns ``S_VELOCITY ..``, m/s), or zero where the node does not move."""
    speed = np.sqrt(row[S_VELOCITY] ** 2 + row[S_VELOCITY + 1] ** 2
                    + row[S_VELOCITY + 2] ** 2)
    for c in range(3):
        out[c] = row[S_VELOCITY + c] / speed if speed > 0 else 0.0


@njit(cache=True, inline="always")
def _newton_matrix(W: np.ndarray, Jd_all: np.ndarray, Jv_all: np.ndarray, c1: float,
                   af: float, J: np.ndarray) -> None:
    """``J`` (3 ns, 3 ns; -): the Jacobian of the local residual ``d - d_free - af W F``,
    ``I - af W (dF/dd + c1 dF/dd')``, from the law's tangents per shock ``Jd_all``,
    ``Jv_all`` (ns, 3, 3; N/m, N.s/m; the velocities move by ``c1`` (1/s) per unit
    displacement)."""
    nl = J.shape[0]
    for q in range(nl):
        for m in range(nl):
            J[q, m] = 1.0 if q == m else 0.0
    for q in range(nl):
        for j in range(Jd_all.shape[0]):
            for c in range(3):
                jac = 0.0
                for m in range(3):
                    jac += W[q, 3 * j + m] * (Jd_all[j, m, c] + c1 * Jv_all[j, m, c])
                J[q, 3 * j + c] -= af * jac


@njit(cache=True, inline="always")
def _displacement_scale(dfree: np.ndarray, P: np.ndarray) -> float:
    """The scale (m) of a step's local displacements that Newton's tolerance is relative
    to: the largest of ``|d_free|`` (m, 3 ns) and the shocks' gaps, at least 1e-300 m."""
    scale = 0.0
    for q in range(dfree.size):
        scale = max(scale, abs(dfree[q]))
    for j in range(P.shape[0]):
        scale = max(scale, abs(P[j, P_GAP]))
    return max(scale, 1e-300)


@njit(cache=True, inline="always")
def _freeze_branches(state_new: np.ndarray, branch: np.ndarray, slip_dir: np.ndarray) -> None:
    """Fix each shock's stick/slip ``branch`` (0 slide, 1 stick) and ``slip_dir`` (ns, 3;
    unit) to those the law decided at the last iterate (``state_new``, ns x
    ``STATE_SIZE``), for Newton's iterations from :data:`.shock.FREEZE_BRANCH_AFTER` on."""
    for j in range(branch.size):
        branch[j] = int(state_new[j, 0])
        _slip_direction(state_new[j], slip_dir[j])


@njit(cache=True, inline="always")
def _count_cycle(stats: np.ndarray, t_next: float) -> None:
    """Count a step kept although no stick/slip branch held (``stats[STAT_CYCLES]``), and
    the first one's instant ``t_next`` (s)."""
    stats[STAT_CYCLES] += 1
    if stats[STAT_CYCLES] == 1:
        stats[STAT_FIRST_CYCLE] = t_next


@njit(cache=True, inline="always")
def _committed_tangential(Floc: np.ndarray, P: np.ndarray, ftv: np.ndarray) -> None:
    """``ftv`` (ns, 3; N, global): the shocks' committed forces ``Floc`` (N, 3 ns), what
    the step's equilibrium weighed, less their normal parts."""
    for j in range(P.shape[0]):
        fnj = (Floc[3 * j] * P[j, 0] + Floc[3 * j + 1] * P[j, 1]
               + Floc[3 * j + 2] * P[j, 2])
        for c in range(3):
            ftv[j, c] = Floc[3 * j + c] - fnj * P[j, c]


@njit(cache=True)
def _newmark_kernel(n_steps: int, final: bool, step0: int, every: int, dt: float,
                    beta: float, gamma: float, alpha: float, x: np.ndarray, v: np.ndarray,
                    a: np.ndarray, Floc: np.ndarray, state: np.ndarray, M: np.ndarray,
                    K: np.ndarray, C: np.ndarray, diag: bool, Kinv: np.ndarray,
                    G: np.ndarray, KiGt: np.ndarray, W: np.ndarray, P: np.ndarray,
                    gam: np.ndarray, p_sup: np.ndarray, f_const: np.ndarray, tol: float,
                    max_iter: int, R: np.ndarray, rec: np.ndarray, rec_index: int,
                    stats: np.ndarray, srec: np.ndarray, opens: np.ndarray,
                    carry: np.ndarray, slots: np.ndarray) -> tuple[int, int, int, int]:
    """Implicit Newmark / HHT steps (see the module doc), recording the committed state at
    each recorded step. Its other arguments are the kernels' shared ones (:mod:`.stepping`;
    ``diag`` covers ``Kinv`` too).

    Args:
        beta: Newmark's beta (-).
        gamma: Newmark's gamma (-).
        alpha: HHT's alpha (-, in [-1/3, 0]; 0 for Newmark): the stiffness, damping and
            shock forces are weighed ``1 + alpha`` at ``t_{n+1}`` and ``-alpha`` at ``t_n``.
        v: velocities (``[x]``/s, n); updated.
        a: accelerations (``[x]``/s^2, n); updated.
        Floc: the committed shock forces at step ``step0`` (N, 3 ns: shock ``j``'s global
            x, y, z at ``3j .. 3j+2``), which HHT weighs at ``t_n``; updated.
        Kinv: ``K_eff^-1``, the inverse of the effective matrix
            ``M / (beta dt^2) + (1 + alpha) (gamma / (beta dt) C + K)`` (n, n; m/N in
            physical space).
        KiGt: ``K_eff^-1 G^T`` (n, 3 ns): the unknowns' response to unit local forces.
        W: ``G K_eff^-1 G^T`` (3 ns, 3 ns; m/N), the condensed flexibility of the step on
            the shock nodes: ``d = d_free + (1 + alpha) W F``.
        tol: Newton's tolerance on the largest local residual (-), relative to the step's
            displacement scale (:func:`_displacement_scale`).
        max_iter: Newton iterations allowed a step.
        stats: the run's counters (``N_STATS``, indices ``STAT_*``): steps, Newton
            iterations, the failed step's relative residual, branch corrections, branch
            cycles, the first cycle's instant (s); updated.
        carry: the previous step's contact row, carried from chunk to chunk
            (3 ns + 3): ``[closed, has one, step, FN..., VN..., PN...]``; updated.

    Returns:
        (the index after the last row written in ``rec``, the rows written in ``srec``,
        the steps done, status): ``status`` is 0 on success, else 1: the Newton of step
        ``step0 + steps done`` failed, and ``stats[STAT_RESIDUAL]`` holds its last
        residual.

    """
    n = x.size
    ns = P.shape[0]
    nl = 3 * ns
    c0 = 1.0 / (beta * dt * dt)
    c1 = gamma / (beta * dt)
    af = 1.0 + alpha
    xt, vt, rhs, xf = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    tmp, tmp2 = np.empty(n), np.empty(n)
    dfree, dt_loc, vt_loc = np.empty(nl), np.empty(nl), np.empty(nl)
    dloc, vloc, Fnew, res = np.empty(nl), np.empty(nl), np.empty(nl), np.empty(nl)
    state_new = np.empty_like(state)
    Jd_all, Jv_all = np.zeros((ns, 3, 3)), np.zeros((ns, 3, 3))
    J = np.empty((nl, nl))
    out = np.zeros((ns, 4))
    vnow = np.empty(nl)
    free_branch = np.full(ns, -1, dtype=np.int64)
    branch = np.full(ns, -1, dtype=np.int64)
    slip_dir = np.zeros((ns, 3))
    ftv = np.zeros((ns, 3))  # the committed tangential forces on the nodes (N, global)
    r = rec_index
    dense = srec.shape[0] > 0
    sr = 0
    for i in range(n_steps + (1 if final else 0)):
        step = step0 + i
        recorded = step % every == 0 or (final and i == n_steps)
        if recorded or dense:
            # Channels of the committed state at t_n.
            for j in range(ns):
                row3(G, j, x, dloc[3 * j:3 * j + 3])
                row3(G, j, v, vnow[3 * j:3 * j + 3])
            local_forces(P, dloc, vnow, state, res, state_new, Jd_all, Jv_all, out, False,
                         free_branch, slip_dir)
        if recorded:
            _committed_tangential(Floc, P, ftv)
            r = record(rec, r, step, R, x, v, a, out[:, 0], out[:, 1], out[:, 2], out[:, 3],
                       ftv, state, slots, mechanical_energy(M, K, diag, P, x, v, out[:, 3]))
        if dense:
            closed = any_closed(out[:, 0], opens)
            if closed and carry[0] == 0.0 and carry[1] == 1.0:
                sr = record_contact(srec, sr, int(carry[2]), carry[3:3 + ns],
                                    carry[3 + ns:3 + 2 * ns], carry[3 + 2 * ns:])
            if closed or carry[0] == 1.0:
                sr = record_contact(srec, sr, step, out[:, 0], out[:, 2], out[:, 3])
            carry[0], carry[1], carry[2] = (1.0 if closed else 0.0), 1.0, step
            for j in range(ns):
                carry[3 + j], carry[3 + ns + j], carry[3 + 2 * ns + j] = \
                    out[j, 0], out[j, 2], out[j, 3]
        if i == n_steps:
            break
        # Predictors and the right-hand side of K_eff x_{n+1} = rhs + af G^T F_{n+1}.
        for k in range(n):
            xt[k] = x[k] + dt * v[k] + dt * dt * (0.5 - beta) * a[k]
            vt[k] = v[k] + dt * (1.0 - gamma) * a[k]
            rhs[k] = af * (p_sup[k] * gam[i + 1] + f_const[k]) \
                - alpha * (p_sup[k] * gam[i] + f_const[k])
            tmp[k] = c0 * xt[k]
            tmp2[k] = vt[k] - c1 * xt[k]
        matvec(M, diag, tmp, rhs, 1.0)
        matvec(C, diag, tmp2, rhs, -af)
        if alpha != 0.0:
            matvec(C, diag, v, rhs, alpha)
            matvec(K, diag, x, rhs, alpha)
            for j in range(ns):
                add_gtf(G, j, Floc[3 * j:3 * j + 3], rhs, -alpha)
        for k in range(n):
            xf[k] = 0.0
        matvec(Kinv, diag, rhs, xf, 1.0)
        # (row3 shock by shock: G x in a helper of its own, five calls more a step, takes
        # the two-mass case's 200,000 Newmark steps from 160 to 190 ms)
        for j in range(ns):
            row3(G, j, xf, dfree[3 * j:3 * j + 3])
            row3(G, j, xt, dt_loc[3 * j:3 * j + 3])
            row3(G, j, vt, vt_loc[3 * j:3 * j + 3])
        # Newton on the local displacements d: R(d) = d - d_free - af W F(d, d'(d)) (here,
        # not in a helper: one costs every step, :mod:`.stepping`'s doc says how much).
        for q in range(nl):
            dloc[q] = dfree[q]
        converged = False
        branch[:] = -1
        corrections = 0
        rnorm = 0.0
        scale = _displacement_scale(dfree, P)
        for it in range(max_iter + 1):
            for q in range(nl):
                vloc[q] = vt_loc[q] + c1 * (dloc[q] - dt_loc[q])
            if it == FREEZE_BRANCH_AFTER:
                _freeze_branches(state_new, branch, slip_dir)
            local_forces(P, dloc, vloc, state, Fnew, state_new, Jd_all, Jv_all, out, True,
                         branch, slip_dir)
            rnorm = 0.0
            for q in range(nl):
                res[q] = dloc[q] - dfree[q] - af * row_dot(W, q, Fnew)
                rnorm = max(rnorm, abs(res[q]))
            if rnorm <= tol * scale:
                if it >= FREEZE_BRANCH_AFTER and branch_contradicted(
                        P, dloc, vloc, state, branch, slip_dir, out):
                    # A branch frozen from an early iterate may not hold at the converged
                    # state (a cap pushing along the motion creates energy): re-decide it
                    # from the law and go on iterating, unless the decisions go round in
                    # a cycle (no branch holds at this step size) or no iteration is left
                    # to try the new branch: then the step is kept and counted.
                    if corrections <= ns and it < max_iter:
                        corrections += 1
                        stats[STAT_CORRECTIONS] += 1
                        continue
                    _count_cycle(stats, (step + 1) * dt)
                converged = True
                break
            if it == max_iter:
                break
            _newton_matrix(W, Jd_all, Jv_all, c1, af, J)
            delta = np.linalg.solve(J, res)
            stats[STAT_ITERATIONS] += 1
            for q in range(nl):
                dloc[q] -= delta[q]
        if not converged:
            stats[STAT_RESIDUAL] = rnorm / scale
            return r, sr, i, 1
        for k in range(n):
            x[k] = xf[k] + af * row_dot(KiGt, k, Fnew)
            a_new = c0 * (x[k] - xt[k])
            v[k] = vt[k] + gamma * dt * a_new
            a[k] = a_new
        for q in range(nl):
            Floc[q] = Fnew[q]
        for j in range(ns):
            for c in range(STATE_SIZE):
                state[j, c] = state_new[j, c]
        stats[STAT_STEPS] += 1
    return r, sr, n_steps, 0


class NewmarkFailure(RuntimeError):
    """Newton on the shock forces did not converge; ``kept`` holds the records of the
    chunk's steps before the failed one."""

    def __init__(self, message: str, kept: Chunk):
        super().__init__(message)
        self.kept = kept


class NewmarkIntegrator(Integrator):
    """Implicit Newmark (beta, gamma) or HHT (alpha < 0), Newton on the shock forces.

    (Not :class:`rocking_contact.time.newmark.Newmark`, the FEM step's coefficient table.)
    """

    @classmethod
    def from_case(cls, case: DiscreteCase, system: DiscreteSystem, outputs: np.ndarray,
                  support_acceleration0: float) -> Self:
        """``solver.scheme = 'newmark'``: its ``beta``, ``gamma``, ``newton_tol`` and
        ``newton_max_iter``, no alpha."""
        s = case.solver
        return cls(system, case.time.step, outputs, case.output.every, support_acceleration0,
                   beta=s.beta, gamma=s.gamma, alpha=0.0, tol=s.newton_tol,
                   max_iter=s.newton_max_iter)

    @property
    def settle_records(self) -> int:
        """2 with HHT's alpha: its equilibrium at ``t_{n+1+alpha}`` weighs the shock force of
        the step before, so the step after a contact still carries it and the free flight
        starts a step later (a free mass's rebound read a step early comes out 4 % low with
        alpha = -0.1, 6 % with -0.3); 1 without."""
        return 2 if self.alpha else 1

    def __init__(self, system: DiscreteSystem, dt: float, outputs: np.ndarray, every: int,
                 support_acceleration0: float, *, beta: float, gamma: float, alpha: float,
                 tol: float, max_iter: int):
        super().__init__(system, dt, outputs, every)
        s = system
        self.beta, self.gamma, self.alpha = beta, gamma, alpha
        self.tol, self.max_iter = tol, max_iter
        af = 1.0 + alpha
        Keff = s.M / (beta * dt * dt) + af * (gamma / (beta * dt) * s.C + s.K)
        self.Kinv = np.linalg.inv(Keff)
        self.KiGt = np.ascontiguousarray(self.Kinv @ s.G.T)
        self.W = np.ascontiguousarray(s.G @ self.KiGt)
        self.x, self.v = s.x0.copy(), s.v0.copy()
        ns = len(s.shock_names)
        self.Floc = np.zeros(3 * ns)
        # Committed forces and shock states at t0, contacts starting where they are.
        self.Floc[:], self.state[:] = self.start_forces(self.x, self.v)
        f = self.start_load(support_acceleration0, self.Floc)
        self.a = np.linalg.solve(s.M, f)
        self.stats = np.zeros(N_STATS)

    def _advance_impl(self, n_steps: int, gam: np.ndarray, final: bool, rec: np.ndarray,
                      srec: np.ndarray) -> tuple[int, int]:
        s = self.system
        r, sr, done, status = _newmark_kernel(
            n_steps, final, self.step, self.every, self.dt, self.beta, self.gamma, self.alpha,
            self.x, self.v, self.a, self.Floc, self.state, s.M, s.K, s.C, s.diagonal,
            self.Kinv, self.G, self.KiGt, self.W, self.P, gam, s.p_support, s.f_const,
            self.tol, self.max_iter, self.R, rec, 0, self.stats, srec, self.opens,
            self._carry, self.friction_slots)
        self.newton_iterations = int(self.stats[STAT_ITERATIONS])
        self.branch_corrections = int(self.stats[STAT_CORRECTIONS])
        self.branch_cycles = int(self.stats[STAT_CYCLES])
        self.first_branch_cycle = float(self.stats[STAT_FIRST_CYCLE])
        if status:
            self.step += done
            raise NewmarkFailure(
                f"Newton on the shock forces did not converge at t = "
                f"{(self.step + 1) * self.dt:.6g} s (step {self.step + 1}, dt = {self.dt:g} s),"
                f" residual {self.stats[STAT_RESIDUAL]:.3e} relative after {self.max_iter} "
                f"iterations", chunk(rec[:r], srec[:sr].copy()))
        return r, sr


class HHTIntegrator(NewmarkIntegrator):
    """Hilber-Hughes-Taylor: Newmark with ``beta``, ``gamma`` derived from ``alpha``
    (:func:`~rocking_contact.time.hht.hht_coefficients`)."""

    @classmethod
    def from_case(cls, case: DiscreteCase, system: DiscreteSystem, outputs: np.ndarray,
                  support_acceleration0: float) -> Self:
        """``solver.scheme = 'hht'``: its ``alpha``, ``newton_tol`` and
        ``newton_max_iter``."""
        s = case.solver
        beta, gamma = hht_coefficients(s.alpha)
        return cls(system, case.time.step, outputs, case.output.every, support_acceleration0,
                   beta=beta, gamma=gamma, alpha=s.alpha, tol=s.newton_tol,
                   max_iter=s.newton_max_iter)
