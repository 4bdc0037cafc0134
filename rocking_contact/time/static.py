"""Quasi-static equilibrium in pseudo-time: ``g(u1, 0, t1) = 0``, used for the preload.

No inertia, no damping: the step's velocity and acceleration maps are zero. Not a
``scheme.type`` of a case file: the preload (:mod:`~rocking_contact.fem.preload`) steps
with it, and the step problem tells its steps by it
(:attr:`~rocking_contact.solvers.step.StepProblem.static`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rocking_contact.time.stage import ZERO, Affine, Scheme, Stage


@dataclass(frozen=True)
class Static(Scheme):
    """Quasi-static equilibrium ``g(u1, 0, t1) = 0`` in pseudo-time (no inertia, no damping)."""

    name: str = "static"

    @property
    def order(self) -> int:
        """0: no time accuracy (static equilibrium at each pseudo-time)."""
        return 0

    def stage(self, h: float) -> Stage:
        """Unknown ``u1`` (m), no velocity nor inertia; ``h`` a pseudo-time step, predictor
        ``u_n``."""
        return Stage(h=h, u=Affine(1.0, 0.0, 0.0, 0.0), v=ZERO, a=ZERO, w1=1.0, w0=0.0,
                     predictor=Affine(0.0, 1.0, 0.0, 0.0), unknown=self.unknown)
