"""The plots every run writes: which ones, readable, with their references drawn."""

import xml.etree.ElementTree as ET

import numpy as np
from matplotlib.figure import Figure
from PIL import Image

from rocking_contact import results_io
from rocking_contact.viz import style
from rocking_contact.viz.history_plots import plot_results
from rocking_contact.viz.marker_drawing import EXTREMUM_SEGMENT, MISS_LABEL, draw_markers
from rocking_contact.viz.markers import Marker
from rocking_contact.viz.style import MarkerStyles

#: a plot is "not blank" above this grey-level standard deviation (0-255)
MIN_STD = 10.0


def svg_text(path):
    """Every text of an SVG (matplotlib keeps text as text: svg.fonttype = none)."""
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    return " ".join(t for el in root.iter() if el.tag.endswith("text")
                    for t in el.itertext())


def grey(path):
    return np.asarray(Image.open(path).convert("L"), dtype=float)


def test_discrete_run_plots_histories_and_histogram(discrete_dir):
    stems = {"displacement", "velocity", "shock_force", "impact_histogram"}
    for stem in stems:
        png, svg = discrete_dir / f"{stem}.png", discrete_dir / f"{stem}.svg"
        assert grey(png).std() > MIN_STD, stem
        assert "(" in svg_text(svg)  # axis labels carry units
    text = svg_text(discrete_dir / "shock_force.svg")
    assert "force (N)" in text and "time (s)" in text
    # the references of the shock maxima, one legend entry per source
    assert "analytic" in text and "Code_Aster SDND101 A" in text
    hist = svg_text(discrete_dir / "impact_histogram.svg")
    assert "number of impacts" in hist and "2 impacts" in hist


def test_block_result_plots_energy_corners_reactions_balance(block_dir, tmp_path):
    data, history = results_io.load(str(block_dir))  # a path as text, as docs/outputs.md shows
    written = plot_results(data, history, tmp_path)
    stems = {p.stem for p in written}
    assert stems == {"kinetic_energy", "displacement", "velocity", "reactions",
                     "energy_balance"}
    assert {p.suffix for p in written} == {".png", ".svg"}
    text = svg_text(tmp_path / "kinetic_energy.svg")
    assert "kinetic energy (J)" in text
    # Legend labels: each source without its parenthesised qualifier ("rigid (sample)").
    for source in ("rigid", "recalage", "LMGC90", "Code_Aster", "ours: collision"):
        assert source in text
    assert "normal reaction at O (RN_O)" in svg_text(tmp_path / "reactions.svg")
    assert "residual (µJ)" in svg_text(tmp_path / "energy_balance.svg")  # 6e-4 J at most
    assert grey(tmp_path / "reactions.png").std() > MIN_STD


def test_markers_land_where_the_references_are():
    fig = Figure()
    ax = fig.subplots()
    ax.set_xlim(0, 1)
    markers = [Marker("EKIN", "point", "LMGC90", "LMGC90", time=0.0546, value=7.23),
               Marker("DY_A", "hline", "rigid", "rigid", value=0.0036, window=(0.0, 0.33)),
               Marker("DY_A", "vline", "rigid", "rigid", time=0.2)]
    draw_markers(ax, markers, MarkerStyles())
    points = [(tuple(line.get_xdata()), tuple(line.get_ydata())) for line in ax.lines]
    assert ((0.0546,), (7.23,)) in points
    assert ((0.2, 0.2), (0, 1)) in points  # the vertical line spans the axes
    segments = ax.collections[0].get_segments()[0]
    assert np.allclose(segments, [[0.0, 0.0036], [0.33, 0.0036]])
    assert all(line.get_color() == "black" for line in ax.lines)  # references are black


def _legend_keys(fig):
    """Legend text -> its key (the handle drawn beside it), over the figure's legends."""
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend())]
    return {text.get_text(): handle for legend in legends
            for text, handle in zip(legend.get_texts(), legend.legend_handles)}


def test_each_source_is_named_once_with_every_look_it_draws():
    """sdnv105_rigid's kinetic energy: the integrated rigid block gives a collision point
    and the level of a later maximum (a segment); its legend key showed only the marker,
    and the dashed segment was named nowhere."""
    markers = [Marker("EKIN", "point", "analytic rigid", "analytic rigid, closed form",
                      time=0.0546, value=7.40),
               Marker("EKIN", "point", "analytic rigid", "analytic rigid, integrated",
                      time=0.0545, value=7.37),
               Marker("EKIN", "hline", "analytic rigid", "analytic rigid, integrated",
                      value=4.07, window=(0.10, 0.33)),
               Marker("EKIN", "point", "analytic rigid", "analytic rigid, integrated",
                      time=0.135, value=4.10),
               Marker("EKIN", "vline", "recalage", "recalage", time=0.2),
               Marker("EKIN", "hline", "recalage", "recalage", value=3.0)]
    with style.figure_style():
        fig, (ax,) = style.new_figure()
        ax.set_xlim(0.0, 0.33)
        draw_markers(ax, markers, MarkerStyles())
        style.place_legend(ax)
    keys = _legend_keys(fig)
    assert list(keys) == ["analytic rigid, closed form", "analytic rigid, integrated",
                          "recalage"]
    closed, integrated, recalage = keys.values()
    assert closed.get_marker() == "o" and closed.get_linestyle() == "None"
    assert integrated.get_marker() == "p" and integrated.get_linestyle() != "None"
    assert recalage.get_marker() == "None" and recalage.get_linestyle() == "-."
    # everything drawn on the axes is unlabelled: the legend names it through its source
    drawn = [*(line for line in ax.lines if len(line.get_xdata())), *ax.collections]
    assert len(drawn) == 6 and all(a.get_label().startswith("_") for a in drawn)


