"""rocking_contact: impacts, rocking and friction on FEniCSx, validated case by case.

Importing the package prepares the DOLFINx wheel's PETSc/MPI libraries
(``import dolfinx_solver`` must precede any ``dolfinx`` or ``petsc4py`` import).
"""

import dolfinx_solver  # noqa: F401  (must come before dolfinx / petsc4py)

from rocking_contact.api import format_table, load_case, run

__version__ = "0.1.0"
__all__ = ["load_case", "run", "format_table", "__version__"]
