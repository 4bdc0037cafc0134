"""Moreau-Jean on dense systems with known answers: a bouncing point mass, and the rigid
SDNV105 block rocking on its two corners against the rigid-body impact law."""

import math

import numpy as np
import pytest
from acceptance import case_reference

from rocking_contact.analytic.rigid_block import RigidBlock
from rocking_contact.analytic.rigid_levels import rigid_levels
from rocking_contact.contact.friction_contact import NewtonImpactFrictionLaw
from rocking_contact.contact.moreau import LagrangianLinearSystem, MoreauJean
from rocking_contact.contact.moreau_relations import (
    Bar,
    Floor,
    Stop,
    corner_landing_step,
    frictionless_landing_step,
    rigid_block_integrator,
    tilted_on_o,
)

G = 9.81


def _rigid(quantity):
    """The manual's rigid-block value of ``quantity`` (cases/sdnv105_rigid.toml)."""
    return case_reference("sdnv105_rigid", quantity, "analytic rigid, closed form").value


def _ball(mass, restitution, friction=0.0, theta=0.5):
    system = LagrangianLinearSystem(np.eye(2) * mass, lambda t: np.array([0.0, -mass * G]))
    return MoreauJean(system, Floor(), NewtonImpactFrictionLaw(restitution, friction), theta)


@pytest.mark.parametrize("theta", [0.5, 0.55, 1.0])
def test_ball_dropped_without_rebound_comes_to_rest(theta):
    mass, z0, h = 2.0, 1.0, 1e-3
    osi = _ball(mass, 0.0, theta=theta)
    q, v, t = np.array([0.0, z0]), np.zeros(2), 0.0
    t_impact = math.sqrt(2 * z0 / G)
    v_impact = G * t_impact
    lowest, rest_force = np.inf, []
    while t < t_impact + 0.1:
        out = osi.step(q, v, t, h)
        q, v, t = out.q, out.v, t + h
        lowest = min(lowest, q[1])
        if t > t_impact + 0.05:
            rest_force.append(out.P[0] / h)
    # penetration at most the explicit part of one step at the impact speed
    # Velocity-level Signorini: the contact is activated on the predicted gap, so the ball
    # may end the step before activation below the floor, by less than one step of travel.
    assert 0.0 < -lowest <= h * v_impact
    assert abs(v[1]) < 1e-12
    # at rest the impulse per step carries the weight
    assert np.allclose(rest_force, mass * G, rtol=1e-10)


def test_ball_rebounds_with_newton_restitution():
    mass, z0, e, h = 1.0, 1.0, 0.6, 1e-4
    osi = _ball(mass, e)
    q, v, t = np.array([0.0, z0]), np.zeros(2), 0.0
    v_before = None
    apex = []
    while t < 0.9:
        out = osi.step(q, v, t, h)
        if len(out.active) and out.P[0] > 0 and v_before is None:
            v_before, v_after, impulse = v[1], out.v[1], out.P[0]
        if v_before is not None and v[1] > 0 >= out.v[1]:
            apex.append(out.q[1])
        q, v, t = out.q, out.v, t + h
    assert v_after == pytest.approx(-e * v_before, rel=2e-3)
    assert impulse == pytest.approx(mass * (1 + e) * abs(v_before), rel=2e-3)
    assert apex[0] == pytest.approx(e * e * z0, rel=2e-3)


def test_ball_sliding_on_the_floor_stops_by_coulomb_friction():
    """Launched along x at 2 m/s on the floor with mu = 0.4: stops after v0 / (mu g)."""
    mass, mu, v0, h = 3.0, 0.4, 2.0, 1e-4
    osi = _ball(mass, 0.0, mu)
    q, v, t = np.zeros(2), np.array([v0, 0.0]), 0.0
    stop = None
    while t < 0.8:
        out = osi.step(q, v, t, h)
        if stop is None and out.v[0] <= 1e-12:
            stop = t + h
        q, v, t = out.q, out.v, t + h
    assert stop == pytest.approx(v0 / (mu * G), abs=h)
    assert q[0] == pytest.approx(v0 * v0 / (2 * mu * G), rel=1e-3)
    assert abs(q[1]) < 1e-14 and v[0] == pytest.approx(0.0, abs=1e-12)


