"""Run a ``block`` case: mesh, bodies, preload, time integration, history and fields.

The run (see :mod:`rocking_contact.fem.case` for the case file):

1. mesh the block and table (Gmsh on rank 0, distributed by DOLFINx);
2. build the bodies (small strain or large rotation);
3. initial state: the static preload (gravity, tilt) released at rest, or rest; from the
   release on, a shaking table's drag (``[loading.table_acceleration_x]``, ``_y``);
4. integrate from ``time.start`` to ``time.end`` with the scheme, windows and supports of
   the case, streaming ``history.csv`` and writing ``fields.pvd`` / ``fields.xdmf`` into the
   results directory as it goes (:class:`~rocking_contact.fem.output.RunOutput`, closed
   as the step loop ends: :meth:`~rocking_contact.fem.output.RunOutput.close`);
5. post-process the history (:func:`post_process`: collisions, energy balance,
   penetration, contact and iteration counters) and time the whole.

:func:`run` does 1-2 and 5, :func:`simulate` 3-4 and returns the
:class:`~rocking_contact.results.RunResult`; :func:`rocking_contact.api.run`, which calls
:func:`run`, then adds what every kind's run gets (the stack, the provenance, the grading
against the references) and writes ``results.json``.

A step that fails after every halving raises :class:`~rocking_contact.stops.SolverFailure`
with what was computed so far. ``timing.wall_s`` of the result is the wall time of the whole
of :func:`run` (meshing, preload, steps, post-processing), completed or stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from mpi4py import MPI

from rocking_contact import interrupt
from rocking_contact.config import CaseError, as_dict, file_label, unknown_name
from rocking_contact.contact import model as contact_model
from rocking_contact.contact.spec import TABLE_TREATMENTS
from rocking_contact.contact.springs import SinkWatch, has_springs, spring_sink
from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.case import BlockCase
from rocking_contact.fem.constraints import Prescribed, fix, hold
from rocking_contact.fem.energy_balance import EnergyBalance
from rocking_contact.fem.fields import VTK_FILE, FieldWriter
from rocking_contact.fem.output import RunOutput
from rocking_contact.fem.overturn import Overturn, OverturnWatch, divergence
from rocking_contact.fem.preload import static_preload, table_supports
from rocking_contact.fem.probes import Recorder
from rocking_contact.geometry.layout import BLOCK, base_points, size_warning
from rocking_contact.geometry.mesh import create_block_mesh
from rocking_contact.post.collisions import annotate as annotate_collisions
from rocking_contact.post.energy import (
    given_steps,
    motion_floor,
    released_depth,
    released_store,
    remedy,
    run_warnings,
)
from rocking_contact.post.energy import summary as energy_summary
from rocking_contact.post.iterations import iteration_statistics
from rocking_contact.post.penetration import deepest, penetration_warning
from rocking_contact.progress import Progress
from rocking_contact.results import RunResult, counted
from rocking_contact.solvers.driver import (
    DriverStats,
    Refinement,
    StepDriver,
    StepFailure,
)
from rocking_contact.solvers.newton import NewtonOptions, NewtonSolver
from rocking_contact.solvers.step import Contribution, Corrector, StepProblem
from rocking_contact.stops import (
    FULL_DISK,
    Diverged,
    Interrupted,
    Overturned,
    SlidOff,
    SolverFailure,
)
from rocking_contact.time.stage import Scheme, Stage

#: PETSc options prefix of the block's step solver
PREFIX = "block_"
#: ``extra`` of the results.json written as the run starts (api): a killed run's fields
STREAMED_EXTRA = {"fields": VTK_FILE}

#: a ``solver.rtol`` below this asks a step's residual to fall under its own round-off:
#: the preload's gravity step of SDNV105 stops at 5.2e-12 N of a first residual of
#: about 4e3 N (1.3e-15 of it) with rtol = 1e-16 and atol = 1e-300 (DIVERGED_MAX_IT)
ROUND_OFF_RTOL = 1e-14


def tolerance_hint(case: BlockCase, residual: float) -> str:
    """The clause added to a failed step's message when its tolerances cannot be met: a
    ``solver.rtol`` under :data:`ROUND_OFF_RTOL` with a ``solver.atol`` (N) below the
    residual (N) the step stopped at; else empty."""
    s = case.solver
    if not (s.rtol < ROUND_OFF_RTOL and s.atol < residual):
        return ""
    return (f"; solver.rtol = {s.rtol:g} is below the residual's round-off (about 1e-15 "
            f"of the forces) and solver.atol = {s.atol:g} N below the residual reached: "
            f"no iteration can meet them; use solver.rtol >= {ROUND_OFF_RTOL:g} or a "
            "solver.atol above the round-off")


def _fallback_warning(fallbacks: list[tuple[float, str]], preload: bool) -> str:
    """The warning for steps taken with the driver's fallback: when, and what it eased."""
    times = ", ".join(f"{t:.6g}" for t, _ in fallbacks[:5])
    more = f" and {len(fallbacks) - 5} more" if len(fallbacks) > 5 else ""
    when = (f"in the static preload, at pseudo-time {times}{more} (of [0, 1])" if preload
            else f"ending at t = {times}{more} s")
    return (f"{len(fallbacks)} step(s) failed at the last halving and converged only with "
            f"the fallback ({fallbacks[0][1]}): {when}")


