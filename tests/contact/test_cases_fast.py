"""The SDNV105 contact cases, shortened to the first collision (fast; the coarse Code_Aster
mesh and the 0.02 m variants).

The issue's acceptance numbers that this part of the run decides, on both meshes: the first
collision (instant within 0.2% of 0.0544098 s, kinetic energy within 1% of 7.292 J), the lift of A
(within 0.5% of 0.0036 m), the free-flight reactions at O (the issue's 1% / 2% of 3579.25 N /
-1149.79 N, over Code_Aster's test window 0.01 < t < 0.05 s: over the issue's [0, 0.05] s
they hold the release and miss, which test_validation.py grades); and the contract of the
results (history columns, ``collisions``, energy balance). The full runs are in
test_validation.py (slow).
"""

import math

import numpy as np
import pytest
from acceptance import case_reference, within

import rocking_contact as rc

FIRST_IMPACT = {"time.end": 0.0575, "collisions.windows": [[0.0, 0.0575]]}
COLUMNS = ("time", "EKIN_BLOCK", "DY_O", "DY_A", "VY_O", "VY_A", "RN_O", "RN_A", "RX_O",
           "RX_A", "ENERGY_RESIDUAL")
#: the first collision's instant and the issue's mark on it, as the case file holds them
#: (the rigid block's, closed form)
T1 = case_reference("sdnv105a", "collision.1.time", "analytic rigid, closed form", mark=0.002)
FINE = ("sdnv105a_fine", "sdnv105c_fine", "sdnv105b_fine")  # cases/variants/, 0.02 m cells


@pytest.fixture(scope="module")
def runs(serial_run):
    return {name: serial_run(name, FIRST_IMPACT)
            for name in ("sdnv105a", "sdnv105c", "sdnv105b", "sdnv105b_plain_springs", *FINE)}


def _lift_A(result):
    """Highest lift of A (m) in the shortened run. The case's ``dy_max_A`` is taken over
    [0, 0.33] s, which the run does not reach (no value); the highest lift is the release
    tilt's, as the block loses energy at every impact."""
    return float(np.max(result.history["DY_A"]))


@pytest.mark.parametrize("name", ["sdnv105a", "sdnv105c", "sdnv105b", *FINE])
def test_results_contract(runs, name):
    result = runs[name]
    assert result.status == "completed"
    for column in COLUMNS:
        assert column in result.history, column
    (collision,) = result.collisions
    assert set(collision) >= {"index", "time", "kinetic_energy"} and collision["interior"]
    assert result.quantities["collision.1.time"] == collision["time"]
    assert "rigid.nonlinear.collision.1.time_error" in result.quantities
    assert math.isfinite(result.quantities["energy.residual.max_abs"])


@pytest.mark.parametrize("name", ["sdnv105a", "sdnv105c", "sdnv105b", *FINE])
def test_first_collision_and_free_flight_reactions(runs, name):
    """The first collision (within 0.2 % of the rigid block's instant, 1 % of its kinetic
    energy), the lift of A, and the free-flight reactions at O with the issue's marks (1 % of
    3579.25 N, 2 % of -1149.79 N) applied to ``rn_max_O_ca_window`` and
    ``rx_min_O_ca_window``: over Code_Aster's test window 0.01 < t < 0.05 s, not the issue's
    [0, 0.05] s. Over [0, 0.05] s (``rn_max_O``, ``rx_min_O``) the reactions hold the
    release and miss (A 4096.5 N, the static reaction at t = 0, and -1364.1 N at the first
    step; B 4183.9 N, -2017.3 N): those are
    graded, as known misses, by the slow validation (test_validation.py, ``KNOWN_MISSES``).
    Measured 2026-11-23 over Code_Aster's window: A and C +0.57 % / -1.11 %, fine A and C
    +0.57 % / -1.10 %, B +0.99 % / +0.14 %, fine B +0.83 % / -0.59 %."""
    q = runs[name].quantities
    t1, e1 = (case_reference(name, f"collision.1.{f}", source, mark=mark) for f, source, mark in (
        ("time", "analytic rigid, closed form", 0.002),
        ("kinetic_energy", "analytic rigid, integrated", 0.01)))
    assert within(q["collision.1.time"], t1), q["collision.1.time"]
    assert within(q["collision.1.kinetic_energy"], e1), q["collision.1.kinetic_energy"]
    assert math.isnan(q["dy_max_A"])
    assert within(_lift_A(runs[name]), case_reference(name, "dy_max_A", "analytic rigid",
                                                      mark=0.005))
    # the rigid reactions of the Code_Aster window, with the issue's marks (rn_max_O's and
    # rx_min_O's tolerances: their windows hold the release)
    for window, issue, mark in (("rn_max_O_ca_window", "rn_max_O", 0.01),
                                ("rx_min_O_ca_window", "rx_min_O", 0.02)):
        case_reference(name, issue, "analytic rigid", mark=mark)
        assert within(q[window], case_reference(name, window, "analytic rigid"), mark), (
            window, q[window])


