"""The row cap is exact: a run that records MAX_ROWS history rows loads and records that
many, one more row is refused. row_count_problem compared the steps with MAX_ROWS (times
output.every) and forgot the initial row: it let MAX_ROWS + 1 rows through."""

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.config import sections


@pytest.mark.parametrize(("kind_case", "given", "key"), [
    # 1000 steps of 5e-4 s: every 10 steps makes 101 rows, every 11 makes 92 (91 and the
    # last state, 1000 not being a multiple of 11)
    ("sdnd101a", {"output.every": 10}, "output.every"),
    # 0.05 s of 5e-4 s steps: a row at each, 101 rows
    ("sdnv105_rigid", {"time.end": 0.05, "time.step": 5e-4}, "time.step"),
])
def test_one_row_past_the_cap_is_refused(monkeypatch, kind_case, given, key):
    monkeypatch.setattr(sections, "MAX_ROWS", 101)
    assert rc.load_case(kind_case, given).time.n_steps == 100 * given.get("output.every", 1)
    monkeypatch.setattr(sections, "MAX_ROWS", 100)
    with pytest.raises(rc.CaseError) as info:
        rc.load_case(kind_case, given)
    assert f"{key}: got " in str(info.value) and "101 " in str(info.value)


def test_the_rows_counted_are_the_rows_recorded(monkeypatch, tmp_path):
    """A discrete run whose last step is not a multiple of output.every records the state
    reached too: the count the cap checks is the length of history.csv."""
    monkeypatch.setattr(sections, "MAX_ROWS", 91)
    with pytest.raises(rc.CaseError):
        rc.load_case("sdnd101a", {"output.every": 11})
    monkeypatch.setattr(sections, "MAX_ROWS", 92)
    case = rc.load_case("sdnd101a", {"output.every": 11})
    monkeypatch.undo()  # grading loads the case file again, with its output.every of 1
    result = rc.run(case, out=tmp_path / "r", quiet=True, plots=False)
    assert len(result.history["time"]) == sections.recorded_rows(case.time.n_steps, 11) == 92


def test_the_messages_name_the_exact_limit(monkeypatch):
    """The least output.every and the least time.step the message offers are accepted, and
    one below them is not (the step's bound at 3 digits, 2e-07, made MAX_ROWS steps)."""
    message = str(pytest.raises(rc.CaseError, rc.load_case, "sdnd101a",
                                {"time.step": 1e-8, "output.every": 5}).value)
    assert message.endswith(
        "output.every: got 5, allowed: >= 6 for this run (5e+07 steps of time.step 1e-08 s "
        "to time.end 0.5 s: 10000001 history rows; at most 1e+07)"), message
    assert rc.load_case("sdnd101a", {"time.step": 1e-8, "output.every": 6})
    message = str(pytest.raises(rc.CaseError, rc.load_case, "sdnv105_rigid",
                                {"time.end": 2.0, "time.step": 2e-7}).value)
    assert message.endswith(
        "time.step: got 2e-07, allowed: >= 2.0000002e-07 s for this run from time.start 0 "
        "to time.end 2 s, or a shorter run (a history row at time.start and after every "
        "time.step: 10000001 rows, at most 1e+07, besides 2 at each impact and 1 at each "
        "apex of a flight)"), message
    case = rc.load_case("sdnv105_rigid", {"time.end": 2.0, "time.step": 2.0000002e-07})
    assert sections.recorded_rows(case.time.n_steps) == sections.MAX_ROWS


def test_a_rigid_run_records_its_events_besides_the_rows_counted(monkeypatch, tmp_path):
    """The cap counts a rigid run's rows at its steps, the ones known at load; the run
    records besides them 2 rows at each impact (just before and after) and 1 at each apex
    of a flight, as its refusal says (it said the rows at the steps were all: sdnv105_rigid
    to 0.5 s at 5e-4 s records 1189 rows, not the 1001 counted)."""
    given = {"time.end": 0.1, "time.step": 5e-4}
    monkeypatch.setattr(sections, "MAX_ROWS", 200)
    message = str(pytest.raises(rc.CaseError, rc.load_case, "sdnv105_rigid", given).value)
    assert message.endswith("201 rows, at most 2e+02, besides 2 at each impact and 1 at "
                            "each apex of a flight)"), message
    monkeypatch.setattr(sections, "MAX_ROWS", 201)
    case = rc.load_case("sdnv105_rigid", given)
    monkeypatch.undo()
    result = rc.run(case, out=tmp_path / "r", quiet=True, plots=False)
    time, omega = np.asarray(result.history["time"]), np.asarray(result.history["OMEGA"])
    off_grid = np.abs(time / 5e-4 - np.round(time / 5e-4)) > 1e-6
    impacts = [c["time"] for c in result.collisions]
    at_impacts = np.isin(time, impacts)
    apexes = off_grid & ~at_impacts
    # collision 1 at 0.0544 s, flight 1's apex at 0.0948 s (omega = 0 there)
    assert len(impacts) == 1 and at_impacts.sum() == 2 and apexes.sum() == 1
    assert abs(omega[apexes][0]) < 1e-9 * np.abs(omega).max()
    assert len(time) == sections.recorded_rows(case.time.n_steps) + 2 + 1 == 204
