"""The contact terms of a block run: the treatment of ``contact.treatment`` and the energy
balance.

:func:`build` turns a case's ``[contact]`` into the terms the step problem takes (see
:mod:`rocking_contact.solvers.step`). A new treatment needs its name in
:data:`~rocking_contact.contact.spec.Treatment`, its record (the keys it reads, the level of
its law, whether it needs a table) in :data:`~rocking_contact.contact.spec.TREATMENT_INFO`,
which the case checks and their messages read, and its factory in :data:`TREATMENTS`; it
is selected by ``contact.treatment``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rocking_contact.contact.counters import SolveCounters
from rocking_contact.contact.spec import ContactSpec
from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.energy_balance import EnergyBalance, EnergySource
from rocking_contact.solvers.step import Contribution, Corrector

if TYPE_CHECKING:
    from rocking_contact.contact.condensed import CondensedContact
    from rocking_contact.contact.kinematics import ContactKinematics
    from rocking_contact.contact.theta import MoreauJeanContact

__all__ = ["ContactModel", "ContactSpec", "ContactTreatment", "TREATMENTS", "build"]


class ContactTreatment(EnergySource, Protocol):
    """What the run asks of a contact treatment beside its step terms: its absorbed
    energy, a term of the :class:`~rocking_contact.fem.energy_balance.EnergyBalance`, and
    its state."""

    def describe(self) -> str:
        """The contacts' state, for a failure message."""


@dataclass
class ContactModel:
    """What a contact treatment adds to a run.

    Attributes:
        contributions: terms of the step equation (the SNES solves them).
        correctors: condensed problems solved after the free step.
        treatment: the contact treatment (None without contact), one of the terms above.
        energy: the run's energy balance (always present).
        counters: the solve counters of a condensed treatment (None: none beyond the
            SNES's).

    """

    contributions: list[Contribution] = field(default_factory=list)
    correctors: list[Corrector] = field(default_factory=list)
    treatment: ContactTreatment | None = None
    energy: EnergyBalance | None = None
    counters: SolveCounters | None = None

    def describe(self) -> str:
        """The contacts' state (for a failure message); empty without contact."""
        return self.treatment.describe() if self.treatment is not None else ""

    def statistics(self) -> dict[str, int]:
        """Counters of the contact solves (Newton iterations of a condensed treatment)."""
        return self.counters.timing() if self.counters is not None else {}


def _table_kinematics(case: Any, body: ElasticBody) -> ContactKinematics:
    """The pairing of the block's base with the table's top."""
    from rocking_contact.contact.kinematics import ContactKinematics

    spec: ContactSpec = case.contact
    return ContactKinematics(body, spec.slave, spec.master,
                             large_rotation=case.kinematics.type == "large_rotation",
                             names=tuple(case.output.points))


def _corrector(treatment: CondensedContact | MoreauJeanContact) -> ContactModel:
    """The model of a treatment that corrects the free step and counts its solves."""
    return ContactModel(correctors=[treatment], treatment=treatment, counters=treatment.counters)


def _lagrange(case: Any, body: ElasticBody) -> ContactModel:
    from rocking_contact.contact.lagrange import LagrangeContact

    return _corrector(LagrangeContact(body, case.contact, _table_kinematics(case, body)))


def _continuous(case: Any, body: ElasticBody) -> ContactModel:
    from rocking_contact.contact.continuous import ContinuousContact

    return _corrector(ContinuousContact(body, case.contact, _table_kinematics(case, body)))


def _penalty(case: Any, body: ElasticBody) -> ContactModel:
    from rocking_contact.contact.penalty import PenaltySprings

    treatment = PenaltySprings(body, case.contact)
    return ContactModel(contributions=[treatment], treatment=treatment)


def _theta(case: Any, body: ElasticBody) -> ContactModel:
    from rocking_contact.contact import theta

    return _corrector(theta.build(case, body, _table_kinematics(case, body)))


#: contact.treatment -> factory of the :class:`ContactModel`
TREATMENTS: dict[str, Callable[[Any, ElasticBody], ContactModel]] = {
    "none": lambda case, body: ContactModel(),
    "lagrange": _lagrange,
    "penalty": _penalty,
    "continuous": _continuous,
    "theta": _theta,
}


def build(case: Any, body: ElasticBody) -> ContactModel:
    """The contact terms of a block case and its energy balance.

    Args:
        case: a block case (``contact``, ``kinematics``, ``output`` sections).
        body: its bodies.

    """
    model = TREATMENTS[case.contact.treatment](case, body)
    sources = [model.treatment] if model.treatment is not None else []
    model.energy = EnergyBalance(body, sources)
    model.contributions.append(model.energy)
    return model
