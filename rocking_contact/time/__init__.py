"""Time schemes for M a + g(u, v, t) = 0 (g: internal, damping and external forces).

One interface for Newmark, the alpha-modified Newmark of Code_Aster ("HHT" with
MODI_EQUI='NON'), the true Hilber-Hughes-Taylor scheme and the theta-method on velocities
(Moreau-Jean), one module each: see :mod:`~rocking_contact.time.schemes`. Pure Python, no
DOLFINx: a scheme is a table of coefficients that the step problem
(:class:`~rocking_contact.solvers.step.StepProblem`) applies to vectors.
"""

from rocking_contact.time.hht import HHT, alpha_modified_newmark, hht_coefficients
from rocking_contact.time.newmark import Newmark
from rocking_contact.time.stage import Affine, Scheme, Stage
from rocking_contact.time.static import Static
from rocking_contact.time.theta import Theta

__all__ = ["Affine", "Stage", "Scheme", "Newmark", "HHT", "Theta", "Static",
           "alpha_modified_newmark", "hht_coefficients"]
