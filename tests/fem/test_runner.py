"""The block runner: shipped cases, the contact seam, halving, failures, outputs."""

import json
import math

import numpy as np
import pytest
from acceptance import assert_all_pass, case_reference, within
from petsc4py import PETSc

import rocking_contact as rc
from rocking_contact import interrupt
from rocking_contact.config import CaseError
from rocking_contact.fem import runner
from rocking_contact.results_io import read_history_csv
from rocking_contact.solvers.newton import NewtonSolver
from rocking_contact.solvers.step import Contribution
from rocking_contact.stops import SolverFailure
from rocking_contact.time import HHT, Newmark

BLOCK_CASES = ["sdnv105_preload", "sdnv105_preload_small_strain"]


@pytest.mark.parametrize("name", BLOCK_CASES)
def test_case_passes_its_references(name, tmp_path):
    result = rc.run(rc.load_case(name), out=tmp_path, plots=False, quiet=True)
    assert len(assert_all_pass(result)) >= 4
    assert result.extra["fields"] == "fields.pvd" and (tmp_path / "fields.pvd").exists()


def test_release_energy_large_rotation_vs_small_strain():
    """Kinetic energy when A is back on the table: 7.292 J (exact rotation) vs 7.374 J."""
    large = rc.run(rc.load_case("sdnv105_preload"), write=False, quiet=True)
    small = rc.run(rc.load_case("sdnv105_preload_small_strain"), write=False, quiet=True)
    e_large = large.quantities["ekin_first_impact"]
    e_small = small.quantities["ekin_theta_zero"]
    # the case files' references (rigid, integrated; M g b theta) with their 1e-3
    assert within(e_large, case_reference("sdnv105_preload", "ekin_first_impact", "analytic",
                                          mark=1e-3))
    assert within(e_small, case_reference("sdnv105_preload_small_strain", "ekin_theta_zero",
                                          "analytic, small-strain", mark=1e-3))
    assert 0.010 < e_small / e_large - 1 < 0.012


def test_history_columns_and_energy_balance(tmp_path):
    """Columns of the issue; undamped large-rotation release conserves ETOT to 1e-4 J."""
    case = rc.load_case("sdnv105_preload", {"material.block.rayleigh_stiffness": 0.0})
    rc.run(case, out=tmp_path, plots=False, quiet=True)
    history = read_history_csv(tmp_path / "history.csv")
    for column in ("time", "DY_O", "DY_A", "DX_O", "VY_O", "VY_A", "EKIN_BLOCK", "EELAS",
                   "EPOT_GRAV", "ETOT", "THETA"):
        assert column in history, column
    etot = history["ETOT"]
    assert np.max(np.abs(etot - etot[0])) < 1e-4, "energy drift of the undamped rocking"
    assert np.all(history["DY_O"] == 0.0) and np.all(history["VY_O"] == 0.0), "O is pinned"


def test_linear_steps_reuse_the_factorisation():
    """Small strain, one step size: one LU factorisation of the step matrix for 100 steps."""
    case = rc.load_case("sdnv105_preload_small_strain",
                        {"time.window": [], "time.end": 0.25, "time.step": 2.5e-3})
    PETSc.Log.begin()
    event = PETSc.Log.Event("MatLUFactorNum")
    before = event.getPerfInfo()["count"]
    result = rc.run(case, write=False, quiet=True)
    factorisations = event.getPerfInfo()["count"] - before
    assert result.timing["steps"] == 100
    # preload: gravity, tilt (2 static matrices); initial acceleration (M); the step matrix
    assert factorisations == 4
    assert result.timing["jacobian_builds"] == 3


def test_windows_change_the_step_alpha_and_scheme():
    case = rc.load_case("sdnv105_preload", {
        "scheme.type": "alpha_newmark", "scheme.alpha": 0.0, "time.end": 0.01,
        "time.window": [{"start": 0.0, "end": 0.0025, "step": 2.5e-4, "alpha": -0.1},
                        {"start": 0.005, "end": 0.0075, "step": 2.5e-3, "alpha": -0.2,
                         "scheme": "hht"}]})
    steps = list(runner.time_steps(case))
    assert len(steps) == 10 + 3
    assert math.isclose(steps[9][0], 0.0025) and steps[-1][0] == 0.01
    assert steps[0][1].gamma == pytest.approx(0.6) and steps[-1][1].gamma == 0.5
    assert steps[10][1] == Newmark(0.25, 0.5, name="alpha_newmark") and steps[11][1] == HHT(-0.2)


