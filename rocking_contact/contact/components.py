"""The normal and tangential components of per-contact values, shared by the treatments.

A contact's force or impulse is stored as its pair ``(N, T)``: ``N`` along the contact's
normal (from the table towards the block, compression positive), ``T`` along its tangent,
both as received by the block. Arrays of several contacts interleave the pairs,
``[N_0, T_0, N_1, T_1, ...]``, the row order of the operator H
(:mod:`~rocking_contact.contact.kinematics`). Light: numpy only, so that the dense
Moreau-Jean integrator (:mod:`~rocking_contact.contact.moreau`) shares it without DOLFINx.

The treatments' history columns are built here too (:func:`point_columns`,
:func:`summary_columns`), so that their names, units and signs are written down once.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

#: A sliding contact's tangential component is on the Coulomb cone only to round-off or to
#: the local solver's tolerance: this relative margin accepts it.
CONE_MARGIN = 1e-9


def normal_tangential_rows(contacts: np.ndarray) -> np.ndarray:
    """Row indices of the given contacts in H (or in any per-contact (N, T) array), (N, T)
    interleaved."""
    contacts = np.asarray(contacts, dtype=np.int64)
    rows = np.empty(2 * len(contacts), dtype=np.int64)
    rows[0::2] = 2 * contacts
    rows[1::2] = rows[0::2] + 1
    return rows


def on_table_x(normal_part: float, tangential_part: float, normal: np.ndarray,
               tangent: np.ndarray) -> float:
    """The x component of what the block exerts on the table at one contact (N for forces,
    N.s for impulses): the block receives ``N n + T t``, the table the opposite.

    Args:
        normal_part, tangential_part: the contact's ``N`` (compression positive) and ``T``.
        normal, tangent: the contact's unit vectors (2,), the normal out of the table.

    """
    x: float = -(normal_part * normal[0] + tangential_part * tangent[0])
    return x


def on_cone(normal_part: np.ndarray, tangential_part: np.ndarray, mu: float) -> np.ndarray:
    """Mask of the contacts whose tangential component reaches the Coulomb cone
    ``|T| >= mu N`` (to the relative :data:`CONE_MARGIN`): those that slide, when they move.

    Args:
        normal_part, tangential_part: ``N`` and ``T`` of each contact (N or N.s).
        mu: the Coulomb coefficient.

    """
    mask: np.ndarray = np.abs(tangential_part) >= mu * normal_part * (1.0 - CONE_MARGIN)
    return mask


#: A contact on the cone slides only if it moved over the step more than this (m): far
#: above the rounding of a slip (eps |u|, 1e-18 m for millimetre displacements), so that a
#: force at the cone's edge that holds still (every pressed contact with mu = 0, a contact
#: at rest) counts as sticking.
SLIP_MOTION = 1e-14


def sliding(normal_part: np.ndarray, tangential_part: np.ndarray, mu: float,
            slip: np.ndarray) -> np.ndarray:
    """Mask of the sliding contacts (history column ``SLIDING``): pressed (``N > 0``), on
    the Coulomb cone (:func:`on_cone`), and moving: a slip over the step ``|slip| >``
    :data:`SLIP_MOTION`.

    Args:
        normal_part, tangential_part: ``N`` and ``T`` of each contact (N or N.s).
        mu: the Coulomb coefficient.
        slip: the tangential relative displacement of each contact over the step (m, slave
            minus master, along the tangent; its sign does not matter).

    """
    mask: np.ndarray = ((normal_part > 0.0) & on_cone(normal_part, tangential_part, mu)
                        & (np.abs(slip) > SLIP_MOTION))
    return mask


def smallest_gap(gap: np.ndarray) -> float:
    """The smallest normal gap of the paired contacts (m; negative: the block's base is
    that far into the table, the error of a law that forbids it), NaN with none paired
    (``gap`` is ``+inf`` for a slave node off the table). History column ``GAP_MIN``."""
    paired = gap[np.isfinite(gap)]
    return float(np.min(paired)) if paired.size else math.nan


def point_columns(kind: str, points: Mapping[str, int], values: np.ndarray,
                  frames: tuple[np.ndarray, np.ndarray] | None) -> dict[str, float]:
    """History columns ``<kind>N_<P>``, ``<kind>X_<P>`` at the recorded base points ``P``,
    in the points' order: ``kind`` ``"R"`` for forces (N), ``"P"`` for impulses (N.s).

    ``<kind>N`` is the normal component received by the block, compression positive (a
    spring's dashpot that pulls makes it negative, docs/outputs.md); ``<kind>X`` is the x
    component of what the block exerts on the table (:func:`on_table_x`, Code_Aster's sign:
    ``RX_O`` = -1149.79 N while the block rocks on O).

    Args:
        kind: the columns' prefix.
        points: each point's name and its contact's index in ``values``.
        values: per-contact ``(N, T)``, interleaved (the module's layout).
        frames: the contacts' unit normals and tangents, each (contacts, 2); None for
            contacts whose normal is y and tangent x (a vertical spring, or no frame yet),
            where ``<kind>X`` is ``-T``.

    """
    out: dict[str, float] = {}
    for point, c in points.items():
        vn, vt = values[2 * c], values[2 * c + 1]
        vx = -vt if frames is None else on_table_x(vn, vt, frames[0][c], frames[1][c])
        out[f"{kind}N_{point}"], out[f"{kind}X_{point}"] = float(vn), float(vx)
    return out


def summary_columns(*, gap_min: float | None, contacts: int, sliding: int,
                    iterations: int | None, absorbed: float,
                    friction: float | None) -> dict[str, float]:
    """The history columns a contact treatment reports beside its point forces, in order.

    A treatment without one of them passes None and the column is left out:

    - ``GAP_MIN`` (m): the smallest gap of the paired contacts (:func:`smallest_gap`);
    - ``CONTACTS``, ``SLIDING`` (counts): the closed contacts, and those sliding
      (A, C, D: :func:`sliding`, on the Coulomb cone and moving, none in the released
      state; B: the springs on their law's sliding branch);
    - ``CONTACT_ITERATIONS`` (count): the treatment's passes of the step;
    - ``ECONTACT`` (J): the energy the contact took from the bodies since the release
      (> 0 dissipated or stored), the term of the run's energy balance;
    - ``EFRICTION`` (J): its share taken by the tangential forces.

    The column order of a run's history follows insertion order: keep it.
    """
    out: dict[str, float] = {}
    if gap_min is not None:
        out["GAP_MIN"] = gap_min
    out["CONTACTS"] = float(contacts)
    out["SLIDING"] = float(sliding)
    if iterations is not None:
        out["CONTACT_ITERATIONS"] = float(iterations)
    out["ECONTACT"] = absorbed
    if friction is not None:
        out["EFRICTION"] = friction
    return out
