"""The mechanical energy a discrete run can hold, the run that exceeds it, and the energy
columns of its history with their balance (:func:`energy_columns`, :func:`balance_summary`).

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
phase starts from the sliding force (at most ``(mu FN)^2 / (2 kt)`` each time; the history's
``ESTICK``, :func:`energy_columns`), far below the margin.

Short of that, a run whose energy exceeds :data:`EXCESS` times the bound warns, once: an
implicit step longer than the contact (sdnd101a with Newmark and a 1e12 N/m stop, 0.06
step a contact) multiplies its energy by 9 and stays far below :data:`GROWTH`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rocking_contact.discrete.case import SHOCK_CHANNELS, shock_columns
from rocking_contact.discrete.recording import FRICTION_CHANNELS, friction_shocks
from rocking_contact.discrete.shock import (
    LAW_EXACT,
    LAW_STORED_DASHPOT,
    P_CT,
    P_KN,
    P_KT,
    P_LAW,
    P_MU,
)
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
#: 1 / (1 - 0.50^2) = 1.34), runs that make energy 2.68 (the same at 0.75 of it) and
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


def work(force: np.ndarray, displacement: np.ndarray) -> np.ndarray:
    """The work (J) of a ``force`` along a ``displacement`` from the first row on (0
    there), one value a row: ``sum 1/2 (f_n + f_{n+1}) . (u_{n+1} - u_n)`` over the rows
    before (rows, or rows x components; N and m, or a load on the unknowns and the
    unknowns). The increments are the scheme's own: the average-acceleration Newmark
    balances ``M (v_{n+1} - v_n) = dt (f_n + f_{n+1}) / 2`` along ``x_{n+1} - x_n = dt
    (v_n + v_{n+1}) / 2``, so that these works close its balance to round-off, where
    powers ``f . v`` integrated by the trapezoid carry the quadrature's error (twomass
    under Newmark: 1.1e-4 J of 3.1 J, 1.4e-8 J in increments; the block's balance,
    :mod:`rocking_contact.fem.energy_balance`, takes its works so too)."""
    out = np.zeros(len(force))
    if len(force) > 1:
        f = force.reshape(len(force), -1)
        u = displacement.reshape(len(displacement), -1)
        out[1:] = np.cumsum(np.sum(0.5 * (f[1:] + f[:-1]) * np.diff(u, axis=0), axis=1))
    return out


def quadratic(rows: np.ndarray, A: np.ndarray) -> np.ndarray:
    """``r^T A r`` for each row ``r`` of ``rows``."""
    out: np.ndarray = np.sum((rows @ A) * rows, axis=1)
    return out


def stick_stiffness(system: DiscreteSystem, step: float) -> np.ndarray:
    """Per shock, the stiffness (N/m) of its stick spring: ``kt``, ``kt + ct / step`` where
    the law stores the dashpot's force too (``friction = "stored_dashpot"``, :mod:`.shock`;
    ``step`` the time step, s), 0 without one (frictionless, the exact law)."""
    P = system.shock_params
    stiffness: np.ndarray = np.where(P[:, P_LAW] == LAW_STORED_DASHPOT,
                                     P[:, P_KT] + P[:, P_CT] / step, P[:, P_KT])
    stiffness[(P[:, P_MU] == 0.0) | (P[:, P_LAW] == LAW_EXACT)] = 0.0
    return stiffness


class StickSprings(NamedTuple):
    """The stick springs of the shocks with friction (:func:`.recording.friction_shocks`)
    at a history's rows: ``rubbing`` those shocks' indices, ``kt`` their stick springs'
    stiffness (N/m, :func:`stick_stiffness`; 0 without one), per row and such shock
    whether it is closed (``closed``) and sticks on its spring (``sticks``), and what the
    spring holds, ``|Fs|^2 / (2 kt)`` (``held``, J; 0 without a spring)."""

    rubbing: np.ndarray
    kt: np.ndarray
    closed: np.ndarray
    sticks: np.ndarray
    held: np.ndarray


def stick_springs(system: DiscreteSystem, shocks: dict[str, np.ndarray],
                  friction: np.ndarray, step: float) -> StickSprings:
    """The stick springs of ``system``'s shocks with friction at the rows of their channels
    ``shocks`` and ``friction`` (as :func:`energy_columns` takes them; ``step`` the time
    step, s)."""
    names = system.shock_names
    rubbing = friction_shocks(system.shock_params)
    kt = stick_stiffness(system, step)[rubbing]
    closed = np.zeros((len(friction), len(rubbing)), dtype=bool)
    for i, j in enumerate(rubbing):
        closed[:, i] = shocks[f"FN_{names[j]}"] > 0.0
    sticks = closed & (friction[:, :, 3] == 1.0) & (kt > 0.0)
    held = 0.5 * np.sum(friction[:, :, 4:7] ** 2, axis=2) / np.where(kt > 0.0, kt, 1.0)
    return StickSprings(rubbing, kt, closed, sticks, held)


def stored_energies(system: DiscreteSystem, x: np.ndarray, v: np.ndarray,
                    shocks: dict[str, np.ndarray], springs: StickSprings
                    ) -> dict[str, np.ndarray]:
    """What the states hold at each row (J; arguments as :func:`energy_columns`'s), named as
    the block's columns (:mod:`rocking_contact.contact.penalty`).

    - ``EKIN`` ``v^T M v / 2``, ``EELAS`` the model's springs ``x^T K x / 2``, ``EPOT_GRAV``
      (with gravity) ``-f_g^T x``, 0 at the undeformed state; ``ETOT`` their sum;
    - ``ESPRING`` (with shocks) what the shocks' springs store: the normal ones' ``kn p^2 /
      2`` where ``p > 0``, and a closed shock's stick spring's ``|Fs|^2 / (2 kt)`` while it
      sticks (``springs``, :func:`stick_springs`; sliding, the law tracks no stretch and it
      stores nothing); with ``EKIN`` and ``EELAS``, the mechanical energy (the runaway
      guard, :func:`.recording.mechanical_energy`, watches the normal springs only).
    """
    out = {"EKIN": 0.5 * quadratic(v, system.M), "EELAS": 0.5 * quadratic(x, system.K)}
    total = out["EKIN"] + out["EELAS"]
    if system.f_const.any():
        out["EPOT_GRAV"] = -(x @ system.f_const)
        total = total + out["EPOT_GRAV"]
    out["ETOT"] = total
    names = system.shock_names
    if names:
        kn = system.shock_params[:, P_KN]
        out["ESPRING"] = sum((0.5 * kn[j] * np.maximum(shocks[f"PN_{name}"], 0.0) ** 2
                              for j, name in enumerate(names)), np.zeros(len(x)))
        if springs.kt.any():
            out["ESPRING"] = out["ESPRING"] + np.sum(
                np.where(springs.sticks, springs.held, 0.0), axis=1)
    return out


def step_works(system: DiscreteSystem, x: np.ndarray, v: np.ndarray,
               shocks: dict[str, np.ndarray], gam: np.ndarray, friction: np.ndarray,
               springs: StickSprings,
               moving: bool) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The works from the first row when the rows are the steps (J; arguments as
    :func:`energy_columns`'s, ``springs`` :func:`stick_springs`'s), each a sum over the
    steps of the mean of its force at the step's two ends times the step's displacement,
    ``sum 1/2 (F_n + F_{n+1}) . (x_{n+1} - x_n)`` (:func:`work`: the schemes' increments,
    so that the residual is the scheme's, not a quadrature's), and what they take from the
    mechanical energy, ``EDAMP + ECONTACT - ETABLE`` (the residual's part).

    - ``EDAMP`` (with dampers) ``sum 1/2 (C v_n + C v_{n+1}) . (x_{n+1} - x_n)``, what the
      linear damping dissipated (``int v^T C v dt``);
    - ``EFRICTION`` (with friction) ``-sum 1/2 (Ft_n + Ft_{n+1}) . (u_{n+1} - u_n)``,
      ``u`` the shock node's displacement (global x, y, z): the work the friction forces
      took from the nodes, signed (``-int Ft . v_t dt``). Sliding it is Coulomb's
      dissipation ``mu FN |v_t|``; a regularised shock that sticks holds its force with a
      spring and a dashpot, whose store (in ``ESPRING``) it takes and gives back;
    - ``ESTICK`` (with regularised friction) what the law hands a stick spring that sticks
      again after sliding: it starts from the sliding force ``Fs`` as if stretched,
      ``|Fs|^2 / (2 kt)`` that no work put there, a source of energy as the support's drag
      is (the block's ``ESTICK``). The friction dissipated ``EFRICTION + ESTICK`` less the
      stick springs' part of ``ESPRING``;
    - ``ECONTACT`` (with shocks) the energy the shocks took from the nodes: ``sum 1/2
      (FN_n + FN_{n+1}) (PN_{n+1} - PN_n)`` (``FN >= 0`` pushes the node back along
      ``-n``, ``PN`` the penetration, > 0 closed, growing towards the obstacle: ``int FN
      VN dt``; the normal springs' store, less its initial value, and what the normal
      dashpots and the springs let go open dissipated) plus ``EFRICTION``;
    - ``ETABLE`` (with a support acceleration) the work of the support frame's drag
      ``p gamma(t)`` (``p`` :attr:`.system.DiscreteSystem.p_support`, ``-M`` times the
      support's rigid motion: kg in physical space) on the motion relative to the support,
      which ``x`` is, ``sum 1/2 (gamma_n + gamma_{n+1}) p . (x_{n+1} - x_n)`` (``int gamma
      p^T v dt``).
    """
    rows, names = len(x), system.shock_names
    out: dict[str, np.ndarray] = {}
    loss = np.zeros(rows)
    if system.C.any():
        out["EDAMP"] = work(v @ system.C.T, x)
        loss = loss + out["EDAMP"]
    if names:
        contact = sum((work(shocks[f"FN_{name}"], shocks[f"PN_{name}"]) for name in names),
                      np.zeros(rows))
        if len(springs.rubbing):
            taken = np.zeros(rows)
            for i, j in enumerate(springs.rubbing):
                node_x = x @ system.G[3 * j:3 * j + 3].T  # (rows, 3), m
                taken -= work(friction[:, i, :3], node_x)
            out["EFRICTION"] = taken
            contact = contact + out["EFRICTION"]
        if springs.kt.any():
            # a row that sticks after one that slid, the shock closed at both
            restuck = (springs.sticks[1:] & springs.closed[:-1]
                       & (friction[:-1, :, 3] == 0.0))
            out["ESTICK"] = np.concatenate(
                [[0.0], np.cumsum(np.sum(np.where(restuck, springs.held[:-1], 0.0), axis=1))])
        out["ECONTACT"] = contact
        loss = loss + contact
    if moving and system.p_support.any():
        out["ETABLE"] = work(gam, x @ system.p_support)
        loss = loss - out["ETABLE"]
    return out, loss


def energy_columns(system: DiscreteSystem, t: np.ndarray, x: np.ndarray, v: np.ndarray,
                   shocks: dict[str, np.ndarray], gam: np.ndarray, friction: np.ndarray,
                   step: float, stepwise: bool, moving: bool) -> dict[str, np.ndarray]:
    """The energy columns of a discrete run's history (J, one value a row), each computed
    from the recorded states, none from the balance: ``x``, ``v`` (rows x unknowns, the
    unknowns' units: :class:`.system.DiscreteSystem`) at the instants ``t`` (s), the
    shocks' channels ``shocks`` (``FN_<S>``, ``FT_<S>``, ``VN_<S>``, ``PN_<S>``), the
    ``friction`` of those with friction (rows x those shocks,
    :func:`.recording.friction_shocks`, x :data:`.recording.FRICTION_CHANNELS`: the
    tangential force on the node ``Ft``, N, global x, y, z; the law's stick flag; its
    stick spring's force ``Fs``, N) and the support acceleration ``gam`` (m/s^2) there;
    ``step`` is the time step (s); ``moving``: the case drives its support (an
    acceleration other than zero), which the columns follow, not the rows' values, so that
    the case knows them before it runs (:func:`energy_names`).

    The columns, in order: what the states store (:func:`stored_energies`: ``EKIN``,
    ``EELAS``, ``EPOT_GRAV``, ``ETOT``, ``ESPRING``); when the rows are the steps
    (``stepwise``; works over rows ``output.every`` steps apart would miss contacts shorter
    than that: not written then), the works from the first row (:func:`step_works`:
    ``EDAMP``, ``EFRICTION``, ``ESTICK``, ``ECONTACT``, ``ETABLE``) and

    - ``ENERGY_RESIDUAL`` ``ETOT - ETOT(t0) + EDAMP + ECONTACT - ETABLE``: what the time
      scheme creates (> 0) or dissipates (< 0), as the block's. The average-acceleration
      Newmark's closes to its Newton tolerance and round-off (twomass: 1e-8 J of 3.1 J),
      HHT's is its dissipation (< 0); central differences keep ``v_{n-1/2}^T M v_{n+1/2}
      / 2 + ...`` and the residual is what the reported mean velocity ``v_n`` adds to it,
      ``dt^2 a_n^T M a_n / 8``, less its value at t0 (1.1e-4 J at twomass's first
      impact; SDND100 A, stuck, ends at minus its start's, 1.76e-6 J), with dampers
      also what their force at the estimate ``v_{n-1/2} + dt a_{n-1} / 2`` works less
      ``C v_n``'s (a damped twomass: -4.5e-6 J by 0.5 s).
    """
    springs = stick_springs(system, shocks, friction, step)
    out = stored_energies(system, x, v, shocks, springs)
    if not stepwise:
        return out
    works, loss = step_works(system, x, v, shocks, gam, friction, springs, moving)
    out.update(works)
    total = out["ETOT"]
    out["ENERGY_RESIDUAL"] = total - (total[0] if len(t) else 0.0) + loss
    return out


def energy_names(system: DiscreteSystem, step: float, stepwise: bool, moving: bool
                 ) -> list[str]:
    """The energy columns :func:`energy_columns` writes for ``system`` (same arguments), in
    order: those of a history of no row."""
    rows, n = 0, len(system.M)
    shocks = {column: np.zeros(rows)
              for column in shock_columns(SHOCK_CHANNELS, system.shock_names)}
    friction = np.zeros((rows, len(friction_shocks(system.shock_params)), FRICTION_CHANNELS))
    return list(energy_columns(system, np.zeros(rows), np.zeros((rows, n)),
                               np.zeros((rows, n)), shocks, np.zeros(rows), friction, step,
                               stepwise, moving))


def balance_summary(history: dict[str, np.ndarray]) -> dict[str, float]:
    """The largest ``|ENERGY_RESIDUAL|`` of a discrete run (J), when and its final value,
    against the largest mechanical energy the run held (``motion``, J: ``EKIN + EELAS +
    ESPRING``), and what the regularised friction law supplied (``stick_supplied``, J:
    ``ESTICK``'s final value, with the column); empty without the column or a row."""
    if "ENERGY_RESIDUAL" not in history or not len(history["time"]):
        return {}
    residual = np.asarray(history["ENERGY_RESIDUAL"])
    worst = int(np.argmax(np.abs(residual)))
    mechanical = history["EKIN"] + history["EELAS"] + history.get("ESPRING", 0.0)
    out = {"residual_final": float(residual[-1]),
           "residual_max_abs": float(abs(residual[worst])),
           "residual_max_time": float(history["time"][worst]),
           "motion": float(np.max(mechanical))}
    if out["motion"] > 0.0:
        out["residual_relative"] = out["residual_max_abs"] / out["motion"]
    if "ESTICK" in history:
        out["stick_supplied"] = float(history["ESTICK"][-1])
    return out
