"""Parameters of the block-on-table model (SDNV105), shared by the FEM cases and the
rigid-body reference solver, so that both read the same case-file keys.

Geometry (m), y up, origin at the block's bottom-left corner O; the block spans
[0, 2b] x [0, 2l]; the table top is at y = 0 from ``table_left`` to ``table_right``.
Defaults are the SDNV105 values (CASES.md section 1 restated in the case files).

Case-file sections: ``[geometry]``, ``[material.block]``, ``[material.table]``,
``[loading]``, ``[preload]``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from rocking_contact.config import (
    FINITE,
    POSITIVE,
    Check,
    Conflict,
    in_range,
    param,
)
from rocking_contact.loads import (
    TableMotion,
    TimeFunction,
    few_samples,
    held_values,
    time_function_callable,
    time_function_features,
)


@dataclass(kw_only=True)
class Geometry:
    """``[geometry]``: the block and its table (m)."""

    half_width: float = param(0.18, unit="m", check=POSITIVE, doc="b")
    half_height: float = param(0.40, unit="m", check=POSITIVE, doc="l")
    thickness: float = param(1.0, unit="m", check=POSITIVE, doc="e, out of plane")
    table_left: float = param(-0.18, unit="m", check=FINITE, doc="x of the table's left end")
    table_right: float = param(0.54, unit="m", check=FINITE, doc="x of the table's right end")
    table_thickness: float = param(0.08, unit="m", check=POSITIVE)

    def check_table(self) -> None:
        """Refuse a table that does not reach under both corners (the FEM models; the rigid
        block stands on a table without ends). Keys are dotted from the case's top, and a
        rule of two keys is a :class:`~rocking_contact.config.Conflict`: the loader names
        the one given last (a child's wider block under its parent's table is the
        child's ``half_width``, not the parent's ``table_right``)."""
        if self.table_left > 0.0:
            raise ValueError(f"geometry.table_left: got {self.table_left:g}, allowed: a "
                             "number <= 0 (the table reaches under corner O at x = 0)")
        right, corner = self.table_right, 2 * self.half_width
        if right < corner:
            raise Conflict({
                "geometry.table_right": f"{right:g} ends before corner A at 2 b = "
                                        f"{corner:g} m; allowed: a table_right >= {corner:g}",
                "geometry.half_width": f"{self.half_width:g} puts corner A at 2 b = "
                                       f"{corner:g} m, past the table's right end "
                                       f"table_right = {right:g}; allowed: a half_width <= "
                                       f"{right / 2:g}, or geometry.table_right >= "
                                       f"{corner:g}"})

    @property
    def radius(self) -> float:
        """R = sqrt(b^2 + l^2), distance from a base corner to the centre of mass (m)."""
        return corner_radius(self.half_width, self.half_height)

    @property
    def overturn_angle(self) -> float:
        """atan(b / l) (rad): turned this far on a corner, the block has its centre of mass
        above the corner, and gravity turns it further (it topples)."""
        return static_overturn_angle(self.half_width, self.half_height)


def corner_radius(half_width: float, half_height: float) -> float:
    """R = sqrt(b^2 + l^2) (m): from a base corner of a block of half-width ``b`` and
    half-height ``l`` (m) to its centre of mass."""
    return math.hypot(half_width, half_height)


def static_overturn_angle(half_width: float, half_height: float, *,
                          linearised: bool = False) -> float:
    """|theta| (rad) of the unstable equilibrium over a base corner, without table motion.

    Beyond it gravity turns the block further: it topples. ``atan(b / l)``, the centre of
    mass above the corner; ``b / l`` where the rocking equation is linearised in theta
    (its gravity moment ``M g (b - l |theta|)`` vanishes there).
    """
    ratio = half_width / half_height
    return ratio if linearised else math.atan(ratio)


def overturn_limit(static_angle: float, table_still: bool) -> float:
    """|theta| (rad) at which a rocking block has overturned.

    On a still table it is the static overturning angle ``static_angle`` (``atan(b/l)``:
    past it gravity alone turns the block further). A moving table can pull the block back
    from beyond that angle (shaken at 8 m/s^2 and 1 Hz from rest, the rigid block turns to
    0.597 rad and comes back), so there the block has overturned when it lies on its side,
    at pi/2.
    """
    return static_angle if table_still else math.pi / 2


@dataclass(kw_only=True)
class Material:
    """``[material.block]`` / ``[material.table]``: isotropic elastic, plane stress.

    Rayleigh damping C = rayleigh_stiffness K + rayleigh_mass M (Code_Aster's AMOR_ALPHA is
    ``rayleigh_stiffness``, AMOR_BETA ``rayleigh_mass``).
    """

    young: float = param(unit="Pa", check=POSITIVE)
    poisson: float = param(check=in_range(-0.99, 0.499))
    density: float = param(unit="kg/m3", check=POSITIVE)
    # Bounds far past any structure's damping (1 s of stiffness damping gives SDNV105's
    # block's first elastic mode a damping ratio of ~1e4), below the overflow of the forms
    # (1e300 stops the preload with a PETSc traceback)
    rayleigh_stiffness: float = param(0.0, unit="s", check=in_range(0.0, 1.0))
    rayleigh_mass: float = param(0.0, unit="1/s", check=in_range(0.0, 1e6))


def block_material() -> Material:
    """SDNV105 block material."""
    return Material(young=6.0e11, poisson=0.2, density=1450.0, rayleigh_stiffness=1.0e-4)


def table_material() -> Material:
    """SDNV105 table material."""
    return Material(young=1.0e14, poisson=0.3, density=2500.0, rayleigh_stiffness=1.0e-3)


@dataclass(kw_only=True)
class Materials:
    """``[material]``: one table per region."""

    block: Material = param(default_factory=block_material)
    table: Material = param(default_factory=table_material)


#: gravity is a magnitude: a signed -9.81 (a y component) is told so, not only ">= 0"
GRAVITY = Check(lambda g: g >= 0, "a number >= 0, the magnitude (gravity acts along -y)")


@dataclass(kw_only=True)
class Loading:
    """``[loading]``: gravity along -y and the table's acceleration (m/s^2).

    The table accelerations ux(t) along +x and uy(t) along +y (up) start at the release
    (``time.start``). The FEM models are solved in the table's frame: every body feels the
    drag ``-rho (ux, uy)`` and the displacements are relative to the table's base.
    """

    gravity: float = param(9.81, unit="m/s2", check=GRAVITY,
                           doc="its magnitude; it acts along -y")
    table_acceleration_x: TimeFunction = param(default_factory=TimeFunction, unit="m/s2")
    table_acceleration_y: TimeFunction = param(default_factory=TimeFunction, unit="m/s2")

    @property
    def table_still(self) -> bool:
        """True when no table acceleration is given."""
        return self.table_acceleration_x.type == "zero" and self.table_acceleration_y.type == "zero"

    def held_records(self, start: float, end: float) -> list[str]:
        """A sentence per table-acceleration record that ends (or starts) inside the run
        ``[start, end]`` (s) on a nonzero value, which is held
        (:func:`rocking_contact.loads.held_values`)."""
        return [w for axis in ("x", "y") for w in held_values(
            getattr(self, f"table_acceleration_{axis}"), f"loading.table_acceleration_{axis}",
            start, end)]

    def few_samples(self, step: float, *seen: str) -> list[str]:
        """A sentence per table-acceleration sine that a run sampling it every ``step``
        (s, its longest step) sees coarsely, in fewer than ten samples a period
        (:func:`rocking_contact.loads.few_samples`, ``seen`` saying what that
        does; fewer than two are refused as the case is loaded)."""
        return [w for axis in ("x", "y") for w in few_samples(
            getattr(self, f"table_acceleration_{axis}"), f"loading.table_acceleration_{axis}",
            step, *seen)]

    def table_motion(self) -> TableMotion:
        """The table accelerations as functions of time."""

        def function(f: TimeFunction) -> Callable[[float], float] | None:
            return None if f.type == "zero" else time_function_callable(f)

        both = (self.table_acceleration_x, self.table_acceleration_y)
        features = [time_function_features(f) for f in both]
        return TableMotion(function(self.table_acceleration_x),
                           function(self.table_acceleration_y),
                           resolution=min(resolution for resolution, _ in features),
                           breakpoints=tuple(sorted({t for _, times in features for t in times})))


@dataclass(kw_only=True)
class Preload:
    """``[preload]``: the static tilt before release at t = 0.

    The top-middle point C1 is pulled horizontally by ``-2 l tilt`` (dx = -0.008 m for
    tilt = 0.01, Code_Aster's input) with the base held at ``pivot`` in x, which rotates the
    block about corner O (positive lifting corner A) by :func:`release_angle`: ``atan(tilt)``
    in small strain, ``asin(tilt)`` with the pivot at O1 in large rotation (0.0100002 rad),
    a little less with O (0.0099889 rad). ``tilt`` is a ratio, no angle (no unit); the
    rigid kind reads it so too, as a rigid block turning about O with the pivot at O1
    (``asin(tilt)``), and has its own key for the angle itself
    (:class:`~rocking_contact.analytic.rigid_case.RigidPreload`).
    """

    # No unit: a ratio (the lift of C1 over 2 l); each kind's KEY_DOCS says what release
    # angle it gives there (the FEM block's kinematics and pivot decide it)
    tilt: float = param(0.01, check=in_range(0.0, 0.5))
    pivot: str = param("O1", doc="base point held in x during the tilt (O1: test A, O: B)")

    def validate(self) -> None:
        if self.pivot not in ("O", "O1"):
            raise ValueError(f"pivot: got {self.pivot!r}, allowed: 'O', 'O1'")


def release_angle(geometry: Geometry, preload: Preload, large_rotation: bool) -> float:
    """Rotation about O (rad) that the preload's pull of C1 gives a rigid block: the angle
    of its base chord OA.

    Small strain: ``atan(tilt)`` (the displacements are a linearised rotation by ``tilt``).
    Large rotation: the pivot at abscissa ``d`` keeps its
    x and C1 moves by ``-2 l tilt``, so ``(b - d) (cos theta - 1) - 2 l sin theta =
    -2 l tilt`` (``d = b`` for O1, 0 for O).
    """
    if not large_rotation:
        return math.atan(preload.tilt)
    b, l2 = geometry.half_width, 2 * geometry.half_height
    lever = b if preload.pivot == "O" else 0.0  # b - d
    theta = math.asin(min(preload.tilt, 1.0))
    for _ in range(50):  # Newton from the O1 answer; the function is smooth and monotone
        f = lever * (math.cos(theta) - 1) - l2 * math.sin(theta) + l2 * preload.tilt
        step = f / (-lever * math.sin(theta) - l2 * math.cos(theta))
        theta -= step
        if abs(step) <= 1e-15:
            break
    return theta


def release_tilt(geometry: Geometry, pivot: str, angle: float, large_rotation: bool) -> float:
    """The ``preload.tilt`` whose pull gives the release angle ``angle`` (rad): the
    inverse of :func:`release_angle`."""
    if not large_rotation:
        return math.tan(angle)
    b, l2 = geometry.half_width, 2 * geometry.half_height
    lever = b if pivot == "O" else 0.0
    return (l2 * math.sin(angle) - lever * (math.cos(angle) - 1)) / l2


def block_mass(geometry: Geometry, block: Material) -> float:
    """M = 4 rho b l e (kg): 417.6 kg for SDNV105."""
    return 4.0 * block.density * geometry.half_width * geometry.half_height * geometry.thickness


@dataclass(kw_only=True)
class BlockModel:
    """The shared sections of the block cases: ``[geometry]``, ``[material]``,
    ``[loading]``, ``[preload]`` (schemas of the FEM and rigid-body kinds derive from it)."""

    geometry: Geometry = param(default_factory=Geometry)
    material: Materials = param(default_factory=Materials)
    loading: Loading = param(default_factory=Loading)
    preload: Preload = param(default_factory=Preload)