def test_a_source_keeps_its_shape_whatever_the_order_of_the_checks():
    """The rigid run lists the closed form first, the block runs the integrated rigid
    block: its circle and pentagon swapped from one run's plot to the other's."""
    def shapes(order):
        fig = Figure()
        ax = fig.subplots()
        ax.set_xlim(0, 1)
        draw_markers(ax, [Marker("EKIN", "point", "analytic rigid", label, time=0.5, value=1.0)
                          for label in order], MarkerStyles())
        return {line.get_label(): line.get_marker() for line in ax.lines
                if not line.get_label().startswith("_")}

    labels = ["analytic rigid, closed form", "analytic rigid, integrated"]
    assert shapes(labels) == shapes(labels[::-1]) == dict(zip(labels, ["o", "p"]))


def test_unknown_columns_get_a_plot_of_their_own_and_accelerations_none(tmp_path):
    t = np.linspace(0, 1, 11)
    history = {"time": t, "THETA": 0.01 * np.cos(t), "FOO_X": t, "AX_NO1": t}
    written = {p.name for p in plot_results({"case": "x"}, history, tmp_path)}
    assert written == {"history_THETA.png", "history_THETA.svg", "history_FOO.png",
                       "history_FOO.svg"}
    assert "counter-clockwise tilt of the base (rad)" in svg_text(tmp_path / "history_THETA.svg")


def test_kinetic_energy_alone_makes_no_energy_balance(tmp_path):
    t = np.linspace(0, 1, 11)
    written = {p.stem for p in plot_results({"case": "x"}, {"time": t, "EKIN_BLOCK": t},
                                            tmp_path)}
    assert written == {"kinetic_energy"}


def test_brief_peaks_do_not_hide_the_usual_level():
    """A reaction of 3.6 kN with one impact sample of 4 MN: the axis shows the 3.6 kN."""
    from rocking_contact.viz.history_plots import _clip_spikes

    t = np.linspace(0.0, 0.3, 3001)
    rn = np.full_like(t, 3600.0)
    rn[1500] = 4.0e6
    with style.figure_style():
        fig, (ax,) = style.new_figure()
        ax.plot(t, rn)
        _clip_spikes(ax, [rn], "N")
        lo, hi = ax.get_ylim()
        assert 3600.0 < hi < 6000.0
        assert [text.get_text() for text in ax.texts] == ["brief peaks off scale (up to 4e+06 N)"]
        # An ordinary curve keeps its automatic limits.
        fig2, (ax2,) = style.new_figure()
        ax2.plot(t, np.sin(t))
        before = ax2.get_ylim()
        _clip_spikes(ax2, [np.sin(t)])
        assert ax2.get_ylim() == before and not ax2.texts


def test_pn_is_a_penetration_for_discrete_runs_and_an_impulse_for_blocks():
    from rocking_contact.viz.channels import Channel

    shock, block = Channel.parse("PN_NO1", "discrete"), Channel.parse("PN_O", "block")
    assert (shock.description, shock.unit) == ("penetration", "m")
    assert (block.description, block.unit) == ("normal impulse on the table", "N.s")
    assert Channel.parse("PX_O", "block").label == "horizontal impulse on the table at O (PX_O)"
    # the block's force on the table (docs/outputs.md), not the table's reaction on it
    assert Channel.parse("RX_O", "block").label == (
        "force of the block on the table along x at O (RX_O)")
    assert Channel.parse("CONTACT_ITERATIONS").component == "CONTACT_ITERATIONS"
    # the shocks' springs, as docs/outputs.md says, not the model's (EELAS, 'elastic
    # energy'): sdnd101a's legend read 'energy stored in the springs' beside it
    for kind in ("discrete", "block"):
        assert Channel.parse("ESPRING", kind).label == (
            "energy stored in the shock springs (ESPRING)")


def test_descriptions_survive_the_capitalised_titles():
    """Titles and captions capitalise a description with ``str.capitalize``, which lowers
    every other letter: a description with a capital past its first letter ('tilt of the
    base O-A') would read 'o-a' there."""
    from rocking_contact.viz.channels import COMPONENTS, KIND_COMPONENTS, WHOLE_NAMES

    meanings = [*COMPONENTS.values(), *WHOLE_NAMES.values(),
                *(m for own in KIND_COMPONENTS.values() for m in own.values())]
    assert len(meanings) > 30
    for description, _unit in meanings:
        assert description.capitalize()[1:] == description[1:], description


def test_a_discrete_runs_penetration_stays_in_the_history(tmp_path):
    t = np.linspace(0, 1, 11)
    history = {"time": t, "DX_NO1": t, "PN_NO1": t}
    stems = {p.stem for p in plot_results({"case": "x", "kind": "discrete"}, history, tmp_path)}
    assert stems == {"displacement"}


def test_references_off_the_time_axis_are_not_drawn_nor_listed():
    """A reached reference just past a shortened run's end: not in the legend alone."""
    markers = [Marker("EKIN", "point", "LMGC90", "LMGC90", time=0.05, value=7.0),
               Marker("EKIN", "point", "rigid", "rigid", time=0.0603, value=7.1),
               Marker("EKIN", "vline", "recalage", "recalage", time=0.07),
               Marker("EKIN", "hline", "Code_Aster", "Code_Aster", value=1.0,
                      window=(0.061, 0.08)),
               Marker("EKIN", "hline", "analytic", "analytic", value=2.0, window=(0.05, 0.08))]
    with style.figure_style():
        fig, (ax,) = style.new_figure()
        ax.set_xlim(0.0, 0.06)
        draw_markers(ax, markers, MarkerStyles())
        assert ax.get_legend_handles_labels()[1] == ["LMGC90", "analytic"]


