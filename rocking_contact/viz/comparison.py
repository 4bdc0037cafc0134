"""Several treatments of one validation case on one axis: the kinetic-energy "staircase".

Code_Aster's SDNV105 manual (Figure 6-a) overlays the block's kinetic energy against time
for its modellings and the rigid-body solution: each peak is a collision, each drop the
energy an impact takes. :func:`compare_kinetic_energy` draws the same figure from any
number of results, with the collision references of all of them (rigid, recalage,
LMGC90, Code_Aster) as markers. Cases belong to one validation case when their names
share the letters-and-digits stem (``sdnv105a``, ``sdnv105_rigid`` -> ``sdnv105``), and a
block case without digits with its rigid twin (``myblock``, ``myblock_rigid``).
"""

from __future__ import annotations

import math
import os
import re
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rocking_contact.viz import style
from rocking_contact.viz.changes import changed_keys, changed_values, variant_text
from rocking_contact.viz.channels import kinetic_energy_column
from rocking_contact.viz.history_plots import TITLE_CHARS
from rocking_contact.viz.marker_drawing import draw_markers
from rocking_contact.viz.markers import Marker, event_markers
from rocking_contact.viz.runs import Run, as_pair

Result = tuple[Mapping[str, Any], Mapping[str, np.ndarray]]
_STEM = re.compile(r"^[a-z]+\d+", re.IGNORECASE)


#: the suffix of a block case's rigid twin (``rocking-contact rigid --case myblock.toml``)
TWIN_SUFFIX = "_rigid"
#: relative difference of two release tilts that is one tilt: a rigid twin records the
#: release angle of its block's preload, asin(tilt) for pivot O1, tilt^2 / 6 above it
#: (7e-5 at 0.02 rad)
TILT_RTOL = 1e-3


def validation_case(name: str) -> str:
    """The validation case a case name belongs to (``sdnv105_rigid`` -> ``sdnv105``); a
    name without digits is its own, its rigid twin's included (``myblock_rigid`` ->
    ``myblock``)."""
    m = _STEM.match(name)
    return m.group(0).lower() if m else name.lower().removesuffix(TWIN_SUFFIX)


def _physics(data: Mapping[str, Any]) -> dict[str, Any]:
    """What makes two runs one physical problem: the block, its loads and its release tilt
    (not how the tilt is held, B's pivot O against A's O1, nor where the table ends, which
    a rigid twin does not carry); a result without them (a sample) is compatible with
    any."""
    parameters = data.get("parameters") or {}
    out = {k: parameters[k] for k in ("material", "loading") if k in parameters}
    if "geometry" in parameters:
        out["geometry"] = {k: v for k, v in parameters["geometry"].items()
                           if k not in ("table_left", "table_right")}
    if "tilt" in (parameters.get("preload") or {}):
        out["tilt"] = parameters["preload"]["tilt"]
    return out