def build_body(case: BlockCase, comm: MPI.Comm = MPI.COMM_WORLD) -> ElasticBody:
    """Mesh and bodies of a case."""
    block_mesh = create_block_mesh(comm, case.geometry, case.mesh)
    return ElasticBody(block_mesh, case.material, thickness=case.geometry.thickness,
                       gravity=case.loading.gravity, kinematics=case.kinematics.type,
                       order=case.mesh.order)


def dynamic_supports(case: BlockCase, body: ElasticBody, u: np.ndarray) -> list[Prescribed]:
    """The table's supports and the case's ``[[constraint]]`` (held at ``u`` if no value)."""
    out = table_supports(body)
    for c in case.constraint:
        if c.value is None:
            out.append(hold(body, c.on, c.components, u))
        else:
            out.append(fix(body, c.on, c.components, c.value))
    return out


def shortened_steps(case: BlockCase) -> list[str]:
    """One warning per span (the run, or between and in the windows) that is no whole
    number of its step: its steps are shortened to end on its bounds, unlike the discrete
    and rigid kinds, whose one uniform step must divide the run."""
    out = []
    for seg in case.time.grid():
        taken = (seg.end - seg.start) / seg.n_steps
        if taken < seg.step * (1.0 - 1e-6):
            where = ("the run" if seg.window is None and len(case.time.window) == 0
                     else f"[{seg.start:g}, {seg.end:g}] s")
            key = "time.step" if seg.window is None else f"time.window[{seg.window}].step"
            steps = f"{counted(seg.n_steps, 'step')} {'is' if seg.n_steps == 1 else 'are'}"
            out.append(f"{key}: {seg.step:g} s does not divide {where}: its {steps} "
                       f"{taken:.6g} s")
    return out


def setup_warnings(case: BlockCase) -> list[str]:
    """What a block case's set-up warns of before its first step: a table-acceleration
    record that ends or starts inside the run on a nonzero value (held), a sine sampled
    coarsely by ``time.step`` (its longest step), the spans its steps do not divide
    (:func:`shortened_steps`), an ``element_size`` too large for the block
    (:func:`~rocking_contact.geometry.layout.size_warning`)."""
    warnings = case.loading.held_records(case.time.start, case.time.end)
    warnings += case.loading.few_samples(case.time.step)
    warnings += shortened_steps(case)
    coarse = size_warning(case.geometry, case.mesh)
    return warnings + ([coarse] if coarse else [])


def time_steps(case: BlockCase) -> Iterator[tuple[float, Scheme]]:
    """(end time, scheme) of every step of the case's grid."""
    t = case.time
    for seg in case.time.grid():
        w = None if seg.window is None else t.window[seg.window]
        scheme = case.scheme.scheme() if w is None else case.scheme.scheme(w.alpha, w.scheme)
        for t1 in seg.times():
            yield float(t1), scheme


