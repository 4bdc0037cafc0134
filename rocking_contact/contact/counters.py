"""Counters of a contact solve over a run, reported in ``results.json`` ``timing``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SolveCounters:
    """Iterations of a condensed contact treatment (Lagrange, continuous, theta).

    Attributes:
        total: coupled (Newton) iterations over every step attempt.
        local: iterations of the local (Delassus) solver over the run.
        max_per_step: most coupled iterations one step attempt took.

    """

    total: int = 0
    local: int = 0
    max_per_step: int = 0

    def end_step(self, iterations: int) -> None:
        """Count the coupled iterations of one step attempt."""
        self.total += iterations
        self.max_per_step = max(self.max_per_step, iterations)

    def timing(self) -> dict[str, int]:
        """The ``timing`` entries of ``results.json``."""
        return {"contact_iterations": self.total, "contact_local_iterations": self.local,
                "contact_iterations_max_per_step": self.max_per_step}