def test_failed_step_is_halved_then_succeeds():
    """A 0.3 rad tilt in one pseudo-time step needs more than 6 Newton iterations: the
    driver halves it (down to 1/16) and completes."""
    case = rc.load_case("sdnv105_preload", {"preload.tilt": 0.3, "solver.max_iterations": 6,
                                            "time.end": 0.005, "time.window": []})
    result = rc.run(case, write=False, quiet=True)
    assert result.status == "completed"
    assert result.extra["preload"]["tilt_steps"] == 16  # 1 -> 1/2 -> ... -> 1/16
    tilt = result.extra["preload"]["tilt"]
    assert tilt["DX_C1"] == pytest.approx(-0.8 * 0.3)  # imposed
    assert tilt["THETA"] == pytest.approx(math.asin(0.3), rel=1e-4)  # rigid, pivot O1


def test_solver_failure_says_where_and_keeps_results(tmp_path):
    case = rc.load_case("sdnv105_preload", {"preload.tilt": 0.3, "solver.max_iterations": 3,
                                            "solver.max_halvings": 2})
    with pytest.raises(SolverFailure) as info:
        rc.run(case, out=tmp_path, plots=False, quiet=True)
    message = str(info.value)
    assert "from pseudo-time 0 failed with a pseudo-time step of 0.25" in message
    assert "residual" in message
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["status"].startswith("failed")


class _NanAfter(Contribution):
    """A contribution that poisons the residual after ``t_fail`` (a failing contact law)."""

    linear = False

    def __init__(self, t_fail):
        self.t_fail = t_fail

    def begin_step(self, problem):
        pass

    def add_residual(self, problem, x, r):
        if problem.t1 > self.t_fail:
            r.array[:] = np.nan

    def add_jacobian(self, problem, x, jac):
        pass

    def accept(self, problem):
        pass

    def columns(self, problem):
        return {}


def test_history_is_streamed_before_a_failure(tmp_path):
    case = rc.load_case("sdnv105_preload", {"initial.state": "rest", "time.window": [],
                                            "time.end": 0.05, "solver.max_halvings": 1})
    body = runner.build_body(case)
    with pytest.raises(SolverFailure) as info:
        runner.simulate(case, body, contributions=[_NanAfter(0.0201)], out_dir=tmp_path)
    partial = info.value.partial
    assert partial is not None and len(partial.history["time"]) == 9
    on_disk = read_history_csv(tmp_path / "history.csv")
    assert np.allclose(on_disk["time"], partial.history["time"])
    assert "t = 0.02 s" in str(info.value)


def test_a_nan_failure_without_a_fallback_is_not_tried_again(tmp_path):
    """The driver's last resort retries a step only where something can change (a
    fallback, or a stall it may accept): a NaN residual fails the same way again."""

    class Counting(_NanAfter):
        attempts = 0

        def begin_step(self, problem):
            Counting.attempts += problem.t1 > self.t_fail

    case = rc.load_case("sdnv105_preload", {"initial.state": "rest", "time.window": [],
                                            "time.end": 0.05, "solver.max_halvings": 1})
    with pytest.raises(SolverFailure):
        runner.simulate(case, runner.build_body(case), contributions=[Counting(0.0201)],
                        out_dir=tmp_path)
    assert Counting.attempts == 2  # the 2.5 ms step, then its first half: no third try


class _NanAfterWithFallback(_NanAfter):
    """A failing law with a fallback: armed, the next attempt is not poisoned (``cures``)
    or still is."""

    def __init__(self, t_fail, cures):
        super().__init__(t_fail)
        self.cures = cures
        self._arm_next = False
        self._armed = False

    def fallback(self, problem):
        self._arm_next = True
        return "poison lifted"

    def begin_step(self, problem):
        self._armed, self._arm_next = self._arm_next, False

    def add_residual(self, problem, x, r):
        if not (self._armed and self.cures):
            super().add_residual(problem, x, r)


def _fallback_run(cures, tmp_path):
    case = rc.load_case("sdnv105_preload", {"initial.state": "rest", "time.window": [],
                                            "time.end": 0.03, "solver.max_halvings": 1})
    body = runner.build_body(case)
    return runner.simulate(case, body, contributions=[_NanAfterWithFallback(0.0201, cures)],
                           out_dir=tmp_path)


