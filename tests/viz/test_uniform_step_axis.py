"""A run of uniform steps draws its time step flat: autoscaled, the log axis of
history_DT spanned the steps' round-off (all its ticks reading 1e-4), and the line
wobbled between them (F4's finding on SDNV105 D's own plots)."""

import numpy as np

from rocking_contact.viz import style
from rocking_contact.viz.history_plots import plot_results


def _dt_axis(monkeypatch, tmp_path, dt):
    drawn = {}
    monkeypatch.setattr(style, "save_figure",
                        lambda fig, out, stem: drawn.setdefault(stem, fig) and [])
    t = np.concatenate([[0.0], np.cumsum(dt)])
    plot_results({"case": "uniform", "kind": "block", "checks": [], "collisions": []},
                 {"time": t, "DT": np.concatenate([[0.0], dt])}, tmp_path)
    return drawn["history_DT"].axes[0]


def test_uniform_steps_with_round_off_are_drawn_flat(monkeypatch, tmp_path):
    dt = 1e-4 * (1.0 + 1e-12 * np.sin(np.arange(200.0)))  # as summed times give them
    ax = _dt_axis(monkeypatch, tmp_path, dt)
    lo, hi = ax.get_ylim()
    assert ax.get_yscale() == "log" and lo <= 1e-5 * 1.0001 and hi >= 1e-3 * 0.9999


def test_refined_steps_keep_their_autoscaled_log_axis(monkeypatch, tmp_path):
    dt = np.r_[np.full(10, 2.5e-3), np.full(100, 1e-5), np.full(10, 2.5e-3)]
    ax = _dt_axis(monkeypatch, tmp_path, dt)
    lo, hi = ax.get_ylim()
    assert ax.get_yscale() == "log" and 1e-6 < lo < 1e-5 and 2.5e-3 < hi < 2.5e-2
