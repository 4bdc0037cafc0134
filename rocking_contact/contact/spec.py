"""The ``[contact]`` section of a ``block`` case: which treatment, friction, its parameters.

Treatments (``treatment``):

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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from rocking_contact.config import NONNEGATIVE, POSITIVE, Conflict, in_range, param
from rocking_contact.discrete.case import stick_problem
from rocking_contact.geometry.layout import BLOCK, CONBAS, CONHAUT, CTBLO, named_points

Treatment = Literal["none", "lagrange", "penalty", "continuous", "theta"]

#: treatments that pair the block base with a meshed table
TABLE_TREATMENTS = ("lagrange", "continuous", "theta")
#: the curves they may pair: slave nodes on the block (its base, or its whole contour),
#: the master polyline on the table's top
SLAVE_CURVES = (CONHAUT, CTBLO)
MASTER_CURVES = (CONBAS,)

_CONDENSED = ("slave", "master", "mu", "search_distance", "closed_gap", "gap_tolerance",
              "augmentation_normal", "augmentation_tangential", "tolerance", "step_tolerance",
              "max_iterations", "local_iterations")


@dataclass(kw_only=True)
class ShockSpring:
    """A ``[[contact.spring]]``: a point shock spring between a named node and the ground.

    The spring is vertical (Code_Aster's DIS_T oriented by VECT_X_Y); the penetration is
    ``-u_y - gap`` of the node (m, > 0 compresses the spring). The stiffness and damping
    defaults are the SDNV105 B values that Code_Aster's test ran; ``anchor_stiffness`` and
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


#: contact.augmentation_*: they change Newton's path, not the solution. sdnv105a to 0.06 s
#: reached its first impact at 0.05441 s with 7.2918130 J for both from 1e-12 to 1e12 (1e6
#: and beyond in 778 to 802 steps instead of 771, 4 to 9 times the time); 1e200
#: (tangential, sdnv105c) failed the first step, 1e300 (normal, sdnv105a) stopped MUMPS
#: with a PETSc error (measured 2026-11-23)
AUGMENTATION = in_range(1e-12, 1e12)


@dataclass(kw_only=True)
class ContactSpec:
    """``[contact]``: the contact treatment of the dynamic phase.

    ``augmentation_*`` scale the augmentation coefficients of the complementarity
    functions, relative to ``1 / mean(diag W)`` (W the Delassus operator of the step, so the
    scaled coefficients are dimensionless); they change the Newton path, not the solution.
    """

    treatment: Treatment = param("none", doc="none | lagrange | penalty | continuous | theta")
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
    VARIANTS: ClassVar = {"treatment": {
        "none": (),
        "lagrange": _CONDENSED,
        "continuous": _CONDENSED,
        "penalty": ("mu", "spring"),
        "theta": ("slave", "master", "mu", "restitution", "closed_gap", "tolerance",
                  "step_tolerance", "max_iterations", "local_iterations"),
    }}

    def validate(self) -> None:
        if self.treatment == "penalty" and not self.spring:
            raise ValueError("spring: treatment 'penalty' needs at least one "
                             "[[contact.spring]]")
        for i, s in enumerate(self.spring):
            problem = stick_problem(self.mu if s.mu is None else s.mu, s.tangential_stiffness,
                                    s.tangential_damping, s.friction)
            if problem:
                raise ValueError(f"spring[{i}].tangential_stiffness: {problem}")


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
        # the table's held bottom) ran without a word and meant nothing.
        for key, allowed, what in (("slave", SLAVE_CURVES, "a curve of the block"),
                                   ("master", MASTER_CURVES, "the table's top")):
            name = getattr(spec, key)
            if name not in allowed:
                raise ValueError(f"contact.{key}: got {name!r}, allowed: "
                                 f"{', '.join(map(repr, allowed))} ({what})")
    if spec.treatment == "penalty":
        check_springs(case)


def check_springs(case: Any) -> None:
    """The springs stand on distinct named points of the block's base, with no table.

    A spring on a table node, on the top of the block, or twice on one point ran without a
    word (the block fell freely, hung from its top, or stood on a spring twice as stiff);
    a table meshed beside the springs is never touched.

    Raises:
        Conflict: ``mesh.table`` against ``contact.treatment``.
        ValueError: ``"contact.spring[i].on: problem"``.

    """
    if case.mesh.table:
        raise Conflict({
            "mesh.table": "true meshes a table that contact.treatment = 'penalty' never "
                          "touches (its springs stand on the ground y = 0); allowed: "
                          "mesh.table = false, or a table treatment ('lagrange', "
                          "'continuous', 'theta')",
            "contact.treatment": "'penalty' stands the block on springs to the ground and "
                                 "never touches the table that mesh.table = true meshes; "
                                 "allowed: 'lagrange', 'continuous', 'theta', or "
                                 "mesh.table = false"})
    base = [p.name for p in named_points(case.geometry, case.mesh)
            if p.region == BLOCK and p.y == 0.0]
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
