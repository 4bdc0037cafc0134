"""The ``rigid`` kind's case file: the keys a rigid-block case reads (``[rigid]``, and the
block's sections it shares with the FEM SDNV105 cases), checked as it is loaded.

Light (no integrator): loading a case imports only this schema; the run is
:mod:`rocking_contact.analytic.rigid_runner`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal

from rocking_contact.block import BlockModel, Preload, release_angle
from rocking_contact.config import (
    NONNEGATIVE,
    POSITIVE,
    CaseFile,
    Check,
    TimeSpan,
    in_range,
    param,
    row_count_problem,
)

Level = Literal["closed_form", "linearised", "nonlinear"]

#: a restitution (a ratio of angular velocities): 0 would stop the block at the first impact,
#: and there would be no sequence of impacts to tabulate
FRACTION = Check(lambda x: 0.0 < x <= 1.0, "a number in (0, 1]")

#: the rigid levels' message for a block without gravity (released at rest, it does not move)
NEEDS_GRAVITY = ("loading.gravity: got 0, allowed: > 0 for the rigid-block levels (released at "
                 "rest without gravity, the block does not rock)")

#: the SDNV105 manual's recalage ratios, on the square root of the kinetic energy and on the
#: flight times, measured on Code_Aster's run of its elastic block
SDNV105_RATIOS = (0.79, 0.77)

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
    "preload": ("tilt", "angle"),
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

@dataclass(kw_only=True)
class RigidPreload(Preload):
    """``[preload]`` of the rigid kind: the release from rest at ``time.start``, given as a
    FEM block case gives it (``tilt``, the pull of C1, read with the pivot at O1 in large
    rotation: :func:`~rocking_contact.block.release_angle`, ``asin(tilt)``), or as the
    angle itself (``angle``, rad). Of the two, the one given last is read (an override, or
    the file that extends the other's): ``rigid --set preload.tilt=0.3`` on
    ``sdnv105_rigid``, whose file gives ``angle = 0.01``, releases at 0.304693 rad, as
    ``run --set preload.tilt=0.3`` does the FEM block; both given together are refused
    (:mod:`~rocking_contact.config.refusals` ``REPLACES``)."""

    #: ``angle``, given, replaces ``tilt``'s reading (the loader keeps the one given last)
    REPLACES: ClassVar = {"angle": "tilt"}

    # up to the angle the largest tilt (0.5) releases at, asin(0.5) = pi/6, so that the two
    # keys allow the same releases; SDNV105's block overturns statically at atan(b/l) =
    # 0.4229 rad, and a rigid block's toppling is a result of its run, not refused
    angle: float | None = param(
        None, unit="rad", check=in_range(0.0, math.asin(0.5)),
        doc="release angle about O, at rest (0 starts flat); given, it replaces tilt, "
            "which gives it as a FEM block case does (asin(tilt))")


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
    # None only for the twin of a block whose base cannot slide (a TOML file cannot say it)
    friction: float | None = param(
        0.9, check=NONNEGATIVE,
        doc="Coulomb coefficient, only to warn when the block would slide; the rigid twin of "
            "a block case takes the block's (its contact.mu, or the least of its springs' "
            "that are not anchored; none, and no warning, for a base held in x)")
    tolerance: float = param(1e-12, check=in_range(1e-13, 1e-6),
                             doc="relative tolerance of the integration")


@dataclass(kw_only=True)
class RigidCase(BlockModel, CaseFile):
    """A rigid-block case file (``case.kind = "rigid"``).

    ``[geometry]``, ``[material]``, ``[loading]`` and ``[preload]`` are the sections and
    keys of the FEM SDNV105 cases, with the same meanings; it reads those of
    :data:`READ_KEYS` (of ``[material]`` the block's ``density`` only, of ``[preload]`` the
    ``tilt`` or its own ``angle``: :class:`RigidPreload`) and refuses the others away from
    their defaults (:func:`unread_block_key`). ``tilt`` is, as in a FEM case, the pull of
    C1 (Code_Aster's input, a ratio: the lift of C1 over 2 l), which turns the block by
    :func:`~rocking_contact.block.release_angle` (``asin(tilt)`` with the pivot at O1: 2e-5
    relative above ``tilt`` at 0.01, 1.6 % at 0.3); ``angle`` gives the release angle
    itself (rad). The block is released at :attr:`release_angle`.
    ``[time]``: the block is released at ``start``; the history is sampled every ``step``
    up to ``end`` (plus the instants of the events).
    """

    preload: RigidPreload = param(default_factory=RigidPreload)
    rigid: RigidOptions = param(default_factory=RigidOptions)
    time: TimeSpan = param()

    #: a FEM block case's sections that a rigid case has not, and where their meaning is,
    #: so that ``rigid --set contact.mu=0.3`` is told more than the allowed sections
    ELSEWHERE: ClassVar = {"contact": "a rigid block has no [contact]: its Coulomb "
                                      "coefficient, a block case's contact.mu, is "
                                      "rigid.friction"}

    #: the keys of the sections shared with the FEM block that the rigid block never reads
    #: (refused away from their defaults; the report greys them)
    NEVER_READ: ClassVar[frozenset[str]] = frozenset(UNREAD_KEY_DOCS)
    #: what ``rocking-contact keys`` says of a key shared with the FEM block, here
    KEY_DOCS: ClassVar = {**UNREAD_KEY_DOCS, "preload.tilt": (
        "the release as a FEM block case gives it: no angle but the sine of the release "
        "angle about O (a ratio, no unit: Code_Aster's pull of the top-middle point C1 by "
        "-2 l tilt with pivot O1, the block turning rigidly; 0.3: 0.304693 rad); "
        "preload.angle gives the angle itself, and the one given last is read (rigid case "
        "files of earlier versions read tilt as the angle: give those angles as "
        "preload.angle)", "")}

    @property
    def release_angle(self) -> float:
        """Rotation about O (rad) of the block at the release: ``preload.angle`` if given,
        else the angle the pull ``preload.tilt`` gives a rigid block turning about O
        (:func:`~rocking_contact.block.release_angle`, pivot O1: ``asin(tilt)``)."""
        if self.preload.angle is not None:
            return self.preload.angle
        return release_angle(self.geometry, self.preload, large_rotation=True)

    def validate(self) -> None:
        unread = unread_block_key(self)
        if unread is not None:
            raise ValueError(unread)
        if self.loading.gravity <= 0.0:
            raise ValueError(NEEDS_GRAVITY)
        # a row at every time.step, held in memory (2e6 rows take 1.34 GB): bound the count
        rows = row_count_problem(self.time)
        if rows is not None:
            raise ValueError(": ".join(rows))
        if self.rigid.level == "closed_form" and not self.loading.table_still:
            raise ValueError("rigid.level: the closed form holds for a release on a still "
                             "table only; with a table acceleration use 'linearised' or "
                             "'nonlinear'")
