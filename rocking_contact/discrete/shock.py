"""The shock law of a node against a plane obstacle (compiled; see :mod:`.case` for the
conventions).

One shock ``j`` has parameters ``P[j] = (nx, ny, nz, gap, kn, cn, kt, ct, mu, exact)`` and
one state variable, the stick anchor (the tangential position where the stick spring is at
rest). :func:`shock_force` returns the force *on the node* and, for Newton, its derivatives
with respect to the node's displacement and velocity. The anchor is updated in a separate
array so that a rejected Newton iterate leaves the committed state untouched.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def shock_force(P, j, d, dv, anchor, F, anchor_new, Jd, Jv, want_jac):  # noqa: D417
    """Force on the node of shock ``j`` at displacement ``d`` and velocity ``dv`` (3-vectors).

    Writes ``F`` (N), the updated anchor, and when ``want_jac`` the Jacobians
    ``Jd = dF/dd`` (N/m) and ``Jv = dF/d(dv)`` (N.s/m). Returns
    ``(FN, FT, penetration, normal velocity)`` with ``FN >= 0`` the normal force magnitude
    and ``FT`` the tangential force magnitude.
    """
    nx, ny, nz = P[j, 0], P[j, 1], P[j, 2]
    gap, kn, cn, kt, ct, mu, exact = P[j, 3], P[j, 4], P[j, 5], P[j, 6], P[j, 7], P[j, 8], P[j, 9]
    n = (nx, ny, nz)
    dn = d[0] * nx + d[1] * ny + d[2] * nz
    vn = dv[0] * nx + dv[1] * ny + dv[2] * nz
    pen = dn - gap
    for i in range(3):
        F[i] = 0.0
        if want_jac:
            for k in range(3):
                Jd[i, k] = 0.0
                Jv[i, k] = 0.0
    if pen <= 0.0:
        # Open: the next contact starts sticking where it touches.
        for i in range(3):
            anchor_new[i] = d[i] - dn * n[i]
        return 0.0, 0.0, pen, vn
    fn = kn * pen + cn * vn
    if fn <= 0.0:
        # Closing penetration with damping that would pull: obstacles never pull.
        for i in range(3):
            anchor_new[i] = anchor[i]
        return 0.0, 0.0, pen, vn
    for i in range(3):
        F[i] = -fn * n[i]
    if want_jac:
        for i in range(3):
            for k in range(3):
                Jd[i, k] -= kn * n[i] * n[k]
                Jv[i, k] -= cn * n[i] * n[k]
    if exact > 0.0 or (kt == 0.0 and ct == 0.0) or mu == 0.0:
        # No stick spring (exact Coulomb is solved at velocity level by the integrator).
        for i in range(3):
            anchor_new[i] = d[i] - dn * n[i]
        return fn, 0.0, pen, vn
    trial = np.empty(3)
    for i in range(3):
        dt_i = d[i] - dn * n[i]
        vt_i = dv[i] - vn * n[i]
        trial[i] = -kt * (dt_i - anchor[i]) - ct * vt_i
    tn = np.sqrt(trial[0] ** 2 + trial[1] ** 2 + trial[2] ** 2)
    limit = mu * fn
    if tn <= limit:
        for i in range(3):
            F[i] += trial[i]
            anchor_new[i] = anchor[i]
        if want_jac:
            for i in range(3):
                for k in range(3):
                    pt = (1.0 if i == k else 0.0) - n[i] * n[k]
                    Jd[i, k] -= kt * pt
                    Jv[i, k] -= ct * pt
        return fn, tn, pen, vn
    # Sliding: the force sits on the Coulomb circle, the anchor follows the node.
    for i in range(3):
        e_i = trial[i] / tn
        F[i] += limit * e_i
        vt_i = dv[i] - vn * n[i]
        dt_i = d[i] - dn * n[i]
        anchor_new[i] = dt_i + (limit * e_i + ct * vt_i) / kt if kt > 0.0 else dt_i
    if want_jac:
        # dF_t = mu e dFN + (limit/|trial|) (P_t - e e^T) d(trial), e tangential.
        for i in range(3):
            e_i = trial[i] / tn
            for k in range(3):
                e_k = trial[k] / tn
                q = (1.0 if i == k else 0.0) - n[i] * n[k] - e_i * e_k
                Jd[i, k] += mu * e_i * kn * n[k] - limit / tn * kt * q
                Jv[i, k] += mu * e_i * cn * n[k] - limit / tn * ct * q
    return fn, limit, pen, vn


@njit(cache=True)
def project_disc(f, radius):
    """Project a vector on the disc of the given radius (in place)."""
    r = np.sqrt(f[0] ** 2 + f[1] ** 2 + f[2] ** 2)
    if r > radius:
        s = radius / r if r > 0.0 else 0.0
        for i in range(3):
            f[i] *= s
