"""The Coulomb oscillator of SDND100: a mass on a spring sliding with dry friction.

A mass ``m`` on a spring ``k`` slides on a plane pressed by a constant normal force ``N``
with Coulomb coefficient ``mu``; released at rest from ``u0 > 0``. Each half-cycle lasts
``pi/w0`` (``w0 = sqrt(k/m)``) and the amplitude drops by ``2c`` with ``c = mu N / k``:
the velocity vanishes at ``t_j = j pi / w0`` at ``r_j = (-1)^j (u0 - 2 j c)``, until
``|r_j| <= c`` where the spring can no longer overcome friction and the mass sticks.
"""

from __future__ import annotations

import math

import numpy as np


def reversals(m: float, k: float, mu: float, normal_force: float, u0: float
              ) -> list[tuple[float, float]]:
    """(instant, displacement) of every zero of the velocity, the last one being the stop
    (s, m).

    Args:
        m: mass (kg).
        k: spring stiffness (N/m).
        mu: Coulomb coefficient (-).
        normal_force: constant normal force pressing the mass on the plane (N, > 0).
        u0: initial displacement, the mass at rest (m; 0 where the spring is unstretched).

    """
    w0 = math.sqrt(k / m)
    c = mu * normal_force / k
    out = []
    r, j = u0, 0
    while abs(r) > c:
        j += 1
        r = -math.copysign(abs(r) - 2 * c, r)
        out.append((j * math.pi / w0, r))
    return out


def displacement(t: np.ndarray, m: float, k: float, mu: float, normal_force: float,
                 u0: float) -> np.ndarray:
    """Exact displacement u(t) (m) of the Coulomb oscillator released at rest from ``u0``,
    at the instants ``t`` (s, from the release); the other arguments as in
    :func:`reversals` (kg, N/m, -, N, m)."""
    w0 = math.sqrt(k / m)
    c = mu * normal_force / k
    t = np.asarray(t, dtype=float)
    u = np.empty_like(t)
    start, r = 0.0, u0
    stops = reversals(m, k, mu, normal_force, u0)
    for t_end, r_end in stops:
        # Sliding toward -sign(r): friction shifts the centre of oscillation to sign(r) c.
        centre = math.copysign(c, r)
        mask = (t >= start) & (t <= t_end)
        u[mask] = centre + (r - centre) * np.cos(w0 * (t[mask] - start))
        start, r = t_end, r_end
    u[t > start] = r
    return u
