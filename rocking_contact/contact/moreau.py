"""Moreau-Jean time stepping: the theta-method on velocities with contact impulses.

The one-step integrator of Moreau (1988) and Jean (1999), in Siconos' words
``MoreauJeanOSI``. For a Lagrangian dynamical system ``M dv = f(q, v, t) dt + H^T dP``,
a step of size ``h`` from ``(q_n, v_n)`` reads

    M (v_{n+1} - v_n) = h [theta f_{n+1} + (1 - theta) f_n] + H^T P
    q_{n+1} = q_n + h [theta v_{n+1} + (1 - theta) v_n]

with ``P`` the contact impulses over the step (N.s), ``theta`` in [1/2, 1]. The contacts
are decided once per step, on the gaps at the predicted configuration
``q_m = q_n + h (1 - theta) v_n`` (the position the scheme would reach with the start
velocity over the explicit part of the step): a contact whose predicted gap is closed
(``g(q_m) <= tolerance``) is *active*, and only active contacts may carry an impulse. The
relation ``U = H(q_m) v`` (relative velocities, normal and tangential) is frozen at
``q_m`` for the step, so ``P`` enters the step equation linearly. On the active contacts
the :class:`~rocking_contact.contact.friction_contact.NewtonImpactFrictionLaw` holds on the
end velocities ``U = H v_{n+1}``, with ``U_N^- = H_N v_n`` in Newton's impact law.

Condensation: with ``K_eff`` the matrix of the step (``M + h theta C + h^2 theta^2 K`` for
a linear system), ``v_{n+1} = v_free + K_eff^-1 H^T P``, so
``U = W P + H v_free`` with the Delassus operator ``W = H K_eff^-1 H^T``: a small dense
problem (:mod:`~rocking_contact.contact.friction_contact`).

This module is the dense version, for systems of a few degrees of freedom (a point mass,
a rigid block): :class:`LagrangianLinearSystem`, a :class:`DenseRelation` and the
one-step integrator :class:`MoreauJean`. No run uses it: it serves the tests
(``tests/contact/test_theta_moreau.py``) and ``benchmarks/theta_checks.py``, the reference
implementation of the scheme that they check against problems with a known answer (a
bouncing point mass, the rigid block's impact law; their relations are in
:mod:`~rocking_contact.contact.moreau_relations`), and with it the index set
(:mod:`~rocking_contact.contact.index_set`) and the one-step solvers
(:mod:`~rocking_contact.contact.friction_contact`) that the finite-element version shares.
That version, the ``theta`` treatment, solves the same problem through the step problem's
factorised Jacobian (:mod:`rocking_contact.contact.theta`).

Conventions: gaps in m (positive open); normals point from the obstacle towards the body;
``P_N >= 0`` pushes the body away from the obstacle, ``P_T`` is the tangential impulse on
the body along the contact's tangent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from rocking_contact.contact.components import normal_tangential_rows
from rocking_contact.contact.friction_contact import (
    FrictionContactProblem,
    FrictionContactSolution,
    NewtonImpactFrictionLaw,
    solve,
)
from rocking_contact.contact.index_set import ImpulseMemory, active_contacts
from rocking_contact.time.theta import check_theta


@dataclass
class LagrangianLinearSystem:
    """``M dv = (f_ext(t) - K q - C v) dt + H^T dP`` (Siconos' LagrangianLinearTIDS).

    Attributes:
        mass: M (n x n, kg or kg.m^2).
        external: ``t -> f_ext(t)`` (n, N).
        stiffness: K (n x n) or None. damping: C (n x n) or None.

    """

    mass: np.ndarray
    external: Callable[[float], np.ndarray]
    stiffness: np.ndarray | None = None
    damping: np.ndarray | None = None

    @property
    def size(self) -> int:
        """Number of degrees of freedom n."""
        return len(self.mass)

    def force(self, q: np.ndarray, v: np.ndarray, t: float) -> np.ndarray:
        """``f(q, v, t) = f_ext(t) - K q - C v`` (n, N or N.m) at the coordinates ``q``
        (m or rad), velocities ``v`` (m/s or rad/s) and time ``t`` (s)."""
        f = np.array(self.external(t), dtype=float)
        if self.stiffness is not None:
            f -= self.stiffness @ q
        if self.damping is not None:
            f -= self.damping @ v
        return f


class DenseRelation(Protocol):
    """Gaps and relative velocities of ``m`` contacts of a dense system."""

    def gaps(self, q: np.ndarray) -> np.ndarray:
        """Gaps (m, m): positive open."""

    def jacobian(self, q: np.ndarray) -> np.ndarray:
        """H (2m x n): rows ``[N_0, T_0, N_1, T_1, ...]``, ``U = H v`` (m/s)."""


@dataclass
class StepOutcome:
    """The end state of one step and its contact impulses.

    Attributes:
        q, v: end position and velocity.
        P: impulses of every contact (2m, N.s), zero on inactive ones.
        active: indices of the active contacts.
        local: the local solution (None without active contact).

    """

    q: np.ndarray
    v: np.ndarray
    P: np.ndarray
    active: np.ndarray
    local: FrictionContactSolution | None = None


@dataclass
class MoreauJean:
    """The Moreau-Jean one-step integrator for a dense linear Lagrangian system.

    Attributes:
        system: the dynamical system.
        relation: its contacts.
        law: the nonsmooth law of every contact.
        theta: in [1/2, 1].
        activation_gap: a contact is active when its predicted gap is below this (m).

    """

    system: LagrangianLinearSystem
    relation: DenseRelation
    law: NewtonImpactFrictionLaw
    theta: float = 0.5
    activation_gap: float = 0.0
    memory: ImpulseMemory = field(default_factory=ImpulseMemory)

    def __post_init__(self) -> None:
        """Refuse a theta outside [1/2, 1]."""
        check_theta(self.theta)

    def step(self, q: np.ndarray, v: np.ndarray, t: float, h: float) -> StepOutcome:
        """One step from ``(q, v)`` at ``t`` to ``t + h``.

        Args:
            q: start coordinates (n, m or rad).
            v: start velocities (n, m/s or rad/s).
            t: start time (s).
            h: step size (s).

        """
        th, sys_ = self.theta, self.system
        K = sys_.stiffness if sys_.stiffness is not None else np.zeros_like(sys_.mass)
        C = sys_.damping if sys_.damping is not None else np.zeros_like(sys_.mass)
        k_eff = sys_.mass + h * th * C + h * h * th * th * K
        # q1 = q_m + h theta v1 with q_m the predicted configuration
        q_m = q + h * (1.0 - th) * v
        rhs = (sys_.mass @ v
               + h * (th * sys_.external(t + h) + (1.0 - th) * sys_.force(q, v, t))
               - h * th * (K @ q_m))
        v_free = np.linalg.solve(k_eff, rhs)
        m = len(self.relation.gaps(q))
        P_all = np.zeros(2 * m)
        active = active_contacts(self.relation.gaps(q_m), self.activation_gap,
                                 self.memory.pressed(range(m)))
        local = None
        v1 = v_free
        if len(active):
            rows = normal_tangential_rows(active)
            H = self.relation.jacobian(q_m)[rows]
            columns = np.linalg.solve(k_eff, H.T)  # K_eff^-1 H^T
            problem = FrictionContactProblem.shifted(H @ columns, H @ v_free, self.law,
                                                     H[0::2] @ v)
            keys = [int(c) for c in active]
            local = solve(problem, self.memory.guess(keys))
            self.memory.store(keys, local.P)
            v1 = v_free + columns @ local.P
            P_all[rows] = local.P
        else:
            self.memory.store([], np.zeros(0))
        return StepOutcome(q_m + h * th * v1, v1, P_all, active, local)