def test_every_documented_history_column_has_its_words_and_unit():
    """The legends name each column of docs/outputs.md's table with the unit given there
    (an energy column without a description was drawn as its bare name, without unit)."""
    import re
    from pathlib import Path

    from rocking_contact.viz.channels import Channel

    doc = (Path(__file__).parents[2] / "docs" / "outputs.md").read_text()
    table = doc.split("## `history.csv` columns", 1)[1].split("\n\n", 2)[2]
    rows = [line.split("|")[1:5] for line in table.splitlines() if line.startswith("| `")]
    checked = 0
    for names_cell, unit_cell, kinds, _meaning in rows:
        names = re.findall(r"`([A-Z_<>P]+)`", names_cell)
        units = [u.strip() for u in unit_cell.split(",")]
        kind = "discrete" if kinds.strip() == "discrete" else "block"
        for i, name in enumerate(n for n in names if n != "time"):
            unit = units[i] if len(units) == len(names) else units[0]
            channel = Channel.parse(name.replace("<P>", "NO1" if kind == "discrete" else "O"),
                                    kind)
            assert channel.description != channel.name, name
            assert channel.unit == ("" if unit == "count" else unit), (name, channel.unit, unit)
            checked += 1
    assert checked >= 30


def test_our_curves_are_never_black_and_never_share_a_look(tmp_path):
    """Black is the references' colour: a block with four output points has seven
    reactions (RN_BASE the seventh, drawn black beside black reference lines), and an
    energy balance has ten terms (two shared a colour)."""
    with style.figure_style():
        fig, (ax,) = style.new_figure()
        looks = [(line.get_color(), line.get_linestyle())
                 for line in (ax.plot([0, 1], [i, i])[0] for i in range(14))]
    assert len(set(looks)) == 14
    assert all(colour.lower() not in ("#000000", "black", "k") for colour, _ in looks)


def test_a_run_that_changes_its_file_is_named_by_its_changes(tmp_path):
    """`run sdnv105d --set geometry.half_width=0.1`: the titles say which block it is."""
    data = {"case": "sdnv105d", "kind": "block",
            "parameters": {"geometry": {"half_width": 0.1}},
            "warnings": ["its references describe the case file's parameters and the run "
                         "changes geometry.half_width: the checks are shown for information, "
                         "without a pass mark"]}
    t = np.linspace(0, 1, 11)
    plot_results(data, {"time": t, "EKIN_BLOCK": t, "RN_O": t, "RN_BASE": t}, tmp_path)
    assert "sdnv105d with geometry.half_width = 0.1: Kinetic energy" in svg_text(
        tmp_path / "kinetic_energy.svg")
    assert "normal reaction summed over the whole base (RN_BASE)" in svg_text(
        tmp_path / "reactions.svg")


def test_a_long_title_fits_the_figure_width():
    """Dotted keys and their values make long titles: wrapped, each line inside the
    figure (a line of 89 characters was cut at the right edge)."""
    from rocking_contact.viz.history_plots import figure_title

    keys = ["loading.table_acceleration_x.amplitude", "loading.table_acceleration_x.path",
            "loading.table_acceleration_x.type"]
    data = {"case": "sdnv105d_shaking", "parameters": {"loading": {"table_acceleration_x": {
        "amplitude": 1.0, "path": "/tmp/post/record.csv", "type": "table"}}},
        "warnings": [f"the run changes {', '.join(keys)}: the checks are shown for "
                     "information, without a pass mark"]}
    title = figure_title(data, "Tilt angle")
    assert title.count("\n") >= 1 and "record.csv" in title
    with style.figure_style():
        fig, (ax,) = style.new_figure()
        ax.set_title(title)
        fig.canvas.draw()  # Figure() has its own Agg canvas
        box = ax.title.get_window_extent()
        # a margin of 5 % of the width: the PNG's hinting at 130 dpi draws a little wider
        margin = 0.05 * fig.bbox.width
        assert box.x0 >= margin and box.x1 <= fig.bbox.width - margin


def _figures(monkeypatch):
    """The figures plot_results draws, by stem, instead of their files."""
    drawn = {}

    def keep(fig, out_dir, stem):
        drawn[stem] = fig
        return []

    monkeypatch.setattr(style, "save_figure", keep)
    return drawn


