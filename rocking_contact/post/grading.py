"""Grading a run against its case's references: the ``[[quantity]]`` values, the checks
and their pass marks, and the warnings about names and physics that no check covers.

:func:`grade` is what :func:`rocking_contact.run` does with a result, a stopped run's
partial result too: a check the run did not reach is marked so (``passed`` False, the
note says which end or window), and a run that changes the physics its references
describe is shown against them without a pass mark (``passed`` None).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from rocking_contact.config import (
    CaseFile,
    base_case,
    load_case,
    missing_columns,
    physics_changes,
    placed_for_other_physics,
    references_from,
    source_file,
    uncomputed_references,
    unread_keys,
)
from rocking_contact.post.collision_warnings import collisions_not_found_warnings
from rocking_contact.post.collisions import WINDOWS_KEY, lift_angle
from rocking_contact.post.references import (
    NONE,
    compare,
    evaluate_all,
    found_none,
    impacts_not_had_warnings,
    mark_not_reached,
    mark_unmeasured,
    mark_windows_past_end,
    not_reached,
    whole_run_quantities,
    window_ends,
)
from rocking_contact.results import RunResult, stopped


def grade(case: CaseFile, result: RunResult) -> RunResult:
    """Add the case's ``[[quantity]]`` values, the reference checks and the warnings that
    go with them to ``result`` (changed in place, and returned), and in ``result.extra``
    the physics keys the run changes (``changes``) and the keys of its ``parameters`` that
    its variants do not read (``unread``: :func:`rocking_contact.config.unread_keys`).

    Args:
        case: the case the run ran (a ``CaseFile`` as :func:`rocking_contact.load_case`
            gives it, its references and quantities read from it).
        result: what the run computed, up to its end or its stop.

    """
    evaluate_quantities(case, result)
    compare_references(case, result)
    mark_no_crossing(case, result)
    # a case derived from another's file (the rigid twin of a block case) says what its
    # file defines (the twin of the block's file as written), not the file it was built from
    base = base_case(case)
    source = inherited_references(case)
    # References inherited through `extends` describe the file that wrote them: its
    # physics and its span (a child that runs longer has more impacts than they count).
    graded = load_case(source) if source is not None else base
    mark_reach(case, result, base, graded)
    changed = ungrade_changed_physics(case, result, base, graded, source)
    # beside the changes: the keys of ``parameters`` the run's variants did not read, kept
    # there (the case as loaded) and which a reader must not take as acting
    result.extra["unread"] = unread_keys(case)
    name_warnings(case, result, changed)
    return result


def evaluate_quantities(case: CaseFile, result: RunResult) -> None:
    """The case's ``[[quantity]]`` values from the history, into ``result.quantities``; a
    name given twice, or one of the run's own, is said (the last one stands)."""
    names = [q.name for q in case.quantity]
    for name in sorted({n for n in names if names.count(n) > 1 or n in result.quantities}):
        whose = "the run's own" if name in result.quantities else "another [[quantity]]"
        result.warnings.append(f"[[quantity]] {name!r} replaces {whose} of that name: the "
                               "references to it compare with the last one")
    result.quantities.update(evaluate_all(case.quantity, result.history, lifts(case)))


def lifts(case: CaseFile) -> dict[str, float]:
    """The least swing a crossing of a history column must belong to, column -> value
    (:func:`~rocking_contact.post.references.swung`): for an elastic block, ``THETA`` past
    the lift angle its collisions take for a landing
    (:func:`~rocking_contact.post.collisions.lift_angle`), so that a block that never
    lifted has no crossing of it: SDNV105 D shaken at 4 m/s^2 rings to 2.6e-8 rad, and a
    sign change of that ringing (0.302181 s) would be its 'impact_time'. Empty for other
    kinds (a rigid block's THETA is exact: at rest, it is 0)."""
    return {"THETA": lift_angle(case)} if case.case.kind == "block" else {}


def compare_references(case: CaseFile, result: RunResult) -> None:
    """The checks of the case's references against the quantities (``result.checks``);
    those that hold for another time step are information only, and said so."""
    step = case.time.step
    result.checks = compare(case.reference, result.quantities, step=step)
    mark_unmeasured(result.checks, result.impacts)
    others = [r for r in case.reference if not r.holds_at(step)]
    if others:
        steps = sorted({r.step for r in others if r.step is not None})
        result.warnings.append(
            f"{len(others)} reference(s) hold for a time step of "
            f"{', '.join(f'{s:g}' for s in steps)} s (non-regression values) and the run "
            f"takes {step:g} s: they are shown for information, without a pass mark")


def mark_no_crossing(case: CaseFile, result: RunResult) -> None:
    """Say "none" on the checks of a crossing of a column with a lift (:func:`lifts`) that
    the run computed and found none of: not a misspelt name ("not computed"), but a
    crossing no swing past the lift reached (a block that never lifted). A run that ends
    before the window's end is said "not reached" afterwards (:func:`mark_reach`)."""
    least = lifts(case)
    crossings = {q.name: q for q in case.quantity
                 if q.op == "crossing" and q.column in least and q.column in result.history}
    for check in result.checks:
        spec = crossings.get(check["quantity"])
        if spec is None or check["note"] != "not computed" or math.isfinite(check["value"]):
            continue
        way = {"up": " upward", "down": " downward"}.get(spec.direction or "", "")
        span = "" if spec.window is None else " in [{:g}, {:g}] s".format(*spec.window)
        check["note"] = (f"{NONE}: {spec.column} does not cross {spec.level:g}{way}{span} in "
                         f"a swing past the lift angle ({least[spec.column]:.2g} rad; the "
                         f"elastic ringing of a block that did not lift does not count)")


