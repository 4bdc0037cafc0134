"""Explicit central differences for discrete systems with shocks, exact Coulomb friction
available.

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
"""

from __future__ import annotations

from typing import Any, Self

import numpy as np
from numba import njit

from rocking_contact.discrete.case import DiscreteCase
from rocking_contact.discrete.recording import any_closed, mechanical_energy, record, record_contact
from rocking_contact.discrete.shock import (
    LAW_EXACT,
    P_GAP,
    P_LAW,
    P_MU,
    S_STICK,
    STATE_SIZE,
    normal_force,
    open_state,
    project_disc,
    shock_force,
)
from rocking_contact.discrete.stepping import (
    Integrator,
    add_gtf,
    matvec,
    row3,
    row_dot,
)
from rocking_contact.discrete.system import DiscreteSystem, critical_step


@njit(cache=True, inline="always")
def _step_before(dt: float, x: np.ndarray, vh: np.ndarray, a_prev: np.ndarray,
                 Gn: np.ndarray, P: np.ndarray, opens: np.ndarray, fn: np.ndarray,
                 x_before: np.ndarray, v_before_all: np.ndarray, zero: np.ndarray,
                 v_before: np.ndarray, p_before: np.ndarray) -> None:
    """The shocks' contact row at the step before a contact starts, every shock that can
    open open then, from the leapfrog's state: ``x_{n-1} = x_n - dt v_{n-1/2}``,
    ``v_{n-1} = v_{n-1/2} - dt/2 a_{n-1}`` (``x_before``, ``v_before_all``, n): the forces
    ``zero`` (N; a shock that cannot open pushed then as now, ``fn``), normal velocities
    ``v_before`` (m/s) and penetrations ``p_before`` (m)."""
    for k in range(x.size):
        x_before[k] = x[k] - dt * vh[k]
        v_before_all[k] = vh[k] - 0.5 * dt * a_prev[k]
    for j in range(P.shape[0]):
        zero[j] = 0.0 if opens[j] else fn[j]
        v_before[j] = row_dot(Gn, j, v_before_all)
        p_before[j] = row_dot(Gn, j, x_before) - P[j, P_GAP]


