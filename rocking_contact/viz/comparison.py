"""Several treatments of one validation case on one axis: the kinetic-energy "staircase".

Code_Aster's SDNV105 manual (Figure 6-a) overlays the block's kinetic energy against time
for its modellings and the rigid-body solution: each peak is a collision, each drop the
energy an impact takes. :func:`compare_kinetic_energy` draws the same figure from any
number of results, with the collision references of all of them (rigid, recalage,
LMGC90, Code_Aster) as markers. Cases belong to one validation case when their names
share the letters-and-digits stem (``sdnv105a``, ``sdnv105_rigid`` -> ``sdnv105``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rocking_contact.viz import style
from rocking_contact.viz.channels import kinetic_energy_column
from rocking_contact.viz.history_plots import draw_markers
from rocking_contact.viz.markers import Marker, event_markers

Result = tuple[Mapping[str, Any], Mapping[str, np.ndarray]]
_STEM = re.compile(r"^[a-z]+\d+", re.IGNORECASE)


def validation_case(name: str) -> str:
    """The validation case a case name belongs to (``sdnv105_rigid`` -> ``sdnv105``)."""
    m = _STEM.match(name)
    return m.group(0).lower() if m else name.lower()


def comparable_groups(results: Sequence[Result]) -> dict[str, list[Result]]:
    """Validation case -> its results that record a kinetic energy through two collisions
    or more (a run stopped at the first impact adds nothing to the staircase), when there
    are two such results or more."""
    groups: dict[str, list[Result]] = {}
    for data, history in results:
        if kinetic_energy_column(history) is not None and len(data.get("collisions") or []) >= 2:
            groups.setdefault(validation_case(str(data["case"])), []).append((data, history))
    return {k: v for k, v in groups.items() if len(v) >= 2}


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
        key = (m.label, round(m.time or 0.0, 9), round(m.value or 0.0, 9))
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


def compare_kinetic_energy(name: str, members: Sequence[Result], out_dir: Path,
                           stem: str | None = None,
                           labels: Sequence[str] | None = None) -> list[Path]:
    """Draw every member's kinetic energy and all their collision references on one axis.

    Args:
        name: the validation case (figure title).
        members: (results.json content, history) of each treatment.
        out_dir: where ``<stem>.png`` and ``<stem>.svg`` go.
        stem: file stem, ``<name>_kinetic_energy`` by default.
        labels: each member's name in the legend (default: its case name; two runs of
            one case need their own, such as the report's labels with their directory).

    Returns:
        The files written.

    """
    markers: list[Marker] = []
    with style.figure_style():
        fig, (ax,) = style.new_figure(height=6.2)
        t_lo, t_hi = np.inf, -np.inf
        for i, (data, history) in enumerate(members):
            column = kinetic_energy_column(history)
            t = np.asarray(history["time"])
            ax.plot(t, history[column], label=_legend_name(data, labels[i] if labels else None))
            t_lo, t_hi = min(t_lo, float(t[0])), max(t_hi, float(t[-1]))
            markers += event_markers(data.get("checks") or [], data.get("quantities") or {},
                                     [column])
        ax.set_xlim(t_lo, t_hi)
        draw_markers(ax, _unique(markers), style.MarkerStyles())
        ax.set(title=f"{name.upper()}: kinetic energy of the block, all treatments",
               xlabel="time (s)", ylabel="kinetic energy (J)")
        ax.set_ylim(bottom=0.0)
        style.place_legend(ax, outside_above=0)
        return style.save_figure(fig, out_dir, stem or f"{name}_kinetic_energy")
