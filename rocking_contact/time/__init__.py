"""Time schemes for M a + g(u, v, t) = 0 (g: internal, damping and external forces).

One interface for Newmark, the alpha-modified Newmark of Code_Aster ("HHT" with
MODI_EQUI='NON'), the true Hilber-Hughes-Taylor scheme and the theta-method on velocities
(Moreau-Jean): see :mod:`~rocking_contact.time.schemes`. Pure Python, no DOLFINx: a scheme
is a table of coefficients that the step problem
(:class:`~rocking_contact.solvers.step.StepProblem`) applies to vectors.
"""

from rocking_contact.time.schemes import (
    HHT,
    Affine,
    Newmark,
    Scheme,
    Stage,
    Static,
    Theta,
    alpha_modified_newmark,
    hht_coefficients,
)

__all__ = ["Affine", "Stage", "Scheme", "Newmark", "HHT", "Theta", "Static",
           "alpha_modified_newmark", "hht_coefficients"]
