"""SDND102: both schemes converge together (issue acceptance: <1% of max|x| at dt=1e-5)."""

import numpy as np

from rocking_contact.analytic.forced_impact import response
from rocking_contact.discrete.studies import convergence

TIMES = [0.1, 0.2, 0.3, 0.4, 0.5]


def test_sdnd102_schemes_agree_at_fine_step_and_converge_to_exact():
    rows = convergence("sdnd102c", "DX_NO2", TIMES, [1e-3, 1e-4, 1e-5])
    exact = response(np.array(TIMES), m=25.0, k=98696.0, kc=5.76e7, gap=5e-4,
                     acceleration=lambda t: np.sin(2 * np.pi * 10 * t))
    fine = {r.scheme: r for r in rows if r.step == 1e-5}
    cd, nm = fine["central_difference"], fine["newmark"]
    assert np.abs(cd.values - nm.values).max() <= 0.01 * max(cd.max_abs, nm.max_abs)
    for scheme in ("central_difference", "newmark"):
        errors = [np.abs(r.values - exact).max() for r in rows if r.scheme == scheme]
        assert errors[0] > errors[1] > errors[2]
        assert errors[2] <= 1e-4 * np.abs(exact).max()
