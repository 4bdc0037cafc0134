"""Schema of a ``block`` case file: the elastic block on its table (SDNV105 family).

Shared sections (read the same way by the rigid-body reference solver):
``[geometry]``, ``[material.block]``, ``[material.table]``, ``[loading]``, ``[preload]``
(:mod:`rocking_contact.block`). Sections of this kind:

- ``[mesh]``: layout ``aster`` | ``structured``, ``element_size``, ``cell``, ``order``, ``table``;
- ``[kinematics]``: ``type = "large_rotation"`` (Code_Aster's GROT_GDEP, the default) or
  ``"small_strain"``;
- ``[initial]``: ``state = "preload"`` (static gravity, then the tilt, then release at
  ``time.start`` with zero velocity) or ``"rest"`` (undeformed, with a uniform velocity);
- ``[time]``: ``start``, ``end``, ``step`` and ``[[time.window]]`` (``start``, ``end``,
  ``step``, optional ``alpha`` and ``scheme``) where the step (and the scheme) differ;
- ``[scheme]``: ``type = "newmark"`` (``beta``, ``gamma``), ``"alpha_newmark"`` (Code_Aster
  HHT with MODI_EQUI='NON', ``alpha``), ``"hht"`` (``alpha``) or ``"theta"`` (``theta``);
- ``[solver]``: Newton tolerances, halvings, linear solver;
- ``[[constraint]]``: supports of the dynamic phase, which hold the block when
  ``contact.treatment = "none"`` (the pin at O of ``sdnv105_preload``); the table's own
  supports (CTGROUND in y, S1 in x) are always applied when the table is meshed;
- ``[output]``: named points recorded, history and field intervals;
- ``[contact]``: the contact treatment (:mod:`rocking_contact.contact.spec`);
- ``[collisions]``: how collision instants are measured (:mod:`rocking_contact.post.collisions`).

Sign conventions: y up; the tilt rotates the block counter-clockwise about O (corner A
lifts); ``THETA`` in the history is the rotation of the base chord OA (rad).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import ClassVar, Literal

from rocking_contact.block import BlockModel, Geometry, Preload, release_angle, release_tilt
from rocking_contact.config import (
    FINITE,
    MAX_STEPS,
    NONNEGATIVE,
    POSITIVE,
    CaseFile,
    Check,
    Conflict,
    check_span,
    in_range,
    param,
    step_count_problem,
)
from rocking_contact.contact.spec import (
    TABLE_TREATMENTS,
    ContactSpec,
    check_against_model,
    check_scheme_for_contact,
    check_table_for_contact,
    quoted,
    treatments,
)
from rocking_contact.contact.springs import check_sink
from rocking_contact.geometry.layout import (
    BLOCK,
    CONHAUT,
    CTBLO,
    MeshSpec,
    check_size,
    curve_names,
    named_points,
    point_names,
    region_names,
)
from rocking_contact.post.collisions import CollisionSpec
from rocking_contact.time.grid import Segment, segments
from rocking_contact.time.hht import ALPHA_RANGE
from rocking_contact.time.schemes import ALPHA_SCHEMES, SCHEMES, AlphaScheme, SchemeType
from rocking_contact.time.stage import Scheme
from rocking_contact.time.theta import THETA_RANGE

Component = Literal["DX", "DY"]
ALPHA_CHECK = in_range(*ALPHA_RANGE)
#: a window's or a refinement's own alpha: finite here, held to the range of the scheme in
#: force where it applies once the case's scheme is known (BlockCase.validate), so that a
#: scheme without alpha refuses it as such whatever its value
OWN_ALPHA_CHECK = Check(math.isfinite, "a number in the alpha range of the scheme in force "
                                       "there ([-1/3, 0]; none for newmark and theta)")


@dataclass(kw_only=True)
class Kinematics:
    """``[kinematics]``: strain measure of the bodies."""

    type: Literal["large_rotation", "small_strain"] = param(
        "large_rotation", doc="large_rotation: Green-Lagrange (GROT_GDEP); small_strain: linear")


#: most pseudo-time steps of the tilt a case may give (``initial.preload_steps``): the most
#: the preload takes of itself, doubling the steps of a tilt that lands on a spurious
#: equilibrium up to 64 (``rocking_contact.fem.preload.MAX_TILT_STEPS``; a case that gives
#: more is never retried). The shipped cases and documented studies take 1 to 4; each step
#: is a static Newton solve (sdnv105a: 64 steps set up in 5 s more than 1), so that an
#: unbounded count could ask for years of solves.
MAX_PRELOAD_STEPS = 64


@dataclass(kw_only=True)
class Initial:
    """``[initial]``: the state at ``time.start``."""

    state: Literal["preload", "rest"] = param(
        "preload", doc="preload: gravity then tilt, released at rest; rest: undeformed")
    velocity: tuple[float, float] = param((0.0, 0.0), unit="m/s", check=FINITE,
                                          doc="uniform initial velocity of the block (rest)")
    preload_steps: int = param(1, check=in_range(1, MAX_PRELOAD_STEPS),
                               doc="pseudo-time steps of the tilt (halved on failure; "
                                   "at most 64, the most the preload retries a tilt with)")

    #: the keys each state reads (config.load_case refuses the others)
    VARIANTS: ClassVar = {"state": {"preload": ("preload_steps",), "rest": ("velocity",)}}


@dataclass(kw_only=True)
class Window:
    """A ``[[time.window]]``: a span with its own step (and scheme alpha, or scheme).

    ``scheme`` switches between the two alpha schemes inside the window, as Code_Aster's
    MODI_EQUI does per DYNA_NON_LINE call: SDNV105 B takes its last three collision windows
    with the true HHT scheme and the others with the alpha-modified Newmark scheme.
    """

    start: float = param(unit="s", check=FINITE)
    end: float = param(unit="s", check=FINITE)
    step: float = param(unit="s", check=POSITIVE)
    alpha: float | None = param(None, check=OWN_ALPHA_CHECK,
                                doc="alpha of alpha_newmark / hht inside the window")
    scheme: AlphaScheme | None = param(
        None, doc="alpha_newmark (MODI_EQUI='NON') or hht (MODI_EQUI='OUI') inside the "
                  "window; default: scheme.type")

    def validate(self) -> None:
        check_span(self.start, self.end)


@dataclass(kw_only=True)
class Refine:
    """``[time.refine]``: small steps wherever a contact closes or opens.

    A step longer than ``step`` in which a contact closes or opens is taken again from its
    start with steps of ``step`` (scheme alpha ``alpha``), and the steps stay that small
    until ``hold`` after the last such change: a collision window placed by the events,
    where the hand-placed ``[[time.window]]``s do not foresee one.
    """

    step: float = param(unit="s", check=POSITIVE, doc="step around contact changes")
    alpha: float | None = param(None, check=OWN_ALPHA_CHECK,
                                doc="alpha of alpha_newmark / hht in the refined steps")
    hold: float = param(unit="s", check=NONNEGATIVE,
                        doc="how long the steps stay small after the last contact change")
    enabled: bool = param(True, doc="false turns off a refinement inherited by `extends`")

    #: the keys a refinement reads (config.load_case refuses them on a disabled one)
    VARIANTS: ClassVar = {"enabled": {True: ("step", "alpha", "hold"), False: ()}}


@dataclass(kw_only=True)
class BlockTime:
    """``[time]``: span, base step and windows (at most
    :data:`~rocking_contact.config.MAX_STEPS` steps in all, and as many if the refined
    steps covered the whole run)."""

    start: float = param(0.0, unit="s", check=FINITE, doc="release instant")
    end: float = param(unit="s", check=FINITE)
    step: float = param(unit="s", check=POSITIVE, doc="step outside windows")
    window: list[Window] = param(default_factory=list)
    refine: Refine | None = param(None, doc="automatic small steps at contact changes")

    def validate(self) -> None:
        check_span(self.start, self.end)
        spans = sorted((w.start, w.end, i) for i, w in enumerate(self.window))
        for (s0, e0, i0), (s1, _, i1) in zip(spans, spans[1:]):
            if s1 < e0:
                raise ValueError(f"window[{i1}].start: {s1:g} overlaps window[{i0}] "
                                 f"[{s0:g}, {e0:g}] (allowed: a start >= {e0:g} s, where "
                                 "the other ends)")
        self._check_step_count()
        for i, w in enumerate(self.window):
            # A window refines (or switches alpha or scheme at the same step): a longer
            # step there is a typo (1e-3 for 1e-5), and a coarse span is the base step's.
            # Checked after the count, which names a base step too small for any run.
            if w.step > self.step:
                raise ValueError(f"window[{i}].step: {w.step:g} is longer than time.step "
                                 f"{self.step:g} outside the windows; allowed: a step <= "
                                 f"{self.step:g} s (shorter steps, or the same with the "
                                 f"window's own alpha or scheme), or time.window = [] for "
                                 f"uniform steps")

    def grid(self) -> list[Segment]:
        """The run cut at the windows' bounds, each span with its step (s)."""
        return segments(self.start, self.end, self.step,
                        [(w.start, w.end, w.step) for w in self.window])

    def _check_step_count(self) -> None:
        """Refuse a grid of more steps than MAX_STEPS (the runner builds each segment's
        instants at once), naming the step that makes the most of them."""
        steps: dict[int | None, float] = defaultdict(float)  # window (None: base) -> steps
        covered: dict[int | None, float] = defaultdict(float)  # window -> time it covers
        for seg in self.grid():
            steps[seg.window] += (seg.end - seg.start) / seg.step  # float: no overflow
            covered[seg.window] += seg.end - seg.start
        worst = max(steps, key=steps.__getitem__)
        key, step = ("step", self.step) if worst is None else \
            (f"window[{worst}].step", self.window[worst].step)
        problem = step_count_problem(
            step, sum(steps.values()), covered[worst],
            f"from time.start {self.start:g} to time.end {self.end:g} s")
        if problem:
            raise ValueError(f"{key}: {problem}")
        if self.refine is not None and self.refine.enabled:
            if self.refine.step > self.step:
                # Only steps longer than refine.step are taken again, and none is longer
                # than time.step: such a refinement never acts, which is a typo (1e-3 for
                # 1e-5). The same step is allowed: uniform small steps leave it idle.
                raise ValueError(
                    f"refine.step: {self.refine.step:g} is longer than time.step "
                    f"{self.step:g}, so no step would ever be refined; allowed: a step <= "
                    f"{self.step:g} s, or time.refine.enabled = false")
            # Refined steps can cover the whole run (a contact changing in every long
            # step), and each long step is cut into its small steps at once.
            span = self.end - self.start
            problem = step_count_problem(
                self.refine.step, span / self.refine.step, span,
                f"if the refinement covered the run from time.start {self.start:g} to "
                f"time.end {self.end:g} s", lambda step: span / step <= MAX_STEPS)
            if problem:
                raise ValueError(f"refine.step: {problem}")