def _rigid_block_run(h, end, theta=0.5):
    """The rigid SDNV105 block released at rest from 0.01 rad about O, Moreau-Jean."""
    block = RigidBlock(0.18, 0.40, 417.6, G)
    osi = rigid_block_integrator(block, 0.0, 0.9, theta)
    q, v, t = tilted_on_o(block, 0.01), np.zeros(3), 0.0
    steps, impacts = [], []
    previous = np.zeros(4)
    while t < end:
        out = osi.step(q, v, t, h)
        steps.append((t, out.P.copy()))
        for corner in (0, 1):  # a corner pressed now and not at the previous step lands
            if out.P[2 * corner] > 0 and previous[2 * corner] == 0 and t > 0:
                impacts.append({"time": t, "kinetic_energy": 0.5 * v @ osi.system.mass @ v,
                                "ratio": out.v[2] / v[2], "corner": corner,
                                "omega": v[2], "P": out.P.copy()})
        previous = out.P
        q, v, t = out.q, out.v, t + h
    return block, steps, impacts


@pytest.fixture(scope="module")
def rigid_rocking():
    h = 1e-4
    block, steps, impacts = _rigid_block_run(h, 0.28)
    reference = rigid_levels(block, 0.01, count=5, end=0.3)[0]["nonlinear"]
    return block, steps, impacts, reference, h


def test_rigid_block_impact_instants_and_energies(rigid_rocking):
    """Against the rigid equations integrated exactly (nonlinear level). Moreau-Jean is
    first order at impacts: the weight acts over the whole impact step, which costs
    ``h M g b / (J omega-)`` of omega+ per impact (0.2 % at the first one, more as omega-
    decreases), so energies drift by ~0.5 % per impact at h = 1e-4."""
    block, steps, impacts, reference, h = rigid_rocking
    assert [i["corner"] for i in impacts] == [1, 0, 1, 0, 1]  # A, O, A, O, A
    for n, (ours, ref) in enumerate(zip(impacts, reference.impacts)):
        assert ours["time"] == pytest.approx(ref.time, rel=0.005)
        assert ours["kinetic_energy"] == pytest.approx(ref.kinetic_energy,
                                                       rel=[1e-3, 0.006, 0.015, 0.025, 0.045][n])


def test_rigid_block_impact_law_and_percussion(rigid_rocking):
    """omega+ = 0.7474 omega- (angular momentum about the new pivot), the old pivot lifts,
    the new one sticks (mu = 0.9), and the percussion is (1 + e) M b |omega-|.

    The discrete impact also integrates the weight's moment about the new pivot over the
    impact step, ``M g b h``, against the rotation: omega+ / omega- = e - M g b h / (J
    |omega-|) (the first-order error of Moreau-Jean at an impact)."""
    block, steps, impacts, reference, h = rigid_rocking
    e = block.restitution
    assert e == pytest.approx(_rigid("restitution"), abs=1e-4)
    for ours in impacts[:4]:
        corner, P = ours["corner"], ours["P"]
        weight_moment = block.mass * G * block.half_width * h / (block.inertia
                                                                 * abs(ours["omega"]))
        assert ours["ratio"] == pytest.approx(e - weight_moment, abs=0.05 * weight_moment)
        # momentum jump of G, plus the weight carried over the impact step
        jump = (1 + ours["ratio"]) * block.mass * block.half_width * abs(ours["omega"])
        assert P[2 * corner] == pytest.approx(jump + block.mass * G * h, rel=1e-3)
        assert P[2 * (1 - corner)] == 0.0
        assert abs(P[2 * corner + 1]) <= 0.9 * P[2 * corner]
        assert abs(P[2 * corner + 1] / P[2 * corner]) == pytest.approx(
            _rigid("percussion.ratio"), rel=0.01)
    assert impacts[0]["P"][2] == pytest.approx(_rigid("closed_form.collision.1.percussion_y"),
                                               rel=0.01)


def test_rigid_block_impact_error_is_first_order_in_the_step():
    errors = []
    for h in (1e-4, 2.5e-5):
        block, _, impacts = _rigid_block_run(h, 0.06)
        errors.append(abs(impacts[0]["ratio"] - block.restitution))
    assert 3.0 < errors[0] / errors[1] < 5.0


def test_rigid_block_free_flight_reactions(rigid_rocking):
    """Rocking on O: the pivot reaction of Newton's law on G, and the manual's values."""
    block, steps, impacts, reference, h = rigid_rocking
    t1 = reference.impacts[0].time
    on_o = [P for t, P in steps if t < t1 - 10 * h]
    rn = np.array([P[0] / h for P in on_o])
    rx = np.array([-P[1] / h for P in on_o])  # force on the table
    tilt = 0.01
    exact = block.pivot_reaction(tilt, 0.0, block.angular_acceleration(tilt, "O"), "O")
    assert rn[0] == pytest.approx(exact[0], rel=1e-4)
    assert rx[0] == pytest.approx(exact[1], rel=1e-4)
    # the manual's first-order values, measured as Code_Aster does (extrema over a flight)
    assert rn.max() == pytest.approx(_rigid("reaction.vertical"), rel=0.01)
    assert rx.min() == pytest.approx(_rigid("reaction.horizontal"), rel=0.01)


