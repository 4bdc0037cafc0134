"""How far the block's base went into the table, from a run's history.

A contact with the table (Lagrange, continuous, theta) forbids penetration: how far the
base goes into the table, minus the smallest gap of its contacts (history column
``GAP_MIN``, the table's own deflection under the block taken into account), is the error
of the contact's enforcement, not a material property. Lagrange and the continuous
treatment hold the gap at the displacement level to the solver's tolerance (SDNV105 A and
C: 2.7e-21 m over their first 0.06 s). The theta scheme acts on velocities where the
step's predicted gap closes, so the position drifts by about ``(1 - theta) h v`` per
impact and a step long enough lets a corner through before the contact sees it (SDNV105 D:
2.2e-6 m at 1e-4 s, 2.3e-5 m at 5e-4 s; a block at 0.05 s steps: 2.4 mm, its kinetic
energy 55 % above the energy it is released with).

A depth larger than :data:`DEPTH_WARNING` of the base's largest lift over the run (the
highest DY of its recorded points, O, O1, A, B1, B2) is a warning: the sunk corner has
turned gravity potential into motion that no physics supplied, while the total energy need
not rise (the energy check does not see it). Depths are in m. The base points' own DY is
no measure of it: on a table of E = 1e8 Pa, D's corner A goes 9.97e-5 m below its start,
the table's top under it 9.97e-5 m too, and the gap is -5.4e-6 m.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

#: a depth beyond this fraction of the base's largest lift is reported. SDNV105 D at 5e-4 s
#: steps, which passes its 3 % marks, sinks 0.65 % (2.3e-5 of 3.6e-3 m); a block sinking
#: 2.2 % of its lift can already have more kinetic energy than it is released with.
DEPTH_WARNING = 0.01

#: the lift scale of a block that never lifts (standing, sliding), as a fraction of its
#: base width 2b: a penetration is judged against the block's size then
FLAT_SCALE = 1e-3


class Penetration(NamedTuple):
    """The deepest the base went into the table.

    Attributes:
        depth: how far (m, > 0 into the table).
        time: when (s).
        scale: the base's largest lift over the run, or :data:`FLAT_SCALE` of its width (m).
        since: the first instant it was deeper than :data:`DEPTH_WARNING` of ``scale`` (s;
            None if it never was).

    """

    depth: float
    time: float
    scale: float
    since: float | None


def deepest(history: Mapping[str, np.ndarray], base_points: Sequence[str],
            base_width: float) -> Penetration | None:
    """The deepest penetration (column ``GAP_MIN``) against the largest lift of the
    recorded ``base_points`` (columns ``DY_<name>``, m, y up); None without the column, or
    when the base never went into the table."""
    if "GAP_MIN" not in history or len(history["time"]) == 0:
        return None
    gap = np.asarray(history["GAP_MIN"], dtype=float)
    sunk = np.where(np.isnan(gap), -np.inf, -gap)  # NaN: no contact paired (off the table)
    k = int(np.argmax(sunk))
    if not sunk[k] > 0.0:
        return None
    lifts = [np.max(history[f"DY_{p}"]) for p in base_points if f"DY_{p}" in history]
    scale = max(float(max(lifts, default=0.0)), FLAT_SCALE * base_width)
    beyond = np.flatnonzero(sunk > DEPTH_WARNING * scale)
    since = float(history["time"][beyond[0]]) if beyond.size else None
    return Penetration(float(sunk[k]), float(history["time"][k]), scale, since)


def penetration_warning(found: Penetration | None, advice: str) -> str | None:
    """A sentence when ``found`` goes deeper than :data:`DEPTH_WARNING` of its scale,
    ending with ``advice`` (what makes the steps shorter), None otherwise."""
    if found is None or found.since is None:
        return None
    return (f"the base went {found.depth:.3g} m into the table (at t = {found.time:.6g} s, "
            f"{100 * found.depth / found.scale:.3g}% of the base's largest lift, "
            f"{found.scale:.3g} m): the contact let it through, and the sunk corner's "
            f"gravity potential became motion; do not trust the results after "
            f"t = {found.since:.6g} s, where it passed {100 * DEPTH_WARNING:g}%; {advice}")
