"""The normal and tangential components of per-contact values, shared by the treatments.

A contact's force or impulse is stored as its pair ``(N, T)``: ``N`` along the contact's
normal (from the table towards the block, compression positive), ``T`` along its tangent,
both as received by the block. Arrays of several contacts interleave the pairs,
``[N_0, T_0, N_1, T_1, ...]``, the row order of the operator H
(:mod:`~rocking_contact.contact.kinematics`). Light: numpy only, so that the dense
Moreau-Jean integrator (:mod:`~rocking_contact.contact.moreau`) shares it without DOLFINx.
"""

from __future__ import annotations

import math

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


def smallest_gap(gap: np.ndarray) -> float:
    """The smallest normal gap of the paired contacts (m; negative: the block's base is
    that far into the table, the error of a law that forbids it), NaN with none paired
    (``gap`` is ``+inf`` for a slave node off the table). History column ``GAP_MIN``."""
    paired = gap[np.isfinite(gap)]
    return float(np.min(paired)) if paired.size else math.nan
