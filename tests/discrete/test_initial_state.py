"""Row 0 of a discrete history is the initial state: ``u0``, ``v0`` exactly, and the forces
and accelerations the shocks' state at t0 gives (a closed stick contact carrying what
equilibrium needs)."""

import numpy as np
import pytest
from test_cases import DISCRETE_CASES
from test_integrators import make_case

import rocking_contact as rc
from rocking_contact.discrete.runner import integrate
from rocking_contact.discrete.system import assemble

G, KN = 9.81, 1.0e6


@pytest.mark.parametrize("name", DISCRETE_CASES)
def test_row_0_of_a_shipped_case_holds_its_initial_displacements_and_velocities(name):
    """sdnd100a reported VX = VY = 1.77e-4 m/s at t = 0 for v0 = 0 (its friction left out
    of the start-up acceleration); sdnd100a_exact 3.5e-5 m/s."""
    case = rc.load_case(name, {"time.end": 20 * rc.load_case(name).time.step})
    history = rc.run(case, write=False, quiet=True).history
    assert history["time"][0] == case.time.start
    nodes = {n.name: n for n in case.model.node}
    checked = 0
    for column in history:
        kind, _, node = column.partition("_")
        if kind in ("DX", "DY", "DZ", "VX", "VY", "VZ") and node in nodes:
            start = nodes[node].u0 if kind[0] == "D" else nodes[node].v0
            assert history[column][0] == start["XYZ".index(kind[1])], column
            checked += 1
    assert checked >= 2


def test_sliding_from_rest_starts_at_rest_with_the_friction_in_its_acceleration():
    """SDND100 A released from rest: 8.5 N along the line, mu FN = 1 N, 1 kg: a(t0) = 7.5
    m/s^2 toward the origin, v(t0) = 0; the first step moves it by dt^2 a(t0) / 2."""
    case = rc.load_case("sdnd100a", {"time.end": 5e-3})
    history = rc.run(case, write=False, quiet=True).history
    dt, u0 = case.time.step, case.model.node[0].u0[0]
    c45 = np.cos(np.pi / 4)
    a0 = -(1e4 * u0 / c45 - 0.1 * 10.0) * c45
    assert history["VX_NO1"][0] == 0.0
    assert history["AX_NO1"][0] == pytest.approx(a0, rel=1e-12)
    assert history["FT_NO1"][0] == pytest.approx(1.0, rel=1e-12)
    assert history["DX_NO1"][1] - u0 == pytest.approx(0.5 * dt**2 * a0, rel=1e-9)


@pytest.mark.parametrize("pull", ["gravity", "spring"])
def test_an_exact_stick_contact_closed_at_t0_carries_its_load_from_row_0(pull):
    """1 kg resting on a 1e6 N/m floor (FN = m g), pulled along it by 2 N (gravity's x, or a
    200 N/m spring stretched 1 cm), mu = 0.3: the exact law sticks, FT = 2 N and nothing
    moves from t0 on. Row 0 said FT = 1 N and AX = 1 m/s^2 (a half step's velocity of the
    friction-free start, dt/2 a0, stopped by the first step), VX = -5e-5 m/s."""
    spring = pull == "spring"
    nodes = [{"name": "N1", "mass": 1.0, "fixed": ["DZ"],
              "u0": [0.01 if spring else 0.0, -G / KN, 0.0]}]
    springs = [{"name": "K", "nodes": ["N1"], "stiffness": [200.0, 0.0, 0.0]}] if spring \
        else []
    shocks = [{"name": "FLOOR", "node": "N1", "normal": [0.0, -1.0, 0.0], "kn": KN,
               "mu": 0.3, "friction": "exact"}]
    case = make_case(nodes, springs, shocks=shocks,
                     gravity=(0.0 if spring else 2.0, -G, 0.0), end=0.01, step=1e-4)
    history = integrate(case, assemble(case.model, case.solver), None)[0]
    assert history["VX_N1"][0] == 0.0 and abs(history["VY_N1"][0]) <= 1e-12
    assert abs(history["AX_N1"][0]) <= 1e-12
    np.testing.assert_allclose(history["FT_FLOOR"], 2.0, rtol=1e-12)
    np.testing.assert_allclose(history["FN_FLOOR"], G, rtol=1e-12)
    np.testing.assert_array_equal(history["DX_N1"], case.model.node[0].u0[0])


def test_a_regularised_contact_sliding_from_rest_follows_the_constant_force_to_rounding():
    """1 kg resting on a floor (mu FN = 2.943 N, kt = 1e5 N/m, ct = 300 N.s/m) pulled by 4 N
    along it slides from t0: x = (4 - 2.943) t^2 / 2 at every step, which the leapfrog
    gives exactly from the right start. The friction-free start set it off at
    dt/2 mu FN / m backwards: 1.5e-6 m short at 0.1 s."""
    nodes = [{"name": "N1", "mass": 1.0, "fixed": ["DZ"], "u0": [0.0, -G / KN, 0.0]}]
    shocks = [{"name": "FLOOR", "node": "N1", "normal": [0.0, -1.0, 0.0], "kn": KN,
               "kt": 1e5, "ct": 300.0, "mu": 0.3}]
    case = make_case(nodes, shocks=shocks, gravity=(4.0, -G, 0.0), end=0.1, step=1e-5)
    history = integrate(case, assemble(case.model, case.solver), None)[0]
    t = history["time"]
    expected = 0.5 * (4.0 - 0.3 * G) * t**2
    np.testing.assert_allclose(history["DX_N1"], expected, rtol=1e-9, atol=1e-15)
    assert history["VX_N1"][0] == 0.0
