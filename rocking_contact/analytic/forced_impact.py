"""The SDND102 oscillator: a base-excited mass-spring hitting a wall, integrated exactly.

In the displacement ``x`` relative to the support (wall on the +x side at gap ``j``):
``m x'' + k x + kc <x - j>_+ = -m gamma(t)``, ``x(0) = x'(0) = 0``. The equation is linear
in each regime (free, in contact); the switching instants are located as events and each
regime is integrated with a tight tolerance, so the result is a reference to ~1e-10.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.integrate import solve_ivp

from rocking_contact.analytic.events import ivp_event


def response(times: np.ndarray, *, m: float, k: float, kc: float, gap: float,
             acceleration: Callable[[float], float], rtol: float = 1e-12) -> np.ndarray:
    """X (m) at the increasing ``times`` (s), starting from rest at t = 0."""
    times = np.asarray(times, dtype=float)

    def rhs(contact: bool) -> Callable[[float, np.ndarray], list[float]]:
        def f(t: float, y: np.ndarray) -> list[float]:
            force = -k * y[0] - (kc * (y[0] - gap) if contact else 0.0)
            return [y[1], force / m - acceleration(t)]
        return f

    def crossing(t: float, y: np.ndarray) -> float:
        distance: float = y[0] - gap
        return distance

    t, y = 0.0, np.array([0.0, 0.0])
    end = float(times[-1])
    out = np.full(times.shape, np.nan)
    contact = gap < 0
    while t < end:
        # Free flight ends on an upward crossing of the wall, contact on a downward one.
        event = ivp_event(crossing, -1.0 if contact else 1.0, True)
        sol = solve_ivp(rhs(contact), (t, end), y, method="DOP853", rtol=rtol,
                        atol=rtol * 1e-3, events=event, dense_output=True)
        t_stop = float(sol.t[-1])
        sel = (times >= t) & (times <= t_stop)
        if sel.any():
            out[sel] = sol.sol(times[sel])[0]
        if sol.status != 1:
            break
        t = float(sol.t_events[0][0])
        y = sol.y_events[0][0].copy()
        y[0] = gap
        contact = not contact
    return out
