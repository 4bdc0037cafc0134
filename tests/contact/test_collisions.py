"""Collision instants from a kinetic-energy history (post.collisions), without a run."""

import math
from types import SimpleNamespace

import numpy as np
import pytest
from acceptance import case_reference

from rocking_contact.config import Reference
from rocking_contact.post.collision_warnings import collisions_not_found_warnings
from rocking_contact.post.collisions import collision_quantities, find_collisions
from rocking_contact.post.grading import name_warnings
from rocking_contact.post.references import compare
from rocking_contact.results import RunResult
from rocking_contact.summary import collision_summary


def _history(t_end: float):
    """Two energy peaks, at 0.05 s and 0.14 s, sampled every 1 ms up to ``t_end``."""
    t = np.arange(0.0, t_end + 1e-12, 1e-3)
    energy = np.where(t <= 0.05, t / 0.05, np.maximum(0.0, (t - 0.05) / 0.09) * 0.6)
    energy = np.where(t > 0.14, 0.0, energy)
    return {"time": t, "EKIN_BLOCK": energy}


def test_interior_peaks_are_collisions():
    found = find_collisions(_history(0.2), [(0.0, 0.2), (0.10, 0.2)])
    assert [c["interior"] for c in found] == [True, True]
    assert [c["time"] for c in found] == [0.05, 0.14]
    q = collision_quantities(found)
    assert q["collision.2.time"] == 0.14 and math.isclose(q["collision.2.kinetic_energy"], 0.6)


def test_a_run_that_ends_before_an_impact_reports_no_collision_for_it():
    """Shortened to 0.03 s, the first window's maximum is the last sample (energy still
    rising): no collision, and its check says "not computed" instead of grading 0.03 s."""
    found = find_collisions(_history(0.03), [(0.0, 0.33), (0.10, 0.33)])
    assert len(found) == 1 and not found[0]["interior"] and found[0]["time"] == 0.03
    quantities = collision_quantities(found)
    assert quantities == {}
    [check] = compare([Reference(quantity="collision.1.time", value=0.0544098,
                                 source="rigid", tolerance=0.002)], quantities, step=None)
    assert check["passed"] is False and check["note"] == "not computed"


def test_a_window_that_finds_the_previous_collision_again_is_no_collision():
    found = find_collisions(_history(0.2), [(0.0, 0.2), (0.10, 0.2), (0.12, 0.2)])
    assert [c["interior"] for c in found] == [True, True, False]
    assert "collision.3.time" not in collision_quantities(found)


def test_round_off_of_a_block_at_rest_is_no_collision():
    """A frictionless sdnv105a slides to rest after its first impact; the later windows then
    held kinetic-energy maxima of 1e-21 J, which were graded as collisions 3 and 5."""
    history = _history(0.33)
    t = history["time"]
    noise = np.where(t > 0.14, 1e-21 * (1.0 + np.sin(977.0 * t)), 0.0)
    history["EKIN_BLOCK"] = history["EKIN_BLOCK"] + noise
    found = find_collisions(history, [(0.0, 0.33), (0.10, 0.33), (0.2, 0.33)])
    assert [c["interior"] for c in found] == [True, True, False]
    assert 0.2 < found[2]["time"] < 0.33 and found[2]["kinetic_energy"] < 1e-20


