"""The index set of Moreau-Jean stepping: which contacts may carry an impulse in a step,
and the impulses each contact carried last (warm starts, persistent contacts).

Shared by the dense integrator (:mod:`~rocking_contact.contact.moreau`) and the
finite-element treatment (:mod:`~rocking_contact.contact.theta`). Gaps in m, positive open;
``P_N >= 0`` pushes the body away from the obstacle (see :mod:`rocking_contact.contact`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np


def active_contacts(predicted_gaps: np.ndarray, tolerance: float,
                    pressed: np.ndarray) -> np.ndarray:
    """Indices of the contacts that may carry an impulse this step.

    A contact is active when its predicted gap is closed (``g(q_m) <= tolerance``, m), or
    when it was pressed at the previous step (``P_N > 0``): a persistent contact, a
    pivot, stays in the index set even if the linearised update of a rotation lifted it
    by round-off (a rigid rotation of angle ``omega h`` moves the pivot by
    ``(omega h)^2 R / 2``); the law then decides whether it opens.

    Args:
        predicted_gaps: ``g(q_m)`` of every contact (m).
        tolerance: activation threshold (m).
        pressed: boolean mask of the contacts with ``P_N > 0`` at the previous step.

    """
    closed = (np.asarray(predicted_gaps) <= tolerance) | pressed
    return np.flatnonzero(closed)


class ImpulseMemory:
    """The last impulses of each contact, keyed by a contact's identity: warm starts.

    Semismooth Newton converges in one or two iterations from the previous step's impulses
    of a persistent contact (a pivot), which is the common case.
    """

    def __init__(self) -> None:
        self._last: dict[Hashable, np.ndarray] = {}

    def guess(self, keys: Sequence[Hashable]) -> np.ndarray:
        """Impulses (2m, N.s) of the contacts ``keys``; zero for a new contact."""
        out = np.zeros(2 * len(keys))
        for c, key in enumerate(keys):
            if key in self._last:
                out[2 * c:2 * c + 2] = self._last[key]
        return out

    def store(self, keys: Sequence[Hashable], P: np.ndarray) -> None:
        """Remember the accepted impulses ``P`` (2m, N.s, ``(P_N, P_T)`` per contact in
        the order of ``keys``) of the active contacts (and forget the others)."""
        self._last = {key: P[2 * c:2 * c + 2].copy() for c, key in enumerate(keys)}

    def pressed(self, keys: Sequence[Hashable]) -> np.ndarray:
        """Mask of ``keys`` whose last normal impulse was positive."""
        return np.array([key in self._last and self._last[key][0] > 0.0 for key in keys],
                        dtype=bool)
