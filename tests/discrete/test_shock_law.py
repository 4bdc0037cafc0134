"""The shock law on single evaluations: normal force, stick-slip logic, what it stores."""

import numpy as np
import pytest

from rocking_contact.discrete.newmark import branch_contradicted
from rocking_contact.discrete.shock import LAWS, STATE_SIZE, shock_force

KN, CN, KT, CT, MU = 1e6, 1e3, 1e4, 10.0, 0.5


def params(law="regularised", gap=0.0):
    # Obstacle below the node (normal -z); 1 mm penetration gives FN = 1000 N.
    return np.array([[0.0, 0.0, -1.0, gap, KN, CN, KT, CT, MU, LAWS[law]]])


def evaluate(P, d, dv, S):
    F, S_new = np.zeros(3), np.zeros(STATE_SIZE)
    Jd, Jv = np.zeros((3, 3)), np.zeros((3, 3))
    fn, ft, pen, vn = shock_force(P, 0, np.asarray(d, float), np.asarray(dv, float), S, F,
                                  S_new, Jd, Jv, True)
    return fn, ft, F, S_new, Jd, Jv


def sticking(x0=0.0):
    S = np.zeros(STATE_SIZE)
    S[0] = 1.0
    S[4] = x0
    return S


def test_open_contact_gives_nothing_and_normal_force_never_pulls():
    P = params()
    fn, ft, F, S_new, _, _ = evaluate(P, [0.0, 0.0, 1e-3], [0.0, 0.0, 0.0], sticking())
    assert fn == 0.0 and not F.any() and S_new[0] == 0.0
    # Penetrating but leaving fast: kn p + cn vn < 0 is clipped.
    fn, *_ = evaluate(P, [0.0, 0.0, -1e-6], [0.0, 0.0, 10.0], sticking())
    assert fn == 0.0


def test_stick_force_and_its_consistent_tangent():
    P = params()
    d, v = np.array([2e-5, 0.0, -1e-3]), np.array([1e-3, 0.0, 0.0])
    fn, ft, F, S_new, Jd, Jv = evaluate(P, d, v, sticking())
    assert fn == pytest.approx(KN * 1e-3)
    assert F[0] == pytest.approx(-KT * 2e-5 - CT * 1e-3)
    assert F[2] == pytest.approx(fn)  # pushes the node away from the obstacle (+z)
    assert S_new[0] == 1.0
    eps = 1e-9
    for k in range(3):
        dd = np.zeros(3)
        dd[k] = eps
        Fp = evaluate(P, d + dd, v, sticking())[2]
        np.testing.assert_allclose((Fp - F) / eps, Jd[:, k], rtol=1e-5, atol=1e-3)


def test_slides_beyond_coulomb_against_the_velocity():
    P = params()
    fn, ft, F, S_new, _, _ = evaluate(P, [1e-1, 0.0, -1e-3], [0.0, 2e-3, 0.0], sticking())
    assert S_new[0] == 0.0 and ft == pytest.approx(MU * fn)
    assert F[1] == pytest.approx(-MU * fn) and F[0] == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("law,stored_dashpot", [("regularised", False),
                                                     ("stored_dashpot", True)])
def test_what_a_sticking_contact_stores(law, stored_dashpot):
    """regularised keeps the spring force only; stored_dashpot keeps the
    dashpot's too, so it reappears in the next increment even when the node has stopped."""
    P = params(law)
    S = sticking()
    _, _, F1, S1, _, _ = evaluate(P, [2e-5, 0.0, -1e-3], [1e-3, 0.0, 0.0], S)
    assert F1[0] == pytest.approx(-KT * 2e-5 - CT * 1e-3)
    _, _, F2, _, _, _ = evaluate(P, [2e-5, 0.0, -1e-3], [0.0, 0.0, 0.0], S1)
    expected = -KT * 2e-5 + (-CT * 1e-3 if stored_dashpot else 0.0)
    assert F2[0] == pytest.approx(expected)


def sliding(velocity):
    """State of a contact that slid along x at ``velocity`` (m/s) over the last step."""
    S = np.zeros(STATE_SIZE)
    S[1] = -np.sign(velocity) * MU * KN * 1e-3
    S[7] = velocity
    return S


@pytest.mark.parametrize("frozen,direction,S,d,dv,contradicted,decided", [
    # slid on along +x, the law agrees
    (0, 1.0, sliding(1e-3), [1e-4, 0.0, -1e-3], [1e-3, 0.0, 0.0], False, 0),
    # frozen slip along +x while the converged node turned back along -x: the cap would
    # push along the motion; the law sticks (spring force 500 N less the dashpot's 0.01 N)
    (0, 1.0, sliding(1e-3), [0.0, 0.0, -1e-3], [-1e-3, 0.0, 0.0], True, 1),
    # stick inside the cone (200 N spring force, limit 500 N)
    (1, 0.0, sticking(), [2e-2, 0.0, -1e-3], [0.0, 0.0, 0.0], False, 1),
    # stick beyond the cone (1000 N): the law slides
    (1, 0.0, sticking(), [1e-1, 0.0, -1e-3], [2e-3, 0.0, 0.0], True, 0),
])
def test_a_frozen_branch_is_checked_against_the_law(frozen, direction, S, d, dv,
                                                    contradicted, decided):
    """Newton freezes the stick/slip branch after a few iterations; at convergence the
    law, left free, must decide the same branch (and slip the same way)."""
    P = params()
    state = S.reshape(1, STATE_SIZE)
    branch = np.array([frozen], dtype=np.int64)
    slip_dir = np.array([[direction, 0.0, 0.0]])
    got = branch_contradicted(P, np.asarray(d, float), np.asarray(dv, float), state, branch,
                              slip_dir, np.zeros((1, 4)))
    assert got == contradicted
    assert branch[0] == decided
    if contradicted and decided == 0:
        np.testing.assert_allclose(slip_dir[0], np.sign(dv[0]) * np.array([1.0, 0.0, 0.0]))
