"""Rigid-block rocking (SDNV105 section 2.1): the manual's tables, the integrated equations,
impacts, reactions, table accelerations, uplift, overturning, the ``rigid`` kind and CLI.

The reference numbers are the published ones (CASES.md section 1), read from the case file
that holds them with their sources (cases/sdnv105_rigid.toml), not typed again here.
"""

import json
import math
import re

import numpy as np
import pytest
from acceptance import assert_all_pass
from rocking_ode import RESTITUTION, rocking, uplift_time

import rocking_contact as rc
from rocking_contact import cli
from rocking_contact.analytic.rigid_block import RigidBlock, closed_form, recalage
from rocking_contact.analytic.rigid_levels import compare_collisions, reference_collisions
from rocking_contact.analytic.rigid_motion import RockingSimulation, TableMotion
from rocking_contact.block import Geometry, Loading, Materials, Preload
from rocking_contact.results_io import read_history_csv

TILT = 0.01
BLOCK = RigidBlock(half_width=0.18, half_height=0.40, mass=417.6, gravity=9.81)

REFERENCES = {r.quantity: r for r in rc.load_case("sdnv105_rigid").reference}
# one reference per quantity, or the dict above would keep the last of two silently
assert len(REFERENCES) == len(rc.load_case("sdnv105_rigid").reference)
COLLISIONS = range(1, 6)
FIELDS = ("time", "kinetic_energy", "vy_before", "percussion_y")


def _values(level, fields=FIELDS):
    """Per collision 1..5 the case file's ``level.collision.k.field`` values."""
    return [tuple(REFERENCES[f"{level}.collision.{k}.{f}"].value for f in fields)
            for k in COLLISIONS]


# The manual's rigid table: t_k (s), Ekin before (J), v_y before (m/s), I_y (N.s); the
# corner each impact lands on; the lifts before impacts 1..5 and after the fifth (m).
RIGID_TABLE = _values("closed_form")
CORNERS = ["A", "O", "A", "O", "A"]
RIGID_LIFTS = [REFERENCES[f"closed_form.lift.{k}"].value for k in range(6)]
# Recalage: t_k, Ekin before, v_y before, I_y; lifts after impacts 1..5.
RECALAGE_TABLE = _values("recalage")
RECALAGE_LIFTS = [REFERENCES[f"recalage.lift.{k}"].value for k in COLLISIONS]
# The rigid equations integrated exactly with the restitution 0.7474: t_k, Ekin before.
INTEGRATED = {eq: _values(eq, FIELDS[:2]) for eq in ("linearised", "nonlinear")}
# Published to 1e-6 m: half a unit of the last digit (the case file's absolute tolerance).
LIFT_ROUNDING = 5e-7


def rel(a, b):
    return abs(a - b) / abs(b)


@pytest.fixture(scope="module")
def motions():
    return {eq: RockingSimulation(BLOCK, eq).run(TILT, 0.0, 0.33) for eq in INTEGRATED}


# -- the manual's tables ------------------------------------------------------------------


def test_closed_form_reproduces_the_rigid_table():
    seq = closed_form(BLOCK, TILT, 5)
    assert len(seq.impacts) == 5
    for imp, (t, ekin, vy, iy), corner in zip(seq.impacts, RIGID_TABLE, CORNERS, strict=True):
        assert imp.corner == corner
        assert rel(imp.time, t) < 1e-3
        assert rel(imp.kinetic_energy, ekin) < 1e-3
        assert rel(imp.vy_before, vy) < 1e-3
        assert rel(imp.percussion_y, iy) < 1e-3
    heights = [lift.height for lift in seq.lifts]
    assert [lift.corner for lift in seq.lifts] == ["A", "O", "A", "O", "A", "O"]
    assert {(r.tolerance, r.tolerance_kind) for q, r in REFERENCES.items() if ".lift." in q} == {
        (LIFT_ROUNDING, "absolute")}
    assert np.allclose(heights, RIGID_LIFTS, rtol=0, atol=LIFT_ROUNDING)


def test_recalage_reproduces_the_manual_from_079_and_077():
    seq = recalage(BLOCK, TILT, 5, velocity_ratio=0.79, interval_ratio=0.77)
    for imp, (t, ekin, vy, iy) in zip(seq.impacts, RECALAGE_TABLE, strict=True):
        assert rel(imp.time, t) < 1e-3
        assert rel(imp.kinetic_energy, ekin) < 1e-3
        assert rel(imp.vy_before, vy) < 1e-3
        assert rel(imp.percussion_y, iy) < 1e-3
    assert np.allclose([lift.height for lift in seq.lifts[1:]], RECALAGE_LIFTS, rtol=0,
                       atol=LIFT_ROUNDING)


@pytest.mark.parametrize("equation", ["linearised", "nonlinear"])
def test_integrated_equations_match_the_independent_integration(motions, equation):
    impacts = motions[equation].sequence.impacts
    for imp, (t, ekin) in zip(impacts, INTEGRATED[equation]):
        assert rel(imp.time, t) < 1e-5
        assert rel(imp.kinetic_energy, ekin) < 1e-5
    assert [i.corner for i in impacts[:5]] == CORNERS


def test_the_integrated_tables_are_the_equations_solved_here():
    """INTEGRATED's origin: the nonlinear equation integrated by scipy (rocking_ode.py);
    the linearised one, theta'' = p^2 (theta - b/l) about the pivot, in closed form: from
    the tilt at rest cosh(p t1) = (b/l) / (b/l - tilt), omega1 = p sqrt((b/l)^2 -
    (b/l - tilt)^2), then flights of 2 atanh(e omega / (p b/l)) / p. Housner's e between
    flights, 4/3 M R^2 omega^2 / 2 before each impact; to the tables' printed digits."""
    inertia = 4 / 3 * 417.6 * (0.18**2 + 0.40**2)  # about a corner (kg m^2)
    t, theta, omega, corner = 0.0, TILT, 0.0, "O"
    for t_k, ekin in INTEGRATED["nonlinear"]:
        flight = rocking(t, theta, omega, corner, 1.0)
        [t], [[_, omega]] = flight.t_events[0], flight.y_events[0]
        assert t == pytest.approx(t_k, abs=5e-9) and inertia * omega**2 / 2 == pytest.approx(
            ekin, abs=5e-7)
        theta, omega, corner = 0.0, RESTITUTION * omega, {"O": "A", "A": "O"}[corner]
    ratio, p = 0.18 / 0.40, math.sqrt(3 * 9.81 * 0.40 / (4 * (0.18**2 + 0.40**2)))
    t = math.acosh(ratio / (ratio - TILT)) / p
    omega = p * math.sqrt(ratio**2 - (ratio - TILT) ** 2)
    for t_k, ekin in INTEGRATED["linearised"]:
        assert t == pytest.approx(t_k, abs=5e-9)
        assert inertia * omega**2 / 2 == pytest.approx(ekin, abs=5e-7)
        omega *= RESTITUTION
        t += 2 * math.atanh(omega / (p * ratio)) / p