@pytest.mark.parametrize("name,rel", [("sdnv105a", 1e-4), ("sdnv105c", 1e-4),
                                      (FINE[0], 1e-4), (FINE[1], 1e-4), ("sdnv105b", 3e-3)])
def test_reactions_over_code_asters_window_are_code_asters(runs, name, rel):
    """Over Code_Aster's own window, 0.01 < t < 0.05 s, the reactions at O are Code_Aster's
    (the case file's values): A and C to 1e-4 (3599.52 N, -1137.17 N; measured 3.5e-6,
    7.7e-5), B within 0.3 % (README, "Where we stand"; measured 2.9e-3, 1.2e-3)."""
    checks = {c["quantity"]: c for c in runs[name].checks
              if c["source"].startswith("Code_Aster SDNV105")}
    for quantity in ("rn_max_O_ca_window", "rx_min_O_ca_window"):
        c = checks[quantity]
        assert abs(c["value"] - c["reference"]) <= rel * abs(c["reference"]), c


@pytest.mark.parametrize("name", ["sdnv105a", "sdnv105c"])
def test_energy_balance_closes_in_free_flight(runs, name):
    """Average acceleration conserves the discrete energy: before the first collision
    window only the release window's alpha = -0.1 steps leave a residual (micro-joules)."""
    h = runs[name].history
    before = h["time"] <= 0.0525
    assert np.max(np.abs(h["ENERGY_RESIDUAL"][before])) <= 1e-5
    assert h["EKIN_BLOCK"][before][-1] > 6.7  # and it is not trivially zero


def test_penalty_springs_take_over_from_the_support(runs):
    """B: at the release the spring under O carries the weight the support carried."""
    h = runs["sdnv105b"].history
    weight = 4 * 1450.0 * 0.18 * 0.40 * 9.81
    assert h["RN_O"][0] == pytest.approx(weight, rel=1e-6)
    assert h["DY_O"][0] == pytest.approx(-weight / 3.0e10, rel=1e-6)
    assert h["RN_A"][0] == 0.0 and h["RN_O1"][0] == 0.0
    assert within(_lift_A(runs["sdnv105b"]), case_reference("sdnv105b", "dy_max_A",
                                                            "analytic rigid"))
    before = h["time"] <= 0.05375
    assert np.max(np.abs(h["ENERGY_RESIDUAL"][before])) <= 1e-3


