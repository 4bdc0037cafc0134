"""The block standing on a shaking table (``loading.table_acceleration_x``): the elastic
block of sdnv105d_shaking (theta-scheme, coarse mesh) against the rigid block integrated
with the same table motion, and the work of the table in the energy balance."""

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from acceptance import assert_all_pass
from rocking_ode import RESTITUTION, rocking, uplift_time

import rocking_contact as rc
from rocking_contact.results_io import read_history_csv

SHAKE = {"type": "sine", "amplitude": 6.0, "frequency": 2.0}
UPLIFT = uplift_time(SHAKE["amplitude"], SHAKE["frequency"])  # 0.0657925 s


@pytest.fixture(scope="module")
def shaking():
    case = rc.load_case("sdnv105d_shaking")
    return rc.run(case, write=False, plots=False, quiet=True)


def test_rocking_follows_the_rigid_block(shaking):
    """Uplift, rocking about O, the impact on A and rocking about A to 0.158 rad."""
    assert shaking.status == "completed" and not shaking.warnings
    assert len(assert_all_pass(shaking)) == 9


def test_the_block_stands_until_the_uplift_acceleration(shaking):
    """Before ux reaches g b / l (at 0.065793 s for the rigid block) the block does not
    rotate; one millisecond after, it does."""
    h = shaking.history
    t, theta = np.asarray(h["time"]), np.asarray(h["THETA"])
    before, after = theta[t <= 0.064], theta[(t >= 0.067) & (t <= 0.07)]
    assert np.max(np.abs(before)) < 1e-7  # elastic tilt of the standing block
    assert after[-1] > 5e-7 and np.all(np.diff(after) > 0)


def test_table_work_closes_the_energy_balance(shaking):
    """The table's work is in the balance: before the impact the residual is theta = 0.6's
    dissipation of the table's work (measured 8.8e-3 J of 26.8 J); the impact's elastic
    ringing, damped by the scheme, adds 0.22 J (0.84 % of the 26.8 J it lands with)."""
    h = shaking.history
    t, work = np.asarray(h["time"]), np.asarray(h["ETABLE"])
    residual = np.asarray(h["ENERGY_RESIDUAL"])
    before = t < 0.3183
    assert work[before][-1] == pytest.approx(26.8, rel=0.01)  # kinetic + potential gained
    assert np.max(np.abs(residual[before])) < 1e-3 * work[before][-1]
    energy = shaking.extra["energy"]
    assert energy["residual_max_abs"] < 0.01 * np.max(h["EKIN_BLOCK"])
    assert energy["ETOT_rise_relative"] == 0.0  # nothing beyond the table's work


def test_references_are_the_rigid_solution():
    """The case file's references come from the rigid-block solver with its table motion."""
    rigid = rc.run(rc.load_case("sdnv105_rigid", {
        "preload.tilt": 0.0, "time.end": 0.6, "time.step": 1e-5, "rigid.level": "nonlinear",
        "loading.table_acceleration_x": SHAKE}), write=False, quiet=True)
    refs = {r.quantity: r.value for r in rc.load_case("sdnv105d_shaking").reference}
    assert rigid.quantities["uplift.1.time"] == pytest.approx(UPLIFT, rel=1e-9)
    (impact,) = rigid.collisions
    assert impact["corner"] == "A"
    assert impact["time"] == pytest.approx(refs["impact_time"], rel=1e-8)
    t, theta = np.asarray(rigid.history["time"]), np.asarray(rigid.history["THETA"])
    first, second = t <= 0.3, t >= 0.3
    assert np.max(theta[first]) == pytest.approx(refs["theta_max"], rel=1e-6)
    assert t[first][np.argmax(theta[first])] == pytest.approx(refs["theta_max_time"], abs=1e-5)
    assert np.min(theta[second]) == pytest.approx(refs["theta_min"], rel=1e-6)
    assert t[second][np.argmin(theta[second])] == pytest.approx(refs["theta_min_time"],
                                                                abs=1e-5)
    assert np.interp(0.3, t, theta) == pytest.approx(refs["theta_at_300ms"], rel=1e-8)
    assert theta[-1] == pytest.approx(refs["theta_at_600ms"], rel=1e-8)
    h = rigid.history
    on_O, on_A = (t >= 0.07) & (t <= 0.3 + 1e-12), (t >= 0.33) & (t <= 0.6 + 1e-12)
    assert np.max(h["RN_O"][on_O]) == pytest.approx(refs["rn_max_O"], rel=1e-6)
    assert np.min(h["RX_O"][on_O]) == pytest.approx(refs["rx_min_O"], rel=1e-6)
    assert np.max(h["RN_A"][on_A]) == pytest.approx(refs["rn_max_A"], rel=1e-6)
    assert np.max(h["RX_A"][on_A]) == pytest.approx(refs["rx_max_A"], rel=1e-6)


