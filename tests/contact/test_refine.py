"""Small steps where a contact closes or opens (``[time.refine]``), A's first impact.

Without its collision windows (the case variant sdnv105a_auto) SDNV105 A lands on A inside
a 2.5 ms average-acceleration step; the refinement takes that step again with 10 us steps
and finds the first collision where the windowed run does (issue 4's marks: 0.2% on the
instant, 1% on the energy).
"""

import numpy as np
import pytest
from acceptance import case_reference, within

import rocking_contact as rc

AUTO = "sdnv105a_auto"  # cases/variants/, resolved by name
#: issue 4's first collision in the variant's case file (value, source, tolerance): the
#: rigid block's instant (closed form) and kinetic energy (integrated, nonlinear)
T1 = case_reference(AUTO, "collision.1.time", "analytic rigid, closed form", mark=0.002)
EKIN1 = case_reference(AUTO, "collision.1.kinetic_energy", "analytic rigid, integrated",
                       mark=0.01)
RELEASE_WINDOW_ONLY = {"time.end": 0.0575, "collisions.windows": [[0.0, 0.0575]]}


@pytest.fixture(scope="module")
def runs():
    out = {}
    for label, extra in (("refined", {}), ("off", {"time.refine.enabled": False})):
        case = rc.load_case(AUTO, {**RELEASE_WINDOW_ONLY, **extra})
        out[label] = rc.run(case, write=False, quiet=True, plots=False)
    return out


def test_landing_in_a_long_step_is_taken_again_with_small_steps(runs):
    result = runs["refined"]
    q, h = result.quantities, {k: np.asarray(v) for k, v in result.history.items()}
    assert result.status == "completed" and result.timing["refined_steps"] >= 1
    assert within(q["collision.1.time"], T1), q["collision.1.time"]
    assert within(q["collision.1.kinetic_energy"], EKIN1), q["collision.1.kinetic_energy"]
    at_impact = np.abs(h["time"] - q["collision.1.time"]) <= 2e-5
    assert np.allclose(h["DT"][at_impact], 1e-5)
    # The refined steps are the case's own (alpha -0.2): no energy appears.
    assert h["ETOT"].max() - h["ETOT"][0] <= 1e-4
    assert q["energy.rise.max"] == pytest.approx(max(h["ETOT"].max() - h["ETOT"][0], 0.0))


def test_without_refinement_the_impact_is_lost_in_the_long_step(runs):
    q = runs["off"].quantities
    assert runs["off"].timing["refined_steps"] == 0
    assert not within(q["collision.1.time"], T1)  # the 2.5 ms grid point before it


def test_hold_keeps_the_steps_small_after_the_last_change():
    """``hold``: after the landing (and A's rebound and second landing, ~0.0556 s) the
    steps stay at ``refine.step`` for ``hold``; with ``hold = 0`` the 2.5 ms steps resume
    at once (measured: a long step 0.0575-0.06 s with hold 0, none before 0.06 s with
    hold 4 ms; 773 and 1022 steps)."""
    end, hold = 0.065, 4e-3
    first = {}
    for value in (0.0, hold):
        case = rc.load_case(AUTO, {**RELEASE_WINDOW_ONLY, "time.end": end,
                                   "collisions.windows": [[0.0, end]],
                                   "time.refine.hold": value})
        result = rc.run(case, write=False, quiet=True, plots=False)
        t, dt = (np.asarray(result.history[k]) for k in ("time", "DT"))
        first[value] = (result.quantities["collision.1.time"], result.timing["steps"],
                        (t - dt)[(dt > 1e-4) & (t > T1.value)].min())
    (t1_0, steps_0, long_0), (t1_h, steps_h, long_h) = first[0.0], first[hold]
    assert t1_h == t1_0  # the same steps up to the landing
    assert long_0 < t1_0 + hold  # hold 0: a long step starts within 4 ms of the landing
    assert long_h >= t1_h + hold and steps_h > steps_0


def test_energy_created_by_the_steps_is_reported(capsys):
    """Refinement off and the block left to its 2.5 ms steps past the first impact: the
    landings in long steps create energy, the run says so (results.json and stderr)."""
    end = 0.08
    case = rc.load_case(AUTO, {**RELEASE_WINDOW_ONLY, "time.end": end,
                               "collisions.windows": [[0.0, end]],
                               "time.refine.enabled": False})
    result = rc.run(case, write=False, quiet=True, plots=False)
    rise = result.quantities["energy.rise.max"]
    motion = max(np.max(result.history["EKIN_BLOCK"]), result.history["EPOT_GRAV"][0])
    assert rise > 0.01 * motion  # measured: 1.17 J on 7.29 J
    # and the dissipation that gave it back (tests/contact/test_energy_given_back.py)
    assert len(result.warnings) == 2 and f"{rise:.4g} J" in result.warnings[0]
    assert result.warnings[1].startswith("energy taken by the dissipations came back")
    err = capsys.readouterr().err.splitlines()
    assert err == [f"warning: sdnv105a_auto: {w}" for w in result.warnings]


def test_refined_run_has_no_warning(runs):
    assert runs["refined"].warnings == []