@dataclass(kw_only=True)
class SchemeSpec:
    """``[scheme]``: the time scheme.

    ``newmark`` uses ``beta``/``gamma``; ``alpha_newmark`` and ``hht`` derive them from
    ``alpha`` (beta = (1-alpha)^2/4, gamma = 1/2 - alpha); ``theta`` uses ``theta``.
    """

    type: SchemeType = param("newmark")
    beta: float = param(0.25, check=in_range(1e-6, 0.5))
    gamma: float = param(0.5, check=in_range(0.5, 1.0))
    alpha: float = param(0.0, check=ALPHA_CHECK)
    theta: float = param(0.5, check=in_range(*THETA_RANGE))

    #: the keys each type reads (config.load_case refuses the others)
    VARIANTS: ClassVar = {"type": {name: entry.keys for name, entry in SCHEMES.items()}}

    def scheme(self, alpha: float | None = None, kind: str | None = None) -> Scheme:
        """The scheme object (:data:`~rocking_contact.time.schemes.SCHEMES`); ``alpha`` and
        ``kind`` override the section's alpha and type (a window's).

        Raises:
            ValueError: ``kind`` is no scheme's name (the schema lets none through).

        """
        kind = self.type if kind is None else kind
        if kind not in SCHEMES:
            raise ValueError(f"scheme.type: got {kind!r}, allowed: {quoted(tuple(SCHEMES))}")
        return SCHEMES[kind].make(self, self.alpha if alpha is None else alpha)


