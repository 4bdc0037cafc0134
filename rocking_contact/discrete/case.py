"""Schema of a discrete (spring-mass with shocks) case file.

Units are SI (m, kg, s, N). Displacements are relative to the moving support when a
support acceleration is given (relative formulation, as Code_Aster's seismic load): the
springs to ground and the obstacles move with the support.

Sign conventions
----------------
A shock's ``normal`` points from the node toward the obstacle. The penetration is
``p = u . n - gap``; the obstacle pushes back when ``p > 0`` with the normal force
``FN = kn p + cn dp/dt`` (clipped at 0: obstacles never pull), acting along ``-n``.
``gap < 0`` means an initial penetration (a preload, as in SDND100).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Literal

import numpy as np

from rocking_contact.config import (
    FINITE,
    NONNEGATIVE,
    POSITIVE,
    CaseFile,
    NamePattern,
    TimeSpan,
    in_range,
    param,
    row_count_problem,
    unknown_name,
)
from rocking_contact.contact.springs import stick_problem
from rocking_contact.loads import TimeFunction
from rocking_contact.time.hht import ALPHA_RANGE

Component = Literal["DX", "DY", "DZ"]
COMPONENTS: tuple[Component, ...] = ("DX", "DY", "DZ")


@dataclass(frozen=True)
class SchemeInfo:
    """What a case file knows of a discrete ``solver.scheme``.

    Attributes:
        keys: the ``[solver]`` keys it reads besides ``space`` and ``modes`` (another one
            given is refused, not ignored: :func:`rocking_contact.config.load_case`).
        integrator: its :class:`~rocking_contact.discrete.stepping.Integrator` class as
            ``"module:Class"``, imported by :mod:`rocking_contact.discrete.integrators`
            (whose modules import this schema: a class here would make a cycle).

    """

    keys: tuple[str, ...]
    integrator: str


#: The values of ``solver.scheme``, as the schema checks them and the messages and
#: `rocking-contact keys` list them ("one of 'central_difference', ..."). Written out so
#: that mypy holds every comparison to them; the keys of SCHEMES, in this order
#: (tests/test_registry_names.py holds them equal).
SchemeName = Literal["central_difference", "newmark", "hht"]

#: ``solver.scheme`` -> its entry, in the order the messages list them: a new scheme is a
#: name above, an entry here and its integrator's module
SCHEMES: dict[str, SchemeInfo] = {
    "central_difference": SchemeInfo(
        (), "rocking_contact.discrete.central_difference:CentralDifferenceIntegrator"),
    "newmark": SchemeInfo(("beta", "gamma", "newton_tol", "newton_max_iter"),
                          "rocking_contact.discrete.newmark:NewmarkIntegrator"),
    "hht": SchemeInfo(("alpha", "newton_tol", "newton_max_iter"),
                      "rocking_contact.discrete.newmark:HHTIntegrator"),
}
Vector = tuple[float, float, float]
#: history prefixes of the displacement, velocity and acceleration along each component
KIND_PREFIXES: dict[str, tuple[str, str, str]] = {
    "DX": ("DX", "VX", "AX"), "DY": ("DY", "VY", "AY"), "DZ": ("DZ", "VZ", "AZ")}
#: the shocks' channels in the history, in the kernels' order (columns <NAME>_<shock>):
#: normal force (N), tangential force (N), normal velocity (m/s), penetration (m, < 0 open)
SHOCK_CHANNELS = ("FN", "FT", "VN", "PN")
#: the shocks' channels kept at every step around their contacts, for the impacts
CONTACT_CHANNELS = ("FN", "VN", "PN")

#: the shortest direction vector (``normal``, ``direction``) a case may give: shorter, it
#: is the zero vector given with round-off, whose direction means nothing
MIN_DIRECTION = 1e-12


def unit_vector(vector: Vector) -> np.ndarray:
    """``vector`` scaled to length 1; by ``math.hypot``, which neither overflows nor
    underflows where the squares would (``[1e200, 0, 0]``: ``np.linalg.norm`` is inf)."""
    return np.asarray(vector, dtype=float) / math.hypot(*vector)


def direction_problem(name: str, vector: Vector) -> str | None:
    """Why ``vector`` is no direction (``name: ...``), or None."""
    length = math.hypot(*vector)
    if length >= MIN_DIRECTION:
        return None
    what = "the zero vector" if length == 0.0 else f"of length {length:.3g}"
    return (f"{name}: got {list(vector)}, {what}; allowed: a vector of length >= "
            f"{MIN_DIRECTION:g} (it is normalised)")

@dataclass(kw_only=True)
class Node:
    """A ``[[model.node]]``: a point with up to three translations."""

    name: str = param(doc="node name (Code_Aster style, e.g. NO1)")
    mass: float = param(0.0, unit="kg", check=NONNEGATIVE,
                        doc="lumped mass; a node with free dofs needs mass > 0")
    fixed: list[Component] = param(default_factory=list, doc="components held at zero")
    position: Vector = param((0.0, 0.0, 0.0), unit="m", doc="for drawings only")
    u0: Vector = param((0.0, 0.0, 0.0), unit="m", doc="initial displacement")
    v0: Vector = param((0.0, 0.0, 0.0), unit="m/s", doc="initial velocity")

    @property
    def free(self) -> list[Component]:
        """Components that move."""
        return [c for c in COMPONENTS if c not in self.fixed]


@dataclass(kw_only=True)
class Spring:
    """A ``[[model.spring]]``: diagonal stiffness between two nodes, or a node and ground."""

    name: str = param()
    nodes: list[str] = param(doc="one node (to ground) or two nodes")
    stiffness: Vector = param(unit="N/m", check=NONNEGATIVE, doc="along global x, y, z")
    damping: Vector = param((0.0, 0.0, 0.0), unit="N.s/m", check=NONNEGATIVE)


@dataclass(kw_only=True)
class Relation:
    """A ``[[model.relation]]``: sum_i c_i u_i = 0 between dofs named ``NODE.DX``."""

    dofs: list[str] = param(doc='e.g. ["NO1.DX", "NO1.DY"]')
    coefficients: list[float] = param(doc="one per dof", check=FINITE)

    def validate(self) -> None:
        if len(self.dofs) != len(self.coefficients) or not self.dofs:
            raise ValueError(
                f"coefficients: {len(self.coefficients)} given for {len(self.dofs)} dofs "
                "(allowed: one coefficient per dof, at least one dof)")
        if all(c == 0 for c in self.coefficients):
            raise ValueError("coefficients: all zero (allowed: at least one that is not 0)")


@dataclass(kw_only=True)
class Shock:
    """A ``[[model.shock]]``: a node against a plane obstacle (Code_Aster DIS_CHOC).

    ``friction = "regularised"`` is Code_Aster's stick-slip logic with a stick spring and a
    dashpot in parallel: the tangential force is ``-kt (u_t - anchor) - ct v_t`` while it
    stays inside the Coulomb disc ``mu FN``; beyond it the node slides. ``"stored_dashpot"``
    stores the whole force, dashpot included (a stiffness ``kt + ct / dt``, see :mod:`.shock`).
    ``friction = "exact"`` is the set-valued Coulomb law (stick means zero tangential
    velocity; no tangential spring), solved at velocity level (central differences only).
    """

    name: str = param(doc="shock name; history columns are FN_<name>, FT_<name>, ...")
    node: str = param()
    normal: Vector = param(doc="direction from the node toward the obstacle (normalised: "
                                "[2, 0, 0] is [1, 0, 0])")
    gap: float = param(0.0, unit="m", check=FINITE, doc="initial distance; < 0 = preload")
    kn: float = param(unit="N/m", check=POSITIVE, doc="normal stiffness")
    cn: float = param(0.0, unit="N.s/m", check=NONNEGATIVE, doc="normal damping")
    kt: float = param(0.0, unit="N/m", check=NONNEGATIVE, doc="tangential stick stiffness")
    ct: float = param(0.0, unit="N.s/m", check=NONNEGATIVE, doc="tangential damping")
    mu: float = param(0.0, check=NONNEGATIVE, doc="Coulomb friction coefficient")
    friction: Literal["regularised", "stored_dashpot", "exact"] = param(
        "regularised", doc="regularised: stick spring + dashpot; stored_dashpot: the dashpot "
                           "force stored too (piles up); exact: set-valued Coulomb")

    def validate(self) -> None:
        problem = direction_problem("normal", self.normal)
        if problem:
            raise ValueError(problem)
        problem = stick_problem(self.mu, self.kt, self.ct, self.friction)
        if problem:
            raise ValueError(f"kt: {problem}, or friction = 'exact'")


def _initial_value(nodes: dict[str, Node], dof: str, field: str) -> float:
    """``u0`` or ``v0`` of the dof ``NODE.DX``."""
    node_name, _, comp = dof.partition(".")
    value: float = getattr(nodes[node_name], field)[COMPONENTS.index(comp)]
    return value


def immobile_why(node: Node, normal: Vector) -> str:
    """Why ``node`` cannot move along ``normal``, known not to: the normal's components are
    fixed (``DY fixed``), or the relations hold what the fixed dofs leave."""
    along = [c for c, n in zip(COMPONENTS, normal, strict=True) if n]
    if set(along) <= set(node.fixed):
        return f"{', '.join(along)} fixed"
    return " and ".join([*([f"{', '.join(node.fixed)} fixed"] if node.fixed else []),
                         "[[model.relation]]"])


@dataclass(kw_only=True)
class Support:
    """``[model.support]``: acceleration of the support along ``direction`` (m/s^2)."""

    direction: Vector = param((1.0, 0.0, 0.0), doc="direction of the acceleration "
                              "(normalised: [2, 0, 0] is [1, 0, 0])")
    acceleration: TimeFunction = param(default_factory=TimeFunction)

    def validate(self) -> None:
        problem = direction_problem("direction", self.direction)
        if problem:
            raise ValueError(problem)

    @property
    def moves(self) -> bool:
        """An acceleration other than zero is given (a zero one, the default, is no load)."""
        return self.acceleration.type != "zero" and self.acceleration.amplitude != 0.0


@dataclass(kw_only=True)
class Damping:
    """``[model.damping]``: C = a M + b K (+ modal ratio), plus the springs' dampers."""

    mass_coefficient: float = param(0.0, unit="1/s", check=NONNEGATIVE)
    stiffness_coefficient: float = param(0.0, unit="s", check=NONNEGATIVE)
    modal_ratio: float = param(0.0, check=in_range(0.0, 1.0), doc="xi, same for every mode")


