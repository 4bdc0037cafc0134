"""The discrete time integrators, one scheme per module: explicit central differences
(:mod:`.central_difference`) and implicit Newmark / HHT (:mod:`.newmark`), on the state and
counters of :mod:`.stepping`, recording through :mod:`.recording`. This module picks the one
a case asks for and keeps the names importable from here."""

from __future__ import annotations

import numpy as np

from rocking_contact.discrete.case import SHOCK_CHANNELS, DiscreteCase
from rocking_contact.discrete.central_difference import CentralDifference
from rocking_contact.discrete.newmark import (
    FREEZE_BRANCH_AFTER,
    Newmark,
    NewmarkFailure,
    branch_contradicted,
)
from rocking_contact.discrete.recording import Chunk, chunk
from rocking_contact.discrete.stepping import Integrator
from rocking_contact.discrete.system import DiscreteSystem
from rocking_contact.time.schemes import hht_coefficients

__all__ = ["FREEZE_BRANCH_AFTER", "SHOCK_CHANNELS", "CentralDifference", "Chunk", "Integrator",
           "Newmark", "NewmarkFailure", "branch_contradicted", "chunk", "make_integrator"]


def make_integrator(case: DiscreteCase, system: DiscreteSystem, outputs: np.ndarray,
                    support_acceleration0: float) -> Integrator:
    """The integrator the case's ``[solver]`` asks for; ``support_acceleration0`` is the
    support's acceleration at the run's start (m/s^2, ``model.support.acceleration`` at
    ``time.start``: the start's equilibrium reads it; not Newmark's ``gamma``)."""
    s, dt, every = case.solver, case.time.step, case.output.every
    if s.scheme == "central_difference":
        return CentralDifference(system, dt, outputs, every, support_acceleration0)
    if s.scheme == "hht":
        beta, gamma = hht_coefficients(s.alpha)
        return Newmark(system, dt, outputs, every, support_acceleration0, beta=beta,
                       gamma=gamma, alpha=s.alpha, tol=s.newton_tol,
                       max_iter=s.newton_max_iter)
    return Newmark(system, dt, outputs, every, support_acceleration0, beta=s.beta,
                   gamma=s.gamma, alpha=0.0, tol=s.newton_tol, max_iter=s.newton_max_iter)