def test_closed_form_is_about_one_percent_off_the_integrated_equations(motions):
    cf = closed_form(BLOCK, TILT, 5).impacts
    nl = motions["nonlinear"].sequence.impacts
    energy = [c.kinetic_energy / n.kinetic_energy - 1 for c, n in zip(cf, nl)]
    late = [c.time / n.time - 1 for c, n in zip(cf, nl)]
    assert all(0.010 < e < 0.012 for e in energy)
    assert max(late) == pytest.approx(0.008, abs=5e-4)
    # the energy it adds is the dropped -M g l tilt^2 / 2 (linearised equation)
    lin = motions["linearised"].sequence.impacts[0]
    dropped = BLOCK.mass * BLOCK.gravity * BLOCK.half_height * TILT**2 / 2
    assert cf[0].kinetic_energy - lin.kinetic_energy == pytest.approx(dropped, rel=1e-8)


# -- mechanics: impacts, energy, reactions ------------------------------------------------


def test_restitution_from_angular_momentum_and_energy_ratio():
    b, r2 = BLOCK.half_width, BLOCK.radius**2
    assert BLOCK.restitution == pytest.approx((2 * r2 - 3 * b * b) / (2 * r2), rel=1e-14)
    assert BLOCK.restitution == pytest.approx(REFERENCES["restitution"].value, abs=5e-5)
    assert BLOCK.restitution**2 == pytest.approx(REFERENCES["energy_ratio"].value, rel=1e-6)
    assert BLOCK.rocking_frequency == pytest.approx(REFERENCES["rocking_frequency"].value,
                                                    rel=1e-4)


def test_energy_lost_per_impact_and_conserved_in_flight(motions):
    e2 = BLOCK.restitution**2
    impacts = motions["nonlinear"].sequence.impacts
    for imp in impacts:
        assert imp.energy_ratio == pytest.approx(e2, rel=1e-12)
    # no loss in flight: the next impact comes with the energy the last one left
    for before, after in zip(impacts, impacts[1:]):
        assert after.kinetic_energy == pytest.approx(before.kinetic_energy_after, rel=1e-9)
    # first impact: the potential energy released, M g (b sin + l cos - l)
    b, h = BLOCK.half_width, BLOCK.half_height
    drop = BLOCK.mass * BLOCK.gravity * (b * math.sin(TILT) + h * math.cos(TILT) - h)
    assert impacts[0].kinetic_energy == pytest.approx(drop, rel=1e-10)


def test_linearised_first_impact_is_the_cosh_root():
    """Event location against the closed-form solution of the linearised equation."""
    ratio = BLOCK.half_width / BLOCK.half_height
    p = math.sqrt(3 * BLOCK.gravity * BLOCK.half_height / (4 * BLOCK.radius**2))
    t1 = math.acosh(ratio / (ratio - TILT)) / p
    motion = RockingSimulation(BLOCK, "linearised").run(TILT, 0.0, 0.1)
    assert motion.sequence.impacts[0].time == pytest.approx(t1, rel=1e-11)


def test_percussions_at_impact():
    imp = BLOCK.impact(-0.37, "A")
    b, r2 = BLOCK.half_width, BLOCK.radius**2
    assert imp.percussion_y == pytest.approx((4 * r2 - 3 * b * b) / (2 * r2) * BLOCK.mass * b
                                             * 0.37, rel=1e-12)
    assert abs(imp.percussion_x) / imp.percussion_y == pytest.approx(
        REFERENCES["percussion.ratio"].value, rel=1e-3)
    assert imp.percussion_x > 0  # on A, same sign as RX_A
    assert BLOCK.impact(0.37, "O").percussion_x < 0


def test_free_flight_reactions():
    vertical, horizontal = BLOCK.free_flight_reactions()
    rn_ref, rx_ref = (REFERENCES[f"reaction.{d}"].value for d in ("vertical", "horizontal"))
    assert vertical == pytest.approx(rn_ref, rel=1e-5)
    assert horizontal == pytest.approx(rx_ref, rel=1e-5)
    assert abs(horizontal) / vertical == pytest.approx(REFERENCES["reaction.ratio"].value,
                                                       rel=1e-3)
    # the exact reaction at theta = 0, omega = 0 is the same, with the sign of the corner
    for corner, sign in (("O", -1.0), ("A", 1.0)):
        theta_dd = BLOCK.angular_acceleration(0.0, corner)
        rn, rx = BLOCK.pivot_reaction(0.0, 0.0, theta_dd, corner)
        assert rn == pytest.approx(rn_ref, rel=1e-5)
        assert rx == pytest.approx(-sign * rx_ref, rel=1e-5)


def test_history_reactions_and_corners(motions):
    h = motions["nonlinear"].history
    t = h["time"]
    first = (t > 0) & (t < 0.054)
    assert np.all(h["RN_A"][first] == 0) and np.all(h["RN_O"][first] > 3570)
    assert np.all(h["RX_O"][first] < 0)
    second = (t > 0.055) & (t < 0.135)
    assert np.all(h["RX_A"][second] > 0) and np.all(h["DY_A"][second] == 0)
    assert h["DY_O"][second].max() == pytest.approx(
        motions["nonlinear"].sequence.lifts[1].height, rel=1e-12)


def test_the_lifted_corner_moves_the_way_its_lift_does(motions):
    """A corner's VY has the sign of its lift's change, at the impact rows too (theta = 0,
    where the landing corner and the one leaving are both at the table): the row after
    impact 1 gave O -0.0993 m/s as it left the table, the row as O landed +0.0993 m/s."""
    for h in (m.history for m in motions.values()):
        for corner in ("O", "A"):
            dy, vy = h[f"DY_{corner}"], h[f"VY_{corner}"]
            rising, falling = np.diff(dy) > 0, np.diff(dy) < 0
            assert np.all(vy[:-1][rising] > 0) and np.all(vy[1:][falling] < 0), corner
            assert rising.sum() >= 2 and falling.sum() >= 2, corner


