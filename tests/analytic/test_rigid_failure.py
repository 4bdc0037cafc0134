"""A rigid run whose integration fails says where and keeps what it computed, as a FEM run
does: history.csv up to there, results.json ``failed: ...`` with the levels so far. It
kept nothing ('no results were written')."""

import json

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import rocking_contact as rc
from rocking_contact.analytic import rigid_motion

#: the instant (s) past which the integrator is made to give up
FAIL_AFTER = 0.2


def failing_after(t_fail):
    """solve_ivp as the rigid block calls it, but failing (status -1, as DOP853 does when
    its step falls below round-off) on a piece that starts past ``t_fail`` (s): a flight
    after an impact past it."""

    def solve(fun, span, y0, **kwargs):
        sol = solve_ivp(fun, span, y0, **kwargs)
        if span[0] > t_fail:
            sol.status = -1
            sol.message = "Required step size is less than spacing between numbers."
        return sol

    return solve


def test_a_failed_integration_keeps_the_levels_so_far(monkeypatch, tmp_path):
    case = rc.load_case("sdnv105_rigid", {"time.end": 0.5})
    whole = rc.run(case, out=tmp_path / "whole", quiet=True, plots=False)
    monkeypatch.setattr(rigid_motion, "solve_ivp", failing_after(FAIL_AFTER))
    out = tmp_path / "r"
    with pytest.raises(rc.SolverFailure) as info:
        rc.run(case, out=out, quiet=True, plots=False)
    partial = info.value.partial
    assert partial is not None
    assert str(info.value).startswith("rigid rocking integration failed at t = ")
    assert "Required step size" in str(info.value)
    failed_at = float(str(info.value).split("failed at t = ")[1].split(" s")[0])
    t = partial.history["time"]
    # the flight that failed starts at the first impact past FAIL_AFTER: kept up to it
    assert FAIL_AFTER < t[-1] <= failed_at < 0.5 and len(t) > 100
    assert str(info.value).endswith(f"; the levels are kept up to t = {t[-1]:.9g} s")
    for name, column in partial.history.items():  # the whole run's rows up to there
        assert np.array_equal(column, whole.history[name][:len(column)]), name
    assert partial.collisions == whole.collisions[:len(partial.collisions)]
    assert partial.collisions  # the first impact (0.054 s) was reached
    written = json.loads((out / "results.json").read_text())
    assert written["status"] == f"failed: {info.value}" == partial.status
    assert written["extra"]["outcome"] == "failed"
    rows = (out / "history.csv").read_text().splitlines()
    assert len(rows) == len(t) + 1  # and its header
    assert rows == (tmp_path / "whole" / "history.csv").read_text().splitlines()[:len(rows)]


def test_levels_that_cannot_be_integrated_again_keep_nothing(monkeypatch):
    """The levels kept are integrated again up to where they all got: an integrator that
    fails from its 5th piece on fails that too, and the run says its failure without a
    partial result, as before (no traceback of the second failure)."""
    calls = []

    def fifth_on(fun, span, y0, **kwargs):
        calls.append(span)
        sol = solve_ivp(fun, span, y0, **kwargs)
        if len(calls) >= 5:
            sol.status, sol.message = -1, "Required step size is less than spacing."
        return sol

    monkeypatch.setattr(rigid_motion, "solve_ivp", fifth_on)
    with pytest.raises(rc.SolverFailure) as info:
        rc.run(rc.load_case("sdnv105_rigid", {"time.end": 0.5}), write=False, quiet=True)
    assert info.value.partial is None
    assert str(info.value).startswith("rigid rocking integration failed at t = ")