def refinement(case: BlockCase) -> Refinement | None:
    """The ``[time.refine]`` of the case for the step driver (None if absent)."""
    r = case.time.refine
    if r is None or not r.enabled:
        return None
    return Refinement(step=r.step, scheme=case.scheme.scheme(r.alpha), hold=r.hold)


def steps_remedy(case: BlockCase) -> str:
    """What makes the case's steps create less energy (:func:`~rocking_contact.post.energy.
    remedy` of its scheme, contact and refinement, with the refinement's hold)."""
    refined = refinement(case)
    return remedy(case.scheme.type, case.contact.info.level != "none", refined is not None,
                  None if refined is None else refined.hold)


def newton_options(case: BlockCase) -> NewtonOptions:
    """Newton settings from ``[solver]``."""
    s = case.solver
    return NewtonOptions(rtol=s.rtol, atol=s.atol, stol=s.stol, max_iterations=s.max_iterations,
                         stagnation_rtol=s.stagnation_rtol, linear_solver=s.linear_solver)


def run(case: BlockCase, *, progress: Progress | None = None, out_dir: Path | None = None,
        comm: MPI.Comm = MPI.COMM_WORLD) -> RunResult:
    """Run a block case (see :func:`rocking_contact.api.run` for the public entry point).

    Args:
        case: the loaded case.
        progress: progress bar over simulated time.
        out_dir: results directory for the streamed history and the fields (None: none).
        comm: communicator of the mesh.

    Returns:
        The result, ``timing.wall_s`` the wall time of this call (s); a stop's
        ``partial`` result has it too.

    """
    if comm.size > 1 and case.solver.linear_solver == "petsc":
        # PETSc's own LU factorises on one rank only: without this the first step fails
        # after its halvings with "PETSc error 92" instead of saying so
        raise CaseError(file_label(case, "solver.linear_solver"), "solver.linear_solver",
                        f"'petsc' factorises on one rank and this run has {comm.size}; "
                        "allowed under mpiexec: 'mumps' or 'superlu_dist'")
    t_start = time.perf_counter()
    body = build_body(case, comm)
    model = contact_model.build(case, body)
    try:
        result = simulate(case, body, contributions=model.contributions,
                          correctors=model.correctors, energy=model.energy, progress=progress,
                          out_dir=out_dir, started=t_start)
    except (Interrupted, Overturned, Diverged) as exc:  # not the contacts' failure
        if exc.partial is not None:
            _post_process_and_time(case, exc.partial, model, t_start, partial=True)
        raise
    except SolverFailure as exc:
        # One line: where (the driver's message) and which contacts were active; none in
        # the static preload, where the contact is idle (a run without history rows fails
        # there, before the release).
        state = model.describe() if exc.partial is None or exc.partial.history else ""
        message = f"{exc}; {state}" if state else str(exc)
        if exc.partial is not None:
            _post_process_and_time(case, exc.partial, model, t_start, partial=True)
            exc.partial.status = f"failed: {message}"
        raise SolverFailure(message, exc.partial) from exc
    _post_process_and_time(case, result, model, t_start)
    return result


def _post_process_and_time(case: BlockCase, result: RunResult,
                           model: contact_model.ContactModel, t_start: float, *,
                           partial: bool = False) -> None:
    """:func:`post_process`, then ``timing.wall_s``: the wall time since ``t_start`` (s,
    :func:`time.perf_counter` as :func:`run` began), the one place a block run sets it.

    For a run that stopped early (``partial``), the truncated history may defeat a measure;
    that is a warning, so that the stop itself and the history are still reported and
    written."""
    if not partial:
        post_process(case, result, model)
    else:
        try:
            post_process(case, result, model)
        except Exception as exc:  # noqa: BLE001 - the run's own failure is the one to raise
            result.warnings.append(f"post-processing of the partial run failed: "
                                   f"{type(exc).__name__}: {exc}")
    result.timing["wall_s"] = time.perf_counter() - t_start


