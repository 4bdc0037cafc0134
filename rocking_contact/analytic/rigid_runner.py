"""The ``rigid`` kind: the rigid-block reference of SDNV105 as a case, and the comparison
of any run's collisions with it.

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, Literal

import numpy as np

from rocking_contact.analytic.rigid_block import (
    Equation,
    ImpactSequence,
    RigidBlock,
    closed_form,
    rebound,
    recalage,
)
from rocking_contact.analytic.rigid_motion import RockingMotion, RockingSimulation
from rocking_contact.block import BlockModel, overturn_limit
from rocking_contact.config import (
    NONNEGATIVE,
    POSITIVE,
    CaseFile,
    Check,
    TimeSpan,
    as_dict,
    case_dir,
    in_range,
    param,
)
from rocking_contact.progress import Progress
from rocking_contact.results import RunResult, SolverFailure
from rocking_contact.time_function import TableMotion

Level = Literal["closed_form", "linearised", "nonlinear"]

#: a restitution (a ratio of angular velocities): 0 would stop the block at the first impact,
#: and there would be no sequence of impacts to tabulate
FRACTION = Check(lambda x: 0.0 < x <= 1.0, "a number in (0, 1]")

#: the rigid levels' message for a block without gravity (released at rest, it does not move)
NEEDS_GRAVITY = ("loading.gravity: got 0, allowed: > 0 for the rigid-block levels (released at "
                 "rest without gravity, the block does not rock)")

#: every level a run computes, in the order of the printed tables
LEVELS = ("closed_form", "linearised", "nonlinear", "recalage")

#: the SDNV105 manual's recalage ratios, on the square root of the kinetic energy and on the
#: flight times, measured on Code_Aster's run of its elastic block
SDNV105_RATIOS = (0.79, 0.77)

#: the block and release they were measured on: key -> (value, unit); the thickness scales
#: every force and mass alike, and changes nothing
SDNV105_BLOCK = {"geometry.half_width": (0.18, "m"), "geometry.half_height": (0.40, "m"),
                 "material.block.density": (1450.0, "kg/m3"), "loading.gravity": (9.81, "m/s2"),
                 "release angle": (0.01, "rad")}

#: how far a release angle may be from SDNV105's 0.01 rad for its recalage (relative): the
#: FEM preloads release its block at 0.0100002 (pivot O1) and 0.0099889 rad (pivot O)
TILT_TOLERANCE = 0.01

#: the keys of the block's sections (shared with the FEM cases, :class:`BlockModel`) that
#: the rigid kind reads: the block's size and density, gravity, the table's motion and the
#: release angle; the table's ends and thickness only for its view. The others (the FEM
#: block's elastic constants and damping, the table's material, the preload's pivot) would
#: be ignored, and are refused unless left at their defaults.
READ_KEYS = {
    "geometry": ("half_width", "half_height", "thickness", "table_left", "table_right",
                 "table_thickness"),
    "material.block": ("density",),
    "material.table": (),
    "loading": ("gravity", "table_acceleration_x", "table_acceleration_y"),
    "preload": ("tilt",),
}


def _section(case: Any, dotted: str) -> Any:
    for name in dotted.split("."):
        case = getattr(case, name)
    return case


def _read_keys_text() -> str:
    """:data:`READ_KEYS` in one phrase: ``geometry.{half_width, ...}, material.block.density,
    ...``."""
    parts = []
    for section, names in READ_KEYS.items():
        if len(names) == 1:
            parts.append(f"{section}.{names[0]}")
        elif names:
            parts.append(f"{section}.{{{', '.join(names)}}}")
    return ", ".join(parts)


def unread_block_key(case: Any) -> str | None:
    """``"key: problem"`` for the first key of the block's sections that the rigid kind
    does not read (:data:`READ_KEYS`) and that is set away from its default; None if none.
    Such a key would be ignored, and a run that changes it changes no physics."""
    defaults = BlockModel()
    for section in READ_KEYS:
        table, default = _section(case, section), _section(defaults, section)
        for f in fields(table):
            value = getattr(table, f.name)
            if f.name in READ_KEYS[section] or value == getattr(default, f.name):
                continue
            return (f"{section}.{f.name}: got {_text(value)}, not read by the rigid block (of "
                    f"the block's sections it reads {_read_keys_text()}); allowed: leave it "
                    f"out, or its default {_text(getattr(default, f.name))}")
    return None


def _text(value: float | str) -> str:
    return repr(value) if isinstance(value, str) else f"{value:g}"


#: what ``rocking-contact keys`` says of the keys of the block's sections it does not read
UNREAD_KEY_DOCS = {
    f"{section}.{f.name}": ("not read by the rigid block (refused away from its default)", "")
    for section in READ_KEYS for f in fields(_section(BlockModel(), section))
    if f.name not in READ_KEYS[section]}

#: fields of an impact exported as quantities ``<level>.collision.<k>.<field>``
IMPACT_FIELDS = ("time", "kinetic_energy", "kinetic_energy_after", "energy_ratio",
                 "vy_before", "percussion_y", "percussion_x", "omega_before")


@dataclass(kw_only=True)
class RigidOptions:
    """``[rigid]``: the rigid-block solution (the table accelerations are ``[loading]``'s,
    as for the FEM cases)."""

    MOVED: ClassVar = {f"table_acceleration_{c}": f"loading.table_acceleration_{c}"
                       for c in "xy"}

    level: Level = param("nonlinear", doc="level of the collisions list, the unprefixed "
                         "quantities and the history: closed_form, linearised, nonlinear")
    restitution: float | None = param(
        None, check=FRACTION,
        doc="omega+/omega- at each impact; default from the angular momentum balance "
            "about the new pivot, (2R^2 - 3b^2)/(2R^2)")
    impacts: int = param(5, check=POSITIVE, doc="impacts tabulated and exported per level")
    recalage_restitution: float = param(
        SDNV105_RATIOS[0], check=FRACTION,
        doc="recalage: ratio on sqrt(kinetic energy); the default is the SDNV105 manual's, "
            "fitted on its elastic block and used for that block only")
    recalage_interval_ratio: float = param(
        SDNV105_RATIOS[1], check=FRACTION,
        doc="recalage: ratio of successive flight times; the default is the SDNV105 "
            "manual's, fitted on its elastic block and used for that block only")
    friction: float = param(0.9, check=NONNEGATIVE,
                            doc="Coulomb coefficient, only to warn when the block would slide")
    tolerance: float = param(1e-12, check=in_range(1e-13, 1e-6),
                             doc="relative tolerance of the integration")


@dataclass(kw_only=True)
class RigidCase(BlockModel, CaseFile):
    """A rigid-block case file (``case.kind = "rigid"``).

    ``[geometry]``, ``[material]``, ``[loading]`` and ``[preload]`` are the sections and
    keys of the FEM SDNV105 cases; it reads those of :data:`READ_KEYS` (of ``[material]``
    the block's ``density`` only, of ``[preload]`` the ``tilt``: the release angle about O)
    and refuses the others away from their defaults (:func:`unread_block_key`). In a FEM
    case ``tilt`` sets the pull of C1 (Code_Aster's input), which turns the block by
    :func:`~rocking_contact.block.release_angle` (``asin(tilt)`` with the pivot at O1: 2e-5
    relative at 0.01, 1.6 % at 0.3); the FEM cases compare themselves with the rigid block
    released at that angle.
    ``[time]``: the block is released at ``start``; the history is sampled every ``step``
    up to ``end`` (plus the instants of the events).
    """

    rigid: RigidOptions = param(default_factory=RigidOptions)
    time: TimeSpan = param()

    #: what ``rocking-contact keys`` says of a key shared with the FEM block, here
    KEY_DOCS: ClassVar = {**UNREAD_KEY_DOCS, "preload.tilt": (
        "release angle about O, at rest (0 starts flat); a FEM block case's preload.tilt "
        "is no angle but its sine (pivot O1, large rotation)", "rad")}

    def validate(self) -> None:
        unread = unread_block_key(self)
        if unread is not None:
            raise ValueError(unread)
        if self.loading.gravity <= 0.0:
            raise ValueError(NEEDS_GRAVITY)
        if self.rigid.level == "closed_form" and not self.loading.table_still:
            raise ValueError("rigid.level: the closed form holds for a release on a still "
                             "table only; with a table acceleration use 'linearised' or "
                             "'nonlinear'")




# ---------------------------------------------------------------------------------------
# Solving every level.


def block_of(case: Any) -> RigidBlock:
    """The rigid block of any case with ``geometry``, ``material.block`` and ``loading``
    (the rigid cases and the FEM SDNV105 cases)."""
    return RigidBlock.from_parameters(case.geometry, case.material.block, case.loading)


def recalage_ratios(case: Any, tilt: float | None = None
                    ) -> tuple[tuple[float, float] | None, str]:
    """The ratios of the ``recalage`` level for a case's block, or None and why not.

    The SDNV105 manual measured 0.79 (on the square root of the kinetic energy) and 0.77
    (on the flight times) on Code_Aster's elastic run of its block released from 0.01 rad:
    they sum up how that elastic block lost energy at its impacts, and say nothing of
    another block (0.5 m wide, b = 0.25 m, it keeps 0.335 of its energy per rigid impact,
    and 0.79^2 = 0.62 with them: its second impact came 18 % late and with 88 % more energy
    than the exact level's). They are used for SDNV105's block (:data:`SDNV105_BLOCK`, the
    release angle within :data:`TILT_TOLERANCE`) on a still table; ratios other than those
    are a fit of the case's own and are used as given, on any block.

    Args:
        case: a case with ``geometry``, ``material.block``, ``loading``, ``preload`` and,
            for a rigid case, ``[rigid]`` (the FEM cases take the manual's ratios).
        tilt: release angle (rad), default ``preload.tilt``.

    Returns:
        ``(ratios, note)``: ``(velocity, interval)`` ratios or None; ``note`` says why the
        level is left out (empty when it is computed, or when the table moves: the closed
        forms, this one included, describe a still table only).

    """
    rigid = getattr(case, "rigid", None)
    ratios = ((rigid.recalage_restitution, rigid.recalage_interval_ratio) if rigid is not None
              else SDNV105_RATIOS)
    if not case.loading.table_still:
        return None, ""
    if ratios != SDNV105_RATIOS:
        return ratios, ""
    given = {"geometry.half_width": case.geometry.half_width,
             "geometry.half_height": case.geometry.half_height,
             "material.block.density": case.material.block.density,
             "loading.gravity": case.loading.gravity,
             "release angle": case.preload.tilt if tilt is None else tilt}
    differ = [f"{name} {given[name]:g} {unit} (SDNV105's: {value:g})"
              for name, (value, unit) in SDNV105_BLOCK.items()
              if not math.isclose(given[name], value, rel_tol=TILT_TOLERANCE
                                  if name == "release angle" else 1e-9)]
    if not differ:
        return ratios, ""
    return None, (f"no recalage level: its ratios {ratios[0]:g} and {ratios[1]:g} were "
                  f"fitted by the SDNV105 manual on its elastic block, and this run has "
                  f"{', '.join(differ)}; give rigid.recalage_restitution and "
                  f"rigid.recalage_interval_ratio fitted on this block to compute it")


def rigid_levels(block: RigidBlock, tilt: float, *, count: int = 5, start: float = 0.0,
                 end: float, restitution: float | None = None,
                 table: TableMotion | None = None,
                 recalage_ratios: tuple[float, float] | None = None, tolerance: float = 1e-12,
                 samples: np.ndarray | None = None, max_step: float = math.inf,
                 progress: Callable[[float], None] | None = None,
                 ) -> tuple[dict[str, ImpactSequence], dict[str, RockingMotion]]:
    """Every level of the rigid solution for a release at rest from ``tilt`` (rad) about O.

    Args:
        block: the block.
        tilt: release angle (rad).
        count: impacts of the closed-form levels (the integrated ones keep all they find).
        start, end: release instant and end of the integration (s); the closed forms also
            leave out impacts after ``end`` (times are absolute: impact 1 is at start + t1).
        restitution: omega+/omega- (default: the block's angular momentum balance).
        table: table acceleration; when given, the closed-form levels are left out.
        recalage_ratios: (ratio on sqrt(energy), ratio of flight times) of ``recalage``;
            None leaves that level out (:func:`recalage_ratios` says which ratios, if any,
            describe a case's block).
        tolerance: relative tolerance of the integration.
        samples: history instants (s) of the integrated levels.
        max_step: largest integration step (s).
        progress: called with the simulated time (s) now and then.

    Returns:
        ``(sequences, motions)``: level -> :class:`ImpactSequence` for every level
        computed, and level -> :class:`RockingMotion` for the integrated ones.

    """
    table = table if table is not None else TableMotion()
    sequences: dict[str, ImpactSequence] = {}
    motions: dict[str, RockingMotion] = {}
    if table.still:
        span = end - start
        sequences["closed_form"] = _shifted(closed_form(block, tilt, count, restitution,
                                                        end=span), start)
        if recalage_ratios is not None:
            sequences["recalage"] = _shifted(recalage(
                block, tilt, count, velocity_ratio=recalage_ratios[0],
                interval_ratio=recalage_ratios[1], end=span), start)
    for equation in ("linearised", "nonlinear"):
        simulation = RockingSimulation(block, equation, restitution=restitution, table=table,
                                       tolerance=tolerance, max_step=max_step)
        motion = simulation.run(tilt, start, end, samples, progress)
        motions[equation] = motion
        sequences[equation] = motion.sequence
    return {level: sequences[level] for level in LEVELS if level in sequences}, motions


def _shifted(sequence: ImpactSequence, start: float) -> ImpactSequence:
    """A closed-form sequence (times from the release) in absolute time."""
    if start == 0.0:
        return sequence
    return replace(sequence, impacts=[replace(i, time=i.time + start) for i in sequence.impacts])


def sequence_quantities(sequence: ImpactSequence, count: int, prefix: str = "") -> dict[str, float]:
    """``<prefix>collision.<k>.<field>`` for the first ``count`` impacts, ``<prefix>lift.<k>``
    (k = 0 .. count) and ``<prefix>restitution``."""
    out: dict[str, float] = {f"{prefix}restitution": sequence.restitution}
    for impact in sequence.impacts[:count]:
        values = impact.as_dict()
        for name in IMPACT_FIELDS:
            out[f"{prefix}collision.{impact.index}.{name}"] = float(values[name])
    for lift in sequence.lifts[:count + 1]:
        out[f"{prefix}lift.{lift.index}"] = lift.height
    return out


def collisions_of(sequence: ImpactSequence) -> list[dict[str, Any]]:
    """The ``collisions`` list of a result: ``index``, ``time``, ``kinetic_energy`` (just
    before the impact), then the other fields of :class:`Impact`."""
    return [impact.as_dict() for impact in sequence.impacts]


def _flight_reactions(history: Mapping[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The pivot's normal and tangential reactions (N) while the block rocks."""
    flying = history["EKIN_BLOCK"] > 0.0
    return ((history["RN_O"] + history["RN_A"])[flying],
            (history["RX_O"] + history["RX_A"])[flying])


def friction_needed(history: Mapping[str, np.ndarray]) -> float:
    """The largest |RX|/RN of a rigid motion's history while it rocks: the Coulomb
    coefficient the block needs to rock without sliding (NaN if it never presses)."""
    rn, rx = _flight_reactions(history)
    pressed = rn > 0.0
    return float(np.max(np.abs(rx[pressed]) / rn[pressed])) if pressed.any() else math.nan


def _flight_checks(history: Mapping[str, np.ndarray],
                   friction: float) -> tuple[dict[str, float], list[str]]:
    """Largest |RX|/RN in flight, and warnings if the block would slide or jump."""
    rn, _ = _flight_reactions(history)
    warnings = []
    if rn.size and rn.min() <= 0.0:
        warnings.append(f"the pivot's normal force reaches {rn.min():.4g} N: the block would "
                        "jump (not modelled)")
    ratio = friction_needed(history)
    if ratio > friction:
        warnings.append(f"|RX|/RN reaches {ratio:.4f} > friction {friction:g}: the block "
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
    table = case.loading.table_motion(case_dir(case))
    samples = span.start + span.step * np.arange(span.n_steps + 1)
    ratios, recalage_note = recalage_ratios(case)
    try:
        sequences, motions = rigid_levels(
            block, case.preload.tilt, count=opts.impacts, start=span.start, end=span.end,
            restitution=opts.restitution, table=table, recalage_ratios=ratios,
            tolerance=opts.tolerance, samples=samples,
            progress=None if progress is None else progress.update)
    except RuntimeError as exc:
        raise SolverFailure(str(exc)) from None
    history_level = "nonlinear" if opts.level == "closed_form" else opts.level
    motion = motions[history_level]
    chosen = sequences[opts.level]
    quantities: dict[str, float] = {}
    for level, sequence in sequences.items():
        quantities.update(sequence_quantities(sequence, opts.impacts, f"{level}."))
    quantities.update(sequence_quantities(chosen, opts.impacts))
    quantities.update(_global_quantities(block, chosen, motion, history_level, table.still))
    flight, warnings = _flight_checks(motion.history, opts.friction)
    warnings += case.loading.held_records(case.time.start, case.time.end, case_dir(case))
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
    return RunResult(
        case=case.case.name, kind=case.case.kind, parameters=as_dict(case),
        history=motion.history, quantities=quantities, collisions=collisions_of(chosen),
        extra=extra, timing={"wall_s": time.perf_counter() - t_wall,
                             "steps": len(motion.history["time"])}, warnings=warnings)


# ---------------------------------------------------------------------------------------
# Comparing another run's collisions with the rigid levels (for the FEM SDNV105 cases).


def reference_collisions(case: Any, *, count: int = 5, release: float = 0.0,
                         end: float | None = None, tilt: float | None = None
                         ) -> dict[str, ImpactSequence]:
    """The rigid levels' impacts for the block and the tilt of any SDNV105 case
    (:func:`reference_motions` without the motions)."""
    return reference_motions(case, count=count, release=release, end=end, tilt=tilt)[0]


def reference_motions(case: Any, *, count: int = 5, release: float = 0.0,
                      end: float | None = None, tilt: float | None = None
                      ) -> tuple[dict[str, ImpactSequence], dict[str, RockingMotion]]:
    """The rigid levels for the block and the tilt of any SDNV105 case.

    Args:
        case: a case with ``geometry``, ``material.block``, ``loading``, ``preload.tilt``
            (and ``time.end`` when ``end`` is not given).
        count: impacts of the closed-form levels.
        release: instant of the release (s); SDNV105 releases at t = 0.
        end: end of the integration (s), default ``case.time.end``.
        tilt: angle of the block about O at the release (rad), default ``preload.tilt``
            (a FEM case gives the angle its preload reaches, which the pull of C1 sets).

    Returns:
        ``(sequences, motions)`` of :func:`rigid_levels`: level -> :class:`ImpactSequence`
        for ``closed_form``, ``linearised``, ``nonlinear``, ``recalage`` (SDNV105's block
        only, :func:`recalage_ratios`; the closed forms on a still table only), and the
        integrated levels' motions (histories with ``RN_O``, ``RX_O``, ...).

    """
    stop = case.time.end if end is None else end
    angle = case.preload.tilt if tilt is None else tilt
    return rigid_levels(block_of(case), angle, count=count, start=release, end=stop,
                        table=case.loading.table_motion(case_dir(case)),
                        recalage_ratios=recalage_ratios(case, angle)[0])


def compare_collisions(collisions: Sequence[Mapping[str, Any]],
                       references: Mapping[str, ImpactSequence], *, release: float = 0.0
                       ) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """Compare a run's collisions (``index``, ``time``, ``kinetic_energy``) with each level.

    Each collision is compared with the level's impact of the same number: its ``impact``
    (the how-many-th impact of the run it is,
    :func:`rocking_contact.post.collisions.find_collisions`; None, not compared, when the
    maximum is none of the run's impacts), or its ``index`` for a collision without that
    key. A run whose physics moves its impacts across the case's windows (heavier gravity,
    another tilt) would be compared with the wrong impact by window number; by time it
    would too, once its flights have drifted by half of one (SDNV105 A's fifth impact,
    0.306 s, is nearer the rigid sixth than the fifth).
    Instants are compared as times since the ``release`` (s): ``time_error`` is
    ``(t - release) / (t_level - release) - 1``.

    Returns:
        ``rows``: one per collision of the run, with, per level, the matched ``impact``
        (its number in the level), the level's ``time`` and ``kinetic_energy`` and the
        relative differences ``time_error`` and ``energy_error`` ((ours - level) / level);
        ``quantities``: ``rigid.<level>.collision.<k>.{impact, time, kinetic_energy,
        time_error, energy_error}``, ready to merge into a result's quantities.

    """
    rows: list[dict[str, Any]] = []
    quantities: dict[str, float] = {}
    for collision in collisions:
        k = int(collision["index"])
        number = collision.get("impact", k)
        if number is None:
            continue
        row: dict[str, Any] = {"index": k, "time": collision["time"],
                               "kinetic_energy": collision["kinetic_energy"], "levels": {}}
        for level, sequence in references.items():
            if number > len(sequence.impacts):
                continue
            ref = sequence.impacts[number - 1]
            values = {"impact": number, "time": ref.time, "kinetic_energy": ref.kinetic_energy,
                      "time_error": (collision["time"] - release) / (ref.time - release) - 1,
                      "energy_error": collision["kinetic_energy"] / ref.kinetic_energy - 1.0}
            row["levels"][level] = values
            for name, value in values.items():
                quantities[f"rigid.{level}.collision.{k}.{name}"] = value
        rows.append(row)
    return rows, quantities


#: the rigid case whose levels, options and references a block case's twin takes
TWIN_BASE = "sdnv105_rigid"


def rigid_twin(block_case: Any) -> Any:
    """The rigid case of a FEM block case: its block (geometry, density, gravity, table
    motion), released at the angle its preload gives (``release_angle``) at
    ``time.start``, up to ``time.end``, with the levels and options of :data:`TWIN_BASE`
    and no quantities or references (those describe SDNV105's block and windows).

    Its name is the block case's with ``_rigid``.
    """
    from rocking_contact.config import load_case

    overrides: dict[str, Any] = {
        "case.name": f"{block_case.case.name}_rigid",
        "case.title": f"{block_case.case.title} (rigid block)",
        "case.description": f"the rigid block of {block_case.case.name}",
        "geometry.half_width": block_case.geometry.half_width,
        "geometry.half_height": block_case.geometry.half_height,
        # the rigid block needs no table; its view draws the block case's
        "geometry.table_left": block_case.geometry.table_left,
        "geometry.table_right": block_case.geometry.table_right,
        "material.block.density": block_case.material.block.density,
        "loading.gravity": block_case.loading.gravity,
        "preload.tilt": block_case.release_angle,
        "time.start": block_case.time.start,
        "time.end": block_case.time.end,
        "quantity": [],
        "reference": [],
    }
    for axis in ("table_acceleration_x", "table_acceleration_y"):
        function = getattr(block_case.loading, axis)
        read = ("type", *type(function).VARIANTS["type"][function.type])
        overrides[f"loading.{axis}"] = {key: getattr(function, key) for key in read}
    return load_case(TWIN_BASE, overrides)
