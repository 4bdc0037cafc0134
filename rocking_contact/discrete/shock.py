"""The shock law of a node against a plane obstacle (compiled; conventions in :mod:`.case`).

One shock ``j`` has parameters ``P[j] = (nx, ny, nz, gap, kn, cn, kt, ct, mu, law)`` and a
state row ``S[j] = (stick, Fs_old[3], xt_old[3], vt_old[3])``: whether it sticks, the
tangential spring force (the friction force while sliding), tangential position and
tangential velocity of the last evaluation.

Normal force: ``FN = kn p + cn dp/dt`` for a penetration ``p > 0``, clipped at 0.

Tangential force (``friction = "regularised"``, the stick-slip logic of Code_Aster's DIS_CHOC):

- sliding continues while the tangential velocity ``vt`` keeps its direction
  (``vt . vt_old >= 0``) and ``|vt| >`` :data:`SLIP_VELOCITY`: ``Ft = -mu FN vt/|vt|``;
- otherwise the contact sticks through an incremental spring and a dashpot,
  ``Ft = Fs - ct vt`` with ``Fs = Fs_old - kt (xt - xt_old)``; if ``|Ft| > mu FN`` it
  slides instead. The state keeps the spring's force ``Fs`` (the friction force while
  sliding), never the dashpot's: stored, the dashpot force of every step would pile up
  into a spring of stiffness ``ct / dt``.

``friction = "stored_dashpot"`` is the same logic storing the whole force, dashpot included:
the tangential contact then behaves as a spring ``kt + ct / dt`` (4e8 N/m for SDNV105 B at
dt = 25 us, forty times ``kt``), a step-dependent stiffness. It reproduces the first
impact of Code_Aster's SDNV105 B, but Code_Aster's published routines do not store the
dashpot (docs/contact.md, "B: what Code_Aster's B is"): kept to show what it does.

So a reversal of the sliding velocity starts a stick phase from the force the contact had,
and a new contact starts sliding if it arrives with a tangential velocity. The state is
written to a separate row so that a rejected Newton iterate leaves the committed one intact.
With ``friction = "exact"`` (or ``mu = 0``) this law gives no tangential force; the
integrator solves the set-valued Coulomb law itself.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: columns of the shock parameters ``P[j]``: the unit normal (the first three), the gap
#: (m), kn (N/m), cn (N.s/m), kt (N/m), ct (N.s/m), mu (-) and the friction law's code
SHOCK_PARAMS = ("nx", "ny", "nz", "gap", "kn", "cn", "kt", "ct", "mu", "law")
P_GAP, P_KN, P_CN, P_KT, P_CT, P_MU, P_LAW = (SHOCK_PARAMS.index(name)
                                              for name in SHOCK_PARAMS[3:])
#: first columns of the state row ``S[j]``: the stick flag (1 sticks, 0 slides or open),
#: then three 3-vectors: the previous tangential force (N), position (m) and velocity (m/s)
S_STICK, S_FORCE, S_POSITION, S_VELOCITY = 0, 1, 4, 7
STATE_SIZE = 10
#: codes of the friction law in the last shock parameter
LAW_REGULARISED, LAW_EXACT, LAW_STORED_DASHPOT = 0.0, 1.0, 2.0
LAWS = {"regularised": LAW_REGULARISED, "exact": LAW_EXACT, "stored_dashpot": LAW_STORED_DASHPOT}
#: below this tangential speed (m/s) a sliding contact is taken as stopped (as Code_Aster)
SLIP_VELOCITY = 1.0e-6
#: Newton iterations of a step after which the stick/slip branch of each shock is kept
#: fixed (:func:`shock_force`'s ``branch``): the discrete Newmark / HHT kernel
#: (:mod:`.newmark`) and the block's penalty springs
#: (:mod:`rocking_contact.contact.penalty`) both freeze it so
FREEZE_BRANCH_AFTER = 8


@njit(cache=True)
def open_state(d: np.ndarray, n: np.ndarray, S_new: np.ndarray) -> None:
    """State of an open contact: nothing stored but the tangential position."""
    dn = d[0] * n[0] + d[1] * n[1] + d[2] * n[2]
    for i in range(STATE_SIZE):
        S_new[i] = 0.0
    for i in range(3):
        S_new[S_POSITION + i] = d[i] - dn * n[i]


@njit(cache=True)
def normal_force(P: np.ndarray, j: int, pen: float, vn: float) -> float:
    """Normal force magnitude (N) of shock ``j`` at penetration ``pen`` and normal velocity
    ``vn``: ``kn pen + cn vn`` while penetrating, clipped at 0 (obstacles never pull)."""
    if pen <= 0.0:
        return 0.0
    force: float = max(P[j, P_KN] * pen + P[j, P_CN] * vn, 0.0)
    return force


@njit(cache=True)
def shock_force(P: np.ndarray, j: int, d: np.ndarray, dv: np.ndarray,  # noqa: D417
                S: np.ndarray, F: np.ndarray, S_new: np.ndarray, Jd: np.ndarray,
                Jv: np.ndarray, want_jac: bool, branch: int = -1,
                direction: np.ndarray | None = None) -> tuple[float, float, float, float]:
    """Force on the node of shock ``j`` at displacement ``d`` and velocity ``dv`` (3-vectors).

    Writes ``F`` (N), the new state row ``S_new`` and, when ``want_jac``, the Jacobians
    ``Jd = dF/dd`` (N/m) and ``Jv = dF/d(dv)`` (N.s/m). ``branch`` imposes the friction
    branch (0 slide, 1 stick; -1 lets the law decide): Newton freezes it after
    :data:`FREEZE_BRANCH_AFTER` iterations, since the stick-slip decision can otherwise flip
    between iterates; with ``branch = 0`` a given unit ``direction`` of the slip velocity
    fixes the friction force's direction too (near a reversal -vt/|vt| would flip sign
    between iterates). Returns ``(FN, FT, penetration, normal velocity)`` with ``FN >= 0``
    the normal force magnitude and ``FT`` the tangential force magnitude.
    """
    n = P[j, 0:3]
    gap, kn, cn, kt, ct = P[j, P_GAP], P[j, P_KN], P[j, P_CN], P[j, P_KT], P[j, P_CT]
    mu, law = P[j, P_MU], P[j, P_LAW]
    dn = d[0] * n[0] + d[1] * n[1] + d[2] * n[2]
    vn = dv[0] * n[0] + dv[1] * n[1] + dv[2] * n[2]
    pen = dn - gap
    for i in range(3):
        F[i] = 0.0
        if want_jac:
            for k in range(3):
                Jd[i, k] = 0.0
                Jv[i, k] = 0.0
    if pen <= 0.0:
        open_state(d, n, S_new)
        return 0.0, 0.0, pen, vn
    fn = normal_force(P, j, pen, vn)
    if fn <= 0.0:
        # Penetrating but separating fast: damping would pull, and obstacles never pull.
        for i in range(STATE_SIZE):
            S_new[i] = S[i]
        return 0.0, 0.0, pen, vn
    for i in range(3):
        F[i] = -fn * n[i]
    if want_jac:
        for i in range(3):
            for k in range(3):
                Jd[i, k] -= kn * n[i] * n[k]
                Jv[i, k] -= cn * n[i] * n[k]
    xt, vt, ft, spring = np.empty(3), np.empty(3), np.empty(3), np.empty(3)
    for i in range(3):
        xt[i] = d[i] - dn * n[i]
        vt[i] = dv[i] - vn * n[i]
    if law == LAW_EXACT or mu == 0.0:
        open_state(d, n, S_new)
        return fn, 0.0, pen, vn
    speed = np.sqrt(vt[0] ** 2 + vt[1] ** 2 + vt[2] ** 2)
    same_way = (vt[0] * S[S_VELOCITY] + vt[1] * S[S_VELOCITY + 1]
                + vt[2] * S[S_VELOCITY + 2] >= 0.0)
    limit = mu * fn
    if branch >= 0:
        sliding = branch == 0
    else:
        sliding = S[S_STICK] == 0.0 and same_way and speed > SLIP_VELOCITY
    if not sliding:
        for i in range(3):
            spring[i] = S[S_FORCE + i] - kt * (xt[i] - S[S_POSITION + i])
            ft[i] = spring[i] - ct * vt[i]
        if branch < 0:
            sliding = np.sqrt(ft[0] ** 2 + ft[1] ** 2 + ft[2] ** 2) > limit
        if not sliding and want_jac:
            for i in range(3):
                for k in range(3):
                    pt = (1.0 if i == k else 0.0) - n[i] * n[k]
                    Jd[i, k] -= kt * pt
                    Jv[i, k] -= ct * pt
    if sliding and branch == 0 and direction is not None:
        for i in range(3):
            ft[i] = -limit * direction[i]
        if want_jac:
            for i in range(3):
                for k in range(3):
                    Jd[i, k] -= mu * direction[i] * kn * n[k]
                    Jv[i, k] -= mu * direction[i] * cn * n[k]
    elif sliding:
        for i in range(3):
            ft[i] = -limit * vt[i] / speed if speed > 0.0 else 0.0
        if want_jac and speed > 0.0:
            # d(-mu FN e) = -mu e dFN - (mu FN / |vt|) (P_t - e e^T) d(vt)
            for i in range(3):
                e_i = vt[i] / speed
                for k in range(3):
                    q = (1.0 if i == k else 0.0) - n[i] * n[k] - e_i * vt[k] / speed
                    Jd[i, k] -= mu * e_i * kn * n[k]
                    Jv[i, k] -= mu * e_i * cn * n[k] + limit / speed * q
    S_new[S_STICK] = 0.0 if sliding else 1.0
    for i in range(3):
        F[i] += ft[i]
        S_new[S_FORCE + i] = ft[i] if sliding or law == LAW_STORED_DASHPOT else spring[i]
        S_new[S_POSITION + i] = xt[i]
        S_new[S_VELOCITY + i] = vt[i]
    return fn, np.sqrt(ft[0] ** 2 + ft[1] ** 2 + ft[2] ** 2), pen, vn


@njit(cache=True)
def project_disc(f: np.ndarray, radius: float) -> None:
    """Project a vector on the disc of the given radius (in place)."""
    r = np.sqrt(f[0] ** 2 + f[1] ** 2 + f[2] ** 2)
    if r > radius:
        s = radius / r if r > 0.0 else 0.0
        for i in range(3):
            f[i] *= s
