"""Run a discrete case: assemble, integrate in chunks, post-process the impacts."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg

from rocking_contact import interrupt
from rocking_contact.config import MAX_ROWS, as_dict
from rocking_contact.discrete.case import (
    CONTACT_CHANNELS,
    SHOCK_CHANNELS,
    DiscreteCase,
    dof_columns,
    output_dofs,
    shock_columns,
)
from rocking_contact.discrete.energy import (
    EXCESS,
    GROWTH,
    balance_summary,
    energy_bound,
    energy_columns,
    excess,
    first_runaway,
)
from rocking_contact.discrete.integrators import integrator_class, make_integrator
from rocking_contact.discrete.newmark import NewmarkFailure
from rocking_contact.discrete.recording import FRICTION_CHANNELS, Chunk
from rocking_contact.discrete.stepping import Integrator
from rocking_contact.discrete.system import (
    DiscreteSystem,
    assemble,
    contact_durations,
    stick_critical_damping,
)
from rocking_contact.discrete.truncation import missed_flexibility, truncation_warnings
from rocking_contact.loads import (
    TimeFunction,
    few_samples,
    held_values,
    table_samples,
    time_function_values,
)
from rocking_contact.post import impacts as impact_post
from rocking_contact.progress import Progress
from rocking_contact.results import RunResult
from rocking_contact.stops import Interrupted, RunStopped, SolverFailure

#: most values of the shocks' rows around their contacts a run keeps for its impacts (those
#: of MAX_ROWS history rows of ten columns, 0.8 GB); past them it measures the impacts on
#: the recorded rows and says so
CONTACT_VALUES = 10 * MAX_ROWS


@dataclass
class States:
    """The unknowns at the history's rows (rows x unknowns, their units:
    :class:`.system.DiscreteSystem`): displacements ``x``, velocities ``v``, the support
    acceleration there (``gam``, m/s^2) and the friction of the shocks with friction (rows
    x those shocks, :func:`.recording.friction_shocks`, x
    :data:`.recording.FRICTION_CHANNELS`: the tangential force on the node, N, global x, y,
    z; the law's stick flag; its stick spring's force, N); what the energy columns are
    computed from (:func:`.energy.energy_columns`)."""

    x: np.ndarray
    v: np.ndarray
    gam: np.ndarray
    friction: np.ndarray

    def head(self, rows: int) -> States:
        """The first ``rows`` rows (those a history cut by :func:`non_finite` keeps)."""
        return States(self.x[:rows], self.v[:rows], self.gam[:rows], self.friction[:rows])


def integrate(case: DiscreteCase, system: DiscreteSystem, progress: Progress | None = None,
              *, cause: str = "the state diverged"
              ) -> tuple[dict[str, np.ndarray], Integrator, RunStopped | None, States]:
    """Step the case to its end, or until a step fails, the mechanical energy exceeds what
    the initial state and the loads can give (:mod:`.energy`; ``cause``, the likely reason,
    is said then) or Ctrl-C asks to stop; returns (history, integrator, the failure to raise
    once the partial result is built, or None, the unknowns at the history's rows). A
    failed run's history ends before the failure. Where the energy passed
    :data:`.energy.EXCESS` times that bound, short of failing, is in
    ``integrator.energy_excess``.
    """
    dofs = output_dofs(case)
    n_steps, dt, t0 = case.time.n_steps, case.time.step, case.time.start
    times = t0 + dt * np.arange(n_steps + 1)
    gam = time_function_values(case.model.support.acceleration, times)
    recorded = recorded_rows(system, dofs)
    kernel_rows = state_rows(recorded)
    integrator = make_integrator(case, system, kernel_rows, float(gam[0]))
    chunk_size = max(2000, n_steps // 200)
    chunks: list[Chunk] = []
    failure: RunStopped | None = None
    bound = np.zeros(0)
    done = 0
    while done < n_steps:
        if interrupt.requested():
            # before the chunk, the first one too: a Ctrl-C while the kernels compile
            # (6 to 27 s cold) stops at time.start instead of after a chunk (for a run of one
            # chunk, at its end); a chunk leaves the state it reached to the next
            # one: record it here, so that the history ends at the instant the status gives
            chunks.append(integrator.advance(0, gam[done:done + 1], True))
            failure = Interrupted(str(interrupt.Stop(t0 + done * dt)))
            break
        n = min(chunk_size, n_steps - done)
        final = done + n == n_steps
        try:
            chunks.append(integrator.advance(n, gam[done:done + n + 1], final))
        except NewmarkFailure as exc:
            chunks.append(exc.kept)
            failure = SolverFailure(str(exc))
        if not len(bound):  # from the energy of the first row, t0's
            bound = energy_bound(system, gam, dt, float(chunks[0].energy[0]))
        grown = runaway(chunks[-1], bound, t0, dt, cause)
        note_excess(integrator, chunks[-1], bound, t0, dt)
        failure = grown or failure
        if failure is not None:
            break
        if integrator.contacts and sum(k.contacts.size for k in chunks) > CONTACT_VALUES:
            integrator.contacts = False  # closed for good (a mass at rest on a floor)
            for kept in chunks:
                kept.contacts = kept.contacts[:0]
        done += n
        if progress is not None:
            progress.update(t0 + done * dt, step=done)
    steps = np.concatenate([c.steps for c in chunks]) if chunks else np.zeros(0, np.int64)
    width = integrator.n_channels - 2
    rows = np.concatenate([c.rows for c in chunks]) if chunks else np.zeros((0, width))
    history: dict[str, np.ndarray] = {"time": t0 + dt * steps}
    # the kernels write x, v and a through every row of kernel_rows, then the shocks'
    # channels and their friction: the history takes the recorded dofs' rows of each and
    # the shocks' channels
    no, nk, ns = len(recorded), len(kernel_rows), len(system.shock_names)
    friction = 3 * nk + len(SHOCK_CHANNELS) * ns
    taken = [*(k * nk + i for k in range(3) for i in range(no)), *range(3 * nk, friction)]
    columns = [*dof_columns(dofs), *shock_columns(SHOCK_CHANNELS, system.shock_names)]
    history.update({name: rows[:, i] for i, name in zip(taken, columns, strict=True)})
    inverse = np.linalg.pinv(kernel_rows)
    states = States(rows[:, :nk] @ inverse.T, rows[:, nk:2 * nk] @ inverse.T, gam[steps],
                    rows[:, friction:].reshape(len(rows), (width - friction) // FRICTION_CHANNELS,
                                               FRICTION_CHANNELS))
    if integrator.contacts:
        contacts = np.concatenate([k.contacts for k in chunks])
        integrator.contact_history = {"time": t0 + dt * contacts[:, 0]}
        for i, name in enumerate(shock_columns(CONTACT_CHANNELS, system.shock_names)):
            integrator.contact_history[name] = contacts[:, 1 + i]
    return history, integrator, failure, states


def recorded_rows(system: DiscreteSystem, dofs: list[tuple[str, str]]) -> np.ndarray:
    """The rows of the basis of the recorded physical ``dofs`` ((node, component) pairs)."""
    rows: np.ndarray = system.rows([f"{n}.{c}" for n, c in dofs])
    return rows


def state_rows(recorded: np.ndarray) -> np.ndarray:
    """The rows the kernels record x, v and a through: the ``recorded`` dofs' rows, then,
    where they do not determine the unknowns (``output.nodes`` leaves some moving node
    out), an orthonormal basis of what they miss, so that the energy columns have the
    whole state (:class:`States`) at no more cost than the unknowns they lack."""
    missing = scipy.linalg.null_space(recorded).T
    rows: np.ndarray = np.ascontiguousarray(np.vstack([recorded, missing]))
    return rows


#: what a Ctrl-C during :func:`compile_kernels` says comes before the step it stops after:
#: sdnd101a compiled in 10 s on a cold NUMBA_CACHE_DIR (the AMD EPYC, 2026-11-24, its 2
#: cores shared), 6 to 27 s elsewhere (:func:`~rocking_contact.summary.summary_line`)
COMPILING_FIRST = "compiling numba kernels first, up to half a minute"


def compile_kernels(case: DiscreteCase, system: DiscreteSystem,
                    progress: Progress | None = None) -> float:
    """Compile the numba kernels the case's scheme steps with, or load them from numba's
    on-disk cache (``__pycache__`` beside the modules, or ``NUMBA_CACHE_DIR``), and return
    the wall seconds it took: a throwaway integrator of the case on its own ``system`` (the
    same argument types as the run's, so that the run compiles nothing more) starts and
    advances zero steps. The first run after an install or an edit of the kernels compiles
    them (sdnd100a: 6 s, against 0.3 s for its 600 steps); later ones load them (about
    0.25 s); in the same process again, nothing. ``progress`` says "compiling numba
    kernels ..." if it takes long, and starts its clock after it
    (:meth:`~rocking_contact.progress.Progress.preparing`); a Ctrl-C meanwhile says that
    the compilation comes first (:func:`~rocking_contact.interrupt.before_the_steps`)."""
    started = time.perf_counter()
    with (contextlib.nullcontext() if progress is None
          else progress.preparing("compiling numba kernels")), \
            interrupt.before_the_steps(COMPILING_FIRST):
        outputs = state_rows(recorded_rows(system, output_dofs(case)))
        make_integrator(case, system, outputs, 0.0).advance(0, np.zeros(1), False)
    return time.perf_counter() - started


def runaway(kept: Chunk, bound: np.ndarray, t0: float, dt: float,
            cause: str) -> SolverFailure | None:
    """The failure of a run whose mechanical energy exceeded :data:`.energy.GROWTH` times
    the most its initial state and loads can give (``bound``, J at every step), or None;
    ``kept`` loses that row and those after it."""
    row = first_runaway(kept.energy, bound[kept.steps])
    if row is None:
        return None
    step = int(kept.steps[row])
    energy = float(kept.energy[row])
    grown = (f"reached {energy:.3g} J" if np.isfinite(energy) else "is not finite")
    kept.steps, kept.rows, kept.energy = (kept.steps[:row], kept.rows[:row],
                                          kept.energy[:row])
    return SolverFailure(
        f"the mechanical energy grew without bound: it {grown} at t = {t0 + step * dt:.6g} s "
        f"(step {step}, time.step {dt:g} s), more than {GROWTH:g} times the {bound[step]:.3g} J "
        f"that the initial state and the work of the loads can give; {cause}; the history "
        f"stops before it")


def note_excess(integrator: Integrator, kept: Chunk, bound: np.ndarray, t0: float,
                dt: float) -> None:
    """Update ``integrator.energy_excess`` with the rows of ``kept`` whose energy exceeds
    :data:`.energy.EXCESS` times its bound (J at every step)."""
    if not len(kept.steps) or kept.energy.max() <= EXCESS * bound[kept.steps[0]]:
        return  # the bound never falls: no row exceeds it (one reduction, no row's bound)
    found = excess(kept.energy, bound[kept.steps])
    if found is None:
        return
    first, largest, ratio = found
    seen = integrator.energy_excess
    if seen is None:
        seen = (t0 + dt * int(kept.steps[first]), 0.0, 0.0)
    if ratio > seen[1]:
        seen = (seen[0], ratio, t0 + dt * int(kept.steps[largest]))
    integrator.energy_excess = seen


def excess_warning(integrator: Integrator, cause: str) -> list[str]:
    """The warning of a run whose energy exceeded :data:`.energy.EXCESS` times the most
    its initial state and loads can give, if it did."""
    if integrator.energy_excess is None:
        return []
    first, ratio, at = integrator.energy_excess
    return [f"the mechanical energy exceeded {EXCESS:g} times the most that the initial "
            f"state and the work of the loads can give, from t = {first:.6g} s on (up to "
            f"{ratio:.3g} times, at t = {at:.6g} s): {cause}"]


#: steps per contact below which the run warns (sdnd101a with kn = 1e8 N/m and Newmark:
#: 6 steps, rebound within 3 %; kn = 1e12: 0.06 step, rebounds from 1.1 to 3 m/s). Central
#: differences, stable down to 1.6 steps per contact, are no better resolved: a 2 kg mass on
#: a 2e5 N/m oblique stop (cn = 40 N.s/m) is hit 30 % off at 2 steps, 12 % at 4, 4.4 % at 8
#: (impact speeds against an event-located solution; Newmark 25, 7.3, 2.7 %)
RESOLVED_CONTACT_STEPS = 5


#: fraction of its stick spring's critical damping below which a regularised shock warns
#: (1 kg stick-slipping on a floor, kt = 1e5 N/m, critical 632 N.s/m: its 8 stick phases
#: come out as 15 to 17 pieces, the mass creeping between them, with ct = 0, 10, 30, 100
#: N.s/m, displacement errors 3.8e-3, 1.7e-3, 3.7e-4, 2.1e-4 m for 1.4e-2 m; 8 phases and
#: 9.5e-5 m with ct = 300 N.s/m)
STICK_DAMPING_FRACTION = 0.25


def ringing_stick_warnings(case: DiscreteCase, system: DiscreteSystem) -> list[str]:
    """Regularised friction whose stick spring is barely damped: a stick phase starts from
    the sliding force, rings on ``kt`` about the load and touches the Coulomb limit at each
    swing, so the node slips again and creeps where Coulomb sticks (docs/discrete.md,
    "A limit of the regularised law")."""
    out = []
    critical = stick_critical_damping(system)
    for shock, ct_critical in zip(case.model.shock, critical, strict=True):
        if shock.mu > 0.0 and shock.friction != "exact" \
                and shock.ct < STICK_DAMPING_FRACTION * ct_critical:
            out.append(
                f"shock {shock.name}: ct = {shock.ct:g} N.s/m damps its stick spring (kt = "
                f"{shock.kt:g} N/m) below {STICK_DAMPING_FRACTION:g} of critical "
                f"({ct_critical:.3g} N.s/m): a stick phase rings up to the Coulomb limit and "
                f"slips again, the node creeping where Coulomb sticks; ct of about half the "
                f"critical value, or friction = 'exact', holds it")
    return out


def unresolved_warnings(impacts: list[dict[str, Any]], durations: dict[str, float],
                        spacing: float, stepwise: bool) -> list[str]:
    """One line per shock whose impacts were measured as unresolved (``durations``: their
    contacts', s; ``spacing``: the samples', s; ``stepwise``: whether the samples are the
    steps, see :func:`rocking_contact.post.impacts.find_impacts`)."""
    impulse = ("impulse the integral of FN between them (the momentum the shock gave)"
               if stepwise else "impulse NaN too (the samples are recorded rows, not steps)")
    out = []
    for name, duration in durations.items():
        count = sum(1 for i in impacts if i["shock"] == name and not i["resolved"])
        if count:
            out.append(
                f"shock {name}: its contact, about {duration:.3g} s, is shorter than the "
                f"{spacing:.3g} s between the samples it is measured on: its {count} "
                f"impact(s) (resolved = false) are measured on the samples before and after "
                f"each contact, not across it: start and end are their instants, speed and "
                f"rebound_speed their normal velocities, {impulse}; duration, max_force and "
                f"t_max are NaN (not measured)")
    return out


def contact_rows(contacts: dict[str, np.ndarray] | None, history: dict[str, np.ndarray]
                 ) -> dict[str, np.ndarray] | None:
    """The shocks' rows at every step around their contacts (None if not recorded), up to
    the history's last row and the first one that is not finite (a failed run's)."""
    if contacts is None:
        return None
    last = history["time"][-1] if len(history["time"]) else -np.inf
    values = np.column_stack([v for k, v in contacts.items() if k != "time"])
    bad = np.flatnonzero(~np.isfinite(values).all(axis=1) | (contacts["time"] > last))
    end = int(bad[0]) if len(bad) else len(values)
    return {key: value[:end] for key, value in contacts.items()}


def non_finite(history: dict[str, np.ndarray], step: float, why: str) -> SolverFailure | None:
    """The failure of a run whose recorded state stopped being finite, or None; the history
    is cut before that row so that what was computed stays readable. ``why``: the likely
    cause, said after the instant."""
    values = np.column_stack([v for k, v in history.items() if k != "time"])
    bad = np.flatnonzero(~np.isfinite(values).all(axis=1))
    if not len(bad):
        return None
    t = float(history["time"][bad[0]])
    for key in history:
        history[key] = history[key][:bad[0]]
    return SolverFailure(f"the recorded state is not finite from t = {t:.6g} s on (step "
                         f"{step:g} s): {why}")


#: standard gravity (m/s^2): the g of the support's peak in its warning, and the amplitude
#: that reads a record in g (not the block's force scale, fem.body.FORCE_SCALE_GRAVITY)
G_STANDARD = 9.80665
#: a support acceleration's peak (m/s^2) above which a run asks about its units: 50 g, far
#: above the strongest recorded ground motions (about 4 g) and shaking tables; a record in
#: mm/s^2 read as m/s^2 peaks near 450 g and, unwarned, can drive a storey metres into a
#: stop millimetres away
SUPPORT_PEAK_LIMIT = 50.0 * G_STANDARD


def function_peak(f: TimeFunction, start: float, end: float) -> tuple[float, str]:
    """The largest ``|f|`` over the run ``[start, end]`` (s), and what it is made of
    (a sine's amplitude; a table's amplitude times its largest ``|value|`` there, the
    table interpolated linearly between its samples and held outside them)."""
    if f.type == "sine":
        return abs(f.amplitude), f"a sine of amplitude {f.amplitude:g}"
    if f.type != "table":
        return 0.0, ""
    times, values = table_samples(f)
    inside = values[(times > start) & (times < end)]
    ends = np.interp([start, end], times, values)
    largest = float(np.abs(np.concatenate([inside, ends])).max())
    return abs(f.amplitude) * largest, (f"amplitude {f.amplitude:g} times the table's "
                                        f"largest |value| {largest:g} over the run")


def support_peak_warning(case: DiscreteCase) -> list[str]:
    """A support acceleration beyond :data:`SUPPORT_PEAK_LIMIT`: a record read in other
    units than m/s^2 (mm/s^2, cm/s^2; g needs ``amplitude =`` :data:`G_STANDARD`) is the
    likely cause."""
    f = case.model.support.acceleration
    peak, made = function_peak(f, case.time.start, case.time.end)
    if peak <= SUPPORT_PEAK_LIMIT:
        return []
    return [f"model.support.acceleration: its peak is {peak:.4g} m/s^2 ({made}), "
            f"{peak / G_STANDARD:.3g} g, above the {SUPPORT_PEAK_LIMIT / G_STANDARD:g} g a "
            f"structure's support may see: are its values in m/s^2 (a record in g needs "
            f"amplitude = {G_STANDARD:g}, one in mm/s^2 amplitude = 0.001, in cm/s^2 0.01)?"]


#: the closest approach to an obstacle, as a fraction of its gap, below which a shock that
#: never closed asks whether its gap is in metres. A gap meant in mm (cm) and read as
#: metres is 1000 (100) times too large: a motion of the order of the gap meant stays
#: under 5 % of the one written unless it is 50 (5) times larger than that (5 mm written
#: `gap = 5` with a motion of 0.08229 m: 1.6 %). A stop placed for the motion and not
#: reached is of the motion's order (a 0.2 m stop beside a 0.1 m amplitude: 50 %); one
#: 20 times farther than the motion goes is no stop of this run, and its gap is more
#: likely a slip than a design
UNIT_SLIP_APPROACH = 0.05


def unclosed_warnings(case: DiscreteCase, history: dict[str, np.ndarray],
                      closed: dict[str, Closure]) -> list[str]:
    """One line per shock that never closed during a run gone to its end (``closed``, see
    :func:`closures`: no impact, no sustained contact) although its node moved towards its
    obstacle, and only by less than :data:`UNIT_SLIP_APPROACH` of its gap (> 0, m): a gap
    in other units than metres (``gap = 5`` meant as mm) never closes, which the run does
    not say otherwise. Its gap and its node's closest recorded approach are said. A run
    stopped early (a failure, an interrupt) is not asked: it gives no measure of the
    motion; call this for a completed run only."""
    out: list[str] = []
    times = history["time"]
    if not len(times):
        return out
    for shock in case.model.shock:
        pn = history[f"PN_{shock.name}"]
        if shock.gap <= 0.0 or closed[shock.name].ever:
            continue
        k = int(np.argmax(pn))
        approach = float(pn[k]) + shock.gap  # m along the normal, towards the obstacle
        if not 0.0 < approach < UNIT_SLIP_APPROACH * shock.gap:
            continue  # it did not move towards it, or came near: a stop not reached
        out.append(f"shock {shock.name}: never closed during the run (to t = "
                   f"{float(times[-1]):g} s): gap {shock.gap:g} m, and its node came within "
                   f"{-float(pn[k]):.4g} m of the obstacle (its largest recorded approach, "
                   f"{approach:.4g} m along the normal, {approach / shock.gap:.2%} of the gap, "
                   f"at t = {float(times[k]):.6g} s); is the gap in metres?")
    return out


def idle_gravity(case: DiscreteCase) -> list[str]:
    """A gravity that acts on fixed components only moves nothing: the supports take it
    all. Said, not refused (as a support acceleration is, see
    :meth:`.case.Model.immobile_along`): the gravity is the world's, true whatever the
    model holds, and a planar model may state it while a preloaded pad stands for the
    weight (a frame on an isolator pressed along its held DZ with kn |gap| = m g)."""
    gravity = case.model.gravity
    why = case.model.immobile_along(gravity) if any(gravity) else None
    if why is None:
        return []
    return [f"model.gravity: {list(gravity)} m/s^2 acts only on components no node moves "
            f"along ({why}): it moves nothing, the supports take it all"]


def setup_warnings(case: DiscreteCase, system: DiscreteSystem, durations: np.ndarray
                   ) -> tuple[list[str], str, dict[str, Any]]:
    """What a run says before it steps (a support record held past its end, a support
    sine of fewer than ten samples a period, a step above the central-difference limit,
    contacts of fewer than :data:`RESOLVED_CONTACT_STEPS` steps, ringing stick springs,
    dropped modes), the likely cause of an energy runaway
    (said if it comes, see :func:`integrate`) and the ``extra`` values found on the way
    (the critical step, s; the missed flexibility). ``durations``: the shocks' contacts (s,
    :func:`.system.contact_durations`)."""
    extra: dict[str, Any] = {}
    warnings: list[str] = held_values(case.model.support.acceleration,
                                      "model.support.acceleration", case.time.start,
                                      case.time.end)
    warnings += few_samples(case.model.support.acceleration, "model.support.acceleration",
                            case.time.step)
    warnings += idle_gravity(case)
    warnings += support_peak_warning(case)
    dt = case.time.step
    said, cause, found = integrator_class(case).stability_warning(system, dt)
    warnings += said
    extra.update(found)
    for name, duration in zip(system.shock_names, durations, strict=True):
        if duration < RESOLVED_CONTACT_STEPS * dt:
            warnings.append(
                f"shock {name}: its contact lasts about {duration:.3g} s, "
                f"{duration / dt:.2g} step(s) of {dt:g} s; an "
                f"impact resolved in fewer than {RESOLVED_CONTACT_STEPS} steps rebounds "
                f"with a speed that depends on the step")
    warnings += ringing_stick_warnings(case, system)
    missed = missed_flexibility(case, system)
    if missed:  # modal space with fewer modes than unknowns: what the dropped ones take
        extra["missed_flexibility"] = {name: share for name, (share, _, _) in missed.items()}
        extra["missed_flexibility_per_spring"] = {name: r for name, (_, r, _) in
                                                  missed.items()}
        extra["dropped_initial_energy"] = system.dropped_initial_energy
        warnings += truncation_warnings(case, system, missed)
    return warnings, cause, extra


@dataclass
class ImpactSampling:
    """The samples the impacts are measured on: ``spacing`` (s) between them, whether they
    are the integrator's steps (``stepwise``), how many samples after an unresolved contact
    its rebound is read (``settle``) and the shocks whose contacts are shorter than the
    spacing (``unresolved``: name -> contact duration, s); see
    :func:`rocking_contact.post.impacts.find_impacts`."""

    spacing: float
    stepwise: bool
    settle: int
    unresolved: dict[str, float]


def impact_sampling(case: DiscreteCase, system: DiscreteSystem, durations: np.ndarray,
                    integrator: Integrator, every_step: bool) -> ImpactSampling:
    """How the impacts are sampled: at every step around the contacts (``every_step``) or on
    the recorded rows, ``output.every`` steps apart; the ``integrator`` that stepped the run
    says how many steps after a contact its rebound is read
    (:attr:`~.stepping.Integrator.settle_records`)."""
    dt = case.time.step
    # A contact shorter than the samples' spacing holds one of them at most: its speeds are
    # taken from the free flights on either side (docs/discrete.md, "Impact post-processing")
    spacing = dt if every_step else case.output.every * dt
    unresolved = {name: float(duration)
                  for name, duration in zip(system.shock_names, durations, strict=True)
                  if duration < spacing}
    stepwise = spacing == dt
    settle = integrator.settle_records if stepwise else 1
    return ImpactSampling(spacing, stepwise, settle, unresolved)


@dataclass
class Closure:
    """Whether a shock was closed (a normal force above ``impacts.threshold``, what an
    impact is made of, :mod:`rocking_contact.post.impacts`) at every row of the history,
    from its first to its last, and of the impacts' rows (``always``), and at any
    (``ever``)."""

    always: bool
    ever: bool


def closures(case: DiscreteCase, history: dict[str, np.ndarray],
             rows: dict[str, np.ndarray]) -> dict[str, Closure]:
    """Per shock, where it was closed (:class:`Closure`) over the ``history`` and the
    impacts' ``rows`` (the steps around the contacts, when kept: an opening or a contact
    between two recorded rows shows there); never closed when nothing was recorded. One
    pass for :func:`sustained_contacts` and :func:`unclosed_warnings`, with the impacts'
    threshold (a force at or below it is no contact: no impact is found there)."""
    threshold = case.impacts.threshold
    out = {}
    for shock in case.model.shock:
        above = [history[f"FN_{shock.name}"] > threshold, rows[f"FN_{shock.name}"] > threshold]
        recorded = len(history["time"]) > 0
        out[shock.name] = Closure(always=recorded and all(a.all() for a in above),
                                  ever=any(a.any() for a in above))
    return out


def sustained_contacts(case: DiscreteCase, history: dict[str, np.ndarray],
                       closed: dict[str, Closure]) -> dict[str, dict[str, Any]]:
    """The shocks closed for the whole run (``closed``, see :func:`closures`). Such a
    contact never opened: it is a sustained one (a preloaded friction pad, SDND100's,
    pressed along a component its node cannot move along; a mass that rests on a floor
    all along), not an impact lasting the run: its force is no impact's, and counted as
    one it filled the impact list, statistics and histogram (frame_quake's isolator: a 0-5
    s "impact" of 245,250 N.s). Per shock: its node, the instants it covers (s) and its
    smallest and largest normal force (N)."""
    out = {}
    for shock in case.model.shock:
        fn = history[f"FN_{shock.name}"]
        if closed[shock.name].always:
            out[shock.name] = {"node": shock.node, "start": float(history["time"][0]),
                               "end": float(history["time"][-1]),
                               "min_force": float(fn.min()), "max_force": float(fn.max())}
    return out


def measure_impacts(case: DiscreteCase, system: DiscreteSystem, durations: np.ndarray,
                    history: dict[str, np.ndarray], integrator: Integrator, completed: bool
                    ) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, float],
                               list[str], dict[str, dict[str, Any]]]:
    """The impacts of every shock, their statistics, their quantities, what to say of them
    and the sustained contacts (:func:`sustained_contacts`, no impacts), measured at every
    step around the contacts when the history is thinned and they were kept, else on the
    history's rows; the shocks that never closed are said of a run ``completed`` to its
    end only (:func:`unclosed_warnings`)."""
    warnings = []
    # (a 2-dof chain's 3.1e-3 s contacts measured on rows 1e-3 s apart: impulses 9.2 % low)
    rows = contact_rows(integrator.contact_history, history)
    if rows is None and case.output.every > 1 and case.model.shock:
        spacing = case.output.every * case.time.step
        shortest = int(np.argmin(durations))
        duration = float(durations[shortest])
        span = (f"; shock {system.shock_names[shortest]}'s contact, about {duration:.3g} s, "
                f"spans {duration / spacing:.2g} of them" if np.isfinite(duration) else "")
        warnings.append(f"output.every = {case.output.every}: the shocks were closed at too "
                        f"many steps to keep each (more than {CONTACT_VALUES:.0e} values): "
                        f"the impacts "
                        f"(instants, forces, impulses, durations) are measured on the recorded "
                        f"rows, {case.output.every} steps ({spacing:.3g} s) apart{span}")
    rows = history if rows is None else rows
    closed = closures(case, history, rows)
    sustained = sustained_contacts(case, history, closed)
    shocks = {s.name: (s.node, rows[f"FN_{s.name}"], rows[f"VN_{s.name}"],
                       rows[f"PN_{s.name}"]) for s in case.model.shock
              if s.name not in sustained}
    # Where a damped shock pushes: it lets go (kn p + cn dp/dt = 0) before p = 0.
    contact = {s.name: np.minimum(s.kn * rows[f"PN_{s.name}"],
                                  s.kn * rows[f"PN_{s.name}"] + s.cn * rows[f"VN_{s.name}"])
               for s in case.model.shock if s.cn > 0.0}
    sampling = impact_sampling(case, system, durations, integrator, rows is not history)
    opts = case.impacts
    impacts, stats, quantities = impact_post.analyse(
        rows["time"], shocks, threshold=opts.threshold, min_rest=opts.min_rest,
        classes=opts.classes, contact=contact, unresolved=sampling.unresolved,
        stepwise=sampling.stepwise, settle=sampling.settle)
    warnings += unresolved_warnings(impacts, sampling.unresolved, sampling.spacing,
                                    sampling.stepwise)
    if completed:
        warnings += unclosed_warnings(case, history, closed)
    for name, contact_of in sustained.items():  # no impact: a shock's statistics of none
        stats[name] = {"node": contact_of["node"], **impact_post.statistics([], opts.classes)}
        quantities.update({f"impact.{name}.{key}": float(stats[name][key])
                           for key in impact_post.STATISTICS})
    stats = {s.name: stats[s.name] for s in case.model.shock}
    return impacts, stats, quantities, warnings, sustained


def record_energy(case: DiscreteCase, system: DiscreteSystem, history: dict[str, np.ndarray],
                  states: States) -> dict[str, Any]:
    """Add the energy columns to ``history`` (:func:`.energy.energy_columns`, after the
    recorded ones) and return their balance (:func:`.energy.balance_summary`), or why it
    has none: rows ``output.every`` > 1 steps apart have no integrals."""
    rows = len(history["time"])
    shocks = {k: history[k] for k in shock_columns(SHOCK_CHANNELS, system.shock_names)}
    every = case.output.every
    states = states.head(rows)
    history.update(energy_columns(system, history["time"], states.x, states.v, shocks,
                                  states.gam, states.friction, case.time.step,
                                  stepwise=every == 1, moving=case.model.support.moves))
    if every > 1:
        return {"not_computed": f"output.every = {every}: the rows are {every} steps apart, "
                                f"and the dissipated energies are integrals over every step"}
    return balance_summary(history)


def run(case: DiscreteCase, *, progress: Progress | None = None) -> RunResult:
    """Run a discrete case (see :mod:`rocking_contact.api` for the public entry point)."""
    t_start = time.perf_counter()
    system = assemble(case.model, case.solver)
    # the kernels' compilation is not the run's work: timed apart, out of wall_s
    compile_s = compile_kernels(case, system, progress)
    extra: dict[str, Any] = {
        "unknowns": system.n,
        "frequencies_hz": (system.omegas / (2 * np.pi)).tolist(),
    }
    durations = contact_durations(system)
    warnings, cause, found = setup_warnings(case, system, durations)
    extra.update(found)
    history, integrator, failure, states = integrate(case, system, progress, cause=cause)
    warnings += excess_warning(integrator, cause)
    if failure is None:
        # (a state that is not finite has no finite energy either: integrate stops it, and
        # this only guards the other columns)
        failure = non_finite(history, case.time.step, "the state diverged")
    impacts, stats, quantities, said, sustained = measure_impacts(
        case, system, durations, history, integrator, completed=failure is None)
    extra["impact_statistics"] = stats
    extra["energy"] = record_energy(case, system, history, states)
    if sustained:
        extra["sustained_contacts"] = sustained
    warnings += said
    dt = case.time.step
    result = RunResult(
        case=case.case.name, kind=case.case.kind, parameters=as_dict(case), history=history,
        quantities=quantities, impacts=impacts, extra=extra,
        # the steps the history covers: a run that runs away integrates past the row its
        # history stops before (sdnd102c at 2e-3 s: 250 steps, its history 101)
        timing={"wall_s": time.perf_counter() - t_start - compile_s,
                "compile_s": compile_s,
                "steps": int(round((history["time"][-1] - case.time.start) / dt))
                if len(history["time"]) else 0,
                "newton_iterations": integrator.newton_iterations,
                "branch_corrections": integrator.branch_corrections,
                "branch_cycles": integrator.branch_cycles},
        warnings=warnings,
    )
    if integrator.branch_cycles:
        result.warnings.append(
            f"at {integrator.branch_cycles} step(s), from t = "
            f"{integrator.first_branch_cycle:.6g} s, no stick/slip branch of the shock law held "
            f"at the converged state (the decisions cycled); the step was kept with the "
            f"branch Newton had frozen")
    if failure is not None:
        failure.partial = result
        raise failure
    return result
