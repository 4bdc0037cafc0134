"""A shock whose contact is shorter than a step: its impacts' speeds are the free flights'
on either side of each contact, not interpolated across it (docs/discrete.md, "Impact
post-processing")."""

import numpy as np
import pytest

import rocking_contact as rc


@pytest.mark.parametrize("every", [1, 7])
def test_sdnd101a_with_newmark_on_a_stiff_stop_reports_the_free_flights(every):
    """sdnd101a with Newmark and a 1e12 N/m stop (contact 3.1e-5 s, 0.06 step): interpolated
    across its one sample inside, impact 2 rebounded at -0.89 m/s (5 s: speeds -0.62, -0.11,
    ...). Each speed is now the normal velocity of the step before the contact, each
    rebound that of the step after it, read here on the history; recorded every 7th step,
    the impacts are measured on the steps around the contacts, the same to the last digit."""
    case = rc.load_case("sdnd101a", {"solver.scheme": "newmark", "model.shock.0.kn": 1e12,
                                     "time.end": 0.5, "output.every": every})
    result = rc.run(case, write=False, quiet=True)
    reference = rc.run(rc.load_case("sdnd101a", {
        "solver.scheme": "newmark", "model.shock.0.kn": 1e12, "time.end": 0.5}),
        write=False, quiet=True)
    t, vn = reference.history["time"], reference.history["VN_NO1"]
    assert len(result.impacts) == 2
    for impact in result.impacts:
        assert impact["resolved"] is False
        before = np.flatnonzero(t < impact["start"])
        after = np.flatnonzero(t > impact["end"])[0]
        assert impact["speed"] == (vn[before[-1]] if len(before) else vn[0])
        assert impact["rebound_speed"] == -vn[after]
        assert impact["speed"] > 0.0 and impact["rebound_speed"] > 0.0
    # the scheme's own rebound: 2.99 m/s where the mass came at 1 m/s (the energy warning),
    # and the free flight (Newmark keeps a linear system's energy) brings it back at that
    # speed: the next impact's speed
    first, second = result.impacts
    assert first["rebound_speed"] == pytest.approx(2.99, abs=0.01)
    assert second["speed"] == pytest.approx(first["rebound_speed"], rel=1e-5)
    warned = [w for w in result.warnings if "between the samples" in w]
    assert warned == [
        "shock NO1: its contact, about 3.14e-05 s, is shorter than the 0.0005 s between the "
        "samples it is measured on: the speed and rebound_speed of its 2 impact(s) are the "
        "normal velocities of the samples before and after each contact (resolved = false), "
        "not interpolated across it"]


@pytest.mark.parametrize("name", ["sdnd101a", "sdnd102c"])
def test_shipped_contacts_are_resolved(name):
    """sdnd102c's contact takes 2.1 steps: its impacts keep their interpolated speeds."""
    result = rc.run(rc.load_case(name), write=False, quiet=True)
    assert result.impacts and all(i["resolved"] for i in result.impacts)
    assert not [w for w in result.warnings if "between the samples" in w]
