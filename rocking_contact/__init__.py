"""rocking_contact: impacts, rocking and friction on FEniCSx, validated case by case.

From Python (the command line ``rocking-contact`` does the same)::

    import rocking_contact as rc

    case = rc.load_case("sdnd101a", {"time.step": 1e-4})   # name or TOML file, overrides
    case.solver.scheme = "newmark"                          # checked again by rc.run
    result = rc.run(case, out="results/sdnd101a_newmark")   # or write=False
    print(rc.format_table(result))                          # reference vs computed
    result.history["DX_NO1"]                                # m, numpy array over
    result.history["time"]                                  # ... these instants (s)
    result.quantities["impact.NO1.1.max_force"]             # N
    result.columns("impacts")["max_force"]                  # every impact's, N
    result.passed                                           # every graded check passed

Every kind of case runs through :func:`run`: the spring-mass systems (``sdnd100a`` ...,
kind ``discrete``), the rigid block (``sdnv105_rigid``, kind ``rigid``: every level's
impacts in ``result.extra["levels"]``, lower-level functions in ``docs/rigid.md``) and the
elastic block (``sdnv105a`` ..., kind ``block``, FEM). ``rocking-contact keys <case>``
lists a case's keys with their units.

Names: :func:`load_case`, :func:`run`, :func:`format_table`, :class:`RunResult` (what a run
computed, SI units), :class:`CaseError` (bad input: one line, file, key, what is allowed),
:class:`SolverFailure` (a run that stopped early, ``.partial`` holds what it computed) and
its kinds :class:`Interrupted` (Ctrl-C, SIGTERM) and :class:`Overturned` (the block
toppled or slid off its table). Runs in one process do not affect one another.

Importing the package prepares the DOLFINx wheel's PETSc/MPI libraries
(``import dolfinx_solver`` must precede any ``dolfinx`` or ``petsc4py`` import).
"""

import dolfinx_solver  # noqa: F401  (must come before dolfinx / petsc4py)

from rocking_contact.api import format_table, load_case, run
from rocking_contact.config import CaseError
from rocking_contact.results import Interrupted, Overturned, RunResult, SolverFailure

__version__ = "0.1.0"
__all__ = ["load_case", "run", "format_table", "RunResult", "CaseError", "SolverFailure",
           "Interrupted", "Overturned", "__version__"]
