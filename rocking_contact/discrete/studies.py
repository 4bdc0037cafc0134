"""Parameter studies of discrete cases: time-step convergence of several schemes.

No command runs it: it serves the SDND102 convergence benchmark
(``benchmarks/sdnd102_convergence.py``) and its test (``tests/discrete/test_convergence.py``),
through the Python API (:func:`rocking_contact.api.run`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rocking_contact.api import run
from rocking_contact.config import load_case

#: overrides selecting each scheme ("newmark": average acceleration in physical space)
SCHEMES: dict[str, dict[str, Any]] = {
    "central_difference": {"solver.scheme": "central_difference"},
    "newmark": {"solver.scheme": "newmark", "solver.beta": 0.25, "solver.gamma": 0.5},
}


@dataclass
class ConvergenceRow:
    """Values of one history column at given instants for one (scheme, step)."""

    scheme: str
    step: float
    values: np.ndarray       # at the study's instants
    max_abs: float           # largest |value| of the column over the whole run
    steps: int
    newton_iterations: int
    wall_s: float


def convergence(case: str, column: str, times: Sequence[float], steps: Sequence[float],
                schemes: Sequence[str] = tuple(SCHEMES)) -> list[ConvergenceRow]:
    """Run ``case`` for every scheme and time step; sample ``column`` at ``times`` (s)."""
    rows = []
    for scheme in schemes:
        for dt in steps:
            overrides = {**SCHEMES[scheme], "time.step": dt, "output.every": 1}
            result = run(load_case(case, overrides), write=False, quiet=True)
            t, y = result.history["time"], result.history[column]
            rows.append(ConvergenceRow(
                scheme=scheme, step=dt, values=np.interp(times, t, y),
                max_abs=float(np.abs(y).max()), steps=int(result.timing["steps"]),
                newton_iterations=int(result.timing.get("newton_iterations", 0)),
                wall_s=float(result.timing["wall_s"])))
    return rows


def format_convergence(rows: list[ConvergenceRow], times: Sequence[float],
                       exact: np.ndarray | None = None, unit: str = "m") -> str:
    """A Markdown table: one row per (scheme, step), one column per instant."""
    head = "| scheme | dt (s) | " + " | ".join(f"t = {t:g} s" for t in times) + " |"
    lines = [head, "|" + "---|" * (len(times) + 2)]
    if exact is not None:
        lines.append("| exact | — | " + " | ".join(f"{v:.6e}" for v in exact) + " |")
    for r in rows:
        lines.append(f"| {r.scheme} | {r.step:g} | "
                     + " | ".join(f"{v:.6e}" for v in r.values) + " |")
    return "\n".join(lines) + f"\n\nvalues in {unit}"
