"""The discrete time integrators, one scheme per module: explicit central differences
(:mod:`.central_difference`) and implicit Newmark / HHT (:mod:`.newmark`), on the state and
counters of :mod:`.stepping`, recording through :mod:`.recording`. This module picks the one
a case asks for (:data:`INTEGRATORS`); callers import an integrator or its helpers
(``branch_contradicted``) from its scheme's module, the shock law's Newton rule
(``FREEZE_BRANCH_AFTER``) from :mod:`.shock`."""

from __future__ import annotations

import numpy as np

from rocking_contact.discrete.case import SCHEMES, DiscreteCase
from rocking_contact.discrete.stepping import Integrator
from rocking_contact.discrete.system import DiscreteSystem
from rocking_contact.lazy import imported

__all__ = ["INTEGRATORS", "integrator_class", "make_integrator"]


#: the integrator of each ``solver.scheme``, from its entry in :data:`.case.SCHEMES` (where
#: a new scheme is registered)
INTEGRATORS: dict[str, type[Integrator]] = {
    name: imported(info.integrator) for name, info in SCHEMES.items()}


def integrator_class(case: DiscreteCase) -> type[Integrator]:
    """The integrator class of the case's ``solver.scheme``."""
    return INTEGRATORS[case.solver.scheme]


def make_integrator(case: DiscreteCase, system: DiscreteSystem, outputs: np.ndarray,
                    support_acceleration0: float) -> Integrator:
    """The integrator the case's ``[solver]`` asks for; ``support_acceleration0`` is the
    support's acceleration at the run's start (m/s^2, ``model.support.acceleration`` at
    ``time.start``: the start's equilibrium reads it; not Newmark's ``gamma``)."""
    return integrator_class(case).from_case(case, system, outputs, support_acceleration0)
