"""Time-history plots written by every run (matplotlib, PNG and SVG, no display needed).

The plots themselves live in :mod:`rocking_contact.viz.history_plots`, which works on the
``results.json`` content so that the report can redraw them from a results directory.
"""

from __future__ import annotations

from pathlib import Path

from rocking_contact.results import RunResult


def plot_run(result: RunResult, out_dir: Path) -> list[Path]:
    """Draw the time histories of a run, with its references, into ``out_dir``.

    Returns:
        The files written (a ``.png`` and an ``.svg`` per plot).

    """
    from rocking_contact.viz.history_plots import plot_results

    return plot_results(result.to_json(), result.history, out_dir)
