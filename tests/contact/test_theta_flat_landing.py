"""A block landing flat on the table with the theta treatment (Moreau-Jean): every node of
its base touches down in the same step, the position projection sees several contacts on
a line (a rank-deficient Delassus operator of the rigid lift) and must still lift them."""

import itertools

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.contact.projection import smallest_lift

#: thrown straight up at 0.1 m/s from rest on the table: it lands flat at 2 v / g = 0.0204 s
DROP = {"initial.state": "rest", "initial.velocity": [0.0, 0.1], "collisions.rigid": False,
        "collisions.windows": [], "time.end": 0.03}


@pytest.fixture(scope="module")
def drop():
    case = rc.load_case("sdnv105d", DROP)
    return case, rc.run(case, write=False, plots=False, quiet=True)


def test_a_flat_landing_completes_and_the_block_rests_on_its_weight(drop):
    case, result = drop
    assert result.status == "completed"
    h = result.history
    g = case.loading.gravity
    # the flight: up and back at 2 v / g (the step that lands holds the impulse)
    landing = h["time"][np.flatnonzero(h["PN_BASE"] > 0.0)[0]]
    assert landing == pytest.approx(2 * 0.1 / g, abs=2 * case.time.step)
    # the whole base is pressed and the block is at rest on the table
    end = h["time"] >= landing + 0.005
    base = case.geometry
    weight = 4 * base.half_width * base.half_height * base.thickness \
        * case.material.block.density * g  # M g = 4096.7 N
    assert np.all(h["CONTACTS"][end] >= 2)
    assert np.max(np.abs(h["VY_O"][end])) < 1e-6 and np.max(np.abs(h["VY_A"][end])) < 1e-6
    assert np.max(np.abs(h["DY_O"][end])) < 1e-9 and np.max(np.abs(h["DY_A"][end])) < 1e-9
    # the base reaction settles to the weight
    assert h["RN_BASE"][-1] == pytest.approx(weight, rel=1e-6)


def _block_base(xs, centre=(0.0, 0.3)):
    """Gap rows of contacts at ``xs`` on a flat base (y = 0) of a rigid block whose
    centroid is ``centre``: translations x, y and the rotation about the centroid."""
    xs = np.asarray(xs, dtype=float)
    return np.column_stack([np.zeros_like(xs), np.ones_like(xs), xs - centre[0]])


MASS = np.diag([240.0, 240.0, 240.0 * (0.2**2 + 0.6**2) / 12])


def test_the_lift_of_a_flat_base_is_the_translation_that_closes_it():
    G = _block_base(np.linspace(-0.1, 0.1, 5))
    # five contacts on a line: the dual Delassus operator has rank 2
    assert np.linalg.matrix_rank(G @ np.linalg.solve(MASS, G.T)) == 2
    gaps = np.full(5, -1.1589e-05)
    a = smallest_lift(G, MASS, gaps)
    assert a == pytest.approx([0.0, 1.1589e-05, 0.0], abs=1e-18)
    assert np.all(gaps + G @ a >= -1e-18)


def _enumerated_lift(G, gaps):
    """The least-energy motion that opens every gap, by trying each set of one or two
    contacts closed exactly (the rigid base's gap rows have rank 2): the reference."""
    best, energy = None, np.inf
    for size in (1, 2):
        for closed in itertools.combinations(range(len(gaps)), size):
            Gs = G[list(closed)]
            lam = np.linalg.solve(Gs @ np.linalg.solve(MASS, Gs.T), -gaps[list(closed)])
            a = np.linalg.solve(MASS, Gs.T @ lam)
            if np.all(lam >= 0.0) and np.all(gaps + G @ a >= -1e-15) and a @ MASS @ a < energy:
                best, energy = a, a @ MASS @ a
    return best


def test_the_lift_of_a_tilted_base_is_the_least_energy_one():
    xs = np.linspace(-0.1, 0.1, 5)
    G = _block_base(xs)
    gaps = -2e-6 - 3e-5 * (xs + 0.1)  # deeper at +x
    a = smallest_lift(G, MASS, gaps)
    assert np.all(gaps + G @ a >= -1e-18)
    assert a == pytest.approx(_enumerated_lift(G, gaps), rel=1e-9, abs=1e-18)
    assert a[1] > 0.0 and a[2] > 0.0  # lifted, and turned back towards the table's plane


def test_the_lift_leaves_open_gaps_open_and_is_the_smallest():
    G = _block_base([-0.1, -0.05, 0.0, 0.05, 0.1])
    gaps = np.array([-1e-5, 2e-6, 5e-6, 2e-6, 1e-6])  # only the corner at -0.1 is in
    a = smallest_lift(G, MASS, gaps)
    after = gaps + G @ a
    assert np.all(after >= -1e-18)
    assert after[0] == pytest.approx(0.0, abs=1e-18)
    assert a == pytest.approx(_enumerated_lift(G, gaps), rel=1e-9, abs=1e-18)


def test_no_lift_when_nothing_penetrates_and_none_when_no_motion_opens():
    G = _block_base([-0.1, 0.1])
    assert np.all(smallest_lift(G, MASS, np.array([0.0, 1e-6])) == 0.0)
    # a contact that no coordinate moves cannot be opened
    assert smallest_lift(np.zeros((1, 3)), MASS, np.array([-1e-6])) is None