@dataclass(kw_only=True)
class Model:
    """``[model]``: nodes, springs, relations, shocks, damping, support, gravity."""

    node: list[Node] = param()
    spring: list[Spring] = param(default_factory=list)
    relation: list[Relation] = param(default_factory=list)
    shock: list[Shock] = param(default_factory=list)
    damping: Damping = param(default_factory=Damping)
    support: Support = param(default_factory=Support)
    gravity: Vector = param((0.0, 0.0, 0.0), unit="m/s2", doc="gravity acceleration vector")

    def _check_initial_state(self, nodes: dict[str, Node]) -> None:
        """The initial state must satisfy the supports and relations: the solver keeps only
        its part that does (u0 = [8.5e-4, 0, 0] under DX = DY becomes 4.25e-4 on both, and a
        value on a fixed component is dropped), so anything else is refused."""
        for i, node in enumerate(self.node):
            for field in ("u0", "v0"):
                for axis, comp in enumerate(COMPONENTS):
                    value = getattr(node, field)[axis]
                    if comp in node.fixed and value != 0.0:
                        raise ValueError(f"node[{i}].{field}: {value:g} on the fixed {comp}; "
                                         f"allowed: 0 there")
        for i, r in enumerate(self.relation):
            for field in ("u0", "v0"):
                values = [_initial_value(nodes, dof, field) for dof in r.dofs]
                total = sum(c * v for c, v in zip(r.coefficients, values, strict=True))
                scale = max(abs(c * v) for c, v in zip(r.coefficients, values, strict=True))
                if abs(total) > 1e-12 * scale:
                    raise ValueError(f"relation[{i}]: the nodes' {field} break it (sum c_i "
                                     f"{field}_i = {total:g}); allowed: initial values that "
                                     f"satisfy it")

    def validate(self) -> None:
        names = [n.name for n in self.node]
        nodes = {n.name: n for n in self.node}
        if not names:
            raise ValueError("node: at least one node is needed")
        for i, node in enumerate(self.node):
            if node.name in names[:i]:
                raise ValueError(f"node[{i}].name: {node.name!r} defined twice (allowed: a "
                                 "name no other node has)")
            if node.free and node.mass <= 0:
                raise ValueError(
                    f"node[{i}].mass: got {node.mass:g}, allowed: a number > 0 "
                    f"(a node with free dofs needs mass; fix all its dofs to make a support)")
        for i, s in enumerate(self.spring):
            if not 1 <= len(s.nodes) <= 2:
                raise ValueError(f"spring[{i}].nodes: {len(s.nodes)} given (allowed: one node, "
                                 "a spring to ground, or two)")
            for name in s.nodes:
                if name not in nodes:
                    raise ValueError(f"spring[{i}].nodes: unknown node {name!r} "
                                     f"(nodes: {', '.join(names)})")
            if len(s.nodes) == 2 and s.nodes[0] == s.nodes[1]:
                # no motion stretches it: the node it should tie would be left loose, unsaid
                raise ValueError(f"spring[{i}].nodes: {s.nodes} joins {s.nodes[0]!r} to "
                                 "itself, and no motion stretches it; allowed: two distinct "
                                 "nodes, or one (a spring to ground)")
        for i, r in enumerate(self.relation):
            for dof in r.dofs:
                node_name, _, comp = dof.partition(".")
                if node_name not in nodes or comp not in COMPONENTS:
                    raise ValueError(f"relation[{i}].dofs: {dof!r} is not NODE.DX|DY|DZ "
                                     f"with NODE in {', '.join(names)}")
        self._check_initial_state(nodes)
        shock_names = [s.name for s in self.shock]
        for i, shock in enumerate(self.shock):
            if shock.name in shock_names[:i]:
                raise ValueError(f"shock[{i}].name: {shock.name!r} defined twice (allowed: a "
                                 "name no other shock has)")
            if shock.node not in nodes:
                raise ValueError(f"shock[{i}].node: unknown node {shock.node!r} "
                                 f"(nodes: {', '.join(names)})")
            if not nodes[shock.node].free:
                raise ValueError(f"shock[{i}].node: {shock.node!r} has no free dof (allowed: "
                                 "a node that moves: not all of DX, DY, DZ in its fixed)")
        self._check_shocks_can_close(nodes)
        self._check_support_moves(nodes)

    def _along(self) -> Callable[[str, Vector], bool]:
        """Whether the named node can move along a vector, by the basis of the fixed dofs
        and relations (relative to its largest entry: round-off does not move a node)."""
        # (imported here: the system's assembly reads this module's schema)
        from rocking_contact.discrete.system import constraint_basis, full_dofs

        dofs = full_dofs(self)
        basis = constraint_basis(self, dofs)
        scale = max(1.0, float(np.abs(basis).max(initial=0.0)))

        def moves(node: str, vector: Vector) -> bool:
            rows = basis[[dofs.index(f"{node}.{c}") for c in COMPONENTS]]
            along = unit_vector(vector) @ rows
            return bool(np.abs(along).max(initial=0.0) > 1e-12 * scale)
        return moves

    def immobile_along(self, vector: Vector) -> str | None:
        """Why no node can move along ``vector`` (each node's :func:`immobile_why`, once
        per distinct reason), or None if one can: a load along it moves nothing."""
        moves = self._along()
        if any(moves(node.name, vector) for node in self.node):
            return None
        reasons: dict[str, list[str]] = {}
        for node in self.node:
            reasons.setdefault(immobile_why(node, vector), []).append(node.name)
        return "; ".join(f"{', '.join(names)}: {why}" for why, names in reasons.items())

    def _check_support_moves(self, nodes: dict[str, Node]) -> None:
        """A support acceleration along a direction no node can move along moves nothing
        in the relative formulation: every node follows the support rigidly along it, the
        history is that of a still support, and the load the case gives is lost without
        a word (a frame with DY fixed shaken along y runs to max |DX| = 0), so it is
        refused, as a shock normal along fixed components is. A zero acceleration (the
        default) is no load: its direction is not read."""
        support = self.support
        if not support.moves:
            return
        why = self.immobile_along(support.direction)
        if why is None:
            return
        free = sorted({c for n in nodes.values() for c in n.free},
                      key=COMPONENTS.index)
        raise ValueError(
            f"support.direction: got {list(support.direction)}, along which no node can "
            f"move ({why}): the support acceleration moves nothing; allowed: a direction "
            f"with a component the nodes move along (free: {', '.join(free) or 'none'}), "
            f"or no support acceleration")

    def _check_shocks_can_close(self, nodes: dict[str, Node]) -> None:
        """A shock whose node cannot move along its normal (fixed dofs, relations) keeps
        the penetration ``-gap`` for ever: with ``gap >= 0`` it never closes, which is a
        normal along the wrong axis (two masses on x against a stop normal to y, DY fixed,
        would run without a word), so it is refused. With ``gap < 0`` it presses with the
        constant force ``kn |gap|``, the friction pad of SDND100 (normal along its fixed
        DZ)."""
        moves = self._along()
        for i, shock in enumerate(self.shock):
            if shock.gap < 0.0 or moves(shock.node, shock.normal):
                continue
            tied = (", tied by [[model.relation]]" if any(
                dof.partition(".")[0] == shock.node for r in self.relation for dof in r.dofs)
                else "")
            node = nodes[shock.node]
            raise ValueError(
                f"shock[{i}].normal: got {list(shock.normal)}, along which node "
                f"{node.name!r} cannot move ({immobile_why(node, shock.normal)}): with gap = "
                f"{shock.gap:g} the shock never closes; allowed: a normal along which the "
                f"node moves (its free components: {', '.join(node.free)}"
                f"{tied}), or gap < 0 for a constant normal force kn |gap| (a preloaded "
                f"friction pad, as SDND100's)")

    def unknowns(self) -> int:
        """Number of independent displacements: the free dofs less the independent
        relations between them (the columns of the basis that
        :func:`rocking_contact.discrete.system.constraint_basis` builds)."""
        free = [f"{n.name}.{c}" for n in self.node for c in n.free]
        col = {dof: j for j, dof in enumerate(free)}
        rows = np.zeros((len(self.relation), len(free)))
        for i, rel in enumerate(self.relation):
            for dof, coef in zip(rel.dofs, rel.coefficients):
                if dof in col:  # a fixed dof is zero: its term drops out
                    rows[i, col[dof]] += coef
        if not rows.any():
            return len(free)
        # Rank to constraint_basis's relative tolerance (1e-12), on singular values.
        sv = np.linalg.svd(rows, compute_uv=False)
        return len(free) - int(np.sum(sv > 1e-12 * sv[0]))


