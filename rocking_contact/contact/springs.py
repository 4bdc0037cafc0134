"""The guards of a block on shock springs: springs that do not hold it up are refused or
said, never run as if they did.

A block stands on shock springs when its contact treatment's law is the springs'
(``contact.info.level == "springs"`` in :data:`~rocking_contact.contact.spec.TREATMENT_INFO`,
whatever the treatment is named: :func:`has_springs`) and it has ``[[contact.spring]]``.

Units and signs: lengths in m, stiffnesses in N/m, forces in N. A spring's compression
(its depth) is ``-u_y - gap`` of its node, ``u_y`` the node's vertical displacement (m,
positive up) and ``gap`` the spring's (m, negative: pressed into the ground at the mesh):
positive compresses the spring, the penetration ``p`` of :mod:`~rocking_contact.contact.
penalty`.

The deepest a block may stand in a spring is :data:`SINK_LIMIT` of its base half-width,
checked three times:

- as the case loads, from its inputs (:func:`check_sink`, called by the block case's
  ``validate``): a spring whose gap starts it deeper in the ground, or springs whose summed
  normal stiffness lets the block's weight sink them deeper;
- at the release of the preload, which lowers the block onto its springs
  (:func:`spring_sink`: the run stops, :class:`SpringSink`);
- after each step (:class:`SinkWatch`: the run warns and goes on).

The friction of the shock law, any node's (a block's spring or a discrete case's
``[[model.shock]]``), needs a stick spring to hold its node: :func:`stick_problem` says why
one cannot.

This module is read as a case loads: it imports no DOLFINx (the run's probes and step
failure are imported where a run uses them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from rocking_contact.block import block_mass

if TYPE_CHECKING:
    from rocking_contact.contact.spec import ShockSpring
    from rocking_contact.fem.body import ElasticBody
    from rocking_contact.fem.case import BlockCase
    from rocking_contact.solvers.driver import StepFailure
    from rocking_contact.solvers.step import StepProblem

#: the deepest a block may stand in its shock springs (``-u_y - gap`` of a spring node)
#: as a fraction of its base half-width b: 1.8 mm for SDNV105, half the 3.6 mm that A
#: lifts at its 0.01 rad release, so that the block still rocks on its corners and not
#: on its springs. SDNV105 B's weight sinks it 1.4e-7 m (4097 N on 3e10 N/m, 7.6e-7 of
#: b); kn = 1e5 N/m sinks it 4.1 cm (23 % of b), kn = 1e-6 N/m 4.1e9 m.
SINK_LIMIT = 0.01


def has_springs(case: BlockCase) -> bool:
    """Whether the case's block stands on shock springs: a treatment whose law is the
    springs' (level ``"springs"``, by its record, not its name) with ``[[contact.spring]]``.
    Only then does a run read ``contact.spring`` (tests/test_unread_keys)."""
    return case.contact.info.level == "springs" and bool(case.contact.spring)


def check_sink(case: BlockCase) -> None:
    """Refuse shock springs that cannot hold the block up, known from the inputs before
    any mesh: a spring starting deeper in the ground than :data:`SINK_LIMIT` of the base
    half-width (``gap`` below minus that, m), or springs whose summed normal stiffness
    (N/m) lets the block's weight M g (N) sink them by more than that (``M g / sum(kn)``,
    m, is the least compression of the deepest spring in any equilibrium on them: named,
    the softest spring's key). Nothing for a block without springs (:func:`has_springs`).

    Raises:
        ValueError: ``"contact.spring[j].<key>: problem"``, as the case's ``validate``
            raises its refusals.

    """
    if not has_springs(case):
        return
    springs = case.contact.spring
    limit = SINK_LIMIT * case.geometry.half_width
    allowed = f"{SINK_LIMIT:g} of geometry.half_width = {case.geometry.half_width:g} m"
    for j, s in enumerate(springs):
        if -s.gap > limit:
            raise ValueError(f"contact.spring[{j}].gap: {s.gap:g} m starts the spring at {s.on} "
                             f"{-s.gap:.3g} m deep in the ground, beyond {limit:.3g} m "
                             f"({allowed}): it throws the block off at the release; allowed: "
                             f">= {-limit:.3g} m")
    weight = block_mass(case.geometry, case.material.block) * case.loading.gravity
    stiffness = sum(s.normal_stiffness for s in springs)
    if weight / stiffness <= limit:
        return
    j = int(np.argmin([s.normal_stiffness for s in springs]))
    raise ValueError(f"contact.spring[{j}].normal_stiffness: {springs[j].normal_stiffness:g} "
                     f"N/m: the springs' normal stiffnesses sum to {stiffness:.4g} N/m, and the "
                     f"block's weight {weight:.5g} N sinks them by at least "
                     f"{weight / stiffness:.3g} m, beyond {limit:.3g} m ({allowed}); allowed: "
                     f"a sum >= {weight / limit:.3g} N/m")


@dataclass(frozen=True)
class SpringSink:
    """The block released from the preload stands deeper in a shock spring than
    :data:`SINK_LIMIT` of its base half-width (:func:`spring_sink`); the run stops with
    its :meth:`failure`.

    Attributes:
        index: the spring's index in ``[[contact.spring]]``.
        spring: its spec (node, normal stiffness N/m, gap m).
        depth: its compression ``-u_y - gap`` (m, positive compressed).
        limit: the compression allowed (m).

    """

    index: int
    spring: ShockSpring
    depth: float
    limit: float

    @property
    def message(self) -> str:
        """What the run's failure says: the depth, the spring's key and the force it
        carries (N), and the stiffness that would hold the block."""
        spring = self.spring
        force = spring.normal_stiffness * self.depth
        return (f"the preload released the block {self.depth:.4g} m deep in its spring at "
                f"{spring.on} (contact.spring.{self.index}.normal_stiffness = "
                f"{spring.normal_stiffness:g} N/m carrying {force:.5g} N, gap "
                f"{spring.gap:g} m), beyond {self.limit:.3g} m ({SINK_LIMIT:g} of "
                f"geometry.half_width): the springs do not hold it up; a normal_stiffness "
                f">= {force / self.limit:.3g} N/m does")

    def failure(self) -> StepFailure:
        """The step failure the run stops with: the preload's release, one pseudo-time
        step of 1 from 0, no residual, saying :attr:`message`."""
        from rocking_contact.solvers.driver import StepFailure  # a run's: DOLFINx loaded

        return StepFailure.at_release(self.message, t=0.0, h=1.0, residual=math.nan,
                                      reason="sunk into a spring", pseudo=True)


class SpringDepths:
    """The compression ``-u_y - gap`` (m, positive compressed) of each shock spring of a
    case (:func:`has_springs`), sampled at its node; ``limit`` the compression allowed,
    :data:`SINK_LIMIT` of the base half-width (m). Collective: every rank samples the
    spring nodes and gets the same values.

    Args:
        case: the case (its springs and geometry).
        body: the bodies.

    """

    def __init__(self, case: BlockCase, body: ElasticBody):
        from rocking_contact.fem.probes import PointProbe  # a run's: DOLFINx loaded

        self.springs = list(case.contact.spring)
        self.limit = SINK_LIMIT * case.geometry.half_width
        self.probe = PointProbe(body, [s.on for s in self.springs])

    def deepest(self, u: np.ndarray) -> tuple[int, float]:
        """The index of the most compressed spring and its compression (m) at ``u``
        (local array, m)."""
        values = self.probe.sample(u, np.zeros_like(u))
        depth = [-values[f"DY_{s.on}"] - s.gap for s in self.springs]
        j = int(np.argmax(depth))
        return j, float(depth[j])


def spring_sink(case: BlockCase, body: ElasticBody, u: np.ndarray) -> SpringSink | None:
    """The sink of a block standing at ``u`` (local array, m) deeper in one of its shock
    springs than :data:`SINK_LIMIT` of its base half-width (the deepest), None otherwise
    or without springs. A spring's sink is its compression ``-u_y - gap`` (m, positive
    compressed). Collective (:class:`SpringDepths`)."""
    if not has_springs(case):
        return None
    depths = SpringDepths(case, body)
    j, depth = depths.deepest(u)
    return SpringSink(j, depths.springs[j], depth, depths.limit) if depth > depths.limit else None


class SinkWatch:
    """A step observer of the step driver: once a step leaves the block deeper in one of
    its shock springs than :data:`SINK_LIMIT` of its base half-width (an impact on soft
    springs, a block released at rest above them), the run's warnings say how deep it went
    (m, the deepest so far, updated each step) and from when (s); the run goes on (the
    preload's own sink stops it: :func:`spring_sink`).

    Args:
        case: the case (its springs and geometry).
        body: the bodies.
        warnings: the run's warnings, appended to (one entry, kept up to date).

    """

    def __init__(self, case: BlockCase, body: ElasticBody, warnings: list[str]):
        self.depths = SpringDepths(case, body)
        self.warnings = warnings
        self._slot: int | None = None  # index of the warning in ``warnings``
        self._since = math.nan  # end of the first step beyond the limit (s)
        self._deepest = 0.0

    def __call__(self, problem: StepProblem, info: Any) -> None:
        """After an accepted step (``info.t``, s): update the warning if the block went
        deeper than the limit and than before."""
        j, depth = self.depths.deepest(problem.u.x.array)
        if depth <= max(self.depths.limit, self._deepest):
            return
        self._deepest = depth
        if self._slot is None:
            self._slot, self._since = len(self.warnings), info.t
            self.warnings.append("")
        spring = self.depths.springs[j]
        self.warnings[self._slot] = (
            f"the block went {depth:.4g} m deep into its spring at {spring.on} at t = "
            f"{info.t:.6g} s (contact.spring.{j}.normal_stiffness = "
            f"{spring.normal_stiffness:g} N/m), beyond {self.depths.limit:.3g} m "
            f"({SINK_LIMIT:g} of geometry.half_width) from t = {self._since:.6g} s: the "
            "springs do not hold it up, do not trust the results after it; stiffer springs do")


def stick_problem(mu: float, kt: float, ct: float, friction: str) -> str | None:
    """Why a shock law with friction cannot hold its node, or None.

    The stick branch keeps its stored force as long as the stick spring does not change it
    (:mod:`rocking_contact.discrete.shock`): with no stick stiffness at all the last sliding
    force stays for ever, and a block that has slid to rest slides back, gaining energy
    (docs/discrete.md, "Friction"). The exact law has no stick spring.
    """
    stick = kt + (ct if friction == "stored_dashpot" else 0.0)
    if mu <= 0.0 or friction == "exact" or stick > 0.0:
        return None
    needed = "stiffness or damping" if friction == "stored_dashpot" else "stiffness"
    return (f"0 with mu = {mu:g} and friction = {friction!r} leaves no stick spring to hold "
            f"the node; allowed: a tangential {needed} > 0")
