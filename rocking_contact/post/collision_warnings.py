"""Why a reference to a collision has no value: the warnings for the names of
``collision.<k>.<field>`` and ``lift.<k>`` quantities (prefixed or not:
``rigid.nonlinear.collision.2.time``) that a case's references ask for and the run did not
compute (:func:`collisions_not_found_warnings`, which grading calls), one line per reason:
the run found fewer collisions, the window holds none (its maximum an earlier collision's,
on its edge, at rest, at no landing), the rigid block exported fewer impacts, or a rigid
level had no impact to compare with (:func:`unmatched_line`, which ``run``'s summary says
too). The collisions themselves are :mod:`rocking_contact.post.collisions`'.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

from rocking_contact.post.collisions import (
    COLLISION_FIELDS,
    REST_FRACTION,
    Window,
    interior,
)
from rocking_contact.post.references import in_window
from rocking_contact.results import RunResult

#: a collision's quantity name: an optional prefix (``rigid.nonlinear.``), k, the field
#: (``.time``); or a rigid level's lift after impact k (``recalage.lift.4``)
COLLISION_NAME = re.compile(r"(?P<prefix>(?:\w+\.)*?)(?P<family>collision|lift)\.(?P<k>[0-9]+)"
                            r"(?P<field>\.\w+)?")


def collisions_not_found_warnings(names: Iterable[str], result: RunResult,
                                  windows: Sequence[Window] | None,
                                  exported: int | None = None) -> dict[str, str]:
    """Quantity name -> the warning that says why it has no value, for the names among
    ``names`` of a collision the run did not find, one line per reason: "collisions 2, 3
    not found: the largest kinetic energy in their windows is an earlier collision's (t =
    0.255 s), no maximum inside them (references to them have no value)". Such a name is
    well formed (``collision.<k>.<field>`` with a field the run's collisions have, or a
    name whose shape the run computed for another k: ``recalage.collision.1.time``,
    ``nonlinear.lift.1``): the run warns of each line once, and offers no close names for
    it as for a misspelt one (:func:`rocking_contact.config.uncomputed_references`).

    Args:
        names: the quantity names the case's references ask for.
        result: the run's result (its ``collisions``, ``quantities`` and ``time``).
        windows: the case's ``[collisions] windows`` (s); None or none for collisions
            that are the run's impacts (the rigid block's) or its landings (a block's
            without windows).
        exported: how many impacts have quantities (the rigid block's ``[rigid]
            impacts``: ``collision.<k>.*`` and ``lift.<k>`` up to it); None: all.

    """
    found = {int(c["index"]) for c in interior(result.collisions)}
    missing: dict[str, int] = {}
    unmatched: dict[str, str] = {}
    for name in names:
        match = COLLISION_NAME.fullmatch(name)
        if match is None or name in result.quantities:
            continue
        if (line := _unmatched_warning(match, result)) is not None:
            unmatched[name] = line
            continue
        if not _well_formed(match, result):
            continue
        k = int(match["k"])
        # lift 0 is the release's, lift k the flight after impact k
        if (k not in found and k > 0) or (exported is not None and k > exported):
            missing[name] = k
    reasons = {k: _why_not_found(k, result, windows, exported)
               for k in sorted(set(missing.values()))}
    grouped: dict[str, list[int]] = {}
    for k, why in reasons.items():
        grouped.setdefault(why[0], []).append(k)
    lines = {}
    for key, ks in grouped.items():
        times = ", ".join(dict.fromkeys(reasons[k][1] for k in ks if reasons[k][1]))
        count = {"exported": exported, "no window": len(windows or ())}.get(
            key, len(result.collisions))
        lines[key] = _not_found_line(key, ks, times, count or 0)
    return {**{name: lines[reasons[k][0]] for name, k in missing.items()}, **unmatched}


def unmatched_line(k: int, level: str, why: str) -> str:
    """What is said of collision ``k`` that the rigid ``level`` has no impact to compare
    with, ``why`` the reason its row in ``extra.rigid_comparison`` gives (``unmatched``)."""
    return f"collision {k}: no {level} rigid impact to compare with: {why}"


def _unmatched_warning(match: re.Match[str], result: RunResult) -> str | None:
    """The warning for a ``rigid.<level>.collision.<k>.<field>`` name of a collision the
    run found and compared, but the rigid ``level`` had no impact for (``unmatched`` in
    its row of ``extra.rigid_comparison``); None for any other name."""
    level = match["prefix"].removeprefix("rigid.").removesuffix(".")
    if not match["prefix"].startswith("rigid.") or match["family"] != "collision":
        return None
    from rocking_contact.analytic.rigid_levels import Comparison

    if (match["field"] or "")[1:] not in Comparison._fields:
        return None
    k = int(match["k"])
    why = next(((row.get("unmatched") or {}).get(level)
                for row in result.extra.get("rigid_comparison") or []
                if row["index"] == k), None)
    return (None if why is None
            else f"{unmatched_line(k, level, why)} (references to it have no value)")


def _well_formed(match: re.Match[str], result: RunResult) -> bool:
    """Whether a ``collision.<k>.<field>`` or ``lift.<k>`` name is one the run would
    compute for a collision it found: an unprefixed collision's field one of the
    collisions' (the block's time and kinetic energy, the rigid block's impact fields), or
    the name's shape a quantity of another k (``rigid.nonlinear.collision.1.time``)."""
    prefix, family, field = match["prefix"], match["family"], match["field"] or ""
    fields = {*COLLISION_FIELDS, *(f for c in result.collisions for f in c)}
    if not prefix and family == "collision" and field[1:] in fields - {"index", "interior",
                                                                      "impact"}:
        return True
    shape = re.compile(re.escape(prefix + family) + r"\.[0-9]+" + re.escape(field))
    return any(shape.fullmatch(q) for q in result.quantities)