# -- table acceleration, uplift, overturning ----------------------------------------------


def constant(value):
    return lambda t: value


@pytest.mark.parametrize("sign,corner", [(1.0, "O"), (-1.0, "A")])
def test_constant_table_acceleration_uplift_threshold(sign, corner):
    """A block at rest lifts iff |ux| > g b / l; onto O when the table pulls to +x."""
    threshold = BLOCK.uplift_acceleration()
    assert threshold == pytest.approx(9.81 * 0.18 / 0.40)
    below = RockingSimulation(BLOCK, table=TableMotion(constant(sign * 0.99 * threshold)))
    quiet = below.run(0.0, 0.0, 0.2)
    assert quiet.outcome == "rest" and not quiet.events and not quiet.sequence.impacts
    above = RockingSimulation(BLOCK, table=TableMotion(constant(sign * 1.01 * threshold)))
    moving = above.run(0.0, 0.0, 2.0)
    uplift = moving.events[0]
    assert (uplift.kind, uplift.time, uplift.corner) == ("uplift", 0.0, corner)
    # held above the threshold, nothing brings it back: it topples over the same corner,
    # and on a moving table the run follows it until it lies on its side
    assert moving.outcome == "overturned" and moving.events[-1].kind == "overturn"
    assert moving.events[-1].corner == corner
    theta = moving.history["THETA"][-1]
    assert sign * theta == pytest.approx(math.pi / 2, rel=1e-9)


def test_uplift_instant_of_a_ramp_and_vertical_acceleration():
    threshold = BLOCK.uplift_acceleration()
    ramp = RockingSimulation(BLOCK, table=TableMotion(lambda t: 2.0 * threshold * t),
                             max_step=1e-2)
    motion = ramp.run(0.0, 0.0, 0.6)
    assert motion.events[0].kind == "uplift"
    assert motion.events[0].time == pytest.approx(0.5, rel=1e-12)
    # the table falling at g/2 halves the threshold
    assert BLOCK.uplift_acceleration(-BLOCK.gravity / 2) == pytest.approx(threshold / 2)
    lighter = RockingSimulation(BLOCK, table=TableMotion(constant(0.6 * threshold),
                                                         constant(-BLOCK.gravity / 2)))
    assert lighter.run(0.0, 0.0, 0.05).events[0].kind == "uplift"


def test_mirror_symmetry_under_table_acceleration():
    table = TableMotion(lambda t: 6.0 * math.sin(2 * math.pi * 2.0 * t))
    mirror = TableMotion(lambda t: -6.0 * math.sin(2 * math.pi * 2.0 * t))
    a = RockingSimulation(BLOCK, table=table, max_step=1e-3).run(0.0, 0.0, 1.0)
    b = RockingSimulation(BLOCK, table=mirror, max_step=1e-3).run(0.0, 0.0, 1.0)
    assert len(a.sequence.impacts) >= 2
    assert [i.time for i in a.sequence.impacts] == pytest.approx(
        [i.time for i in b.sequence.impacts], rel=1e-9)
    assert np.allclose(a.history["THETA"], -b.history["THETA"], atol=1e-12)


def shaken(amplitude, frequency, **more):
    """Overrides of the rigid case: from rest on a table shaken along x by a sine."""
    return {"preload.tilt": 0.0, "loading.table_acceleration_x.type": "sine",
            "loading.table_acceleration_x.amplitude": amplitude,
            "loading.table_acceleration_x.frequency": frequency, **more}


def test_an_uplift_shorter_than_the_history_step_is_found():
    """The threshold 4.4145 m/s^2 is passed for 8 ms around each crest of 4.42 sin(4 pi t):
    the uplifts do not depend on the history step (before, a 0.05 s step saw none and the
    block stayed at rest). Instants: where the sine first reaches g b / l,
    asin(4.4145 / 4.42) / (4 pi) = 0.1210297268 s, and every half period after (corners O,
    A, O)."""
    runs = {step: rc.run(rc.load_case("sdnv105_rigid", shaken(
        4.42, 2.0, **{"time.end": 0.7, "time.step": step})), write=False, quiet=True)
        for step in (0.05, 1e-3)}
    for run in runs.values():
        uplifts = [e for e in run.extra["events"] if e["kind"] == "uplift"]
        first = uplift_time(4.42, 2.0)
        assert [e["time"] for e in uplifts] == pytest.approx(
            [first, first + 0.25, first + 0.5], abs=1e-9)
        assert [e["corner"] for e in uplifts] == ["O", "A", "O"]
    assert runs[0.05].collisions == runs[1e-3].collisions


def test_a_pulse_between_samples_lifts_the_block(tmp_path):
    """A 0.2 ms pulse of 20 m/s^2 in a table of samples: the table's breakpoints are
    searched, so the uplift is found inside the pulse, where the ramp passes g b / l."""
    table = {"preload.tilt": 0.0, "loading.table_acceleration_x.type": "table",
             "loading.table_acceleration_x.times": [0.0, 0.1, 0.1001, 0.1002, 1.0],
             "loading.table_acceleration_x.values": [0.0, 0.0, 20.0, 0.0, 0.0],
             "time.end": 0.3}
    run = rc.run(rc.load_case("sdnv105_rigid", table), write=False, quiet=True)
    uplift = run.extra["events"][0]
    assert uplift["kind"] == "uplift" and uplift["corner"] == "O"
    assert uplift["time"] == pytest.approx(0.1 + 1e-4 * BLOCK.uplift_acceleration() / 20.0,
                                           rel=1e-12)


