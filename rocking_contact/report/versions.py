"""Versions of the software stack, for the report.

Installed distributions are read from their metadata (no import); PETSc and SLEPc, whose
library versions differ from their Python bindings', are asked directly when petsc4py
and slepc4py can be imported (after ``dolfinx_solver``, as the package requires).
"""

from __future__ import annotations

import importlib
import importlib.metadata as metadata
import platform

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


def _library_version(module: str, attribute: str) -> str | None:
    """``module.attribute.Sys.getVersion()`` as a dotted string, or None."""
    try:
        importlib.import_module("dolfinx_solver")
        lib = importlib.import_module(f"{module}.{attribute}")
        return ".".join(str(p) for p in lib.Sys.getVersion())
    except Exception:  # noqa: BLE001  (any failure means: not available here)
        return None


def stack_versions() -> list[tuple[str, str]]:
    """(component, version) pairs of the stack this process runs on."""
    rows = [("Python", platform.python_version()),
            ("platform", f"{platform.system()} {platform.release()} {platform.machine()}")]
    for shown, dist in DISTRIBUTIONS:
        try:
            rows.append((shown, metadata.version(dist)))
        except metadata.PackageNotFoundError:
            rows.append((shown, "not installed"))
    for shown, module, attribute in (("PETSc (library)", "petsc4py", "PETSc"),
                                     ("SLEPc (library)", "slepc4py", "SLEPc")):
        version = _library_version(module, attribute)
        rows.append((shown, version or "not available"))
    return rows
