"""Objects named ``"module:name"``, imported when first used: the registries (case kinds,
contact treatments, discrete schemes) name their runners, factories and integrators so,
and the heavy modules (DOLFINx, numba kernels) load only for the entries a run uses."""

from __future__ import annotations

import importlib
from typing import Any


def imported(path: str) -> Any:
    """The object ``path`` names, ``"package.module:name"`` (the module imported if need be)."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)