@dataclass(kw_only=True)
class Solver:
    """``[solver]``: solution space and time scheme.

    ``space = "modal"`` projects on the ``modes`` lowest linear modes (0 = all) of the
    constrained system, the shocks staying local forces; ``"physical"`` solves in the
    independent dofs left by the fixed dofs and relations.
    ``scheme``: ``central_difference`` (explicit), ``newmark`` (implicit, ``beta``,
    ``gamma``), ``hht`` (Hilber-Hughes-Taylor with ``alpha`` in [-1/3, 0], beta and gamma
    derived). Implicit steps solve the shock forces by Newton to ``newton_tol``.
    """

    space: Literal["modal", "physical"] = param("physical")
    modes: int = param(0, check=NONNEGATIVE,
                       doc="modes kept in modal space, 0 = all; at most the model's unknowns")
    scheme: SchemeName = param("central_difference")
    beta: float = param(0.25, check=in_range(0.0, 0.5))
    gamma: float = param(0.5, check=in_range(0.5, 1.0))
    alpha: float = param(0.0, check=in_range(*ALPHA_RANGE))
    # relative to the step's largest free displacement or gap: a residual of 1 % of it or
    # more is no solution, as the block's solver.rtol has it (sdnd100a with newmark takes its
    # predictor unsolved, 0 Newton iterations, with any tolerance from 1e-6 up to 5)
    newton_tol: float = param(1e-10, check=in_range(0.0, 1e-2, open_low=True),
                              doc="relative residual of the shock forces")
    newton_max_iter: int = param(30, check=POSITIVE)

    #: the keys each scheme and space read (config.load_case refuses the others)
    VARIANTS: ClassVar = {
        "scheme": {name: info.keys for name, info in SCHEMES.items()},
        "space": {"modal": ("modes",), "physical": ()},
    }


