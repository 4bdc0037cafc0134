"""The rigid levels are integrated side by side, the one behind first: a stop asked for
before one of them took its first piece (a Ctrl-C at once; a failed integration, integrated
again up to where every level got, when that is the release) asked that level for its
motion, which it did not have yet: AttributeError '_impacts', a traceback instead of the
run's stop or failure."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import rocking_contact as rc
from rocking_contact import interrupt
from rocking_contact.analytic import rigid_motion
from rocking_contact.stops import Interrupted


def test_a_stop_at_once_stops_once_every_level_took_a_piece(monkeypatch):
    """Asked before the first piece, the stop comes after every level's first flight (to
    impact 1 at 0.054 s): the history has rows, the first collision is kept."""
    monkeypatch.setattr(interrupt, "requested", lambda: True)
    with pytest.raises(Interrupted) as info:
        rc.run(rc.load_case("sdnv105_rigid", {"time.end": 0.5}), write=False, quiet=True)
    partial = info.value.partial
    assert partial is not None and str(info.value).startswith("interrupted at t = ")
    t = partial.history["time"]
    assert len(t) > 100 and 0.05 < t[-1] < 0.5
    assert [round(c["time"], 4) for c in partial.collisions] == [0.0544]


def test_a_failure_in_the_first_flight_is_said_as_a_failure(monkeypatch):
    """The first flight (to impact 1, 0.054 s) fails: every level had reached only the
    release, and they are integrated again up to it."""

    def failing(fun, span, y0, **kwargs):
        sol = solve_ivp(fun, span, y0, **kwargs)
        sol.status, sol.message = -1, "Required step size is less than spacing between numbers."
        return sol

    monkeypatch.setattr(rigid_motion, "solve_ivp", failing)
    with pytest.raises(rc.SolverFailure) as info:
        rc.run(rc.load_case("sdnv105_rigid", {"time.end": 0.5}), write=False, quiet=True)
    assert str(info.value).startswith("rigid rocking integration failed at t = ")
    if info.value.partial is not None:  # what was kept: nothing past the release
        assert np.all(info.value.partial.history["time"] <= 0.0)
