"""A run whose steps create the energy that throws the block over has diverged: it is a
failure, not an overturn (the genuine overturns of a shaken block:
tests/contact/test_shaking_table.py)."""

import json
import re

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.fem.overturn import Diverged, Overturn, divergence
from rocking_contact.results_io import read_history_csv
from rocking_contact.stops import Overturned, SolverFailure

#: SDNV105 A in long steps without its windows and refinement (the audit's command)
LONG_STEPS = {"time.step": 0.02, "time.window": [], "time.refine.enabled": False}


def test_a_run_the_steps_throw_over_has_diverged(tmp_path):
    """A on a still table, released at 0.01 rad, cannot overturn: tipping past atan(b/l)
    takes M g (sqrt(b^2 + l^2) - l cos 0.01 - b sin 0.01) = 151 J, the release gives 7.3 J.
    In 0.0194 s steps without refinement its steps create energy until the base has turned
    past atan(b/l), which the run reported as "the block overturned". It is a failure that
    says the energy, the steps and what to change, with the results so far written.

    How much energy and when are round-off amplified by the divergence itself: with
    OpenBLAS's Haswell kernels 1.1e9 J by 0.0485 s and the base turned by -0.46 rad at
    0.0946 s; with its SkylakeX kernels 1.026e10 J and -0.48 rad at 0.1747 s (measured
    2026-11-23). The test checks the message against the history it wrote instead."""
    with pytest.raises(Diverged) as stop:
        rc.run(rc.load_case("sdnv105a", LONG_STEPS), out=tmp_path, plots=False, quiet=True)
    assert isinstance(stop.value, SolverFailure) and not isinstance(stop.value, Overturned)
    message = stop.value.describe()
    assert "\n" not in message and "overturned" not in message
    said = re.match(r"the run diverged: its steps created (\S+) J by t = (\S+) s \(the total "
                    r"energy above its released value, .* at t = (\S+) s that energy took the "
                    r"block off the model \(its base turned by (\S+) rad, past atan\(b/l\) = "
                    r"0\.422854 rad, where it topples\); use a smaller time\.step, or enable "
                    r"\[time\.refine\]$", message)
    assert said is not None, message
    assert "which neither the release nor the table's motion can supply" in message
    created, by, at, turned = (float(value) for value in said.groups())
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["status"] == f"failed: {message}"
    rows = read_history_csv(tmp_path / "history.csv")
    # the run's own history, the stop's state its last row
    assert rows["time"][-1] == pytest.approx(at, rel=1e-8)
    rise = rows["ETOT"] - rows["ETOT"][0]
    assert created == pytest.approx(np.max(rise), rel=1e-3)
    assert by == pytest.approx(rows["time"][np.argmax(rise)], rel=1e-5)
    tipping = 417.6 * 9.81 * (np.hypot(0.18, 0.4) - 0.4 * np.cos(0.01) - 0.18 * np.sin(0.01))
    assert tipping == pytest.approx(151.0, abs=0.5)
    assert created > tipping and abs(turned) > 0.422854


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
