"""Reference values become markers where their quantity lies on a curve."""

import pytest

from rocking_contact.viz.markers import (
    quantity_markers,
    reference_markers,
    source_family,
    source_label,
)


def check(quantity, reference, source, passed=True):
    return {"quantity": quantity, "reference": reference, "source": source, "passed": passed}


@pytest.mark.parametrize("source, family", [
    ("analytic rigid, closed form (SDNV105 manual)", "analytic rigid"),
    ("rigid (manual)", "rigid"),
    ("recalage (SDNV105 manual)", "recalage"),
    ("LMGC90 (SDNV105 manual), elastic body", "LMGC90"),
    ("Code_Aster SDNV105 A", "Code_Aster"),
    ("code-aster B", "Code_Aster"),
    ("analytic: Kc v0 / wc", "analytic"),
    ("a colleague", "other"),
])
def test_source_family(source, family):
    assert source_family(source) == family


def test_label_drops_the_formula_after_the_colon_and_the_qualifiers():
    assert source_label("analytic: pi / wc") == "analytic"
    assert source_label("Code_Aster SDNV105 A") == "Code_Aster SDNV105 A"
    # A colon inside parentheses is part of a qualifier, not the end of the source.
    assert source_label("recalage (manual: restitution 0.79, flight ratio 0.77)") == "recalage"
    assert source_label("recalage (SDNV105 manual)") == "recalage"
    assert source_label("analytic rigid, integrated (nonlinear equation): lift of O") == \
        "analytic rigid, integrated"


def test_a_pass_band_is_a_box_of_its_instants_and_values():
    """SDNV105 A's collisions 2-5 are graded on a band that was drawn nowhere: the plot
    showed five information sources but not what t3-t5 miss."""
    band = "band: rigid to recalage, 3% margins"
    checks = [{**check("collision.3.time", 0.1992, band, passed=False), "abs_tolerance": 0.0096},
              {**check("collision.3.kinetic_energy", 2.58, band), "abs_tolerance": 0.376},
              {**check("collision.4.time", 0.2465, band), "abs_tolerance": 0.0135},
              check("collision.3.time", 0.2027, "recalage", passed=None),
              check("collision.3.kinetic_energy", 2.87, "recalage", passed=None)]
    markers = reference_markers({"checks": checks, "quantities": {}}, ["EKIN_BLOCK"])
    boxes = [m for m in markers if m.shape == "box"]
    assert [(m.label, m.graded) for m in boxes] == [("pass band", True)] * 2
    assert boxes[0].window == pytest.approx((0.1896, 0.2088))
    assert boxes[0].span == pytest.approx((2.204, 2.956))
    assert boxes[1].window == pytest.approx((0.2330, 0.2600)) and boxes[1].span is None
    (recalage,) = (m for m in markers if m.shape != "box")
    assert (recalage.shape, recalage.graded) == ("point", False)


def test_collision_pairs_become_points_on_the_kinetic_energy():
    checks = [check("collision.1.time", 0.0546, "LMGC90 (manual)"),
              check("collision.1.kinetic_energy", 7.23255, "LMGC90 (manual)"),
              check("collision.2.kinetic_energy", 4.6, "recalage"),
              check("collision.2.time", 0.1382, "recalage"),
              check("dy_max", 0.0036, "rigid")]  # no [[quantity]] spec: no marker
    markers = reference_markers({"checks": checks, "quantities": {}}, ["EKIN_BLOCK", "DY_A"])
    points = {(m.label, m.time, m.value) for m in markers}
    assert points == {("LMGC90", 0.0546, 7.23255), ("recalage", 0.1382, 4.6)}
    assert all(m.column == "EKIN_BLOCK" and m.shape == "point" for m in markers)


