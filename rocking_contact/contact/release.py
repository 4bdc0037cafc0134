"""The release: the contact takes over from the supports of the static preload.

The preload (:mod:`rocking_contact.fem.preload`) holds the block's base by supports; at the
release they are removed and the contact carries the block. The step problem computes the
initial acceleration from ``M a0 = -g(u0, v0)`` without any contact force, i.e. with the
base falling freely. Each treatment corrects it with its own forces at the released state,
``a0 += M^-1 F_contact``, solving with the mass matrix whose prescribed rows are identity
rows (the supports that stay, the table's, have zero acceleration; the same
:class:`~rocking_contact.solvers.step.MassSolver` as the initial acceleration):

- condensed treatments (Lagrange, continuous): the forces of the closed contacts solve the
  Signorini-Coulomb problem at the acceleration level (normal acceleration >= 0, tangential
  acceleration zero while sticking) on ``W = H M^-1 H^T``;
- shock springs: the springs are first compressed by the force the supports carried (the
  block is lowered by ``R / kn`` of the most loaded spring, a rigid translation that
  leaves the stresses as they are), as if the preload had been computed on the springs,
  which is what Code_Aster's test B does; only if that spring is closed where the preload
  left the block (a spring with a clearance, ``gap > 0``, lets the block fall it).
"""

from __future__ import annotations

from rocking_contact.solvers.step import MassSolver, StepProblem

#: PETSc options prefix of the mass solve
PREFIX = "contact_release_"


def mass_solver(problem: StepProblem) -> MassSolver:
    """The mass solve of a release, at the problem's supports and time (a context manager)."""
    return MassSolver(problem, prefix=PREFIX)
