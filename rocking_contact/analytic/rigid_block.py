"""Rigid-block rocking on a table (Housner's model), after the SDNV105 manual, section 2.1.

The model
---------
A rigid rectangle of half-width ``b`` and half-height ``l`` (mass ``M``, centre of mass G)
stands on a horizontal table. It never slides and never jumps: it either rests flat, or
rotates about one of its base corners, O (bottom-left) or A (bottom-right). One angle
``theta`` (rad) describes it:

- ``theta > 0``: rotation about O, counter-clockwise, corner A lifted by ``2 b sin(theta)``;
- ``theta < 0``: rotation about A, clockwise, corner O lifted by ``2 b sin(-theta)``;
- ``omega = d theta / dt`` (rad/s), same sign convention.

With ``R = sqrt(b^2 + l^2)`` (corner to G), ``theta0 = atan2(l, b)`` (the angle (OA, OG)),
``J = J_G + M R^2 = 4/3 M R^2`` (the inertia about either corner), the table acceleration
``(ux, uy)`` (m/s^2, x to the right, y up) and ``s = +1`` on O, ``-1`` on A, the equation
of the manual reads, in one line for both pivots::

    J theta'' = M R [ux sin(theta0 + |theta|) - s (g + uy) cos(theta0 + |theta|)]

(about O: ``J theta'' + M R (uy + g) cos(theta0 + theta) - M R ux sin(theta0 + theta) = 0``;
about A its mirror image). Its first-order form, exact to ``O(theta^2)``, replaces
``R sin(theta0 + |theta|)`` by ``l + b |theta|`` and ``R cos(theta0 + |theta|)`` by
``b - l |theta|``; without table motion it is the manual's
``4/3 M R^2 theta'' + M b g - M l g theta = 0``.

Impacts: when ``theta`` comes back to 0 the lifted corner hits the table and becomes the new
pivot. With no rebound (the new pivot stays put), the angular momentum about the new pivot is
conserved through the impact, which gives ``omega+ = e omega-`` with
``e = (2 R^2 - 3 b^2) / (2 R^2)`` (0.7474 for SDNV105): the block keeps turning the same way,
now about the other corner, and loses ``1 - e^2`` (44 %) of its kinetic energy. The
percussion is the jump of momentum ``M (vG+ - vG-)``, applied at the new pivot.

A squat block, ``b >= sqrt(2) l``, has ``e <= 0``: turning about the new pivot at
``e omega-`` would drive the old one into the table. Both corners land, and with no rebound
and no sliding the block stops flat (``omega+ = 0``, :func:`rebound`): the percussion is the
whole momentum ``-M vG-``, shared by the corners, the old pivot taking
``M |omega-| (b^2 - 2 l^2) / (3 b)``, which is >= 0 exactly when ``e <= 0`` (for ``e > 0``
it would pull the table, and the block rocks on about the new pivot alone).

Reactions and percussions (sign conventions of the manual and of Code_Aster's output):
``RN`` is the normal force at a corner (N, positive in compression); ``RX`` is the
horizontal force the block exerts on the table (N, along +x). The table's reaction on the
block is ``(-RX, RN)``. With this convention the manual's free-flight values are
``RX_O = -1149.79 N`` while rocking on O and ``RX_A = +1149.79 N`` while rocking on A.
Percussions ``percussion_y``, ``percussion_x`` (N.s) follow the same convention.

The module also holds the manual's closed-form first-order sequences of impacts
(:func:`closed_form`) and their "recalage" with effective coefficients measured on an
elastic simulation (:func:`recalage`). The exact integration of the equations, with impact
events, is in :mod:`rocking_contact.analytic.rigid_motion`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Literal

from rocking_contact.block import (
    Geometry,
    Loading,
    Material,
    block_mass,
    corner_radius,
    static_overturn_angle,
)

Corner = Literal["O", "A"]
Equation = Literal["linearised", "nonlinear"]

#: the pivot sign s of a corner: +1 for O (theta > 0), -1 for A (theta < 0)
PIVOT_SIGN: dict[Corner, int] = {"O": 1, "A": -1}

#: |omega| after an impact, in units of sqrt(g/R) (1/s), below which the block is at rest
#: flat: the flight it would start lasts ~1e-10 s. It also ends the accumulation of ever
#: shorter flights that a coefficient ``e < 1`` produces (a Zeno point, 0.3728 s for SDNV105).
REST_VELOCITY = 1.0e-9


def rebound(restitution: float) -> float:
    """omega+/omega- an impact leaves (no unit): ``restitution``, or 0 when it is <= 0 (a
    squat block: both corners land and it stops flat, see the module docstring)."""
    return max(restitution, 0.0)


def other_corner(corner: Corner) -> Corner:
    """The corner that is not ``corner``."""
    return "A" if corner == "O" else "O"


@dataclass(frozen=True)
class RigidBlock:
    """A rigid rectangular block rocking on a table (SI units).

    Attributes:
        half_width: b (m).
        half_height: l (m).
        mass: M (kg).
        gravity: g (m/s^2), along -y.

    """

    half_width: float
    half_height: float
    mass: float
    gravity: float = 9.81

    @classmethod
    def from_parameters(cls, geometry: Geometry, material: Material,
                        loading: Loading) -> RigidBlock:
        """The block of a case file's ``[geometry]``, ``[material.block]``, ``[loading]``."""
        return cls(half_width=geometry.half_width, half_height=geometry.half_height,
                   mass=block_mass(geometry, material), gravity=loading.gravity)

    # -- geometry and inertia ---------------------------------------------------------------

    @property
    def radius(self) -> float:
        """R = sqrt(b^2 + l^2), from a base corner to G (m)."""
        return corner_radius(self.half_width, self.half_height)

    @property
    def theta0(self) -> float:
        """The angle (OA, OG) = atan2(l, b) (rad)."""
        return math.atan2(self.half_height, self.half_width)

    @property
    def inertia(self) -> float:
        """J = J_G + M R^2 = 4/3 M R^2, the inertia about a base corner (kg m^2)."""
        return 4.0 / 3.0 * self.mass * self.radius**2

    @property
    def restitution(self) -> float:
        """omega+/omega- from the angular momentum about the new pivot (no rebound).

        Before the impact (rotating about the old corner, theta = 0) the angular momentum
        about the new corner is ``J_G omega- + M (l^2 - b^2) omega-``; after it, it is
        ``J omega+``. Hence ``e = (2 R^2 - 3 b^2) / (2 R^2)``, <= 0 for a squat block
        (``b >= sqrt(2) l``), which stops flat at its impact (:func:`rebound`).
        """
        b, h, m = self.half_width, self.half_height, self.mass
        j_g = m * (b * b + h * h) / 3.0
        return (j_g + m * (h * h - b * b)) / self.inertia

    @property
    def rest_velocity(self) -> float:
        """|omega| (rad/s) after an impact below which the block lies flat:
        :data:`REST_VELOCITY` sqrt(g/R)."""
        return REST_VELOCITY * math.sqrt(self.gravity / self.radius)

    def rest_note(self, restitution: float, index: int = 1) -> str:
        """Why impact ``index`` (from 1), with ``restitution``, leaves the block at rest
        flat (one phrase)."""
        if restitution > 0.0:
            return "impact left no motion"
        ratio = self.half_width / self.half_height
        why = (f" for b/l = {ratio:.4g} {'>' if ratio > math.sqrt(2) else '>='} sqrt(2)"
               if restitution == self.restitution else "")
        which = "the first impact" if index == 1 else f"impact {index}"
        return (f"{which} stops it: restitution {restitution:.3g} <= 0{why}, both corners "
                "land")

    @property
    def free_rate(self) -> float:
        """The rate p = sqrt(3 g l / (4 R^2)) (1/s): linearised flights go like cosh(p t)."""
        return math.sqrt(self.mass * self.gravity * self.half_height / self.inertia)

    @property
    def rocking_frequency(self) -> float:
        """omega_r = sqrt(M g R / J) = sqrt(3 g / (4 R)) (1/s), the manual's 4.0956."""
        return math.sqrt(self.mass * self.gravity * self.radius / self.inertia)

    def overturn_angle(self, equation: Equation = "nonlinear") -> float:
        """|theta| of the unstable equilibrium over a corner, without table motion (rad):
        :func:`~rocking_contact.block.static_overturn_angle` of this block for ``equation``
        (nonlinear: G above the pivot, ``atan(b/l)``; linearised equation: ``b/l``)."""
        return static_overturn_angle(self.half_width, self.half_height,
                                     linearised=equation == "linearised")

    def uplift_acceleration(self, vertical: float = 0.0) -> float:
        """|ux| above which a block resting flat starts rocking: (g + uy) b / l (m/s^2)."""
        return (self.gravity + vertical) * self.half_width / self.half_height

    # -- equations of motion ----------------------------------------------------------------

    def _arms(self, theta: float, equation: Equation) -> tuple[float, float]:
        """(R cos(theta0 + |theta|), R sin(theta0 + |theta|)): horizontal and vertical
        distance from the pivot to G (m), exact or to first order in theta."""
        b, h, a = self.half_width, self.half_height, abs(theta)
        if equation == "linearised":
            return b - h * a, h + b * a
        return b * math.cos(a) - h * math.sin(a), h * math.cos(a) + b * math.sin(a)

    def angular_acceleration(self, theta: float, pivot: Corner, ux: float = 0.0,
                             uy: float = 0.0, equation: Equation = "nonlinear") -> float:
        """The angular acceleration theta'' (rad/s^2) in free flight about ``pivot`` under
        the table acceleration ``(ux, uy)`` (m/s^2); see the module docstring."""
        horizontal, vertical = self._arms(theta, equation)
        s = PIVOT_SIGN[pivot]
        moment = self.mass * (ux * vertical - s * (self.gravity + uy) * horizontal)
        return moment / self.inertia

    def centre_velocity(self, theta: float, omega: float, pivot: Corner) -> tuple[float, float]:
        """Velocity of G relative to the table (m/s) rotating at ``omega`` about ``pivot``."""
        horizontal, vertical = self._arms(theta, "nonlinear")
        return -omega * vertical, PIVOT_SIGN[pivot] * omega * horizontal

    def pivot_reaction(self, theta: float, omega: float, theta_dd: float, pivot: Corner,
                       ux: float = 0.0, uy: float = 0.0) -> tuple[float, float]:
        """(RN, RX) at the pivot in free flight (N), from Newton's law on G.

        The table pushes the block with ``F = M (aG + (ux, g + uy))``, ``aG`` the acceleration
        of G relative to the table; ``RN = F_y`` and ``RX = -F_x`` (force on the table).
        """
        horizontal, vertical = self._arms(theta, "nonlinear")
        s = PIVOT_SIGN[pivot]
        # aG = theta'' k x r - omega^2 r, with r = (s * horizontal, vertical) from the pivot.
        ax = -theta_dd * vertical - omega**2 * s * horizontal
        ay = theta_dd * s * horizontal - omega**2 * vertical
        return self.mass * (ay + self.gravity + uy), -self.mass * (ax + ux)

    def resting_reactions(self, ux: float = 0.0, uy: float = 0.0) -> dict[str, float]:
        """Corner forces of a block resting flat (N): RN_O, RN_A, RX_O, RX_A.

        The normal forces follow from the moment balance about G,
        ``RN_O - RN_A = M ux l / b``; the horizontal force is shared equally between the
        corners (a rigid block leaves that split undetermined).
        """
        total = self.mass * (self.gravity + uy)
        shift = self.mass * ux * self.half_height / self.half_width
        rx = -0.5 * self.mass * ux
        return {"RN_O": 0.5 * (total + shift), "RN_A": 0.5 * (total - shift),
                "RX_O": rx, "RX_A": rx}

    def free_flight_reactions(self) -> tuple[float, float]:
        """The manual's first-order free-flight reactions at the pivot O (N).

        Vertical ``M g (1 - 3 b^2 / (4 R^2))`` = 3579.25 N, horizontal
        ``M l theta'' = -3 M g b l / (4 R^2)`` = -1149.79 N (force on the table, see the
        module docstring); on A the horizontal one changes sign.
        """
        theta_dd = self.angular_acceleration(0.0, "O", equation="linearised")
        return (self.mass * (self.gravity + self.half_width * theta_dd),
                self.mass * self.half_height * theta_dd)

    # -- corners and energy ------------------------------------------------------------------

    def lift(self, theta: float) -> float:
        """Height of the lifted corner (m): 2 b sin|theta|."""
        return 2.0 * self.half_width * math.sin(abs(theta))

    def lifted_velocity(self, theta: float, omega: float, pivot: Corner) -> float:
        """Vertical velocity of the corner off the table (m/s, > 0 upwards): A's
        ``2 b cos(theta) omega`` about O (theta >= 0), O's ``-2 b cos(theta) omega`` about A
        (theta <= 0). The pivot, not theta's sign, says which: at theta = 0, an impact's
        instant, the corner landing and the one leaving are both at the table."""
        s = 1.0 if pivot == "O" else -1.0
        return s * 2.0 * self.half_width * math.cos(theta) * omega

    def kinetic_energy(self, omega: float) -> float:
        """1/2 J omega^2 (J), relative to the table."""
        return 0.5 * self.inertia * omega**2

    # -- impact ---------------------------------------------------------------------------

    def impact(self, omega_minus: float, corner: Corner, restitution: float | None = None,
               *, index: int = 1, time: float = 0.0) -> Impact:
        """The impact of ``corner`` on the table at theta = 0.

        Args:
            omega_minus: angular velocity just before (rad/s); < 0 when landing on A.
            corner: the landing corner, the new pivot.
            restitution: omega+/omega-; default :attr:`restitution` (angular momentum
                balance). With another value the percussion is still the momentum jump,
                but it no longer balances the angular momentum about the pivot. At or
                below 0 the block stops flat (:func:`rebound`).
            index, time: numbering (from 1) and instant (s), copied into the result.

        """
        e = self.restitution if restitution is None else restitution
        omega_plus = rebound(e) * omega_minus + 0.0  # + 0.0: at rest it is 0, not -0
        old = other_corner(corner)
        vx0, vy0 = self.centre_velocity(0.0, omega_minus, old)
        vx1, vy1 = self.centre_velocity(0.0, omega_plus, corner)
        return Impact(
            index=index, time=time, corner=corner, omega_before=omega_minus,
            omega_after=omega_plus, kinetic_energy=self.kinetic_energy(omega_minus),
            kinetic_energy_after=self.kinetic_energy(omega_plus),
            vy_before=-2.0 * self.half_width * abs(omega_minus),
            percussion_y=self.mass * (vy1 - vy0), percussion_x=-self.mass * (vx1 - vx0))


