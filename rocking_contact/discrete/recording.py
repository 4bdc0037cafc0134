"""What the discrete kernels record: the history rows of the recorded steps, the shocks'
rows around their contacts, and the mechanical energy that guards a run (compiled).

A history row holds, after the recorded dofs' x, v, a and the shocks' channels, what the
energy columns need of each shock with friction (:data:`FRICTION_CHANNELS`, not written to
the history; none for a frictionless shock, whose rows stay as short as they were): the
tangential force's global components and the stick spring's state."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from rocking_contact.discrete.shock import P_KN, P_MU, S_FORCE, S_STICK

#: per shock with friction (:func:`friction_shocks`), after the shocks' channels: the
#: tangential force on the node (N, global x, y, z; zero where the shock is open), the
#: law's stick flag (1 sticks) and its stick spring's force (N, global x, y, z;
#: :mod:`.shock`'s ``S_FORCE``: the sliding force while it slides)
FRICTION_CHANNELS = 7


def friction_shocks(P: np.ndarray) -> np.ndarray:
    """The indices of the shocks with friction (``mu > 0``) among the shock parameters
    ``P``: those whose :data:`FRICTION_CHANNELS` a row holds, in this order."""
    found: np.ndarray = np.flatnonzero(P[:, P_MU] > 0.0)
    return found


@njit(cache=True)
def mechanical_energy(M: np.ndarray, K: np.ndarray, diag: bool, P: np.ndarray,
                      x: np.ndarray, v: np.ndarray, pn: np.ndarray) -> float:
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
            e += 0.5 * P[j, P_KN] * pn[j] * pn[j]
    return e


@njit(cache=True)
def record(rec: np.ndarray, r: int, step: int, R: np.ndarray, x: np.ndarray, v: np.ndarray,
           a: np.ndarray, fn: np.ndarray, ft: np.ndarray, vn: np.ndarray, pn: np.ndarray,
           ftv: np.ndarray, state: np.ndarray, slots: np.ndarray, energy: float) -> int:
    """Row ``r`` of ``rec``, the state of step ``step`` (``x``, ``v``, ``a`` in the
    unknowns' units; ``R`` the kernels' argument, :mod:`.stepping`): the recorded dofs'
    displacements, velocities, accelerations, the shocks' channels (``fn``, ``ft``, ``vn``,
    ``pn``: N, N, m/s, m), the :data:`FRICTION_CHANNELS` of those with friction (``ftv`` the
    tangential forces, ns x 3, N; ``state`` the law's state rows; ``slots`` per shock its
    place among :func:`friction_shocks`, -1 without friction), then the mechanical
    ``energy`` (J, :func:`mechanical_energy`) and the step's number, the last two columns.
    Returns the next row.

    (The caller computes the energy: every array argument of a compiled call is referenced
    and released at each call, and ``M``, ``K``, ``P`` passed on to here took a 1-dof
    Newmark step 13 % longer.)"""
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
        if slots[j] >= 0:
            c = base + 4 * ns + FRICTION_CHANNELS * slots[j]
            rec[r, c + 3] = state[j, S_STICK]
            for i in range(3):
                rec[r, c + i] = ftv[j, i]
                rec[r, c + 4 + i] = state[j, S_FORCE + i]
    rec[r, rec.shape[1] - 1] = step
    return r + 1


@njit(cache=True)
def any_closed(fn: np.ndarray, opens: np.ndarray) -> bool:
    """Whether a shock that can open pushes (``fn > 0`` where ``opens``): a shock that
    cannot (:attr:`.system.DiscreteSystem.always_closed`, a preloaded pad) pushes at every
    step, and would have every step recorded for contacts it never makes."""
    for j in range(fn.size):
        if opens[j] and fn[j] > 0.0:
            return True
    return False


@njit(cache=True)
def record_contact(srec: np.ndarray, sr: int, step: int, fn: np.ndarray, vn: np.ndarray,
                   pn: np.ndarray) -> int:
    """Row ``[step, FN..., VN..., PN...]`` of the shocks, for the impacts; returns the rows
    written. With ``output.every`` > 1 the kernels write one at every step where a shock
    that can open is closed (:func:`any_closed`) and at the steps just before and after
    (the samples of the contact's edges), whatever is recorded in the history."""
    ns = fn.size
    srec[sr, 0] = step
    for j in range(ns):
        srec[sr, 1 + j], srec[sr, 1 + ns + j], srec[sr, 1 + 2 * ns + j] = fn[j], vn[j], pn[j]
    return sr + 1


@dataclass
class Chunk:
    """Records of a chunk of steps: ``rows`` (records x channels), the step numbers and the
    mechanical energy at them (J, :func:`mechanical_energy`); ``contacts``, with
    ``output.every`` > 1, the shocks' rows at every step around their contacts (see
    :func:`record_contact`; empty otherwise)."""

    steps: np.ndarray
    rows: np.ndarray
    energy: np.ndarray
    contacts: np.ndarray



def chunk(rows: np.ndarray, contacts: np.ndarray) -> Chunk:
    """A :class:`Chunk` from the kernels' buffers (energy and step number last in
    ``rows``)."""
    return Chunk(steps=rows[:, -1].astype(np.int64), rows=rows[:, :-2], energy=rows[:, -2],
                 contacts=contacts)