def test_the_base_resultant_and_the_references_leave_the_reaction_under_them_visible(
        tmp_path, monkeypatch):
    """sdnv105d's reactions: until impact 1 RN_BASE is RN_O, and it was drawn solid over
    it; the rigid pivot reaction, checked over two windows, and Code_Aster's, a pixel
    apart, were drawn over it too. RN_O was nowhere to be seen."""
    t = np.linspace(0.0, 0.06, 61)
    rn_o = np.where(t < 0.0544, 3600.0, 0.0)
    rn_a = np.where(t < 0.0544, 0.0, 3600.0)
    source = "analytic rigid: pivot reaction in free flight, M g (1 - 3 b^2 / (4 R^2))"
    specs = [{"name": "rn_max_O", "op": "max", "column": "RN_O", "window": [0.0, 0.05]},
             {"name": "rn_max_O_flight", "op": "max", "column": "RN_O",
              "window": [0.0025, 0.0544]}]
    checks = [{"quantity": "rn_max_O", "reference": 3579.25, "source": source},
              {"quantity": "rn_max_O_flight", "reference": 3579.25, "source": source},
              {"quantity": "rn_max_O", "reference": 3599.52, "source": "Code_Aster SDNV105 A"}]
    data = {"case": "sdnv105d", "kind": "block", "parameters": {"quantity": specs},
            "checks": checks}
    figures = _figures(monkeypatch)
    plot_results(data, {"time": t, "RN_O": rn_o, "RN_A": rn_a, "RN_BASE": rn_o + rn_a},
                 tmp_path)
    ax = figures["reactions"].axes[0]
    curves = {line.get_label(): line for line in ax.lines if len(line.get_xdata())
              and not line.get_label().startswith("_")}
    o, base = curves["normal reaction at O (RN_O)"], curves[
        "normal reaction summed over the whole base (RN_BASE)"]
    assert o.get_linestyle() == "-" and base.get_linestyle() == "--"
    assert base.get_linewidth() < o.get_linewidth()
    assert ax.lines.index(base) > max(ax.lines.index(c) for c in curves.values() if c is not base)
    # one segment per source and level, under our curves: the flight window joins [0, 0.05]
    segments = [(c.get_zorder(), c.get_segments()[0].tolist()) for c in ax.collections]
    assert sorted(segments) == [(style.REFERENCE_LINE_ZORDER, [[0.0, 3579.25], [0.0544, 3579.25]]),
                                (style.REFERENCE_LINE_ZORDER, [[0.0, 3599.52], [0.05, 3599.52]])]
    assert style.REFERENCE_LINE_ZORDER < o.get_zorder()
    # checks without a pass mark: for information
    assert list(_legend_keys(figures["reactions"]))[-2:] == ["analytic rigid (info)",
                                                            "Code_Aster SDNV105 A (info)"]


def test_two_sources_never_share_a_line_style():
    """The lifts of sdnv105d: "analytic rigid" and "analytic rigid, integrated" segments
    had one dashed key; so would the "rigid" and "analytic" families."""
    styles = MarkerStyles()
    dashes = [styles(family, label)["linestyle_ref"] for family, label in (
        ("analytic rigid", "analytic rigid"), ("analytic rigid", "analytic rigid, integrated"),
        ("rigid", "rigid"), ("analytic", "analytic"))]
    assert len({str(d) for d in dashes}) == 4
    assert styles("analytic rigid", "analytic rigid")["linestyle_ref"] == dashes[0]


def test_a_curve_drawn_over_an_equal_one_leaves_it_visible(tmp_path, monkeypatch):
    """sdnd100a's node moves along the diagonal: DY_NO1 was drawn solid over an equal
    DX_NO1, whose curve (and colour in the legend) was nowhere to be seen."""
    t = np.linspace(0.0, 0.3, 301)
    d = 6e-4 * np.cos(100.0 * t) * np.exp(-10.0 * t)
    data = {"case": "sdnd100a", "kind": "discrete"}
    figures = _figures(monkeypatch)
    plot_results(data, {"time": t, "DX_NO1": d, "DY_NO1": d + 1e-9, "VX_NO1": -d,
                        "VY_NO1": d}, tmp_path)
    dx, dy = (line for line in figures["displacement"].axes[0].lines
              if line.get_label().startswith("displacement"))
    assert dx.get_linestyle() == "-." and dy.get_linestyle() == "--"  # DX: horizontal
    assert dy.get_linewidth() < dx.get_linewidth()
    # curves apart by more than a line's width keep their own look: the component's
    vx, vy = (line for line in figures["velocity"].axes[0].lines
              if line.get_label().startswith("velocity"))
    assert (vx.get_linestyle(), vy.get_linestyle()) == ("-.", "-")


def test_a_run_result_or_its_directory_is_plotted_as_its_content(tmp_path):
    """``plot_results(result, result.history, out)`` gave an AttributeError: the plots took
    the results.json content only."""
    import rocking_contact as rc
    from rocking_contact.results_io import write

    t = np.linspace(0.0, 0.1, 5)
    result = rc.RunResult(case="x", kind="block", parameters={},
                          history={"time": t, "EKIN_BLOCK": t * t})
    write(result, tmp_path / "run")
    names = [{p.name for p in plot_results(*args, tmp_path / str(i))} for i, args in
             enumerate([(result,), (result, result.history), (tmp_path / "run",),
                        (str(tmp_path / "run"),), (result.to_json(), result.history)])]
    assert names[0] == {"kinetic_energy.png", "kinetic_energy.svg"}
    assert all(n == names[0] for n in names)
    import pytest

    with pytest.raises(rc.CaseError, match=r"plot_results: history: missing"):
        plot_results(result.to_json(), tmp_path)
    with pytest.raises(rc.CaseError, match=r"rocking_contact.viz: data: got int 3, allowed"):
        plot_results(3, tmp_path)


