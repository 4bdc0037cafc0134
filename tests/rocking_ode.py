"""The rigid block rocking on a table shaken by ux = a sin(2 pi f t), integrated with scipy
independently of rocking_contact.analytic: what the package's rigid solver and the case
files' rigid references are checked against (tests/analytic, tests/contact)."""

import math

from scipy.integrate import solve_ivp

G, B, L = 9.81, 0.18, 0.40  # gravity (m/s^2), the SDNV105 block's half width, half height (m)
RESTITUTION = 1 - 3 * B**2 / (2 * (B**2 + L**2))  # Housner: omega after / omega before


def uplift_time(amplitude: float, frequency: float) -> float:
    """Where a sin(2 pi f t) (m/s^2, Hz) first reaches g b / l: the still block lifts (s)."""
    return math.asin(G * B / (L * amplitude)) / (2 * math.pi * frequency)


def rocking(t0, theta0, theta_dot0, corner, t_end, amplitude=0.0, frequency=1.0):
    """From theta0 (rad), theta_dot0 (rad/s) at t0 (s) on ``corner`` ("O" or "A") to t_end
    or the landing, where theta crosses 0 (scipy's event), the table shaken by ``amplitude``
    (m/s^2) at ``frequency`` (Hz), or still. Theta > 0 turns the block about O;
    4/3 M R^2 theta'' = M R (ux cos(alpha -+ theta) -+ g sin(alpha -+ theta)), -+ for O, A,
    alpha = atan(b / l). DOP853, rtol 1e-12; dense output."""
    radius, alpha = math.hypot(B, L), math.atan2(B, L)
    side = 1.0 if corner == "O" else -1.0

    def rhs(t, y):
        ux = amplitude * math.sin(2 * math.pi * frequency * t)
        arm = alpha - side * y[0]
        return [y[1], 3 / (4 * radius) * (ux * math.cos(arm) - side * G * math.sin(arm))]

    def flat(t, y):
        return y[0]

    flat.terminal, flat.direction = True, -side
    return solve_ivp(rhs, (t0, t_end), [theta0, theta_dot0], method="DOP853", rtol=1e-12,
                     atol=1e-15, events=flat, dense_output=True, first_step=1e-6)
