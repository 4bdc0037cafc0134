"""The block standing on a shaking table (``loading.table_acceleration_x``): the elastic
block of sdnv105d_shaking (theta-scheme, coarse mesh) against the rigid block integrated
with the same table motion, and the work of the table in the energy balance."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.results import read_history_csv

SHAKE = {"type": "sine", "amplitude": 6.0, "frequency": 2.0}


@pytest.fixture(scope="module")
def shaking():
    case = rc.load_case("sdnv105d_shaking")
    return rc.run(case, write=False, plots=False, quiet=True)


def test_rocking_follows_the_rigid_block(shaking):
    assert shaking.status == "completed"
    graded = [c for c in shaking.checks if c["passed"] is not None]
    assert len(graded) == 5
    assert all(c["passed"] for c in graded), rc.format_table("sdnv105d_shaking", graded)


def test_the_block_stands_until_the_uplift_acceleration():
    """Before ux reaches g b / l (at 0.065793 s for the rigid block) the block does not
    rotate; one millisecond after, it does."""
    case = rc.load_case("sdnv105d_shaking", {"time.end": 0.07})
    h = rc.run(case, write=False, plots=False, quiet=True).history
    t, theta = np.asarray(h["time"]), np.asarray(h["THETA"])
    before, after = theta[t <= 0.064], theta[(t >= 0.067) & (t <= 0.07)]
    assert np.max(np.abs(before)) < 1e-7  # elastic tilt of the standing block
    assert after[-1] > 5e-7 and np.all(np.diff(after) > 0)


def test_table_work_closes_the_energy_balance(shaking):
    h = shaking.history
    work = np.asarray(h["ETABLE"])
    assert work[-1] == pytest.approx(19.45, rel=0.01)  # kinetic + potential gained
    energy = shaking.extra["energy"]
    # theta = 0.6 dissipates a little of the work (6.4 mJ of 19.45 J by 0.3 s)
    assert abs(energy["residual_max_abs"]) < 1e-3 * work[-1]
    assert energy["ETOT_rise_relative"] == 0.0 and not shaking.warnings


def test_references_are_the_rigid_solution():
    """The case file's references come from the rigid-block solver with its table motion."""
    rigid = rc.run(rc.load_case("sdnv105_rigid", {
        "preload.tilt": 0.0, "time.end": 0.3, "time.step": 1e-5, "rigid.level": "nonlinear",
        "loading.table_acceleration_x": SHAKE}), write=False, quiet=True)
    assert rigid.quantities["uplift.1.time"] == pytest.approx(0.06579254, rel=1e-6)
    t, theta = np.asarray(rigid.history["time"]), np.asarray(rigid.history["THETA"])
    refs = {r.quantity: r.value for r in rc.load_case("sdnv105d_shaking").reference}
    assert np.max(theta) == pytest.approx(refs["theta_max"], rel=1e-6)
    assert t[np.argmax(theta)] == pytest.approx(refs["theta_max_time"], abs=1e-5)
    assert theta[-1] == pytest.approx(refs["theta_end"], rel=1e-8)
    rn, rx = np.asarray(rigid.history["RN_O"]), np.asarray(rigid.history["RX_O"])
    window = (t >= 0.07) & (t <= 0.3 + 1e-12)
    assert np.max(rn[window]) == pytest.approx(refs["rn_max_O"], rel=1e-6)
    assert np.min(rx[window]) == pytest.approx(refs["rx_min_O"], rel=1e-6)


def test_a_still_table_adds_no_column():
    case = rc.load_case("sdnv105d", {"time.end": 0.001})
    result = rc.run(case, write=False, plots=False, quiet=True)
    assert "ETABLE" not in result.history and "ETABLE_final" not in result.extra["energy"]


@pytest.mark.mpi
def test_two_ranks_shake_the_block_as_one(tmp_path):
    """The drag (a mass-matrix product) and its work (a reduced sum) do not depend on the
    partition: two ranks give the serial history to round-off through the uplift."""
    short = {"time.end": 0.1}
    rc.run(rc.load_case("sdnv105d_shaking", short), out=tmp_path / "serial", plots=False,
           quiet=True)
    mpiexec = Path(sys.executable).parent / "mpiexec"
    cmd = [str(mpiexec), "-n", "2", sys.executable, "-m", "rocking_contact.cli", "run",
           "sdnv105d_shaking", "--set", "time.end=0.1", "--out", str(tmp_path / "mpi"),
           "--quiet", "--no-plots"]
    done = subprocess.run(cmd, cwd=tmp_path, env=dict(os.environ, OMP_NUM_THREADS="1"),
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    history = read_history_csv(tmp_path / "mpi" / "history.csv")
    reference = read_history_csv(tmp_path / "serial" / "history.csv")
    assert np.array_equal(history["time"], reference["time"])
    assert reference["THETA"][-1] > 4e-4  # rocking about O by 0.1 s
    for column in ("THETA", "RN_O", "RX_O", "ETABLE", "ENERGY_RESIDUAL"):
        ours, theirs = history[column], reference[column]
        assert np.max(np.abs(ours - theirs)) <= 1e-9 * np.max(np.abs(theirs)), column
