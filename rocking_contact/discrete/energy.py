"""The mechanical energy a discrete run can hold, and the run that exceeds it.

The mechanical energy ``E`` (J: kinetic ``v^T M v / 2``, springs ``x^T K x / 2``, the
shocks' normal springs ``kn p^2 / 2``) grows only by the work of the loads ``q(t) =
p_support gamma(t) + f_const`` (the support's inertia load and gravity): dampers, closed
shocks (``kn p + cn dp/dt``, never pulling) and Coulomb friction take energy away. The
power of the loads is at most ``|q|_{M^-1} |v|_M <= |q|_{M^-1} sqrt(2 E)`` (Cauchy-Schwarz,
``|q|_{M^-1} = sqrt(q^T M^-1 q)``), so ``sqrt(E)`` grows at most by ``|q|_{M^-1} / sqrt(2)``:

    E(t) <= (sqrt(E(t0)) + int_t0^t |q|_{M^-1} dt / sqrt(2))^2.

A run whose energy exceeds :data:`GROWTH` times that bound made its energy itself: an
explicit step above the stability limit, or contacts that open and close between steps
(SDND102 at dt = 1.2e-3 s, 0.91 of the limit with its wall closed, reached 1e93 J in 10 s
where the bound is 507 J). The regularised friction law makes a little energy where a stick
phase starts from the sliding force (at most ``(mu FN)^2 / (2 kt)`` each time), far below
the margin.

Short of that, a run whose energy exceeds :data:`EXCESS` times the bound warns, once: an
implicit step longer than the contact (sdnd101a with Newmark and a 1e12 N/m stop, 0.06
step a contact) multiplies its energy by 9 and stays far below :data:`GROWTH`.
"""

from __future__ import annotations

import numpy as np

from rocking_contact.discrete.system import DiscreteSystem

#: the factor on the bound beyond which a run has diverged (an amplitude 10 times what the
#: initial state and the loads can give). Stable runs stay near 1: SDND102 at Code_Aster's
#: dt = 1e-3 s (0.76 of its stability limit) reaches 1.11 in 10 s; the energy measured
#: with the mean velocity of the leapfrog rings up to 1 / (1 - (omega dt / 2)^2) times the
#: true one on a mode near its limit (10 at 0.95 of it, 50 at 0.99), below this factor.
GROWTH = 100.0

#: the factor on the bound beyond which a run warns (once, docs/discrete.md "Integrators"):
#: the shipped cases and sound variants reach at most 1.255 (SDND101 with central
#: differences at 0.50 of their stability limit, whose measured energy rings by up to
#: 1 / (1 - 0.50^2) = 1.34), the runs that made energy 2.68 (the same at 0.75 of it) and
#: 6.9 to 12 (sdnd101a with Newmark or HHT and a 1e10 to 1e12 N/m stop)
EXCESS = 2.0


def energy_bound(system: DiscreteSystem, gam: np.ndarray, dt: float, e0: float) -> np.ndarray:
    """The largest mechanical energy (J) at each step ``t0 + k dt`` from ``E(t0) = e0``,
    ``gam`` the support acceleration (m/s^2) at those instants (trapezoidal work)."""
    Minv = system.inverse_mass
    p, f = system.p_support, system.f_const
    a, b, c = p @ Minv @ p, p @ Minv @ f, f @ Minv @ f
    if c == 0.0 and (a == 0.0 or not gam.any()):
        # no load (a support that does not move): the energy can only fall, and the bound
        # costs no pass over every step (a quarter of SDND101's run at 1e6 steps)
        return np.full(len(gam), e0)
    load = np.sqrt(np.maximum(a * gam**2 + 2.0 * b * gam + c, 0.0) / 2.0)
    grown = np.concatenate([[0.0], np.cumsum(0.5 * dt * (load[1:] + load[:-1]))])
    bound: np.ndarray = (np.sqrt(e0) + grown) ** 2
    return bound


def first_runaway(energy: np.ndarray, bound: np.ndarray) -> int | None:
    """Index of the first energy above :data:`GROWTH` times its bound, or not finite;
    None if there is none."""
    beyond = np.flatnonzero(~(energy <= GROWTH * bound))
    return int(beyond[0]) if len(beyond) else None


def excess(energy: np.ndarray, bound: np.ndarray) -> tuple[int, int, float] | None:
    """The energies above :data:`EXCESS` times their bound: (index of the first, index of
    the largest ratio, that ratio), or None if there is none."""
    over = np.flatnonzero(energy > EXCESS * bound)
    if not len(over):
        return None
    ratios = energy[over] / bound[over]
    k = int(np.argmax(ratios))
    return int(over[0]), int(over[k]), float(ratios[k])