def post_process(case: BlockCase, result: RunResult, model: contact_model.ContactModel) -> None:
    """What a (possibly partial) run's history says, added to its result: the collisions
    (:func:`~rocking_contact.post.collisions.annotate`), the energy balance's summary and
    warnings (:mod:`~rocking_contact.post.energy`), the deepest penetration
    (:mod:`~rocking_contact.post.penetration`), the contact treatment's counters and the
    Newton iterations per step (``timing``)."""
    annotate_collisions(case, result)
    # what the dissipations gave back in each step: the summary and its warning read them
    given = given_steps(result.history)
    energy = energy_summary(result.history, motion_floor(case), steps=given)
    if energy:
        result.extra["energy"] = energy
        result.quantities["energy.residual.final"] = energy["residual_final"]
        result.quantities["energy.residual.max_abs"] = energy["residual_max_abs"]
        if "ETOT_rise_max" in energy:
            result.quantities["energy.rise.max"] = energy["ETOT_rise_max"]
            result.quantities["energy.regain.max"] = energy["ETOT_regain_max"]
        stored = released_store(result.history)
        depth = released_depth(result.history, 2 * case.geometry.half_width)
        below = result.extra.get("preload", {}).get("base_below", 0.0)
        # only a case with springs reads them (tests/test_unread_keys)
        pressed = has_springs(case) and any(s.gap < 0.0 for s in case.contact.spring)
        result.warnings.extend(run_warnings(result.history, energy, steps_remedy(case),
                                            stored, depth, below, pressed, steps=given))
    if case.contact.treatment in TABLE_TREATMENTS:
        found = deepest(result.history, base_points(case.geometry, case.mesh),
                        2 * case.geometry.half_width)
        if found is not None:
            result.extra["penetration"] = {"depth_m": found.depth, "time_s": found.time,
                                           "scale_m": found.scale, "since_s": found.since}
            result.quantities["penetration.max"] = found.depth
        elif len(result.history.get("GAP_MIN", ())):
            # the base never went into the table (D before it lifts, about 0.05 s): the
            # deepest it went is none, a value that compare and the report can show
            result.quantities["penetration.max"] = 0.0
        warning = penetration_warning(found, steps_remedy(case))
        if warning:
            result.warnings.append(warning)
    result.timing.update(model.statistics())
    result.timing.update(iteration_statistics(result.history))


def refuse_misspelt_columns(case: BlockCase, columns: Sequence[str]) -> None:
    """Refuse a ``[[quantity]]`` column the run's history has not, once its first row
    has them all (they follow from the treatment, the points and the table's motion),
    before the first step and before that row or any frame is written
    (:class:`~rocking_contact.fem.output.RunOutput` calls it): found after the run, it
    cost the whole run and a check that says "not computed"."""
    misspelt = unknown_name(case, columns, None)
    if misspelt is not None:
        key, problem = misspelt.split(": ", 1)
        raise CaseError(file_label(case, key), key, problem)


@dataclass
class InitialState:
    """The state the dynamic phase starts from (local arrays) and what the preload reports.

    Attributes:
        u: displacement (m).
        v: velocity (m/s).
        preload: the static preload's ``extra["preload"]`` of results.json (None: none).
        warnings: the preload's warnings.
        preload_stats: the step driver's counters of the preload (a stop at the release
            reports its static steps).

    """

    u: np.ndarray
    v: np.ndarray
    preload: dict[str, Any] | None = None
    warnings: list[str] = field(default_factory=list)
    preload_stats: DriverStats | None = None