@njit(cache=True)
def _cd_kernel(n_steps: int, final: bool, step0: int, every: int, dt: float, start: bool,
               x: np.ndarray, vh: np.ndarray, a_prev: np.ndarray, state: np.ndarray,
               was_open: np.ndarray, M: np.ndarray, Minv: np.ndarray, K: np.ndarray,
               C: np.ndarray,
               diag: bool, G: np.ndarray, Gn: np.ndarray, P: np.ndarray, MiGt: np.ndarray,
               rho: np.ndarray, gam: np.ndarray, p_sup: np.ndarray, f_const: np.ndarray,
               R: np.ndarray, rec: np.ndarray, rec_index: int, srec: np.ndarray,
               opens: np.ndarray, was_closed: np.ndarray,
               slots: np.ndarray) -> tuple[int, int]:
    """Central-difference steps (see the module doc), recording the state at each recorded
    step. Its other arguments are the kernels' shared ones (:mod:`.stepping`; ``diag``
    covers ``Minv`` too, and ``M`` is read for the recorded energy only).

    Args:
        start: whether the chunk starts the run: its first step is the half step from the
            initial state (``vh`` holding ``v0``, ``a_prev`` ``a0``).
        vh: half-step velocities ``v_{n-1/2}`` (``[x]``/s, n; ``v0`` at the run's start);
            updated.
        a_prev: accelerations ``a_{n-1}`` of the step before (``[x]``/s^2, n; ``a0`` at the
            run's start); updated.
        was_open: per shock, whether it was open at the step before (a shock that closes
            starts its state from :func:`.shock.open_state`); updated.
        Minv: the inverse of ``M`` (n, n).
        Gn: the normal rows (ns, n): ``Gn[j] @ x`` is the displacement (m) of shock
            ``j``'s node along its normal, towards the obstacle.
        MiGt: ``M^-1 G^T`` (n, 3 ns): the accelerations a unit local force gives.
        rho: per shock, the projected Gauss-Seidel step of exact friction (kg/s, N per
            m/s): the inverse of the largest eigenvalue of the tangential block of the
            whole step's Delassus operator ``dt G M^-1 G^T``; 0 where it vanishes.
        was_closed: one value carried from chunk to chunk, 1.0 if a shock pushed at the
            step before, else 0.0 (the contact rows' edges); updated.

    Returns:
        The index after the last row written in ``rec`` (the rows written, from
        ``rec_index`` 0), and the rows written in ``srec``.

    """
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
    # the tangential forces on the nodes (N, global), recorded; a frictionless shock's stay 0
    ftv = np.zeros((ns, 3))
    f, a, v_est, vh_new, v_out = np.empty(n), np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    v_pred, x_before, v_before_all = np.empty(n), np.empty(n), np.empty(n)
    r = rec_index
    any_exact = False
    for j in range(ns):
        if P[j, P_LAW] == LAW_EXACT:
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
        matvec(K, diag, x, f, -1.0)
        matvec(C, diag, v_est, f, -1.0)
        # (the shocks' loop stays here: a helper costs every step, :mod:`.stepping`'s doc
        # says how much)
        for j in range(ns):
            # Normal gap first (one row of Gn): open shocks cost nothing more.
            pn[j] = row_dot(Gn, j, x) - P[j, P_GAP]
            if pn[j] <= 0.0:
                fn[j], ft[j] = 0.0, 0.0
                if not was_open[j]:
                    # (a shock with friction that opens: it stays open at the coming steps,
                    # which need not write it again)
                    ftv[j, 0], ftv[j, 1], ftv[j, 2] = 0.0, 0.0, 0.0
                was_open[j] = True
                continue
            if P[j, P_MU] == 0.0:
                # Frictionless: the force stays along the normal.
                fn[j], ft[j] = normal_force(P, j, pn[j], row_dot(Gn, j, v_pred)), 0.0
                for k in range(n):
                    f[k] -= fn[j] * Gn[j, k]
                continue
            row3(G, j, x, d)
            row3(G, j, v_pred, dv)
            if was_open[j]:
                open_state(d, P[j, 0:3], state[j])
                was_open[j] = False
            fn[j], ft[j], pn[j], _ = shock_force(P, j, d, dv, state[j], F, s_new,
                                                  Jd, Jv, False)
            for c in range(STATE_SIZE):
                state[j, c] = s_new[c]
            for c in range(3):
                ftv[j, c] = F[c] + fn[j] * P[j, c]  # F less its normal part -FN n
            if fn[j] > 0.0:
                add_gtf(G, j, F, f, 1.0)
        # (zeroed here: a helper that sets a = Minv f, one call more a step, takes the
        # two-mass case's 500,000 steps from 31 to 43 ms)
        for k in range(n):
            a[k] = 0.0
        matvec(Minv, diag, f, a, 1.0)
        if any_exact:
            # (rho suits the Delassus operator of a whole step, dt/h times a half one's)
            _exact_friction(h, vh, a, G, P, MiGt, rho * (dt / h), fn, ftx, ft)
            for j in range(ns):
                if P[j, P_LAW] == LAW_EXACT:
                    for c in range(3):
                        ftv[j, c] = ftx[j, c]
        for k in range(n):
            vh_new[k] = vh[k] + h * a[k]
            v_out[k] = vh_new[k] - 0.5 * dt * a[k]
        recorded = step % every == 0 or (final and i == n_steps)
        closed = dense and any_closed(fn, opens)
        near = closed or (dense and was_closed[0] == 1.0)
        if recorded or near:
            for j in range(ns):
                vn[j] = row_dot(Gn, j, v_out)
        if recorded:
            r = record(rec, r, step, R, x, v_out, a, fn, ft, vn, pn, ftv, state, slots,
                       mechanical_energy(M, K, diag, P, x, v_out, pn))
        if near:
            if closed and was_closed[0] == 0.0 and step > 0:
                _step_before(dt, x, vh, a_prev, Gn, P, opens, fn, x_before, v_before_all,
                             zero, v_before, p_before)
                sr = record_contact(srec, sr, step - 1, zero, v_before, p_before)
            sr = record_contact(srec, sr, step, fn, vn, pn)
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
    w, trial, v_end = np.empty(3), np.empty(3), np.empty(n)
    for j in range(ns):
        for c in range(3):
            ftx[j, c] = 0.0
    for _sweep in range(200):
        change, scale = 0.0, 0.0
        for j in range(ns):
            if P[j, P_LAW] != LAW_EXACT or fn[j] <= 0.0:
                continue
            nrm = P[j, 0:3]
            # (a changes with every shock's correction: the end velocity is taken anew)
            for k in range(n):
                v_end[k] = vh[k] + dt * a[k]
            row3(G, j, v_end, w)
            wn = w[0] * nrm[0] + w[1] * nrm[1] + w[2] * nrm[2]
            for c in range(3):
                trial[c] = ftx[j, c] - rho[j] * (w[c] - wn * nrm[c])
            tn = trial[0] * nrm[0] + trial[1] * nrm[1] + trial[2] * nrm[2]
            for c in range(3):
                trial[c] -= tn * nrm[c]
            project_disc(trial, P[j, P_MU] * fn[j])
            for c in range(3):
                delta = trial[c] - ftx[j, c]
                if delta != 0.0:
                    for k in range(n):
                        a[k] += MiGt[k, 3 * j + c] * delta
                    change = max(change, abs(delta))
                ftx[j, c] = trial[c]
            scale = max(scale, P[j, P_MU] * fn[j])
        if change <= 1e-13 * max(scale, 1e-300):
            break
    for j in range(ns):
        if P[j, P_LAW] == LAW_EXACT:
            ft[j] = np.sqrt(ftx[j, 0] ** 2 + ftx[j, 1] ** 2 + ftx[j, 2] ** 2)



