"""A shock whose contact is shorter than a step: its impacts are measured on the samples on
either side of each contact (the free flights'), not interpolated across it
(docs/discrete.md, "Impact post-processing")."""

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.discrete import runner

#: sdnd101a with Newmark and a 1e12 N/m stop: a 3.1e-5 s contact, 0.063 of its 5e-4 s step
STIFF = {"solver.scheme": "newmark", "model.shock.0.kn": 1e12, "time.end": 0.5}
MASS, SPRING = 100.0, 1e4  # kg, N/m: sdnd101a's


def run(overrides):
    return rc.run(rc.load_case("sdnd101a", overrides), write=False, quiet=True)


@pytest.mark.parametrize("every", [1, 7])
def test_sdnd101a_with_newmark_on_a_stiff_stop_reports_the_free_flights(every):
    """Interpolated across its one sample inside, impact 2 rebounded at -0.89 m/s (5 s:
    speeds -0.62, -0.11, ...), and lasted 7.96e-6 s with 3.29 N.s. Each speed is now the
    normal velocity of the step before the contact, each rebound that of the step after
    it, start and end those steps' instants, read here on the history; recorded every 7th
    step, the impacts are measured on the steps around the contacts, the same to the last
    digit."""
    result = run({**STIFF, "output.every": every})
    reference = run(STIFF)
    t, vn = reference.history["time"], reference.history["VN_NO1"]
    assert len(result.impacts) == 2
    for impact in result.impacts:
        assert impact["resolved"] is False
        lo = np.flatnonzero(t == impact["start"])[0]
        hi = np.flatnonzero(t == impact["end"])[0]
        assert hi - lo == 2  # the one sample inside and the two around it
        assert impact["speed"] == vn[lo] and impact["rebound_speed"] == -vn[hi]
        assert impact["speed"] > 0.0 and impact["rebound_speed"] > 0.0
        for key in ("duration", "max_force", "t_max"):
            assert np.isnan(impact[key])
    # the scheme's own rebound: 2.99 m/s where the mass came at 1 m/s (the energy warning),
    # and the free flight (Newmark keeps a linear system's energy) brings it back at that
    # speed: the next impact's speed
    first, second = result.impacts
    assert first["rebound_speed"] == pytest.approx(2.99, abs=0.01)
    assert second["speed"] == pytest.approx(first["rebound_speed"], rel=1e-5)
    stats = result.extra["impact_statistics"]["NO1"]
    assert stats["count"] == 2 and stats["histogram"] == []
    assert np.isnan(stats["max_abs_force"]) and np.isnan(stats["mean_max_force"])
    warned = [w for w in result.warnings if "between the samples" in w]
    assert warned == [
        "shock NO1: its contact, about 3.14e-05 s, is shorter than the 0.0005 s between the "
        "samples it is measured on: its 2 impact(s) (resolved = false) are measured on the "
        "samples before and after each contact, not across it: start and end are their "
        "instants, speed and rebound_speed their normal velocities, impulse the integral of "
        "FN between them (the momentum the shock gave); duration, max_force and t_max are "
        "NaN (not measured)"]


def test_the_impulse_of_an_unresolved_impact_is_the_momentum_the_step_gave():
    """Newmark's momentum balance over the steps around a contact: m (v_after - v_before)
    = -(impulse + the spring's, both trapezoids on the steps), exact but for rounding
    (2e-11 of it measured). Interpolated across the contact, impact 2's impulse was 3.29
    N.s where the speeds say 414."""
    result = run(STIFF)
    t, x = result.history["time"], result.history["DX_NO1"]
    for impact in result.impacts:
        inside = (t >= impact["start"]) & (t <= impact["end"])
        spring = np.trapezoid(SPRING * x[inside], t[inside])
        momentum = MASS * (impact["speed"] + impact["rebound_speed"])
        assert impact["impulse"] + spring == pytest.approx(momentum, rel=1e-9)
    assert result.impacts[1]["impulse"] == pytest.approx(413.79, rel=1e-5)


