"""The reference values of the SDNV105 contact cases are reproducible: the rigid levels from
rocking_contact.analytic, the acceptance bands from the rigid and recalage values."""

import re

import pytest

import rocking_contact as rc
from rocking_contact.analytic.rigid_levels import reference_collisions

CASES = ("sdnv105a", "sdnv105b", "sdnv105c")
LEVELS = {"analytic rigid, integrated (nonlinear equation)": "nonlinear",
          "analytic rigid, closed form (manual's table)": "closed_form",
          "recalage (manual": "recalage"}


@pytest.fixture(scope="module")
def rigid():
    return reference_collisions(rc.load_case("sdnv105a"), count=5)


def _collision_refs(case):
    for ref in case.reference:
        m = re.fullmatch(r"collision\.(\d)\.(time|kinetic_energy)", ref.quantity)
        if m:
            yield int(m.group(1)), m.group(2), ref


@pytest.mark.parametrize("name", CASES)
def test_rigid_and_recalage_references_come_from_the_rigid_solver(name, rigid):
    checked = 0
    for k, field, ref in _collision_refs(rc.load_case(name)):
        for prefix, level in LEVELS.items():
            if ref.source.startswith(prefix):
                expected = getattr(rigid[level].impacts[k - 1], field)
                # the case files carry CASES.md's printed digits
                assert ref.value == pytest.approx(expected, rel=2e-5), (name, k, field, level)
                checked += 1
    assert checked >= 18


@pytest.mark.parametrize("name", ["sdnv105a", "sdnv105c"])
def test_bands_span_rigid_to_recalage_with_three_percent_margins(name, rigid):
    bands = [(k, f, r) for k, f, r in _collision_refs(rc.load_case(name))
             if r.source.startswith("band")]
    assert len(bands) == 8  # instants and energies of collisions 2 to 5
    for k, field, ref in bands:
        ends = [getattr(rigid[level].impacts[k - 1], field) for level in ("nonlinear",
                                                                          "recalage")]
        lo, hi = 0.97 * min(ends), 1.03 * max(ends)
        assert ref.tolerance_kind == "absolute"
        assert ref.value - ref.tolerance == pytest.approx(lo, rel=2e-5)  # printed digits
        assert ref.value + ref.tolerance == pytest.approx(hi, rel=2e-5)


@pytest.mark.parametrize("name", CASES)
def test_shipped_defaults_are_code_asters_runs(name):
    """Large rotation, the Code_Aster mesh and time windows, the full history (the issue)."""
    case = rc.load_case(name)
    assert case.kinematics.type == "large_rotation" and case.mesh.layout == "aster"
    assert case.time.start == 0.0 and case.time.end == 0.33
    small = 2.5e-5 if name == "sdnv105b" else 1e-5
    assert all(w.step == small for w in case.time.window) and len(case.time.window) == 6
    # Code_Aster's MODI_EQUI per window: 'OUI' (true HHT) in B's collision windows 3 to 5
    hht = [None] * 3 + ["hht"] * 3 if name == "sdnv105b" else [None] * 6
    assert case.scheme.type == "alpha_newmark"
    assert [w.scheme for w in case.time.window] == hht
    assert case.contact.mu == 0.9 and case.initial.state == "preload"