@dataclass(frozen=True)
class Impact:
    """One impact of a corner on the table (SI units).

    Attributes:
        index: 1, 2, ... in time order.
        time: instant (s); with a still table it is the kinetic-energy maximum.
        corner: the landing corner ("A" or "O"), the pivot after the impact.
        omega_before, omega_after: angular velocity just before / after (rad/s).
        kinetic_energy, kinetic_energy_after: 1/2 J omega^2 just before / after (J).
        vy_before: vertical velocity of the landing corner just before (m/s, < 0).
        percussion_y: normal percussion at the landing corner (N.s, > 0).
        percussion_x: horizontal percussion, force on the table (N.s).

    """

    index: int
    time: float
    corner: Corner
    omega_before: float
    omega_after: float
    kinetic_energy: float
    kinetic_energy_after: float
    vy_before: float
    percussion_y: float
    percussion_x: float

    @property
    def energy_ratio(self) -> float:
        """Kinetic energy after / before the impact (e^2 = 0.5586 for SDNV105)."""
        return self.kinetic_energy_after / self.kinetic_energy

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, with ``energy_ratio``."""
        return {**asdict(self), "energy_ratio": self.energy_ratio}


@dataclass(frozen=True)
class Lift:
    """Largest lift of a corner during flight ``index`` (after impact ``index``; 0 is the
    release). ``time`` (s) is the instant of the largest lift; ``height`` in m."""

    index: int
    corner: Corner
    height: float
    time: float


@dataclass(frozen=True)
class ImpactSequence:
    """The impacts and lifts one level of the rigid solution predicts."""

    level: str
    restitution: float
    impacts: list[Impact]
    lifts: list[Lift]


# ---------------------------------------------------------------------------------------
# The manual's first-order sequences.


@dataclass(frozen=True)
class SequenceRatios:
    """Ratios from one impact to the next in a first-order sequence.

    Attributes:
        velocity: omega_{k+1}^- / omega_k^- in magnitude (the restitution coefficient on
            the square root of the kinetic energy); lifts scale with its square.
        interval: (t_{k+2} - t_{k+1}) / (t_{k+1} - t_k).
        percussion: I_{k+1} / I_k.

    """

    velocity: float
    interval: float
    percussion: float


def first_release(block: RigidBlock, tilt: float) -> tuple[float, float]:
    """First impact after a release at rest from ``tilt`` (rad) about O, to first order.

    Returns:
        ``(t1, omega1)``: the instant (s), exact for the linearised equation,
        ``0 = b/l + (tilt - b/l) cosh(p t1)``, and the angular velocity (rad/s, < 0) from
        the manual's energy balance ``1/2 J omega1^2 = M b g tilt`` (which drops the
        ``-M g l tilt^2 / 2`` of the linearised equation, about 1 %).

    """
    ratio = block.half_width / block.half_height
    t1 = math.acosh(ratio / (ratio - tilt)) / block.free_rate
    omega1 = -math.sqrt(2.0 * block.mass * block.half_width * block.gravity * tilt
                        / block.inertia)
    return t1, omega1


def first_order_sequence(block: RigidBlock, tilt: float, count: int, ratios: SequenceRatios,
                         *, first_restitution: float, level: str,
                         end: float = math.inf) -> ImpactSequence:
    """The manual's chain of impacts after a release at rest from ``tilt`` (rad) about O.

    Impact 1 is :func:`first_release` with the percussion of :meth:`RigidBlock.impact`
    for ``first_restitution``. The flight 1 -> 2 lasts ``2 t1 ratios.interval`` (rising and
    falling back take equally long, and the flight time scales like the angular velocity),
    each later one ``ratios.interval`` times the previous; velocities, percussions and
    energies scale with their ratio; the lift after impact k is ``2 b tilt velocity^(2k)``
    (first order: the angle reached is proportional to the energy). Impacts after ``end``
    (s) are left out. A block at rest (``tilt = 0``) or released beyond its unstable
    equilibrium (``tilt >= atan(b/l)``: it topples) has no impact. An impact that leaves
    less than the block's :attr:`~RigidBlock.rest_velocity` (a velocity ratio <= 0: a squat
    block, :func:`rebound`) is the last: the block lies flat, and has no lift after it.
    """
    if not 0.0 < tilt < block.overturn_angle():
        return ImpactSequence(level, ratios.velocity, [], [])
    t1, omega1 = first_release(block, tilt)
    first = block.impact(omega1, "A", first_restitution, time=t1)
    velocity = rebound(ratios.velocity)
    impacts: list[Impact] = []
    corner: Corner = "A"
    t, flight = t1, 2.0 * t1
    for k in range(1, count + 1):
        if t > end:
            break
        v, p, sign = velocity ** (k - 1), ratios.percussion ** (k - 1), (-1) ** (k - 1)
        omega = sign * first.omega_before * v
        impacts.append(Impact(
            index=k, time=t, corner=corner, omega_before=omega,
            omega_after=omega * velocity,
            kinetic_energy=first.kinetic_energy * v**2,
            kinetic_energy_after=first.kinetic_energy * (v * velocity) ** 2,
            vy_before=first.vy_before * v, percussion_y=first.percussion_y * p,
            percussion_x=sign * first.percussion_x * p))
        if abs(impacts[-1].omega_after) < block.rest_velocity:
            break
        flight *= ratios.interval
        t += flight
        corner = other_corner(corner)
    at_rest = bool(impacts) and abs(impacts[-1].omega_after) < block.rest_velocity
    lift0 = 2.0 * block.half_width * tilt
    lifts = [Lift(k, "A" if k % 2 == 0 else "O", lift0 * velocity ** (2 * k), math.nan)
             for k in range(len(impacts) + (0 if at_rest else 1))]
    return ImpactSequence(level, ratios.velocity, impacts, lifts)


def closed_form(block: RigidBlock, tilt: float, count: int, restitution: float | None = None,
                *, end: float = math.inf) -> ImpactSequence:
    """The manual's rigid table (its "rigid body, no rebound" columns).

    Every ratio is the restitution ``e`` (default the block's, 0.7474 for SDNV105): the
    angular velocity, the percussion and the flight time are multiplied by ``e`` at each
    impact, the kinetic energy and the lifts by ``e^2``.
    """
    e = block.restitution if restitution is None else restitution
    return first_order_sequence(block, tilt, count, SequenceRatios(e, e, e),
                                first_restitution=e, level="closed_form", end=end)


def recalage(block: RigidBlock, tilt: float, count: int, *, velocity_ratio: float = 0.79,
             interval_ratio: float = 0.77, end: float = math.inf) -> ImpactSequence:
    """The manual's "recalage" table: the rigid chain with effective elastic-body ratios.

    The manual gives mean ratios measured on its Code_Aster run: 0.79 on the square root of
    the kinetic energy (velocities, lifts) and 0.77 on the flight times. Impact 1 is the rigid
    one. As published, the percussions after impact 1 scale with the interval ratio 0.77
    (a momentum balance would scale them with 0.79: I_y = 38.50 instead of 37.52 N.s at
    impact 2); we follow the publication.
    """
    ratios = SequenceRatios(velocity_ratio, interval_ratio, interval_ratio)
    return first_order_sequence(block, tilt, count, ratios,
                                first_restitution=block.restitution, level="recalage", end=end)
