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
    rc.load_result("results/sdnd101a_newmark")              # the same, read back
    rc.format_table("results/sdnd101a_newmark")             # its table, read back

Every kind of case runs through :func:`run`: the spring-mass systems (``sdnd100a`` ...,
kind ``discrete``), the rigid block (``sdnv105_rigid``, kind ``rigid``: every level's
impacts in ``result.extra["levels"]``, lower-level functions in ``docs/rigid.md``) and the
elastic block (``sdnv105a`` ..., kind ``block``, FEM). ``rocking-contact keys <case>``
lists a case's keys with their units.

Names: :func:`load_case`, :func:`run`, :func:`format_table`, :class:`RunResult` (what a run
computed, SI units), :func:`load_result` (a results directory read back), :class:`CaseError`
(bad input: one line, file, key, what is allowed), :class:`SolverFailure` (an error: a run
that could not go on, ``.partial`` holds what it computed, ``.exit_code`` the command
line's, 1) and its kinds :class:`Overturned` (the FEM block toppled, or slid off its table:
:class:`SlidOff`, a kind of it; a rigid block that overturns completes, its
``extra["outcome"]`` says so) and :class:`Diverged` (a
block run whose steps created the energy that took the block off its table: a step too
long for its contact treatment), :class:`Interrupted`
(Ctrl-C or SIGTERM: a ``KeyboardInterrupt``, which ``except Exception`` lets through so
that the script stops; ``.partial`` too) and :class:`RunStopped`, the base of both;
:func:`rigid_twin` (the rigid case of a block case, what ``rocking-contact rigid`` runs:
``rc.run(rc.rigid_twin(rc.load_case("sdnv105d")))``). Runs in one process do not affect
one another.

Under ``mpiexec -n N python script.py`` every rank runs the script, and :func:`run` is
collective (every rank calls it with the same case; each gets the same result, rank 0
alone prints the progress and writes the files), but the script's own ``print`` runs on
every rank: :func:`mpi_rank` (0 without ``mpiexec``) prints once::

    if rc.mpi_rank() == 0:
        print(rc.format_table(result))

Importing a module of the package prepares the DOLFINx wheel's PETSc/MPI libraries first
(``import dolfinx_solver`` must precede any ``dolfinx`` or ``petsc4py`` import), and so does
the first use of a name above; ``import rocking_contact`` alone imports nothing heavy, so
that the command line takes a Ctrl-C from its first line on (:mod:`rocking_contact.cli`).
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

    from rocking_contact.api import format_table, load_case, mpi_rank, rigid_twin, run
    from rocking_contact.config import CaseError
    from rocking_contact.results import RunResult, load_result
    from rocking_contact.stops import (
        Diverged,
        Interrupted,
        Overturned,
        RunStopped,
        SlidOff,
        SolverFailure,
    )

__version__ = "0.1.0"
__all__ = ["load_case", "run", "format_table", "RunResult", "load_result", "CaseError",
           "SolverFailure", "Interrupted", "Overturned", "SlidOff", "Diverged",
           "RunStopped", "mpi_rank", "rigid_twin", "__version__"]

#: the module of each name above, imported at its first use (PEP 562)
_HOMES = {"load_case": "api", "run": "api", "format_table": "api", "mpi_rank": "api",
          "rigid_twin": "api",
          "CaseError": "config",
          "RunResult": "results", "load_result": "results", "SolverFailure": "stops",
          "Interrupted": "stops", "Overturned": "stops", "SlidOff": "stops",
          "Diverged": "stops", "RunStopped": "stops"}

#: the modules that the command line starts with: they import neither the wheel nor numpy
LIGHT_MODULES = frozenset({f"{__name__}.cli", f"{__name__}.interrupt", f"{__name__}.options",
                           f"{__name__}.caches", f"{__name__}.stops"})


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


class _WheelFirst:
    """Imports ``dolfinx_solver`` before the first module of the wheel (``dolfinx``,
    ``petsc4py``, ``slepc4py``: they find no MPI library without it) or of this package
    (but :data:`LIGHT_MODULES`), wherever that import is written: what the package's import
    did when it imported everything (a run under ``mpiexec`` knows its rank from then on).
    It finds nothing itself (a finder of :data:`sys.meta_path`)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if "dolfinx_solver" in sys.modules:  # done, or under way (its own imports)
            return None
        top = fullname.partition(".")[0]
        if top in ("dolfinx", "petsc4py", "slepc4py") or (
                top == __name__ and fullname not in LIGHT_MODULES):
            from rocking_contact.caches import ensure_form_cache

            # DOLFINx reads XDG_CACHE_HOME when it is imported; a block run's warnings
            # say what this changed (ensure_form_cache returns it again)
            ensure_form_cache()
            importlib.import_module("dolfinx_solver")
        return None


if not any(isinstance(finder, _WheelFirst) for finder in sys.meta_path):
    sys.meta_path.insert(0, _WheelFirst())
