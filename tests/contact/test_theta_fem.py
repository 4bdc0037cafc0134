"""The theta treatment (Moreau-Jean) on the SDNV105 block: the first impact of sdnv105d
against the rigid block, LMGC90 and the contact law itself (coarse mesh, h = 1e-4 s)."""

import numpy as np
import pytest
from acceptance import assert_all_pass, assert_misses_are, case_reference, within

import rocking_contact as rc
from rocking_contact.analytic.rigid_block import RigidBlock
from rocking_contact.contact.moreau_relations import corner_landing_step

H = 1e-4
FIRST = {"time.end": 0.06, "collisions.windows": [[0.0, 0.06]]}
#: the rigid equations integrated exactly, and LMGC90 with issue 5's marks (2 %, 3 %), as
#: the case file holds them
RIGID_T1, RIGID_E1 = (case_reference("sdnv105d", f"collision.1.{f}", "analytic rigid, integrated"
                                     ).value for f in ("time", "kinetic_energy"))
def _lmgc90_first(case: str):
    """LMGC90's first collision instant and energy in ``case``, with issue 5's marks."""
    return (case_reference(case, "collision.1.time", "LMGC90", mark=0.02),
            case_reference(case, "collision.1.kinetic_energy", "LMGC90", mark=0.03))


def _flight(case: str):
    """Issue 5's free-flight reactions in ``case`` (within 1 % of the rigid pivot's)."""
    return [case_reference(case, q, "analytic rigid", mark=0.01)
            for q in ("rn_max_O_flight", "rx_min_O_flight")]


LMGC90_T1, LMGC90_E1 = _lmgc90_first("sdnv105d")
FLIGHT = _flight("sdnv105d")
#: issue 5's percussion mark (within 5 % of the rigid 48.73 N.s), missed: docs/theta.md
PERCUSSION_MISS = ("the elastic corner lands over two 1e-4 s steps and hops off: 55.33 N.s "
                   "on the 25-node mesh, 55.74 N.s on the 0.02 m one, +13.55 % and +14.4 % of "
                   "the rigid block's percussion without rebound")


def _run(overrides):
    return rc.run(rc.load_case("sdnv105d", overrides), write=False, plots=False, quiet=True)


@pytest.fixture(scope="module")
def first():
    return _run(FIRST)


def _checks(result):
    return {(c["quantity"], c["reference"]): c for c in result.checks}


def test_first_impact_against_the_rigid_block_and_lmgc90(first):
    assert first.status == "completed"
    (c,) = first.collisions
    assert c["interior"]
    # the last step before the impact step holds the kinetic-energy peak
    assert RIGID_T1 - H <= c["time"] <= RIGID_T1
    assert within(c["time"], LMGC90_T1), c
    # an elastic body reaches the impact with a little less than the rigid block
    assert RIGID_E1 * (1 - 1e-3) <= c["kinetic_energy"] <= RIGID_E1
    assert within(c["kinetic_energy"], LMGC90_E1), c


def test_free_flight_reactions_and_percussion(first):
    q = first.quantities
    for ref in FLIGHT:
        assert within(q[ref.quantity], ref), (ref, q[ref.quantity])
    # the exact rigid reactions over the flight: 3602.0 N -> 3556.6 N, -1129.2 -> -1139.8 N
    assert 3556.0 <= q["rn_max_O_flight"] <= 3603.0
    assert -1140.5 <= q["rx_min_O_flight"] <= -1129.0
    # The percussion is the impulse of the steps the window [0.05440, 0.05455] s touches,
    # all of each: the corner lands in the two steps ending at 0.0545 and 0.0546 s, then
    # hops off the table (no impulse at 0.0547 s).
    t, pn = first.history["time"], first.history["PN_BASE"]
    landing = np.flatnonzero((t > 0.05440 + 1e-9) & (t < 0.05455 + H))
    assert t[landing] == pytest.approx([0.0545, 0.0546], abs=1e-12)
    assert np.all(pn[landing] > 10.0) and pn[landing[-1] + 1] == 0.0
    assert q["percussion_RN_base"] == pytest.approx(pn[landing].sum(), rel=1e-12)
    # on the 25-node mesh the corner node takes the whole percussion (O lifts off)
    assert q["percussion_RN_A"] == pytest.approx(q["percussion_RN_base"], rel=1e-9)
    # sticking at A: the horizontal percussion is 0.3212 of the vertical one (rigid)
    ratio = case_reference("sdnv105_rigid", "percussion.ratio", "analytic rigid, closed form")
    assert within(q["percussion_RX_A"] / q["percussion_RN_A"], ratio, 0.05)
    # the run ends at 0.06 s
    assert_misses_are(first, {"percussion_RN_base": PERCUSSION_MISS}, unreached=True)


