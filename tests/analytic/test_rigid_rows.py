"""A rigid case records a history row at every time.step: one whose rows would exceed the
cap of the discrete kind (MAX_ROWS) is refused at load, as a discrete one is."""

import subprocess
import sys
from pathlib import Path

import pytest

import rocking_contact as rc
from rocking_contact.config import MAX_ROWS, row_count_problem

CLI = Path(sys.executable).parent / "rocking-contact"


def test_a_rigid_history_past_the_row_cap_is_refused_at_load():
    """time.step = 1e-7 over 2 s wrote 20 million rows (~4 GB of CSV, 168 s), 2e-8 s
    (1e8 rows) loaded; the discrete kind refuses more than 1e7."""
    with pytest.raises(rc.CaseError) as info:
        rc.load_case("sdnv105_rigid", {"time.end": 2.0, "time.step": 1e-7})
    assert str(info.value).endswith(
        "time.step: got 1e-07, allowed: >= 2.0000002e-07 s for this run from time.start 0 "
        "to time.end 2 s, or a shorter run (a history row at time.start and after every "
        "time.step: 20000001 rows, at most 1e+07, besides 2 at each impact and 1 at each "
        "apex of a flight)")
    # at the cap (the initial row and MAX_ROWS - 1 steps) it loads
    case = rc.load_case("sdnv105_rigid", {"time.end": 2.0, "time.step": 2.0000002e-07})
    assert case.time.n_steps == MAX_ROWS - 1


def test_the_rigid_and_the_discrete_kinds_share_the_check():
    """One check: the discrete kind names its output.every, the rigid its time.step."""
    case = rc.load_case("sdnd101a")
    case.time.step = 1e-9  # 5e8 steps
    assert row_count_problem(case.time, 1) == ("output.every", (
        "got 1, allowed: >= 51 for this run (5e+08 steps of time.step 1e-09 s to time.end "
        "0.5 s: 500000001 history rows; at most 1e+07)"))
    assert row_count_problem(case.time, 50)[0] == "output.every"  # 1e7 + 1 rows
    assert row_count_problem(case.time, 51) is None
    assert row_count_problem(case.time)[0] == "time.step"


def test_the_rigid_command_refuses_it_in_one_line(tmp_path):
    proc = subprocess.run([str(CLI), "rigid", "--out", str(tmp_path / "r"), "--set",
                           "time.step=1e-8"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error: ") and "time.step: got 1e-08, allowed: >= " \
        "3.30000033e-08 s" in proc.stderr  # 3.3e-08 makes 1e7 + 1 rows
    assert not (tmp_path / "r").exists()
