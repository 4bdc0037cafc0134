"""What a run changes from its case file, sorted by what it means for the grading.

A change outside :data:`METHOD_KEYS` is physics: the case's references no longer describe
the run. A change under :data:`GRADING_KEYS` alters the marks or the measures themselves.
Keys of :data:`PLACED_KEYS` were placed by hand for the physics of the file that gives
them: a run of other physics that keeps them is told (:func:`placed_for_other_physics`).
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

from rocking_contact.config.layers import Origins
from rocking_contact.config.loading import file_case, load_case, read_case_data, source_file
from rocking_contact.config.overrides import dig
from rocking_contact.config.refusals import replacements
from rocking_contact.config.schema import CaseError, as_dict, differences
from rocking_contact.config.sections import CaseFile

#: Keys that choose how a case is computed or measured (steps, schemes, solvers, meshes,
#: kinematics, contact treatments and friction-law variants, outputs), not the physics its
#: references describe: a run that changes them is still graded against them. ``*``
#: stands for any index of a list. Not ``rigid.friction``: the rigid block's Coulomb
#: coefficient (a block case's ``contact.mu``) is its physics, though the rigid levels
#: only warn by it, so that a run of another coefficient is told from its file's. Of
#: ``[time]``, not ``start``: the references' instants are absolute and a table
#: acceleration is a function of absolute time, so another start is another motion. A
#: run that ends elsewhere than the file is graded on what it covers
#: (:func:`rocking_contact.post.references.mark_not_reached`).
METHOD_KEYS = tuple(tuple(k.split(".")) for k in (
    "case", "time.end", "time.step", "time.window", "time.refine", "scheme", "solver",
    "mesh", "kinematics", "output", "collisions", "impacts", "quantity", "reference",
    "initial.preload_steps", "rigid.level", "rigid.impacts", "rigid.tolerance",
    "model.shock.*.friction", "contact.treatment",
    "contact.spring.*.friction", "contact.spring.*.dashpots",
    "contact.spring.*.anchor_stiffness",
    "contact.search_distance", "contact.closed_gap", "contact.gap_tolerance",
    "contact.augmentation_normal", "contact.augmentation_tangential", "contact.tolerance",
    "contact.step_tolerance", "contact.max_iterations", "contact.local_iterations"))


def _matched(path: tuple[str, ...], keys: tuple[tuple[str, ...], ...]) -> int:
    """The length of the first of ``keys`` that ``path`` is or lies under (``*``: any
    index), 0 if none."""
    return next((len(k) for k in keys if len(path) >= len(k)
                 and all(c in (p, "*") for p, c in zip(path, k, strict=False))), 0)


def _is_method_key(path: tuple[str, ...]) -> bool:
    return bool(_matched(path, METHOD_KEYS))


#: Keys whose value is a direction, normalised where it is read (``[2, 0, 0]`` is
#: ``[1, 0, 0]``: docs/discrete.md): a run that gives a scaled copy of its file's changes
#: nothing, one that turns it does.
DIRECTION_KEYS = tuple(tuple(k.split(".")) for k in (
    "model.shock.*.normal", "model.support.direction"))

#: how far apart two directions' unit vectors may be and still be the same direction: the
#: round-off of normalising a scaled copy (a few 1e-16), far below any turn a case means
DIRECTION_ROUND_OFF = 1e-12


def _same_direction(path: tuple[str, ...], old: Any, new: Any) -> bool:
    """Whether ``path``, a difference between the parameters ``old`` and ``new``, is (or
    lies in) a key of :data:`DIRECTION_KEYS` whose two vectors point the same way."""
    n = _matched(path, DIRECTION_KEYS)
    if not n:
        return False
    a, b = (dig(values, ".".join(path[:n])) for values in (old, new))
    if not (isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b)):
        return False
    na, nb = math.hypot(*a), math.hypot(*b)
    return bool(na > 0.0 and nb > 0.0  # a zero vector has no direction (refused at load)
                and all(abs(x / na - y / nb) <= DIRECTION_ROUND_OFF
                        for x, y in zip(a, b, strict=True)))


#: Keys that say what a case is graded on: its references, the quantities they compare
#: with, how collisions and impacts are measured. Method keys, but ``validate`` grades with
#: the case file's.
GRADING_KEYS = (("reference",), ("quantity",), ("collisions", "windows"),
                ("collisions", "column"), ("impacts",))


def _changes(case: CaseFile, base: CaseFile | None) -> list[tuple[str, ...]]:
    """Key paths whose values in ``case`` differ from its case file's (``base``, loaded if
    not given: ``--set``, an override dict or an attribute set after loading); a direction
    scaled, not turned, is none (:data:`DIRECTION_KEYS`). Of two keys that give one setting
    (:func:`~rocking_contact.config.refusals.replacements`), a key left behind for the other
    is named by the other, which the run reads: ``--set preload.tilt=0.01`` over the rigid
    file's ``preload.angle`` changes ``preload.tilt``, not the ``preload.angle`` the user
    never gave (which the title would otherwise name: "preload.angle, preload.tilt =
    0.01")."""
    base = base if base is not None else file_case(case)
    if base is None:
        return []
    old, new = as_dict(base), as_dict(case)
    read = {tuple(key.split(".")): tuple(other_key.split("."))
            for table, name, _, key, other_key in replacements(case)
            if getattr(table, name) is None}
    found: list[tuple[str, ...]] = []
    for p in differences(old, new):
        p = read.get(p, p)
        if p not in found and not _same_direction(p, old, new):
            found.append(p)
    return found


def physics_changes(case: CaseFile, base: CaseFile | None = None) -> list[str]:
    """Dotted keys changed from the case file (:func:`_changes`) outside
    :data:`METHOD_KEYS`: the case's references no longer describe the run."""
    return [".".join(p) for p in _changes(case, base) if not _is_method_key(p)]


def grading_changes(case: CaseFile) -> list[str]:
    """Dotted keys changed from the case file under :data:`GRADING_KEYS`: the marks or the
    measures are not the case file's."""
    return [".".join(p) for p in _changes(case, None)
            if any(p[:len(k)] == k for k in GRADING_KEYS)]


#: Keys placed by hand at the instants of one physics's impacts (SDNV105's): the short-step
#: windows of A, B and C and the windows collisions are measured in. What each is, and what
#: it does where the run's own impacts fall elsewhere (a block run sets the collision
#: windows aside and says so itself, post.collisions.windows_set_aside: post.grading leaves
#: this line out for it).
PLACED_KEYS: dict[tuple[str, ...], tuple[str, str]] = {
    ("time", "window"): (
        "short-step windows", "they do not follow this run's impacts ({refine}); give the run "
        "its own [[time.window]] tables, or time.window = [] to remove them"),
    ("collisions", "windows"): (
        "collision windows", "collision k is still the largest kinetic "
        "energy in window k, an impact of this run or not; give the run its own "
        "(collisions.windows = [[t0, t1], ...]), or collisions.windows = [] to take one "
        "at each landing of this run"),
}


def placed_for_other_physics(case: CaseFile) -> list[str]:
    """One warning per key of :data:`PLACED_KEYS` that the run keeps, not empty, as a case
    file placed it (inherited through ``extends``, or the file's own under ``--set``) while
    the run changes that file's physics (:func:`physics_changes`): which windows, whose,
    for what, and how to replace or remove them. The step driver's refinement still finds
    the run's impacts, so the results stand; the user is told whose windows they are.
    Nothing for a case built in code. Likewise the ``[case]`` description inherited
    through ``extends`` by a run that changes the physics it describes (a file's own
    under ``--set`` is not said: the report marks the run as changed)."""
    source = source_file(case)
    if source is None or not Path(source).is_file():
        return []
    origins: Origins = {}
    read_case_data(Path(source), origins=origins)
    values = as_dict(case)
    out = []
    # (a discrete case extended with other physics keeps its parent's references, which
    # a warning says come from there: the description goes with them)
    described = [DESCRIPTION] if case.case.kind in ("block", "rigid") else []
    for key, value, holder, changed in kept_from_other_physics(
            case, values, origins, [*PLACED_KEYS, *described]):
        if key == DESCRIPTION:
            if Path(holder) != Path(source):  # a file's own, under --set: the report says so
                out.append(f"case.description: comes from {holder}, written for its "
                           f"block, and this run changes {', '.join(changed)}: the report "
                           "describes the run with it; give the case its own (description "
                           "= \"\" for none)")
            continue
        if holds_the_run(case, value):
            continue  # one window over the whole run is placed at no impact
        what, effect = PLACED_KEYS[key]
        refined = ("time.refine still takes small steps where a contact closes or opens"
                   if case.refines_steps() else
                   "without time.refine, an impact outside them takes steps of time.step")
        spans = " ".join("[{:g}, {:g}]".format(*_window(w)) for w in value)
        out.append(f"{'.'.join(key)}: the {len(value)} {what} {spans} s come from "
                   f"{holder}, placed there at the impacts of its block, and this run "
                   f"changes {', '.join(changed)}: {effect.format(refine=refined)}")
    return out


#: the ``[case]`` description, written for the block of the file that gives it
DESCRIPTION = ("case", "description")


def kept_from_other_physics(case: CaseFile, values: Any, origins: Origins,
                             keys: list[tuple[str, ...]]
                             ) -> list[tuple[tuple[str, ...], Any, Path, list[str]]]:
    """``(key, value, the file that gives it, the physics keys the run changes from that
    file)`` for each of ``keys`` that ``case`` keeps, not empty, as that file gives it."""
    found = []
    for key in keys:
        value = dig(values, ".".join(key))
        if value in (None, dataclasses.MISSING, [], "") or key not in origins:
            continue  # none, or a default: nobody placed them
        holder = origins[key][0]
        try:
            placer = load_case(holder)
        except CaseError:  # a parent that is no case alone (its children complete it)
            continue
        if dig(as_dict(placer), ".".join(key)) != value:
            continue  # the run's own
        changed = physics_changes(case, placer)
        if changed:
            found.append((key, value, holder, changed))
    return found


def holds_the_run(case: CaseFile, windows: Any) -> bool:
    """Whether ``windows`` is one window that spans the whole run, ``time.start`` to
    ``time.end`` (several are placed at impacts, even where the run ends in the first)."""
    if len(windows) != 1:
        return False
    w0, w1 = _window(windows[0])
    return bool(w0 <= case.time.start and w1 >= case.time.end)


def _window(window: Any) -> tuple[float, float]:
    """(start, end) of a step window (a table) or of a collision window (a pair), s."""
    if isinstance(window, dict):
        return window["start"], window["end"]
    return window[0], window[1]