def test_a_shaken_block_past_the_static_angle_can_come_back():
    """8 m/s^2 at 1 Hz from rest: the block turns past atan(b/l) = 0.4229 rad to 0.5969 rad,
    the table pulls it back and it lands on A at 1.132819 s with 216.21 J (relative to the
    table), as the rocking equations integrated by scipy (rocking_ode.py) give. On a moving
    table the run calls the block overturned only on its side (pi/2); before, it stopped at
    0.5418 s and said it overturned."""
    run = rc.run(rc.load_case("sdnv105_rigid", shaken(8.0, 1.0, **{"time.end": 1.2})),
                 write=False, quiet=True)
    assert run.extra["outcome"] == "rocking"
    on_o = rocking(uplift_time(8.0, 1.0), 0.0, 0.0, "O", 1.2, 8.0, 1.0)
    [landing], [[_, omega]] = on_o.t_events[0], on_o.y_events[0]
    turned = on_o.sol(np.linspace(on_o.t[0], landing, 200001))[0].max()
    assert np.max(np.abs(run.history["THETA"])) == pytest.approx(turned, abs=1e-5)
    first = run.collisions[0]
    assert (first["corner"], first["time"]) == ("A", pytest.approx(landing, abs=1e-6))
    inertia = 4 / 3 * 417.6 * (0.18**2 + 0.40**2)  # about a corner, 4/3 M R^2 (kg m^2)
    assert first["kinetic_energy"] == pytest.approx(inertia * omega**2 / 2, rel=1e-4)
    assert run.quantities["overturn.angle"] == pytest.approx(math.pi / 2)
    # on a still table the limit is the static one, of the level's equation
    still = {"time.end": 0.1}
    for level, angle in (("nonlinear", math.atan(0.45)), ("linearised", 0.45)):
        q = rc.run(rc.load_case("sdnv105_rigid", {**still, "rigid.level": level}),
                   write=False, quiet=True).quantities
        assert q["overturn.angle"] == pytest.approx(angle, rel=1e-15)


def test_overturning_from_a_large_tilt():
    alpha = math.atan(0.18 / 0.40)
    topples = RockingSimulation(BLOCK).run(alpha + 0.02, 0.0, 0.33)
    assert topples.outcome == "overturned" and topples.events[0].time == 0.0
    rocks = RockingSimulation(BLOCK).run(alpha - 0.02, 0.0, 3.0)
    assert rocks.outcome == "rest" and len(rocks.sequence.impacts) > 5
    assert not any(e.kind == "overturn" for e in rocks.events)


def test_rest_after_the_accumulation_of_impacts():
    motion = RockingSimulation(BLOCK).run(TILT, 0.0, 0.6)
    assert motion.outcome == "rest"
    rest = motion.events[-1]
    # the flights shrink geometrically (ratio ~e): they end near t1 + 2 t1 e / (1 - e)
    e, t1 = BLOCK.restitution, motion.sequence.impacts[0].time
    assert rest.time == pytest.approx(t1 + 2 * t1 * e / (1 - e), rel=1e-2)
    assert motion.history["EKIN_BLOCK"][-1] == 0.0


# -- the rigid kind, its case file and the command line -----------------------------------


def test_case_uses_the_shared_block_sections():
    case = rc.load_case("sdnv105_rigid", ["preload.tilt=0.02", "material.block.density=1000",
                                          "loading.gravity=9.8", "geometry.half_width=0.2"])
    assert isinstance(case.geometry, Geometry) and isinstance(case.material, Materials)
    assert isinstance(case.loading, Loading) and isinstance(case.preload, Preload)
    assert (case.preload.tilt, case.material.block.density) == (0.02, 1000.0)
    assert (case.loading.gravity, case.geometry.half_width) == (9.8, 0.2)


def test_shipped_case_passes_its_references(tmp_path):
    result = rc.run(rc.load_case("sdnv105_rigid"), out=tmp_path, plots=False, quiet=True)
    graded = assert_all_pass(result)
    assert len(graded) > 60
    sources = {c["source"] for c in graded}
    assert {"analytic rigid, closed form (SDNV105 manual)", "analytic rigid, integrated",
            "recalage (SDNV105 manual)"} <= sources
    data = json.loads((tmp_path / "results.json").read_text())
    assert [c["index"] for c in data["collisions"][:5]] == [1, 2, 3, 4, 5]
    quantities = data["quantities"]
    assert quantities["collision.2.time"] == quantities["nonlinear.collision.2.time"]
    columns = read_history_csv(tmp_path / "history.csv")
    assert list(columns) == ["time", "THETA", "OMEGA", "EKIN_BLOCK", "DY_O", "DY_A", "VY_O",
                             "VY_A", "RN_O", "RN_A", "RX_O", "RX_A"]
    # the kinetic-energy maximum of the history is the collision (Code_Aster's measure)
    t, ekin = columns["time"], columns["EKIN_BLOCK"]
    window = (t >= 0.10) & (t <= 0.33)
    assert t[window][np.argmax(ekin[window])] == pytest.approx(
        data["collisions"][1]["time"], abs=1e-9)


def test_table_acceleration_from_a_csv_record(tmp_path):
    threshold = 9.81 * 0.18 / 0.40
    record = tmp_path / "table.csv"
    np.savetxt(record, [[0.0, 0.0], [0.2, 2.0 * threshold]], delimiter=",")
    case = rc.load_case("sdnv105_rigid", {
        "preload.tilt": 0.0, "time.end": 0.2,
        "loading.table_acceleration_x": {"type": "table", "path": str(record)}})
    result = rc.run(case, write=False, quiet=True)
    assert result.quantities["uplift.1.time"] == pytest.approx(0.1, rel=1e-10)
    assert "closed_form.collision.1.time" not in result.quantities


def test_the_rigid_block_has_no_table_ends():
    """A wider block needs no table keys (the FEM cases' table must reach both corners)."""
    wide = {"geometry.half_width": 0.3, "geometry.half_height": 0.5, "time.end": 0.1}
    run = rc.run(rc.load_case("sdnv105_rigid", wide), write=False, quiet=True)
    assert run.quantities["overturn.angle"] == pytest.approx(math.atan(0.6))
    with pytest.raises(rc.CaseError, match=r"geometry\.half_width: 0\.3 puts corner A at "
                                           r"2 b = 0\.6 m, past the table's right end "
                                           r"table_right = 0\.54"):
        rc.load_case("sdnv105d", wide)


def test_compare_collisions_api():
    case = rc.load_case("sdnv105_rigid")
    refs = reference_collisions(case)
    assert list(refs) == ["closed_form", "linearised", "nonlinear", "recalage"]
    ours = [{"index": i.index, "time": i.time, "kinetic_energy": i.kinetic_energy}
            for i in refs["nonlinear"].impacts[:5]]
    rows, quantities = compare_collisions(ours, refs)
    assert len(rows) == 5
    assert quantities["rigid.nonlinear.collision.3.time_error"] == 0.0
    assert quantities["rigid.closed_form.collision.1.energy_error"] == pytest.approx(
        INTEGRATED["nonlinear"][0][1] / RIGID_TABLE[0][1] - 1, rel=1e-5)


