"""The summary line of a run that stopped says its steps were those before it stopped
(audit U1 #11, session 29): a discrete run whose first step failed printed 'twomass: 0
steps, ...' and then 'error: solver failed: ... (step 1, dt = 0.01 s) ...'."""

import pytest

import rocking_contact as rc
from rocking_contact.stops import SolverFailure
from rocking_contact.summary import summary_line


def test_a_run_that_failed_at_its_first_step_says_0_steps_before_it_stopped():
    case = rc.load_case("sdnd101a", {"solver.scheme": "newmark", "solver.newton_max_iter": 1,
                                     "solver.newton_tol": 1e-30, "time.end": 0.01})
    with pytest.raises(SolverFailure) as failure:
        rc.run(case, write=False, quiet=True, plots=False)
    assert "(step 1, " in str(failure.value)
    stopped = failure.value.partial
    assert stopped is not None and stopped.status.startswith("failed")
    assert summary_line(stopped).startswith("sdnd101a: 0 steps before the run stopped, ")
    done = rc.run(rc.load_case("sdnd101a", {"time.end": 0.01}), write=False, quiet=True,
                  plots=False)
    assert summary_line(done).startswith("sdnd101a: 20 steps, ")
