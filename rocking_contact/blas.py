"""Which OpenBLAS kernels this process computes with.

numpy, scipy, basix and PETSc (the ``dolfinx-solver-real`` wheel) each bundle an OpenBLAS
built for every x86-64 generation (``DYNAMIC_ARCH``); at load time each picks the kernels of
the CPU it finds (``Haswell`` for AVX2, ``SkylakeX`` for AVX-512, ...), or those named by
the environment variable ``OPENBLAS_CORETYPE``. Kernels of two generations sum in another
order, so the same inputs give results that differ by round-off, and the rocking block's
impacts amplify round-off (docs/contact.md, "Sensitivity"): the later collisions of SDNV105 A
and C move by up to a few tenths of a percent between two machines. The kernels are not
the whole story: the same Haswell kernels on an Intel Xeon and on an AMD EPYC differ from
A's fourth collision on as much as two kernel sets do on one CPU (docs/contact.md, "Which
kernels"). A number reproduces on the same CPU model with the same kernels
(``OPENBLAS_CORETYPE=<kernel>`` chooses them on any CPU that has their instructions), so a
run records both in results.json ``stack``: "CPU" (:func:`cpu_model`: its model, family and
model numbers and its widest vector instructions, which bound the kernels OpenBLAS may
pick) and "OpenBLAS kernels" (:func:`openblas_kernels`).

Only libraries the process has already loaded are asked (read from ``/proc/self/maps``):
recording the kernels must not load a library a run did not need; the CPU is read from
``/proc/cpuinfo``, a text file. Elsewhere than on Linux no kernels are found, and the CPU
is what :func:`platform.processor` says.
"""

from __future__ import annotations

import ctypes
import os
import platform
import re
from pathlib import Path

#: what each bundled OpenBLAS calls its "which kernels" function
CORENAME_FUNCTIONS = ("openblas_get_corename", "scipy_openblas_get_corename64_",
                      "scipy_openblas_get_corename")

#: the package a bundled OpenBLAS comes with, by a directory of its path
OWNERS = (("numpy.libs", "numpy"), ("scipy.libs", "scipy"),
          ("fenics_basix.libs", "basix"), ("dolfinx_solver", "PETSc"))


#: the ``/proc/cpuinfo`` flags of the vector instructions OpenBLAS picks its x86-64 kernels
#: by, widest first, with their names (SkylakeX and later need AVX-512, Haswell AVX2)
VECTOR_LEVELS = (("avx512f", "AVX-512"), ("avx2", "AVX2"))


def cpu_model(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The CPU this process runs on, as a run records it (results.json ``stack``, "CPU"):
    its ``model name``, then its ``cpu family`` and ``model`` numbers (what OpenBLAS
    tells the generations of one vendor by; a virtual machine's model name may be generic,
    ``Intel(R) Xeon(R) Processor``) and the widest of :data:`VECTOR_LEVELS` it has, or
    ``no AVX2`` (x86-64 only: other CPUs list no ``flags``):
    ``"Intel(R) Xeon(R) Processor (family 6, model 167; AVX-512)"``. The first processor
    is read: the machines this runs on have one CPU model. Without ``/proc/cpuinfo`` (not
    Linux) :func:`platform.processor`, or ``"unknown"``."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return platform.processor() or "unknown"
    fields: dict[str, str] = {}
    for line in text.split("\n\n", 1)[0].splitlines():
        key, colon, value = line.partition(":")
        if colon:
            fields.setdefault(key.strip(), value.strip())
    name = fields.get("model name") or platform.processor() or "unknown"
    numbers = ", ".join(f"{label} {fields[key]}" for key, label in
                        (("cpu family", "family"), ("model", "model")) if fields.get(key))
    level = ""
    if "flags" in fields:
        flags = set(fields["flags"].split())
        level = next((shown for flag, shown in VECTOR_LEVELS if flag in flags), "no AVX2")
    details = "; ".join(part for part in (numbers, level) if part)
    return f"{name} ({details})" if details else name


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


#: how :func:`openblas_kernels` says that the environment chose the kernels
CHOSEN_BY = "; OPENBLAS_CORETYPE="


def _kernels_read(text: str) -> tuple[dict[str, str], str]:
    """The ``library -> kernels`` of an :func:`openblas_kernels` text, ``{"": kernels}``
    for the one-kernel form (every library the process loaded, unnamed), and the
    environment's ``OPENBLAS_CORETYPE`` ('' if it chose none)."""
    named, _, chosen = text.partition(CHOSEN_BY)
    by_library = {library.strip(): kernel
                  for kernel, libraries in re.findall(r"(\S+) \(([^)]*)\)", named)
                  for library in libraries.split(",")}
    return by_library or {"": named.strip()}, chosen


def same_kernels(one: str, other: str) -> bool:
    """Whether two processes' :func:`openblas_kernels` texts say they computed with the
    same kernels, although each names only the libraries it loaded (a report's process
    loads numpy's and PETSc's, a block run basix's and scipy's too): unless the
    environment chose them in one and not alike in the other, they differ only where a
    library both name chose other kernels, or, for a process whose libraries all chose
    one (unnamed), where none of the other's chose it."""
    (mine, my_choice), (theirs, their_choice) = _kernels_read(one), _kernels_read(other)
    if my_choice != their_choice:
        return False
    if "" in mine or "" in theirs:  # one of them unnamed: compare what either chose
        single, named = (mine, theirs) if "" in mine else (theirs, mine)
        return single[""] in named.values()
    return all(mine[library] == kernel for library, kernel in theirs.items()
               if library in mine)