def _why_not_found(k: int, result: RunResult, windows: Sequence[Window] | None,
                   exported: int | None) -> tuple[str, str]:
    """Why collision ``k`` has no quantities: a reason (a key of :func:`_not_found_line`)
    and the instant it concerns (s, as text; "" for none)."""
    if exported is not None and k > exported:
        return "exported", ""
    if not windows:  # the rigid block's, or a block's found at its landings
        return "count", ""
    if k > len(windows):
        return "no window", ""
    entries = {int(c["index"]): c for c in result.collisions}
    entry = entries.get(k)
    if entry is None:
        return "no sample", ""
    when = f"{entry['time']:.6g}"
    previous = entries.get(k - 1)
    if previous is not None and previous["time"] == entry["time"]:
        return "repeated", when
    # the floor find_collisions takes, from the largest kinetic energy the windows hold
    if entry["kinetic_energy"] <= REST_FRACTION * max(c["kinetic_energy"]
                                                      for c in result.collisions):
        return "rest", when
    t = np.asarray(result.history.get("time", []))
    inside = t[in_window(t, windows[k - 1])]
    if len(inside) and inside[0] < entry["time"] < inside[-1]:
        # within the window, not repeated, not at rest: find_collisions found it at no
        # landing (a block turned by its supports' compliance, or by energy its steps made)
        return "no landing", when
    return "edge", when


def _not_found_line(reason: str, ks: list[int], times: str, count: int) -> str:
    """The warning for the collisions ``ks`` not found for ``reason``
    (:func:`_why_not_found`), at the instants ``times`` (s); ``count``: the impacts
    exported, the case's windows, or the run's collisions."""
    many = len(ks) > 1
    which = f"collision{'s' if many else ''} {', '.join(map(str, ks))}"
    their, them = ("their windows", "them") if many else ("its window", "it")
    inside = f"no maximum inside {them}"
    why = {
        "exported": f"not exported: [rigid] impacts = {count} gives the quantities of the "
                    f"first {count} (collision.<k>.*, lift.<k>)",
        "count": f"not found: the run had {count} collision{'' if count == 1 else 's'}",
        "no window": f"not found: [collisions] windows has no window for {them} "
                     f"({count} windows)",
        "no sample": f"not found: the run has no instant in {their}",
        "repeated": f"not found: the largest kinetic energy in {their} is an earlier "
                    f"collision's (t = {times} s), {inside}",
        "edge": f"not found: the largest kinetic energy in {their} lies on "
                f"{'their edges' if many else 'its edge'} (t = {times} s), {inside}",
        "rest": f"not found: the block is at rest in {their} (t = {times} s), {inside}",
        "no landing": f"not found: the largest kinetic energy in {their} (t = {times} s) "
                      f"ends no landing (THETA does not change sign there after a lift), "
                      f"no impact inside {them}",
    }[reason]
    return f"{which} {why} (references to {them} have no value)"