def test_a_step_failing_every_halving_is_retried_with_the_fallback(tmp_path):
    """Each step after 0.0201 s fails, is halved once, fails again and converges with the
    fallback: the run completes, counting and naming those steps."""
    result = _fallback_run(True, tmp_path)
    assert result.status == "completed"
    # 2.5 ms steps: (0.02, 0.0225] -> [0.02125 by fallback, 0.0225 by fallback], and so on
    times = [step["time"] for step in result.extra["fallback_steps"]]
    assert result.timing["fallback_steps"] == len(times) == 8
    assert times[0] == pytest.approx(0.02125) and times[-1] == pytest.approx(0.03)
    assert all(step["eased"] == "poison lifted" for step in result.extra["fallback_steps"])
    (warning,) = result.warnings
    assert "8 step(s)" in warning and "poison lifted" in warning and "and 3 more" in warning


def test_a_step_failing_with_the_fallback_too_says_so(tmp_path):
    with pytest.raises(SolverFailure) as info:
        _fallback_run(False, tmp_path)
    message = str(info.value)
    assert "t = 0.02 s" in message and "also with the fallback: poison lifted" in message
    assert info.value.partial is not None and info.value.partial.history["time"][-1] == 0.02


@pytest.mark.parametrize("override,key", [
    ({"output.points": ["O", "Q"]}, "output.points[1]"),
    ({"constraint": [{"on": "NOWHERE"}]}, "constraint[0].on"),
    ({"time.window": [{"start": 0.0, "end": 0.01, "step": 1e-4},
                      {"start": 0.005, "end": 0.02, "step": 1e-4}]}, "time.window[1].start"),
    ({"time.window": [{"start": 0.0, "end": 0.01, "step": 1e-4, "alpha": -0.1}]},
     "time.window[0].alpha"),
    ({"mesh.layout": "fine"}, "mesh.layout"),
    ({"scheme.alpha": -0.5}, "scheme.alpha"),
    ({"time.refine": {"step": 1e-5}}, "time.refine.hold"),
    ({"time.refine": {"step": 0.0, "hold": 0.0}}, "time.refine.step"),
    ({"time.refine": {"step": 1.0, "hold": 0.0}}, "time.refine.step"),
    ({"time.refine": {"step": 1e-5, "hold": 0.0, "alpha": -0.2}}, "time.refine.alpha"),
    ({"scheme.type": "theta", "time.refine": {"step": 1e-5, "hold": 0.0}}, "time.refine"),
    ({"time.step": 1e-12}, "time.step"),
    ({"time.step": 1e-320}, "time.step"),
    ({"time.window[0].step": 1e-12}, "time.window[0].step"),
])
def test_bad_input_is_one_line(override, key):
    with pytest.raises(CaseError) as info:
        rc.load_case("sdnv105_preload", override)
    assert info.value.key == key
    assert "\n" not in str(info.value)


def test_too_many_steps_are_refused_at_load():
    """Beyond MAX_STEPS the step is refused before any mesh (it ended in a MemoryError),
    naming the step that makes the most steps and the smallest one allowed."""
    with pytest.raises(CaseError) as info:
        rc.load_case("sdnv105_preload", {"time.window[0].step": 1e-12})
    assert str(info.value).endswith(
        "(with overrides): time.window[0].step: got 1e-12, allowed: at most 1e+08 steps from "
        "time.start 0 to time.end 0.0575 s, a step >= 5e-11 s or a shorter run (this one "
        "makes 5e+09 steps)")
    # uniform steps: its window's 2.5e-5 s would be longer than a 1e-6 s base step
    assert rc.load_case("sdnv105_preload", {"time.step": 1e-6, "time.window": []}).time.step == 1e-6


def test_a_refined_step_that_could_make_too_many_steps_is_refused():
    """Refined steps can cover the whole run: their step is held to the same limit. With
    the refinement off the step is not read, and giving one is refused as such."""
    with pytest.raises(CaseError) as info:
        rc.load_case("sdnv105a_auto", {"time.refine.step": 1e-15})
    assert info.value.key == "time.refine.step"
    assert "if the refinement covered the run from time.start 0 to time.end 0.33 s" in str(
        info.value)
    with pytest.raises(CaseError, match=r"time\.refine\.step: 1e-15 has no effect with "
                                        r"time\.refine\.enabled = false"):
        rc.load_case("sdnv105a_auto", {"time.refine.step": 1e-15,
                                       "time.refine.enabled": False})
    case = rc.load_case("sdnv105a_auto", {"time.refine.enabled": False})
    assert not case.time.refine.enabled  # the file's step left behind by the later choice


