"""Which OpenBLAS kernels this process computes with.

numpy, scipy, basix and PETSc (the ``dolfinx-solver-real`` wheel) each bundle an OpenBLAS
built for every x86-64 generation (``DYNAMIC_ARCH``); at load time each picks the kernels of
the CPU it finds (``Haswell`` for AVX2, ``SkylakeX`` for AVX-512, ...), or those named by
the environment variable ``OPENBLAS_CORETYPE``. Kernels of two generations sum in another
order, so the same inputs give results that differ by round-off, and the rocking block's
impacts amplify round-off (docs/contact.md, "Sensitivity"): the later collisions of SDNV105 A
and C move by up to a few tenths of a percent between two machines. A run records the
kernels (results.json ``stack``, "OpenBLAS kernels"), so that its numbers can be reproduced
elsewhere: ``OPENBLAS_CORETYPE=<kernel>`` on any CPU that has that kernel's instructions.

Only libraries the process has already loaded are asked (read from ``/proc/self/maps``):
recording the kernels must not load a library a run did not need. Elsewhere than on Linux
nothing is found.
"""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

#: what each bundled OpenBLAS calls its "which kernels" function
CORENAME_FUNCTIONS = ("openblas_get_corename", "scipy_openblas_get_corename64_",
                      "scipy_openblas_get_corename")

#: the package a bundled OpenBLAS comes with, by a directory of its path
OWNERS = (("numpy.libs", "numpy"), ("scipy.libs", "scipy"),
          ("fenics_basix.libs", "basix"), ("dolfinx_solver", "PETSc"))


def _loaded_openblas(maps: Path = Path("/proc/self/maps")) -> list[str]:
    """Paths of the OpenBLAS libraries mapped into this process, in load order."""
    try:
        text = maps.read_text()
    except OSError:
        return []
    paths: list[str] = []
    for line in text.splitlines():
        path = line.split()[-1] if len(line.split()) >= 6 else ""
        if "openblas" in Path(path).name.lower() and path not in paths:
            paths.append(path)
    return paths


def _corename(path: str) -> str | None:
    """The kernels an OpenBLAS library chose, or None if it does not say."""
    try:
        lib = ctypes.CDLL(path)  # already mapped: this only takes a handle on it
    except OSError:
        return None
    for name in CORENAME_FUNCTIONS:
        function = getattr(lib, name, None)
        if function is not None:
            function.restype = ctypes.c_char_p
            value = function()
            return value.decode() if value else None
    return None


def _owner(path: str) -> str:
    return next((owner for part, owner in OWNERS if part in Path(path).parts),
                Path(path).name)


def openblas_kernels() -> str | None:
    """The kernels of the loaded OpenBLAS libraries: ``"Haswell"`` when they all chose the
    same (what two processes that loaded different libraries compare), else each with its
    packages, ``"Haswell (numpy, scipy), SkylakeX (PETSc)"``; followed by
    ``"; OPENBLAS_CORETYPE=..."`` when the environment chose them. None if none is loaded
    (or this is not Linux)."""
    by_kernel: dict[str, list[str]] = {}
    for path in _loaded_openblas():
        kernel = _corename(path)
        if kernel is not None:
            by_kernel.setdefault(kernel, []).append(_owner(path))
    if not by_kernel:
        return None
    text = (next(iter(by_kernel)) if len(by_kernel) == 1 else
            ", ".join(f"{kernel} ({', '.join(owners)})" for kernel, owners in by_kernel.items()))
    chosen = os.environ.get("OPENBLAS_CORETYPE")
    return f"{text}; OPENBLAS_CORETYPE={chosen}" if chosen else text
