"""The impacting oscillator of SDND101: a mass on a spring launched against a stop.

A mass ``m`` on a spring ``k`` starts at rest position (u = 0, touching the stop, zero gap)
with velocity ``v0 > 0`` toward the stop; the stop is a spring ``kc`` acting for u > 0.
During a shock ``u = v0/wc sin(wc t)``, ``wc = sqrt((k + kc)/m)``; the mass leaves at
``-v0`` after ``pi/wc``, flies for ``pi/w0`` (``w0 = sqrt(k/m)``) and comes back at ``v0``:
the motion is periodic with period ``pi/wc + pi/w0``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class ImpactOscillator:
    """Closed-form shocks of the SDND101 oscillator (SI units)."""

    m: float = 100.0    # kg
    k: float = 1.0e4    # N/m
    kc: float = 1.0e6   # N/m
    v0: float = 1.0     # m/s

    @property
    def omega0(self) -> float:
        """Free-flight circular frequency (rad/s)."""
        return math.sqrt(self.k / self.m)

    @property
    def omega_c(self) -> float:
        """Circular frequency in contact (rad/s)."""
        return math.sqrt((self.k + self.kc) / self.m)

    @property
    def duration(self) -> float:
        """Shock duration pi/wc (s)."""
        return math.pi / self.omega_c

    @property
    def max_force(self) -> float:
        """Largest contact force kc v0 / wc (N), at mid-shock."""
        return self.kc * self.v0 / self.omega_c

    @property
    def impulse(self) -> float:
        """Impulse of the stop over one shock, 2 m v0 kc / (k + kc) (N.s)."""
        return 2.0 * self.m * self.v0 * self.kc / (self.k + self.kc)

    @property
    def period(self) -> float:
        """One shock plus one flight (s)."""
        return self.duration + math.pi / self.omega0

    def shock(self, index: int) -> dict[str, float]:
        """Instants and figures of shock ``index`` (1-based)."""
        start = (index - 1) * self.period
        return {"start": start, "t_max": start + 0.5 * self.duration,
                "end": start + self.duration, "duration": self.duration,
                "max_force": self.max_force, "impulse": self.impulse, "speed": self.v0}