def _landing_step(osi, block, h):
    """Steps of ``h`` (s) of ``osi`` from ``block`` released at rest at 0.01 rad on O, to
    the first step with an impulse at A: (q, v) at that step's start and its outcome."""
    q, v, t = tilted_on_o(block, 0.01), np.zeros(3), 0.0
    out = osi.step(q, v, t, h)
    while out.P[2] == 0.0:
        q, v, t = out.q, out.v, t + h
        out = osi.step(q, v, t, h)
    return q, v, out


@pytest.mark.parametrize("e", [0.0, 0.5, 1.0])
def test_rigid_block_landing_with_newton_restitution_at_the_corner(e):
    """Newton's law at the landing corner A (sticking, O free to lift) against the momentum
    balance of one step of the rigid block (G at the origin, A at (b, -l), the weight over
    the whole step): omega+ = (1 - 3 b^2 (1 + e) / (2 R^2)) omega- + M g b h / J,
    P_y = -M b (omega+ + (1 + 2 e) omega-) + M g h, P_x = M l (omega- - omega+). The
    scheme freezes H at the predicted angle (1.4e-5 rad), hence 1e-4 and not round-off.
    The rigid solver's ``rigid.restitution`` is omega+/omega- with the block kept on the
    table, another law: e = 0 is the only value where they agree."""
    h = 1e-4
    block = RigidBlock(0.18, 0.40, 417.6, G)
    osi = rigid_block_integrator(block, e, 0.9, 0.6)
    q, v, out = _landing_step(osi, block, h)
    w_after, p_y, p_x = corner_landing_step(block, v[2], e, h)
    assert out.v[2] == pytest.approx(w_after, rel=1e-4)
    assert out.P[2] == pytest.approx(p_y, rel=1e-4)
    assert out.P[3] == pytest.approx(p_x, rel=1e-4)
    assert out.P[0] == 0.0  # O lifts
    corner_a = osi.relation.jacobian(q + h * (1 - 0.6) * v)[2]  # H at q_m
    assert corner_a @ out.v == pytest.approx(-e * (corner_a @ v), rel=1e-9)


@pytest.mark.parametrize("e", [0.0, 0.5, 1.0])
def test_rigid_block_landing_on_a_frictionless_table(e):
    """mu = 0: the block rocks on O with G on a vertical line and lands on A with a normal
    impulse only, against one step's momentum balance (frictionless_landing_step: v_G =
    (0, b omega-) before, omega+ = ((J_G - (1 + 2 e) M b^2) omega- + M g b h) /
    (J_G + M b^2)). The scheme freezes H at the predicted angle (-2.3e-5 rad, A's arm
    9e-6 m short of b): omega+ within 1e-4 of omega- (4e-5 measured; e = 0.5 leaves
    omega+ near 0), P_y within 1e-4 (3e-5). docs/theta.md's "mu = 0" compares the FEM
    block with this step."""
    h = 1e-4
    block = RigidBlock(0.18, 0.40, 417.6, G)
    _, v, out = _landing_step(rigid_block_integrator(block, e, 0.0, 0.6), block, h)
    assert abs(v[0]) < 1e-9 * abs(v[1])  # G came down a vertical line
    w_after, p_y = frictionless_landing_step(block, v[2], e, h)
    assert out.v[2] == pytest.approx(w_after, rel=0, abs=1e-4 * abs(v[2]))
    assert out.P[2] == pytest.approx(p_y, rel=1e-4)
    assert out.P[0] == 0.0 and out.P[3] == 0.0  # O lifts; no tangential impulse
    assert out.v[0] == v[0]


@pytest.mark.parametrize("degrees, sticks", [(20.0, True), (26.0, True), (35.0, False)])
def test_mass_on_an_incline_sticks_below_the_friction_angle(degrees, sticks):
    """mu = 0.5 (26.57 degrees): at rest on the slope it stays, the friction impulse
    balancing the weight's slope component (P_T / P_N = -tan a); steeper, it slides with
    g (sin a - mu cos a), exactly in velocity (the force is constant)."""
    mass, mu, h, alpha = 2.0, 0.5, 1e-3, math.radians(degrees)
    weight = np.array([mass * G * math.sin(alpha), -mass * G * math.cos(alpha)])
    # the incline in its own frame (x down the slope) is a floor under a turned weight
    osi = MoreauJean(LagrangianLinearSystem(np.eye(2) * mass, lambda t: weight), Floor(),
                     NewtonImpactFrictionLaw(0.0, mu), 1.0)
    q, v, t = np.zeros(2), np.zeros(2), 0.0
    for _ in range(500):
        out = osi.step(q, v, t, h)
        q, v, t = out.q, out.v, t + h
    if sticks:
        assert q[0] == 0.0 and v[0] == 0.0
        assert out.P[1] / out.P[0] == pytest.approx(-math.tan(alpha), rel=1e-12)
    else:
        acceleration = G * (math.sin(alpha) - mu * math.cos(alpha))
        assert v[0] == pytest.approx(acceleration * t, rel=1e-12)
        assert out.P[1] == pytest.approx(-mu * out.P[0], rel=1e-12)
    assert abs(q[1]) < 1e-15 and out.P[0] == pytest.approx(mass * G * math.cos(alpha) * h,
                                                            rel=1e-12)


