"""Contact tests: ``rocking_contact`` is imported first (it prepares PETSc's MPI libraries)."""

import rocking_contact  # noqa: F401
