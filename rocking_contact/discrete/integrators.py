"""Time integrators for discrete systems with shocks: explicit central differences and
implicit Newmark / Hilber-Hughes-Taylor with Newton on the shock forces.

Both step ``M x'' + C x' + K x = p gamma(t) + f_const + G^T F(G x, G x')`` (see
:class:`~rocking_contact.discrete.system.DiscreteSystem`); ``F`` is the force of the
obstacles on the shock nodes.

Central differences (leapfrog form): ``v_{n+1/2} = v_{n-1/2} + dt a_n``,
``x_{n+1} = x_n + dt v_{n+1/2}``. The linear damping at ``t_n`` uses the estimate
``v_n ~ v_{n-1/2} + dt/2 a_{n-1}``; the shock law uses the velocity predicted over the
coming half step, ``v_{n-1/2} + dt a_{n-1}``, so that friction opposes the motion it acts
on (as the exact law does; with ``v_n`` the stick-slip reversals of SDND100 drift in phase
and the final stick misses the analytic value by 3%). Reported velocities are
``(v_{n-1/2} + v_{n+1/2})/2``. The run's first step is a half step from the initial state,
``v_{1/2} = v0 + dt/2 a_0`` with ``a_0`` the acceleration the shocks give at t0, friction
included, so that row 0 is that state (``v0``, ``a_0``).
Exact Coulomb friction chooses the tangential force at ``t_n`` inside the disc ``mu FN``
so that the node's tangential velocity ``v_{n+1/2}`` vanishes when it can (stick) and
opposes the slip otherwise, by projected Gauss-Seidel on the Delassus operator
``dt G M^-1 G^T``. Stable for ``dt < 2/omega_max`` (shocks closed).

Newmark (beta, gamma) and HHT (alpha in [-1/3, 0], beta = (1-alpha)^2/4,
gamma = 1/2 - alpha; equilibrium at t_{n+1+alpha} for the stiffness, damping and shock
forces): with the effective matrix factorised once, each step is condensed on the shock
nodes, ``d = d_free + (1+alpha) W F(d, d')`` with ``W = G K_eff^-1 G^T``, and solved by
Newton with the consistent tangent of the shock law (Hilber, Hughes & Taylor 1977).

The loops are compiled with numba; the Python classes own the state and counters
(scipy.integrate style: ``advance`` does a chunk of steps and says whether it succeeded).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from rocking_contact.discrete.shock import (
    LAW_EXACT,
    STATE_SIZE,
    normal_force,
    open_state,
    project_disc,
    shock_force,
)
from rocking_contact.discrete.system import DiscreteSystem

#: Newton iterations after which the stick/slip branch of each shock is kept fixed
FREEZE_BRANCH_AFTER = 8
# Per-shock record channels, in order (history columns <NAME>_<shock>).
SHOCK_CHANNELS = ("FN", "FT", "VN", "PN")


@njit(cache=True)
def _matvec(A: np.ndarray, diag: bool, x: np.ndarray, out: np.ndarray, sign: float) -> None:
    """Out += sign * A x (A diagonal when ``diag``)."""
    n = x.size
    if diag:
        for i in range(n):
            out[i] += sign * A[i, i] * x[i]
    else:
        for i in range(n):
            s = 0.0
            for k in range(n):
                s += A[i, k] * x[k]
            out[i] += sign * s


@njit(cache=True)
def _row3(G: np.ndarray, j: int, x: np.ndarray, out: np.ndarray) -> None:
    """Out = G[3j:3j+3] @ x."""
    n = x.size
    for r in range(3):
        s = 0.0
        row = 3 * j + r
        for i in range(n):
            s += G[row, i] * x[i]
        out[r] = s


@njit(cache=True)
def _add_GtF(G: np.ndarray, j: int, F: np.ndarray, out: np.ndarray, scale: float) -> None:
    n = out.size
    for i in range(n):
        out[i] += scale * (G[3 * j, i] * F[0] + G[3 * j + 1, i] * F[1] + G[3 * j + 2, i] * F[2])


@njit(cache=True)
def _energy(M: np.ndarray, K: np.ndarray, diag: bool, P: np.ndarray, x: np.ndarray,
            v: np.ndarray, pn: np.ndarray) -> float:
    """Mechanical energy (J): kinetic ``v^T M v / 2``, the springs' ``x^T K x / 2`` and the
    shocks' normal springs ``kn p^2 / 2`` where they are closed (``p > 0``). Positive
    whatever the state, so that a run that grows shows it (the leapfrog's own invariant,
    ``v_{n-1/2}^T M v_{n+1/2} / 2 + ...``, stays constant along an unstable mode)."""
    n = x.size
    e = 0.0
    for i in range(n):
        if diag:
            e += 0.5 * (M[i, i] * v[i] * v[i] + K[i, i] * x[i] * x[i])
        else:
            mv, kx = 0.0, 0.0
            for k in range(n):
                mv += M[i, k] * v[k]
                kx += K[i, k] * x[k]
            e += 0.5 * (v[i] * mv + x[i] * kx)
    for j in range(pn.size):
        if pn[j] > 0.0:
            e += 0.5 * P[j, 4] * pn[j] * pn[j]
    return e


@njit(cache=True)
def _record(rec: np.ndarray, r: int, R: np.ndarray, x: np.ndarray, v: np.ndarray,
            a: np.ndarray, fn: np.ndarray, ft: np.ndarray, vn: np.ndarray,
            pn: np.ndarray, energy: float) -> None:
    """Row ``r``: the recorded dofs' displacements, velocities, accelerations, the shocks'
    channels, the mechanical energy (before the last column, the step's number)."""
    rec[r, rec.shape[1] - 2] = energy
    no = R.shape[0]
    for o in range(no):
        sx, sv, sa = 0.0, 0.0, 0.0
        for i in range(x.size):
            sx += R[o, i] * x[i]
            sv += R[o, i] * v[i]
            sa += R[o, i] * a[i]
        rec[r, o], rec[r, no + o], rec[r, 2 * no + o] = sx, sv, sa
    base = 3 * no
    ns = fn.size
    for j in range(ns):
        rec[r, base + j] = fn[j]
        rec[r, base + ns + j] = ft[j]
        rec[r, base + 2 * ns + j] = vn[j]
        rec[r, base + 3 * ns + j] = pn[j]


@njit(cache=True)
def _any_closed(fn: np.ndarray) -> bool:
    """Whether a shock pushes (``fn > 0``)."""
    for j in range(fn.size):
        if fn[j] > 0.0:
            return True
    return False


@njit(cache=True)
def _record_contact(srec: np.ndarray, sr: int, step: int, fn: np.ndarray, vn: np.ndarray,
                    pn: np.ndarray) -> int:
    """Row ``[step, FN..., VN..., PN...]`` of the shocks, for the impacts; returns the rows
    written. With ``output.every`` > 1 the kernels write one at every step where a shock is
    closed and at the steps just before and after (the samples of the contact's edges),
    whatever is recorded in the history."""
    ns = fn.size
    srec[sr, 0] = step
    for j in range(ns):
        srec[sr, 1 + j], srec[sr, 1 + ns + j], srec[sr, 1 + 2 * ns + j] = fn[j], vn[j], pn[j]
    return sr + 1


@njit(cache=True)
def _cd_kernel(n_steps: int, final: bool, step0: int, every: int, dt: float, start: bool,
               x: np.ndarray, vh: np.ndarray, a_prev: np.ndarray, state: np.ndarray,
               was_open: np.ndarray, M: np.ndarray, Minv: np.ndarray, K: np.ndarray,
               C: np.ndarray,
               diag: bool, G: np.ndarray, Gn: np.ndarray, P: np.ndarray, MiGt: np.ndarray,
               rho: np.ndarray, gam: np.ndarray, p_sup: np.ndarray, f_const: np.ndarray,
               R: np.ndarray, rec: np.ndarray, rec_index: int, srec: np.ndarray,
               was_closed: np.ndarray) -> tuple[int, int]:
    n = x.size
    ns = P.shape[0]
    dense = srec.shape[0] > 0
    sr = 0
    zero, v_before, p_before = np.zeros(ns), np.zeros(ns), np.zeros(ns)
    d, dv = np.empty(3), np.empty(3)
    F, s_new = np.empty(3), np.empty(STATE_SIZE)
    Jd, Jv = np.empty((3, 3)), np.empty((3, 3))
    fn, ft, vn, pn = np.zeros(ns), np.zeros(ns), np.zeros(ns), np.zeros(ns)
    ftx = np.zeros((ns, 3))
    f, a, v_est, vh_new, v_out = np.empty(n), np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    v_pred = np.empty(n)
    r = rec_index
    any_exact = False
    for j in range(ns):
        if P[j, 9] == LAW_EXACT:
            any_exact = True
    for i in range(n_steps + (1 if final else 0)):
        step = step0 + i
        # The run's first step starts from the state at t0 (vh holds v0): a half step
        # v_{1/2} = v0 + dt/2 a0 with a0 this step's acceleration, so that row 0 reports v0
        # and the a(t0) its friction gives (started from v0 - dt/2 a0 with a friction-free
        # a0, SDND100 A's mass set off at 2.5e-4 m/s from rest).
        lead = 0.0 if start and i == 0 else 0.5 * dt
        h = lead + 0.5 * dt
        for k in range(n):
            v_est[k] = vh[k] + lead * a_prev[k]
            v_pred[k] = vh[k] + h * a_prev[k]
            f[k] = p_sup[k] * gam[i] + f_const[k]
        _matvec(K, diag, x, f, -1.0)
        _matvec(C, diag, v_est, f, -1.0)
        for j in range(ns):
            # Normal gap first (one row of Gn): open shocks cost nothing more.
            dn = 0.0
            for k in range(n):
                dn += Gn[j, k] * x[k]
            pn[j] = dn - P[j, 3]
            if pn[j] <= 0.0:
                fn[j], ft[j] = 0.0, 0.0
                was_open[j] = True
                continue
            if P[j, 8] == 0.0:
                # Frictionless: the force stays along the normal.
                vnj = 0.0
                for k in range(n):
                    vnj += Gn[j, k] * v_pred[k]
                fn[j], ft[j] = normal_force(P, j, pn[j], vnj), 0.0
                for k in range(n):
                    f[k] -= fn[j] * Gn[j, k]
                continue
            _row3(G, j, x, d)
            _row3(G, j, v_pred, dv)
            if was_open[j]:
                open_state(d, P[j, 0:3], state[j])
                was_open[j] = False
            fn[j], ft[j], pn[j], _ = shock_force(P, j, d, dv, state[j], F, s_new,
                                                  Jd, Jv, False)
            for c in range(STATE_SIZE):
                state[j, c] = s_new[c]
            if fn[j] > 0.0:
                _add_GtF(G, j, F, f, 1.0)
        for k in range(n):
            a[k] = 0.0
        _matvec(Minv, diag, f, a, 1.0)
        if any_exact:
            # (rho suits the Delassus operator of a whole step, dt/h times a half one's)
            _exact_friction(h, vh, a, G, P, MiGt, rho * (dt / h), fn, ftx, ft)
        for k in range(n):
            vh_new[k] = vh[k] + h * a[k]
            v_out[k] = vh_new[k] - 0.5 * dt * a[k]
        recorded = step % every == 0 or (final and i == n_steps)
        closed = dense and _any_closed(fn)
        near = closed or (dense and was_closed[0] == 1.0)
        if recorded or near:
            for j in range(ns):
                vnj = 0.0
                for k in range(n):
                    vnj += Gn[j, k] * v_out[k]
                vn[j] = vnj
        if recorded:
            _record(rec, r, R, x, v_out, a, fn, ft, vn, pn,
                    _energy(M, K, diag, P, x, v_out, pn))
            rec[r, rec.shape[1] - 1] = step
            r += 1
        if near:
            if closed and was_closed[0] == 0.0 and step > 0:
                # The step before, every shock open, from the leapfrog's state:
                # x_{n-1} = x_n - dt v_{n-1/2}, v_{n-1} = v_{n-1/2} - dt/2 a_{n-1}.
                for j in range(ns):
                    dn, vnj = 0.0, 0.0
                    for k in range(n):
                        dn += Gn[j, k] * (x[k] - dt * vh[k])
                        vnj += Gn[j, k] * (vh[k] - 0.5 * dt * a_prev[k])
                    zero[j], v_before[j], p_before[j] = 0.0, vnj, dn - P[j, 3]
                sr = _record_contact(srec, sr, step - 1, zero, v_before, p_before)
            sr = _record_contact(srec, sr, step, fn, vn, pn)
        if dense:
            was_closed[0] = 1.0 if closed else 0.0
        if i < n_steps:
            for k in range(n):
                vh[k] = vh_new[k]
                x[k] += dt * vh_new[k]
                a_prev[k] = a[k]
    return r, sr


@njit(cache=True)
def _exact_friction(dt: float, vh: np.ndarray, a: np.ndarray, G: np.ndarray, P: np.ndarray,
                    MiGt: np.ndarray, rho: np.ndarray, fn: np.ndarray, ftx: np.ndarray,
                    ft: np.ndarray) -> None:
    """Set-valued Coulomb at velocity level by projected Gauss-Seidel (see module doc): the
    tangential forces that stop ``vh + dt a`` (m/s) at the shocks' nodes when their discs
    hold them; ``dt`` (s) is the step's, or half of it for the run's first step."""
    ns = P.shape[0]
    n = a.size
    w, trial = np.empty(3), np.empty(3)
    for j in range(ns):
        for c in range(3):
            ftx[j, c] = 0.0
    for _sweep in range(200):
        change, scale = 0.0, 0.0
        for j in range(ns):
            if P[j, 9] != LAW_EXACT or fn[j] <= 0.0:
                continue
            nrm = P[j, 0:3]
            for c in range(3):
                s = 0.0
                for k in range(n):
                    s += G[3 * j + c, k] * (vh[k] + dt * a[k])
                w[c] = s
            wn = w[0] * nrm[0] + w[1] * nrm[1] + w[2] * nrm[2]
            for c in range(3):
                trial[c] = ftx[j, c] - rho[j] * (w[c] - wn * nrm[c])
            tn = trial[0] * nrm[0] + trial[1] * nrm[1] + trial[2] * nrm[2]
            for c in range(3):
                trial[c] -= tn * nrm[c]
            project_disc(trial, P[j, 8] * fn[j])
            for c in range(3):
                delta = trial[c] - ftx[j, c]
                if delta != 0.0:
                    for k in range(n):
                        a[k] += MiGt[k, 3 * j + c] * delta
                    change = max(change, abs(delta))
                ftx[j, c] = trial[c]
            scale = max(scale, P[j, 8] * fn[j])
        if change <= 1e-13 * max(scale, 1e-300):
            break
    for j in range(ns):
        if P[j, 9] == LAW_EXACT:
            ft[j] = np.sqrt(ftx[j, 0] ** 2 + ftx[j, 1] ** 2 + ftx[j, 2] ** 2)


@njit(cache=True)
def _local_forces(P: np.ndarray, G: np.ndarray, dloc: np.ndarray, vloc: np.ndarray,
                  state: np.ndarray, Floc: np.ndarray, state_new: np.ndarray,
                  Jd_all: np.ndarray, Jv_all: np.ndarray, out: np.ndarray, want_jac: bool,
                  branch: np.ndarray, slip_dir: np.ndarray) -> None:
    """Forces of every shock from local displacements/velocities (3 ns vectors)."""
    ns = P.shape[0]
    F = np.empty(3)
    Jd, Jv = np.empty((3, 3)), np.empty((3, 3))
    for j in range(ns):
        fn, ft, pn, vn = shock_force(P, j, dloc[3 * j:3 * j + 3], vloc[3 * j:3 * j + 3],
                                     state[j], F, state_new[j], Jd, Jv, want_jac, branch[j],
                                     slip_dir[j])
        out[j, 0], out[j, 1], out[j, 2], out[j, 3] = fn, ft, vn, pn
        for c in range(3):
            Floc[3 * j + c] = F[c]
            if want_jac:
                for m in range(3):
                    Jd_all[j, c, m] = Jd[c, m]
                    Jv_all[j, c, m] = Jv[c, m]


@njit(cache=True)
def branch_contradicted(P: np.ndarray, G: np.ndarray, dloc: np.ndarray, vloc: np.ndarray,
                        state: np.ndarray, branch: np.ndarray, slip_dir: np.ndarray,
                        out: np.ndarray) -> bool:
    """Whether the law, left free at ``(dloc, vloc)``, decides another stick/slip branch
    than the frozen one, or slips against the frozen direction. If so, ``branch`` and
    ``slip_dir`` take the law's decision."""
    ns = P.shape[0]
    free = np.full(ns, -1, dtype=np.int64)
    check = np.empty_like(state)
    Floc = np.empty(dloc.size)
    Jd_all, Jv_all = np.zeros((ns, 3, 3)), np.zeros((ns, 3, 3))
    _local_forces(P, G, dloc, vloc, state, Floc, check, Jd_all, Jv_all, out, False, free,
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
            speed = np.sqrt(check[j, 7] ** 2 + check[j, 8] ** 2 + check[j, 9] ** 2)
            for c in range(3):
                slip_dir[j, c] = check[j, 7 + c] / speed if speed > 0 else 0.0
    return contradicted


@njit(cache=True)
def _newmark_kernel(n_steps: int, final: bool, step0: int, every: int, dt: float,
                    beta: float, gamma: float, alpha: float, x: np.ndarray, v: np.ndarray,
                    a: np.ndarray, Floc: np.ndarray, state: np.ndarray, M: np.ndarray,
                    K: np.ndarray, C: np.ndarray, diag: bool, Kinv: np.ndarray,
                    G: np.ndarray, KiGt: np.ndarray, W: np.ndarray, P: np.ndarray,
                    gam: np.ndarray, p_sup: np.ndarray, f_const: np.ndarray, tol: float,
                    max_iter: int, R: np.ndarray, rec: np.ndarray, rec_index: int,
                    stats: np.ndarray, srec: np.ndarray,
                    carry: np.ndarray) -> tuple[int, int, int, int]:
    """Implicit Newmark / HHT steps; returns (records written, contact rows written (see
    :func:`_record_contact`; ``carry`` keeps the previous step's, ``[closed, has one,
    step, FN..., VN..., PN...]``), steps done, status).

    ``status`` is 0 on success, else the step's Newton failed and ``stats[2]`` holds the
    last residual.
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
    r = rec_index
    dense = srec.shape[0] > 0
    sr = 0
    for i in range(n_steps + (1 if final else 0)):
        step = step0 + i
        recorded = step % every == 0 or (final and i == n_steps)
        if recorded or dense:
            # Channels of the committed state at t_n.
            for j in range(ns):
                _row3(G, j, x, dloc[3 * j:3 * j + 3])
                _row3(G, j, v, vnow[3 * j:3 * j + 3])
            _local_forces(P, G, dloc, vnow, state, res, state_new, Jd_all, Jv_all, out, False,
                          free_branch, slip_dir)
        if recorded:
            _record(rec, r, R, x, v, a, out[:, 0], out[:, 1], out[:, 2], out[:, 3],
                    _energy(M, K, diag, P, x, v, out[:, 3]))
            rec[r, rec.shape[1] - 1] = step
            r += 1
        if dense:
            closed = _any_closed(out[:, 0])
            if closed and carry[0] == 0.0 and carry[1] == 1.0:
                sr = _record_contact(srec, sr, int(carry[2]), carry[3:3 + ns],
                                     carry[3 + ns:3 + 2 * ns], carry[3 + 2 * ns:])
            if closed or carry[0] == 1.0:
                sr = _record_contact(srec, sr, step, out[:, 0], out[:, 2], out[:, 3])
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
        _matvec(M, diag, tmp, rhs, 1.0)
        _matvec(C, diag, tmp2, rhs, -af)
        if alpha != 0.0:
            _matvec(C, diag, v, rhs, alpha)
            _matvec(K, diag, x, rhs, alpha)
            for j in range(ns):
                _add_GtF(G, j, Floc[3 * j:3 * j + 3], rhs, -alpha)
        for k in range(n):
            xf[k] = 0.0
        _matvec(Kinv, diag, rhs, xf, 1.0)
        for j in range(ns):
            _row3(G, j, xf, dfree[3 * j:3 * j + 3])
            _row3(G, j, xt, dt_loc[3 * j:3 * j + 3])
            _row3(G, j, vt, vt_loc[3 * j:3 * j + 3])
        # Newton on the local displacements d: R(d) = d - d_free - af W F(d, d'(d)).
        for q in range(nl):
            dloc[q] = dfree[q]
        converged = False
        branch[:] = -1
        corrections = 0
        rnorm = 0.0
        scale = 0.0
        for q in range(nl):
            scale = max(scale, abs(dfree[q]))
        for j in range(ns):
            scale = max(scale, abs(P[j, 3]))
        scale = max(scale, 1e-300)
        for it in range(max_iter + 1):
            for q in range(nl):
                vloc[q] = vt_loc[q] + c1 * (dloc[q] - dt_loc[q])
            if it == FREEZE_BRANCH_AFTER:
                for j in range(ns):
                    branch[j] = int(state_new[j, 0])
                    speed = np.sqrt(state_new[j, 7] ** 2 + state_new[j, 8] ** 2
                                    + state_new[j, 9] ** 2)
                    for c in range(3):
                        slip_dir[j, c] = state_new[j, 7 + c] / speed if speed > 0 else 0.0
            _local_forces(P, G, dloc, vloc, state, Fnew, state_new, Jd_all, Jv_all, out, True,
                          branch, slip_dir)
            rnorm = 0.0
            for q in range(nl):
                s = 0.0
                for m in range(nl):
                    s += W[q, m] * Fnew[m]
                res[q] = dloc[q] - dfree[q] - af * s
                rnorm = max(rnorm, abs(res[q]))
            if rnorm <= tol * scale:
                if it >= FREEZE_BRANCH_AFTER and branch_contradicted(
                        P, G, dloc, vloc, state, branch, slip_dir, out):
                    # A branch frozen from an early iterate may not hold at the converged
                    # state (a cap pushing along the motion creates energy): re-decide it
                    # from the law and go on iterating, unless the decisions go round in
                    # a cycle (no branch holds at this step size) or no iteration is left
                    # to try the new branch: then the step is kept and counted.
                    if corrections <= ns and it < max_iter:
                        corrections += 1
                        stats[3] += 1
                        continue
                    stats[4] += 1
                    if stats[4] == 1:
                        stats[5] = (step + 1) * dt
                converged = True
                break
            if it == max_iter:
                break
            for q in range(nl):
                for m in range(nl):
                    J[q, m] = 1.0 if q == m else 0.0
            for q in range(nl):
                for j in range(ns):
                    for c in range(3):
                        jac = 0.0
                        for m in range(3):
                            jac += W[q, 3 * j + m] * (Jd_all[j, m, c] + c1 * Jv_all[j, m, c])
                        J[q, 3 * j + c] -= af * jac
            delta = np.linalg.solve(J, res)
            stats[1] += 1
            for q in range(nl):
                dloc[q] -= delta[q]
        if not converged:
            stats[2] = rnorm / scale
            return r, sr, i, 1
        for k in range(n):
            x[k] = xf[k]
        for k in range(n):
            s = 0.0
            for q in range(nl):
                s += KiGt[k, q] * Fnew[q]
            x[k] += af * s
            a_new = c0 * (x[k] - xt[k])
            v[k] = vt[k] + gamma * dt * a_new
            a[k] = a_new
        for q in range(nl):
            Floc[q] = Fnew[q]
        for j in range(ns):
            for c in range(STATE_SIZE):
                state[j, c] = state_new[j, c]
        stats[0] += 1
    return r, sr, n_steps, 0


@dataclass
class Chunk:
    """Records of a chunk of steps: ``rows`` (records x channels), the step numbers and the
    mechanical energy at them (J, :func:`_energy`); ``contacts``, with ``output.every`` > 1,
    the shocks' rows at every step around their contacts (see :func:`_record_contact`;
    empty otherwise)."""

    steps: np.ndarray
    rows: np.ndarray
    energy: np.ndarray
    contacts: np.ndarray


class Integrator:
    """State and counters of a discrete time integration.

    Subclasses implement :meth:`_advance_impl`. To add a scheme: derive, set up the state in
    ``__init__``, and advance ``n`` steps in ``_advance_impl``, filling the record buffer.

    Args:
        system: the assembled system.
        dt: time step (s).
        outputs: rows of the basis of the recorded physical dofs (``NODE.DX``...).
        every: record every N steps. Above 1, the shocks are recorded at every step
            around their contacts too (:attr:`contacts`), for the impacts.

    """

    def __init__(self, system: DiscreteSystem, dt: float, outputs: np.ndarray, every: int):
        self.system, self.dt, self.R, self.every = system, dt, np.ascontiguousarray(outputs), every
        ns = len(system.shock_names)
        # the recorded dofs' x, v, a, the shocks' channels, the energy, the step number
        self.n_channels = 3 * self.R.shape[0] + len(SHOCK_CHANNELS) * ns + 2
        self.step = 0
        self.newton_iterations = 0
        #: Newton iterations that went on because a frozen stick/slip branch did not hold
        self.branch_corrections = 0
        #: steps kept although no stick/slip branch held (the decisions cycled), and the
        #: instant of the first (s)
        self.branch_cycles = 0
        self.first_branch_cycle = 0.0
        self.state = np.zeros((ns, STATE_SIZE))
        G = system.G
        self.P = np.ascontiguousarray(system.shock_params)
        self.G = np.ascontiguousarray(G)
        # Normal rows: Gn[j] @ x is the displacement of shock j's node along its normal.
        self.Gn = np.ascontiguousarray(
            np.einsum("jc,jcn->jn", self.P[:, :3], G.reshape(ns, 3, G.shape[1])))
        #: whether the shocks are recorded at every step around their contacts; the runner
        #: turns it off past MAX_ROWS such rows
        self.contacts = every > 1 and ns > 0
        self._carry = np.zeros(3 * ns + 3)  # the previous step's contact row (implicit)
        #: FN_, VN_, PN_<shock> and time at every step around the contacts, when recorded
        #: (set by the runner from the chunks' ``contacts``)
        self.contact_history: dict[str, np.ndarray] | None = None
        #: where the recorded mechanical energy first exceeded :data:`.energy.EXCESS` times
        #: its bound, and its largest ratio to the bound and where (s, -, s; set by the
        #: runner), or None
        self.energy_excess: tuple[float, float, float] | None = None

    def start_forces(self, x: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The shocks' local forces (3 ns, N) at the initial state ``x``, ``v`` and their
        law's state after it: each shock starts as an open contact (no stored stick force),
        so a closed one carries its normal force and its tangential dashpot only."""
        ns = len(self.system.shock_names)
        d, vloc = self.G @ x, self.G @ v
        state = np.zeros_like(self.state)
        for j in range(ns):
            open_state(d[3 * j:3 * j + 3], self.P[j, :3], state[j])
        forces, state_new = np.zeros(3 * ns), np.zeros_like(state)
        _local_forces(self.P, self.G, d, vloc, state, forces, state_new,
                      np.zeros((ns, 3, 3)), np.zeros((ns, 3, 3)), np.zeros((ns, 4)), False,
                      np.full(ns, -1, dtype=np.int64), np.zeros((ns, 3)))
        return forces, state_new

    def advance(self, n_steps: int, gam: np.ndarray, final: bool) -> Chunk:
        """Advance ``n_steps`` steps; ``gam`` holds the support acceleration at the
        ``n_steps + 1`` instants t_step .. t_step+n. With ``final``, the state reached is
        recorded too.
        """
        n_rec = (n_steps + 1) // self.every + 2
        rec = np.zeros((n_rec, self.n_channels))
        ns = len(self.system.shock_names)
        # a row per step, and one for the step before a contact: at most n_steps + 2
        srec = np.zeros((n_steps + 2 if self.contacts else 0, 3 * ns + 1))
        r, sr = self._advance_impl(n_steps, np.ascontiguousarray(gam), final, rec, srec)
        self.step += n_steps
        return chunk(rec[:r], srec[:sr].copy())  # (a view would keep every step's row)

    def _advance_impl(self, n_steps: int, gam: np.ndarray, final: bool, rec: np.ndarray,
                      srec: np.ndarray) -> tuple[int, int]:
        raise NotImplementedError


def chunk(rows: np.ndarray, contacts: np.ndarray) -> Chunk:
    """A :class:`Chunk` from the kernels' buffers (energy and step number last in
    ``rows``)."""
    return Chunk(steps=rows[:, -1].astype(np.int64), rows=rows[:, :-2], energy=rows[:, -2],
                 contacts=contacts)


class CentralDifference(Integrator):
    """Explicit central differences (leapfrog), with exact Coulomb friction available."""

    def __init__(self, system: DiscreteSystem, dt: float, outputs: np.ndarray, every: int,
                 gamma0: float):
        super().__init__(system, dt, outputs, every)
        s = system
        self.Minv = np.linalg.inv(s.M)
        self.x = s.x0.copy()
        ns = len(s.shock_names)
        self.was_open = np.ones(ns, dtype=np.bool_)
        MiGt = self.Minv @ s.G.T
        self.MiGt = np.ascontiguousarray(MiGt)
        W = dt * s.G @ MiGt
        self.rho = np.zeros(ns)
        for j in range(ns):
            n = s.shock_params[j, :3]
            Pt = np.eye(3) - np.outer(n, n)
            lam = np.linalg.eigvalsh(Pt @ W[3 * j:3 * j + 3, 3 * j:3 * j + 3] @ Pt).max()
            self.rho[j] = 1.0 / lam if lam > 0 else 0.0
        # The first step starts from v0 (the kernel's half step) and evaluates the shock law
        # at v0 + dt/2 a0, a0 the acceleration without friction of the shocks' state at t0.
        forces, state = self.start_forces(s.x0, s.v0)
        f = s.p_support * gamma0 + s.f_const - s.K @ s.x0 - s.C @ s.v0 + s.G.T @ forces
        a0: np.ndarray = self.Minv @ f
        held = self._held_at_start(a0, forces, state)
        self.state[held] = state[held]
        self.was_open[held] = False
        self.vh = s.v0.copy()
        self.a_prev = a0

    def _held_at_start(self, a0: np.ndarray, forces: np.ndarray,
                       state: np.ndarray) -> np.ndarray:
        """Which shocks start sticking: closed at t0 with no tangential velocity (the law
        sticks them, ``state[j, 0] = 1``) and a load their Coulomb disc holds, the
        tangential forces that stop every such node's tangential acceleration within
        ``mu FN`` (one least-squares solve on the Delassus operator).

        ``a0`` is ``a(t0)`` with the normal forces of the shocks closed at t0 and no friction
        (the stick spring starts unloaded). The first step evaluates the law at the
        velocity predicted over the coming half step, ``v0 + dt/2 a0``: left as a new
        contact, a node at rest under a load below the limit (1 kg on a floor, 2 N along it,
        ``mu FN`` = 2.943 N) slid along that dt-sized velocity, the friction reversed it
        within the step and the stick spring kept the 2.943 N sliding force: the mass crept
        uphill, 9.4e-6 m with ``ct`` = 300 N.s/m where the answer is 2e-5 m downhill. A load
        above the limit still starts sliding as before (SDND100: 6.0 N along its line for
        ``mu FN`` = 1 N).
        """
        P = self.P
        ns = len(self.system.shock_names)
        fn = -np.einsum("jc,jc->j", forces.reshape(ns, 3), P[:, :3])
        held: np.ndarray = ((state[:, 0] == 1.0) & (fn > 0.0) & (P[:, 8] > 0.0)
                            & (P[:, 9] != LAW_EXACT))
        if not held.any():
            return held
        rows = []
        for j in np.flatnonzero(held):
            n = P[j, :3]
            rows.append((np.eye(3) - np.outer(n, n)) @ self.G[3 * j:3 * j + 3])
        Gt = np.vstack(rows)  # tangential rows of the candidate shocks' nodes
        # Tangential forces f (one 3-vector per candidate) with Gt (a0 + M^-1 Gt^T f) = 0.
        needed = -np.linalg.lstsq(Gt @ self.Minv @ Gt.T, Gt @ a0, rcond=None)[0]
        magnitude = np.linalg.norm(needed.reshape(-1, 3), axis=1)
        held[np.flatnonzero(held)] = magnitude <= P[held, 8] * fn[held]
        return held

    def _advance_impl(self, n_steps: int, gam: np.ndarray, final: bool, rec: np.ndarray,
                      srec: np.ndarray) -> tuple[int, int]:
        s = self.system
        r, sr = _cd_kernel(n_steps, final, self.step, self.every, self.dt, self.step == 0,
                           self.x, self.vh, self.a_prev, self.state, self.was_open,
                           s.M, self.Minv, s.K, s.C, s.diagonal, self.G, self.Gn, self.P, self.MiGt,
                           self.rho,
                           gam, s.p_support, s.f_const, self.R, rec, 0, srec, self._carry[:1])
        return r, sr


class NewmarkFailure(RuntimeError):
    """Newton on the shock forces did not converge."""


class Newmark(Integrator):
    """Implicit Newmark (beta, gamma) or HHT (alpha < 0), Newton on the shock forces."""

    def __init__(self, system: DiscreteSystem, dt: float, outputs: np.ndarray, every: int,
                 gamma0: float, *, beta: float, gamma: float, alpha: float,
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
        f = s.p_support * gamma0 + s.f_const - s.K @ self.x - s.C @ self.v + s.G.T @ self.Floc
        self.a = np.linalg.solve(s.M, f)
        self.stats = np.zeros(6)

    def _advance_impl(self, n_steps: int, gam: np.ndarray, final: bool, rec: np.ndarray,
                      srec: np.ndarray) -> tuple[int, int]:
        s = self.system
        r, sr, done, status = _newmark_kernel(
            n_steps, final, self.step, self.every, self.dt, self.beta, self.gamma, self.alpha,
            self.x, self.v, self.a, self.Floc, self.state, s.M, s.K, s.C, s.diagonal,
            self.Kinv, self.G, self.KiGt, self.W, self.P, gam, s.p_support, s.f_const,
            self.tol, self.max_iter, self.R, rec, 0, self.stats, srec, self._carry)
        self.newton_iterations = int(self.stats[1])
        self.branch_corrections = int(self.stats[3])
        self.branch_cycles = int(self.stats[4])
        self.first_branch_cycle = float(self.stats[5])
        if status:
            self.step += done
            self.failed = chunk(rec[:r], srec[:sr].copy())
            raise NewmarkFailure(
                f"Newton on the shock forces did not converge at t = "
                f"{(self.step + 1) * self.dt:.6g} s (step {self.step + 1}, dt = {self.dt:g} s),"
                f" residual {self.stats[2]:.3e} relative after {self.max_iter} iterations")
        return r, sr