def test_the_rigid_blocks_collisions_are_marked_on_the_kinetic_energy(tmp_path):
    """A run compared with the rigid block (collisions.rigid) showed the comparison in its
    table only, not on the kinetic-energy plot (audit s25, nit 6); an instant after the
    run's end is not drawn."""
    import matplotlib.pyplot as plt

    from rocking_contact.viz.history_plots import _rigid_collisions

    fig, ax = plt.subplots()
    extra = {"rigid_comparison": [
        {"index": 1, "levels": {"nonlinear": {"time": 0.05441, "kinetic_energy": 7.2919}}},
        {"index": 2, "levels": {"nonlinear": {"time": 0.1352, "kinetic_energy": 4.0733}}}]}
    _rigid_collisions(ax, extra, end=0.1)
    (line,) = ax.lines
    assert line.get_label() == "rigid block (nonlinear): collision"
    assert list(line.get_xdata()) == [0.05441] and list(line.get_ydata()) == [7.2919]
    ax.cla()
    _rigid_collisions(ax, {"rigid_first_impact": {"time": 0.124, "kinetic_energy": 10.1}},
                      end=0.1)
    assert len(ax.lines) == 0
    plt.close(fig)


def _curves(fig):
    """Our curves of a figure's first axes, by column name (the legend label's end)."""
    return {line.get_label().rsplit("(", 1)[-1].rstrip(")"): line
            for line in fig.axes[0].lines
            if len(line.get_xdata()) > 1 and not line.get_label().startswith("_")}


def test_small_values_get_a_display_unit_not_a_multiplier(tmp_path, monkeypatch):
    """SDND100 A's displacements (6e-4 m) and the smallest gap (1e-6 m) were labelled in
    m with a "1e-4" / "1e-6" multiplier above the axis, easy to miss."""
    t = np.linspace(0.0, 0.3, 301)
    figures = _figures(monkeypatch)
    plot_results({"case": "x", "kind": "block"},
                 {"time": t, "DX_NO1": 6e-4 * np.cos(30 * t), "GAP_MIN": 1.4e-5 * np.sin(t),
                  "EKIN_BLOCK": 3e-4 * t, "ENERGY_RESIDUAL": 1.5e-4 * t, "THETA": 0.1 * t},
                 tmp_path)
    expected = {"displacement": "displacement (µm)",
                "history_GAP_MIN": "smallest gap of the base (negative: into the table) (µm)",
                "kinetic_energy": "kinetic energy (µJ)",
                "history_THETA": "counter-clockwise tilt of the base (rad)"}
    for stem, label in expected.items():
        fig = figures[stem]
        fig.draw_without_rendering()
        ax = fig.axes[0]
        assert ax.get_ylabel() == label, stem
        assert ax.yaxis.get_offset_text().get_text() == "", stem
        ticks = [float(tick.get_text().replace("\N{MINUS SIGN}", "-"))
                 for tick in ax.get_yticklabels() if tick.get_text()]
        assert ticks and max(abs(v) for v in ticks) < 1000, (stem, ticks)
        assert max(abs(v) for v in ticks) >= 1 or stem == "history_THETA", (stem, ticks)


def test_a_location_keeps_its_colour_and_a_component_its_line_style(tmp_path, monkeypatch):
    """RN_A was green in SDNV105 A, C, D and yellow in B (colours followed the order of
    the columns drawn, B recording no RN_O1 ...): a location has one colour everywhere."""
    t = np.linspace(0.0, 0.3, 301)
    wave = 3600.0 * (1.0 + np.sin(40 * t))
    looks = []
    for columns in (("RN_O", "RX_O", "RN_O1", "RN_A", "RX_A"), ("RN_A", "RX_A")):
        figures = _figures(monkeypatch)
        plot_results({"case": "x", "kind": "block"},
                     {"time": t, **{c: wave * (1 + 0.1 * i) for i, c in enumerate(columns)}},
                     tmp_path)
        curves = _curves(figures["reactions"])
        looks.append({c: (line.get_color(), line.get_linestyle())
                      for c, line in curves.items()})
    assert looks[1] == {c: looks[0][c] for c in ("RN_A", "RX_A")}
    assert looks[0]["RN_A"][0] == looks[0]["RX_A"][0] != looks[0]["RN_O"][0]
    assert looks[0]["RN_O"][1] == looks[0]["RN_A"][1] == "-"
    assert looks[0]["RX_O"][1] == looks[0]["RX_A"][1] != "-"


def test_round_off_columns_get_neither_a_curve_nor_a_legend_entry(tmp_path, monkeypatch):
    """SDNV105 A's RX_O1 peaks at 2.7e-15 N beside kilonewton reactions: a flat line with
    an entry in the legend."""
    t = np.linspace(0.0, 0.3, 301)
    figures = _figures(monkeypatch)
    plot_results({"case": "x", "kind": "block"},
                 {"time": t, "RN_O": 3600.0 * np.cos(t), "RX_O1": 2.7e-15 * np.sin(t),
                  "RX_O": 1e-3 * np.sin(t)}, tmp_path)
    assert set(_curves(figures["reactions"])) == {"RN_O", "RX_O"}


