"""Versions of the software stack: what a run was computed with, what a report was made with.

Installed distributions are read from their metadata (no import). PETSc and SLEPc, whose
library versions differ from their Python bindings', are asked the library itself: a run
records them only if it loaded them (a discrete case never imports PETSc, and recording its
stack must not change that); the report imports them (after ``dolfinx_solver``, as the
package requires) to describe the machine it was made on.
"""

from __future__ import annotations

import importlib
import importlib.metadata as metadata
import platform
import sys

#: (shown name, distribution) in the order the report lists them
DISTRIBUTIONS: tuple[tuple[str, str], ...] = (
    ("rocking-contact", "rocking-contact"),
    ("numpy", "numpy"),
    ("scipy", "scipy"),
    ("numba", "numba"),
    ("dolfinx (dolfinx-solver-real)", "dolfinx-solver-real"),
    ("basix", "fenics-basix"),
    ("ufl", "fenics-ufl"),
    ("ffcx", "fenics-ffcx"),
    ("mpi4py", "mpi4py"),
    ("gmsh", "gmsh"),
    ("matplotlib", "matplotlib"),
    ("pyvista", "pyvista"),
    ("vtk", "vtk"),
    ("imageio", "imageio"),
    ("imageio-ffmpeg", "imageio-ffmpeg"),
)


#: what a run that never loaded a compiled library records for it
NOT_LOADED = "not loaded by this run"


def _library_version(module: str, attribute: str) -> str | None:
    """``module.attribute.Sys.getVersion()`` as a dotted string, or None."""
    try:
        importlib.import_module("dolfinx_solver")
        lib = importlib.import_module(f"{module}.{attribute}")
        return ".".join(str(p) for p in lib.Sys.getVersion())
    except Exception:  # noqa: BLE001  (any failure means: not available here)
        return None


def stack_versions(*, load_libraries: bool = True) -> list[tuple[str, str]]:
    """(component, version) pairs of the stack this process runs on.

    Args:
        load_libraries: import petsc4py / slepc4py to ask their libraries; if False, a
            library this process has not loaded is recorded as :data:`NOT_LOADED`.

    """
    rows = [("Python", platform.python_version()),
            ("platform", f"{platform.system()} {platform.release()} {platform.machine()}")]
    for shown, dist in DISTRIBUTIONS:
        try:
            rows.append((shown, metadata.version(dist)))
        except metadata.PackageNotFoundError:
            rows.append((shown, "not installed"))
    for shown, module, attribute in (("PETSc (library)", "petsc4py", "PETSc"),
                                     ("SLEPc (library)", "slepc4py", "SLEPc")):
        if not load_libraries and f"{module}.{attribute}" not in sys.modules:
            rows.append((shown, NOT_LOADED))
            continue
        version = _library_version(module, attribute)
        rows.append((shown, version or "not available"))
    return rows