def initial_state(case: BlockCase, problem: StepProblem, driver: StepDriver,
                  recorder: Recorder) -> InitialState:
    """The static preload's end (gravity then tilt, solved in pseudo-time by ``driver``), or
    rest with the case's initial velocity of the block. The driver's counters restart for
    the dynamic phase; a preload that fails raises the driver's
    :class:`~rocking_contact.solvers.driver.StepFailure` (``pseudo``)."""
    zero = np.zeros_like(problem.u.x.array)
    if case.initial.state != "preload":
        body = problem.body
        v0 = np.zeros_like(zero)
        block_dofs = body.block_mesh.dofs(body.V, BLOCK)
        for c, value in enumerate(case.initial.velocity):
            v0[block_dofs[block_dofs % 2 == c]] = value
        return InitialState(zero, v0)
    pre = static_preload(problem, driver, case.geometry, case.preload,
                         steps=case.initial.preload_steps,
                         table_contact=case.contact.treatment in TABLE_TREATMENTS,
                         released=partial(dynamic_supports, case, problem.body))
    report: dict[str, Any] = {
        "gravity": recorder.row(case.time.start, pre.gravity, zero),
        "tilt": recorder.row(case.time.start, pre.tilted, zero),
        "newton_iterations": pre.newton_iterations,
        "tilt_steps": pre.tilt_steps,
        "table_deflection": pre.table_deflection,
    }
    if pre.tilt_reached is not None:  # kept short of the rigid tilt (static_preload)
        report["tilt_reached"] = pre.tilt_reached
    if pre.base_below > 0.0:  # and turned back below O: what the springs' store is from
        report["base_below"] = pre.base_below
    # A tilt taken again in more steps (static_preload) is not said: it releases the state
    # the larger initial.preload_steps starts from, to the bit, and costs a static solve
    # or a few; extra.preload.tilt_steps records the count.
    warnings = list(pre.warnings)
    if driver.stats.fallbacks:
        warnings.append(_fallback_warning(driver.stats.fallbacks, preload=True))
    preloaded, driver.stats = driver.stats, DriverStats()  # the run's: the dynamic phase's
    return InitialState(pre.tilted, zero, report, warnings, preloaded)


def release(case: BlockCase, problem: StepProblem, start: InitialState) -> None:
    """Start the dynamic phase from ``start`` at ``time.start``: its supports, the shaking
    table, the initial acceleration, then each term's release."""
    body = problem.body
    problem.set_prescribed(dynamic_supports(case, body, start.u))
    problem.set_state(u=start.u, v=start.v, t=case.time.start)
    body.shake(case.loading.table_motion(), case.time.start)
    problem.initial_acceleration()
    t1, scheme = next(time_steps(case))
    release_terms(problem, scheme.stage(t1 - case.time.start))


def release_terms(problem: StepProblem, first: Stage) -> None:
    """Call each term's ``release(problem)`` (:meth:`StepTerm.release
    <rocking_contact.solvers.step.StepTerm.release>`): a contact treatment takes over
    from the preload's supports (its forces, the initial acceleration) before the first
    state is recorded; then, once every term is released, each term's
    ``start_shaking(problem, first)`` (:meth:`StepTerm.start_shaking
    <rocking_contact.solvers.step.StepTerm.start_shaking>`), which adds the drag of a
    table already accelerating as the first step (``first``) takes it. Both are no-ops
    unless the term overrides them."""
    for term in problem.terms:
        term.release(problem)
    for term in problem.terms:
        term.start_shaking(problem, first)


def run_result(case: BlockCase, driver: StepDriver, problem: StepProblem, output: RunOutput,
               extra: dict[str, Any], warnings: list[str], *, status: str = "completed",
               setup: float | None = None, preload: bool = False) -> RunResult:
    """The result of a run that completed or stopped (its history as written so far), its
    timing without ``wall_s`` (:func:`run` adds it).

    Args:
        case, driver, problem, output: the run's.
        extra: results.json ``extra`` of the set-up and the preload (completed here).
        warnings: of the set-up and the preload; the fallbacks' are added here.
        status: ``completed``, or how the run stopped.
        setup: wall time of the set-up and preload (s), for a completed run.
        preload: the run stopped in the static preload (the driver's times are pseudo-times).

    """
    stats = driver.stats
    timing: dict[str, Any] = {} if setup is None else {"setup_s": setup}
    # a stop in the preload took no step of the run: its static steps are counted apart
    timing.update({"steps": 0, "preload_steps": stats.steps} if preload else
                  {"steps": stats.steps})
    timing.update({"newton_iterations": stats.newton_iterations, "halvings": stats.halvings,
                   "refined_steps": stats.refined, "fallback_steps": len(stats.fallbacks),
                   "jacobian_builds": problem.jacobian_builds})
    if output.fields is not None and not np.isnan(output.fields_t):
        extra["fields"] = VTK_FILE  # a partial run's frames can be viewed too
    run = RunResult(case=case.case.name, kind=case.case.kind, parameters=as_dict(case),
                    history=output.history.columns() if output.history.names else {},
                    extra=extra, timing=timing, status=status)
    run.warnings.extend(warnings)
    if stats.fallbacks:
        extra["fallback_steps"] = [{"time": t, "eased": what} for t, what in stats.fallbacks]
        run.warnings.append(_fallback_warning(stats.fallbacks, preload))
    return run


