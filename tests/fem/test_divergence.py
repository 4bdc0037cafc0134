"""A run whose steps create the energy that throws the block over has diverged: it is a
failure, not an overturn (the genuine overturns of a shaken block:
tests/contact/test_shaking_table.py)."""

import json

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.fem.overturn import Diverged, Overturn, divergence
from rocking_contact.results import Overturned, SolverFailure, read_history_csv

#: SDNV105 A in long steps without its windows and refinement (the audit's command)
LONG_STEPS = {"time.step": 0.02, "time.window": [], "time.refine.enabled": False}


def test_a_run_the_steps_throw_over_has_diverged(tmp_path):
    """A on a still table, released at 0.01 rad, cannot overturn: tipping past atan(b/l)
    takes 151 J, the release gives 7.3 J. In 0.0194 s steps without refinement its steps
    created 1.1e9 J by 0.0485 s and its base turned by -0.46 rad at 0.0946 s, which the run
    reported as "the block overturned" (measured 2026-11-23). It is a failure that says the
    energy, the steps and what to change, with the results so far written."""
    with pytest.raises(Diverged) as stop:
        rc.run(rc.load_case("sdnv105a", LONG_STEPS), out=tmp_path, plots=False, quiet=True)
    assert isinstance(stop.value, SolverFailure) and not isinstance(stop.value, Overturned)
    message = stop.value.describe()
    assert "\n" not in message and "overturned" not in message
    assert message.startswith("the run diverged: its steps created 1.10")
    for part in ("J by t = 0.0485294 s (the total energy above its released value",
                 "which neither the release nor the table's motion can supply",
                 "at t = 0.0946323529 s that energy took the block off the model (its base "
                 "turned by -0.461", "past atan(b/l) = 0.422854 rad",
                 "; use a smaller time.step, or enable [time.refine]"):
        assert part in message, message
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["status"] == f"failed: {message}"
    assert read_history_csv(tmp_path / "history.csv")["time"][-1] == pytest.approx(0.0946324,
                                                                                   rel=1e-6)


def history(etot, etable=None):
    """A run's history rows with the total energy ``etot`` (J), 1 ms steps."""
    n = len(etot)
    rows = {"time": 1e-3 * np.arange(n), "DT": np.full(n, 1e-3), "ENERGY_RESIDUAL": np.zeros(n),
            "EKIN_BLOCK": np.linspace(0.0, 2.0, n), "EPOT_GRAV": np.full(n, 7.29),
            "ETOT": np.asarray(etot, dtype=float)}
    if etable is not None:
        rows["ETABLE"] = np.asarray(etable, dtype=float)
    return rows


STOP = Overturn(0.004, "overturned", "its base turned by 1.6 rad, to pi/2 = 1.5708 rad: it "
                                     "lies on its side")


def test_a_table_that_supplies_the_energy_overturns_the_block():
    """On a shaking table the block gains what the table's drag works on it (ETABLE): a
    rise of 20 J that the table supplied is an overturn; the same rise without the table's
    work, or 0.2 J (2.7 % of the 7.29 J released) beyond it, is energy the steps created."""
    rising = [7.29, 10.0, 15.0, 20.0, 27.29]
    assert divergence(STOP, history(rising, etable=[0.0, 2.71, 7.71, 12.71, 20.0]), "") is None
    alone = divergence(STOP, history(rising), "use a smaller time.step")
    assert alone is not None and alone.startswith("the run diverged: its steps created 20 J "
                                                  "by t = 0.004 s (the total energy above its "
                                                  "released value, 274% ")
    assert alone.endswith("at t = 0.004 s that energy took the block off the model (its base "
                          "turned by 1.6 rad, to pi/2 = 1.5708 rad: it lies on its side); use a "
                          "smaller time.step")
    beyond = divergence(STOP, history(rising, etable=[0.0, 2.71, 7.71, 12.71, 19.8]), "")
    assert beyond is not None and "created 0.2 J" in beyond
    # within the energy warning's 1 %: no divergence (the warning's tolerance, not another)
    assert divergence(STOP, history(rising, etable=[0.0, 2.71, 7.71, 12.71, 19.95]), "") is None
