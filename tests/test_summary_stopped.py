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


def test_one_step_and_one_static_step_are_said_in_the_singular():
    """'sdnv105a: 0 steps (stopped in the preload, after 1 static steps)', and a run of
    one step said '1 steps'."""
    one = rc.run(rc.load_case("sdnd101a", {"time.end": 5e-4}), write=False, quiet=True,
                 plots=False)
    assert summary_line(one).startswith("sdnd101a: 1 step, ")
    case = rc.load_case("sdnv105a", {"solver.max_iterations": 2, "solver.max_halvings": 0,
                                     "time.end": 0.01})
    with pytest.raises(SolverFailure) as failure:  # the tilt's single static step
        rc.run(case, write=False, quiet=True, plots=False)
    stopped = failure.value.partial
    assert stopped is not None
    assert summary_line(stopped).startswith("sdnv105a: 0 steps (stopped in the preload, "
                                            "after 1 static step), ")


def test_the_summary_line_counts_the_checks_that_fail():
    """'4/14 checks pass (9 not reached: ...)' never said the 14th failed: a reader could
    not tell one failure from none (audit, session 35)."""
    import numpy as np

    from rocking_contact.results import RunResult

    def check(passed, note=""):
        return {"quantity": "q", "passed": passed, "note": note, "value": None}

    unreached = check(False, "not reached: the run ends at t = 0.06 s")
    result = RunResult("short", "block", {}, {"time": np.array([0.0, 0.06])},
                       checks=[check(True)] * 4 + [check(False)] + [unreached] * 9,
                       timing={"steps": 120, "wall_s": 1.0})
    assert summary_line(result) == ("short: 120 steps, 1 s wall, 4/14 checks pass, 1 fails "
                                    "(9 not reached: the run ends at t = 0.06 s)")
    result.checks = [check(True)] * 10 + [check(False)] * 5
    assert summary_line(result) == "short: 120 steps, 1 s wall, 10/15 checks pass, 5 fail"
    result.checks = [check(True)] * 3 + [unreached]  # none fails: nothing said of failures
    assert summary_line(result) == ("short: 120 steps, 1 s wall, 3/4 checks pass (1 not "
                                    "reached: the run ends at t = 0.06 s)")