def test_first_impact_on_the_fine_mesh():
    """The 0.02 m variant (issue 5's finer mesh): the first impact, the flight reactions and
    the percussion of the whole base (shared by the base nodes near A here) against the
    issue's marks: all pass but the percussion (PERCUSSION_MISS)."""
    fine = rc.run(rc.load_case("sdnv105d_fine", FIRST), write=False, plots=False, quiet=True)
    (c,) = fine.collisions
    assert c["interior"] and RIGID_T1 - H <= c["time"] <= RIGID_T1
    t1, e1 = _lmgc90_first("sdnv105d_fine")
    assert within(c["time"], t1) and within(c["kinetic_energy"], e1), c
    q = fine.quantities
    for ref in _flight("sdnv105d_fine"):
        assert within(q[ref.quantity], ref), (ref, q[ref.quantity])
    assert_misses_are(fine, {"percussion_RN_base": PERCUSSION_MISS}, unreached=True)


def test_the_coarse_step_variant_passes_its_marks():
    """cases/variants/sdnv105d_step5e-4, its whole 0.33 s (660 steps, a few seconds): issue
    5's second acceptance, the five collision instants within 3 % of LMGC90 with 5e-4 s
    steps, graded from the variant's own references. (Only the slow test_theta_validation
    ran this case; every case has a fast test.)"""
    result = rc.run(rc.load_case("sdnv105d_step5e-4"), write=False, plots=False, quiet=True)
    assert result.status == "completed", result.status
    assert [c["index"] for c in result.collisions if c["interior"]] == [1, 2, 3, 4, 5]
    graded = assert_all_pass(result)
    assert sorted(c["quantity"] for c in graded) == [f"collision.{k}.time"
                                                      for k in range(1, 6)]


def test_the_contact_law_holds_at_the_pivot(first):
    """While O carries the block, its normal and tangential velocities are those of the
    table node under it (the table settles under the new load by 1e-8 m/s, against the
    0.13 m/s of the falling corner), and the base does not slide (|RX| / RN = 0.32 < 0.9)."""
    h = first.history
    t = h["time"]
    pivot = (h["PN_O"] > 0) & (t > H) & (t < RIGID_T1 - H)
    assert pivot.sum() > 500
    assert np.max(np.abs(h["VY_O"][pivot])) < 1e-7
    assert np.max(np.abs(h["VX_O"][pivot])) < 1e-7
    assert np.all(h["SLIDING"] == 0)
    ratio = np.abs(h["RX_O"][pivot]) / h["RN_O"][pivot]
    assert np.all(ratio < 0.33)


def test_landing_penetrates_less_than_a_step_and_is_lifted(first):
    h = first.history
    vy = np.max(np.abs(h["VY_A"]))
    assert -np.min(h["DY_A"]) <= H * vy  # the step before the corner became active
    pressed = h["PN_A"] > 0
    assert pressed.any()
    # once active, the rigid lift closes the gap: the corner sits on the table
    assert np.max(np.abs(h["DY_A"][pressed])) < 1e-9


def test_coupled_newton_converges_in_few_passes(first):
    assert first.timing["contact_iterations_max_per_step"] <= 3
    assert first.timing["halvings"] == 0
    assert first.timing["iterations_per_step_max"] <= 6


def test_energy_balance_closes_with_the_trapezoidal_theta():
    """theta = 1/2 dissipates nothing: the energy taken by the impulses (work of P with
    the mean velocity of the step), given by the rigid lifts and dissipated by the damping
    accounts for the whole change of the mechanical energy, impact included."""
    result = _run({**FIRST, "scheme.theta": 0.5})
    h = result.history
    assert h["ECONTACT"][-1] > 2.5  # the first impact takes ~3 J
    assert np.max(np.abs(h["ENERGY_RESIDUAL"])) < 1e-3 * np.max(h["EKIN_BLOCK"])


def test_small_strain_takes_one_pass_per_step():
    result = _run({"time.end": 0.003, "kinematics.type": "small_strain",
                   "collisions.windows": []})
    h = result.history
    assert np.all(h["CONTACT_ITERATIONS"][1:] == 1)
    assert result.timing["newton_iterations"] == result.timing["steps"]


