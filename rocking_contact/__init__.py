"""rocking_contact: impacts, rocking and friction on FEniCSx, validated case by case.

Importing the package prepares the DOLFINx wheel's PETSc/MPI libraries
(``import dolfinx_solver`` must precede any ``dolfinx`` or ``petsc4py`` import).
"""

import dolfinx_solver  # noqa: F401  (must come before dolfinx / petsc4py)

from rocking_contact.api import format_table, load_case, run
from rocking_contact.config import CaseError
from rocking_contact.results import Interrupted, SolverFailure

__version__ = "0.1.0"
__all__ = ["load_case", "run", "format_table", "CaseError", "SolverFailure", "Interrupted",
           "__version__"]