@pytest.mark.parametrize("gap", [-1e-6, 1e-6])
def test_penalty_release_keeps_the_gap(gap):
    """A gap is free travel from where the preload left the block: with an interference
    (gap < 0) the spring under O is closed, the block is lowered by ``R / kn`` onto it and
    the interference stays on top of that; with a clearance (gap > 0) nothing is lowered
    and the block falls the gap (it was lowered by ``R / kn + gap`` before 2026-11-23)."""
    sets = {"time.end": 2.5e-5, "collisions.windows": [[0.0, 2.5e-5]]}
    sets |= {f"contact.spring.{i}.gap": gap for i in range(3)}
    h = rc.run(rc.load_case("sdnv105b", sets), write=False, plots=False, quiet=True).history
    weight, kn = 4 * 1450.0 * 0.18 * 0.40 * 9.81, 3.0e10
    if gap < 0:
        assert h["RN_O"][0] == pytest.approx(weight - kn * gap, rel=1e-6)
        assert h["DY_O"][0] == pytest.approx(-weight / kn, rel=1e-6)
    else:
        assert h["RN_O"][0] == 0.0 and h["DY_O"][0] == 0.0


def test_anchor_pins_the_base_and_gives_code_asters_first_impact(runs):
    """B's corners that touch are pinned in x by the anchor (3e10 N/m on the total shift: it
    carries RX but for the stick spring and dashpot's newtons) and the block lands as
    Code_Aster's B; the plain springs let the base sway and the block land early
    (docs/contact.md, "B: what Code_Aster's B is")."""
    b, plain = runs["sdnv105b"], runs["sdnv105b_plain_springs"]
    flight = b.history["time"] <= 0.05
    shift = b.history["DX_O"][flight]
    assert np.max(np.abs(shift)) <= 1e-7
    assert np.allclose(b.history["RX_O"][flight][1:], 3.0e10 * shift[1:], rtol=0.05)
    sway = plain.history["DX_O"][plain.history["time"] <= 0.05]
    assert np.max(np.abs(sway)) >= 1e-4
    assert not within(plain.quantities["collision.1.time"], T1)
    code_aster = {c["quantity"]: c for c in b.checks if c["source"] == "Code_Aster SDNV105 B"}
    for quantity in ("collision.1.time", "collision.1.kinetic_energy"):
        c = code_aster[quantity]
        assert abs(c["value"] - c["reference"]) <= 1e-4 * abs(c["reference"]), c


def test_lagrange_and_continuous_agree_on_the_first_impact(runs):
    a, c = runs["sdnv105a"].history, runs["sdnv105c"].history
    n = min(len(a["time"]), len(c["time"]))
    assert np.allclose(a["time"][:n], c["time"][:n])
    assert np.max(np.abs(a["DY_A"][:n] - c["DY_A"][:n])) <= 1e-9
    assert np.max(np.abs(a["RN_A"][:n] - c["RN_A"][:n])) <= 1e-3 * np.max(a["RN_A"])


def test_small_strain_falls_like_the_first_order_rigid_block():
    """Small strain turns the tilt into an infinitesimal rotation: the potential is linear
    in theta, M g b theta (7.374 J at the impact), and the block falls under the constant
    torque M g b alone, 4/3 M R^2 theta'' = -M g b, so t1 = sqrt(8 R^2 theta / (3 g b))
    (0.0539 s, 0.9% before the large-rotation instant, which has the M g l theta term)."""
    case = rc.load_case("sdnv105a", {**FIRST_IMPACT, "kinematics.type": "small_strain"})
    result = rc.run(case, write=False, plots=False, quiet=True)
    b, half_height = case.geometry.half_width, case.geometry.half_height
    g, theta = case.loading.gravity, case.preload.tilt
    t1 = math.sqrt(8 * (b * b + half_height**2) * theta / (3 * g * b))
    # M g b theta: the manual's closed-form energy (the case's reference of that source)
    first_order = case_reference(case, "collision.1.kinetic_energy", "analytic rigid, closed")
    assert within(result.quantities["collision.1.kinetic_energy"], first_order, 0.002)
    assert abs(result.quantities["collision.1.time"] - t1) <= 0.002 * t1, (
        result.quantities["collision.1.time"], t1)
