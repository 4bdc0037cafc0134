"""Lagrange multipliers (SDNV105 A): nodal contact forces, exact local solve.

The unknowns of the contact are the nodal forces ``lambda = (lambda_N, lambda_T)`` of the
slave nodes (the block base), one pair per node, collocated on the gap and the slip of the
node (node-to-node where the nodes coincide, node-to-segment otherwise:
:mod:`rocking_contact.contact.kinematics`). At each Newton iteration of a step the
displacements are eliminated (:mod:`rocking_contact.contact.condensed`) and the local
Signorini-Coulomb problem ``q = q_free + W lambda`` is solved *exactly* by the primal-dual
active set method — full semismooth Newton steps on the Alart-Curnier function until
``max |Phi|`` is below ``contact.tolerance`` times the weight scale (N), a set that comes
back without progress halving the step (:func:`rocking_contact.contact.local.solve_active_set`).
This is Code_Aster's discrete contact in spirit: an active-set loop on the condensed
(Schur complement) problem inside each global Newton iteration. For a linear body the
first iteration is exact and the second one only checks it.
"""

from __future__ import annotations

import numpy as np

from rocking_contact.contact.condensed import CondensedContact
from rocking_contact.contact.local import LocalProblem, LocalSolution, solve_active_set


class LagrangeContact(CondensedContact):
    """Nodal Lagrange multipliers with a primal-dual active set (a Corrector)."""

    #: what the messages call it (a step it rejects: :mod:`rocking_contact.solvers.driver`)
    label = "the contact treatment 'lagrange'"

    def local_solve(self, problem: LocalProblem, lam0: np.ndarray) -> LocalSolution:
        """The exact solution of the local problem (active sets iterated to a fixed point)."""
        return solve_active_set(problem, lam0, tol=self.tol,
                                max_iterations=self.spec.local_iterations)