def test_newton_restitution_at_the_first_impact():
    """e = 0.5: the landing corner leaves the table at half its impact speed."""
    result = _run({"time.end": 0.0546, "collisions.windows": [], "contact.restitution": 0.5})
    h = result.history
    k = int(np.argmax(h["PN_A"] > 0))  # the impact step
    before, after = h["VY_A"][k - 1], h["VY_A"][k]
    assert before < -0.13
    assert after == pytest.approx(-0.5 * before, rel=0.02)


def test_rigid_percussion_formula_matches_the_case_reference():
    """The rigid block landing with the manual's first-order energy gives the percussion
    sdnv105d grades against (48.73 N.s, printed to 4 digits)."""
    block = RigidBlock(0.18, 0.40, 417.6, 9.81)
    energy = case_reference("sdnv105d", "collision.1.kinetic_energy", "analytic rigid, closed")
    percussion = case_reference("sdnv105d", "percussion_RN_base", "analytic rigid")
    impact = block.impact(-(2 * energy.value / block.inertia) ** 0.5, "A")
    assert within(impact.percussion_y, percussion, 1e-3)


def test_without_gravity_the_tilted_block_stays_at_rest():
    """Tilted by the preload and released with no gravity, nothing acts on the block. Its
    Newton updates (of a velocity that is zero) stall at the round-off of the large-rotation
    forces, 1e-5 N; the default test compared them with the velocity and never converged:
    the run failed at its sixth step after five halvings. The test on the end displacement
    settles them."""
    case = rc.load_case("sdnv105d", {"loading.gravity": 0.0, "collisions.rigid": False,
                                     "time.end": 0.01})
    result = rc.run(case, write=False, plots=False, quiet=True)
    assert result.status == "completed" and result.timing["halvings"] == 0
    assert np.max(np.abs(result.history["VY_A"])) < 1e-9
    theta = np.asarray(result.history["THETA"])
    assert np.ptp(theta) < 1e-9 * theta[0]


def test_newton_restitution_of_a_stiff_block_is_the_rigid_blocks():
    """Young's modulus x 100 and e = 0.5: over a 1e-4 s step the block is rigid, and the
    landing on A (sticking, O free to lift) is the rigid block's Moreau-Jean step with
    Newton's law at the corner. Momentum balance of that step (G at the origin, A at
    (b, -l), the weight over the whole step): omega+ = r omega- + M g b h / J with
    r = 1 - 3 b^2 (1 + e) / (2 R^2) = 0.6211 (the continuous impact) and J = 4/3 M R^2;
    percussions on the block P_y = -M b (omega+ + (1 + 2 e) omega-) + M g h and
    P_x = M l (omega- - omega+). (On the shipped block the corner rings instead:
    docs/theta.md, "Restitution".)"""
    e = 0.5
    block = RigidBlock(0.18, 0.40, 4 * 0.18 * 0.40 * 1450.0)
    result = _run({"time.end": 0.0547, "collisions.windows": [], "contact.restitution": e,
                   "material.block.young": 6.0e13})
    h = result.history
    k = int(np.argmax(h["PN_A"] > 0))  # the impact step
    omega_before = (h["THETA"][k - 1] - h["THETA"][k - 2]) / H
    omega_after = (h["THETA"][k + 2] - h["THETA"][k + 1]) / H  # in flight: constant
    rigid_after, vertical, horizontal = corner_landing_step(block, omega_before, e, H)
    assert omega_after == pytest.approx(rigid_after, rel=3e-3)
    assert h["VY_A"][k] == pytest.approx(-e * h["VY_A"][k - 1], rel=1e-3)
    assert h["PN_A"][k] == pytest.approx(vertical, rel=3e-3)
    assert h["PX_A"][k] == pytest.approx(-horizontal, rel=3e-3)  # PX_A: on the table


def test_a_failed_step_names_its_residual_with_unit_and_tolerance():
    """One coupled pass cannot converge a large-rotation step: the failure says which
    residual stopped it, in which unit, against which tolerance (it printed a bare
    'last residual 1.936e-03', a force norm or an impulse depending on where it stopped)."""
    case = rc.load_case("sdnv105d", {"time.end": 0.001, "collisions.windows": [],
                                     "contact.max_iterations": 1, "solver.max_halvings": 0})
    with pytest.raises(rc.SolverFailure) as failure:
        rc.run(case, write=False, plots=False, quiet=True)
    message = str(failure.value)
    assert "active contacts (predicted gap closed): O;" in message
    assert "coupled residual" in message and " N at pass 1 (tolerance " in message
    assert failure.value.partial.history["time"][0] == 0.0


