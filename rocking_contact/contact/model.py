"""The contact terms of a block run: the treatment of ``contact.treatment`` and the energy
balance.

:func:`build` turns a case's ``[contact]`` into the terms the step problem takes (see
:mod:`rocking_contact.solvers.step`), with the factory that the treatment's entry in
:data:`~rocking_contact.contact.spec.TREATMENT_INFO` names. A new treatment is its module
and one entry there: its name, its factory (``"module:function"``, ``(case, body) ->``
:class:`ContactModel`, which may live in its own module; :func:`corrector_model` and
:func:`table_kinematics` serve a treatment that corrects the free step on the table), the
``[contact]`` keys it reads, the level of its law and whether it needs the table, which the
case checks and their messages read. The factories below are the shipped treatments'.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rocking_contact.contact.counters import SolveCounters
from rocking_contact.contact.spec import TREATMENT_INFO, ContactSpec
from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.energy_balance import EnergyBalance, EnergySource
from rocking_contact.lazy import imported
from rocking_contact.solvers.step import Contribution, Corrector

if TYPE_CHECKING:
    from rocking_contact.contact.condensed import CondensedContact
    from rocking_contact.contact.kinematics import ContactKinematics
    from rocking_contact.contact.theta import MoreauJeanContact

__all__ = ["ContactModel", "ContactSpec", "ContactTreatment", "build", "factory"]


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


def table_kinematics(case: Any, body: ElasticBody) -> ContactKinematics:
    """The pairing of the block's base (``contact.slave``) with the table's top
    (``contact.master``)."""
    from rocking_contact.contact.kinematics import ContactKinematics

    spec: ContactSpec = case.contact
    return ContactKinematics(body, spec.slave, spec.master,
                             large_rotation=case.kinematics.type == "large_rotation",
                             names=tuple(case.output.points))


def corrector_model(treatment: CondensedContact | MoreauJeanContact) -> ContactModel:
    """The model of a treatment that corrects the free step and counts its solves."""
    return ContactModel(correctors=[treatment], treatment=treatment, counters=treatment.counters)


def build_none(case: Any, body: ElasticBody) -> ContactModel:
    """``none``: no contact terms (the ``[[constraint]]`` supports hold the block)."""
    return ContactModel()


def build_lagrange(case: Any, body: ElasticBody) -> ContactModel:
    """``lagrange``: :class:`~rocking_contact.contact.lagrange.LagrangeContact`."""
    from rocking_contact.contact.lagrange import LagrangeContact

    return corrector_model(LagrangeContact(body, case.contact, table_kinematics(case, body)))


def build_continuous(case: Any, body: ElasticBody) -> ContactModel:
    """``continuous``: :class:`~rocking_contact.contact.continuous.ContinuousContact`."""
    from rocking_contact.contact.continuous import ContinuousContact

    return corrector_model(ContinuousContact(body, case.contact, table_kinematics(case, body)))


def build_penalty(case: Any, body: ElasticBody) -> ContactModel:
    """``penalty``: the shock springs of
    :class:`~rocking_contact.contact.penalty.PenaltySprings`, a term of the SNES."""
    from rocking_contact.contact.penalty import PenaltySprings

    treatment = PenaltySprings(body, case.contact)
    return ContactModel(contributions=[treatment], treatment=treatment)


def build_theta(case: Any, body: ElasticBody) -> ContactModel:
    """``theta``: the Moreau-Jean treatment of :func:`rocking_contact.contact.theta.build`."""
    from rocking_contact.contact import theta

    return corrector_model(theta.build(case, body, table_kinematics(case, body)))


def factory(treatment: str) -> Callable[[Any, ElasticBody], ContactModel]:
    """The factory of a treatment's :class:`ContactModel`, imported from where its entry
    in :data:`~rocking_contact.contact.spec.TREATMENT_INFO` says."""
    function: Callable[[Any, ElasticBody], ContactModel] = imported(
        TREATMENT_INFO[treatment].factory)
    return function


def build(case: Any, body: ElasticBody) -> ContactModel:
    """The contact terms of a block case and its energy balance.

    Args:
        case: a block case (``contact``, ``kinematics``, ``output`` sections).
        body: its bodies.

    """
    model = factory(case.contact.treatment)(case, body)
    sources = [model.treatment] if model.treatment is not None else []
    model.energy = EnergyBalance(body, sources)
    model.contributions.append(model.energy)
    return model
