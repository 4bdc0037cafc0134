"""Contact relations of small rigid systems for the dense Moreau-Jean integrator.

Each is a :class:`~rocking_contact.contact.moreau.DenseRelation` (gaps in m, positive open;
``H`` rows ``[N_0, T_0, N_1, T_1, ...]`` with ``U = H v`` in m/s) of a system whose answer
is known in closed form: a point mass above a floor, a mass against a stop, a rigid bar on
its two ends, the rigid SDNV105 block on its two corners; one step of that block landing,
with and without friction; and random local problems of a rigid block on points of its base
(:func:`base_problem`). The tests of the integrator (``tests/contact/test_theta_moreau.py``)
and of the local solver, and ``benchmarks/theta_checks.py`` (docs/theta.md, "Checks on
inputs outside the validation") share them.
"""

from __future__ import annotations

import math

import numpy as np

from rocking_contact.analytic.rigid_block import RigidBlock
from rocking_contact.contact.friction_contact import (
    FrictionContactProblem,
    NewtonImpactFrictionLaw,
)
from rocking_contact.contact.moreau import LagrangianLinearSystem, MoreauJean


class Floor:
    """A point mass (x, y) above the floor y = 0: gap y, U_N = v_y, U_T = v_x."""

    def gaps(self, q: np.ndarray) -> np.ndarray:
        return np.array([q[1]])

    def jacobian(self, q: np.ndarray) -> np.ndarray:
        return np.array([[0.0, 1.0], [1.0, 0.0]])


class Stop:
    """A mass moving along x (one coordinate) towards a stop at x = ``distance`` (m): gap
    ``distance - x``, U_N = -v (positive when the mass leaves the stop), no tangent."""

    def __init__(self, distance: float):
        self.distance = distance

    def gaps(self, q: np.ndarray) -> np.ndarray:
        return np.array([self.distance - q[0]])

    def jacobian(self, q: np.ndarray) -> np.ndarray:
        return np.array([[-1.0], [0.0]])


class Bar:
    """A rigid bar (x, y, phi) of half length ``b`` (m), its ends on the floor y = 0;
    phi (rad) counter-clockwise."""

    def __init__(self, b: float):
        self.b = b

    def _arms(self, phi: float) -> list[tuple[float, float]]:
        return [(-self.b * math.cos(phi), -self.b * math.sin(phi)),
                (self.b * math.cos(phi), self.b * math.sin(phi))]

    def gaps(self, q: np.ndarray) -> np.ndarray:
        return np.array([q[1] + ay for _, ay in self._arms(q[2])])

    def jacobian(self, q: np.ndarray) -> np.ndarray:
        rows = []
        for ax, ay in self._arms(q[2]):
            rows += [[0.0, 1.0, ax], [1.0, 0.0, -ay]]
        return np.array(rows)


class BlockCorners:
    """The rigid block (x_G, y_G, phi) on the table y = 0: corners O (-b, -l), A (b, -l)
    in the body frame (m); gaps are the corners' heights, U_T the corners' x velocities;
    phi (rad) counter-clockwise."""

    def __init__(self, b: float, height: float):
        self.corners = np.array([[-b, -height], [b, -height]])

    def arms(self, phi: float) -> np.ndarray:
        """The corners' positions relative to G (2 x 2, m) at the angle ``phi``."""
        c, s = math.cos(phi), math.sin(phi)
        return np.array([[c * rx - s * ry, s * rx + c * ry] for rx, ry in self.corners])

    def gaps(self, q: np.ndarray) -> np.ndarray:
        return np.asarray(q[1] + self.arms(q[2])[:, 1])

    def jacobian(self, q: np.ndarray) -> np.ndarray:
        rows = []
        for ax, ay in self.arms(q[2]):
            rows.append([0.0, 1.0, ax])   # U_N = v_y + omega a_x
            rows.append([1.0, 0.0, -ay])  # U_T = v_x - omega a_y
        return np.array(rows)


def rigid_block_integrator(block: RigidBlock, restitution: float, mu: float,
                           theta: float) -> MoreauJean:
    """Moreau-Jean for the rigid ``block`` (x_G, y_G, phi; its weight the only force) on its
    two corners, Newton's ``restitution`` and Coulomb's ``mu`` at each."""
    b, height, mass = block.half_width, block.half_height, block.mass
    j_g = mass * (b * b + height * height) / 3  # kg.m^2, about G
    system = LagrangianLinearSystem(np.diag([mass, mass, j_g]),
                                    lambda t: np.array([0.0, -mass * block.gravity, 0.0]))
    return MoreauJean(system, BlockCorners(b, height),
                      NewtonImpactFrictionLaw(restitution, mu), theta)


def tilted_on_o(block: RigidBlock, tilt: float) -> np.ndarray:
    """(x_G, y_G, phi) (m, m, rad) of ``block`` turned by ``tilt`` (rad) about its corner
    O at the origin."""
    b, height = block.half_width, block.half_height
    c, s = math.cos(tilt), math.sin(tilt)
    return np.array([c * b - s * height, s * b + c * height, tilt])