def _compatible(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    def same(key: str) -> bool:
        if key == "tilt" and isinstance(a[key], float) and isinstance(b[key], float):
            return math.isclose(a[key], b[key], rel_tol=TILT_RTOL)
        return bool(a[key] == b[key])

    return all(same(k) for k in a.keys() & b.keys())


def _changed_name(case: str, members: Sequence[Result]) -> str | None:
    """``<case>_<key><value>...`` for a group of runs that change their file's physics
    (``sdnv105_half_height0.5_half_width0.1``), None for a group of the files as written."""
    for data, _ in members:
        values = changed_values(data)
        if values:
            suffix = "_".join(f"{k.rsplit('.', 1)[-1]}{v}" for k, v in values)
            return f"{case}_{re.sub(r'[^A-Za-z0-9_.-]+', '-', suffix)}"
    return None


def comparable_groups(results: Sequence[Result]) -> dict[str, list[Result]]:
    """Validation case -> its results that record a kinetic energy through two collisions
    or more (a run stopped at the first impact adds nothing to the staircase), when there
    are two such results or more. Runs of one validation case with another block, load or
    tilt (a ``--set preload.tilt=0.02`` next to the shipped runs) form another group, named
    after the case and the tilt (``sdnv105_tilt0.02``)."""
    groups: list[tuple[str, dict[str, Any], list[Result]]] = []
    for data, history in results:
        if kinetic_energy_column(history) is None or len(data.get("collisions") or []) < 2:
            continue
        case, physics = validation_case(str(data["case"])), _physics(data)
        group = next((g for g in groups if g[0] == case and _compatible(g[1], physics)), None)
        if group is None:
            groups.append((case, physics, [(data, history)]))
        else:
            group[1].update(physics)  # a sample joined first learns the physics
            group[2].append((data, history))
    out: dict[str, list[Result]] = {}
    for case, physics, members in sorted(groups, key=lambda g: -len(g[2])):
        if len(members) < 2:
            continue
        # the largest group of the files as written keeps the case's name; a group that
        # changes their physics is named by its changes, whether or not the others are here
        name = _changed_name(case, members) or case
        if name in out:
            tilt = physics.get("tilt")
            name = f"{case}_tilt{tilt:g}" if isinstance(tilt, float) else f"{case}_{len(out)}"
        out[name] = members
    return out


def _legend_name(data: Mapping[str, Any], label: str | None = None) -> str:
    """The case (or ``label``) and what distinguishes it: its contact treatment, or its
    kind."""
    parameters = data.get("parameters") or {}
    treatment = (parameters.get("contact") or {}).get("treatment")
    what = treatment if treatment not in (None, "none") else data.get("kind", "")
    name = label or str(data["case"])
    return f"{name}, {what}" if what else name


def _unique(markers: list[Marker]) -> list[Marker]:
    """One marker per source and place (several cases quote the same references)."""
    seen, out = set(), []
    for m in markers:
        key = (m.label, m.shape, round(m.time or 0.0, 9), round(m.value or 0.0, 9), m.window)
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


#: contact treatment -> look of its kinetic energy, the same in every comparison: the
#: treatments whose curves lie on one another (SDNV105 A under C, D under the rigid block)
#: told apart by width and dashes, a wide solid curve under a thinner dashed one
TREATMENT_LOOKS: dict[str, dict[str, Any]] = {
    "lagrange": {"color": style.PALETTE[1], "linestyle": "-", "linewidth": 2.8},
    "theta": {"color": style.PALETTE[0], "linestyle": "-", "linewidth": 2.8},
    "penalty": {"color": style.PALETTE[2], "linestyle": "-", "linewidth": 1.5},
    "continuous": {"color": style.PALETTE[3], "linestyle": (0, (5, 2)), "linewidth": 1.6},
}
#: look of a rigid-block run (kind ``rigid``): the reference the others are read against,
#: drawn last, thin, black and dashed, so that it hides no curve under it
RIGID_LOOK: dict[str, Any] = {"color": "black", "linestyle": (0, (4, 2)), "linewidth": 1.0}
#: look of a run of another treatment (or a second run of one): the curve of its kind
OTHER_LOOK: dict[str, Any] = {"linestyle": (0, (1, 1.5)), "linewidth": 1.8}
#: growth of a reference marker's size per source of its family already in the figure:
#: Code_Aster's A, B and C points of one collision (0.0544 s, 7.29 J) nest rather than hide
#: one another (C's hexagon would be drawn over A's triangle)
NESTED_GROWTH = 0.35


def curve_looks(members: Sequence[Result]) -> list[dict[str, Any]]:
    """Line keywords of each member's curve (:data:`TREATMENT_LOOKS`, :data:`RIGID_LOOK`);
    a treatment's look goes to its first member, a later one of the same treatment (a study
    of tilts) and an unknown treatment get :data:`OTHER_LOOK` in a colour not taken."""
    looks: list[dict[str, Any]] = []
    for data, _ in members:
        treatment = ((data.get("parameters") or {}).get("contact") or {}).get("treatment")
        taken = [look.get("color") for look in looks]
        if data.get("kind") == "rigid" and RIGID_LOOK["color"] not in taken:
            look = dict(RIGID_LOOK)
        elif treatment in TREATMENT_LOOKS and TREATMENT_LOOKS[treatment]["color"] not in taken:
            look = dict(TREATMENT_LOOKS[treatment])
        else:
            free = [c for c in style.PALETTE if c not in taken] or list(style.PALETTE)
            look = {**OTHER_LOOK, "color": free[0]}
        looks.append(look)
    return looks


def _layers(looks: Sequence[Mapping[str, Any]]) -> list[float]:
    """Each curve's ``zorder``: the widest lowest, the rigid block on top, all under the
    reference points (2) and over the reference lines (:data:`style.REFERENCE_LINE_ZORDER`);
    the legend keeps the members' order."""
    order = sorted(range(len(looks)), key=lambda i: (looks[i]["color"] == RIGID_LOOK["color"],
                                                     -looks[i]["linewidth"]))
    step = (2.0 - style.REFERENCE_LINE_ZORDER) / (len(looks) + 1)
    layers = [0.0] * len(looks)
    for rank, i in enumerate(order, start=1):
        layers[i] = style.REFERENCE_LINE_ZORDER + rank * step
    return layers


class _NestedMarkers(style.MarkerStyles):
    """The references' looks, each source of a family larger than the one before it
    (:data:`NESTED_GROWTH`): sources of one family quote one collision at one place."""

    def __init__(self) -> None:
        super().__init__()
        self._rank: dict[str, dict[str, int]] = {}

    def __call__(self, family: str, label: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
        kw = super().__call__(family, label, *args, **kwargs)
        ranks = self._rank.setdefault(family, {})
        rank = ranks.setdefault(label, len(ranks))
        kw["markersize"] = kw.get("markersize", 8.0) * (1.0 + NESTED_GROWTH * rank)
        return kw


def collision_markers(members: Sequence[Result]) -> list[Marker]:
    """The collision references of every member, once per source and place; none of a
    run that changes its file's physics (they describe another block or load)."""
    markers: list[Marker] = []
    for data, history in members:
        column = kinetic_energy_column(history)
        if column is not None and not changed_keys(data):
            markers += event_markers(data.get("checks") or [], data.get("quantities") or {},
                                     [column])
    return _unique(markers)


def compare_kinetic_energy(name: str, members: Sequence[Run], out_dir: str | os.PathLike[str],
                           stem: str | None = None,
                           labels: Sequence[str] | None = None) -> list[Path]:
    """Draw every member's kinetic energy and all their collision references on one axis.

    The title is ``<name>: kinetic energy of the block`` (``kinetic energy`` where a member
    is a discrete run, whose ``EKIN`` is its masses'), with what the members change
    from their case files, physics or numerics (``SDNV105 with geometry.half_width = 0.1``,
    :func:`.changes.variant_text`) when they all change the same; members that change
    different things (a study of tilts, a run with another ``time.step``) are each named by
    their changes in the legend. References are drawn of the members that run
    their case file's physics only (:func:`collision_markers`).

    Args:
        name: what the figure shows (its title as given: ``"SDNV105"``, ``"sdnv105d
            tilts"``).
        members: each run (:data:`.runs.Run`): a RunResult, a results directory, or
            (results.json content, history); their kinetic-energy column (``EKIN_*``)
            and collisions (the interior ones) are drawn.
        out_dir: where ``<stem>.png`` and ``<stem>.svg`` go (made if missing).
        stem: file stem, ``<name>_kinetic_energy`` by default (other characters than
            letters, digits, ``_.-`` as ``_``).
        labels: each member's name in the legend (default: its case name; two runs of
            one case need their own, such as the report's labels with their directory),
            followed by its contact treatment or kind.

    Returns:
        The files written.

    Raises:
        CaseError: a member that is not a run, or records no kinetic energy.

    """
    runs = _members(members)
    changes = [variant_text(data) for data, _ in runs]
    shared = changes[0] if len(set(changes)) == 1 else ""
    looks = curve_looks(runs)
    with style.figure_style():
        fig, (ax,) = style.new_figure(height=6.2)
        t_lo, t_hi = np.inf, -np.inf
        for i, ((data, history), layer) in enumerate(zip(runs, _layers(looks))):
            column = kinetic_energy_column(history)
            assert column is not None  # _members refuses a run without one
            t = np.asarray(history["time"])
            legend = _legend_name(data, labels[i] if labels else None)
            own = "" if shared or not changes[i] else f" ({changes[i]})"
            ax.plot(t, history[column], label=legend + own, zorder=layer, **looks[i])
            t_lo, t_hi = min(t_lo, float(t[0])), max(t_hi, float(t[-1]))
        ax.set_xlim(t_lo, t_hi)
        draw_markers(ax, collision_markers(runs), _NestedMarkers())
        what = f"{name} with {shared}" if shared else name
        # a discrete run's EKIN is its masses', no block's
        of = (" of the block" if all(kinetic_energy_column(h) == "EKIN_BLOCK" for _, h in runs)
              else "")
        ax.set(title=textwrap.fill(f"{what}: kinetic energy{of}", TITLE_CHARS),
               xlabel="time (s)", ylabel="kinetic energy (J)")
        ax.set_ylim(bottom=0.0)
        style.place_legend(ax, outside_above=0)
        return style.save_figure(fig, Path(out_dir),
                                 stem or re.sub(r"[^A-Za-z0-9_.-]+", "_",
                                                f"{name}_kinetic_energy"))


def _members(members: Sequence[Run]) -> list[Result]:
    """The members as (content, history), their collisions the interior ones; a member
    without a kinetic energy is refused."""
    from rocking_contact.config import CaseError
    from rocking_contact.post.collisions import interior

    runs: list[Result] = []
    for i, member in enumerate(members):
        data, history = as_pair(member, f"members[{i}]")
        if kinetic_energy_column(history) is None or "time" not in history:
            raise CaseError("compare_kinetic_energy", f"members[{i}]",
                            f"{data.get('case')!r} records no kinetic energy (EKIN_*); "
                            "allowed: block, rigid and discrete runs, which do")
        runs.append(({**data, "collisions": interior(list(data.get("collisions") or []))},
                     history))
    return runs
