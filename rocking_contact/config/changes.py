"""What a run changes from its case file, sorted by what it means for the grading.

A change outside :data:`METHOD_KEYS` is physics: the case's references no longer describe
the run. A change under :data:`GRADING_KEYS` alters the marks or the measures themselves.
"""

from __future__ import annotations

from typing import Any

from rocking_contact.config.loading import file_case
from rocking_contact.config.schema import _differences, as_dict

#: Keys that choose how a case is computed or measured (steps, schemes, solvers, meshes,
#: kinematics, contact treatments and friction-law variants, outputs), not the physics its
#: references describe: a run that changes them is still graded against them. ``*``
#: stands for any index of a list; ``rigid.friction`` only decides a warning.
METHOD_KEYS = tuple(tuple(k.split(".")) for k in (
    "case", "time", "scheme", "solver", "mesh", "kinematics", "output", "collisions",
    "impacts", "quantity", "reference", "initial.preload_steps", "rigid.level",
    "rigid.impacts", "rigid.tolerance", "rigid.friction", "model.shock.*.friction",
    "contact.treatment", "contact.spring.*.friction", "contact.spring.*.dashpots",
    "contact.spring.*.anchor_stiffness",
    "contact.search_distance", "contact.closed_gap", "contact.gap_tolerance",
    "contact.augmentation_normal", "contact.augmentation_tangential", "contact.tolerance",
    "contact.step_tolerance", "contact.max_iterations", "contact.local_iterations"))


def _is_method_key(path: tuple[str, ...]) -> bool:
    return any(len(path) >= len(k) and all(c in (p, "*") for p, c in zip(path, k, strict=False))
               for k in METHOD_KEYS)


#: Keys that say what a case is graded on: its references, the quantities they compare
#: with, how collisions and impacts are measured. Method keys, but ``validate`` grades with
#: the case file's.
GRADING_KEYS = (("reference",), ("quantity",), ("collisions", "windows"),
                ("collisions", "column"), ("impacts",))


def _changes(case: Any, base: Any | None) -> list[tuple[str, ...]]:
    """Key paths whose values in ``case`` differ from its case file's (``base``, loaded if
    not given: ``--set``, an override dict or an attribute set after loading)."""
    base = base if base is not None else file_case(case)
    return [] if base is None else _differences(as_dict(base), as_dict(case))


def physics_changes(case: Any, base: Any | None = None) -> list[str]:
    """Dotted keys changed from the case file (:func:`_changes`) outside
    :data:`METHOD_KEYS`: the case's references no longer describe the run."""
    return [".".join(p) for p in _changes(case, base) if not _is_method_key(p)]


def grading_changes(case: Any, base: Any | None = None) -> list[str]:
    """Dotted keys changed from the case file under :data:`GRADING_KEYS`: the marks or the
    measures are not the case file's."""
    return [".".join(p) for p in _changes(case, base)
            if any(p[:len(k)] == k for k in GRADING_KEYS)]