def test_rows_every_ten_steps_carry_the_impulses_since_the_previous_row(first):
    """output.every = 10: each row's impulses are the sum of its ten steps' (the run's
    steps are the same), its forces their mean over the interval, so the impact's
    percussion is in the history. Each row carried only its own step's impulse: the
    impact step was not recorded, and the history held no percussion at all."""
    sparse = _run({**FIRST, "output.every": 10}).history
    dense = first.history
    assert len(sparse["time"]) == 61 and len(dense["time"]) == 601
    for column in ("PN_O", "PX_O", "PN_A", "PX_A", "PN_BASE"):
        sums = np.add.reduceat(dense[column][1:], np.arange(0, 600, 10))
        np.testing.assert_allclose(sparse[column][1:], sums, rtol=1e-9, atol=1e-12)
    interval = np.diff(sparse["time"])
    np.testing.assert_allclose(sparse["RN_BASE"][1:] * interval, sparse["PN_BASE"][1:],
                               rtol=1e-9)
    # the row of the impact holds the impact step's impulse (42.4 N.s at theta = 0.6; 48.7 N.s
    # with the next step's, the percussion) and A's share of the weight after it
    impact = int(np.argmax(dense["PN_A"] > 0))
    row = int(np.argmax(sparse["PN_A"] > 0))
    assert sparse["time"][row - 1] < dense["time"][impact] <= sparse["time"][row]
    assert sparse["PN_A"][row] > dense["PN_A"][impact] > 40.0


WEIGHT = 4 * 0.18 * 0.40 * 1450.0 * 9.81  # M g of the block (1 m thick), N


def test_the_first_row_carries_the_reactions_of_the_preload(first):
    """t = 0, before any step, the block stands on O in the static equilibrium of the
    preload: O is its only vertical support (the pull at C1 and the pivot O1's hold are
    horizontal), so it carries the whole weight, and with the pivot at O1 no horizontal
    force; O1 and A have lifted. No impulse yet, nothing slides. The row held zeros (an
    impulse over no step); the first step's mean force is the release transient, below the
    weight."""
    h = first.history
    assert h["time"][0] == 0.0
    assert h["RN_O"][0] == pytest.approx(WEIGHT, rel=1e-6)
    assert h["RN_BASE"][0] == h["RN_O"][0]
    assert abs(h["RX_O"][0]) < 1e-6 * WEIGHT  # the static solve's round-off
    for column in ("RN_A", "RX_A", "RN_O1", "RX_O1", "PN_O", "PX_O", "PN_A", "PX_A", "PN_O1",
                   "PX_O1", "PN_BASE", "SLIDING"):
        assert h[column][0] == 0.0, column
    assert h["CONTACTS"][0] == 1
    assert 3500.0 < h["RN_O"][1] < 0.95 * WEIGHT


def test_with_the_pivot_at_o_the_first_row_holds_its_horizontal_reaction_too():
    """Code_Aster's test B preload holds O in x: O then also balances the pull at C1 (the
    top middle), which the moment about O of the tilted block sets:
    F = M g x_G / y_C1, with G at (b cos t - l sin t, b sin t + l cos t) and C1 at
    (b cos t - 2 l sin t, b sin t + 2 l cos t) from O; the block pushes the table along -x.
    Without a preload (initial.state = "rest", undeformed: no equilibrium) the row keeps
    zeros."""
    h = _run({"time.end": 1e-4, "collisions.windows": [], "preload.pivot": "O"}).history
    tilt, b, half_height = h["THETA"][0], 0.18, 0.40
    x_g = b * np.cos(tilt) - half_height * np.sin(tilt)
    y_c1 = b * np.sin(tilt) + 2 * half_height * np.cos(tilt)
    assert h["RN_O"][0] == pytest.approx(WEIGHT, rel=1e-6)
    assert h["RX_O"][0] == pytest.approx(-WEIGHT * x_g / y_c1, rel=1e-4)  # -899.3 N
    assert h["CONTACTS"][0] == 1 and h["SLIDING"][0] == 0.0
    rest = _run({"time.end": 1e-4, "collisions.windows": [], "collisions.rigid": False,
                 "initial.state": "rest"}).history
    for column in ("RN_O", "RX_O", "RN_A", "RN_BASE", "CONTACTS"):
        assert rest[column][0] == 0.0, column
    assert rest["CONTACTS"][1] == 5  # the whole base stands on the table after one step
