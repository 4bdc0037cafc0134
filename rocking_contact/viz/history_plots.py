"""The time-history plots written by every run (PNG and SVG), with their references.

Which plots a run gets follows from the columns of its history, not from its kind, so a
new case is drawn without a code change:

- ``kinetic_energy``: ``EKIN*``, with the collision instants and energy peaks of the
  references and our own collision instants;
- ``displacement`` / ``velocity``: ``D*`` / ``V*`` (block corners, discrete nodes);
- ``reactions``: ``RN``/``RX`` at the block corners;
- ``impulses``: ``PN``/``PX``, the contact impulses of a block's step (N.s, SDNV105 D);
- ``shock_force``: ``FN``/``FT`` of the discrete shocks, impacts shaded;
- ``energy_balance``: the energy terms and ``ENERGY_RESIDUAL``;
- ``impact_histogram``: the impact-force classes of ``extra["impact_statistics"]``;
- ``history_<COMPONENT>``: any other column, so that nothing a run records is hidden
  (accelerations and the shocks' penetration ``PN`` and normal velocity excepted: they
  are in ``history.csv`` and would only crowd the plots).

References are drawn as :mod:`rocking_contact.viz.markers` places them. What the plots show
of a run's content is decided once, for the run and the report (:func:`plotted`): our
collisions and the references the run reached, as the checks say.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np

from rocking_contact.viz import style
from rocking_contact.viz.changes import ending, run_name
from rocking_contact.viz.channels import Channel, columns_of, kinetic_energy_column, sentence
from rocking_contact.viz.markers import Marker, reference_markers
from rocking_contact.viz.runs import Run, as_pair


@dataclass(frozen=True)
class HistoryFigure:
    """One plot: the columns of some components against time, on one axis."""

    stem: str
    title: str
    quantity: str
    unit: str
    components: tuple[str, ...]

    @property
    def ylabel(self) -> str:
        """The axis label: the quantity and its unit in brackets."""
        return f"{self.quantity} ({self.unit})" if self.unit else self.quantity


FIGURES: tuple[HistoryFigure, ...] = (
    HistoryFigure("kinetic_energy", "Kinetic energy", "kinetic energy", "J", ("EKIN",)),
    HistoryFigure("displacement", "Displacements", "displacement", "m", ("DX", "DY", "DZ")),
    HistoryFigure("velocity", "Velocities", "velocity", "m/s", ("VX", "VY", "VZ")),
    HistoryFigure("reactions", "Contact forces (normal RN, on the table along x RX)", "force",
                  "N",
                  ("RN", "RX", "RY")),
    HistoryFigure("impulses", "Contact impulses of the step (normal PN, horizontal PX)",
                  "impulse", "N.s", ("PN", "PX")),
    HistoryFigure("shock_force", "Shock forces (normal FN, tangential FT)", "force", "N",
                  ("FN", "FT")),
)

#: components left to history.csv (see the module docstring)
NOT_PLOTTED = frozenset({"AX", "AY", "AZ", "VN"})
#: kind -> more components left to history.csv: a discrete shock's PN is its penetration
NOT_PLOTTED_BY_KIND: dict[str, frozenset[str]] = {"discrete": frozenset({"PN"})}
RESIDUAL = "ENERGY_RESIDUAL"

#: longest legend label of a reference source
_LABEL_CHARS = 60
#: longest line of a figure title (characters): what the 1040 px width holds at 12 pt
#: with a margin (a line of 89 characters of dotted keys is cut at the right edge)
TITLE_CHARS = 72


def figure_title(data: Mapping[str, Any], what: str) -> str:
    """``<run>: <what>``, the run named by its case and what it changes from the file
    (:func:`.changes.run_name`) and, if it did not complete, how it ended
    (:func:`.changes.ending`), wrapped to the figure's width."""
    return textwrap.fill(f"{run_name(data)}: {what}{ending(data)}", TITLE_CHARS)


def _short(text: str) -> str:
    return text if len(text) <= _LABEL_CHARS else text[: _LABEL_CHARS - 1] + "…"


#: a column whose largest magnitude is below this fraction of the figure's largest is
#: round-off (SDNV105 A's RX_O1 peaks at 2.7e-15 N beside kilonewton reactions): no curve
FLAT = 1e-9


def _drawn(history: Mapping[str, np.ndarray], names: list[str]) -> list[str]:
    """Columns worth a curve: those flat at the figure's scale (all zero, or :data:`FLAT`
    of its largest value at most) are dropped unless nothing else is left."""
    peaks = {n: float(np.nanmax(np.abs(history[n]), initial=0.0)) for n in names}
    largest = max(peaks.values(), default=0.0)
    return [n for n in names if peaks[n] > FLAT * largest] or names[:1]


def _on_time_axis(marker: Marker, lo: float, hi: float) -> bool:
    """Whether ``marker`` shows within the time axis [lo, hi] (s): a reference past a
    shortened run's end would otherwise be in the legend and nowhere else."""
    slack = 1e-9 * abs(hi - lo)  # a reference on the last instant stays, round-off aside
    if marker.shape in ("hline", "box"):
        start, end = marker.window if marker.window else (lo, hi)
        return start <= hi + slack and end >= lo - slack
    return marker.time is not None and lo - slack <= marker.time <= hi + slack