def test_a_collision_is_numbered_among_the_runs_impacts():
    """Impacts at 0.04, 0.09, 0.13, 0.16 s (rocking: the energy falls to zero at the top of
    each swing, and a small ringing after each impact): SDNV105's window [0.10, 0.33] finds
    the third impact, not the second, as sdnv105d under 20 m/s^2 of gravity did."""
    t = np.arange(0.0, 0.33, 1e-4)
    impacts = [0.04, 0.09, 0.13, 0.16]
    energy = np.zeros_like(t)
    start = 0.0
    for k, ti in enumerate(impacts):  # each swing: rises to its impact, falls to zero
        height, top = 0.56 ** k, ti + (ti - start) * 0.3
        rise = (t >= start) & (t <= ti)
        energy[rise] = height * (t[rise] - start) / (ti - start)
        fall = (t > ti) & (t < top)
        energy[fall] = 0.56 * height * (top - t[fall]) / (top - ti)
        energy[fall] *= 1.0 + 0.02 * np.sin(2e4 * (t[fall] - ti))  # ringing
        start = top
    found = find_collisions({"time": t, "EKIN_BLOCK": energy}, [(0.0, 0.33), (0.10, 0.33)])
    assert [(c["time"], c["impact"]) for c in found] == [(0.04, 1), (0.13, 3)]

    import rocking_contact as rc
    from rocking_contact.analytic.rigid_levels import compare_collisions, reference_collisions

    refs = reference_collisions(rc.load_case("sdnv105_rigid"))
    rows, quantities = compare_collisions(found, refs)
    assert [r["levels"]["nonlinear"]["impact"] for r in rows] == [1, 3]
    assert quantities["rigid.nonlinear.collision.2.time"] == refs["nonlinear"].impacts[2].time


def test_the_rigid_block_is_released_at_the_angle_of_the_preload():
    """preload.tilt pulls C1 by -2 l tilt (Code_Aster's input): a rigid block turns by
    asin(tilt) with the pivot at O1 and 0.0099889 rad with O (sdnv105b). The rigid
    comparison releases the rigid block there, not at tilt itself (1.6 % apart at 0.3)."""
    import rocking_contact as rc
    from rocking_contact.analytic.rigid_levels import reference_collisions
    from rocking_contact.post.collisions import annotate
    from rocking_contact.results import RunResult

    case = rc.load_case("sdnv105b")
    t = np.linspace(0.0, 0.1, 1001)
    result = RunResult(case="sdnv105b", kind="block", parameters={},
                       history={"time": t, "EKIN_BLOCK": np.exp(-((t - 0.0544) / 0.01) ** 2)},
                       quantities={}, collisions=[], extra={}, timing={})
    annotate(case, result)
    at_preload = reference_collisions(case, tilt=0.009988941075659683)["nonlinear"].impacts[0]
    at_tilt = reference_collisions(case)["nonlinear"].impacts[0]
    assert result.quantities["rigid.nonlinear.collision.1.time"] == at_preload.time
    assert abs(at_preload.time / at_tilt.time - 1) > 4e-4


def test_a_block_that_slides_is_told_the_rigid_comparison_does_not_describe_it(tmp_path):
    """The rigid block rocks on a pivot that holds |RX|/RN up to 0.32: with mu = 0.2 the
    elastic block slides and its collisions were compared with the rigid ones without a
    word. SDNV105 B's springs, anchored in x, cannot slide: no warning."""
    import rocking_contact as rc

    result = rc.run(rc.load_case("sdnv105d", {"contact.mu": 0.2, "time.end": 0.07}),
                    out=tmp_path, quiet=True, plots=False)
    assert result.extra["rigid_comparison"]
    [warning] = [w for w in result.warnings if "rigid comparison" in w]
    assert "needs |RX|/RN up to 0.32" in warning and "coefficient is 0.2:" in warning
    assert rc.load_case("sdnv105b").contact.sliding_friction() is None
    assert rc.load_case("sdnv105b_plain_springs").contact.sliding_friction() == 0.9
    assert rc.load_case("sdnv105_preload").contact.sliding_friction() is None


