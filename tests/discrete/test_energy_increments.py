"""A discrete run's works are summed in the schemes' own increments, ``sum 1/2 (F_n +
F_{n+1}) . (x_{n+1} - x_n)``, so that ENERGY_RESIDUAL is what the time scheme makes or
loses, not a quadrature's error (RV2, S29 X4c). Integrated as powers with the trapezoid,
``sum 1/2 (F_n . v_n + F_{n+1} . v_{n+1}) dt``, the works left twomass under Newmark a
residual of 1.1e-4 J (frictionless, 0.2 s at its 1e-5 s step) that was the trapezoid's
alone, 1e-2 J at 1e-4 s steps."""

from pathlib import Path

import numpy as np
import pytest
from twomass_case import twomass_case

import rocking_contact as rc

CASES = Path(__file__).resolve().parents[2] / "cases"

#: the stop 1 m away: twomass's masses never reach it, and no shock works
FAR = "model.shock[0].gap=1.0"

#: (the work a variant isolates, the case, its changes); under Newmark at 1e-4 s steps
#: each variant's residual was, with the trapezoid of powers: 1.1e-2 J, 1.2e-2 J, 2.3e-6
#: J (SDND100 A as shipped, 5e-4 s), 1.6e-5 J, 4.5e-6 J; in increments 4e-11 to 2e-10 J
#: (the round-off of Newmark's update, which divides x_{n+1} less its predictor by beta
#: dt^2), 8e-16 J for SDND100 A
ISOLATED = [
    ("the normal contact's", "twomass", ["model.shock[0].mu=0.0"]),
    ("the regularised friction's, with the contact's", "twomass", []),
    ("the friction of a pad that never moves along its normal", "sdnd100a", []),
    ("the dampers'", "twomass", [FAR, "model.damping.mass_coefficient=5.0"]),
    ("the support's drag", "twomass",
     [FAR, "model.support.acceleration={type='sine', amplitude=5.0, frequency=3.0}"]),
]


@pytest.fixture(scope="module")
def twomass(tmp_path_factory):
    return twomass_case(tmp_path_factory.mktemp("twomass"))


@pytest.mark.parametrize(("work", "name", "changes"), ISOLATED,
                         ids=[w for w, _, _ in ISOLATED])
def test_newmark_balances_its_works_to_round_off(twomass, work, name, changes):
    """The average-acceleration Newmark balances ``M (v_{n+1} - v_n) = dt (f_n + f_{n+1})
    / 2`` along ``x_{n+1} - x_n = dt (v_n + v_{n+1}) / 2``: each work in increments closes
    its balance to round-off, each variant isolating one of them."""
    if name == "twomass":
        case = rc.load_case(twomass, ["time.end=0.2", "time.step=1e-4",
                                      "solver.scheme='newmark'", *changes])
    else:
        case = rc.load_case(CASES / f"{name}.toml", ["solver.scheme='newmark'", *changes])
    result = rc.run(case, write=False, quiet=True)
    h = result.history
    # the work the variant isolates is there and not nothing
    taken = {"the dampers'": "EDAMP", "the support's drag": "ETABLE"}.get(work, "ECONTACT")
    assert np.abs(h[taken]).max() > 1e-3, taken
    assert result.extra["energy"]["residual_max_abs"] < 1e-8


@pytest.mark.parametrize("changes", [["model.shock[0].mu=0.0"], [],
                                     ["model.shock[0].friction='exact'"]],
                         ids=["frictionless", "regularised", "exact"])
def test_central_differences_leave_the_mean_velocity_s_excess(twomass, changes):
    """Central differences keep ``v_{n-1/2}^T M v_{n+1/2} / 2 + ...`` constant; the history
    reports the mean velocity ``v_n = (v_{n-1/2} + v_{n+1/2}) / 2``, whose kinetic energy
    exceeds that by ``dt^2 / 8 a_n^T M a_n``: in increments, the residual is that excess
    and nothing else (to 8e-14 J; 1.10e-4 J at twomass's first impact, frictionless,
    1.20e-4 J with friction), where the trapezoid of powers added its own error, -2.2e-4
    J there, and showed -1.07e-4 J."""
    case = rc.load_case(twomass, ["time.end=0.2", *changes])
    h = rc.run(case, write=False, quiet=True).history
    dt = case.time.step
    excess = dt**2 / 8.0 * (10.0 * h["AX_N1"] ** 2 + 5.0 * (h["AX_N2"] ** 2 + h["AY_N2"] ** 2))
    assert excess.max() > 1e-4
    np.testing.assert_allclose(h["ENERGY_RESIDUAL"], excess - excess[0], rtol=0.0,
                               atol=1e-12)
