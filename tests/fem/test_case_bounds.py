"""A block case's inputs that had no bound or were refused late (F2, session 30): the
preload's pseudo-time steps, the stalled-step tolerance, and output points that leave out a
[[quantity]]'s column."""

import pytest

import rocking_contact as rc
from rocking_contact.fem.case import MAX_PRELOAD_STEPS
from rocking_contact.fem.preload import MAX_TILT_STEPS


def refusal(case, changes):
    with pytest.raises(rc.CaseError) as info:
        rc.load_case(case, changes)
    return info.value


def test_the_preload_steps_stop_where_the_retries_do():
    """1e9 pseudo-time steps were accepted and ran the preload's static solves (years of
    them); the bound is the most steps the preload retries a tilt with."""
    assert MAX_PRELOAD_STEPS == MAX_TILT_STEPS
    error = refusal("sdnv105a", ["initial.preload_steps=1000000000"])
    assert (error.key, error.problem) == (
        "initial.preload_steps", "got 1000000000, allowed: a number in [1, 64]")
    assert refusal("sdnv105a", ["initial.preload_steps=65"]).key == "initial.preload_steps"
    assert rc.load_case("sdnv105a", ["initial.preload_steps=64"]).initial.preload_steps == 64


@pytest.mark.parametrize("value", ["10", "1", "0.02"])
def test_a_stalled_step_is_accepted_below_one_percent_at_most(value):
    """solver.stagnation_rtol took [0, 1]: 1 accepted any iterate below the step's first
    residual; its bound is solver.rtol's, 1 %."""
    error = refusal("sdnv105a", [f"solver.stagnation_rtol={value}"])
    assert error.key == "solver.stagnation_rtol"
    assert error.problem.endswith("allowed: a number in [0, 0.01]"), error.problem
    assert rc.load_case("sdnv105a", ["solver.stagnation_rtol=0.01"])


def test_output_points_that_leave_out_a_quantitys_point_are_refused_at_load():
    """--set 'output.points=[]' on sdnv105a was refused when its run started, as the file's
    quantity[0].column ('DY_A' is no history column), without the key given or the way
    back; now at load, naming output.points (given last) and the point to record."""
    error = refusal("sdnv105a", ["output.points=[]"])
    assert error.key == "output.points"
    assert error.problem == ("[] records no DY_A, which quantity[0] 'dy_max_A' reads; "
                             "allowed: a list with 'A'")
    assert "(with --set)" in str(error)


def test_theta_needs_o_and_a(tmp_path):
    """THETA, the rotation of the base chord OA, is recorded only with both corners; a file
    giving the points and the quantity together names the points (the first key)."""
    case = tmp_path / "theta.toml"
    case.write_text('extends = "sdnv105a"\nreference = []\n[case]\nname = "theta"\n'
                    '[[quantity]]\nname = "theta_max"\ncolumn = "THETA"\nop = "max"\n'
                    '[output]\npoints = ["O", "C1"]\n')
    error = refusal(case, None)
    assert error.key == "output.points"
    assert error.problem == ("['O', 'C1'] records no THETA (the rotation of the base chord "
                             "OA), which quantity[0] 'theta_max' reads; allowed: a list with "
                             "'A'")
    assert rc.load_case(case, ['output.points=["A", "O"]'])


def test_no_output_point_means_none():
    """output.points = [] is accepted where no [[quantity]] reads a point: the history keeps
    the energies and the contacts (rocking-contact keys says so)."""
    case = rc.load_case("sdnv105a", {"output.points": [], "quantity": [], "reference": []})
    assert case.output.points == []
    keys = {row[0]: row[3] for row in rc.config.schema_doc(type(case))}
    assert "[] records none" in keys["output.points"]
