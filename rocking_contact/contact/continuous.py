"""The continuous formulation (SDNV105 C): contact pressures, Alart-Curnier augmented
Lagrangian, generalised Newton.

The contact is written on the slave surface: a pressure field ``p = (p_N, p_T)`` (Pa) on
the block base with the weak conditions ``int (p_N - max(0, p_N - eps_N g)) dp_N ds = 0`` and
its Coulomb counterpart (Alart & Curnier 1991), discretised by the nodal values of ``p`` and
integrated with the nodal (Lobatto / trapezoidal) quadrature that Code_Aster uses on linear
segments. The nodal force is then ``lambda_i = w_i p_i`` with ``w_i`` the node's share of the
base (half its two segments, times the thickness, m^2), and the augmentation ``rho_i = w_i
eps`` scales with it. With this quadrature the discrete contact conditions are the nodal
ones of the Lagrange treatment (the two converge to the same solution); what differs is the
algorithm: here every Newton iteration of the step is *one* generalised (semismooth) Newton
step of the whole coupled system — displacements and pressures together, the active,
stick and slip sets frozen at the current iterate — condensed on the Delassus operator
(:mod:`rocking_contact.contact.condensed`), instead of an exact local solve. The sets settle
along the Newton iterations, which converge superlinearly once they have.
"""

from __future__ import annotations

import math

import numpy as np

from rocking_contact.contact.condensed import CondensedContact
from rocking_contact.contact.kinematics import ContactKinematics
from rocking_contact.contact.local import LocalProblem, LocalSolution, newton_step
from rocking_contact.contact.spec import ContactSpec
from rocking_contact.fem.body import ElasticBody


def nodal_weights(X: np.ndarray, thickness: float) -> np.ndarray:
    """Trapezoidal (nodal) quadrature weights of a polyline through the points ``X`` (m^2).

    Args:
        X: node coordinates along the curve, in order, shape (n, 2) (m).
        thickness: out-of-plane thickness (m).

    """
    if len(X) < 2:
        return np.full(len(X), thickness)
    lengths = np.hypot(*np.diff(X, axis=0).T)
    w = np.zeros(len(X))
    w[:-1] += 0.5 * lengths
    w[1:] += 0.5 * lengths
    return thickness * w


class ContinuousContact(CondensedContact):
    """Alart-Curnier augmented Lagrangian, generalised Newton (a Corrector)."""

    #: what the messages call it (a step it rejects: :mod:`rocking_contact.solvers.driver`)
    label = "the contact treatment 'continuous'"

    def __init__(self, body: ElasticBody, spec: ContactSpec, kinematics: ContactKinematics):
        super().__init__(body, spec, kinematics)
        self.weights = nodal_weights(kinematics.slave.X, body.fields.thickness)

    def local_solve(self, problem: LocalProblem, lam0: np.ndarray) -> LocalSolution:
        """One generalised Newton step from the current forces, the sets frozen at ``lam0``
        (``status``: those sets). ``Phi`` is not evaluated at the new forces (``residual``
        NaN, ``converged`` False): :meth:`~CondensedContact.correct` measures it with the
        coupled residual at the next iterate."""
        lam, status = newton_step(problem, lam0)
        return LocalSolution(lam, status, 1, False, math.nan)