def test_a_refined_step_longer_than_the_base_step_is_refused():
    """No step is longer than time.step, so a longer refined step would never act (a typo);
    the same step is allowed (uniform small steps, the refinement idle)."""
    with pytest.raises(CaseError, match=r"time\.refine\.step: 0\.003 is longer than time\.step "
                                        r"0\.0025, so no step would ever be refined"):
        rc.load_case("sdnv105a", {"time.refine.step": 3e-3})
    case = rc.load_case("sdnv105a", {"time.step": 1e-5, "time.window": []})
    assert case.time.refine.step == case.time.step


def test_fields_open_in_pyvista(tmp_path):
    import pyvista

    case = rc.load_case("sdnv105_preload", {"output.fields_every": 20, "mesh.order": 2,
                                            "mesh.layout": "structured"})
    rc.run(case, out=tmp_path, plots=False, quiet=True)
    reader = pyvista.get_reader(str(tmp_path / "fields.pvd"))
    assert len(reader.time_values) >= 3
    reader.set_active_time_value(reader.time_values[0])
    mesh = reader.read()[0]
    assert {"u", "von_mises", "sigma_yy"} <= set(mesh.point_data)
    u = np.asarray(mesh.point_data["u"])
    lift = case_reference(case, "lift_A_preload", "analytic", mark=1e-3)
    assert within(u[:, 1].max(), lift), "A lifted in the first state"
    assert np.asarray(mesh.point_data["von_mises"]).max() > 1e3
    assert (tmp_path / "fields.xdmf").exists()


def test_fields_at_even_intervals_and_von_mises_is_a_norm(tmp_path):
    """output.fields_interval gives a frame at the first step past each multiple of it, and
    the projected von Mises stress never goes negative."""
    import pyvista

    case = rc.load_case("sdnv105_preload", {"output.fields_interval": 0.01})
    rc.run(case, out=tmp_path, plots=False, quiet=True)
    reader = pyvista.get_reader(str(tmp_path / "fields.pvd"))
    times = np.asarray(reader.time_values)
    # Start, 0.01 ... 0.05 (steps of 2.5 ms land on the multiples), and the end, 0.0575.
    np.testing.assert_allclose(times, [0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.0575], atol=1e-9)
    for t in times:
        reader.set_active_time_value(t)
        assert np.asarray(reader.read()[0].point_data["von_mises"]).min() >= 0.0


def test_a_tilt_that_lands_on_a_spurious_equilibrium_is_taken_again():
    """0.015 rad in one large-rotation step reached -0.0125 rad (corner A below the table);
    the preload checks the tilt against the rigid block's and takes it in more steps. The
    run starts from the state ``initial.preload_steps = 2`` gives, to the bit, and says
    nothing of it (every run of a block of another shape warned of it until 2026-11-24):
    ``extra.preload.tilt_steps`` records it."""
    from rocking_contact.block import release_angle

    changes = {"preload.tilt": 0.015, "time.end": 0.0005}
    case = rc.load_case("sdnv105_preload", changes)
    result = rc.run(case, write=False, plots=False, quiet=True)
    preload = result.extra["preload"]
    expected = release_angle(case.geometry, case.preload, large_rotation=True)
    assert expected == pytest.approx(math.asin(0.015), rel=1e-14)  # pivot O1
    assert preload["tilt"]["THETA"] == pytest.approx(expected, rel=1e-4)
    assert preload["tilt_steps"] == 2
    assert not [w for w in result.warnings if "pseudo-time" in w], result.warnings
    direct = rc.run(rc.load_case("sdnv105_preload", {**changes, "initial.preload_steps": 2}),
                    write=False, plots=False, quiet=True)
    assert direct.extra["preload"]["tilt"] == preload["tilt"]
    for column, values in direct.history.items():
        np.testing.assert_array_equal(result.history[column], values, err_msg=column)


def test_a_tilt_never_reached_says_so_and_names_the_units():
    """E given in kPa (5e4 for 5e10 Pa): every tilt step converged, to -0.67 rad, and the
    run said "step 64 from pseudo-time 0 failed ... after 0 halvings (residual nan N, ..."
    (audit s25 #4): no step failed. It says what the preload reached and, the block's top
    sinking more than its height under its own weight, that its units look wrong; SDNV105's
    block sags 2.6e-7 of its height, and its preload says nothing of units."""
    case = rc.load_case("sdnv105d", {"material.block.young": 5e4, "time.end": 0.001})
    with pytest.raises(rc.SolverFailure) as failure:
        rc.run(case, write=False, plots=False, quiet=True)
    message = str(failure.value)
    assert message.startswith("the preload found no tilted equilibrium: with 64 static steps "
                              "the tilt reached "), message
    assert "(every step converged, to a spurious equilibrium); under its own weight the " \
           "block's top sank " in message
    assert message.endswith("of its height: are material.block.young (Pa), the densities "
                            "(kg/m^3) and the geometry (m) in SI units?")
    assert "halvings" not in message and "nan" not in message


