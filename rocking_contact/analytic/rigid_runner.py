"""The ``rigid`` kind's run: the rigid-block reference of SDNV105 as a case (its schema is
:mod:`~rocking_contact.analytic.rigid_case`, its levels and the comparison of any run's
collisions with them :mod:`~rocking_contact.analytic.rigid_levels`).

One run computes every level of the rigid solution for the same block and release:

- ``closed_form``: the manual's first-order formulas (its "rigid body" table);
- ``linearised`` and ``nonlinear``: the rigid equations integrated exactly, with impact
  events (the manual's equation to first order in theta, and as it is);
- ``recalage``: the manual's first-order chain with the effective elastic-body ratios
  0.79 (square root of the energy) and 0.77 (flight times). The manual fitted them on
  Code_Aster's elastic SDNV105 block: the level is computed for that block and release
  (:func:`recalage_ratios`), or with ratios the case gives other than those; for another
  block it is left out, and ``extra.recalage.note`` says why.

Quantities carry the level as a prefix (``nonlinear.collision.2.time``); the unprefixed
ones (``collision.2.time``, ``lift.1``, ...) and the ``collisions`` list are those of
``[rigid] level``. The history is the integrated motion of that level (of the nonlinear
equation when ``level = "closed_form"``, which has no time history). The closed forms only
describe a release on a still table; with a table acceleration they are left out.

A run stopped (Ctrl-C, SIGTERM) or whose integration fails (the integrator gives up: its
instant and reason) keeps the levels up to the last instant they all reached: its history,
impacts and quantities so far, status ``interrupted at t = ...`` or ``failed: ...``
(``extra.outcome`` ``"interrupted"`` or ``"failed"``), written as a FEM run's are.

Quantity names (k from 1; lifts from 0, the release):
``<level>.collision.<k>.{time, kinetic_energy, kinetic_energy_after, energy_ratio,
vy_before, percussion_y, percussion_x, omega_before}``, ``<level>.lift.<k>``,
``<level>.restitution``; and ``restitution``, ``energy_ratio``, ``reaction.vertical``,
``reaction.horizontal``, ``reaction.ratio``, ``percussion.ratio``, ``rocking_frequency``,
``uplift.acceleration``, ``overturn.angle``, ``friction.max_ratio`` and the events
``uplift.<n>.time``, ``rest.time``, ``overturn.time``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from rocking_contact import interrupt
from rocking_contact.analytic.rigid_block import Equation, ImpactSequence, RigidBlock, rebound
from rocking_contact.analytic.rigid_case import SDNV105_RATIOS, RigidCase
from rocking_contact.analytic.rigid_levels import (
    LevelsStopped,
    block_of,
    collisions_of,
    flight_reactions,
    friction_needed,
    recalage_ratios,
    rigid_levels,
    sequence_quantities,
)
from rocking_contact.analytic.rigid_motion import RockingMotion
from rocking_contact.block import overturn_limit
from rocking_contact.config import (
    CaseError,
    as_dict,
    file_case,
    file_label,
    load_case,
    resolve_case_path,
)
from rocking_contact.loads import FEW_SAMPLES
from rocking_contact.progress import Progress
from rocking_contact.provenance import sha256
from rocking_contact.results import RunResult
from rocking_contact.stops import Interrupted, SolverFailure

if TYPE_CHECKING:  # the FEM kind's schema, whose imports a rigid run does not need
    from rocking_contact.fem.case import BlockCase


def _flight_checks(motion: RockingMotion,
                   friction: float | None) -> tuple[dict[str, float], list[str]]:
    """Largest |RX|/RN in flight, and warnings if the block would slide (past the Coulomb
    coefficient ``friction``; None: its base cannot slide) or jump (a jump ends the motion,
    with its event: its last row's RN is 0 to round-off)."""
    history = motion.history
    rn, _ = flight_reactions(history)
    warnings = []
    if rn.size and rn.min() <= 0.0 and motion.outcome != "jumped":
        warnings.append(f"the pivot's normal force reaches {rn.min():.4g} N: the block would "
                        "jump (not modelled)")
    ratio = friction_needed(history)
    if friction is not None and ratio > friction:
        warnings.append(f"|RX|/RN reaches {ratio:.4g} > friction {friction:g}: the block "
                        "would slide (not modelled)")
    return {"friction.max_ratio": ratio}, warnings


def _global_quantities(block: RigidBlock, chosen: ImpactSequence, motion: RockingMotion,
                       equation: Equation, table_still: bool) -> dict[str, float]:
    vertical, horizontal = block.free_flight_reactions()
    out = {
        "restitution": chosen.restitution,
        "energy_ratio": rebound(chosen.restitution)**2,
        "reaction.vertical": vertical,
        "reaction.horizontal": horizontal,
        "reaction.ratio": abs(horizontal) / vertical,
        "rocking_frequency": block.rocking_frequency,
        "uplift.acceleration": block.uplift_acceleration(),
        "overturn.angle": overturn_limit(block.overturn_angle(equation), table_still),
    }
    if chosen.impacts:
        first = chosen.impacts[0]
        out["percussion.ratio"] = abs(first.percussion_x) / first.percussion_y
    uplifts = [e for e in motion.events if e.kind == "uplift"]
    for n, event in enumerate(uplifts, start=1):
        out[f"uplift.{n}.time"] = event.time
    for event in motion.events:
        if event.kind in ("rest", "overturn"):
            out.setdefault(f"{event.kind}.time", event.time)
    return out


def run(case: RigidCase, *, progress: Progress | None = None) -> RunResult:
    """Run a rigid case (see :mod:`rocking_contact.api` for the public entry point)."""
    t_wall = time.perf_counter()
    opts, span = case.rigid, case.time
    block = block_of(case)
    table = case.loading.table_motion()
    samples = span.start + span.step * np.arange(span.n_steps + 1)
    ratios, recalage_note = recalage_ratios(case, case.release_angle)
    history_level = "nonlinear" if opts.level == "closed_form" else opts.level
    levels = partial(
        rigid_levels, block, case.release_angle, count=opts.impacts, start=span.start,
        end=span.end, restitution=opts.restitution, table=table, recalage_ratios=ratios,
        tolerance=opts.tolerance, samples=samples,
        history=history_level)  # the other level's history is not written
    reached = [span.start]  # the instant (s) every level has reached

    def noted(t: float) -> None:
        reached[0] = t
        if progress is not None:
            progress.update(t)

    stopped, failure = False, None
    try:
        sequences, motions = levels(progress=noted, stop=interrupt.requested)
    except LevelsStopped as stop:  # Ctrl-C, SIGTERM: what was computed is kept
        sequences, motions, stopped = stop.sequences, stop.motions, True
    except RuntimeError as exc:  # the integrator gave up: what was computed is kept too
        failure = str(exc)
        kept = _levels_until(levels, reached[0])
        if kept is None:
            raise SolverFailure(failure) from None
        sequences, motions = kept
    motion = motions[history_level]
    chosen = sequences[opts.level]
    quantities: dict[str, float] = {}
    for level, sequence in sequences.items():
        quantities.update(sequence_quantities(sequence, opts.impacts, f"{level}."))
    quantities.update(sequence_quantities(chosen, opts.impacts))
    quantities.update(_global_quantities(block, chosen, motion, history_level, table.still))
    flight, warnings = _flight_checks(motion, opts.friction)
    warnings += case.loading.held_records(case.time.start, case.time.end)
    # the integration takes steps of a 32nd of a period at most (TableMotion.resolution)
    warnings += case.loading.few_samples(
        case.time.step, "the history shows its peaks cut and its phase shifted (the "
        "integration resolves it with steps of its own)")
    quantities.update(flight)
    extra = {
        "level": opts.level,
        "history_level": history_level,
        "outcome": motion.outcome,
        "events": [vars(e) for e in motion.events],
        "levels": {level: {"restitution": s.restitution,
                           "impacts": collisions_of(s),
                           "lifts": [vars(lift) for lift in s.lifts]}
                   for level, s in sequences.items()},
        "block": {"mass": block.mass, "radius": block.radius, "inertia": block.inertia,
                  "theta0": block.theta0},
        "recalage": {"ratios": None if ratios is None else list(ratios),
                     "own": ratios is not None and ratios != SDNV105_RATIOS,
                     "note": recalage_note},
    }
    twinned = case.load_info.twin_of
    if twinned is not None:  # the rigid twin of a block case
        extra["twin_of"] = twinned
    result = RunResult(
        case=case.case.name, kind=case.case.kind, parameters=as_dict(case),
        history=motion.history, quantities=quantities, collisions=collisions_of(chosen),
        extra=extra, timing={"wall_s": time.perf_counter() - t_wall,
                             "steps": len(motion.history["time"])}, warnings=warnings)
    # the levels were integrated side by side: each stopped at about the instant the
    # history (its last row) reached
    times = motion.history["time"]
    last = float(times[-1]) if len(times) else span.start
    if stopped:
        result.status = str(interrupt.Stop(last))
        raise Interrupted(result.status, result)
    if failure is not None:
        extra["outcome"] = "failed"
        message = f"{failure.rstrip('.')}; the levels are kept up to t = {last:.9g} s"
        result.status = f"failed: {message}"
        raise SolverFailure(message, result)
    return result


def _levels_until(levels: Callable[..., tuple[dict[str, ImpactSequence],
                                              dict[str, RockingMotion]]],
                  reached: float) -> tuple[dict[str, ImpactSequence],
                                           dict[str, RockingMotion]] | None:
    """The levels of an integration that failed, as they stood at ``reached`` (s), the
    last instant every level had reached before it failed: ``levels``
    (:func:`rigid_levels` with the run's arguments) keeps nothing of a failed run, so
    they are integrated again, which repeats the same pieces, and stopped there. None if
    that integration did not stop there (it failed again, or ended)."""
    again = [-math.inf]

    def note(t: float) -> None:
        again[0] = t

    try:
        levels(progress=note, stop=lambda: again[0] >= reached)
    except LevelsStopped as stop:
        return stop.sequences, stop.motions
    except RuntimeError:
        return None
    return None


#: the rigid case whose levels, options and references a block case's twin takes
TWIN_BASE = "sdnv105_rigid"

#: how the twin's provenance names the file it takes its levels and options from
TWIN_BASE_READ_AS = "rigid levels"


def rigid_twin(block_case: BlockCase) -> RigidCase:
    """The rigid case of a FEM block case: its block (geometry, density, gravity, table
    motion), released at the angle its preload gives (``release_angle``) at
    ``time.start``, up to ``time.end``, its Coulomb coefficient as ``rigid.friction``
    (``contact.sliding_friction()``: ``contact.mu``, the least of its springs' not
    anchored, or None for a base that cannot slide), with the other levels and options of
    :data:`TWIN_BASE` and no quantities or references (those describe SDNV105's block and
    windows).

    Its name is the block case's with ``_rigid``. It is a run of the block case, not a
    changed ``sdnv105_rigid``: its physics changes (``extra.changes``) are taken against
    the twin of the block's file as written (its ``load_info.base_case``: none for a file
    run as it stands; the release angle derived from the tilt is no change),
    ``extra.twin_of`` names the block case, and its provenance is the block case's
    loading (case, overrides, the files read, :data:`TWIN_BASE`'s file too), rerun with
    ``rocking-contact rigid``.
    """
    if block_case.initial.state != "preload":
        # the twin would be released from the tilt of a [preload] the block does not read
        raise CaseError(file_label(block_case, "initial.state"), "initial.state",
                        f"{block_case.initial.state!r} gives no preload tilt to release the "
                        "rigid twin (rocking-contact rigid) from; allowed: 'preload'")
    twin = _twin_of(block_case)
    written = file_case(block_case)
    record = block_case.load_info.load_record  # None: a block built in code
    twin.load_info = replace(
        twin.load_info, twin_of=block_case.case.name,
        base_case=None if written is None else _twin_of(written),
        load_record=None if record is None else _twin_record(record, resolve_case_path(TWIN_BASE)))
    return twin


def _twin_of(block_case: BlockCase) -> RigidCase:
    """The twin's case as :func:`rigid_twin` describes it, without its loading record."""
    overrides: dict[str, Any] = {
        "case.name": f"{block_case.case.name}_rigid",
        "case.title": f"{block_case.case.title} (rigid block)",
        "case.description": (f"the rigid twin of {block_case.case.name} (rocking-contact "
                             f"rigid): its block, table motion and span, released at the "
                             f"angle its preload gives ({block_case.release_angle:.6g} rad), "
                             f"with the levels of {TWIN_BASE}"),
        "geometry.half_width": block_case.geometry.half_width,
        "geometry.half_height": block_case.geometry.half_height,
        # the rigid block needs no table; its view draws the block case's
        "geometry.table_left": block_case.geometry.table_left,
        "geometry.table_right": block_case.geometry.table_right,
        "material.block.density": block_case.material.block.density,
        "loading.gravity": block_case.loading.gravity,
        "preload.angle": block_case.release_angle,
        # the FEM run warns with the same coefficient that this block slides
        # (post.collisions.annotate): the twin must not rock on under 0.9 unsaid
        "rigid.friction": block_case.contact.sliding_friction(),
        "time.start": block_case.time.start,
        "time.end": block_case.time.end,
        "quantity": [],
        "reference": [],
    }
    for axis in ("table_acceleration_x", "table_acceleration_y"):
        function = getattr(block_case.loading, axis)
        read = ("type", *type(function).VARIANTS["type"][function.type])
        overrides[f"loading.{axis}"] = {key: getattr(function, key) for key in read}
    # The twin's rows are TWIN_BASE's 5e-4 s apart: a sine the block's finer steps see
    # (1000 Hz at 1e-4 s) would be aliased there, and refused, in the twin of a block run
    # that was accepted; its rows take the block's step then
    frequency = max((f.frequency for f in (block_case.loading.table_acceleration_x,
                                           block_case.loading.table_acceleration_y)
                     if f.type == "sine"), default=0.0)
    step, base_step = block_case.time.step, load_case(TWIN_BASE).time.step
    if step < base_step and frequency * base_step > 1.0 / FEW_SAMPLES:
        overrides["time.step"] = step
    twin: RigidCase = load_case(TWIN_BASE, overrides)
    return twin


def _twin_record(block_record: Mapping[str, Any], base_file: Path) -> dict[str, Any]:
    """The block case's loading record (:func:`rocking_contact.provenance.load_record`)
    as the twin's: the same case, overrides and files, :data:`TWIN_BASE`'s file added,
    and the command that reruns it (``rigid``)."""
    base = base_file.resolve()
    files = [*block_record["files"],
             {"path": str(base), "sha256": sha256(base), "read_as": TWIN_BASE_READ_AS}]
    return {**block_record, "files": files, "command": "rigid"}
