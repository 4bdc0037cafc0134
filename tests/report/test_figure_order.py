"""The order of a run's figures: in results.json, and in the report whether it copies the
run's plots or draws them again (P1 audit #3: they came by name, the kinetic energy 10th)."""

import json

import numpy as np
import pytest

from rocking_contact import results_io
from rocking_contact.report import figures as report_figures
from rocking_contact.report.document import Figure, Paragraph
from rocking_contact.report.inputs import read_result
from rocking_contact.viz.plot_order import ordered_plots
from rocking_contact.viz.sample import write_sample

#: the order a reader takes the plots of a block run with every kind of column
EXPECTED = ["kinetic_energy", "reactions", "displacement", "velocity", "energy_balance",
            "history_THETA", "history_DT", "history_NEWTON", "history_CONTACTS"]


def test_the_plots_list_follows_the_figures_not_the_alphabet():
    """sdnv105d's list as results.json held it (by name) comes in the reader's order."""
    by_name = ["displacement", "energy_balance", "history_CONTACTS",
               "history_CONTACT_ITERATIONS", "history_DT", "history_GAP_MIN",
               "history_NEWTON", "history_SLIDING", "history_THETA", "impulses",
               "kinetic_energy", "reactions", "velocity"]
    names = [f"{s}.{x}" for s in by_name for x in ("png", "svg")]
    stems = [n.removesuffix(".png") for n in ordered_plots(names)
             if n.endswith(".png")]
    assert stems == ["kinetic_energy", "reactions", "displacement", "velocity",
                     "energy_balance", "impulses", "history_THETA", "history_DT",
                     "history_NEWTON", "history_CONTACT_ITERATIONS", "history_CONTACTS",
                     "history_SLIDING", "history_GAP_MIN"]
    assert ordered_plots(["velocity.svg", "velocity.png"]) == [
        "velocity.png", "velocity.svg"]
    discrete = ["displacement.png", "impact_histogram.png", "shock_force.png", "velocity.png"]
    assert ordered_plots(discrete) == [
        "shock_force.png", "displacement.png", "velocity.png", "impact_histogram.png"]


@pytest.fixture
def run_dir(tmp_path):
    """A block run with physical columns and solver diagnostics, its plots drawn and
    listed by name, as runs listed them before."""
    out = write_sample(tmp_path / "run", case="sdnv105_sample", end=0.1, fields=False)
    history = results_io.read_history_csv(out / results_io.HISTORY_FILE)
    t = history["time"]
    history.update({"THETA_BLOCK": 0.01 * np.cos(30 * t), "DT": np.full_like(t, 1e-4),
                    "NEWTON": np.full_like(t, 3.0), "CONTACTS": np.full_like(t, 2.0)})
    results_io.write_history_csv(history, out / results_io.HISTORY_FILE)
    from rocking_contact.viz.history_plots import plot_results

    data = json.loads((out / results_io.RESULTS_FILE).read_text())
    drawn = plot_results(data, history, out)
    data["plots"] = sorted(p.name for p in drawn)
    (out / results_io.RESULTS_FILE).write_text(json.dumps(data))
    return out


def _stems(blocks):
    return [b.path.stem if isinstance(b, Figure) else b.text for b in blocks]


def test_the_report_shows_copied_and_redrawn_plots_in_one_order(run_dir, tmp_path):
    """Copied (the run's listed by name) or drawn again, the same order; the diagnostics
    last, after the views, opened by their heading and marked as such."""
    result = read_result(run_dir)
    assert report_figures.run_plots(result) is not None  # the copy path is taken
    copied = report_figures.figures(result, tmp_path / "copied", views=False)
    data = json.loads((run_dir / results_io.RESULTS_FILE).read_text())
    del data["plots"]
    (run_dir / results_io.RESULTS_FILE).write_text(json.dumps(data))
    result = read_result(run_dir)
    assert report_figures.run_plots(result) is None  # drawn again
    redrawn = report_figures.figures(result, tmp_path / "redrawn", views=False)
    heading = report_figures.DIAGNOSTICS_TEXT
    expected = EXPECTED[:6] + [heading] + EXPECTED[6:]
    assert _stems(copied) == _stems(redrawn) == expected
    assert heading.startswith(report_figures.DIAGNOSTICS_HEADING)
    assert [report_figures.is_diagnostic(b) for b in redrawn] == [False] * 6 + [True] * 4
    assert not report_figures.is_diagnostic(Paragraph("No plots: no history."))