def _union(spans: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The union of the intervals ``spans`` as disjoint intervals, in order."""
    out: list[tuple[float, float]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _joined(markers: Sequence[Marker], lo: float, hi: float) -> list[Marker]:
    """``markers`` with the overlapping segments of one source at one level drawn as one
    over their union (a segment without a window spans [lo, hi]): SDNV105's rigid pivot
    reaction, checked over [0, 0.05] s and over the flight [0.0025, 0.0544] s, stacked two
    dash patterns out of phase into a solid black line that hid our reaction under it."""
    groups: dict[Any, list[Marker]] = {}  # a level's segments at the place of its first
    for i, m in enumerate(markers):
        groups.setdefault((m.column, m.label, m.value, m.graded) if m.shape == "hline" else i,
                          []).append(m)
    out: list[Marker] = []
    for group in groups.values():
        if group[0].shape != "hline":
            out += group
            continue
        for span in _union([m.window or (lo, hi) for m in group]):
            # each span named by the windows of its own segments, not of the group's first
            parts = [m for m in group if span[0] <= (m.window or (lo, hi))[0] <= span[1]]
            out.append(replace(parts[0], window=span, over=tuple(
                dict.fromkeys(w for m in parts for w in m.over))))
    return out


#: legend suffix of a reference by whether its check has a pass mark (None: not said)
GRADED_SUFFIX = {True: " (graded)", False: " (info)", None: ""}
#: legend suffix of a source graded for some quantities of the figure and information for
#: others (SDNV105 A's analytic rigid pivot reaction: graded over [0, 0.05] s, information
#: over Code_Aster's (0.01, 0.05) s); it had two entries
MIXED_SUFFIX = " (graded; info in grey)"


def _legend_label(label: str, grades: set[bool | None]) -> str:
    """A source's one legend label: its label and whether its markers are graded."""
    suffix = MIXED_SUFFIX if {True, False} <= grades else GRADED_SUFFIX[
        True if True in grades else False if False in grades else None]
    return _short(label) + suffix


def _draw_box(ax: Any, marker: Marker, lo: float, hi: float, label: str | None) -> None:
    """A pass band: a translucent box over its instants and values, under our curves."""
    from matplotlib.patches import Rectangle

    look = style.band_look(marker.graded)
    if marker.span is None:  # an instant's band alone: the axis' whole height
        ax.axvspan(*(marker.window or (lo, hi)), label=label, **look)
    elif marker.window is None:  # a value's band alone: the whole time axis
        ax.axhspan(*marker.span, label=label, **look)
    else:
        (t0, t1), (e0, e1) = marker.window, marker.span
        ax.add_patch(Rectangle((t0, e0), t1 - t0, e1 - e0, label=label, **look))


#: length of a max/min reference's segment at our extremum, as a fraction of the time axis
EXTREMUM_SEGMENT = 0.06


#: a max/min marker's op -> the quantity ops of its instant and its value
_EXTREMA: dict[str, tuple[Literal["argmax", "argmin"], Literal["max", "min"]]] = {
    "max": ("argmax", "max"), "min": ("argmin", "min")}


def _our_extremum(marker: Marker, history: Mapping[str, np.ndarray]
                  ) -> tuple[float, float] | None:
    """(instant in s, value) of our extremum that the check of the max/min ``marker``
    grades, found by the grading's own evaluation
    (:func:`rocking_contact.post.references.evaluate` of its argmax or argmin and its max or
    min, the window's bounds included); None when the run has none there (a window past a
    shortened run's end). Over its closed window SDNV105 A's open (0.01, 0.05) s maximum of
    RN_O would be put at 0.01 s, 3600.68 N; the check grades 3599.53 N at 0.0125 s."""
    from rocking_contact.config import QuantitySpec
    from rocking_contact.post.references import evaluate

    arg, extremum = _EXTREMA[str(marker.op)]
    spec = QuantitySpec(name=marker.column, column=marker.column, op=arg,
                        window=marker.window, bounds="open" if marker.bounds == "open"
                        else "closed")
    at, value = evaluate(spec, history), evaluate(replace(spec, op=extremum), history)
    return (at, value) if np.isfinite(at) and np.isfinite(value) else None


def window_text(window: tuple[float, float] | None, bounds: str = "closed") -> str:
    """A window (s) as an interval, open ends in parentheses: ``[0, 0.05]``,
    ``(0.01, 0.05)``; ``the run`` without one."""
    if window is None:
        return "the run"
    left, right = "()" if bounds == "open" else "[]"
    return f"{left}{window[0]:g}, {window[1]:g}{right}"


def _at_our_extrema(markers: Sequence[Marker], history: Mapping[str, np.ndarray],
                    lo: float, hi: float) -> list[Marker]:
    """``markers`` with each max/min segment moved to a short one (:data:`EXTREMUM_SEGMENT`)
    at our extremum of its column in its window (:func:`_our_extremum`), tagged with the
    column and its window, when the figure has such references on two columns or more:
    five lines across the whole axis (SDNV105 A's VY_O and VY_A minima, -0.10 to -0.13 m/s)
    could not be told apart nor tied to a curve. References on one column keep their window
    (the pivot reaction over the flight before impact 1, seen at its edges where our RN_O
    leaves it)."""
    extrema = [m for m in markers if m.shape == "hline" and m.op in ("max", "min")]
    if len({m.column for m in extrema}) < 2:
        return list(markers)
    half = 0.5 * EXTREMUM_SEGMENT * (hi - lo)
    out = []
    for m in markers:
        ours = _our_extremum(m, history) if m in extrema else None
        if ours is None:
            out.append(m)
            continue
        start, end = m.window or (lo, hi)
        out.append(replace(m, window=(max(start, ours[0] - half), min(end, ours[0] + half)),
                           tag=m.column, over=(window_text(m.window, m.bounds),)))
    return out


#: legend label of our extremum whose check fails
MISS_LABEL = "ours: graded extremum that fails"


def _our_misses(ax: Any, markers: Sequence[Marker], history: Mapping[str, np.ndarray]
                ) -> None:
    """Mark our extrema whose graded checks fail (:data:`.style.MISS_LOOK`), over the axis
    frame if need be (:func:`_unclip_points`, once the limits are set: a point off them,
    a spike past :func:`_clip_spikes`' limits, stays clipped): SDNV105 A's largest RN_O
    over [0, 0.05] s, 4097 N at t = 0 (the analytic rigid 3579 N within 1 %), sat on the
    frame, unmarked."""
    lo, hi = ax.get_xlim()
    drawn = set()
    for m in markers:
        if m.shape != "hline" or m.op not in ("max", "min") or m.passed is not False:
            continue
        ours = _our_extremum(m, history)
        if ours is None or ours in drawn or not lo <= ours[0] <= hi:
            continue
        drawn.add(ours)
        ax.plot([ours[0]], [ours[1]], label=MISS_LABEL, **style.MISS_LOOK)


def draw_markers(ax: Any, markers: Sequence[Marker], styles: style.MarkerStyles,
                 ours: Any = None, *, one_per_place: bool = False) -> dict[str, list[Any]]:
    """Draw the references that fall on ``ax``'s time axis (points, horizontal segments,
    vertical lines, pass-band boxes) and name each source once in the legend, by a key
    that shows all it draws here: its marker, its line style, or both (a source with a
    point and a segment, such as the integrated rigid block's collision and its largest
    later kinetic energy, shows both, not its marker alone), with "(graded)" or
    "(info)" when the markers say whether their checks have a pass mark (graded ones
    black and heavier, information ones grey: :func:`.style.reference_look`), both
    (:data:`MIXED_SUFFIX`, the graded key) for a source that is each; set the axis limits
    first.

    With ``one_per_place`` (a run's own figures; the comparison of runs draws coinciding
    sources nested instead) sources whose points are the same places on the figure are
    drawn and named as one (:func:`_one_per_place`). ``ours``, the line of our points
    (collisions), if given:
    a source whose points are all at ours is named with ours, in one entry (its label
    ``ours' label = the source's``), whose key shows the source's marker under our dot.

    Returns:
        The legend label -> the keys drawn under its own (for :func:`.style.place_legend`).

    """
    lo, hi = ax.get_xlim()
    shown = _joined([m for m in markers if _on_time_axis(m, lo, hi)], lo, hi)
    if one_per_place:
        shown = _one_per_place(shown, ax)
    at_ours = _at_ours(shown, ours, ax)
    for m in sorted(shown, key=lambda m: m.label):
        styles(m.family, m.label)  # a source's shape whatever the order of the checks
    grades: dict[str, set[bool | None]] = {}
    for m in shown:
        grades.setdefault(m.label, set()).add(m.graded)
    # legend label -> (family, source label, graded look, shapes drawn)
    looks: dict[str, tuple[str, str, bool | None, set[str]]] = {}
    boxes: set[str] = set()
    tags: list[_Tag] = []
    for m in shown:
        legend = _legend_label(m.label, grades[m.label])
        if m.shape == "box":
            _draw_box(ax, m, lo, hi, None if legend in boxes else legend)
            boxes.add(legend)
            continue
        kw = style.reference_look(styles(m.family, m.label), m.graded)
        dashes, width = kw.pop("linestyle_ref"), kw.pop("linewidth_ref")
        key_look = True if True in grades[m.label] else m.graded
        looks.setdefault(legend, (m.family, m.label, key_look, set()))[3].add(
            "point" if m.shape == "point" else "line")
        if m.shape == "point":
            ax.plot([m.time], [m.value], **kw)
        elif m.shape == "hline":
            start, end = m.window if m.window else (lo, hi)
            ax.hlines(m.value, start, end, colors=kw["color"], linestyles=[dashes],
                      linewidth=width, zorder=style.REFERENCE_LINE_ZORDER)
            if m.tag and m.value is not None:
                tags.append(_Tag(m.tag, m.over, start, end, m.value, kw["color"]))
        else:
            ax.axvline(m.time, color=kw["color"], linestyle=dashes,
                       linewidth=width, zorder=style.REFERENCE_LINE_ZORDER)
    _draw_tags(ax, tags, lo, hi)
    keys: dict[str, list[Any]] = {}
    for legend, (family, label, graded, drawn) in looks.items():
        # the legend's key: an empty line of the source's look (a proxy artist)
        kw = style.reference_look(styles(family, label), graded)
        dashes, width = kw.pop("linestyle_ref"), kw.pop("linewidth_ref")
        if "point" not in drawn:
            kw["marker"] = "None"
        if "line" in drawn:
            kw.update(linestyle=dashes, linewidth=width)
        if at_ours is not None and label == at_ours[0]:
            together = at_ours[1] + legend
            ours.set_label(together)
            keys[together] = ax.plot([], [], label="_under_ours", **kw)
        else:
            ax.plot([], [], label=legend, **kw)
    return keys


#: points of two sources closer than this fraction of both axes' spans are one place on
#: the figure (about a pixel of its axes, some 900 by 400)
SAME_PLACE = 2e-3


def _all_at(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]],
            ax: Any) -> bool:
    """Whether every point of ``a`` ((time s, value)) is within :data:`SAME_PLACE` of
    both axes' spans of a point of ``b`` (none of ``a``: False)."""
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    dx, dy = SAME_PLACE * abs(x1 - x0), SAME_PLACE * abs(y1 - y0)
    return bool(a) and all(any(abs(p[0] - q[0]) <= dx and abs(p[1] - q[1]) <= dy for q in b)
                           for p in a)