def test_a_record_shorter_than_the_run_is_said_to_be_held(tmp_path):
    """A table record that ends inside the run holds its last value: the table goes on
    accelerating at it. A run warns when that value is not zero, and only then."""
    record = tmp_path / "ux.csv"
    np.savetxt(record, [[0.0, 0.0], [0.002, 1.0]], delimiter=",")
    case = rc.load_case("sdnv105d_shaking", {
        "loading.table_acceleration_x": {"type": "table", "amplitude": 2.0, "path": str(record)},
        "time.end": 0.003})
    result = rc.run(case, write=False, plots=False, quiet=True)
    assert result.status == "completed"
    assert ("loading.table_acceleration_x: the record ends at t = 0.002 s, inside the run "
            "[0, 0.003] s: its value there, 2 m/s^2, is held after it (add a row 't, 0' "
            "there to keep it at zero)") in result.warnings
    np.savetxt(record, [[0.0, 0.0], [0.001, 1.0], [0.002, 0.0]], delimiter=",")
    quiet = rc.run(rc.load_case("sdnv105d_shaking", {
        "loading.table_acceleration_x": {"type": "table", "path": str(record)},
        "time.end": 0.003}), write=False, plots=False, quiet=True)
    assert not any("record" in w for w in quiet.warnings), quiet.warnings


def test_a_preload_failure_names_no_contacts():
    """The contact is idle during the static preload: a failure there said "active
    contacts (predicted gap closed): none; last residual nan" after the preload's own
    message."""
    case = rc.load_case("sdnv105d", {"solver.max_iterations": 1, "solver.max_halvings": 1,
                                     "time.end": 0.001})
    with pytest.raises(rc.SolverFailure) as failure:
        rc.run(case, write=False, plots=False, quiet=True)
    message = str(failure.value)
    assert "; preload tilt, pseudo-time in [0, 1]" in message
    # pseudo-times have no unit: 't = 0 s ... h = 0.5 s' read as seconds of the run
    assert " from pseudo-time 0 failed with a pseudo-time step of 0.5 after 1 halvings" in message
    assert "contacts" not in message and failure.value.partial.status == f"failed: {message}"


@pytest.mark.parametrize("t_fail,stop,raised", [(1.0, False, None), (0.0201, False, SolverFailure),
                                                (1.0, True, rc.Interrupted)])
def test_the_step_solver_is_freed_however_the_run_ends(t_fail, stop, raised, monkeypatch):
    """Completed, failed or stopped, the run destroys its SNES once (``validate`` goes on
    to the next case in the same process)."""
    freed = []
    destroy = NewtonSolver.destroy

    def counted(solver):
        freed.append(solver)
        destroy(solver)

    class StopAfterFirstStep(_NanAfter):
        def accept(self, problem):
            if stop:
                interrupt.request()  # what the Ctrl-C handler does

    monkeypatch.setattr(NewtonSolver, "destroy", counted)
    case = rc.load_case("sdnv105_preload", {"initial.state": "rest", "time.window": [],
                                            "time.end": 0.025, "solver.max_halvings": 1})
    with interrupt.deferred():
        if raised is None:
            runner.simulate(case, runner.build_body(case),
                            contributions=[StopAfterFirstStep(t_fail)])
        else:
            with pytest.raises(raised):
                runner.simulate(case, runner.build_body(case),
                                contributions=[StopAfterFirstStep(t_fail)])
    assert len(freed) == 1


def test_a_step_that_does_not_divide_its_span_is_said():
    """The block's grid shortens the steps of a span they do not divide (so that windows
    are hit exactly); the run says so, and no shipped case does it."""
    from rocking_contact.fem.runner import shortened_steps

    case = rc.load_case("sdnv105d", {"time.end": 0.00105})
    assert shortened_steps(case) == [
        "time.step: 0.0001 s does not divide the run: its 11 steps are 9.54545e-05 s"]
    # a run shorter than its step: 'its 1 steps are 1e-05 s' (--set time.end=1e-5)
    assert shortened_steps(rc.load_case("sdnv105d", {"time.end": 1e-5})) == [
        "time.step: 0.0001 s does not divide the run: its 1 step is 1e-05 s"]
    for name in ("sdnv105a", "sdnv105b", "sdnv105c", "sdnv105d", "sdnv105a_fine",
                 "sdnv105d_shaking", "sdnv105_preload"):
        assert shortened_steps(rc.load_case(name)) == [], name
