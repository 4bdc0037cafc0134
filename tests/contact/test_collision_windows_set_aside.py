"""Collision windows placed at one block's impacts are set aside by a run that changes that
block's physics (the collisions are then taken at its landings), and a crossing of THETA
is none for a block that never lifted (post.collisions, post.grading, post.references).

Audit A1 (session 30): ``run sdnv105d --set preload.tilt=0.005 --set time.end=0.15``
measured its collisions in sdnv105d's five windows and listed impact 1 and impact 3 as
collisions 1 and 2 (its second landing, 0.0953 s, in no window of its own); sdnv105d_shaking
at 4 m/s^2, below its uplift, gave 'impact_time' 0.302181 s, a sign change of its elastic
ringing (2.6e-8 rad at most)."""

from pathlib import Path

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.config import load_case, shipped_cases, variant_cases
from rocking_contact.post.collisions import (
    annotate,
    set_aside_line,
    windows_set_aside,
)
from rocking_contact.post.grading import grade
from rocking_contact.post.references import evaluate, format_table, swung
from rocking_contact.results import RunResult
from rocking_contact.summary import collision_summary

#: the landings of sdnv105d released at preload.tilt = 0.005 (the audit's run, to 0.15 s;
#: off the samples, as THETA passes zero between two)
LANDINGS = (0.03828, 0.095299, 0.13773)
D_WINDOWS = "[0, 0.33] [0.1, 0.33] [0.15, 0.33] [0.22, 0.33] [0.25, 0.33]"


def _rocking(landings=LANDINGS, end=0.15, step=1e-4, amplitude=5e-3):
    """A block released tilted at +``amplitude`` rad that lands at each of ``landings``
    (THETA through 0, the sign of each swing alternating), its kinetic energy largest just
    before each landing, 0.6 of it kept, and zero at the top of each swing."""
    t = np.arange(0.0, end + step / 2, step)
    theta, energy = np.zeros_like(t), np.zeros_like(t)
    bounds = [0.0, *landings]
    bounds.append(bounds[-1] + (bounds[-1] - bounds[-2]))  # the swing the run ends in
    for k, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:], strict=True)):
        swing = (t >= lo) & (t < hi)
        phase = (np.pi / 2 * t[swing] / hi if k == 0
                 else np.pi * (t[swing] - lo) / (hi - lo))
        size = amplitude * 0.75 ** k
        theta[swing] = (-1) ** k * size * (np.cos(phase) if k == 0 else np.sin(phase))
        energy[swing] = 4.0 * 0.6 ** k * (np.sin(phase) if k == 0 else np.cos(phase)) ** 2
    return {"time": t, "THETA": theta, "EKIN_BLOCK": energy}


def _standing(end=0.6, step=1e-4):
    """A block that never lifts: its base rings to 2.6e-8 rad, changing sign (sdnv105d
    shaken at 4 m/s^2: 2.6e-8 rad at most, below its lift angle 4.2e-7 rad)."""
    t = np.arange(0.0, end + step / 2, step)
    return {"time": t, "THETA": 2.6e-8 * np.sin(2 * np.pi * 4 * t + 0.3),
            "EKIN_BLOCK": 1e-9 * (1.0 + np.sin(2 * np.pi * 40 * t)) ** 2}


def _result(case, history):
    return RunResult(case=case.case.name, kind="block", parameters=rc.config.as_dict(case),
                     history=history)