def _same_places(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]],
                 ax: Any) -> bool:
    """Whether the points ``a`` and ``b`` are as many and each at one of the other's
    (:func:`_all_at`)."""
    return len(a) == len(b) and _all_at(a, b, ax) and _all_at(b, a, ax)


def _points(markers: Sequence[Marker]) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """(column, label) -> the points of each source that draws points alone."""
    points: dict[tuple[str, str], list[tuple[float, float]]] = {}
    lines = {(m.column, m.label) for m in markers if m.shape != "point"}
    for m in markers:
        if m.shape == "point" and (m.column, m.label) not in lines \
                and m.time is not None and m.value is not None:
            points.setdefault((m.column, m.label), []).append((m.time, m.value))
    return points


def _one_per_place(markers: Sequence[Marker], ax: Any) -> list[Marker]:
    """``markers`` with the sources of one family and grade that draw points alone, the
    same places on ``ax`` (:func:`_same_places`), drawn once under one label naming them
    all (:func:`joined_labels`): sdnv105_rigid's linearised and nonlinear
    integrations, within 1.2e-4 J and 1e-6 s of each other at each collision, drew a
    hexagon and a star on one spot, each with its legend entry."""
    points = _points(markers)
    # a source's family and grades: an information source joined a graded one of another
    # family (sdnd100a's Code_Aster and analytic) would be said graded, in the other's shape
    kind: dict[tuple[str, str], tuple[str, set[bool | None]]] = {}
    for m in markers:
        kind.setdefault((m.column, m.label), (m.family, set()))[1].add(m.graded)
    groups: list[list[tuple[str, str]]] = []
    for key in sorted(points):
        group = next((g for g in groups if g[0][0] == key[0] and kind[g[0]] == kind[key]
                      and _same_places(points[g[0]], points[key], ax)), None)
        if group is None:
            groups.append([key])
        else:
            group.append(key)
    one = {key: group for group in groups if len(group) > 1 for key in group}
    out = []
    for m in markers:
        group = one.get((m.column, m.label))
        if group is None:
            out.append(m)
        elif group[0] == (m.column, m.label):
            out.append(replace(m, label=joined_labels([label for _, label in group])))
    return out


