"""Unit slips the schema cannot catch are said (S27 U1 #11): a shock that never closes
(``gap = 5`` meant as mm), a support acceleration beyond 50 g (a record in mm/s^2 read as
m/s^2); the shipped cases say neither."""

from pathlib import Path

import pytest
from launch_case import FLOOR, launch_case, wall

import rocking_contact as rc
from rocking_contact import interrupt
from rocking_contact.config.loading import shipped_cases
from rocking_contact.discrete import runner
from rocking_contact.discrete.runner import SUPPORT_PEAK_LIMIT
from rocking_contact.stops import Interrupted


def run(tmp_path, gap=0.05, acceleration='{ type = "zero" }'):
    """The mass launched at a wall ``gap`` m away, its support shaken along x by
    ``acceleration``, for 0.3 s."""
    path = launch_case(tmp_path, wall(gap), f"[model.support]\nacceleration = {acceleration}\n",
                       end=0.3)
    return rc.run(rc.load_case(path), write=False, quiet=True)


def test_a_shock_that_never_closes_is_said_with_its_gap_and_closest_approach(tmp_path):
    result = run(tmp_path, gap=5.0)
    said = [w for w in result.warnings if "never closed" in w]
    # the largest approach is the amplitude, 0.1 m, a quarter period (pi/2 / 10 s) in
    assert said == [
        "shock WALL: never closed during the run (to t = 0.3 s): gap 5 m, and its node came "
        "within 4.9 m of the obstacle (its largest recorded approach, 0.1 m along the "
        "normal, 2.00% of the gap, at t = 0.1571 s); is the gap in metres?"]
    assert not [w for w in run(tmp_path, gap=0.05).warnings if "never closed" in w]


def test_the_docs_quote_the_audits_line(tmp_path):
    """docs/discrete.md quotes the line of the audit's case (a 5 mm gap written gap = 5:
    the mass launched at the wall, rubbing on a floor pressed with its weight, 1 s by
    steps of 1e-5 s), as the run says it."""
    path = launch_case(tmp_path, FLOOR, wall(5.0), "[solver]\nscheme = 'central_difference'\n",
                       end=1.0, step=1e-5)
    said = [w for w in rc.run(rc.load_case(path), write=False, quiet=True).warnings
            if "never closed" in w]
    assert len(said) == 1
    doc = (Path(__file__).resolve().parents[2] / "docs" / "discrete.md").read_text()
    assert " ".join(said[0].split()) in " ".join(doc.split())
    assert "gap 5 m, and its node came within 4.918 m" in said[0]


@pytest.mark.parametrize("gap", [0.2, 1.0])
def test_a_stop_the_motion_does_not_reach_is_not_a_unit_slip(tmp_path, gap):
    """A stop 0.2 m (1 m) away from a mass of amplitude 0.1 m, never reached: the node came
    within 50 % (10 %) of the gap, a result of the run. It was asked 'is the gap in
    metres?' as a 5 m gap meant as mm is."""
    result = run(tmp_path, gap=gap)
    assert result.quantities["impact.WALL.count"] == 0
    assert not [w for w in result.warnings if "never closed" in w], result.warnings


def test_a_shock_touching_at_rest_that_the_node_leaves_is_not_asked(tmp_path):
    """gap 0 behind the launched mass (normal -x): it leaves the obstacle at once and is
    back after 0.63 s, past the run's 0.3 s; 'gap 0 m ... within -0 m' asked about units."""
    behind = wall(0.0).replace("[1.0, 0.0, 0.0]", "[-1.0, 0.0, 0.0]")
    path = launch_case(tmp_path, behind, end=0.3)
    result = rc.run(rc.load_case(path), write=False, quiet=True)
    assert result.quantities["impact.WALL.count"] == 0
    assert not [w for w in result.warnings if "never closed" in w], result.warnings


@pytest.mark.parametrize("stop_after", ["compile_kernels", "runaway"])
def test_a_run_stopped_early_is_not_asked_about_its_gaps(tmp_path, monkeypatch, stop_after):
    """A Ctrl-C while the kernels compile (stopped at time.start: sdnd101a's pad said 'gap
    0 m, and its node came within -0 m') or after the first chunk of 2000 steps (t = 0.2 s,
    the mass 0.1 m along, 2 % of a 5 m gap, as a completed run says): an interrupted run
    measured no motion to judge the gaps by."""
    original = getattr(runner, stop_after)

    def pressed(*args):  # what the SIGINT handler does
        interrupt.request()
        return original(*args)

    monkeypatch.setattr(runner, stop_after, pressed)
    case = rc.load_case(launch_case(tmp_path, wall(5.0)))
    with interrupt.deferred(), pytest.raises(Interrupted) as info:
        runner.run(case)
    assert str(info.value) == ("interrupted at t = 0 s" if stop_after == "compile_kernels"
                               else "interrupted at t = 0.2 s")
    assert not [w for w in info.value.partial.warnings if "never closed" in w]


@pytest.mark.parametrize("acceleration,peak", [
    ('{ type = "sine", amplitude = 600.0, frequency = 2.0 }', "600 m/s^2 (a sine of "
     "amplitude 600)"),
    ('{ type = "table", times = [0.0, 0.1, 0.2, 1.0], values = [0.0, 4500.0, -100.0, 0.0] '
     '}', "4500 m/s^2 (amplitude 1 times the table's largest |value| 4500 over the run)")])
def test_a_support_beyond_50_g_asks_about_its_units(tmp_path, acceleration, peak):
    said = [w for w in run(tmp_path, acceleration=acceleration).warnings if " g, " in w]
    assert len(said) == 1 and said[0].startswith(
        f"model.support.acceleration: its peak is {peak}, "), said
    assert said[0].endswith("above the 50 g a structure's support may see: are its values "
                            "in m/s^2 (a record in g needs amplitude = 9.80665, one in mm/s^2 "
                            "amplitude = 0.001, in cm/s^2 0.01)?")


def test_a_record_peak_outside_the_run_or_below_50_g_is_not_said(tmp_path):
    """The run's 0.3 s see the table up to 0.3 s (its 4500 at 0.5 s is after it), and a
    sine of 400 m/s^2 (40.8 g) is a strong but possible shaking table."""
    for acceleration in ('{ type = "table", times = [0.0, 0.1, 0.3, 0.5, 1.0], values = '
                         '[0.0, 5.0, 0.0, 4500.0, 0.0] }',
                         '{ type = "sine", amplitude = 400.0, frequency = 2.0 }'):
        assert SUPPORT_PEAK_LIMIT > 400.0
        assert not [w for w in run(tmp_path, acceleration=acceleration).warnings
                    if "m/s^2 (" in w]


@pytest.mark.parametrize("name", [n for n in shipped_cases() if n.startswith("sdnd")])
def test_the_shipped_cases_say_neither(name):
    result = rc.run(rc.load_case(name), write=False, quiet=True)
    assert not [w for w in result.warnings if "never closed" in w or " g, above" in w]