def inherited_references(case: CaseFile) -> Path | None:
    """The file the case's references come from if it inherits them (``extends``), None
    if they are its own or it has none."""
    source = references_from(case)
    if bool(case.reference) and source != source_file(case):
        return source
    return None


def mark_reach(case: CaseFile, result: RunResult, base: CaseFile | None,
               graded: CaseFile | None) -> None:
    """Mark the checks of what the run did not reach: what it cuts off is told against its
    own file's end (``base``: a child that ends early says which windows it cuts off);
    what measures the whole run, against the end of the file its references describe
    (``graded``) too; the collision windows past the run's last instant."""
    times = result.history.get("time")
    if times is None or not len(times):
        return
    own_end, graded_end = ((f if f is not None else case).time.end for f in (base, graded))
    whole = whole_run_quantities(case.quantity, result.quantities, result.impacts)
    ended = stopped(result.status)  # said as the printed summary says it
    mark_not_reached(result.checks, float(times[-1]), own_end, whole, stopped=ended)
    if graded_end != own_end:
        mark_not_reached([c for c in result.checks if c["quantity"] in whole],
                         float(times[-1]), graded_end, whole, stopped=ended)
    mark_windows_past_end(result.checks, window_ends(
        case.quantity, _in_force(case.collision_windows(), result)), float(times[-1]))


def _in_force(windows: Sequence[tuple[float, float]] | None, result: RunResult
              ) -> Sequence[tuple[float, float]]:
    """Of the case's collision ``windows``, those the run's collisions were measured in:
    none where the run set them aside as placed for another physics
    (``extra.windows_set_aside``: :func:`~rocking_contact.post.collisions.windows_set_aside`)."""
    return () if "windows_set_aside" in result.extra else windows or ()


def ungrade_changed_physics(case: CaseFile, result: RunResult, base: CaseFile | None,
                            graded: CaseFile | None, source: Path | None) -> list[str]:
    """The physics keys the run changes from its case file (``base``), or else from the
    file its references come from (``source``, loaded as ``graded``): recorded in
    ``result.extra["changes"]`` (what the plots, views and report name the run by), and
    the checks shown without a pass mark, said once. Windows placed at the impacts of a
    file whose physics the run changes are said too. Returns the keys."""
    changed = physics_changes(case, base)
    why = "its references describe the case file's parameters and the run changes"
    if source is not None and not changed:
        changed = physics_changes(case, graded)
        why = f"its references come from {source}, and it changes"
    result.extra["changes"] = changed
    placed = placed_for_other_physics(case)
    if "windows_set_aside" in result.extra:
        # the collisions were taken at the landings instead, which annotate said: the
        # line that says they are still measured in those windows is not true of the run
        said = ".".join(WINDOWS_KEY) + ":"
        placed = [line for line in placed if not line.startswith(said)]
    result.warnings.extend(placed)
    if changed and case.reference:  # without references there is nothing to grade
        keys = ", ".join(changed)
        for check in result.checks:
            if check["passed"] is not None:
                check["passed"] = None
                # a check the run never reached, or whose crossing it found none of, keeps
                # saying so first
                reached = (f"{check['note']}; " if not_reached(check) or found_none(check)
                           else "")
                check["note"] = f"{reached}not graded: the run changes {keys}"
        result.warnings.append(
            f"{why} {keys}: the checks are shown for information, without a pass mark")
    return changed


def name_warnings(case: CaseFile, result: RunResult, changed: list[str]) -> None:
    """The names the run shows misspelt: a ``[[quantity]]`` column the history lacks (a
    run has all its columns from its first row: said however far it went); with its own
    physics and every check reached, an impact the run did not have (once per shock) and a
    reference to a quantity it did not compute. A block or rigid case can check these only
    once it has run (a discrete case's at load); a stopped run, or one of other physics,
    lacks later collisions rightly."""
    if len(result.history.get("time", ())):
        result.warnings.extend(missing_columns(case, result.history))
    if changed or any(not_reached(c) for c in result.checks):
        return
    # a well-formed name of an impact the run did not have (its file's own end comes
    # first), or of a collision it did not find, is said once per reason, without the
    # close names of a misspelt one
    names = [r.quantity for r in case.reference]
    collisions, rigid = (getattr(case, key, None) for key in ("collisions", "rigid"))
    not_had = {**impacts_not_had_warnings(names, result.impacts),
               **collisions_not_found_warnings(
                   names, result,
                   _in_force(collisions.windows, result) if collisions is not None else None,
                   rigid.impacts if rigid is not None else None)}
    result.warnings.extend(dict.fromkeys(not_had.values()))
    result.warnings.extend(uncomputed_references(case, {*result.quantities, *not_had}))