def test_an_impact_just_before_the_run_ends_is_an_impact():
    """A slender block keeps 89 % of its energy at an impact: a run ending 4 ms after it
    had only that 11 % drop on the right, under the quarter asked of both sides, and the
    impact was lost (no rigid comparison). A ringing wiggle stays out."""
    from rocking_contact.post.collisions import impact_instants

    t = np.arange(0.0, 0.0901, 1e-4)
    rise = (t / 0.0859) ** 2 * 2.775
    after = 0.89 * 2.775 - 60.0 * (t - 0.0859)  # the impact's drop, then the swing's fall
    energy = np.where(t <= 0.0859 + 1e-12, rise, after)
    energy[300:310] += 0.05 * np.sin(np.linspace(0.0, np.pi, 10))  # a wiggle on the rise
    assert impact_instants(t, energy) == pytest.approx([0.0859])
    finished = np.concatenate([energy, np.linspace(energy[-1], 0.0, 50)[1:]])
    t_finished = np.arange(len(finished)) * 1e-4
    assert impact_instants(t_finished, finished) == pytest.approx([0.0859])


def test_the_printed_collisions_keep_wide_values_apart():
    """A 1.67756e+06 J peak filled its 11-character column and ran into the next value
    (a block of another size, compared with a rigid block that came to rest)."""
    result = SimpleNamespace(
        collisions=[{"index": 1, "time": 0.058025, "kinetic_energy": 1.67756e6,
                     "interior": True}],
        extra={"rigid_comparison": [{"index": 1, "levels": {"nonlinear": {
            "time": 0.0383806, "kinetic_energy": 3.85148e-12, "time_error": 0.512,
            "energy_error": 4.36e17}}}]})
    row = collision_summary(result, "nonlinear").splitlines()[2]
    assert row.split() == ["1", "0.058025", "1.67756e+06", "0.0383806", "3.85148e-12",
                           "+51.2", "%,", "+4.36e+19", "%"]


def _graded(windows, references, history=None):
    """The name warnings of a run of ``history`` (by default ``_history(0.33)``: peaks at
    0.05 and 0.14 s, at rest after) measured in ``windows``, for references to the
    quantities ``references``."""
    history = _history(0.33) if history is None else history
    collisions = find_collisions(history, windows)
    result = RunResult(case="c", kind="block", parameters={}, history=history,
                       quantities=collision_quantities(collisions), collisions=collisions)
    case = SimpleNamespace(quantity=[], collisions=SimpleNamespace(windows=windows),
                           reference=[Reference(quantity=q, value=1.0, source="s")
                                      for q in references])
    result.checks = compare(case.reference, result.quantities, step=None)
    name_warnings(case, result, changed=[])
    return result.warnings


def test_collisions_not_found_are_said_once_per_reason_without_close_names():
    """SDNV105 A at 5 ms steps (the audit's run) wrote 47 warnings, one per reference row
    of collisions 2 to 5, each offering "close: collision.1.time, ..." as for a typo: the
    names were right, the windows held no maximum inside them."""
    windows = [(0.0, 0.33), (0.10, 0.33), (0.12, 0.33), (0.2, 0.33), (0.0, 0.03)]
    fields = ("time", "kinetic_energy")
    names = [f"collision.{k}.{f}" for k in (1, 2, 3, 4, 5, 6, 7) for f in fields for _ in "ab"]
    assert _graded(windows, names) == [
        "collision 3 not found: the largest kinetic energy in its window is an earlier "
        "collision's (t = 0.14 s), no maximum inside it (references to it have no value)",
        "collision 4 not found: the block is at rest in its window (t = 0.2 s), no maximum "
        "inside it (references to it have no value)",
        "collision 5 not found: the largest kinetic energy in its window lies on its edge "
        "(t = 0.03 s), no maximum inside it (references to it have no value)",
        "collisions 6, 7 not found: [collisions] windows has no window for them (5 windows) "
        "(references to them have no value)"]


def test_a_maximum_at_no_landing_is_not_said_to_lie_on_the_window_edge():
    """SDNV105 A at 5 ms steps without windows' refinement: collision 1's window [0, 0.33]
    held its maximum at 0.255 s, in no landing's span, and the warning said it "lies on its
    edge". A block whose base turns one way only (THETA keeps its sign) lands nowhere."""
    history = {**_history(0.33)}
    history["THETA"] = np.full_like(history["time"], 0.01)
    assert _graded([(0.0, 0.33)], ["collision.1.time"], history) == [
        "collision 1 not found: the largest kinetic energy in its window (t = 0.05 s) ends "
        "no landing (THETA does not change sign there after a lift), no impact inside it "
        "(references to it have no value)"]