@dataclass(kw_only=True)
class SolverSpec:
    """``[solver]``: Newton iterations and the linear solver."""

    # PETSc refuses rtol >= 1, and a Newton step that accepts more than 1 % of its first
    # residual (or a last update above 1 % of the state) is no solution: the energy runs off
    rtol: float = param(1e-10, check=in_range(1e-16, 1e-2), doc="residual reduction in a step")
    atol: float = param(1e-8, unit="N", check=POSITIVE, doc="absolute residual")
    stol: float = param(1e-12, check=in_range(1e-16, 1e-2),
                        doc="Newton update relative to the unknown (theta: its change of the "
                            "end displacement relative to that displacement)")
    max_iterations: int = param(25, check=POSITIVE)
    max_halvings: int = param(5, check=NONNEGATIVE, doc="halvings of a failed step")
    # 0 never accepts a stalled step; above 1 % of the first residual a stalled step is no
    # more a solution than a converged one is under rtol's bound (1 accepted any iterate
    # below the first residual)
    stagnation_rtol: float = param(
        1e-6, check=in_range(0.0, 1e-2),
        doc="last resort after the last halving: Newton iterations that stalled below this "
            "fraction of the step's first residual are accepted, and a warning names the step "
            "(0: never; at most 1 %, as solver.rtol: above it a stalled step is no solution)")
    linear_solver: Literal["mumps", "superlu_dist", "petsc"] = param(
        "mumps", doc="LU package ('petsc' is serial only)")