def test_references_agree_with_an_independent_integration():
    """The case's references, from the package's rigid solver, are those of the rocking
    equations integrated by scipy: uplift in closed form, rocking about O to the landing
    on A, Housner's restitution e = 1 - 3 b^2 / (2 R^2) of the angular velocity, rocking
    about A to 0.6 s. Values to their printed digits (extrema instants to 1e-6 s)."""
    refs = {r.quantity: r.value for r in rc.load_case("sdnv105d_shaking").reference}
    sine = SHAKE["amplitude"], SHAKE["frequency"]
    on_o = rocking(UPLIFT, 0.0, 0.0, "O", 0.6, *sine)
    [landing], [[_, theta_dot]] = on_o.t_events[0], on_o.y_events[0]
    assert landing == pytest.approx(refs["impact_time"], abs=1e-9)
    on_a = rocking(landing, 0.0, RESTITUTION * theta_dot, "A", 0.6, *sine)
    assert on_a.t[-1] == 0.6 and not on_a.t_events[0].size  # still on A at the end
    for solution, start, end, extremum, sign in ((on_o, UPLIFT, landing, "theta_max", 1.0),
                                                 (on_a, landing, 0.6, "theta_min", -1.0)):
        t = np.linspace(start, end, 400001)
        theta = solution.sol(t)[0]
        k = np.argmax(sign * theta)
        assert theta[k] == pytest.approx(refs[extremum], rel=1e-8)
        assert t[k] == pytest.approx(refs[f"{extremum}_time"], abs=1e-6)
    assert on_o.sol(0.3)[0] == pytest.approx(refs["theta_at_300ms"], rel=1e-8)
    assert on_a.sol(0.6)[0] == pytest.approx(refs["theta_at_600ms"], rel=1e-8)


def test_a_still_table_adds_no_column():
    case = rc.load_case("sdnv105d", {"time.end": 0.001})
    result = rc.run(case, write=False, plots=False, quiet=True)
    assert "ETABLE" not in result.history and "ETABLE_final" not in result.extra["energy"]