def simulate(case: BlockCase, body: ElasticBody, *, contributions: Sequence[Contribution] = (),
             correctors: Sequence[Corrector] = (), energy: EnergyBalance | None = None,
             progress: Progress | None = None, out_dir: Path | None = None,
             started: float | None = None) -> RunResult:
    """Preload and integrate a case on given bodies, with contact terms if any.

    This is where contact treatments plug in (see :mod:`rocking_contact.solvers.step`):
    their contributions and correctors take part in every step, the static preload's
    included (its steps use the :class:`~rocking_contact.time.static.Static` scheme).
    Each term's ``release(problem)`` then ``start_shaking(problem, stage)`` hooks are
    called once after the initial state is set (supports of the dynamic phase, initial
    acceleration) and before it is recorded (:func:`release_terms`).

    Args:
        case: the loaded case.
        body: the bodies (:func:`build_body`).
        contributions: residual/Jacobian terms added to every step equation.
        correctors: condensed local problems solved after every free step. The run frees
            the PETSc objects of both as it ends (their ``destroy()``).
        energy: the run's energy balance, one of ``contributions``: it takes each history
            row's total energy instead of assembling it again (None: no balance).
        progress: progress bar over simulated time.
        out_dir: results directory for the streamed history and the fields (None: none).
        started: :func:`time.perf_counter` as the run began, before the bodies were made
            (:func:`run`), from which ``timing.setup_s`` counts (None: now).

    Returns:
        The result, its ``timing`` without ``wall_s`` (:func:`run` sets it).

    Raises:
        SolverFailure: a step failed after every halving, or the run diverged
            (:class:`~rocking_contact.stops.Diverged`); carries the partial result.
        Overturned: the block overturned or slid off its table
            (:class:`~rocking_contact.stops.SlidOff`).
        Interrupted: Ctrl-C or SIGTERM stopped it (a ``KeyboardInterrupt``); carries the
            partial result too.

    """
    t_start = time.perf_counter() if started is None else started
    problem = StepProblem(body, contributions=contributions, correctors=correctors,
                          t0=case.time.start, linear_solver=case.solver.linear_solver)
    solver = NewtonSolver(problem, prefix=PREFIX, options=newton_options(case))
    driver = StepDriver(problem, solver, max_halvings=case.solver.max_halvings,
                        refine=refinement(case))
    # The driver's, the solver's, the terms' and the problem's PETSc objects are freed
    # however the run ends. Destroying them is collective: under MPI it is done when every
    # rank leaves together (the end, a step failure, a stop, an overturn: decided on all
    # ranks alike), not for an error that may be one rank's, whose traceback must not wait
    # for the others.
    together = False
    try:
        run = _integrate(case, driver, energy, progress, out_dir, t_start)
        together = True
        return run
    except (SolverFailure, Interrupted, Overturned):
        together = True
        raise
    finally:
        if together or body.comm.size == 1:
            driver.destroy()
            solver.destroy()
            for term in problem.terms:
                term.destroy()
            problem.destroy()