def joined_labels(labels: Sequence[str]) -> str:
    """Labels said once, their common head (up to a comma) once: ``analytic rigid,
    integrated, linearised`` and ``..., nonlinear`` -> ``analytic rigid, integrated,
    linearised and nonlinear``; ``LMGC90`` and ``recalage`` -> ``LMGC90 and recalage``."""
    parts = [label.split(", ") for label in labels]
    head = 0
    while all(len(p) > head + 1 for p in parts) and len({p[head] for p in parts}) == 1:
        head += 1
    tails = [", ".join(p[head:]) for p in parts]
    said = ", ".join(tails[:-1]) + " and " + tails[-1]
    return ", ".join([*parts[0][:head], said])


def _at_ours(markers: Sequence[Marker], ours: Any, ax: Any) -> tuple[str, str] | None:
    """(label, how the legend says it) of the source whose points are all at our points
    (the line ``ours``, on the time axis: :func:`_all_at`), None if none or no ``ours``: a
    rigid run's own level, checked against its stored values, draws its marks under our
    dots, and one legend entry names both instead of two. The words say how many of ours it
    is at when not all (``5 of them``: sdnv105_rigid's seven collisions by 0.33 s, five
    checked)."""
    if ours is None:
        return None
    lo, hi = ax.get_xlim()
    mine = [(float(t), float(v)) for t, v in zip(ours.get_xdata(), ours.get_ydata(),
                                                 strict=True) if lo <= t <= hi]
    for (_, label), points in sorted(_points(markers).items()):
        if _all_at(points, mine, ax):
            some = "" if len(points) >= len(mine) else f", {len(points)} of them"
            return label, f"{ours.get_label()}{some}\n= "
    return None


