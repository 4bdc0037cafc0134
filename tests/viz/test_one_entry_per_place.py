"""A rigid run's kinetic energy (`rocking-contact rigid`): the legend had three entries
where one quantity is drawn, 'ours: collision', 'analytic rigid, integrated, linearised'
and '..., nonlinear', a dot, a hexagon and a star on one spot at each collision (the
run's own nonlinear level checked against its stored values, the linearised level within
1.2e-4 J and 1e-6 s of it). Now sources at the same places are drawn and named once, and
with our dots when they sit under them."""

import numpy as np
from matplotlib.offsetbox import DrawingArea, HPacker, TextArea

from rocking_contact.viz import style
from rocking_contact.viz.history_plots import plot_results
from rocking_contact.viz.marker_drawing import joined_labels

#: sdnv105_rigid's first three collisions (s, J): its nonlinear level, and the linearised
NONLINEAR = [(0.05441079, 7.291925), (0.13520238, 4.073332), (0.19536438, 2.275399)]
LINEARISED = [(0.05440978, 7.292048), (0.13520138, 4.073401), (0.19536373, 2.275437)]
#: the closed form: 1.1 % higher energies, a place of its own
CLOSED_FORM = [(0.05440978, 7.373981), (0.13574, 4.119169), (0.196529, 2.301003)]


def _checks(prefix, source, points, passed=True):
    return [check for k, (t, e) in enumerate(points, start=1) for check in (
        {"quantity": f"{prefix}.collision.{k}.time", "reference": t, "source": source,
         "passed": passed},
        {"quantity": f"{prefix}.collision.{k}.kinetic_energy", "reference": e,
         "source": source, "passed": passed})]


def _legend(monkeypatch, tmp_path, collisions, checks):
    """The kinetic-energy figure's legend, in its order: text -> the artists of its key."""
    drawn = {}
    monkeypatch.setattr(style, "save_figure",
                        lambda fig, out, stem: drawn.setdefault(stem, fig) and [])
    t = np.linspace(0.0, 0.33, 331)
    plot_results({"case": "sdnv105_rigid", "kind": "rigid", "checks": checks,
                  "collisions": [{"index": k, "time": tc, "kinetic_energy": e}
                                 for k, (tc, e) in enumerate(collisions, start=1)]},
                 {"time": t, "EKIN_BLOCK": 7.3 * np.sin(np.pi * t / 0.11) ** 2}, tmp_path)
    (legend,) = drawn["kinetic_energy"].legends or [drawn["kinetic_energy"].axes[0]
                                                     .get_legend()]
    # each entry a row of (its key's drawing, its text); a key of several artists drawn on
    # top of each other has them all in its drawing
    rows = [row.get_children() for row in legend.findobj(HPacker)
            if [type(c) for c in row.get_children()] == [DrawingArea, TextArea]]
    return {text.get_text(): drawing.get_children() for drawing, text in rows}


def test_a_rigid_runs_own_level_is_one_entry_with_ours(monkeypatch, tmp_path):
    integrated = "analytic rigid, integrated"
    checks = (_checks("closed_form", "analytic rigid, closed form (SDNV105 manual)",
                      CLOSED_FORM)
              + _checks("linearised", integrated, LINEARISED)
              + _checks("nonlinear", integrated, NONLINEAR))
    keys = _legend(monkeypatch, tmp_path, NONLINEAR, checks)
    ours = ("ours: collision (kinetic-energy maximum)\n= analytic rigid, integrated, "
            "linearised and nonlinear (graded)")
    assert list(keys) == ["kinetic energy of the block (EKIN_BLOCK)", ours,
                          "analytic rigid, closed form (graded)"]
    # the key shows what is drawn there: the source's marker under our dot
    under, dot = keys[ours]
    assert under.get_marker() not in ("o", "None") and under.get_color() == "black"
    assert dot.get_marker() == "o" and dot.get_color() == style.PALETTE[1]
    # more collisions of ours than the references check: said how many they are at
    keys = _legend(monkeypatch, tmp_path, [*NONLINEAR, (0.24, 1.27)], checks)
    assert ("ours: collision (kinetic-energy maximum), 3 of them\n= analytic rigid, "
            "integrated, linearised and nonlinear (graded)") in keys


def test_sources_apart_or_of_another_grade_keep_their_entries(monkeypatch, tmp_path):
    """Sources at other places than ours keep their entries, and so does an information
    source at the places of a graded one (joined, it would be said graded)."""
    moved = [NONLINEAR[0], (0.14, 4.3), NONLINEAR[2]]
    checks = (_checks("linearised", "analytic rigid, integrated", LINEARISED)
              + _checks("nonlinear", "analytic rigid, integrated", NONLINEAR, passed=None)
              + _checks("recalage", "recalage (SDNV105 manual)", moved))
    keys = _legend(monkeypatch, tmp_path, CLOSED_FORM, checks)
    assert list(keys) == ["kinetic energy of the block (EKIN_BLOCK)",
                          "ours: collision (kinetic-energy maximum)",
                          "analytic rigid, integrated, linearised (graded)",
                          "analytic rigid, integrated, nonlinear (info)",
                          "recalage (graded)"]


def test_labels_are_joined_with_their_common_head_once():
    assert joined_labels(["analytic rigid, integrated, linearised",
                          "analytic rigid, integrated, nonlinear"]) == (
        "analytic rigid, integrated, linearised and nonlinear")
    assert joined_labels(["LMGC90", "recalage"]) == "LMGC90 and recalage"
    assert joined_labels(["a, b", "a, c", "a, d"]) == "a, b, c and d"