def test_two_sources_of_one_family_pair_each_with_its_own():
    """SDNV105 A's first collision: four source texts of the "analytic rigid" family, two
    instants and two energies; each instant pairs with its own source's energy (the
    closed-form instant was paired with the integrated energy, in the order met)."""
    checks = [check("collision.1.time", 0.05440978,
                    "analytic rigid, closed form: first collision (CASES SDNV105)"),
              check("collision.1.time", 0.05441079,
                    "analytic rigid, integrated (nonlinear equation)", passed=None),
              check("collision.1.kinetic_energy", 7.291925,
                    "analytic rigid, integrated (nonlinear equation): Ekin before impact 1"),
              check("collision.1.kinetic_energy", 7.373981,
                    "analytic rigid, closed form (manual's table)", passed=None)]
    markers = reference_markers({"checks": checks, "quantities": {}}, ["EKIN_BLOCK"])
    assert {(m.label, m.time, m.value) for m in markers} == {
        ("analytic rigid, closed form", 0.05440978, 7.373981),
        ("analytic rigid, integrated", 0.05441079, 7.291925)}


def test_an_instant_alone_is_a_vertical_line_not_a_point_at_our_energy():
    """LMGC90 gives t5 = 0.2693 s of SDNV105 and no E5: a point at the run's own 1.06 J
    labelled LMGC90 showed a value LMGC90 never published (audit of session 24, #5)."""
    checks = [check("collision.5.time", 0.2693, "LMGC90 (manual: theta-scheme)")]
    quantities = {"collision.5.time": 0.30353, "collision.5.kinetic_energy": 1.062}
    (marker,) = reference_markers({"checks": checks, "quantities": quantities},
                                  ["EKIN_BLOCK"])
    assert (marker.shape, marker.label, marker.time, marker.value) == (
        "vline", "LMGC90", 0.2693, None)


def test_a_value_alone_is_a_segment_over_our_event_not_a_point_at_our_instant():
    """Code_Aster's SDND101 gives each impact's largest force, not when it happens: a
    level over our impact, not a point at our t_max."""
    checks = [check("impact.NO1.1.max_force", 9952.69, "Code_Aster SDND101 A"),
              check("collision.2.kinetic_energy", 4.6, "recalage")]
    quantities = {"impact.NO1.1.t_max": 0.0155, "impact.NO1.1.start": 0.0,
                  "impact.NO1.1.end": 0.03126, "collision.2.time": 0.1414}
    markers = reference_markers({"checks": checks, "quantities": quantities},
                                ["FN_NO1", "EKIN_BLOCK"])
    assert {(m.column, m.shape, m.time, m.value, m.window) for m in markers} == {
        ("FN_NO1", "hline", None, 9952.69, (0.0, 0.03126)),
        ("EKIN_BLOCK", "hline", None, 4.6, None)}  # a collision has no span: the axis


def test_impact_halves_with_different_formulas_pair_within_their_family():
    checks = [check("impact.NO1.1.t_max", 0.01563, "analytic: pi / (2 wc)"),
              check("impact.NO1.1.max_force", 9950.37, "analytic: Kc v0 / wc")]
    markers = reference_markers({"checks": checks,
                                 "quantities": {"impact.NO1.1.t_max": 0.0155}},
                                ["FN_NO1"])
    assert {(m.label, m.shape, m.time, m.value) for m in markers} == {
        ("analytic", "point", 0.01563, 9950.37)}


def test_no_marker_for_a_column_the_run_does_not_record():
    checks = [check("collision.1.time", 0.05, "rigid"),
              check("collision.1.kinetic_energy", 7.3, "rigid")]
    assert reference_markers({"checks": checks}, ["DX_NO1"]) == []


def test_quantity_specs_give_points_segments_and_lines():
    specs = [{"name": "d_at", "column": "DX_NO2", "op": "at", "time": 0.1, "window": None},
             {"name": "d_max", "column": "DY_A", "op": "max", "time": None,
              "window": [0.0, 0.33]},
             {"name": "t_peak", "column": "DY_A", "op": "argmax", "time": None, "window": None},
             {"name": "impulse", "column": "RN_A", "op": "integral", "time": None,
              "window": [0.05, 0.06]}]
    checks = [check("d_at", -1.6e-4, "Code_Aster"), check("d_max", 0.0036, "rigid"),
              check("t_peak", 0.02, "rigid"), check("impulse", 41.9, "Code_Aster")]
    markers = {m.column + ":" + m.shape: m
               for m in quantity_markers(checks, specs, ["DX_NO2", "DY_A", "RN_A"])}
    assert set(markers) == {"DX_NO2:point", "DY_A:hline", "DY_A:vline"}
    assert (markers["DX_NO2:point"].time, markers["DX_NO2:point"].value) == (0.1, -1.6e-4)
    assert markers["DY_A:hline"].window == (0.0, 0.33)
    assert markers["DY_A:vline"].time == 0.02