def _stopped(case: BlockCase, stop: StepFailure | interrupt.Stop | Overturn,
             result: Callable[..., RunResult]) -> SolverFailure | Interrupted | Overturned:
    """The exception that ends a run whose steps ``stop`` ended, carrying what it computed
    (``result``: :func:`run_result` of the run, given its ``status``): a step that failed
    after every halving is a :class:`SolverFailure` (its message with
    :func:`tolerance_hint`'s clause), Ctrl-C or SIGTERM an :class:`Interrupted`, a block
    off its table a :class:`Diverged` if the energy its own steps created threw it
    (:func:`~rocking_contact.fem.overturn.divergence`), else :class:`SlidOff` or
    :class:`Overturned`."""
    if isinstance(stop, StepFailure):
        message = f"{stop}{tolerance_hint(case, stop.residual)}"
        # a failure in the static preload is one in pseudo-time: so are its fallbacks
        return SolverFailure(message, result(status=f"failed: {message}", preload=stop.pseudo))
    if isinstance(stop, interrupt.Stop):
        return Interrupted(str(stop), result(status=str(stop)))
    stopped = result(status=str(stop))
    why = divergence(stop, stopped.history, steps_remedy(case), motion_floor(case))
    if why is not None:  # energy the steps made or the springs held threw it
        stopped.status = f"failed: {why}"
        return Diverged(why, stopped)
    off = SlidOff if stop.what == "slid off its table" else Overturned
    return off(str(stop), stopped)


def _integrate(case: BlockCase, driver: StepDriver, energy: EnergyBalance | None,
               progress: Progress | None, out_dir: Path | None, t_start: float) -> RunResult:
    """:func:`simulate` once its driver is made: initial state, release, the steps; then
    the output closed (:meth:`RunOutput.close <rocking_contact.fem.output.RunOutput.close>`)
    and the result of the history written (:func:`run_result`), returned or carried by the
    exception of the stop that ended the steps (:func:`_stopped`)."""
    problem = driver.problem
    body = problem.body
    # the columns are checked before the first row or frame is written: a refused run
    # leaves nothing of its own in out_dir
    output = RunOutput(case, body, out_dir, progress, balance=energy, writer=FieldWriter,
                       check=partial(refuse_misspelt_columns, case))
    extra: dict[str, Any] = {
        "dofs": body.n_global, "ranks": body.comm.size, "kinematics": body.kinematics_name,
        "scheme": case.scheme.scheme().describe(),
        "cells": body.V.mesh.topology.index_map(2).size_global,
    }
    # the preload's warnings are added to them, the fallbacks' counted at the end
    warnings = setup_warnings(case)
    result = partial(run_result, case, driver, problem, output, extra, warnings)
    try:
        try:
            start = initial_state(case, problem, driver, output.recorder)
            if start.preload is not None:
                extra["preload"] = start.preload
            warnings.extend(start.warnings)
            release(case, problem, start)
            # the release lowers the block onto its springs (contact/penalty): how deep it
            # stands there is known only now
            sunk = spring_sink(case, body, problem.u.x.array)
            if sunk is not None:
                if start.preload_stats is not None:
                    driver.stats = start.preload_stats
                raise sunk.failure()
            setup = time.perf_counter() - t_start
            output.record(problem, None)
            driver.observers.append(output.record)
            driver.observers.append(OverturnWatch(body, case.geometry, case.loading.table_still,
                                                  case.mesh.table))
            if has_springs(case):
                driver.observers.append(SinkWatch(case, body, warnings))
            driver.observers.append(lambda p, info: interrupt.check(info.t, body.comm))
            driver.run(time_steps(case))
        except (StepFailure, interrupt.Stop, Overturn) as exc:
            output.close(problem)  # first: the result takes its last row, the stop's state
            raise _stopped(case, exc, result) from (
                exc if isinstance(exc, StepFailure) else None)
        output.close(problem)
        return result(setup=setup)
    except OSError as exc:
        # a full disk: closing fields.h5 would flush into it, fail, and be tried again as
        # the process ends, which aborts it (FieldWriter.abandon)
        if exc.errno in FULL_DISK and output.fields is not None:
            output.fields.abandon()
        raise
    except KeyboardInterrupt:
        # aborted (a second Ctrl-C or SIGTERM), in a step or as the stop's last state is
        # written: the rows and frames recorded so far are listed on disk now, where
        # results.json then says the run ends (api._abort_said), not as the process exits
        output.aborted()
        raise