@dataclass(frozen=True)
class _Tag:
    """The text naming a short segment: its column, its window as text, its span (s), its
    level and colour."""

    text: str
    over: tuple[str, ...]
    start: float
    end: float
    value: float
    colour: Any


#: segments of one column closer than this fraction of the time axis share one tag: it is
#: about the width of a tag ("RN_O", 7 pt, on the 8 in figure)
TAG_REACH = 0.05


def _draw_tags(ax: Any, tags: Sequence[_Tag], lo: float, hi: float) -> None:
    """One tag per place a column's segments share, at the right end of the last, naming
    their windows when they are several: SDNV105 A's RN_O maxima over [0, 0.05] s (at
    t = 0) and Code_Aster's (0.01, 0.05) s (at 0.0125 s) drew two "RN_O" a few pixels apart,
    one over the other's segment. Black when one of them is graded."""
    reach = TAG_REACH * (hi - lo)
    places: list[list[_Tag]] = []
    for tag in sorted(tags, key=lambda g: (g.text, g.start)):
        last = places[-1] if places else None
        if last and last[0].text == tag.text and tag.start <= max(g.end for g in last) + reach:
            last.append(tag)
        else:
            places.append([tag])
    for place in places:
        anchor = max(place, key=lambda g: g.end)
        windows = list(dict.fromkeys(w for g in place for w in g.over))
        # a line per window, each naming the column: one line of both would run into the
        # next column's segment
        text = (anchor.text if len(windows) < 2
                else "\n".join(f"{anchor.text} {w}" for w in windows))
        colour = next((g.colour for g in place if g.colour == style.REFERENCE_COLOUR),
                      anchor.colour)
        ax.annotate(text, (anchor.end, anchor.value), xytext=(2, 0),
                    textcoords="offset points", va="center", fontsize=7, color=colour)


def _time_axis(ax: Any, t: np.ndarray) -> None:
    ax.set_xlabel("time (s)")
    if t[-1] > t[0]:  # a run that failed at its first step has one row
        ax.set_xlim(float(t[0]), float(t[-1]))


#: components drawn on a logarithmic axis: the time step, whose 1e-5 s impact windows
#: looked like zero beside 2.5e-3 s on a linear one
LOG_SCALE = frozenset({"DT"})

#: positive values of a log-axis column within this ratio of each other are one value
#: drawn flat (the uniform steps of D, the discrete and rigid kinds)
UNIFORM_SPAN = 1.5


def _history_figure(spec: HistoryFigure, data: Mapping[str, Any],
                    history: Mapping[str, np.ndarray], columns: list[str],
                    markers: Sequence[Marker], out_dir: Path) -> list[Path]:
    t = np.asarray(history["time"])
    fig, (ax,) = style.new_figure()
    channels = [Channel.parse(name, data.get("kind")) for name in columns]
    values = [np.asarray(history[name], dtype=float) for name in columns]
    # one column of a quantity of its own (history_DT): its legend entry would repeat the
    # axis label, the title names the column instead
    alone = spec.stem.startswith("history_") and len(columns) == 1
    title = f"{spec.title} ({columns[0]})" if alone else spec.title
    drawn: list[np.ndarray] = []
    looks: list[tuple[str, str]] = []
    for channel in sorted(channels, key=lambda c: c.is_resultant):  # resultants on top
        y = np.asarray(history[channel.name], dtype=float)
        overlaid = channel.is_resultant or any(_coincide(y, other) for other in drawn)
        look = style.curve_look(channel.where, channel.component, looks)
        looks.append((look["color"], look["linestyle"]))
        ax.plot(t, y, label="_alone" if alone else channel.label,
                **{**look, **(style.OVERLAID_LOOK if overlaid else {})})
        drawn.append(y)
    _time_axis(ax, t)
    finite = np.concatenate([v[np.isfinite(v)] for v in values]) if values else np.empty(0)
    # the first row's step is 0 (nothing taken yet): left out, not a reason for linear
    log = bool(set(spec.components) <= LOG_SCALE and np.any(finite > 0)
               and np.all(finite >= 0))
    if log:
        ax.set_yscale("log", nonpositive="mask")
        positive = finite[finite > 0]
        if positive.max() < UNIFORM_SPAN * positive.min():
            # uniform steps: autoscaled to their round-off (1e-16 s on 1e-4 s), a log axis
            # drew it as a wobble between ticks that all read 1e-4; a decade each side
            # draws them flat
            ax.set_ylim(positive.min() / 10.0, positive.max() * 10.0)
    elif not spec.unit and finite.size and np.all(finite == np.round(finite)):
        # counts (contacts, iterations): whole numbers on the axis, not 1.25 or 0.2
        from matplotlib.ticker import MaxNLocator

        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ours = None
    if spec.stem == "kinetic_energy":
        ours = _our_collisions(ax, data.get("collisions") or [])
        _rigid_collisions(ax, data.get("extra") or {}, float(t[-1]) if len(t) else 0.0)
    _shade_impacts(ax, data.get("impacts") or [])  # after the time axis: needs its limits
    mine = [m for m in markers if m.column in columns]
    keys = draw_markers(ax, _at_our_extrema(mine, history, *ax.get_xlim()),
                        style.MarkerStyles(), ours, one_per_place=True)
    _our_misses(ax, mine, history)
    if not log:
        _clip_spikes(ax, values, spec.unit)
    unit = spec.unit if log else style.display_unit(ax, spec.unit)
    ax.set(title=figure_title(data, title), ylabel=replace(spec, unit=unit).ylabel)
    _unclip_points(ax)
    style.place_legend(ax, under=keys)
    return style.save_figure(fig, out_dir, spec.stem)