@dataclass(kw_only=True)
class Output:
    """``[output]``: what goes into history.csv."""

    every: int = param(1, check=POSITIVE, doc="record every N steps")
    nodes: list[str] = param(default_factory=list, doc="nodes recorded (default: all moving)")


@dataclass(kw_only=True)
class ImpactOptions:
    """``[impacts]``: the impact post-processing (Code_Aster POST_DYNA_MODA_T IMPACT)."""

    threshold: float = param(0.0, unit="N", check=NONNEGATIVE,
                             doc="a shock is where the normal force exceeds this")
    min_rest: float = param(0.0, unit="s", check=NONNEGATIVE,
                            doc="shocks separated by a shorter rest are merged")
    classes: int = param(8, check=POSITIVE, doc="force classes of the histogram")


@dataclass(kw_only=True)
class DiscreteCase(CaseFile):
    """A discrete spring-mass case file (``case.kind = "discrete"``)."""

    model: Model = param()
    time: TimeSpan = param()
    solver: Solver = param(default_factory=Solver)
    output: Output = param(default_factory=Output)
    impacts: ImpactOptions = param(default_factory=ImpactOptions)

    def validate(self) -> None:
        names = [n.name for n in self.model.node]
        for i, name in enumerate(self.output.nodes):
            if name not in names:
                raise ValueError(f"output.nodes[{i}]: unknown node {name!r} "
                                 f"(nodes: {', '.join(names)})")
        unknowns = self.model.unknowns()
        # the modal basis cannot have more modes than dofs (physical space does not read it:
        # the variant check says so)
        if self.solver.space == "modal" and self.solver.modes > unknowns:
            raise ValueError(f"solver.modes: got {self.solver.modes}, allowed: 0..{unknowns} "
                             "(unknowns of this model)")
        # a row every output.every steps (and the initial one), held in memory: the cap
        # and its line are config's, the rigid kind's too
        rows = row_count_problem(self.time, self.output.every)
        if rows is not None:
            raise ValueError(": ".join(rows))
        # a misspelt column or quantity: its check would say "not computed" and fail, exit 0
        # (after the checks of what the system's assembly reads: the energies' columns
        # come from it)
        problem = unknown_name(self, self.history_columns(), self.quantity_patterns())
        if problem:
            raise ValueError(problem)
        self._check_stable_step()
        exact = [s.name for s in self.model.shock if s.friction == "exact"]
        if exact and self.solver.scheme != "central_difference":
            raise ValueError(
                f"solver.scheme: exact Coulomb friction (shock {exact[0]}) is solved at "
                f"velocity level by 'central_difference' only, got {self.solver.scheme!r}")

    def history_columns(self) -> list[str]:
        """The columns of this case's history (``time``, then displacements, velocities
        and accelerations of the recorded nodes, then the shocks' channels, then the
        energies, :func:`~rocking_contact.discrete.energy.energy_names`), as the runner
        writes them."""
        # (imported here: the system's assembly reads this module's schema)
        from rocking_contact.discrete.energy import energy_names
        from rocking_contact.discrete.system import assemble

        energies = energy_names(assemble(self.model, self.solver), self.time.step,
                                self.output.every == 1, self.model.support.moves)
        return ["time", *dof_columns(output_dofs(self)),
                *shock_columns(SHOCK_CHANNELS, [s.name for s in self.model.shock]),
                *energies]

    def quantity_patterns(self) -> list[NamePattern]:
        """The families of the quantities a run computes besides the ``[[quantity]]``
        ones: its shocks' impacts (:func:`rocking_contact.post.impacts.analyse`)."""
        from rocking_contact.post.impacts import FIELDS, STATISTICS

        shocks = [s.name for s in self.model.shock]
        return [NamePattern("impact.<shock>.<k>.<field>",
                            {"shock": shocks, "k": None, "field": FIELDS}),
                NamePattern("impact.<shock>.<statistic>",
                            {"shock": shocks, "statistic": STATISTICS})]

    def _check_stable_step(self) -> None:
        """Central differences above the stability limit of the model with every shock open
        (in the space they integrate in: the kept modes in modal space) diverge from the
        first step whatever the contacts do (closing one only lowers the limit), so such a
        step is refused. Between the limit with every shock closed and this one a run can
        hold (contacts that never close together, short ones) or not: it runs, warned, and
        fails if its energy grows without bound (:mod:`.energy`)."""
        if self.solver.scheme != "central_difference":
            return
        # (imported here: the system's assembly reads this module's schema)
        from rocking_contact.discrete.system import assemble, critical_step

        system = assemble(self.model, self.solver)
        limit = max(critical_step(system, closed=False), critical_step(system))
        if self.time.step > limit:
            raise ValueError(
                f"time.step: got {self.time.step:g} s, above {limit:.4g} s, the "
                f"central-difference stability limit of this model with every shock open "
                f"(dampers included), beyond which its highest mode grows at every step; "
                f"allowed: a step below it, or solver.scheme = 'newmark'")


def output_dofs(case: DiscreteCase) -> list[tuple[str, str]]:
    """(node, component) pairs recorded in the history."""
    names = case.output.nodes or [n.name for n in case.model.node if n.free]
    nodes = {n.name: n for n in case.model.node}
    return [(name, c) for name in names for c in COMPONENTS if c in nodes[name].free]


def dof_columns(dofs: list[tuple[str, str]]) -> list[str]:
    """History columns of the recorded (node, component) pairs in the kernels' order: every
    displacement, then every velocity, then every acceleration."""
    return [f"{KIND_PREFIXES[comp][kind]}_{node}" for kind in range(3) for node, comp in dofs]


def shock_columns(channels: tuple[str, ...], shock_names: list[str]) -> list[str]:
    """Columns ``<channel>_<shock>``, channel by channel (the kernels' order)."""
    return [f"{channel}_{name}" for channel in channels for name in shock_names]