def test_windows_sharing_a_reason_are_said_in_one_line():
    warnings = _graded([(0.0, 0.33), (0.01, 0.33), (0.02, 0.33)],
                       ["collision.2.time", "collision.3.kinetic_energy"])
    assert warnings == [
        "collisions 2, 3 not found: the largest kinetic energy in their windows is an "
        "earlier collision's (t = 0.05 s), no maximum inside them (references to them have "
        "no value)"]


def test_a_misspelt_collision_name_keeps_its_close_names():
    """A typo is still one: its rows are said once, with the names that come closest."""
    warnings = _graded([(0.0, 0.33), (0.10, 0.33), (0.12, 0.33)],
                       ["collision.3.tme", "collision.3.tme", "collision.3.time",
                        "colision.1.time", "collision.1.speed"])
    assert warnings == [
        "collision 3 not found: the largest kinetic energy in its window is an earlier "
        "collision's (t = 0.14 s), no maximum inside it (references to it have no value)",
        "reference[0, 1].quantity: the run computed no quantity 'collision.3.tme' (their 2 "
        "checks say 'not computed'); close: collision.3.time, collision.2.time, "
        "collision.1.time",
        "reference[3].quantity: the run computed no quantity 'colision.1.time' (its check "
        "says 'not computed'); close: collision.1.time, collision.3.time, collision.2.time",
        "reference[4].quantity: the run computed no quantity 'collision.1.speed' (its check "
        "says 'not computed'); close: collision.1.time, collision.3.time, collision.2.time"]


def test_a_prefixed_collision_name_is_well_formed_when_the_run_has_its_shape():
    """``rigid.nonlinear.collision.<k>.time`` of a collision the run did not find is said
    with its reason; a prefix the run never computed is a typo."""
    history = _history(0.33)
    collisions = find_collisions(history, [(0.0, 0.33), (0.10, 0.33), (0.12, 0.33)])
    result = RunResult(case="c", kind="block", parameters={}, history=history,
                       quantities={**collision_quantities(collisions),
                                   "rigid.nonlinear.collision.1.time": 0.05},
                       collisions=collisions)
    found = collisions_not_found_warnings(
        ["rigid.nonlinear.collision.3.time", "rigid.nonlinar.collision.3.time",
         "collision.2.time"], result, [(0.0, 0.33), (0.10, 0.33), (0.12, 0.33)])
    assert list(found) == ["rigid.nonlinear.collision.3.time"]


def test_a_run_without_a_collision_says_so_and_when_the_rigid_block_lands():
    """A block run whose window held no collision printed nothing but its summary line:
    no "none", no rigid instant, and not the energy balance either (audit s25 #3)."""
    result = SimpleNamespace(
        collisions=[{"index": 1, "time": 0.1, "kinetic_energy": 9.1, "interior": False}],
        parameters={"collisions": {"windows": [[0.0, 0.1]]}},
        history={"time": np.array([0.0, 0.1])},
        extra={"rigid_first_impact": {"time": 0.124205, "kinetic_energy": 10.065},
               "energy": {"residual_max_abs": 0.00122,
                          "residual_relative_to_peak_ekin": 1.9e-4}})
    assert collision_summary(result).splitlines() == [
        "collisions: none in the collision windows [0, 0.1] s; the rigid block's first "
        "impact comes at t = 0.124205 s (10.065 J), after the run's end (t = 0.1 s)",
        "energy balance: largest |residual| 0.00122 J (0.019 % of the largest kinetic "
        "energy)"]
    result.extra = {}  # not compared with the rigid block, no energy balance
    assert collision_summary(result) == "collisions: none in the collision windows [0, 0.1] s"