def _unclip_points(ax: Any) -> None:
    """Let the single-point markers inside the axis limits overhang its frame: a reference
    at t = 0 (the preload's lift, the tilt at release) would be cut in half by the axis
    edge.
    Set the limits first: a point off them stays clipped."""
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    for line in ax.lines:
        x, y = np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)
        if len(x) == 1 and x0 <= x[0] <= x1 and y0 <= y[0] <= y1:
            line.set_clip_on(False)


def _coincide(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two curves of one plot would be drawn on the same pixels: apart by less
    than :data:`~rocking_contact.viz.style.OVERLAP` of their range everywhere."""
    both = np.concatenate([a, b])
    finite = both[np.isfinite(both)]
    span = float(np.ptp(finite)) if finite.size else 0.0
    if span == 0.0:
        return bool(np.array_equal(a, b, equal_nan=True))
    gap = np.abs(a - b)
    return bool(np.all(np.isnan(gap) | (gap <= style.OVERLAP * span)))


#: a curve whose peak exceeds this many times its 99th percentile is clipped on the plot
SPIKE_RATIO = 20.0


def _clip_spikes(ax: Any, curves: Sequence[np.ndarray], unit: str = "") -> None:
    """Keep the usual level of the curves readable when brief peaks dwarf it.

    Impacts put forces of 1e6 N into a few samples of reactions that otherwise carry 1e3 N:
    the y-axis then spans the 99th percentile of |y| (with a margin) and the text says how
    far off scale the peaks go, in ``unit``.
    """
    values = (np.concatenate([np.abs(c[np.isfinite(c)]) for c in curves]) if curves
              else np.empty(0))
    if len(values) == 0:
        return
    level, peak = float(np.percentile(values, 99.0)), float(values.max())
    if level <= 0.0 or peak <= SPIKE_RATIO * level:
        return
    lo, hi = ax.get_ylim()
    ax.set_ylim(max(lo, -1.4 * level), min(hi, 1.4 * level))
    ax.text(0.99, 0.97, f"brief peaks off scale (up to {peak:.3g}{' ' + unit if unit else ''})",
            transform=ax.transAxes, ha="right", va="top", fontsize=9, color="0.3",
            bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85})


def _our_collisions(ax: Any, collisions: Sequence[Mapping[str, Any]]) -> Any:
    """Our collisions' dots (instant s, kinetic energy J); returns their line, None if
    the run has none."""
    pts = [(c["time"], c["kinetic_energy"]) for c in collisions
           if c.get("time") is not None and c.get("kinetic_energy") is not None]
    if not pts:
        return None
    tt, ee = zip(*pts)
    # over the references' markers: a graded one is filled and hid the dot under it
    (line,) = ax.plot(tt, ee, linestyle="none", marker="o", markersize=4,
                      color=style.PALETTE[1], label="ours: collision (kinetic-energy maximum)",
                      zorder=2.6)
    return line


def _rigid_collisions(ax: Any, extra: Mapping[str, Any], end: float) -> None:
    """The rigid block's collisions the run was compared with (``collisions.rigid``,
    ``extra.rigid_comparison`` at :data:`~rocking_contact.post.collisions.RIGID_LEVEL`),
    or its first impact when the run found none, within the run's time axis."""
    from rocking_contact.post.collisions import RIGID_LEVEL

    rows = [row["levels"].get(RIGID_LEVEL) or {} for row in extra.get("rigid_comparison") or []]
    first = extra.get("rigid_first_impact")
    pts = [(r["time"], r["kinetic_energy"]) for r in [*rows, *([first] if first else [])]
           if r.get("time") is not None and r.get("kinetic_energy") is not None
           and r["time"] <= end]
    if pts:
        tt, ee = zip(*pts)
        ax.plot(tt, ee, linestyle="none", marker="s", markersize=6, markerfacecolor="none",
                color=style.PALETTE[2], label=f"rigid block ({RIGID_LEVEL}): collision")


