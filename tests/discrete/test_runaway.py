"""A central-difference step the model cannot hold: refused before the run when no contact
can save it, a failure where the run's energy grows without bound, and no alarm where it
holds (docs/discrete.md, "Integrators")."""

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.cli import main
from rocking_contact.config import build
from rocking_contact.discrete.case import DiscreteCase
from rocking_contact.discrete.energy import EXCESS, GROWTH
from rocking_contact.stops import SolverFailure


def test_a_step_above_the_limit_with_every_shock_open_is_refused(capsys, tmp_path):
    """SDND102's oscillator alone (10 Hz) holds central differences up to 1/(10 pi) s:
    above it every run diverges, whatever the wall does."""
    code = main(["run", "sdnd102c", "--out", str(tmp_path), "--no-plots",
                 "--set", "time.step=0.04", "--set", "time.end=0.4"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert err[0] == (
        "error: " + str(rc.load_case("sdnd102c").source_file) + " (with --set): time.step: "
        "got 0.04 s, above 0.03183 s, the central-difference stability limit of this model "
        "with every shock open (dampers included), beyond which its highest mode grows at "
        "every step; allowed: a step below it, or solver.scheme = 'newmark'")


@pytest.mark.parametrize("step,end,at,limit_words", [
    # above the limit with the wall closed (1.32e-3 s): the run reached 756 m at 0.4 s
    (4e-3, 0.4, 0.092, "time.step 0.004 s is above the stability limit with every shock "
                       "closed, 0.00132 s"),
    # below it: the wall's contacts, 1.7 steps long, pump energy until 1e93 J in 10 s
    (1.2e-3, 2.4, 1.902, "central differences made energy where the shocks open and "
                         "close between steps (time.step 0.0012 s, 0.91 of the stability "
                         "limit with every shock closed); a smaller time.step"),
])
def test_a_run_whose_energy_grows_without_bound_fails(step, end, at, limit_words):
    case = rc.load_case("sdnd102c", {"time.step": step, "time.end": end})
    with pytest.raises(SolverFailure) as failed:
        rc.run(case, write=False, quiet=True)
    message = str(failed.value)
    assert message.startswith("the mechanical energy grew without bound: it reached ")
    assert f"more than {GROWTH:g} times the " in message and limit_words in message
    t_fail = float(message.split(" at t = ")[1].split(" s ")[0])
    assert t_fail == pytest.approx(at)
    partial = failed.value.partial
    assert partial.status.startswith("failed")
    t, x = partial.history["time"], partial.history["DX_NO2"]
    assert t[-1] == pytest.approx(t_fail - step) and len(t) == round(t_fail / step)
    # its step count is the history's, not the chunk integrated past the failure
    assert partial.timing["steps"] == round(t[-1] / step)
    # what was computed before is kept, and it has not blown up yet: within 10 times the
    # amplitude its energy bound allows
    bound = (np.sqrt(25.0 / 2.0) * 2 / (2 * np.pi * 10.0) * 2 * 10.0 * t_fail) ** 2
    assert np.abs(x).max() <= np.sqrt(2 * GROWTH * bound / 98696.0)


def test_a_step_above_the_limit_that_holds_runs_to_its_end():
    """1 kg on a 1e4 N/m spring between two 1e6 N/m stops 1 mm away on either side, at
    1 m/s: the limit with both stops closed, 1.41e-3 s, is one they never reach together
    (one closed: 1.99e-3 s). At 1.6e-3 s the run holds, warned, its energy within 4 % of the
    start's, and is not failed."""
    node = {"name": "N1", "mass": 1.0, "fixed": ["DY", "DZ"], "v0": [1.0, 0.0, 0.0]}
    spring = {"name": "K", "nodes": ["N1"], "stiffness": [1e4, 0.0, 0.0]}
    stops = [{"name": name, "node": "N1", "normal": [sign, 0.0, 0.0], "gap": 1e-3, "kn": 1e6}
             for name, sign in (("R", 1.0), ("L", -1.0))]
    case = build(DiscreteCase, {
        "case": {"name": "two_stops", "title": "t", "kind": "discrete"},
        "model": {"node": [node], "spring": [spring], "shock": stops},
        "time": {"start": 0.0, "end": 1.6, "step": 1.6e-3}}, file="<test>")
    result = rc.run(case, write=False, quiet=True)
    assert result.status == "completed"
    assert result.warnings[0] == ("time.step 0.0016 s exceeds the central-difference "
                                  "stability limit 0.00141 s (every shock closed, dampers "
                                  "included)")
    h = result.history
    energy = (0.5 * h["VX_N1"] ** 2 + 0.5 * 1e4 * h["DX_N1"] ** 2
              + 0.5 * 1e6 * (np.maximum(h["PN_R"], 0) ** 2 + np.maximum(h["PN_L"], 0) ** 2))
    assert energy.max() <= 1.04 * energy[0]
    assert len(result.impacts) > 300  # both stops hit, again and again


def stiff_stop_newmark(end=0.5, **more):
    """sdnd101a with Newmark and a 1e12 N/m stop: the 100 kg mass's contact lasts 3.1e-5 s,
    0.06 of a step."""
    return rc.load_case("sdnd101a", {"solver.scheme": "newmark", "model.shock.0.kn": 1e12,
                                     "time.end": end, **more})


def test_an_implicit_step_longer_than_the_contact_warns_of_the_energy_it_made():
    """Nothing loads sdnd101a: its energy can only stay at the start's, 100 kg at 1 m/s,
    50 J. Newmark on a contact 0.06 step long multiplies it by 9, far below the runaway
    factor: one warning names where it first passed twice 50 J and its largest ratio, both
    those of the energy computed here from the history."""
    result = rc.run(stiff_stop_newmark(), write=False, quiet=True)
    assert result.status == "completed"
    h = result.history
    energy = (0.5 * 100.0 * h["VX_NO1"] ** 2 + 0.5 * 1e4 * h["DX_NO1"] ** 2
              + 0.5 * 1e12 * np.maximum(h["PN_NO1"], 0.0) ** 2)
    ratio = energy / 50.0
    assert 8.0 < ratio.max() < GROWTH
    first = h["time"][np.flatnonzero(ratio > EXCESS)[0]]
    warned = [w for w in result.warnings if w.startswith("the mechanical energy exceeded")]
    assert warned == [
        f"the mechanical energy exceeded {EXCESS:g} times the most that the initial state and "
        f"the work of the loads can give, from t = {first:.6g} s on (up to {ratio.max():.3g} "
        f"times, at t = {h['time'][np.argmax(ratio)]:.6g} s): the scheme made energy at the "
        f"shocks"]


@pytest.mark.parametrize("name,changes", [
    ("sdnd101a", {}),                                   # E / bound 1.001
    ("sdnd102c", {}),                                   # 1.11, central differences at 0.76
    ("sdnd102c", {"solver.scheme": "hht", "solver.alpha": -0.1}),            # 1.165
    ("sdnd101a", {"solver.scheme": "newmark", "model.shock.0.kn": 1e8,       # 1.067, 6 steps
                  "time.end": 1.5}),                                         # a contact
    ("sdnd101a", {"time.step": 0.01, "time.end": 1.5}),  # 1.255: the leapfrog's ringing
])
def test_a_run_that_keeps_its_energy_does_not_warn_of_it(name, changes):
    result = rc.run(rc.load_case(name, changes), write=False, quiet=True)
    assert result.status == "completed"
    assert not [w for w in result.warnings if "mechanical energy" in w]