def test_a_crossing_is_a_point_on_its_level():
    specs = [{"name": "impact_time", "column": "THETA", "op": "crossing", "level": 0.0,
              "time": None, "window": [0.1, 0.6]}]
    (marker,) = quantity_markers([check("impact_time", 0.31838, "analytic rigid")], specs,
                                 ["THETA"])
    assert (marker.shape, marker.time, marker.value) == ("point", 0.31838, 0.0)


def test_prefixed_collisions_of_other_solutions_are_references_too():
    """A run that also computes the closed form checks closed_form.collision.k.*."""
    checks = [check("closed_form.collision.1.time", 0.05441, "analytic rigid, closed form"),
              check("closed_form.collision.1.kinetic_energy", 7.374,
                    "analytic rigid, closed form"),
              check("recalage.collision.2.time", 0.1382, "recalage (manual)"),
              check("recalage.collision.2.kinetic_energy", 4.6021, "recalage (manual)"),
              check("closed_form.lift.1", 0.002011, "analytic rigid, closed form")]
    markers = reference_markers({"checks": checks}, ["EKIN_BLOCK"])
    assert {(m.family, m.time, m.value) for m in markers} == {
        ("analytic rigid", 0.05441, 7.374), ("recalage", 0.1382, 4.6021)}


def test_a_run_that_changes_the_physics_gets_no_reference_markers():
    """A slender block run as `run sdnv105d --set geometry.half_width=0.1 ...` writes it:
    SDNV105's collision references describe the file's block, not this one."""
    checks = [check("collision.1.time", 0.0546, "LMGC90 (manual)", passed=None),
              check("collision.1.kinetic_energy", 7.23255, "LMGC90 (manual)", passed=None)]
    checks[0]["note"] = "not graded: the run changes geometry.half_height, geometry.half_width"
    data = {"checks": checks, "quantities": {}, "warnings": [
        "its references describe the case file's parameters and the run changes "
        "geometry.half_height, geometry.half_width: the checks are shown for information, "
        "without a pass mark"]}
    assert reference_markers(data, ["EKIN_BLOCK"]) == []
    # only the note (a case whose references all had pass marks): the same
    assert reference_markers({**data, "warnings": []}, ["EKIN_BLOCK"]) == []
    # the same checks on a run of the file as written are drawn
    unchanged = {"checks": [{**c, "note": ""} for c in checks], "quantities": {}}
    assert len(reference_markers(unchanged, ["EKIN_BLOCK"])) == 1


def test_the_solutions_of_one_source_get_labels_of_their_own():
    """sdnv105_rigid checks its linearised and nonlinear equations' collisions against one
    source text, "analytic rigid, integrated": both had one legend label."""
    checks = [check(f"{level}.collision.1.{field}", value, "analytic rigid, integrated")
              for level, values in (("linearised", (0.05440978, 7.292048)),
                                    ("nonlinear", (0.05441079, 7.291925)))
              for field, value in zip(("time", "kinetic_energy"), values)]
    checks.append(check("closed_form.collision.1.time", 0.05441,
                        "analytic rigid, closed form (manual)"))
    checks.append(check("closed_form.collision.1.kinetic_energy", 7.374,
                        "analytic rigid, closed form (manual)"))
    markers = reference_markers({"checks": checks}, ["EKIN_BLOCK"])
    assert {(m.label, m.time) for m in markers} == {
        ("analytic rigid, integrated, linearised", 0.05440978),
        ("analytic rigid, integrated, nonlinear", 0.05441079),
        ("analytic rigid, closed form", 0.05441)}
