"""The theta-method on velocities (Moreau 1988, Jean 1999).

The unknown is the end velocity: ``M (v1 - v_n) = -h [theta g1 + (1 - theta) g_n]``
(+ contact impulse), ``u1 = u_n + h [theta v1 + (1 - theta) v_n]``; the equation is
divided by h so that every residual is a force. Second order for theta = 1/2, dissipative
for theta > 1/2 (:data:`THETA_RANGE`, which the dense Moreau-Jean integrator holds its
theta to as well: :func:`check_theta`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from rocking_contact.time.stage import Affine, Scheme, Stage, Unknown

#: allowed ``theta`` of :class:`Theta`: a closed interval, 1/2 is second order
THETA_RANGE = (0.5, 1.0)


def check_theta(theta: float) -> None:
    """Raise ValueError unless ``theta`` lies in :data:`THETA_RANGE` (every theta-method:
    :class:`Theta`, the dense Moreau-Jean integrator)."""
    low, high = THETA_RANGE
    if not low <= theta <= high:
        raise ValueError(f"theta: got {theta:g}, allowed: a number in [{low:g}, {high:g}]")


@dataclass(frozen=True)
class Theta(Scheme):
    """The theta-method on velocities (Moreau-Jean); the unknown is ``v1``.

    Args:
        theta: in [1/2, 1]; 1/2 is second order and conservative on linear systems,
            larger values dissipate.

    """

    theta: float = 0.5
    name: str = "theta"
    unknown: ClassVar[Unknown] = "velocity"

    def __post_init__(self) -> None:
        """Refuse a theta outside :data:`THETA_RANGE`."""
        check_theta(self.theta)

    @property
    def order(self) -> int:
        """2 for theta = 1/2, else 1."""
        return 2 if math.isclose(self.theta, 0.5) else 1

    def describe(self) -> str:
        """``theta (theta=...)``."""
        return f"theta (theta={self.theta:.6g})"

    def stage(self, h: float) -> Stage:
        """Unknown ``v1`` (m/s): ``u1 = u_n + h (theta v1 + (1 - theta) v_n)``, the
        inertia ``(v1 - v_n) / h`` (the equation divided by h: a force), forces weighted
        ``theta`` and ``1 - theta``, predictor ``v_n``."""
        th = self.theta
        return Stage(h=h, u=Affine(h * th, 1.0, h * (1 - th), 0.0),
                     v=Affine(1.0, 0.0, 0.0, 0.0), a=Affine(1 / h, 0.0, -1 / h, 0.0),
                     w1=th, w0=1 - th, predictor=Affine(0.0, 0.0, 1.0, 0.0),
                     unknown=self.unknown)
