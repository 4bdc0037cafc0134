"""Newmark's scheme (Newmark 1959), equilibrium at the end of the step.

``u1 = u_n + h v_n + h^2 [(1/2 - beta) a_n + beta a1]``,
``v1 = v_n + h [(1 - gamma) a_n + gamma a1]``, ``M a1 + g(u1, v1, t_n + h) = 0``. Average
acceleration (beta = 1/4, gamma = 1/2) is second order, unconditionally stable and conserves
the energy of a linear undamped system exactly. Its alpha-modified preset (Code_Aster's
"HHT" with MODI_EQUI='NON') is :func:`~rocking_contact.time.hht.alpha_modified_newmark`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rocking_contact.time.stage import Affine, Scheme, Stage


@dataclass(frozen=True)
class Newmark(Scheme):
    """Newmark's family, equilibrium at the end of the step; the unknown is ``u1``.

    Args:
        beta: > 0 (beta = 0 is the explicit scheme, not handled here).
        gamma: >= 1/2 for stability; 1/2 for second order.
        name: label (``alpha_newmark`` for the alpha-modified preset).

    """

    beta: float = 0.25
    gamma: float = 0.5
    name: str = "newmark"

    def __post_init__(self) -> None:
        """Refuse beta <= 0."""
        if not self.beta > 0:
            raise ValueError(f"beta: got {self.beta:g}, allowed: a number > 0")

    @classmethod
    def average_acceleration(cls) -> Newmark:
        """Average acceleration: beta = 1/4, gamma = 1/2 (trapezoidal rule)."""
        return cls(0.25, 0.5)

    @property
    def order(self) -> int:
        """2 for gamma = 1/2, else 1."""
        return 2 if math.isclose(self.gamma, 0.5) else 1

    def describe(self) -> str:
        """The name and its beta and gamma, e.g. ``newmark (beta=0.25, gamma=0.5)``."""
        return f"{self.name} (beta={self.beta:.6g}, gamma={self.gamma:.6g})"

    def stage(self, h: float) -> Stage:
        """Unknown ``u1`` (m): ``a1`` and ``v1`` from the Newmark relations solved for
        ``a1``, equilibrium at the end (``w1 = 1``), predictor the constant-acceleration
        ``u_n + h v_n + h^2/2 a_n``."""
        b, g = self.beta, self.gamma
        acc = Affine(1 / (b * h * h), -1 / (b * h * h), -1 / (b * h), 1 - 1 / (2 * b))
        vel = Affine(g / (b * h), -g / (b * h), 1 - g / b, h * (1 - g / (2 * b)))
        return Stage(h=h, u=Affine(1.0, 0.0, 0.0, 0.0), v=vel, a=acc, w1=1.0, w0=0.0,
                     predictor=Affine(0.0, 1.0, h, h * h / 2), unknown=self.unknown)