@dataclass(kw_only=True)
class Constraint:
    """A ``[[constraint]]`` of the dynamic phase: prescribed displacement components."""

    on: str = param(doc="named point, curve or region (O, CONHAUT, BLOCK, ...)")
    components: list[Component] = param(default_factory=lambda: ["DX", "DY"])
    value: float | None = param(None, unit="m",
                                doc="prescribed value; omitted: held at the release value")


@dataclass(kw_only=True)
class Output:
    """``[output]``: what is recorded."""

    points: list[str] = param(default_factory=lambda: ["O", "A", "O1", "C1"],
                              doc="named points with DX_, DY_, VX_, VY_ columns, and THETA "
                                  "(the base's rotation) if O and A are among them; [] "
                                  "records none (the energies and contacts stay)")
    every: int = param(1, check=POSITIVE, doc="history row every N steps")
    fields_every: int = param(0, check=NONNEGATIVE,
                              doc="fields every N steps (0: first and last state only)")
    fields_interval: float = param(
        0.0, unit="s", check=NONNEGATIVE,
        doc="also fields at the first step past each multiple of this (0: none); evenly "
            "spaced frames for views and movies whatever the step windows")
    xdmf: bool = param(True, doc="also write fields.xdmf")


@dataclass(kw_only=True)
class BlockCase(BlockModel, CaseFile):
    """A ``block`` case file (``case.kind = "block"``)."""

    mesh: MeshSpec = param(default_factory=MeshSpec)
    kinematics: Kinematics = param(default_factory=Kinematics)
    initial: Initial = param(default_factory=Initial)
    time: BlockTime = param()
    scheme: SchemeSpec = param(default_factory=SchemeSpec)
    solver: SolverSpec = param(default_factory=SolverSpec)
    constraint: list[Constraint] = param(default_factory=list)
    output: Output = param(default_factory=Output)
    contact: ContactSpec = param(default_factory=ContactSpec)
    collisions: CollisionSpec = param(default_factory=CollisionSpec)

    #: a block released from rest is not preloaded: it reads no [preload] key
    TABLE_VARIANTS: ClassVar = {"initial.state": {"preload": ("preload",), "rest": ()}}

    #: the rigid case's section a block case has not, and where its meaning is, so that
    #: ``run sdnv105d --set rigid.friction=0.3`` is told more than the allowed sections
    ELSEWHERE: ClassVar = {"rigid": "a block case has no [rigid], the rigid block's "
                                    "section: its rigid twin (rocking-contact rigid) takes "
                                    "the block's contact.mu for rigid.friction"}

    #: what ``rocking-contact keys`` says of a key shared with the rigid block, here
    KEY_DOCS: ClassVar = {"preload.tilt": (
        "no angle but the sine of the release angle about O with pivot O1 in large rotation "
        "(0.3: 0.304693 rad; its tangent in small strain, a little less with pivot O): "
        "Code_Aster's pull of the top-middle point C1 by -2 l tilt in x; the rigid case "
        "reads it so too, and takes the angle itself as preload.angle", "")}

    def step_windows(self) -> list[tuple[float, float]]:
        return [(w.start, w.end) for w in self.time.window]

    def collision_windows(self) -> list[tuple[float, float]]:
        return self.collisions.windows

    def refines_steps(self) -> bool:
        return self.time.refine is not None and self.time.refine.enabled

    @property
    def release_angle(self) -> float:
        """Rotation about O (rad) that the preload gives a rigid block
        (:func:`rocking_contact.block.release_angle`)."""
        return release_angle(self.geometry, self.preload,
                             self.kinematics.type == "large_rotation")

    def validate(self) -> None:
        self.geometry.check_table()
        points = point_names(self.geometry, self.mesh)
        groups = points + curve_names(self.mesh) + region_names(self.mesh)
        for i, name in enumerate(self.output.points):
            if name not in points:
                raise ValueError(f"output.points[{i}]: unknown point {name!r} "
                                 f"(points: {', '.join(points)})")
        check_recorded(self, points)
        for i, c in enumerate(self.constraint):
            if c.on not in groups:
                raise ValueError(f"constraint[{i}].on: unknown group {c.on!r} "
                                 f"(groups: {', '.join(groups)})")
            if not c.components:
                raise ValueError(f"constraint[{i}].components: empty (allowed: DX, DY)")
        check_table_for_contact(self.contact.treatment, self.mesh.table)
        check_against_model(self, curve_names(self.mesh))
        check_support(self)
        check_sink(self)  # springs the block's weight sinks too deep: before any mesh
        check_size(self.geometry, self.mesh)  # a typo in element_size would mesh for hours
        check_rigid_levels(self)
        check_scheme_for_contact(self.scheme.type, self.contact.treatment)
        if self.initial.state == "preload":
            check_release(self.geometry, self.preload, self.release_angle,
                          self.kinematics.type == "large_rotation")
        # keys that only an alpha scheme reads, with their values
        alpha_keys = [(f"time.window[{i}].{key}", getattr(w, key))
                      for i, w in enumerate(self.time.window) for key in ("alpha", "scheme")]
        # the alphas of their own, with the scheme in force where they apply
        alphas = [(f"time.window[{i}].alpha", w.alpha, w.scheme or self.scheme.type)
                  for i, w in enumerate(self.time.window)]
        refine = self.time.refine
        if refine is not None and refine.enabled:
            if self.scheme.type == "theta":
                raise ValueError("time.refine: the theta scheme's velocity-level contact takes "
                                 "contact changes in any step (set time.refine.enabled = false)")
            alpha_keys.append(("time.refine.alpha", refine.alpha))
            alphas.append(("time.refine.alpha", refine.alpha, self.scheme.type))
        given = [(key, value) for key, value in alpha_keys if value is not None]
        if given and self.scheme.type not in ALPHA_SCHEMES:
            # every one of them named, so that leaving out the one named is not refused
            # again for the next
            kinds = quoted(ALPHA_SCHEMES, " or ")
            keys = [key for key, _ in given]
            problems = {}
            for key, value in given:
                others = [k for k in keys if k != key]
                problems[key] = (
                    f"{value!r} has no effect with scheme.type = {self.scheme.type!r}, which "
                    f"has no alpha; allowed: leave it out"
                    f"{f' (with {in_words(others)})' if others else ''}, or scheme.type "
                    f"{kinds}")
            values = in_words([f"{key} = {value!r}" for key, value in given])
            problems["scheme.type"] = (
                f"{self.scheme.type!r} has no alpha, and {values} "
                f"{'is' if len(given) == 1 else 'are'} for a scheme that has; allowed: "
                f"{kinds}, or leave {keys[0] if len(given) == 1 else 'them'} out")
            raise Conflict(problems)
        for key, alpha, kind in alphas:
            if alpha is not None:
                try:
                    self.scheme.scheme(alpha, kind)  # the scheme checks its own range
                except ValueError as exc:
                    raise ValueError(f"{key}: {str(exc).removeprefix('alpha: ')} (the "
                                     f"{kind!r} scheme's alpha)") from None