def corner_landing_step(block: RigidBlock, omega_before: float, restitution: float,
                        h: float) -> tuple[float, float, float]:
    """One step of ``h`` (s) of the rigid ``block`` landing on its corner A with Newton's
    ``restitution`` there (A sticking, O free to lift), by the momentum balance with G at
    the origin, A at (b, -l) and the weight over the whole step: ``(omega+, P_y, P_x)``,
    omega+ (rad/s, counter-clockwise; ``omega_before`` < 0 when A comes down) =
    (1 - 3 b^2 (1 + e) / (2 R^2)) omega- + M g b h / J, P_y = -M b (omega+ + (1 + 2 e)
    omega-) + M g h (N.s, on the block, up), P_x = M l (omega- - omega+) (N.s, on the
    block, along x). As h -> 0, omega+ / omega- -> 1 - 3 b^2 (1 + e) / (2 R^2)."""
    b, height, mass, g = block.half_width, block.half_height, block.mass, block.gravity
    r2 = b * b + height * height
    after = (1 - 3 * b * b * (1 + restitution) / (2 * r2)) * omega_before \
        + g * b * h / (4 / 3 * r2)
    return (after, -mass * b * (after + (1 + 2 * restitution) * omega_before) + mass * g * h,
            mass * height * (omega_before - after))


def frictionless_landing_step(block: RigidBlock, omega_before: float, restitution: float,
                              h: float) -> tuple[float, float]:
    """One step of ``h`` (s) of the rigid ``block`` landing on its corner A of a
    frictionless table with Newton's ``restitution`` there (O free to lift), by the momentum
    balance with G at the origin, A at (b, -l) and the weight over the whole step:
    ``(omega+, P_y)``. Before the step the block rocks on O with G on a vertical line (no
    horizontal force), so at phi = 0 v_G = (0, b omega-); no horizontal impulse acts, and
    A leaves at U_N+ = -e U_N- = -2 e b omega-. omega+ (rad/s, counter-clockwise;
    ``omega_before`` < 0 when A comes down) = ((J_G - (1 + 2 e) M b^2) omega- + M g b h) /
    (J_G + M b^2), J_G = M R^2 / 3; P_y = -M b (omega+ + (1 + 2 e) omega-) + M g h (N.s, on
    the block, up). As h -> 0, omega+ / omega- -> (R^2 - 3 (1 + 2 e) b^2) / (R^2 + 3 b^2)."""
    b, mass, g = block.half_width, block.mass, block.gravity
    j_g = mass * block.radius**2 / 3
    after = ((j_g - (1 + 2 * restitution) * mass * b * b) * omega_before + mass * g * b * h) \
        / (j_g + mass * b * b)
    return after, -mass * b * (after + (1 + 2 * restitution) * omega_before) + mass * g * h


def base_problem(block: RigidBlock, contacts: int, rng: np.random.Generator, *, lift: bool,
                 tilt: float = 0.02, mu: float = 0.9) -> tuple[FrictionContactProblem,
                                                             np.ndarray]:
    """A random local problem of the rigid ``block`` (x_G, y_G, phi) on ``contacts`` points
    of its base line, as the theta treatment meets them (docs/theta.md, "Checks on inputs
    outside the validation"): the points' x drawn uniformly on [-b, b] (m, body frame), the
    base turned by an angle drawn uniformly on [-``tilt``, ``tilt``] (rad), ``H`` the rows
    ``[N_0, T_0, ...]`` of the points (U_N = v_y + omega a_x, U_T = v_x - omega a_y, a the
    point's arm from G), W = H M^-1 H^T (1/kg; rank <= 3, its normal rows' <= 2: the points
    are collinear).

    - ``lift``: the position projection's problem (frictionless, :func:`~rocking_contact.
      contact.projection.rigid_lift`): q_N the end gaps, each drawn uniformly on
      [-1e-6, 5e-7] m, q_T = 0 (P in kg.m, the lift M^-1 H^T P);
    - otherwise the velocity problem: Coulomb's ``mu`` at every point, q = H v_free with
      v_free's (v_x, v_y, omega) drawn normal with deviations 0.1 m/s, 0.1 m/s, 0.5 rad/s.

    Draws, in order: the x's, the angle, then the gaps or v_free. Returns the problem and
    ``H`` (2 ``contacts`` x 3).
    """
    b, height = block.half_width, block.half_height
    points = np.column_stack([rng.uniform(-b, b, contacts), np.full(contacts, -height)])
    phi = rng.uniform(-tilt, tilt)
    c, s = math.cos(phi), math.sin(phi)
    rows = []
    for rx, ry in points:
        ax, ay = c * rx - s * ry, s * rx + c * ry
        rows += [[0.0, 1.0, ax], [1.0, 0.0, -ay]]
    H = np.array(rows)
    mass = np.diag([block.mass, block.mass, block.mass * block.radius**2 / 3])
    W = H @ np.linalg.solve(mass, H.T)
    if lift:
        q = np.zeros(2 * contacts)
        q[0::2] = rng.uniform(-1e-6, 5e-7, contacts)
        return FrictionContactProblem(W, q, np.zeros(contacts)), H
    v_free = rng.standard_normal(3) * [0.1, 0.1, 0.5]
    return FrictionContactProblem(W, H @ v_free, np.full(contacts, mu)), H