def impact_spans(impacts: Sequence[Mapping[str, Any]], lo: float,
                 hi: float) -> list[tuple[float, float]]:
    """The (start, end) of our impacts (s) that the plots of a run over [lo, hi] s shade:
    none when contact is the rule rather than the event (a preloaded shock, SDND100)."""
    spans = [(float(i["start"]), float(i["end"])) for i in impacts
             if i.get("start") is not None and i.get("end") is not None]
    return [] if sum(e - s for s, e in spans) > 0.5 * (hi - lo) else spans


def _shade_impacts(ax: Any, impacts: Sequence[Mapping[str, Any]]) -> None:
    """Grey bands over our impacts (:func:`impact_spans`)."""
    for i, (start, end) in enumerate(impact_spans(impacts, *ax.get_xlim())):
        ax.axvspan(start, end, color="0.85", zorder=0,
                   label="impacts (ours, FN > 0)" if i == 0 else None)


#: longest line of a legend label beside the panels (characters)
LEGEND_BESIDE_CHARS = 24


def _energy_balance(data: Mapping[str, Any], history: Mapping[str, np.ndarray],
                    out_dir: Path) -> list[Path]:
    """Energy terms (top) and the balance residual (bottom), when the run records them.

    Each term has its own look in every run (:data:`.style.ENERGY_LOOKS`), a term equal to
    one drawn before it the overlaid look (EKIN and EKIN_BLOCK differ by 4e-8 J: the
    second hid the first); the terms' legend stands beside the panels, the residual panel
    says how large the residual grows against the largest total energy.
    """
    terms = [n for n in history if n != "time" and n != RESIDUAL and n.startswith("E")]
    has_residual = RESIDUAL in history
    if not has_residual and len(terms) < 2:
        return []  # the kinetic energy alone has its own plot
    t = np.asarray(history["time"])
    rows = [r for r, present in (("terms", bool(terms)), ("residual", has_residual)) if present]
    fig, axes = style.new_figure(len(rows), height=3.2 * len(rows) + 0.6)
    for ax, row in zip(axes, rows):
        if row == "terms":
            drawn: list[np.ndarray] = []
            looks: list[tuple[str, str]] = []
            for name in _drawn(history, terms):
                y = np.asarray(history[name], dtype=float)
                look = style.energy_look(name, looks)
                looks.append((look["color"], look["linestyle"]))
                overlaid = any(_coincide(y, other) for other in drawn)
                ax.plot(t, y, label=Channel.parse(name).label,
                        **{**look, **(style.OVERLAID_LOOK if overlaid else {})})
                drawn.append(y)
            ax.set_ylabel(f"energy ({style.display_unit(ax, 'J')})")
            # beside the panels, its labels wrapped: below the figure it sat under the
            # residual panel, far from the curves it names
            handles, labels = ax.get_legend_handles_labels()
            fig.legend(handles, [textwrap.fill(label, LEGEND_BESIDE_CHARS) for label in labels],
                       loc="outside right upper", fontsize=8)
        else:
            residual = np.asarray(history[RESIDUAL], dtype=float)
            ax.plot(t, residual, color="black")
            ax.axhline(0.0, color="0.5", linewidth=0.8)
            ax.set_ylabel(f"residual ({style.display_unit(ax, 'J')})")
            ax.set_title(_residual_note(history, residual), fontsize=9, loc="left")
    _time_axis(axes[-1], t)
    fig.suptitle(figure_title(data, "Energy balance"))
    return style.save_figure(fig, out_dir, "energy_balance")


def _residual_note(history: Mapping[str, np.ndarray], residual: np.ndarray) -> str:
    """``energy balance residual (ENERGY_RESIDUAL): largest residual -1.45 J, 20 % of the
    largest total energy 7.29 J`` (the share when the run records ETOT)."""
    finite = residual[np.isfinite(residual)]
    text = Channel.parse(RESIDUAL).label
    if not finite.size:
        return text
    worst = float(finite[np.argmax(np.abs(finite))])
    text += f": largest residual {style.with_unit(worst, 'J')}"
    total = np.asarray(history.get("ETOT", []), dtype=float)
    peak = float(np.nanmax(np.abs(total))) if total.size else 0.0
    if peak > 0.0:
        text += (f", {100.0 * abs(worst) / peak:.2g} % of the largest total energy "
                 f"{style.with_unit(peak, 'J')}")
    return text