def test_our_colours_stand_out_on_white():
    """The Okabe-Ito yellow #F0E442 (DX_C1) was hard to see on white: every colour of our
    curves has a contrast ratio of 2 at least against the white background."""
    from matplotlib.colors import to_rgb

    def luminance(colour):
        rgb = np.array(to_rgb(colour))
        linear = np.where(rgb <= 0.03928, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
        return float(linear @ [0.2126, 0.7152, 0.0722])

    for colour in (*style.PALETTE, *style.LOCATION_COLOURS.values()):
        assert 1.05 / (luminance(colour) + 0.05) >= 2.0, colour


def test_solver_diagnostics_count_in_whole_numbers_and_steps_on_a_log_axis(
        tmp_path, monkeypatch):
    """CONTACTS, NEWTON had ticks at 1.25 or 0.2, the 1e-5 s steps of the impact windows
    looked like 0 on a linear axis beside 2.5e-3 s, and each one-curve legend repeated
    its axis label."""
    t = np.linspace(0.0, 0.3, 301)
    dt = np.where((t > 0.05) & (t < 0.06), 1e-5, 2.5e-3)
    dt[0] = 0.0  # the first row: no step taken yet
    figures = _figures(monkeypatch)
    plot_results({"case": "x", "kind": "block"},
                 {"time": t, "DT": dt, "NEWTON": 2.0 + (t > 0.05), "CONTACTS": (t > 0.2) * 1.0,
                  "CONTACT_ITERATIONS": 1.0 + (t > 0.1) * 3.0}, tmp_path)
    assert figures["history_DT"].axes[0].get_yscale() == "log"
    for stem in ("history_NEWTON", "history_CONTACTS", "history_CONTACT_ITERATIONS"):
        fig = figures[stem]
        fig.draw_without_rendering()
        ax = fig.axes[0]
        ticks = [float(tick.get_text().replace("\N{MINUS SIGN}", "-"))
                 for tick in ax.get_yticklabels() if tick.get_text()]
        assert ticks and all(v == round(v) for v in ticks), (stem, ticks)
        assert ax.get_legend() is None and not fig.legends, stem
        assert ax.get_title().endswith(f"({stem.removeprefix('history_')})"), stem


def test_the_pass_band_is_drawn_and_graded_references_stand_out(tmp_path, monkeypatch):
    """SDNV105 A's collisions 2-5 are graded on a band drawn nowhere, and every reference
    looked alike: D's Code_Aster triangles, information only, far from the curve, looked
    like a failure."""
    t = np.linspace(0.0, 0.3, 301)
    band = "band: integrated rigid to recalage, 3% margins"
    checks = [{"quantity": "collision.3.time", "reference": 0.1992, "abs_tolerance": 0.0096,
               "source": band, "passed": False},
              {"quantity": "collision.3.kinetic_energy", "reference": 2.58,
               "abs_tolerance": 0.376, "source": band, "passed": True},
              {"quantity": "collision.1.time", "reference": 0.0544, "source": "LMGC90",
               "passed": True},
              {"quantity": "collision.1.kinetic_energy", "reference": 7.23, "source": "LMGC90",
               "passed": True},
              {"quantity": "collision.3.time", "reference": 0.209, "source": "Code_Aster A",
               "passed": None},
              {"quantity": "collision.3.kinetic_energy", "reference": 2.86,
               "source": "Code_Aster A", "passed": None}]
    figures = _figures(monkeypatch)
    plot_results({"case": "x", "kind": "block", "checks": checks},
                 {"time": t, "EKIN_BLOCK": 7.3 * np.sin(20 * t) ** 2}, tmp_path)
    fig = figures["kinetic_energy"]
    (box,) = [p for p in fig.axes[0].patches if p.get_label() == "pass band (graded)"]
    assert np.allclose([box.get_x(), box.get_x() + box.get_width()], [0.1896, 0.2088])
    assert np.allclose([box.get_y(), box.get_y() + box.get_height()], [2.204, 2.956])
    assert box.get_zorder() < 2  # under our curve
    keys = _legend_keys(fig)
    graded, info = keys["LMGC90 (graded)"], keys["Code_Aster A (info)"]
    assert graded.get_color() == "black" and info.get_color() == style.INFO_COLOUR
    assert graded.get_markerfacecolor() != "none" and info.get_markerfacecolor() == "none"
    assert "pass band (graded)" in keys


def test_extremum_references_of_several_columns_sit_at_our_extrema(tmp_path, monkeypatch):
    """sdnv105a's velocity.png: five black lines at -0.10 to -0.13 m/s across the whole
    axis, nothing saying whether VY_O's or VY_A's, nor where our minimum is."""
    t = np.linspace(0.0, 0.33, 331)
    vy_o, vy_a = -0.1 * np.sin(20 * t), -0.13 * np.sin(20 * t + 1.0)
    specs = [{"name": "vy_min_O", "op": "min", "column": "VY_O", "window": [0.0, 0.33]},
             {"name": "vy_min_A", "op": "min", "column": "VY_A", "window": [0.0, 0.33]}]
    checks = [{"quantity": "vy_min_O", "reference": -0.099, "source": "rigid", "passed": None},
              {"quantity": "vy_min_A", "reference": -0.131, "source": "rigid", "passed": None}]
    figures = _figures(monkeypatch)
    plot_results({"case": "x", "kind": "block", "checks": checks,
                  "parameters": {"quantity": specs}},
                 {"time": t, "VY_O": vy_o, "VY_A": vy_a}, tmp_path)
    ax = figures["velocity"].axes[0]
    segments = {round(float(c.get_segments()[0][0][1]), 3): c.get_segments()[0][:, 0]
                for c in ax.collections}
    for level, y in ((-0.099, vy_o), (-0.131, vy_a)):
        start, end = segments[level]
        assert end - start <= 0.06 * 0.33 + 1e-12  # short, not the whole axis
        assert start <= t[np.argmin(y)] <= end  # at our minimum
    assert sorted(text.get_text() for text in ax.texts) == ["VY_A", "VY_O"]


def test_the_energy_balance_shows_every_term_and_sizes_its_residual(tmp_path, monkeypatch):
    """sdnv105a's energy_balance.png: the terms' legend sat under the residual panel,
    EKIN_BLOCK (4e-8 J from EKIN) had a legend entry and no visible curve, EFRICTION was
    dash-dotted in EKIN's blue, and the residual (-1.44 J, 20 % of 7.29 J) had no scale."""
    t = np.linspace(0.0, 0.3, 301)
    ekin = 7.29 * np.sin(20 * t) ** 2
    history = {"time": t, "EKIN_BLOCK": ekin, "EKIN": ekin + 4e-8, "ETOT": 7.29 - 1.44 * t,
               "EFRICTION": -0.03 * t, "ESTICK": 0.0 * t, "ENERGY_RESIDUAL": -1.44 / 0.3 * t}
    figures = _figures(monkeypatch)
    plot_results({"case": "x", "kind": "block"}, history, tmp_path)
    fig = figures["energy_balance"]
    terms, residual = fig.axes
    curves = _curves(fig)
    assert set(curves) == {"EKIN_BLOCK", "EKIN", "ETOT", "EFRICTION"}  # ESTICK flat
    assert curves["EKIN"].get_linestyle() == "--"  # over the equal EKIN_BLOCK, dashed
    assert curves["EKIN"].get_linewidth() < curves["EKIN_BLOCK"].get_linewidth()
    looks = {(line.get_color(), line.get_linestyle()) for line in curves.values()}
    assert len(looks) == 4
    assert (curves["EFRICTION"].get_color(), curves["EFRICTION"].get_linestyle()) != (
        curves["EKIN"].get_color(), "-.")
    # the legend beside the panels, not under the residual
    (legend,) = fig.legends
    fig.draw_without_rendering()
    box, panel = legend.get_window_extent(), terms.get_window_extent()
    assert box.x0 >= panel.x1 and box.y1 > panel.y0
    assert "20 % of the largest total energy 7.29 J" in residual.get_title(loc="left")


def test_pngs_are_256_colour_palettes_visibly_the_same(tmp_path):
    """matplotlib's RGBA PNGs, all opaque, were 2.6 times the size of the same images in
    256 colours (the report's 110: 6.79 MB, 2.66 MB)."""
    import io

    t = np.linspace(0.0, 0.33, 331)
    with style.figure_style():
        fig, (ax,) = style.new_figure()
        for k in range(6):
            ax.plot(t, np.sin(20 * t + k), label=f"curve {k}")
        style.place_legend(ax)
        rgba = io.BytesIO()
        fig.savefig(rgba, format="png", dpi=style.DPI)
        png, _ = style.save_figure(fig, tmp_path, "curves")
    written = Image.open(png)
    assert written.mode == "P"
    change = np.abs(np.asarray(Image.open(rgba).convert("RGB"), dtype=float)
                    - np.asarray(written.convert("RGB"), dtype=float)).max(axis=2)
    assert change.mean() <= style.PALETTE_MEAN_CHANGE
    assert png.stat().st_size < 0.6 * rgba.tell()


def test_a_reference_at_the_start_is_not_cut_by_the_axis_edge(tmp_path, monkeypatch):
    """The preload's tilt at release, a reference at t = 0, was drawn half outside."""
    t = np.linspace(0.0, 0.06, 61)
    specs = [{"name": "theta_0", "op": "at", "column": "THETA", "time": 0.0, "window": None}]
    checks = [{"quantity": "theta_0", "reference": 0.01, "source": "analytic", "passed": True}]
    figures = _figures(monkeypatch)
    plot_results({"case": "x", "kind": "block", "checks": checks,
                  "parameters": {"quantity": specs}},
                 {"time": t, "THETA": 0.01 * np.cos(20 * t)}, tmp_path)
    (point,) = [line for line in figures["history_THETA"].axes[0].lines
                if list(line.get_xdata()) == [0.0]]
    assert not point.get_clip_on()


def test_a_graded_reference_marker_is_drawn_black():
    """Its fill is see-through; its edge, unset, took the fill's transparency and the
    marker came out grey (darkest pixel 108 of 255), like an information one."""
    import io

    import matplotlib.pyplot as plt
    from PIL import Image

    look = style.reference_look({"color": "black", "marker": "o"}, True)
    look.pop("linewidth_ref")
    fig, ax = plt.subplots(figsize=(1, 1), dpi=100)
    ax.plot([0.0], [0.0], markersize=20, linestyle="none", **look)
    ax.axis("off")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    buffer.seek(0)
    assert np.asarray(Image.open(buffer).convert("L")).min() < 30


def test_the_256_colour_png_keeps_the_figures_own_colours_exact():
    """A quantizer alone (median cut) merged a small legend key's pure colour with its
    neighbours (the preload's EELAS green #009E73 became teal); the style's colours stay
    exact, every other pixel takes its nearest palette colour."""
    from matplotlib.colors import to_rgb
    from PIL import Image

    rng = np.random.default_rng(0)
    pixels = np.full((120, 120, 3), 255, dtype=np.uint8)
    for i in range(0, 120, 4):  # 900 patches of colours near the palette's green
        for j in range(0, 120, 4):
            pixels[i:i + 4, j:j + 4] = np.clip(np.array([0, 158, 115]) + rng.integers(
                -40, 40, 3), 0, 255)
    green = [round(255 * c) for c in to_rgb("#009E73")]
    pixels[10:13, 10:13] = green
    image = style._palette_image(Image.fromarray(pixels, "RGB"), style.KEPT_COLOURS)
    back = np.asarray(image.convert("RGB"))
    assert image.mode == "P" and np.all(back[10:13, 10:13] == green)
    # the rest within the quantizer's reach of what was drawn
    assert np.abs(back.astype(int) - pixels).max() < 40


def _pivot_reactions(monkeypatch, tmp_path, passed=False):
    """SDNV105 A's reactions before impact 1, as the checks see them: RN_O largest at
    t = 0 (4097 N, graded over [0, 0.05] s against 3579 N, failing), then 3600.68 N on
    0.01 s, the edge of Code_Aster's open window (0.01, 0.05) s, whose largest is
    3599.53 N at 0.0125 s; RX_A's maximum a second column of extrema."""
    t = np.round(np.arange(0.0, 0.33 + 1e-9, 0.0025), 10)
    rn_o = np.where(t < 0.055, 3590.0 - 100.0 * t, 0.0)
    rn_o[0], rn_o[t == 0.01], rn_o[t == 0.0125] = 4096.53, 3600.68, 3599.53
    rx_a = np.where(t > 0.06, 1141.0 * np.sin(10 * t), 0.0)
    specs = [{"name": "rn_max_O", "op": "max", "column": "RN_O", "window": [0.0, 0.05],
              "bounds": "closed"},
             {"name": "rn_max_O_ca", "op": "max", "column": "RN_O", "window": [0.01, 0.05],
              "bounds": "open"},
             {"name": "rx_max_A", "op": "max", "column": "RX_A", "window": [0.06, 0.12],
              "bounds": "closed"}]
    checks = [{"quantity": "rn_max_O", "reference": 3579.25, "value": 4096.53,
               "source": "analytic rigid: pivot reaction", "passed": passed},
              {"quantity": "rn_max_O", "reference": 3599.52, "source": "Code_Aster A",
               "passed": None},
              {"quantity": "rn_max_O_ca", "reference": 3579.25,
               "source": "analytic rigid: pivot reaction", "passed": None},
              {"quantity": "rn_max_O_ca", "reference": 3599.52, "source": "Code_Aster A",
               "passed": None},
              {"quantity": "rx_max_A", "reference": 1149.79, "source": "Code_Aster A",
               "passed": None}]
    figures = _figures(monkeypatch)
    plot_results({"case": "x", "kind": "block", "checks": checks,
                  "parameters": {"quantity": specs}},
                 {"time": t, "RN_O": rn_o, "RX_A": rx_a}, tmp_path)
    return figures["reactions"]


def test_an_extremum_segment_sits_where_its_open_window_grades_it(tmp_path, monkeypatch):
    """SDNV105 A's RN_O maximum over Code_Aster's open window (0.01, 0.05) s was drawn at
    0.01 s (3600.68 N, a sample the window leaves out); the check grades 3599.53 N at
    0.0125 s."""
    ax = _pivot_reactions(monkeypatch, tmp_path).axes[0]
    half = 0.5 * EXTREMUM_SEGMENT * 0.33
    spans = sorted(tuple(np.round(c.get_segments()[0][:, 0], 9)) for c in ax.collections
                   if np.isclose(c.get_segments()[0][0, 1], 3599.52))
    # Code_Aster's level twice: over [0, 0.05] at t = 0, over (0.01, 0.05) at 0.0125 s
    assert spans == [(0.0, round(half, 9)), (0.01, round(0.0125 + half, 9))]


def test_segment_tags_of_one_column_do_not_collide(tmp_path, monkeypatch):
    """The RN_O maxima over [0, 0.05] s (at t = 0) and (0.01, 0.05) s (at 0.0125 s) wrote
    two "RN_O" tags a few pixels apart, overlapping."""
    fig = _pivot_reactions(monkeypatch, tmp_path)
    ax = fig.axes[0]
    fig.draw_without_rendering()
    boxes = [text.get_window_extent() for text in ax.texts]
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    # one tag naming both windows
    tags = [text.get_text() for text in ax.texts if "RN_O" in text.get_text()]
    assert tags == ["RN_O [0, 0.05]\nRN_O (0.01, 0.05)"]


def test_our_failing_graded_extremum_is_marked_over_the_frame(tmp_path, monkeypatch):
    """SDNV105 A's largest RN_O, 4097 N at t = 0 against the analytic 3579 N (graded,
    failing), sat on the axis frame unmarked."""
    from matplotlib.colors import to_rgb

    fig = _pivot_reactions(monkeypatch, tmp_path)
    (miss,) = [line for line in fig.axes[0].lines if line.get_label() == MISS_LABEL]
    assert (list(miss.get_xdata()), list(miss.get_ydata())) == ([0.0], [4096.53])
    assert not miss.get_clip_on()  # over the frame at t = 0, not cut in half
    ours = {to_rgb(c) for c in (*style.PALETTE, "black", style.INFO_COLOUR)}
    assert to_rgb(miss.get_color()) not in ours
    assert MISS_LABEL in _legend_keys(fig)
    # a passing check is not marked
    passing = _pivot_reactions(monkeypatch, tmp_path, passed=True)
    assert not [line for line in passing.axes[0].lines if line.get_label() == MISS_LABEL]


def test_a_source_graded_for_one_quantity_and_info_for_another_is_named_once(
        tmp_path, monkeypatch):
    """The analytic rigid pivot reaction, graded over [0, 0.05] s and information over
    (0.01, 0.05) s, had two legend entries."""
    keys = _legend_keys(_pivot_reactions(monkeypatch, tmp_path))
    analytic = [label for label in keys if label.startswith("analytic rigid")]
    assert analytic == ["analytic rigid (graded; info in grey)"]
    assert keys[analytic[0]].get_color() == "black"  # the graded look
    assert [label for label in keys if label.startswith("Code_Aster")] == [
        "Code_Aster A (info)"]
