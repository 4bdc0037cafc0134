"""Every value a refusal of the run's time offers is accepted as typed: the least
``time.step`` of the row cap and of the step count, and the step or end that divides the
run. They were written to 3 or 9 digits, coarser than the loader's checks near their
limits: ``rigid --set time.end=0.123 --set time.step=1e-8`` offered '>= 1.23000012e-08',
which loading then refused as not dividing the run (1e-9 of the run); sdnd101a's
``time.step = 1.7e-8`` offered 1.69999998e-08, refused the same way; over 2.0146 s a step
'>= 2.01e-08' that makes 1.002e8 steps."""

import math
import random
import re

import pytest

import rocking_contact as rc
from rocking_contact.config import Conflict, sections
from rocking_contact.config.sections import TimeSpan, recorded_rows, row_count_problem

#: the number a message offers: "allowed: >= 1.23e-08 s", "a step >= 5e-09 s", "such as
#: 1.7e-08 (29411765 steps)" or "such as 1.6e-08 (31250000 steps) or 1.7e-08 (29411765 steps)"
OFFERED = re.compile(r"(?:>=|such as|steps\) or) ([-+0-9.e]+)")


def offered(message: str) -> str:
    """The value offered; of a step that does not divide the run, the longest that does
    (the last: a round step may come first, :func:`rounded`); of an end, the nearest
    that a whole number of steps reaches (the first: the other side's comes next)."""
    found = OFFERED.findall(message)
    assert len(found) in (1, 2), message
    return found[0] if "an end that is" in message else found[-1]


def rounded(message: str) -> float | None:
    """The round step offered before the one that keeps the count of steps, if any."""
    found = OFFERED.findall(message)
    return float(found[0]) if len(found) == 2 else None


def refusal(case: str, given: dict) -> str:
    with pytest.raises(rc.CaseError) as info:
        rc.load_case(case, given)
    return str(info.value)


@pytest.mark.parametrize(("end", "step", "least"), [
    (0.123, 1e-8, "1.230000123e-08"),  # 9 digits, 1.23000012e-08, does not divide
    (0.33, 1e-8, "3.30000033e-08"),  # 3 digits, 3.3e-08, makes 1e7 + 1 rows
    (2.0, 1e-7, "2.0000002e-07"),
])
def test_the_least_step_of_the_row_cap_is_accepted(end, step, least):
    message = refusal("sdnv105_rigid", {"time.end": end, "time.step": step})
    assert offered(message) == least, message
    case = rc.load_case("sdnv105_rigid", {"time.end": end, "time.step": float(least)})
    assert recorded_rows(case.time.n_steps) <= sections.MAX_ROWS


@pytest.mark.parametrize(("case", "given", "key", "least"), [
    # 3 digits, 2.01e-08, make 1.002e8 steps: "got 2.01e-08, allowed: ... a step >= 2.01e-08"
    ("sdnd101a", {"time.end": 2.0146, "time.step": 1e-9, "output.every": 100}, "time.step",
     "2.0146e-08"),
    ("sdnv105a_auto", {"time.refine.step": 1e-15}, "time.refine.step", "3.3e-09"),
])
def test_the_least_step_of_the_step_count_is_accepted(case, given, key, least):
    message = refusal(case, given)
    assert f"{key}: got " in message and offered(message) == least, message
    assert rc.load_case(case, {**given, key: float(least)})


@pytest.mark.parametrize(("start", "end", "step", "key", "fitted", "n"), [
    # 9 digits: 1.69999998e-08, refused
    (0.0, 0.5, 1.7e-8, "step", "1.699999983e-08", 29411765),
    # 1e7 steps of 1.23e-08 s, no longer than the step given (9999999.02 steps of it)
    (0.0, 0.123, 1.23000012e-8, "step", "1.23e-08", 10000000),
    (0.0, 0.5, 3e-4, "step", "0.000299940012", 1667),
    # 714.29 steps of 7e-4 s: 715 of 0.000699300699, not 714 of 0.000700280112, longer
    (0.0, 0.5, 7e-4, "step", "0.000699300699", 715),
    (0.0, 0.5, 1.00001e-4, "step", "0.0001", 5000),  # 3 digits where they do
    # the end of 1e7 steps of 1.00000000456e-8 s is 0.100000000456 s: 0.1 at 9 digits
    (0.0, 0.1000000003, 1.00000000456e-8, "end", "0.100000000456", 10000000),
    (0.05, 0.50004, 1e-4, "end", "0.5", 4500),
])
def test_a_step_or_end_that_divides_the_run_is_accepted(start, end, step, key, fitted, n):
    """The step offered when the step is named (no longer than the step given), the end
    when the end is (the one given last); each loaded into sdnd101a (output.every
    thinning its rows under the cap)."""
    time = TimeSpan(start=start, end=end, step=step)
    with pytest.raises(Conflict) as info:
        time.validate()
    message = info.value.problems[key]
    assert offered(message) == fitted, message
    assert f"{fitted} ({n} steps)" in message
    assert key == "end" or float(fitted) <= step
    given = {"time.start": start, "time.end": end, "time.step": step, "output.every": 1000}
    given[f"time.{key}"] = float(fitted)
    case = rc.load_case("sdnd101a", given)
    assert case.time.n_steps == n