def test_a_run_of_other_physics_takes_a_collision_at_each_landing():
    """The audit's run: the windows of sdnv105d took impacts 1 and 3 as collisions 1 and
    2; the run changes preload.tilt and gives no windows, so each landing is a collision,
    and one line says so, what it did and how to keep windows."""
    case = load_case("sdnv105d", {"preload.tilt": 0.005, "time.end": 0.15})
    result = _result(case, _rocking())
    annotate(case, result)
    assert [c["impact"] for c in result.collisions] == [1, 2, 3]
    assert all(c["interior"] for c in result.collisions)
    for c, at in zip(result.collisions, LANDINGS, strict=True):
        assert c["time"] == pytest.approx(at, abs=2e-4)
    file = load_case("sdnv105d").source_file
    aside = {"windows": [[0.0, 0.33], [0.1, 0.33], [0.15, 0.33], [0.22, 0.33], [0.25, 0.33]],
             "file": str(file), "changes": ["preload.tilt"]}
    assert result.extra["windows_set_aside"] == aside
    line = (f"collisions.windows: the 5 collision windows {D_WINDOWS} s of {file} were "
            "placed at the impacts of its block, and this run changes preload.tilt: its "
            "collisions are taken at each landing instead, as with collisions.windows = []; "
            "to measure them in windows, give the run its own (collisions.windows = [[t0, "
            "t1], ...], by --set or in its case file)")
    assert result.warnings[0] == set_aside_line(aside) == line
    # the same windows given by --set are the run's own: as before, impact 3 in window 2
    # (to 0.3 s, as a window may not start at the run's end; the history ends at 0.15 s)
    given = load_case("sdnv105d", {"preload.tilt": 0.005, "time.end": 0.3,
                                   "collisions.windows": aside["windows"]})
    kept = _result(given, _rocking())
    annotate(given, kept)
    assert "windows_set_aside" not in kept.extra
    assert [(c["impact"], c["interior"]) for c in kept.collisions] == [
        (1, True), (3, True), (None, False)]


def test_the_graded_run_says_it_once_and_not_that_windows_still_measure():
    """grade() adds config's line for windows kept from another physics ('collision k is
    still the largest kinetic energy in window k'), untrue of a run that set them aside:
    the run says its own line once, and its collision checks are not told of windows."""
    case = load_case("sdnv105d", {"preload.tilt": 0.005, "time.end": 0.15})
    result = _result(case, _rocking())
    annotate(case, result)
    grade(case, result)
    said = [w for w in result.warnings if w.startswith("collisions.windows")]
    assert said == [set_aside_line(result.extra["windows_set_aside"])]
    assert not any("still the largest" in w for w in result.warnings)
    notes = {c["quantity"]: c["note"] for c in result.checks}
    # collision 4 has no window of the file's past the run's end: not reached by the run
    assert notes["collision.4.time"].startswith("not reached: the run ends at t = 0.15 s")


@pytest.mark.parametrize("name", [*shipped_cases(), *variant_cases()])
def test_shipped_cases_and_numerics_keep_their_windows(name):
    """Every shipped case and variant keeps its windows (the fine meshes, sdnv105d_step5e-4
    and sdnv105b_plain_springs change numerics only), and so does a run of one that changes
    its end or step."""
    case = load_case(name)
    if case.case.kind != "block":
        return
    assert windows_set_aside(case) is None
    assert windows_set_aside(load_case(name, {"time.end": 0.15, "time.step": 5e-5})) is None


def test_whose_windows_a_child_file_keeps(tmp_path: Path):
    """A child of sdnv105d with another tilt and no windows sets aside its parent's; one
    with its own keeps them, until a --set changes its physics; one window over the whole
    run was placed at no impact, and is kept."""
    d = load_case("sdnv105d").source_file
    child = tmp_path / "tilted.toml"
    child.write_text('extends = "sdnv105d"\n[preload]\ntilt = 0.005\n')
    aside = windows_set_aside(load_case(child))
    assert aside is not None and aside["file"] == str(d)
    assert aside["changes"] == ["preload.tilt"]
    own = tmp_path / "own.toml"
    own.write_text('extends = "sdnv105d"\n[preload]\ntilt = 0.005\n[collisions]\n'
                   'windows = [[0.0, 0.06], [0.06, 0.12]]\n')
    assert windows_set_aside(load_case(own)) is None
    changed = windows_set_aside(load_case(own, {"geometry.half_width": 0.15}))
    assert changed is not None and changed["file"] == str(own)
    assert changed["changes"] == ["geometry.half_width"]
    whole = tmp_path / "whole.toml"
    whole.write_text('extends = "sdnv105d"\n[time]\nend = 0.15\n[collisions]\n'
                     'windows = [[0.0, 0.15]]\n')
    assert windows_set_aside(load_case(whole, {"preload.tilt": 0.005})) is None
    assert windows_set_aside(load_case("sdnv105d", {
        "preload.tilt": 0.005, "collisions.windows": [[0.0, 0.1]]})) is None