def test_cli_prints_the_levels_side_by_side(tmp_path, capsys):
    code = cli.main(["rigid", "--no-plots", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "closed form" in out and "nonlinear" in out and "recalage" in out
    assert "0.05441079" in out and "+1.13 %" in out
    assert (tmp_path / "results.json").is_file() and (tmp_path / "history.csv").is_file()
    # the closed form's first instant, 1.9e-5 early, printed "-0.00 %"
    assert "-0.00 %" not in out and " 0.00 %, +1.13 %" in out
    # the summary line is run's ("79/79 reference checks pass; results in ...")
    last = out.splitlines()[-1]
    assert re.fullmatch(rf"sdnv105_rigid: \d+ steps, \S+ s wall, (\d+)/\1 checks pass; "
                        rf"results in {re.escape(str(tmp_path))}/", last), last


@pytest.mark.parametrize("override", ["preload.tilt=abc", "preload.tilt=0.7",
                                      "rigid.level=exact", "geometry.width=1",
                                      "material.block.density=-1",
                                      "rigid.recalage_interval_ratio=0"])
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, capsys, override):
    code = cli.main(["rigid", "--quiet", "--no-plots", "--out", str(tmp_path),
                     "--set", override])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert "\n" not in err
    # the file, the key, what is wrong and what is allowed
    source = rc.load_case("sdnv105_rigid").source_file
    assert err.startswith(f"error: {source} (with --set): {override.split('=')[0]}: "), err
    assert "allowed" in err or "expected" in err, err


def test_a_signed_gravity_is_told_it_is_a_magnitude(tmp_path, capsys):
    """-9.81 (a y component) would otherwise be told ">= 0", and 0 then refused as well."""
    code = cli.main(["rigid", "--quiet", "--no-plots", "--out", str(tmp_path),
                     "--set", "loading.gravity=-9.81"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err
    assert "loading.gravity: got -9.81" in err and "the magnitude (gravity acts along -y)" in err


def test_cli_warns_when_the_block_would_slide(tmp_path, capsys):
    """|RX|/RN of the pivot reaches 0.3212 in flight: a friction of 0.3 cannot hold it."""
    code = cli.main(["rigid", "--quiet", "--no-plots", "--out", str(tmp_path),
                     "--set", "rigid.friction=0.3"])
    err = capsys.readouterr().err.splitlines()
    assert code == 0
    assert len(err) == 2 and err[0].startswith("warning: sdnv105_rigid: |RX|/RN reaches 0.32")
    assert "would slide" in err[0]
    # another coefficient is another block: the references are the file's (session 31)
    assert "the run changes rigid.friction: the checks are shown for information" in err[1]
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["warnings"] == [e.removeprefix("warning: sdnv105_rigid: ") for e in err]


def test_rigid_takes_a_block_case_and_runs_its_rigid_twin(tmp_path, capsys):
    """`rigid --case <block case>`: her own FEM block's rigid reference without retyping
    its geometry, density, gravity, table motion and tilt with --set (it was refused)."""
    from rocking_contact.analytic.rigid_runner import rigid_twin

    code = cli.main(["rigid", "--case", "sdnv105d", "--no-plots", "--out",
                     str(tmp_path), "--set", "time.end=0.1"])
    captured = capsys.readouterr()
    assert code == 0 and captured.err == ""
    assert captured.out.startswith("sdnv105d_rigid: rigid block b = 0.18 m, l = 0.4 m")
    assert captured.out.rstrip().endswith(f"results in {tmp_path}/")
    data = json.loads((tmp_path / "results.json").read_text())
    block = rc.load_case("sdnv105d", {"time.end": 0.1})
    assert data["parameters"]["preload"]["angle"] == block.release_angle
    assert data["parameters"]["time"]["end"] == 0.1 and data["checks"] == []
    expected = reference_collisions(block, tilt=block.release_angle)["nonlinear"].impacts[0]
    assert data["collisions"][0]["time"] == pytest.approx(expected.time, rel=1e-12)
    shaking = rc.load_case("sdnv105d_shaking")
    twin = rigid_twin(shaking)
    assert twin.loading.table_acceleration_x == shaking.loading.table_acceleration_x
    assert twin.loading.table_acceleration_y == shaking.loading.table_acceleration_y
    assert twin.case.name == "sdnv105d_shaking_rigid"
    wide = rigid_twin(rc.load_case("sdnv105d", {"geometry.table_left": -0.3,
                                                "geometry.table_right": 0.8}))
    assert (wide.geometry.table_left, wide.geometry.table_right) == (-0.3, 0.8)


def test_rigid_takes_its_case_as_run_does_or_with_case(tmp_path, capsys):
    """`rigid sdnv105a` said "unrecognized arguments" (run, view, keys and mesh take the
    case so); --case keeps working, and both at once is refused as mesh refuses it."""
    argv = ["rigid", "--no-plots", "--set", "time.end=0.1"]
    assert cli.main([*argv, "sdnv105d", "--out", str(tmp_path / "a")]) == 0
    assert cli.main([*argv, "--case", "sdnv105d", "--out", str(tmp_path / "b")]) == 0
    wall = re.sub(r"\S+ s wall", "", capsys.readouterr().out)
    outs = wall.split("sdnv105d_rigid: rigid block")
    assert len(outs) == 3 and outs[1].replace("/a/", "/b/") == outs[2]
    assert cli.main([*argv, "sdnv105d", "--case", "sdnv105a", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        "error: --case: 'sdnv105a' given beside the case 'sdnv105d' (allowed: one of them)\n")


def test_rigid_refuses_a_discrete_case_in_one_line(tmp_path, capsys):
    code = cli.main(["rigid", "--case", "sdnd101a", "--quiet", "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err
    assert "case.kind: got 'discrete', the rigid command needs kind = 'rigid', or 'block'" in err


def test_no_recalage_level_for_another_block(tmp_path, capsys):
    """The manual's 0.79 and 0.77 were fitted on Code_Aster's elastic SDNV105 block: on a
    0.5 m wide block (which keeps 0.335 of its energy per rigid impact, not 0.62) they put
    the second impact 18 % late with 88 % more energy, and the level was printed next to
    the exact ones. It is left out, and one line says why."""
    code = cli.main(["rigid", "--no-plots", "--out", str(tmp_path),
                     "--set", "geometry.half_width=0.25"])
    out = capsys.readouterr().out
    assert code == 0
    assert "recalage t (s)" not in out and "nonlinear t (s)" in out
    assert "recalage:" not in out
    (note,) = [line for line in out.splitlines() if "recalage level" in line]
    assert note.startswith("no recalage level: its ratios 0.79 and 0.77 were fitted by the "
                           "SDNV105 manual on its elastic block, and this run has "
                           "geometry.half_width 0.25 m (SDNV105's: 0.18); give ")
    data = json.loads((tmp_path / "results.json").read_text())
    assert set(data["extra"]["levels"]) == {"closed_form", "linearised", "nonlinear"}
    assert not any(name.startswith("recalage.") for name in data["quantities"])
    assert data["extra"]["recalage"] == {"ratios": None, "own": False, "note": note}


@pytest.mark.parametrize("change", [{"material.block.density": 2000.0},
                                    {"loading.gravity": 20.0}, {"preload.tilt": 0.02}])
def test_the_recalage_needs_sdnv105s_block_and_release(change):
    run = rc.run(rc.load_case("sdnv105_rigid", {**change, "time.end": 0.2}), write=False,
                 quiet=True)
    assert "recalage" not in run.extra["levels"]
    assert run.extra["recalage"]["note"].startswith("no recalage level")
    # the thickness scales masses and forces alike: still SDNV105's block
    thick = rc.run(rc.load_case("sdnv105_rigid", {"geometry.thickness": 2.0, "time.end": 0.2}),
                   write=False, quiet=True)
    assert thick.quantities["recalage.collision.2.time"] == pytest.approx(
        RECALAGE_TABLE[1][0], rel=1e-3)


def test_the_fem_preloads_release_sdnv105s_block_for_its_recalage():
    """A and D release it at 0.0100002 rad (pivot O1), B at 0.0099889 rad (pivot O): their
    rigid twins and comparisons keep the recalage; a wider FEM block's has none."""
    for name in ("sdnv105a", "sdnv105b", "sdnv105d"):
        case = rc.load_case(name)
        assert "recalage" in reference_collisions(case, tilt=case.release_angle)
    wide = rc.load_case("sdnv105d", {"geometry.half_width": 0.25, "geometry.table_right": 0.6})
    assert list(reference_collisions(wide, tilt=wide.release_angle)) == [
        "closed_form", "linearised", "nonlinear"]


def test_the_cases_own_recalage_ratios_apply_to_any_block(capsys, tmp_path):
    """Ratios other than the manual's are the case's own fit: the level is computed with
    them (impact 1 is the rigid one; energies then scale by 0.7^2 per impact and the
    flights by 0.75 from 2 t1), and a line says whose ratios they are."""
    code = cli.main(["rigid", "--no-plots", "--out", str(tmp_path),
                     "--set", "geometry.half_width=0.25",
                     "--set", "rigid.recalage_restitution=0.7",
                     "--set", "rigid.recalage_interval_ratio=0.75"])
    out = capsys.readouterr().out
    assert code == 0 and "recalage t (s)" in out
    assert ("recalage: the case's ratios 0.7 on sqrt(kinetic energy) and 0.75 on the flight "
            "times (not the SDNV105 manual's fit)") in out
    q = json.loads((tmp_path / "results.json").read_text())["quantities"]
    t1, e1 = q["closed_form.collision.1.time"], q["closed_form.collision.1.kinetic_energy"]
    assert q["recalage.collision.1.time"] == t1
    assert q["recalage.collision.2.kinetic_energy"] == pytest.approx(0.7**2 * e1, rel=1e-12)
    assert q["recalage.collision.3.time"] == pytest.approx(t1 + 2 * t1 * (0.75 + 0.75**2),
                                                          rel=1e-12)


@pytest.mark.parametrize("equation", ["nonlinear", "linearised"])
def test_one_overturn_angle_for_the_fem_block_and_the_rigid_one(equation):
    """The FEM side's Geometry.overturn_angle and RigidBlock.overturn_angle are one formula
    (block.static_overturn_angle): at that angle the gravity moment of the rigid equation
    (exact, or linearised in theta) vanishes, the unstable equilibrium over the corner."""
    geometry = Geometry(half_width=0.3, half_height=0.5)
    block = RigidBlock.from_parameters(geometry, Materials().block, Loading())
    angle = block.overturn_angle(equation)
    if equation == "nonlinear":
        assert geometry.overturn_angle == angle == math.atan(0.6)
    else:
        assert angle == 0.6
    assert block.angular_acceleration(angle, "O", equation=equation) == pytest.approx(
        0.0, abs=1e-14)
    assert block.angular_acceleration(0.99 * angle, "O", equation=equation) < 0.0


# -- squat blocks: b >= sqrt(2) l stops at its first impact -------------------------------

SQUAT = RigidBlock(half_width=0.5, half_height=0.15, mass=435.0, gravity=9.81)


def test_a_squat_blocks_impact_stops_it_flat():
    """b > sqrt(2) l: the angular momentum about the landing corner would turn the block
    back through the table (e = -0.376). Both corners land; with no rebound and no sliding
    the block stops: omega+ = 0, and the percussion is the whole momentum M vG-. Of it,
    the old pivot O takes M |omega-| (b^2 - 2 l^2) / (3 b) >= 0 (the moment balance about G
    of the two corners' impulses), which is what makes both corners landing admissible."""
    assert SQUAT.restitution == pytest.approx(-0.376147, abs=5e-7)
    omega = -0.7
    imp = SQUAT.impact(omega, "A")
    assert imp.omega_after == 0.0 and imp.kinetic_energy_after == 0.0
    assert imp.energy_ratio == 0.0
    b, h, m = SQUAT.half_width, SQUAT.half_height, SQUAT.mass
    assert imp.percussion_y == pytest.approx(m * b * abs(omega), rel=1e-14)
    assert imp.percussion_x == pytest.approx(m * h * abs(omega), rel=1e-14)  # on A, as RX_A
    j_g = m * (b * b + h * h) / 3
    on_o = (m * b * abs(omega) - abs(omega) * (j_g + m * h * h) / b) / 2
    assert on_o == pytest.approx(m * abs(omega) * (b * b - 2 * h * h) / (3 * b), rel=1e-12)
    assert on_o > 0.0


@pytest.mark.parametrize("equation", ["linearised", "nonlinear"])
def test_a_squat_block_comes_to_rest_at_its_first_impact(equation):
    """It was turned back through the table at once, landed again at the same instant,
    and the run listed 20 impacts at t = 0.038539 s."""
    motion = RockingSimulation(SQUAT, equation).run(TILT, 0.0, 0.2, np.linspace(0, 0.2, 401))
    (impact,) = motion.sequence.impacts
    assert impact.omega_after == 0.0 and impact.corner == "A"
    assert motion.outcome == "rest"
    (rest,) = motion.events
    assert rest.kind == "rest" and rest.time == impact.time
    assert "restitution -0.376 <= 0" in rest.note and "b/l = 3.333 > sqrt(2)" in rest.note
    after = motion.history["time"] >= impact.time
    assert after.sum() > 300
    for column in ("THETA", "OMEGA", "EKIN_BLOCK", "DY_O", "DY_A"):
        assert np.all(motion.history[column][after][1:] == 0.0), column
    assert [lift.index for lift in motion.sequence.lifts] == [0]


def test_the_squat_blocks_closed_form_has_one_impact():
    """Its flights were chained with the negative restitution: t2 = 0.0095 s < t1."""
    seq = closed_form(SQUAT, TILT, 5)
    (impact,) = seq.impacts
    assert impact.omega_after == 0.0 and impact.kinetic_energy_after == 0.0
    assert impact.percussion_y == pytest.approx(
        SQUAT.mass * SQUAT.half_width * abs(impact.omega_before), rel=1e-14)
    assert [lift.index for lift in seq.lifts] == [0]


@pytest.mark.parametrize(("b", "h"), [(0.18, 0.40), (0.5, 0.15), (0.02, 1.0), (1.0, 0.02),
                                      (math.sqrt(2) * 0.3, 0.3), (1.414 * 0.3, 0.3),
                                      (1.415 * 0.3, 0.3)])
def test_every_levels_impacts_run_forward(b, h):
    """Slender, squat and the border b = sqrt(2) l (e = 0 there): the impacts come one
    after the other in time, each with less energy than the last, and alternate corners."""
    block = RigidBlock(half_width=b, half_height=h, mass=100.0)
    tilt = 0.5 * block.overturn_angle()
    end = 20.0 * closed_form(block, tilt, 1).impacts[0].time
    sequences = {"closed_form": closed_form(block, tilt, 8)}
    for equation in ("linearised", "nonlinear"):
        sequences[equation] = RockingSimulation(block, equation).run(tilt, 0.0, end).sequence
    for level, seq in sequences.items():
        impacts = seq.impacts
        assert impacts, level
        times = [i.time for i in impacts]
        assert all(a < b for a, b in zip(times, times[1:])), (level, times)
        energies = [i.kinetic_energy for i in impacts]
        assert all(a > b for a, b in zip(energies, energies[1:])), (level, energies)
        assert [i.corner for i in impacts] == ["A", "O"] * (len(impacts) // 2) + ["A"] * (
            len(impacts) % 2)
        if block.restitution <= 0.0:
            assert len(impacts) == 1 and impacts[0].omega_after == 0.0, level


def test_the_rigid_command_says_a_squat_block_stops(tmp_path, capsys):
    code = cli.main(["rigid", "--no-plots", "--out", str(tmp_path),
                     "--set", "geometry.half_width=0.5", "--set", "geometry.half_height=0.15"])
    out = capsys.readouterr().out
    assert code == 0
    assert ("event: rest at t = 0.03853893 s (flat) the first impact stops it: restitution "
            "-0.376 <= 0 for b/l = 3.333 > sqrt(2)") in out
    # one row in each table: no rows of dashes for impacts no level has
    assert [line.split()[0] for line in out.splitlines() if line[:2] in ("1 ", "2 ")] == [
        "1", "1"]
    data = json.loads((tmp_path / "results.json").read_text())
    assert len(data["collisions"]) == 1 and data["extra"]["outcome"] == "rest"
    for level in ("closed_form", "linearised", "nonlinear"):
        assert len(data["extra"]["levels"][level]["impacts"]) == 1, level
    q = data["quantities"]
    assert "collision.2.time" not in q and q["energy_ratio"] == 0.0
    assert q["restitution"] == pytest.approx(-0.376147, abs=5e-7)
    assert q["rest.time"] == q["collision.1.time"]
    (rest,) = data["extra"]["events"]
    assert rest["kind"] == "rest" and rest["note"].startswith("the first impact stops it")


# -- keys the rigid block does not read ----------------------------------------------------


@pytest.mark.parametrize("override", ["material.block.young=1e9", "material.block.poisson=0.3",
                                      "material.block.rayleigh_stiffness=0",
                                      "material.table.density=1000", "preload.pivot=O"])
def test_a_key_the_rigid_block_does_not_read_is_refused(tmp_path, capsys, override):
    """They were taken, ignored, and counted as a change of the physics: all 92 checks
    shown ungraded (`validate` refused the run as one that "changes the physics")."""
    key = override.split("=")[0]
    for command in (["rigid", "--no-plots", "--out", str(tmp_path)],
                    ["validate", "sdnv105_rigid", "--no-plots"]):
        code = cli.main([*command, "--set", override])
        err = capsys.readouterr().err.strip()
        assert code == 2 and "\n" not in err, err
        assert f"(with --set): {key}: " in err and "not read by the rigid block" in err, err
        assert "material.block.density" in err and "allowed: leave it out" in err, err


def test_the_rigid_block_takes_the_unread_keys_at_their_defaults():
    """The shipped case file lists the FEM block's elastic constants at their values."""
    case = rc.load_case("sdnv105_rigid", ["material.block.young=6e11"])
    assert case.material.block.young == 6e11
    case.material.block.young = 1e9
    with pytest.raises(rc.CaseError, match=r"material\.block\.young: got 1e\+09, not read by "
                                           r"the rigid block"):
        rc.run(case, write=False, quiet=True)


def test_the_rigid_twin_is_a_run_of_its_block_case(tmp_path):
    """`rigid tall.toml` was reported as sdnv105_rigid changed ("the run changes
    geometry.half_height = 0.5, ..., preload.tilt = 0.0100002", references "shown for
    information" that it has none of, no rerun): the twin's changes are the block case's
    own, its provenance is the block case's loading, its rerun the `rigid` command line, and
    that command gives the same history byte for byte."""
    block = tmp_path / "tall.toml"
    block.write_text('extends = "sdnv105d"\nquantity = []\nreference = []\n[case]\n'
                     'name = "tall"\ntitle = "a tall block"\nkind = "block"\n'
                     "[geometry]\nhalf_width = 0.1\nhalf_height = 0.5\n"
                     "[initial]\npreload_steps = 2\n[time]\nend = 0.1\n")
    as_written, tilted = tmp_path / "as_written", tmp_path / "tilted"
    argv = ["rigid", "--quiet", "--no-plots", str(block)]
    assert cli.main([*argv, "--out", str(as_written)]) == 0
    assert cli.main([*argv, "--set", "preload.tilt=0.02", "--out", str(tilted)]) == 0
    data = json.loads((as_written / "results.json").read_text())
    assert data["case"] == "tall_rigid" and data["extra"]["twin_of"] == "tall"
    assert data["extra"]["changes"] == [] and data["warnings"] == []
    provenance = data["provenance"]
    assert provenance["rerun"] == f"rocking-contact rigid {block} --out {as_written}"
    assert provenance["case_file"] == str(block.resolve())
    assert [(f["path"], f["read_as"]) for f in provenance["files"]] == [
        (str(block.resolve()), "case file"),
        (str(rc.load_case("sdnv105d").source_file.resolve()), "extended"),
        (str(rc.load_case("sdnv105a").source_file.resolve()), "extended"),
        (str(rc.load_case("sdnv105_rigid").source_file.resolve()), "rigid levels")]
    changed = json.loads((tilted / "results.json").read_text())
    assert changed["extra"]["changes"] == ["preload.angle"]  # the twin's release angle
    rerun = changed["provenance"]["rerun"]
    assert rerun == (f"rocking-contact rigid {block} --set preload.tilt=0.02 --out {tilted}")
    again = tmp_path / "again"
    words = rerun.split()[1:-1] + [str(again)]
    assert cli.main([*words, "--quiet", "--no-plots"]) == 0
    assert (again / "history.csv").read_bytes() == (tilted / "history.csv").read_bytes()


def test_a_table_falling_faster_than_gravity_throws_the_flat_block_off():
    """A flat block on a table whose downward acceleration passes g was reported rocking
    about O after an "uplift" (audit s25 #6: the margin (g + uy) b / l of both corners turns
    negative there, and O was tried first), its pivot then pulling on the table (-585 N).
    It leaves the table, which the rigid model does not follow: a ``jump`` event where
    g + uy = 0, outcome ``jumped``, no uplift, the history ending there. (With a horizontal
    acceleration too, the threshold (g + uy) b / l falls to it first: the block tips.)"""
    g = BLOCK.gravity
    table = TableMotion(vertical=lambda t: -1.5 * g * math.sin(2 * math.pi * 5.0 * t),
                        resolution=1e-3)
    motion = RockingSimulation(BLOCK, table=table, max_step=1e-3).run(0.0, 0.0, 0.1)
    assert motion.outcome == "jumped"
    assert [e.kind for e in motion.events] == ["jump"]
    # sin(2 pi 5 t) = 1 / 1.5 first at t = asin(2/3) / (10 pi)
    assert motion.events[0].time == pytest.approx(math.asin(2 / 3) / (10 * math.pi), abs=1e-12)
    assert motion.history["time"][-1] == pytest.approx(motion.events[0].time, abs=1e-12)
    # held up from the start: jumps at once
    falling = TableMotion(vertical=constant(-1.1 * g))
    at_once = RockingSimulation(BLOCK, table=falling).run(0.0, 0.0, 0.1)
    assert at_once.outcome == "jumped" and at_once.events[0].time == 0.0


def test_no_rigid_twin_of_a_block_released_at_rest(tmp_path, capsys):
    """A block with initial.state = 'rest' reads no [preload]: its twin was released from
    the file's tilt (0.0100002 rad) with no change and no warning while the block starts
    flat. Refused in one line, exit 2, nothing written."""
    out = tmp_path / "twin"
    code = cli.main(["rigid", "--case", "sdnv105d", "--quiet", "--no-plots", "--out", str(out),
                     "--set", "initial.state=rest", "--set", "collisions.rigid=false"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip().endswith("initial.state: 'rest' gives no preload tilt to release the "
                                "rigid twin (rocking-contact rigid) from; allowed: 'preload'")
    assert len(err.strip().splitlines()) == 1 and not out.exists()


def test_a_rocking_block_leaves_the_table_when_its_pivot_would_pull():
    """Under the table of the flat block's jump, a block rocking went on about a pivot
    pulling on the table (RN down to -212.7 N, outcome 'rocking', a warning alone; S27 U1
    #10). It leaves the table as the flat one does: a ``jump`` event where its pivot's
    normal force falls to 0, about that pivot, outcome ``jumped``, the history ending
    there. The rocking pulls the pivot up too: a little before g + uy = 0."""
    block = RigidBlock(half_width=0.1, half_height=0.5, mass=96.0, gravity=9.81)
    table = TableMotion(vertical=lambda t: 12.0 * math.sin(2 * math.pi * 2.0 * t),
                        resolution=1 / 64)
    flat = RockingSimulation(block, table=table).run(0.0, 0.0, 2.0)
    rocking = RockingSimulation(block, table=table).run(0.05, 0.0, 2.0)
    assert flat.outcome == rocking.outcome == "jumped"
    jump = rocking.events[-1]
    assert (jump.kind, jump.corner) == ("jump", "A") and "normal force falls to 0" in jump.note
    # g + uy = 0 at asin(-9.81 / 12) wrapped to the first fall, as the flat block finds it
    falls = (math.pi + math.asin(9.81 / 12.0)) / (4 * math.pi)
    assert flat.events[-1].time == pytest.approx(falls, abs=1e-12)
    assert falls - 0.01 < jump.time < falls
    history = rocking.history
    assert history["time"][-1] == jump.time
    pressing = history["EKIN_BLOCK"] > 0
    rn = (history["RN_O"] + history["RN_A"])[pressing]
    assert rn.min() > -1e-9 * block.mass * block.gravity  # never pulling
    assert abs(rn[-1]) < 1e-9 * block.mass * block.gravity  # 0 where it leaves


def test_a_table_that_steps_down_at_a_breakpoint_lifts_the_rocking_block_there():
    """A table given in Python may step at a breakpoint (a case file's are continuous):
    the pivot's force, positive at the breakpoint itself, is below 0 right after it, and
    the event finds that crossing at the breakpoint (a review's worry: a segment starting
    below 0 would show no crossing; none does, the force at a segment's start is the one
    at the previous segment's end)."""
    block = RigidBlock(half_width=0.1, half_height=0.5, mass=96.0, gravity=9.81)
    # the value at the breakpoint is the one before it: the segment ending there is smooth
    table = TableMotion(vertical=lambda t: -20.0 if t > 0.03 else 0.0, breakpoints=(0.03,))
    motion = RockingSimulation(block, table=table).run(0.05, 0.0, 0.2)
    assert motion.outcome == "jumped"
    assert (motion.events[-1].kind, motion.events[-1].time) == ("jump", 0.03)
    assert motion.history["time"][-1] == 0.03