@pytest.mark.parametrize("e, mu", [(0.0, 0.0), (0.5, 0.3), (0.0, 0.3)])
def test_bar_falling_flat_lands_on_both_ends_at_once(e, mu):
    """A bar dropped flat from 0.5 m, moving along x at 1 m/s: W is 4x4 of rank 3. Both
    ends take the same normal impulse, M (1 + e) |v-| + M g h in all, the bar does not
    turn; friction stops the 1 m/s at the impact if mu P_N can (e = 0.5, mu = 0.3: 4.2 >
    3 N.s) and slides it at the cone's edge otherwise; at rest each end carries M g / 2."""
    mass, b, h = 3.0, 0.5, 1e-3
    system = LagrangianLinearSystem(np.diag([mass, mass, mass * (2 * b) ** 2 / 12]),
                                    lambda t: np.array([0.0, -mass * G, 0.0]))
    osi = MoreauJean(system, Bar(b), NewtonImpactFrictionLaw(e, mu), 0.5)
    q, v, t = np.array([0.0, 0.5, 0.0]), np.array([1.0, 0.0, 0.0]), 0.0
    out = osi.step(q, v, t, h)
    while out.P[0] == 0.0:
        q, v, t = out.q, out.v, t + h
        out = osi.step(q, v, t, h)
    P = out.P
    assert P[0] == pytest.approx(P[2], rel=1e-12)
    assert P[0] + P[2] == pytest.approx(mass * (1 + e) * abs(v[1]) + mass * G * h, rel=1e-12)
    assert out.v[1] == pytest.approx(-e * v[1], rel=1e-12) and abs(out.v[2]) < 1e-12
    friction = min(mu * (P[0] + P[2]), mass * v[0])
    assert -(P[1] + P[3]) == pytest.approx(friction, rel=1e-12, abs=1e-15)
    for _ in range(int(1.0 / h)):
        q, v, t = out.q, out.v, t + h
        out = osi.step(q, v, t, h)
    assert abs(q[2]) < 1e-12
    np.testing.assert_allclose(out.P[0::2] / h, mass * G / 2, rtol=1e-9)


@pytest.mark.parametrize("theta, order", [(0.5, 2.0), (0.75, 1.0), (1.0, 1.0)])
def test_damped_oscillator_order_before_it_reaches_its_stop(theta, order):
    """m x'' + c x' + k x = 0 launched at 1 m/s towards a stop 0.02 m away: before the
    impact (0.021 s) the scheme is second order for theta = 1/2, first order otherwise;
    at the impact the velocity reverses with e = 0.8."""
    mass, k, c, d = 2.0, 800.0, 4.0, 0.02
    w0 = math.sqrt(k / mass)
    zeta = c / (2 * math.sqrt(k * mass))
    wd = w0 * math.sqrt(1 - zeta * zeta)

    def exact(t):
        decay = math.exp(-zeta * w0 * t)
        return (decay * math.sin(wd * t) / wd,
                decay * (math.cos(wd * t) - zeta * w0 / wd * math.sin(wd * t)))

    errors = []
    for h in (5e-4, 2.5e-4):
        system = LagrangianLinearSystem(np.eye(1) * mass, lambda t: np.zeros(1),
                                        np.eye(1) * k, np.eye(1) * c)
        osi = MoreauJean(system, Stop(d), NewtonImpactFrictionLaw(0.8, 0.0), theta)
        q, v, t = np.zeros(1), np.ones(1), 0.0
        steps = round(0.018 / h)
        for _ in range(steps):
            out = osi.step(q, v, t, h)
            q, v, t = out.q, out.v, t + h
        x, xdot = exact(steps * h)
        errors.append(abs(q[0] - x) + abs(v[0] - xdot) / w0)
        out = osi.step(q, v, t, h)
        while out.P[0] == 0.0:
            q, v, t = out.q, out.v, t + h
            out = osi.step(q, v, t, h)
        assert 0.021 - h < t < 0.021 + 2 * h
        assert out.v[0] == pytest.approx(-0.8 * v[0], rel=1e-12)
    assert math.log2(errors[0] / errors[1]) == pytest.approx(order, abs=0.05)