def test_the_unresolved_contact_lies_between_its_start_and_end():
    """The same first impact resolved (step 1e-6 s, 31 steps a contact): 0 to 3.144e-5 s,
    200.0 N.s (2 m v for its elastic rebound), 9.996e6 N. Unresolved, the first impact
    lies between 0 and 1e-3 s, and its impulse, 399.36 N.s, is 2.0 times that: the
    momentum of the scheme's 2.99 m/s rebound, not of the physical one."""
    fine = run({**STIFF, "time.step": 1e-6, "time.end": 1e-3})
    [resolved] = fine.impacts
    assert resolved["resolved"] and resolved["duration"] == pytest.approx(3.144e-5, rel=1e-3)
    assert resolved["impulse"] == pytest.approx(2 * MASS * 1.0, rel=1e-5)
    coarse = run(STIFF).impacts[0]
    assert coarse["start"] <= resolved["start"] and resolved["end"] <= coarse["end"]
    assert coarse["impulse"] == pytest.approx(
        MASS * (coarse["speed"] + coarse["rebound_speed"]), rel=1e-4)  # the spring's 2.5e-3


@pytest.mark.parametrize("scheme", [{"solver.scheme": "newmark"},
                                    {"solver.scheme": "hht", "solver.alpha": -0.1},
                                    {"solver.scheme": "hht", "solver.alpha": -0.3}])
def test_a_free_mass_rebounds_with_the_impulse_it_was_given(scheme):
    """A free 100 kg mass (no spring) at 1 m/s on the 1e12 N/m stop: m (speed +
    rebound_speed) = impulse to rounding (8e-11 measured). HHT's step after the contact
    still weighs alpha of the force before it: its rebound is read a step later; read on
    that step, it was 4 % (alpha = -0.1) and 6 % (-0.3) short of the free flight's."""
    result = run({**STIFF, **scheme, "time.end": 0.01, "solver.space": "physical",
                  "model.spring.0.stiffness": [0.0, 0.0, 0.0]})
    [impact] = result.impacts
    assert not impact["resolved"] and impact["rebound_speed"] > 2.0  # the scheme's energy
    assert impact["impulse"] == pytest.approx(
        MASS * (impact["speed"] + impact["rebound_speed"]), rel=1e-9)
    vn = result.history["VN_NO1"]
    # the free flight's velocity, kept to the end but for rounding (6e-14 of it measured)
    assert impact["rebound_speed"] == pytest.approx(-vn[-1], rel=1e-12)


def test_on_the_recorded_rows_an_unresolved_impulse_is_not_measured(monkeypatch):
    """Past runner.CONTACT_VALUES the impacts fall back to rows 7 steps apart: the force
    of one row over their spacing is no momentum of the run's (at most one of the contact's
    steps is recorded), so the impulse is NaN and the warning says so. (The rows catch
    one contact of two: the first, at 5e-4 s, falls between the rows at 0 and 3.5e-3 s.)"""
    monkeypatch.setattr(runner, "CONTACT_VALUES", 0)
    result = run({**STIFF, "output.every": 7})
    assert len(result.impacts) == 1
    for impact in result.impacts:
        assert not impact["resolved"] and np.isnan(impact["impulse"])
        assert impact["end"] - impact["start"] == pytest.approx(2 * 7 * 5e-4, rel=1e-9)
    [warned] = [w for w in result.warnings if "between the samples" in w]
    assert "impulse NaN too (the samples are recorded rows, not steps)" in warned


@pytest.mark.parametrize("name", ["sdnd101a", "sdnd102c"])
def test_shipped_contacts_are_resolved(name):
    """sdnd102c's contact takes 2.1 steps: its impacts keep their interpolated figures."""
    result = rc.run(rc.load_case(name), write=False, quiet=True)
    assert result.impacts and all(i["resolved"] for i in result.impacts)
    assert all(np.isfinite(i[k]) for i in result.impacts
               for k in ("duration", "max_force", "impulse"))
    assert not [w for w in result.warnings if "between the samples" in w]
