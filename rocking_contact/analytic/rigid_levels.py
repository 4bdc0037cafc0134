"""Every level of the rigid solution for one block and release, and the comparison of
another run's collisions with them (the FEM SDNV105 cases' ``rigid.*`` quantities).

Levels: ``closed_form`` (the manual's first-order formulas), ``linearised`` and
``nonlinear`` (the rigid equations integrated with impact events), ``recalage`` (the
manual's first-order chain with the effective ratios fitted on its elastic block; for that
block only unless a case gives its own, :func:`recalage_ratios`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

import numpy as np

from rocking_contact.analytic.rigid_block import (
    ImpactSequence,
    RigidBlock,
    closed_form,
    recalage,
)
from rocking_contact.analytic.rigid_case import SDNV105_RATIOS
from rocking_contact.analytic.rigid_motion import RockingMotion, RockingSimulation
from rocking_contact.loads import TableMotion

#: every level a run computes, in the order of the printed tables
LEVELS = ("closed_form", "linearised", "nonlinear", "recalage")

#: the block and release they were measured on: key -> (value, unit); the thickness scales
#: every force and mass alike, and changes nothing
SDNV105_BLOCK = {"geometry.half_width": (0.18, "m"), "geometry.half_height": (0.40, "m"),
                 "material.block.density": (1450.0, "kg/m3"), "loading.gravity": (9.81, "m/s2"),
                 "release angle": (0.01, "rad")}

#: how far a release angle may be from SDNV105's 0.01 rad for its recalage (relative): the
#: FEM preloads release its block at 0.0100002 (pivot O1) and 0.0099889 rad (pivot O)
TILT_TOLERANCE = 0.01

#: fields of an impact exported as quantities ``<level>.collision.<k>.<field>``
IMPACT_FIELDS = ("time", "kinetic_energy", "kinetic_energy_after", "energy_ratio",
                 "vy_before", "percussion_y", "percussion_x", "omega_before")


class Comparison(NamedTuple):
    """A collision compared with a rigid level's impact (:func:`compare_collisions`): its
    fields are the quantities ``rigid.<level>.collision.<k>.<field>``."""

    #: the level's impact it is compared with: its number among the level's impacts
    impact: int
    #: the level's impact: its instant (s) and the kinetic energy before it (J)
    time: float
    kinetic_energy: float
    #: relative differences (ours - level) / level: of the times since the release, of the
    #: kinetic energies
    time_error: float
    energy_error: float


def block_of(case: Any) -> RigidBlock:
    """The rigid block of any case with ``geometry``, ``material.block`` and ``loading``
    (the rigid cases and the FEM SDNV105 cases)."""
    return RigidBlock.from_parameters(case.geometry, case.material.block, case.loading)


def recalage_ratios(case: Any, tilt: float | None = None
                    ) -> tuple[tuple[float, float] | None, str]:
    """The ratios of the ``recalage`` level for a case's block, or None and why not.

    The SDNV105 manual gives 0.79 (on the square root of the kinetic energy) and 0.77
    (on the flight times), measured on Code_Aster's elastic run of its block released from
    0.01 rad: they sum up how that elastic block loses energy at its impacts, and say
    nothing of another block (0.5 m wide, b = 0.25 m, it keeps 0.335 of its energy per
    rigid impact, and 0.79^2 = 0.62 with them: its second impact comes 18 % late and with
    88 % more energy than the exact level's). They are used for SDNV105's block
    (:data:`SDNV105_BLOCK`, the release angle within :data:`TILT_TOLERANCE`) on a still
    table; ratios other than those are a fit of the case's own and are used as given, on
    any block.

    Args:
        case: a case with ``geometry``, ``material.block``, ``loading``, ``preload`` and,
            for a rigid case, ``[rigid]`` (the FEM cases take the manual's ratios).
        tilt: release angle (rad), default :func:`default_angle`.

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
             "release angle": default_angle(case) if tilt is None else tilt}
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
                 stop: Callable[[], bool] | None = None, history: str | None = None,
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
        history: the integrated level whose history is recorded at ``samples`` (the
            other's at its events only); default: both.
        max_step: largest integration step (s).
        progress: called now and then with the simulated time (s) every integrated level
            has reached (they are integrated side by side), and with ``end`` when they are
            done.
        stop: asked after each piece of an integration
            (:meth:`~.rigid_motion.RockingSimulation.steps`); True stops them there
            (Ctrl-C: :func:`rocking_contact.interrupt.requested`).

    Returns:
        ``(sequences, motions)``: level -> :class:`ImpactSequence` for every level
        computed, and level -> :class:`RockingMotion` for the integrated ones.

    Raises:
        LevelsStopped: ``stop`` said True; it carries the levels so far.

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
    simulations = {equation: RockingSimulation(block, equation, restitution=restitution,
                                               table=table, tolerance=tolerance,
                                               max_step=max_step)
                   for equation in ("linearised", "nonlinear")}
    stopped = not _side_by_side(
        {equation: s.steps(tilt, start, end,
                           samples if history in (None, equation) else None)
         for equation, s in simulations.items()},
        start, end, progress, stop)
    for equation, simulation in simulations.items():
        motions[equation] = simulation.motion()
        sequences[equation] = motions[equation].sequence
    levels = {level: sequences[level] for level in LEVELS if level in sequences}
    if stopped:
        raise LevelsStopped(levels, motions)
    return levels, motions


class LevelsStopped(Exception):
    """:func:`rigid_levels` stopped by its ``stop``: ``sequences`` and ``motions`` as it
    returns them, the integrated levels up to where they got (their outcome
    ``"interrupted"``, :meth:`~.rigid_motion.RockingSimulation.steps`), the closed forms
    whole."""

    def __init__(self, sequences: dict[str, ImpactSequence],
                 motions: dict[str, RockingMotion]):
        super().__init__("the rigid levels were stopped")
        self.sequences, self.motions = sequences, motions


def _side_by_side(steps: Mapping[str, Iterator[float]], start: float, end: float,
                  progress: Callable[[float], None] | None,
                  stop: Callable[[], bool] | None) -> bool:
    """Advance the integrations ``steps`` (their simulated time) side by side, the one
    behind first, so that they reach each instant together: one progress over the whole
    run (not 0 to 100 % once per level, restarting at 0 %), and a stop leaves every level
    at about the same instant. Returns False if ``stop`` stopped them."""
    running = dict(steps)
    reached = dict.fromkeys(running, start)
    while running:
        behind = min(running, key=reached.__getitem__)
        try:
            reached[behind] = next(running[behind])
        except StopIteration:
            del running[behind]
            reached[behind] = end
            continue
        if progress is not None:
            progress(min(reached.values()))
        # not before every level took a piece: one that had not begun has no motion to
        # give, nor any history row (a stop at once, or a failed integration integrated
        # again up to the release, asked one for its motion: AttributeError)
        if stop is not None and min(reached.values()) > start and stop():
            return False
    if progress is not None:  # the 100 % line, also where the levels ended early
        progress(end)
    return True


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

def flight_reactions(history: Mapping[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The pivot's normal and tangential reactions (N) while the block rocks."""
    flying = history["EKIN_BLOCK"] > 0.0
    return ((history["RN_O"] + history["RN_A"])[flying],
            (history["RX_O"] + history["RX_A"])[flying])


def friction_needed(history: Mapping[str, np.ndarray]) -> float:
    """The largest |RX|/RN of a rigid motion's history while it rocks: the Coulomb
    coefficient the block needs to rock without sliding (NaN if it never presses)."""
    rn, rx = flight_reactions(history)
    pressed = rn > 0.0
    return float(np.max(np.abs(rx[pressed]) / rn[pressed])) if pressed.any() else math.nan


def reference_collisions(case: Any, *, count: int = 5, release: float = 0.0,
                         end: float | None = None, tilt: float | None = None
                         ) -> dict[str, ImpactSequence]:
    """The rigid levels' impacts for the block and the tilt of any SDNV105 case
    (:func:`reference_motions` without the motions)."""
    return reference_motions(case, count=count, release=release, end=end, tilt=tilt)[0]


def default_angle(case: Any) -> float:
    """The release angle (rad) the rigid levels of ``case`` take when given none: a rigid
    case's own (``preload.angle``, or the angle its pull ``preload.tilt`` gives, as in a
    FEM case); a FEM case's ``preload.tilt`` taken as the angle, as the manual's rigid table
    does (0.01 rad for SDNV105, where the pull gives 0.0100002 rad)."""
    rigid = getattr(case, "rigid", None) is not None
    return float(case.release_angle if rigid else case.preload.tilt)


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
        tilt: angle of the block about O at the release (rad), default
            :func:`default_angle` (the FEM runs give the angle their preload reaches,
            which the pull of C1 sets).

    Returns:
        ``(sequences, motions)`` of :func:`rigid_levels`: level -> :class:`ImpactSequence`
        for ``closed_form``, ``linearised``, ``nonlinear``, ``recalage`` (SDNV105's block
        only, :func:`recalage_ratios`; the closed forms on a still table only), and the
        integrated levels' motions (histories with ``RN_O``, ``RX_O``, ...).

    """
    stop = case.time.end if end is None else end
    angle = default_angle(case) if tilt is None else tilt
    return rigid_levels(block_of(case), angle, count=count, start=release, end=stop,
                        table=case.loading.table_motion(),
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
            values = Comparison(
                impact=number, time=ref.time, kinetic_energy=ref.kinetic_energy,
                time_error=(collision["time"] - release) / (ref.time - release) - 1,
                energy_error=collision["kinetic_energy"] / ref.kinetic_energy - 1.0)._asdict()
            row["levels"][level] = values
            for name, value in values.items():
                quantities[f"rigid.{level}.collision.{k}.{name}"] = value
        rows.append(row)
    return rows, quantities
