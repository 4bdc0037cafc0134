"""The solver's effort per step, from a run's history (``results.json`` ``timing``)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np


def iteration_statistics(history: Mapping[str, np.ndarray]) -> dict[str, float]:
    """Newton iterations per recorded step: SNES (``NEWTON``) plus contact
    (``CONTACT_ITERATIONS``) iterations, mean and maximum over the steps (the initial row,
    which is no step, left out); empty without a ``NEWTON`` column or a step."""
    if "NEWTON" not in history or len(history["NEWTON"]) < 2:
        return {}
    total = np.asarray(history["NEWTON"][1:], dtype=float)
    if "CONTACT_ITERATIONS" in history:
        total = total + np.asarray(history["CONTACT_ITERATIONS"][1:], dtype=float)
    return {"iterations_per_step_mean": float(total.mean()),
            "iterations_per_step_max": float(total.max())}
