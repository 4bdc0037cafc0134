"""The order a reader takes a run's plots in (:func:`ordered_plots`): ``results.json``'s
``plots`` (:func:`rocking_contact.results_io.write_plots`) and the report's figures
(:mod:`rocking_contact.report.figures`), which folds the solver's diagnostics away
(:func:`is_solver_diagnostic`).

Plain Python on file names: it imports nothing of the package nor matplotlib, so that the
results' writer and the report order plots without loading what draws them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

#: the plots of a run in the order a reader takes them (``results.json`` ``plots``, the
#: report): what the block does (its kinetic energy, the contact forces, the motion, the
#: energy balance, the impulses), then the other recorded quantities (``history_THETA``),
#: then the solver's diagnostics (:data:`SOLVER_DIAGNOSTICS`). A stem not named here is
#: one of the other quantities
PLOT_ORDER = ("kinetic_energy", "reactions", "shock_force", "displacement", "velocity",
              "energy_balance", "impulses")
#: the history components whose plots (``history_<C>``) tell how the solver worked, not
#: what the block did: the time step, the iteration counts, the contact counts and the
#: smallest gap, in that order, after every other plot
SOLVER_DIAGNOSTICS = ("DT", "NEWTON", "CONTACT_ITERATIONS", "CONTACTS", "SLIDING", "GAP_MIN")
#: stems drawn after the other quantities and before the diagnostics
_LAST_OF_RUN = ("impact_histogram",)


def is_solver_diagnostic(stem: str) -> bool:
    """Whether the plot ``stem`` (``history_DT``) is one of the solver's diagnostics."""
    return stem.startswith("history_") and stem.removeprefix("history_") in SOLVER_DIAGNOSTICS


def plot_rank(name: str) -> tuple[int, int, str, bool, str]:
    """Sort key of a plot file name (``reactions.png``) in :data:`PLOT_ORDER`: the named
    figures first in that order, the other quantities by name, :data:`_LAST_OF_RUN`, the
    diagnostics in :data:`SOLVER_DIAGNOSTICS` order; a figure's PNG before its SVG."""
    path = Path(name)
    stem, suffix = path.stem, path.suffix
    if stem in PLOT_ORDER:
        group, place = 0, PLOT_ORDER.index(stem)
    elif is_solver_diagnostic(stem):
        group, place = 3, SOLVER_DIAGNOSTICS.index(stem.removeprefix("history_"))
    elif stem in _LAST_OF_RUN:
        group, place = 2, _LAST_OF_RUN.index(stem)
    else:
        group, place = 1, 0
    return group, place, stem, suffix != ".png", suffix


def ordered_plots(names: Iterable[str]) -> list[str]:
    """Plot file names in the order a reader takes them (:func:`plot_rank`), whether
    drawn by the run or by the report, whatever order they come in."""
    return sorted(names, key=plot_rank)