class CentralDifferenceIntegrator(Integrator):
    """Explicit central differences (leapfrog), with exact Coulomb friction available."""

    @classmethod
    def from_case(cls, case: DiscreteCase, system: DiscreteSystem, outputs: np.ndarray,
                  support_acceleration0: float) -> Self:
        """``solver.scheme = 'central_difference'`` (it reads no other ``[solver]`` key)."""
        return cls(system, case.time.step, outputs, case.output.every, support_acceleration0)

    @classmethod
    def stability_warning(cls, system: DiscreteSystem,
                          dt: float) -> tuple[list[str], str, dict[str, Any]]:
        """The stability limit with every shock closed (``extra["critical_step_s"]``, s,
        :func:`~rocking_contact.discrete.system.critical_step`): a warning when ``dt`` (s)
        exceeds it, and a runaway's cause that says how far from it the step is."""
        limit = critical_step(system)
        extra: dict[str, Any] = {"critical_step_s": limit}
        # a warning, not a refusal: a run above the limit can hold (a node between two
        # stops that never close together holds there: 1 kg at 1.13 times it runs 1.6 s with
        # its energy within 4 % of the start's)
        if dt > limit:
            warnings = [f"time.step {dt:g} s exceeds the central-difference stability limit "
                        f"{limit:.3g} s (every shock closed, dampers included)"]
            cause = (f"time.step {dt:g} s is above the stability limit with every shock "
                     f"closed, {limit:.3g} s")
        else:
            warnings = []
            cause = (f"central differences made energy where the shocks open and close "
                     f"between steps (time.step {dt:g} s, {dt / limit:.2g} of the stability "
                     f"limit with every shock closed); a smaller time.step")
        return warnings, cause, extra

    def __init__(self, system: DiscreteSystem, dt: float, outputs: np.ndarray, every: int,
                 support_acceleration0: float):
        super().__init__(system, dt, outputs, every)
        s = system
        self.Minv = s.inverse_mass
        self.x = s.x0.copy()
        ns = len(s.shock_names)
        self.was_open = np.ones(ns, dtype=np.bool_)
        MiGt = self.Minv @ s.G.T
        self.MiGt = np.ascontiguousarray(MiGt)
        W = dt * s.G @ MiGt
        self.rho = np.zeros(ns)
        for j in range(ns):
            Pt = s.tangent_projectors[j]
            lam = np.linalg.eigvalsh(Pt @ W[3 * j:3 * j + 3, 3 * j:3 * j + 3] @ Pt).max()
            self.rho[j] = 1.0 / lam if lam > 0 else 0.0
        # The first step starts from v0 (the kernel's half step) and evaluates the shock law
        # at v0 + dt/2 a0, a0 the acceleration without friction of the shocks' state at t0.
        forces, state = self.start_forces(s.x0, s.v0)
        f = self.start_load(support_acceleration0, forces)
        a0: np.ndarray = self.Minv @ f
        held = self._held_at_start(a0, forces, state)
        self.state[held] = state[held]
        self.was_open[held] = False
        self.vh = s.v0.copy()
        self.a_prev = a0

    def _held_at_start(self, a0: np.ndarray, forces: np.ndarray,
                       state: np.ndarray) -> np.ndarray:
        """Which shocks start sticking: closed at t0 with no tangential velocity (the law
        sticks them, ``state[j, S_STICK] = 1``) and a load their Coulomb disc holds, the
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
        held: np.ndarray = ((state[:, S_STICK] == 1.0) & (fn > 0.0) & (P[:, P_MU] > 0.0)
                            & (P[:, P_LAW] != LAW_EXACT))
        if not held.any():
            return held
        rows = []
        for j in np.flatnonzero(held):
            rows.append(self.system.tangent_projectors[j] @ self.G[3 * j:3 * j + 3])
        Gt = np.vstack(rows)  # tangential rows of the candidate shocks' nodes
        # Tangential forces f (one 3-vector per candidate) with Gt (a0 + M^-1 Gt^T f) = 0.
        needed = -np.linalg.lstsq(Gt @ self.Minv @ Gt.T, Gt @ a0, rcond=None)[0]
        magnitude = np.linalg.norm(needed.reshape(-1, 3), axis=1)
        held[np.flatnonzero(held)] = magnitude <= P[held, P_MU] * fn[held]
        return held

    def _advance_impl(self, n_steps: int, gam: np.ndarray, final: bool, rec: np.ndarray,
                      srec: np.ndarray) -> tuple[int, int]:
        s = self.system
        r, sr = _cd_kernel(n_steps, final, self.step, self.every, self.dt, self.step == 0,
                           self.x, self.vh, self.a_prev, self.state, self.was_open,
                           s.M, self.Minv, s.K, s.C, s.diagonal, self.G, self.Gn, self.P, self.MiGt,
                           self.rho,
                           gam, s.p_support, s.f_const, self.R, rec, 0, srec, self.opens,
                           self._carry[:1], self.friction_slots)
        return r, sr