def test_without_a_collision_the_summary_names_no_window_set_aside():
    case = load_case("sdnv105d", {"preload.tilt": 0.005, "time.end": 0.02})
    result = _result(case, _rocking(end=0.02))
    result.extra["windows_set_aside"] = windows_set_aside(case)
    assert collision_summary(result) == ("collisions: none (no landing: THETA never changed sign "
                                     "after a lift)")


def test_the_audit_run_has_its_second_impact():
    """sdnv105d at preload.tilt = 0.005 to 0.1 s (the audit's run, shortened): collision 2
    was window 2's edge (0.1 s, interior false), the landing at 0.0953 s in no window;
    now collisions 1 and 2 are its landings (rigid 0.0382935 s, 0.0953457 s)."""
    case = load_case("sdnv105d", {"preload.tilt": 0.005, "time.end": 0.1})
    result = rc.run(case, write=False, plots=False, quiet=True)
    assert [(c["impact"], c["interior"]) for c in result.collisions] == [(1, True), (2, True)]
    assert [c["time"] for c in result.collisions] == pytest.approx([0.0383, 0.0953],
                                                                   abs=2e-4)
    assert result.quantities["collision.2.time"] == pytest.approx(0.0953457, rel=2e-3)


def test_a_crossing_needs_a_swing_past_the_lift():
    """The ringing of a block that never lifted changes sign: no swing of it passes the
    lift angle, so a crossing of THETA with that lift finds none; a rocking block's
    crossings are its landings, the same instants as without the lift."""
    spec = load_case("sdnv105d_shaking").quantity
    [impact] = [q for q in spec if q.name == "impact_time"]
    standing, rocking = _standing(), _rocking(end=0.3)
    lift = {"THETA": 4.2e-7}
    assert not swung(standing["THETA"], 4.2e-7).any()
    assert np.isfinite(evaluate(impact, standing))  # what the audit saw
    assert np.isnan(evaluate(impact, standing, lift))
    found = evaluate(impact, rocking, lift)
    assert found == evaluate(impact, rocking) == pytest.approx(LANDINGS[2], abs=1e-4)
    # a swing counts from its last sign change on, not before: ringing after a landing
    # whose swing passed the lift, then a sign change of that ringing
    y = np.array([1e-3, 5e-4, -1e-8, 1e-8, -1e-8, 1e-8, -1e-8, 1e-8, -1e-8, 1e-8, -1e-8])
    assert swung(y, 1e-6).tolist() == [True, True] + [False] * 9


def test_a_block_that_never_lifted_has_no_impact_time():
    """sdnv105d_shaking at 4 m/s^2 (below its uplift, 4.41 m/s^2): 'impact_time' showed
    0.302181 s; now none, said so (a misspelt name says 'not computed')."""
    case = load_case("sdnv105d_shaking", {"loading.table_acceleration_x.amplitude": 4.0})
    result = _result(case, _standing())
    annotate(case, result)
    grade(case, result)
    [check] = [c for c in result.checks if c["quantity"] == "impact_time"]
    assert check["value"] != check["value"]  # NaN
    assert check["note"] == (
        "none: THETA does not cross 0 downward in [0.1, 0.6] s in a swing past the lift "
        "angle (4.2e-07 rad; the elastic ringing of a block that did not lift does not "
        "count); not graded: the run changes loading.table_acceleration_x.amplitude")
    [row] = [r for r in format_table("c", result.checks).splitlines()
             if r.startswith("impact_time")]
    assert row.split()[2] == "none"
    # the shipped case with such a history: the check fails, and says why
    shipped = load_case("sdnv105d_shaking")
    graded = _result(shipped, _standing())
    annotate(shipped, graded)
    grade(shipped, graded)
    [check] = [c for c in graded.checks if c["quantity"] == "impact_time"]
    assert check["passed"] is False and check["note"].startswith("none: THETA does not")