def in_words(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: items as a message lists them."""
    return " and ".join([", ".join(items[:-1]), items[-1]] if len(items) > 1 else items)


#: the history columns of a recorded point P (DX_P, ...: :class:`fem.probes.Recorder
#: <rocking_contact.fem.probes.Recorder>`), and those of the base chord OA (THETA)
POINT_COLUMNS = ("DX", "DY", "VX", "VY")
BASE_COLUMNS = {"THETA": ("O", "A")}


def check_recorded(case: BlockCase, points: list[str]) -> None:
    """Refuse a ``[[quantity]]`` column of a named point (of ``points``) that
    ``output.points`` leaves out, as a :class:`~rocking_contact.config.Conflict` of the
    two keys, as the case loads: without it ``--set 'output.points=[]'`` on sdnv105a is
    refused when the run starts, as the file's ``quantity[0].column`` ('DY_A' is no
    history column), naming neither the key given nor the way back."""
    recorded = case.output.points
    for i, spec in enumerate(case.quantity):
        prefix, _, point = spec.column.partition("_")
        needs = (BASE_COLUMNS.get(spec.column)
                 or ((point,) if prefix in POINT_COLUMNS and point in points else ()))
        missing = [p for p in needs if p not in recorded]
        if not missing:
            continue
        names = " and ".join(map(repr, missing))
        what = (f"{spec.column} (the rotation of the base chord OA)" if spec.column in
                BASE_COLUMNS else spec.column)
        raise Conflict({
            "output.points": f"{recorded} records no {what}, which quantity[{i}] "
                             f"{spec.name!r} reads; allowed: a list with {names}",
            f"quantity[{i}].column": f"{spec.column!r} is not recorded: output.points = "
                                     f"{recorded} leaves out {names}; allowed: a column of "
                                     f"a point recorded, or output.points with {names}"})


def check_rigid_levels(case: BlockCase) -> None:
    """Refuse ``collisions.rigid`` (the rigid block's levels beside the collisions) where
    the rigid block has no motion to compare with, as a
    :class:`~rocking_contact.config.Conflict` with the key that takes its motion away
    (``--set initial.state=rest`` on D is the key given last, not D's own rigid = true)."""
    if not case.collisions.rigid:
        return
    if case.loading.gravity <= 0.0:
        raise Conflict({
            "collisions.rigid": "the rigid-block levels need loading.gravity > 0 (released "
                                "at rest without gravity, the rigid block does not rock); "
                                "allowed: collisions.rigid = false",
            "loading.gravity": f"{case.loading.gravity:g} leaves the rigid block of "
                               "collisions.rigid = true at rest, without rocking; allowed: "
                               "> 0, or collisions.rigid = false"})
    if case.initial.state != "preload":
        raise Conflict({
            "collisions.rigid": "the rigid block is released from the preload's tilt, and "
                                f"initial.state = {case.initial.state!r} has none; allowed: "
                                "collisions.rigid = false, or initial.state = 'preload'",
            "initial.state": f"{case.initial.state!r} gives no preload tilt to release the "
                             "rigid block of collisions.rigid = true from; allowed: "
                             "'preload', or collisions.rigid = false"})


def check_support(case: BlockCase) -> None:
    """Refuse a block that nothing holds against its loads after the release: contact
    treatment ``'none'`` (the default) stands for supports of ``[[constraint]]`` (the pin
    at O of ``sdnv105_preload``); without one on the block along a loaded direction the
    block falls through its table: unrefused, a file with a [case] and a [time] alone would
    run in free fall and report "completed". Loaded along y: gravity or a vertical table
    acceleration; along x: a horizontal one (the block is solved in the table's frame)."""
    if case.contact.info.level != "none":
        return
    loads = case.loading
    # component -> the load that moves the block along it, and what it does unsupported
    moved: dict[str, tuple[str, str]] = {}
    if loads.gravity > 0.0:
        moved["DY"] = (f"loading.gravity = {loads.gravity:g} m/s^2", "falls through")
    elif loads.table_acceleration_y.type != "zero":
        moved["DY"] = ("loading.table_acceleration_y", "leaves")
    if loads.table_acceleration_x.type != "zero":
        moved["DX"] = ("loading.table_acceleration_x", "slides off")
    block = block_groups(case.geometry, case.mesh)
    held = {d for c in case.constraint if c.on in block for d in c.components}
    for component, (cause, fate) in moved.items():
        if component in held:
            continue
        where = f"a [[constraint]] with {component} on the block ({', '.join(block)})"
        raise Conflict({
            "contact.treatment": f"'none' (no contact), and no [[constraint]] holds the "
                                 f"block in {component}: under {cause} it {fate} its table; "
                                 f"allowed: a treatment {quoted(TABLE_TREATMENTS)}, or "
                                 f"{quoted(treatments('springs'), ' or ')} with "
                                 f"[[contact.spring]], or {where}: sdnv105_preload pins O",
            "constraint": f"holds the block nowhere in {component}, and contact.treatment = "
                          f"'none' gives it no contact: under {cause} it {fate} its table; "
                          f"allowed: {where}, or a contact treatment"})


def block_groups(geometry: Geometry, mesh: MeshSpec) -> list[str]:
    """The named points, curves and region of the block (not of the table)."""
    return ([p.name for p in named_points(geometry, mesh) if p.region == BLOCK]
            + [CONHAUT, CTBLO, BLOCK])


def check_release(geometry: Geometry, preload: Preload, angle: float,
                  large_rotation: bool) -> None:
    """Refuse a tilt that releases the block past its overturning angle (``angle``, rad: the
    release angle of the preload): it would topple, and the model follows the rocking on
    the table, not the fall. The tilt and the block's proportions break it together, a
    :class:`~rocking_contact.config.Conflict`: a block made 1e3 m tall by ``--set`` is
    that key's fault, not the file's tilt's."""
    limit = geometry.overturn_angle
    if angle < limit:
        return
    largest = release_tilt(geometry, preload.pivot, limit, large_rotation)
    width, height = geometry.half_width, geometry.half_height

    def margin(half_width: float, half_height: float) -> float:
        """The overturning angle less the release angle (rad) of another block."""
        other = replace(geometry, half_width=half_width, half_height=half_height)
        return other.overturn_angle - release_angle(other, preload, large_rotation)

    # the block is stable when it is short enough or wide enough (margin > 0)
    tallest = _turning_point(lambda x: margin(width, x), 1e-9 * height, height)
    narrowest = _turning_point(lambda x: margin(x, height), width + 1e3 * height, width)
    where = (f"releases the block at {angle:.6g} rad, past its overturning angle atan(b/l) "
             f"= {limit:.6g} rad, and it topples")
    raise Conflict({
        "preload.tilt": f"{preload.tilt:g} {where}; allowed: below {largest:.6g}",
        "geometry.half_height": f"{height:g} m with preload.tilt = {preload.tilt:g} {where}; "
                                f"allowed: a half_height below {tallest:.6g} m, or a "
                                f"preload.tilt below {largest:.6g}",
        "geometry.half_width": f"{width:g} m with preload.tilt = {preload.tilt:g} {where}; "
                               f"allowed: a half_width above {narrowest:.6g} m, or a "
                               f"preload.tilt below {largest:.6g}"})


def _turning_point(margin: Callable[[float], float], good: float, bad: float) -> float:
    """The value between ``good`` (``margin`` > 0 there) and ``bad`` (<= 0) where the
    margin changes sign, to round-off (bisection: the margin is monotone between them)."""
    for _ in range(200):
        middle = 0.5 * (good + bad)
        if middle in (good, bad):
            break
        if margin(middle) > 0.0:
            good = middle
        else:
            bad = middle
    return good