def _impact_histogram(data: Mapping[str, Any], out_dir: Path) -> list[Path]:
    """Bars of the impact-maximum classes, one row per shock with impacts."""
    stats = (data.get("extra") or {}).get("impact_statistics") or {}
    shocks = {k: s for k, s in stats.items() if s.get("histogram") and s.get("count")}
    if not shocks:
        return []
    fig, axes = style.new_figure(len(shocks), height=3.0 * len(shocks) + 0.8, sharex=False)
    for ax, (name, s) in zip(axes, shocks.items()):
        classes = s["histogram"]
        lower = np.array([c["lower"] for c in classes])
        width = np.array([c["upper"] - c["lower"] for c in classes])
        counts = np.array([c["count"] for c in classes])
        ax.bar(lower, counts, width=width, align="edge", color=style.PALETTE[0],
               edgecolor="white",
               label=f"shock {name}: {s['count']} impact{'s' if s['count'] != 1 else ''}")
        for x, w, n, c in zip(lower, width, counts, classes):
            if n:
                ax.annotate(f"{n} ({c['probability']:.0%})", (x + w / 2, n), ha="center",
                            va="bottom", fontsize=9, xytext=(0, 2), textcoords="offset points")
        ax.set_ylim(0, counts.max() * 1.25)
        ax.yaxis.get_major_locator().set_params(integer=True)
        ax.set(xlabel="largest normal force of an impact (N)", ylabel="number of impacts")
        ax.set_xlim(0, lower[-1] + width[-1])
        text = (f"max {s['max_abs_force']:.6g} N\nmean {s['mean_max_force']:.6g} N\n"
                f"std {s['std_max_force']:.3g} N")
        ax.text(0.02, 0.95, text, transform=ax.transAxes, va="top", fontsize=9,
                bbox={"boxstyle": "round", "facecolor": "white", "edgecolor": "0.7"})
        ax.legend(loc="upper center")
    fig.suptitle(figure_title(data, "Histogram of impact forces"))
    return style.save_figure(fig, out_dir, "impact_histogram")


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


def plot_results(data: Run | Mapping[str, Any],
                 history: Mapping[str, np.ndarray] | str | os.PathLike[str] | None = None,
                 out_dir: str | os.PathLike[str] | None = None) -> list[Path]:
    """Draw every plot a run's results call for into ``out_dir``, as the run drew them
    (its collisions, the references it reached: :func:`plotted`); returns the files.
    ``plot_results(result, "plots/")`` with a :class:`~rocking_contact.results.RunResult`
    or a results directory (a run's own plots: :func:`rocking_contact.results_io.
    write_plots`), ``plot_results(data, history, "plots/")`` with the ``results.json``
    content.

    Args:
        data: the run (:data:`.runs.Run`): a RunResult, a results directory, or the
            ``results.json`` content (then with ``history``).
        history: the history columns (``time`` first, s); by default the run's. Given
            without ``out_dir``, a directory is ``out_dir``.
        out_dir: where the ``<stem>.png`` and ``<stem>.svg`` files go (made if missing).

    Raises:
        CaseError: no ``out_dir``, the content without its history, or not a run.

    """
    from rocking_contact.config import CaseError

    if out_dir is None and isinstance(history, str | os.PathLike):
        history, out_dir = None, history  # plot_results(run, out_dir)
    if out_dir is None or isinstance(history, str | os.PathLike):
        raise CaseError("plot_results", "out_dir", "missing; allowed: plot_results(run, "
                        "out_dir) or plot_results(data, history, out_dir)")
    if isinstance(data, Mapping):
        if history is None:
            raise CaseError("plot_results", "history", "missing for the results.json "
                            "content; allowed: its history columns, or a RunResult or "
                            "results directory")
        content, columns = data, history
    else:
        content, columns = as_pair(data, "data")
    return _plot(plotted(content), columns if history is None else history, Path(out_dir))


def _plot(data: Mapping[str, Any], history: Mapping[str, np.ndarray],
          out_dir: Path) -> list[Path]:
    """The plots of :func:`plot_results`, of content as the plots show it."""
    if "time" not in history or len(history["time"]) == 0:
        return []
    hidden = NOT_PLOTTED | NOT_PLOTTED_BY_KIND.get(str(data.get("kind")), frozenset())
    names = [n for n in history if n != "time" and Channel.parse(n).component not in hidden]
    markers = reference_markers(data, names)
    written: list[Path] = []
    covered: set[str] = {RESIDUAL}
    with style.figure_style():
        for spec in FIGURES:
            found = columns_of(names, spec.components)
            covered.update(found)
            if spec.stem == "kinetic_energy":
                ekin = kinetic_energy_column(names)
                found = [ekin] if ekin else []
            if found:
                written += _history_figure(spec, data, history, _drawn(history, found),
                                           markers, out_dir)
        written += _energy_balance(data, history, out_dir)
        covered.update(n for n in names if n.startswith("E"))
        written += _other_columns(data, history, names, covered, markers, out_dir)
        written += _impact_histogram(data, out_dir)
    return written


def _other_columns(data: Mapping[str, Any], history: Mapping[str, np.ndarray],
                   names: list[str], covered: set[str], markers: Sequence[Marker],
                   out_dir: Path) -> list[Path]:
    """One plot per component that no figure above shows."""
    written: list[Path] = []
    left = [n for n in names if n not in covered]
    for component in dict.fromkeys(Channel.parse(n).component for n in left):
        channel = Channel.parse(next(n for n in left if Channel.parse(n).component == component),
                                data.get("kind"))
        spec = HistoryFigure(f"history_{component}", sentence(channel.description),
                             channel.description, channel.unit, (component,))
        written += _history_figure(spec, data, history,
                                   _drawn(history, columns_of(left, (component,))),
                                   markers, out_dir)
    return written