def test_every_value_offered_near_the_limits_is_accepted():
    """Runs of 1e5 to 1.2e8 steps whose step need not divide the run: the least step of
    the step count (1e8) and of the row cap (1e7 rows) pass the time's checks and that cap;
    the step and the end offered where the step does not divide make a run that passes and
    has the number of steps the message says."""
    rng = random.Random(29)
    said = {"steps": 0, "divide": 0, "rows": 0, "round": 0}
    for _ in range(600):
        start = rng.choice([0.0, rng.uniform(0.0, 2.0)])
        end = start + rng.uniform(0.01, 3.0)
        step = (end - start) / rng.uniform(1e5, 1.2e8)
        time = TimeSpan(start=start, end=end, step=float(f"{step:.{rng.randint(2, 12)}g}"))
        try:
            time.validate()
        except Conflict as exc:
            said["divide"] += 1
            for key in ("step", "end"):
                fitted = TimeSpan(**{"start": time.start, "end": time.end, "step": time.step,
                                     key: float(offered(exc.problems[key]))})
                fitted.validate()
                # the step: no longer than the step given; the end: the nearest
                n = (math.floor((end - start) / time.step) + 1 if key == "step"
                     else time.n_steps)
                assert fitted.n_steps == n, exc.problems[key]
                assert key == "end" or fitted.step <= time.step, exc.problems[key]
            round_step = rounded(exc.problems["step"])
            if round_step is not None:  # passes the checks and every row cap
                said["round"] += 1
                assert round_step <= time.step
                least = TimeSpan(start=start, end=end, step=round_step)
                least.validate()
                assert row_count_problem(least) is None, exc.problems["step"]
            continue
        except ValueError as exc:  # too many steps
            said["steps"] += 1
            TimeSpan(start=start, end=end, step=float(offered(str(exc)))).validate()
            continue
        problem = row_count_problem(time)
        if problem is not None:
            said["rows"] += 1
            least = TimeSpan(start=start, end=end, step=float(offered(problem[1])))
            least.validate()
            assert row_count_problem(least) is None, problem
    assert min(said.values()) >= 20, said  # each message was tried


#: every number a "such as" offers: "such as 0.00025 (2000 steps) or 0.000299940012 (1667
#: steps)"
SUCH_AS = re.compile(r"(?:such as|steps\) or) ([-+0-9.e]+) \(")


@pytest.mark.parametrize(("case", "key", "value"), [
    ("sdnd101a", "time.step", "7e-4"),  # 714.29 steps: 0.000700280112 was offered
    ("sdnd101a", "time.step", "0.21"),  # 0.25 (2 steps) was, above the 0.2 s limit
    ("sdnd102c", "time.step", "0.07"),  # 0.0714285714 and 0.0625, above 0.0318
    ("sdnd102c", "time.end", "0.5004"),
    ("sdnd101a", "time.end", "0.4999"),
    ("sdnv105_rigid", "time.step", "3.4e-4"),
    ("sdnv105_rigid", "time.end", "0.3301"),
])
def test_every_value_a_refusal_offers_loads_as_typed(case, key, value):
    """A step that does not divide the run is refused after the case's other refusals of
    the values given, and offers only values the case loads with, typed as the message
    writes them: a step of sdnd101a above its 0.2 s stability limit (0.21 s) was offered
    0.25 s, refused next as unstable. Each value offered is loaded as ``--set`` gives it."""
    with pytest.raises(rc.CaseError) as info:
        rc.load_case(case, [f"{key}={value}"])
    error = info.value
    if "does not divide" in error.problem or "not a whole number" in error.problem:
        texts = SUCH_AS.findall(error.problem)
        assert texts, error.problem
        for text in texts:
            assert rc.load_case(case, [f"{error.key}={text}"])
            assert error.key != "time.step" or float(text) <= float(value)
    else:  # the other refusal of the value given comes first
        assert error.key == key and "stability limit" in error.problem, error.problem


def test_a_step_above_the_stability_limit_is_refused_as_such_first():
    """sdnd100a's 0.049 s step divides no run of 0.3 s, and its dividing neighbours 0.0375
    and 0.0429 s were offered, both above the 0.02 s stability limit: the limit is said
    first, of the step given."""
    with pytest.raises(rc.CaseError) as info:
        rc.load_case("sdnd100a", ["time.step=0.049"])
    assert info.value.key == "time.step"
    assert info.value.problem.startswith("got 0.049 s, above 0.02 s, the central-difference "
                                         "stability limit"), info.value.problem
