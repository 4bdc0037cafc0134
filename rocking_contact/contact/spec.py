"""The ``[contact]`` section of a ``block`` case: which treatment, friction, its parameters.

Treatments (``treatment``), each registered once, in :data:`TREATMENT_INFO`:

- ``none``: no contact (supports of ``[[constraint]]`` only, e.g. a pinned corner);
- ``lagrange``: nodal Lagrange multipliers on the block base (slave, ``slave``) against the
  table top (master, ``master``), Signorini and Coulomb solved exactly at every Newton
  iteration by a primal-dual active set on the condensed (Delassus) problem — SDNV105 A;
- ``penalty``: point shock springs between named base points and the ground
  (``[[contact.spring]]``), the compiled law of :mod:`rocking_contact.discrete.shock` —
  SDNV105 B (no table in the model);
- ``continuous``: contact pressures with nodal quadrature weights, Alart-Curnier augmented
  Lagrangian, one generalised Newton step of the coupled problem per iteration —
  SDNV105 C;
- ``theta``: the velocity-level Signorini-Moreau law for the theta-scheme (Moreau-Jean),
  SDNV105 D (another module builds it on :mod:`rocking_contact.contact.kinematics`).

Friction: ``mu`` acts from the release on. While gravity is applied (the static preload)
the base is held by supports (:mod:`rocking_contact.fem.preload`), which is the frictionless
equilibrium of CASES.md: every treatment is idle during the preload.

The rules between a treatment and the rest of a block case are here too, all read from the
entries (the block schema's ``validate`` calls them): the time schemes that can step it
(:func:`check_scheme_for_contact`), the table it needs (:func:`check_table_for_contact`),
the curves it pairs and its springs' points (:func:`check_against_model`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from rocking_contact.config import NONNEGATIVE, POSITIVE, Conflict, in_range, param
from rocking_contact.contact.springs import stick_problem
from rocking_contact.geometry.layout import CONBAS, CONHAUT, CTBLO, base_points
from rocking_contact.time.schemes import SCHEMES


@dataclass(frozen=True)
class TreatmentInfo:
    """A contact treatment: what the case checks and messages know of it, and where its
    terms are built.

    A treatment is its entry in :data:`TREATMENT_INFO` and the module of its terms: the
    entry's name is the ``contact.treatment`` that selects it, and every list of treatments
    (the schema's, the messages' "allowed: ...", ``rocking-contact keys``) is made from
    these entries.

    Attributes:
        factory: ``"module:function"``, the function that builds its terms of a run,
            ``(case, body) -> ContactModel`` (:mod:`rocking_contact.contact.model`);
            imported when a run builds them, so that reading a case loads no DOLFINx.
        keys: the ``[contact]`` keys it reads (another one given is refused, not ignored:
            :func:`rocking_contact.config.load_case`).
        level: what its law acts on: ``"position"`` (Signorini on the end displacements,
            stepped by the Newmark-type schemes), ``"velocity"`` (impulses in the
            theta-method's velocity equation, that scheme only), ``"springs"`` (the forces
            of ``[[contact.spring]]``, any scheme) or ``"none"`` (no contact).
        table: it pairs the block's base with a meshed table (``mesh.table = true``).
        without_table: how it holds the block where no table is meshed, as the messages
            offer it (table treatments: empty).

    """

    factory: str
    keys: tuple[str, ...]
    level: Literal["none", "springs", "position", "velocity"]
    table: bool = False
    without_table: str = ""


_CONDENSED = ("slave", "master", "mu", "search_distance", "closed_gap", "gap_tolerance",
              "augmentation_normal", "augmentation_tangential", "tolerance", "step_tolerance",
              "max_iterations", "local_iterations")

_MODEL = "rocking_contact.contact.model"

#: The values of contact.treatment, as the schema checks it and the messages and
#: `rocking-contact keys` list them ("one of 'none', 'lagrange', ..."): none, then SDNV105
#: A, B, C, D. Written out so that mypy holds every comparison to them; the keys of
#: TREATMENT_INFO, in this order (tests/test_registry_names.py holds them equal).
Treatment = Literal["none", "lagrange", "penalty", "continuous", "theta"]

#: contact.treatment -> what it is, in the order the messages list them
TREATMENT_INFO: dict[str, TreatmentInfo] = {
    "none": TreatmentInfo(f"{_MODEL}:build_none", (), "none",
                          without_table="with a [[constraint]] holding the block"),
    "lagrange": TreatmentInfo(f"{_MODEL}:build_lagrange", _CONDENSED, "position", table=True),
    "penalty": TreatmentInfo(f"{_MODEL}:build_penalty", ("mu", "spring"), "springs",
                             without_table="springs to the ground"),
    "continuous": TreatmentInfo(f"{_MODEL}:build_continuous", _CONDENSED, "position",
                                table=True),
    "theta": TreatmentInfo(f"{_MODEL}:build_theta",
                           ("slave", "master", "mu", "restitution", "closed_gap", "tolerance",
                            "step_tolerance", "max_iterations", "local_iterations"),
                           "velocity", table=True),
}


def treatments(*levels: str) -> tuple[str, ...]:
    """The treatments whose law acts at one of ``levels`` (:attr:`TreatmentInfo.level`)."""
    return tuple(name for name, info in TREATMENT_INFO.items() if info.level in levels)


#: treatments that pair the block base with a meshed table
TABLE_TREATMENTS = tuple(name for name, info in TREATMENT_INFO.items() if info.table)
#: the others, those with a contact first ('none' is the last resort)
TABLELESS_TREATMENTS = tuple(sorted((name for name, info in TREATMENT_INFO.items()
                                     if not info.table), key=lambda name: name == "none"))
#: the curves they may pair: slave nodes on the block (its base, or its whole contour),
#: the master polyline on the table's top
SLAVE_CURVES = (CONHAUT, CTBLO)
MASTER_CURVES = (CONBAS,)


def quoted(names: tuple[str, ...], sep: str = ", ") -> str:
    """``'a', 'b'``: names as the messages quote them."""
    return sep.join(map(repr, names))


@dataclass(kw_only=True)
class ShockSpring:
    """A ``[[contact.spring]]``: a point shock spring between a named node and the ground.

    The spring is vertical (Code_Aster's DIS_T oriented by VECT_X_Y); the penetration is
    ``-u_y - gap`` of the node (m, > 0 compresses the spring). The stiffness and damping
    defaults are the SDNV105 B values of Code_Aster's test; ``anchor_stiffness`` and
    ``dashpots`` default to the plain shock law (the B case file sets Code_Aster's).
    """

    on: str = param(doc="named point of the block base (O, O1, A; B1, B2 in the aster "
                        "layout), one spring a point")
    normal_stiffness: float = param(3.0e10, unit="N/m", check=POSITIVE)
    normal_damping: float = param(9.0e6, unit="N.s/m", check=NONNEGATIVE)
    tangential_stiffness: float = param(1.0e7, unit="N/m", check=NONNEGATIVE,
                                        doc="stick spring (Code_Aster RIGI_TAN)")
    tangential_damping: float = param(1.0e4, unit="N.s/m", check=NONNEGATIVE)
    anchor_stiffness: float = param(
        0.0, unit="N/m", check=NONNEGATIVE,
        doc="while the spring is closed, a tangential spring on the node's total tangential "
            "displacement (from the undeformed mesh), not capped by Coulomb: Code_Aster adds "
            "the discrete element's own stiffness (K_T_D_N) along the tangent to the shock "
            "force")
    dashpots: Literal["clipped", "closed"] = param(
        "clipped", doc="clipped: the normal dashpot is inside the law, kn p + cn v clipped at "
                       "zero, and the stick force includes ct v; closed: both dashpots act "
                       "(linearly, they may pull) whenever the spring is closed, outside the "
                       "law and its Coulomb cap mu kn p (Code_Aster's DYNA_NON_LINE, where "
                       "they are the element's damping matrix)")
    mu: float | None = param(None, check=NONNEGATIVE, doc="Coulomb; default contact.mu")
    gap: float = param(0.0, unit="m",
                       doc="initial gap (negative: initial penetration), from where the block "
                           "starts: at rest, or where the preload left it (a spring closed "
                           "there also takes its support's reaction, docs/contact.md, B)")
    friction: Literal["regularised", "stored_dashpot"] = param(
        "regularised", doc="regularised: stick spring + dashpot, the spring's force stored; "
                           "stored_dashpot: the whole force stored, dashpot included (a "
                           "tangential stiffness kt + ct / dt)")


#: contact.augmentation_*: they change Newton's path, not the solution, where the steps
#: converge: sdnv105a to 0.06 s has its first impact at 0.05441 s with 7.2918130 J for the
#: normal one from 1e-12 to 1e12, from 1e6 on in 778 to 802 steps instead of 771 (4 to 9
#: times the time). Above 1e6 steps fail with a message of the solver's (rejected by
#: ContinuousContact) rather than of the case (sdnv105a's tangential 1e9 at 1.4e-4 s,
#: sdnv105c's normal 1e8 at 0.0025 s), and sdnv105c's normal 1e7 costs 6.6 times 1e6's time:
#: so 1e6 at most. The lower bound, 1e-12, runs both treatments, both keys. The continuous
#: treatment's tangential one is narrower still for SDNV105 C (3 and 10 fail its first
#: impact, 30 its second step; 1 and 0.01 run), no bound of the key's
AUGMENTATION = in_range(1e-12, 1e6)


@dataclass(kw_only=True)
class ContactSpec:
    """``[contact]``: the contact treatment of the dynamic phase.

    ``augmentation_*`` scale the augmentation coefficients of the complementarity
    functions, relative to ``1 / mean(diag W)`` (W the Delassus operator of the step, so the
    scaled coefficients are dimensionless); they change the Newton path, not the solution,
    as long as the steps converge (:data:`AUGMENTATION`: far from 1 they may not).
    """

    treatment: Treatment = param("none", doc=" | ".join(TREATMENT_INFO))
    slave: str = param("CONHAUT", doc="slave curve (block base)")
    master: str = param("CONBAS", doc="master curve (table top)")
    mu: float = param(0.9, check=NONNEGATIVE, doc="Coulomb coefficient after the release")
    restitution: float = param(
        0.0, check=in_range(0.0, 1.0),
        doc="Newton's restitution coefficient e of the velocity-level law (0: no rebound)")
    search_distance: float = param(
        1.0e-4, unit="m", check=POSITIVE,
        doc="contacts whose gap is below this enter the local problem")
    # a block whose base is "closed" a millimetre above the table hovers there (theta
    # activates it at that gap): closed means round-off of the geometry
    closed_gap: float = param(
        1.0e-9, unit="m", check=in_range(1e-15, 1e-6),
        doc="contacts with |gap| below this are closed at the release; theta: contacts "
            "whose predicted gap is below this are active in the step")
    gap_tolerance: float = param(
        1.0e-12, unit="m", check=POSITIVE,
        doc="penetration and stick slip accepted at convergence")
    augmentation_normal: float = param(1.0, check=AUGMENTATION, doc="rho_N * mean(diag W)")
    augmentation_tangential: float = param(1.0, check=AUGMENTATION, doc="rho_T * mean(diag W)")
    tolerance: float = param(1.0e-9, check=in_range(1e-15, 1e-3),
                             doc="equilibrium and complementarity residuals, relative "
                                 "to the norm of the weight vector under 9.81 m/s^2")
    step_tolerance: float = param(
        1.0e-12, check=in_range(1e-15, 1e-3),
        doc="or the last Newton correction of the end displacement relative to it "
            "(max norms); below 1e-15 no correction ever gets there, round-off being "
            "2.2e-16")
    max_iterations: int = param(25, check=POSITIVE,
                                doc="Newton iterations of the contact solve in a step")
    local_iterations: int = param(50, check=POSITIVE,
                                  doc="active-set iterations of one local problem")
    spring: list[ShockSpring] = param(default_factory=list, doc="point springs")

    #: the keys each treatment reads: another one given is refused, not ignored
    #: (:func:`rocking_contact.config.load_case`)
    VARIANTS: ClassVar = {"treatment": {name: info.keys for name, info in TREATMENT_INFO.items()}}

    @property
    def info(self) -> TreatmentInfo:
        """The record of the treatment."""
        return TREATMENT_INFO[self.treatment]

    def sliding_friction(self) -> float | None:
        """The least Coulomb coefficient under which the base can slide, or None when it
        cannot (no contact; springs all anchored in x, as SDNV105 B's)."""
        if self.info.level == "none":
            return None
        if self.info.level != "springs":
            return float(self.mu)
        free = [self.mu if s.mu is None else s.mu for s in self.spring
                if s.anchor_stiffness == 0.0]
        return float(min(free)) if free else None

    def validate(self) -> None:
        """Refuse (ValueError, the key and what is wrong) a spring treatment without
        ``[[contact.spring]]`` and a spring whose tangential stiffness cannot hold it
        (:func:`stick_problem`)."""
        if self.info.level == "springs" and not self.spring:
            raise ValueError(f"spring: treatment {self.treatment!r} needs at least one "
                             "[[contact.spring]]")
        for i, s in enumerate(self.spring):
            problem = stick_problem(self.mu if s.mu is None else s.mu, s.tangential_stiffness,
                                    s.tangential_damping, s.friction)
            if problem:
                raise ValueError(f"spring[{i}].tangential_stiffness: {problem}")


def check_scheme_for_contact(scheme: str, treatment: str) -> None:
    """Refuse a time scheme that the contact treatment cannot step.

    The theta treatment's impulses enter the theta-method's velocity equation and nothing
    else. A position-level contact (Lagrange, continuous) stepped by the theta-method
    returns the impact velocity instead of absorbing it and gains kinetic energy at the
    first impact (sdnv105a's numbers: docs/contact.md, "Lagrange (A) and continuous (C)").
    Springs are forces and take any scheme.
    """
    level = TREATMENT_INFO[treatment].level
    if level == "velocity" and scheme != "theta":
        raise ValueError(f"scheme.type: {scheme!r} cannot step contact.treatment = "
                         f"{treatment!r} (velocity-level impulses); allowed: 'theta'")
    if scheme == "theta" and level == "position":
        others = tuple(s for s in SCHEMES if s != "theta")
        raise ValueError(f"scheme.type: 'theta' cannot step contact.treatment = {treatment!r} "
                         "(a position-level contact stepped on velocities returns the impact "
                         f"velocity); allowed: {quoted(others)}, or contact.treatment = "
                         f"{quoted(treatments('velocity'), ' or ')}")


def check_table_for_contact(treatment: str, table: bool) -> None:
    """Refuse a contact treatment that pairs the block with a table left unmeshed, as a
    :class:`~rocking_contact.config.Conflict` of the two keys (either may be the one given
    wrong: ``--set mesh.table=false`` on A blamed A's own ``contact.master``)."""
    if treatment in TABLE_TREATMENTS and not table:
        tableless = " or ".join(f"{name!r} ({TREATMENT_INFO[name].without_table})"
                                for name in TABLELESS_TREATMENTS)
        raise Conflict({
            "mesh.table": f"false leaves no table for contact.treatment = {treatment!r}, "
                          "which pairs the block's base with the table's top; allowed: "
                          f"mesh.table = true, or contact.treatment {tableless}",
            "contact.treatment": f"{treatment!r} pairs the block's base with the table's "
                                 "top, and mesh.table = false meshes no table; allowed: "
                                 f"{tableless}, or mesh.table = true"})


def check_against_model(case: Any, curves: list[str]) -> None:
    """Cross-checks with the mesh (called by the block schema's ``validate``).

    Raises:
        ValueError: ``"contact.<key>: problem"``.

    """
    spec: ContactSpec = case.contact
    if spec.treatment in TABLE_TREATMENTS:
        for key in ("slave", "master"):
            name = getattr(spec, key)
            if name not in curves:
                raise ValueError(f"contact.{key}: unknown curve {name!r} (curves: "
                                 f"{', '.join(curves)}; a table treatment needs "
                                 "mesh.table = true)")
        # The kinematics take the master for the table's top, its normal out of the table,
        # and the slave for nodes of the block: another pairing (the base against itself,
        # the table's held bottom) would run without a word and mean nothing.
        for key, allowed, what in (("slave", SLAVE_CURVES, "a curve of the block"),
                                   ("master", MASTER_CURVES, "the table's top")):
            name = getattr(spec, key)
            if name not in allowed:
                raise ValueError(f"contact.{key}: got {name!r}, allowed: "
                                 f"{', '.join(map(repr, allowed))} ({what})")
    if spec.info.level == "springs":
        check_springs(case)


def check_springs(case: Any) -> None:
    """The springs stand on distinct named points of the block's base, with no table.

    Without these checks a spring on a table node, on the top of the block, or twice on
    one point runs without a word (the block falls freely, hangs from its top, or stands on
    a spring twice as stiff); a table meshed beside the springs is never touched.

    Raises:
        Conflict: ``mesh.table`` against ``contact.treatment``.
        ValueError: ``"contact.spring[i].on: problem"``.

    """
    if case.mesh.table:
        treatment = case.contact.treatment
        raise Conflict({
            "mesh.table": f"true meshes a table that contact.treatment = {treatment!r} never "
                          "touches (its springs stand on the ground y = 0); allowed: "
                          "mesh.table = false, or a table treatment "
                          f"({quoted(TABLE_TREATMENTS)})",
            "contact.treatment": f"{treatment!r} stands the block on springs to the ground "
                                 "and never touches the table that mesh.table = true "
                                 f"meshes; allowed: {quoted(TABLE_TREATMENTS)}, or "
                                 "mesh.table = false"})
    base = base_points(case.geometry, case.mesh)
    allowed = f"allowed: {', '.join(base)}, each once"
    seen: dict[str, int] = {}
    for i, spring in enumerate(case.contact.spring):
        name = spring.on
        if name not in base:
            raise ValueError(f"contact.spring[{i}].on: {name!r} is not a named point of the "
                             f"block's base ({allowed})")
        if name in seen:
            raise ValueError(f"contact.spring[{i}].on: {name!r} has a spring already "
                             f"(contact.spring[{seen[name]}]; two would double its "
                             f"stiffness; {allowed})")
        seen[name] = i
