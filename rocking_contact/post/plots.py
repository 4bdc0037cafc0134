"""Time-history plots written by every run (matplotlib, PNG and SVG, no display needed).

The plots themselves live in :mod:`rocking_contact.viz.history_plots`, which works on the
``results.json`` content so that the report can redraw them from a results directory.
What they show of that content is decided here, once for the run and the report
(:func:`plotted`): our collisions and the references the run reached, as the checks say.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from rocking_contact.results import RunResult


def plotted(data: Mapping[str, Any]) -> dict[str, Any]:
    """``results.json`` content as the plots show it.

    Only collisions (a window maximum that is not interior, such as the last instant of a
    failed run, is none: :func:`rocking_contact.post.collisions.interior`), and only the
    references the run reached: a check "not reached" has no value of ours and its
    reference lies past the run's end, off the plot (its marker would be in the legend
    and nowhere else).
    """
    from rocking_contact.post.collisions import interior
    from rocking_contact.post.references import not_reached

    return {**data, "collisions": interior(list(data.get("collisions") or [])),
            "checks": [c for c in data.get("checks") or [] if not not_reached(c)]}


def plot_results(data: Mapping[str, Any], history: Mapping[str, np.ndarray],
                 out_dir: Path) -> list[Path]:
    """Draw the plots of a run's ``results.json`` content and history into ``out_dir``.

    Returns:
        The files written (a ``.png`` and an ``.svg`` per plot).

    """
    from rocking_contact.viz import history_plots

    return history_plots.plot_results(plotted(data), history, out_dir)


def plot_run(result: RunResult, out_dir: Path) -> list[Path]:
    """Draw the time histories of a run, with its references, into ``out_dir``.

    Returns:
        The files written (a ``.png`` and an ``.svg`` per plot).

    """
    return plot_results(result.to_json(), result.history, out_dir)