def test_the_rigid_first_impact_of_a_run_too_short_for_it():
    """D released at 0.01 rad lands at 0.0544 s: a run to 0.05 s finds no collision, and
    its rigid twin's first impact is the integrated rigid block's, 0.05441 s, 7.2919 J
    (released at the angle the preload reaches, 0.0100002 rad: 7.29205 J)."""
    import rocking_contact as rc
    from rocking_contact.post.collisions import rigid_first_impact

    case = rc.load_case("sdnv105d", {"time.end": 0.05})
    found = rigid_first_impact(case)
    assert found is not None
    t1, e1 = (case_reference(case, f"collision.1.{f}", "analytic rigid, integrated").value
              for f in ("time", "kinetic_energy"))
    assert found["time"] == pytest.approx(t1, abs=5e-6)
    assert found["kinetic_energy"] == pytest.approx(e1, rel=5e-5)


def test_a_rigid_block_that_leaves_the_table_is_said_to_end_the_comparison():
    """A table falling faster than gravity lifts the rigid block off (event 'jump'): its
    impacts end there, and the block run's comparison with it said nothing of it. (The
    history has no THETA, hence no landing: the run gives its own window, which a run of
    other physics than its file's needs to measure a collision in one.)"""
    import rocking_contact as rc
    from rocking_contact.post.collisions import annotate
    from rocking_contact.results import RunResult

    case = rc.load_case("sdnv105d", {"loading.table_acceleration_y": {
        "type": "sine", "amplitude": 12.0, "frequency": 4.0},
        "collisions.windows": [[0.0, 0.33]]})
    t = np.linspace(0.0, 0.1, 1001)
    result = RunResult(case="sdnv105d", kind="block", parameters={},
                       history={"time": t, "EKIN_BLOCK": np.exp(-((t - 0.0544) / 0.01) ** 2)},
                       quantities={}, collisions=[], extra={}, timing={})
    annotate(case, result)
    [said] = [w for w in result.warnings if "leaves the table" in w]
    assert said.startswith("the rigid block the collisions are compared with leaves the "
                           "table at t = 0.163053 s") and said.endswith("the comparison "
                                                                        "stops there")


def _released_tilted(landing: float = 0.1218, end: float = 0.2):
    """A block released tilted: the elastic ringing of its base after the release makes
    kinetic-energy peaks of 0.13 J at 1, 2.5 and 4 ms, then it falls to its first landing
    (its peak, 27.4 J, at ``landing``; THETA changes sign 0.05 ms later), loses a third
    of its energy there and swings up, to ``end`` (s); 0.1 ms rows."""
    t = np.arange(0.0, end + 1e-12, 1e-4)
    theta = 0.02 * (1.0 - (t / (landing + 5e-5)) ** 2)  # between rows, as a run's
    energy = np.where(t <= landing, 27.4 * (t / landing) ** 2,
                      np.maximum(0.65 * 27.4 * (1.0 - (t - landing) / (end - landing)), 0.0))
    energy[(t > landing) & (t < landing + 2e-3)] = 27.0  # the impact's drop, sampled
    for ring in (0.001, 0.0025, 0.004):
        energy += 0.13 * np.exp(-(((t - ring) / 2e-4) ** 2))
    return {"time": t, "THETA": theta, "EKIN_BLOCK": energy}