@pytest.mark.mpi
def test_two_ranks_shake_the_block_as_one(tmp_path):
    """The drag (a mass-matrix product) and its work (a reduced sum) do not depend on the
    partition: two ranks give the serial history (to 0.1 s) to round-off through the
    uplift. Both runs take 5e-4 s steps (200 to 0.1 s, not the case's 1000): the partition
    enters each step's products and sums the same way at any step size, and on two ranks
    every step pays the ranks' exchanges."""
    coarse = {"time.step": 5e-4, "time.end": 0.1}
    serial = rc.run(rc.load_case("sdnv105d_shaking", coarse), write=False, plots=False,
                    quiet=True)
    mpiexec = Path(sys.executable).parent / "mpiexec"
    sets = [arg for key, value in coarse.items() for arg in ("--set", f"{key}={value}")]
    cmd = [str(mpiexec), "-n", "2", sys.executable, "-m", "rocking_contact.cli", "run",
           "sdnv105d_shaking", *sets, "--out", str(tmp_path / "mpi"), "--quiet",
           "--no-plots"]
    done = subprocess.run(cmd, cwd=tmp_path, env=dict(os.environ, OMP_NUM_THREADS="1"),
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    history = read_history_csv(tmp_path / "mpi" / "history.csv")  # 11 significant digits
    reference = {k: np.asarray(v) for k, v in serial.history.items()}
    assert np.allclose(history["time"], reference["time"], rtol=1e-12, atol=0.0)
    assert reference["time"][-1] == pytest.approx(0.1) and reference["THETA"][-1] > 4e-4
    for column in ("THETA", "RN_O", "RX_O", "ETABLE", "ENERGY_RESIDUAL"):
        ours, theirs = history[column], reference[column]
        assert np.max(np.abs(ours - theirs)) <= 1e-9 * np.max(np.abs(theirs)), column


def test_a_recorded_table_motion_is_read_next_to_its_case_file(tmp_path, shaking):
    """A ``table`` record (CSV of t, value, relative to the case file) drives the FEM block
    as the sine it samples does: the same uplift and rocking to 0.1 s."""
    t = np.arange(0.0, 0.1 + 1e-12, 1e-4)
    np.savetxt(tmp_path / "shake.csv", np.column_stack([t, np.sin(4.0 * np.pi * t)]),
               delimiter=",")
    shipped = Path(rc.load_case("sdnv105d_shaking").source_file)
    (tmp_path / "recorded.toml").write_text(
        f'extends = "{shipped.as_posix()}"\n\n'
        '[case]\nname = "recorded"\ntitle = "sdnv105d_shaking from a record"\nkind = "block"\n'
        '\n[loading.table_acceleration_x]\ntype = "table"\namplitude = 6.0\n'
        'path = "shake.csv"\n\n[time]\nend = 0.1\n')
    recorded = rc.run(rc.load_case(tmp_path / "recorded.toml"), write=False, plots=False,
                      quiet=True).history
    n = len(recorded["time"])
    sine = {k: np.asarray(v)[:n] for k, v in shaking.history.items()}  # the same steps
    assert np.allclose(recorded["time"], sine["time"], rtol=1e-12, atol=0.0)
    assert sine["THETA"][-1] > 4e-4
    # the record holds the sine at every step end: only round-off separates the runs
    assert np.max(np.abs(recorded["THETA"] - sine["THETA"])) < 1e-6 * sine["THETA"][-1]


def shaken(amplitude, **more):
    """Overrides: the block from rest on a table shaken along x at ``amplitude`` m/s^2, 1 Hz."""
    return {"preload.tilt": 0.0, "loading.table_acceleration_x.type": "sine",
            "loading.table_acceleration_x.amplitude": amplitude,
            "loading.table_acceleration_x.frequency": 1.0, **more}


def test_a_block_the_table_overturns_stops_there(tmp_path):
    """Shaken at 10 m/s^2 and 1 Hz the block topples. On a moving table it has overturned
    when it lies on its side (pi/2): the run stops there, says so and keeps what it
    computed (before, a toppling block ran on through thousands of halved steps and reported
    "completed"). Measured 2026-11-23 at 1 ms steps: the elastic block's first step past
    atan(b/l) ends at 0.427 s (the rigid block crosses it at 0.42715 s, -0.03 %) and it
    reaches pi/2 at 0.762 s (rigid 0.76490 s, -0.38 %); its corner O slides by 12.6 mm as it
    falls."""
    from rocking_contact.stops import Overturned

    rigid = rc.run(rc.load_case("sdnv105_rigid", shaken(10.0, **{"time.end": 0.9})),
                   write=False, quiet=True)
    assert rigid.extra["outcome"] == "overturned"
    case = rc.load_case("sdnv105d", shaken(10.0, **{"collisions.rigid": False,
                                                   "time.step": 1e-3, "time.end": 0.9}))
    with pytest.raises(Overturned, match=r"the block overturned at t = .* to pi/2 = 1\.5708 "
                                         r"rad: it lies on its side") as stop:
        rc.run(case, out=tmp_path, plots=False, quiet=True)
    partial = stop.value.partial
    assert partial.status.startswith("the block overturned")
    theta = np.asarray(partial.history["THETA"])
    assert abs(theta[-1]) >= np.pi / 2 > np.max(np.abs(theta[:-1]))
    assert partial.history["time"][-1] == pytest.approx(rigid.quantities["overturn.time"],
                                                        rel=0.02)
    written = read_history_csv(tmp_path / "history.csv")["time"][-1]  # 11 digits
    assert written == pytest.approx(partial.history["time"][-1], rel=1e-11)


def test_a_block_that_slides_off_its_table_stops_there(tmp_path):
    """Shaken at 40 m/s^2 and 1 Hz the block slides as it topples (the rigid block warns it
    would slide and jump). Its corners' contacts are fixed node-to-node pairs, which held O
    up after it slid 1.47 m, past the table's end at -0.18 m; the run now stops when a
    corner passes an end: at 0.27 s, O at -0.1808 m (measured 2026-11-22, 1 ms steps)."""
    from rocking_contact.stops import Overturned

    case = rc.load_case("sdnv105d", shaken(40.0, **{"collisions.rigid": False,
                                                   "time.step": 1e-3, "time.end": 0.6}))
    with pytest.raises(Overturned, match=r"the block slid off its table at t = .* corner O at "
                                         r"x = -0\.18\d* m, past the table's end at -0\.18 m"
                       ) as stop:
        rc.run(case, out=tmp_path, plots=False, quiet=True)
    partial = stop.value.partial
    x_o = np.asarray(partial.history["DX_O"])
    assert x_o[-1] < -0.18 < np.min(x_o[:-1])
    assert (tmp_path / "results.json").is_file()
    # a slide, told apart from a topple, and how to let it slide on: a base width beyond O
    assert isinstance(stop.value, rc.SlidOff) and stop.value.exit_code == 1
    room = float(re.search(r"geometry\.table_left = (-?[\d.]+) gives it a base width more",
                           str(stop.value)).group(1))
    assert room == pytest.approx(x_o[-1] - 0.36, abs=0.006)  # O at x_o (O at rest at 0)


def test_a_shaken_block_past_its_static_angle_comes_back():
    """Shaken at 8 m/s^2 and 1 Hz the block turns past atan(b/l) = 0.4229 rad and the table
    brings it back: the rigid block's largest angle is 0.59685 rad at 0.7376 s. The elastic
    block at 1 ms steps goes on (before, it stopped at atan(b/l) and said it overturned) and
    turns to 0.59767 rad at 0.738 s (+0.14 %, measured 2026-11-22)."""
    rigid = rc.run(rc.load_case("sdnv105_rigid", shaken(8.0, **{"time.end": 0.8})),
                   write=False, quiet=True)
    peak = np.max(np.abs(rigid.history["THETA"]))  # the apex is a history row
    assert peak > np.arctan(0.45)
    case = rc.load_case("sdnv105d", shaken(8.0, **{"collisions.rigid": False,
                                                  "time.step": 1e-3, "time.end": 0.8}))
    fem = rc.run(case, write=False, plots=False, quiet=True)
    assert fem.status == "completed"
    theta = np.asarray(fem.history["THETA"])
    assert np.max(theta) == pytest.approx(peak, rel=5e-3)
    assert theta[-1] < np.max(theta)  # on its way back
