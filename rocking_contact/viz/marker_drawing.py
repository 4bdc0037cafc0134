"""Reference markers drawn onto a plot's axis, each source named once in its legend.

:mod:`.markers` says where a run's references go (:class:`~.markers.Marker`); this module
draws them on a matplotlib axis whose limits are set, on a run's own figures
(:func:`draw_run_references`, for :mod:`.history_plots`) and on the comparison of runs
(:func:`draw_markers`, for :mod:`.comparison`):

- points, horizontal segments over their windows (those of one source at one level joined
  over their union), vertical lines and pass-band boxes (:func:`_draw_box`), under our
  curves;
- one legend entry per source, by a key that shows all it draws (its marker, its line
  style, or both) and says whether its checks are graded; sources drawn at the same places
  said once under one label (:func:`joined_labels`), a source all at our collisions named
  with ours;
- on a run's figure of several columns, its max/min references moved to short segments at
  our extrema (:data:`EXTREMUM_SEGMENT`), tagged with their column and window
  (:func:`window_text`), and our extrema whose graded checks fail marked
  (:data:`MISS_LABEL`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from rocking_contact.viz import style
from rocking_contact.viz.markers import Marker


def draw_run_references(ax: Any, markers: Sequence[Marker],
                        history: Mapping[str, np.ndarray], ours: Any = None
                        ) -> dict[str, list[Any]]:
    """A run's references on its own figure, whose axis limits are set: the max/min ones
    moved to our extrema when they are on two columns or more (:func:`_at_our_extrema`),
    drawn one source per place and legend entry (:func:`draw_markers`), then our extrema
    whose graded checks fail marked (:func:`_our_misses`). ``markers`` are those of the
    figure's columns, ``history`` the run's columns (``time`` first, s), ``ours`` the line
    of our collisions when the figure draws them.

    Returns:
        The legend label -> the keys drawn under its own (for :func:`.style.place_legend`).

    """
    keys = draw_markers(ax, _at_our_extrema(markers, history, *ax.get_xlim()),
                        style.MarkerStyles(), ours, one_per_place=True)
    _our_misses(ax, markers, history)
    return keys


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


def _on_time_axis(marker: Marker, lo: float, hi: float) -> bool:
    """Whether ``marker`` shows within the time axis [lo, hi] (s): a reference past a
    shortened run's end would otherwise be in the legend and nowhere else."""
    slack = 1e-9 * abs(hi - lo)  # a reference on the last instant stays, round-off aside
    if marker.shape in ("hline", "box"):
        start, end = marker.window if marker.window else (lo, hi)
        return start <= hi + slack and end >= lo - slack
    return marker.time is not None and lo - slack <= marker.time <= hi + slack


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


def _union(spans: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The union of the intervals ``spans`` as disjoint intervals, in order."""
    out: list[tuple[float, float]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


#: points of two sources closer than this fraction of both axes' spans are one place on
#: the figure (about a pixel of its axes, some 900 by 400)
SAME_PLACE = 2e-3


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


def _points(markers: Sequence[Marker]) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """(column, label) -> the points of each source that draws points alone."""
    points: dict[tuple[str, str], list[tuple[float, float]]] = {}
    lines = {(m.column, m.label) for m in markers if m.shape != "point"}
    for m in markers:
        if m.shape == "point" and (m.column, m.label) not in lines \
                and m.time is not None and m.value is not None:
            points.setdefault((m.column, m.label), []).append((m.time, m.value))
    return points


def _same_places(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]],
                 ax: Any) -> bool:
    """Whether the points ``a`` and ``b`` are as many and each at one of the other's
    (:func:`_all_at`)."""
    return len(a) == len(b) and _all_at(a, b, ax) and _all_at(b, a, ax)


def _all_at(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]],
            ax: Any) -> bool:
    """Whether every point of ``a`` ((time s, value)) is within :data:`SAME_PLACE` of
    both axes' spans of a point of ``b`` (none of ``a``: False)."""
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    dx, dy = SAME_PLACE * abs(x1 - x0), SAME_PLACE * abs(y1 - y0)
    return bool(a) and all(any(abs(p[0] - q[0]) <= dx and abs(p[1] - q[1]) <= dy for q in b)
                           for p in a)


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


#: longest legend label of a reference source
_LABEL_CHARS = 60


def _short(text: str) -> str:
    return text if len(text) <= _LABEL_CHARS else text[: _LABEL_CHARS - 1] + "…"


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


#: length of a max/min reference's segment at our extremum, as a fraction of the time axis
EXTREMUM_SEGMENT = 0.06


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


#: legend label of our extremum whose check fails
MISS_LABEL = "ours: graded extremum that fails"


def _our_misses(ax: Any, markers: Sequence[Marker], history: Mapping[str, np.ndarray]
                ) -> None:
    """Mark our extrema whose graded checks fail (:data:`.style.MISS_LOOK`), over the axis
    frame if need be (:func:`.history_plots._unclip_points`, once the limits are set: a
    point off them, a spike past :func:`.history_plots._clip_spikes`' limits, stays
    clipped): SDNV105 A's largest RN_O
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