def test_a_windowed_collision_is_numbered_by_its_landing_not_by_the_ringing_before_it():
    """A 0.3 x 1.2 m granite block released at 0.02 (A3's audit): the ringing just after
    the release made three kinetic-energy peaks that stood out, each counted as an impact,
    and its first landing, 0.1218 s, was compared with the rigid block's fourth impact
    (-83 % in time; or, in a run to 0.15 s, with none: blank rigid columns). The landing
    whose span holds a window's maximum numbers it, as without windows."""
    from rocking_contact.post.collisions import impact_instants

    history = _released_tilted()
    assert len(impact_instants(history["time"], history["EKIN_BLOCK"])) == 4  # the trap
    [found] = find_collisions(history, [(0.0, 0.15)], lift=1e-5)
    assert (found["time"], found["impact"], found["interior"]) == (pytest.approx(0.1218),
                                                                   1, True)
    [landed] = find_collisions(history, [], lift=1e-5)
    assert landed["impact"] == 1 and landed["time"] == found["time"]


def _annotated(overrides, history):
    """sdnv105d with ``overrides`` (its collisions compared with the rigid block),
    annotated with the collisions of ``history``."""
    import rocking_contact as rc
    from rocking_contact.post.collisions import annotate

    case = rc.load_case("sdnv105d", overrides)
    result = RunResult(case="sdnv105d", kind="block", parameters={}, history=history,
                       quantities={}, collisions=[], extra={}, timing={})
    annotate(case, result)
    return result


def test_a_collision_with_no_rigid_impact_to_compare_with_says_why():
    """A block that lands before its rigid twin, in a run that ends between the two
    (0.045 s, the rigid block's first impact 0.0544 s): its rigid columns were blank and a
    reference to rigid.nonlinear.collision.1.time_error read 'not computed' without a
    reason. The row says why, the table and the reference's warning say it in one line."""
    history = _released_tilted(landing=0.045, end=0.05)
    result = _annotated({"time.end": 0.05, "collisions.windows": [[0.0, 0.05]]}, history)
    [row] = result.extra["rigid_comparison"]
    assert row["levels"] == {}
    why = ("it is the run's impact 1, and the nonlinear rigid block has none up to "
           "t = 0.05 s")
    assert row["unmatched"]["nonlinear"] == why
    line = f"collision 1: no nonlinear rigid impact to compare with: {why}"
    assert line in collision_summary(result).splitlines()
    names = ["rigid.nonlinear.collision.1.time_error", "rigid.nonlinear.collision.1.time",
             "rigid.nonlinar.collision.1.time"]
    assert collisions_not_found_warnings(names, result, [(0.0, 0.05)]) == {
        name: f"{line} (references to it have no value)" for name in names[:2]}


def test_a_window_holding_a_later_impact_is_compared_at_every_level():
    """A window placed at the second landing only: the closed-form levels were computed to
    as many impacts as windows (1), and the collision, impact 2, had no closed-form
    counterpart. Every level now reaches the last impact a collision is matched with."""
    t = np.arange(0.0, 0.2 + 1e-12, 1e-4)
    # landings at 0.0544 and 0.1351 s (SDNV105 D's), the energy peaking at each
    theta = np.where(t < 0.0544, 0.01 * (0.0544 - t) / 0.0544,
                     np.where(t < 0.095, -0.004 * np.sin(np.pi * (t - 0.0544) / 0.0406),
                              0.004 * np.sin(np.pi * (t - 0.095) / 0.0802)))
    energy = np.where(t < 0.0544, 7.29 * (t / 0.0544) ** 2,
                      np.where(t < 0.095, 4.8 * ((0.095 - t) / 0.0406) ** 2,
                               4.8 * ((t - 0.095) / 0.0401) ** 2))
    energy = np.where(t > 0.1351, 3.0 * np.maximum(0.2 - t, 0.0) / 0.0649, energy)
    result = _annotated({"time.end": 0.2, "collisions.windows": [[0.1, 0.2]]},
                        {"time": t, "THETA": theta, "EKIN_BLOCK": energy})
    [collision] = result.collisions
    assert collision["impact"] == 2 and collision["interior"]
    [row] = result.extra["rigid_comparison"]
    assert {"closed_form", "linearised", "nonlinear"} <= set(row["levels"])
    assert "unmatched" not in row
    assert {level["impact"] for level in row["levels"].values()} == {2}
