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

References are drawn (:mod:`rocking_contact.viz.marker_drawing`) as
:mod:`rocking_contact.viz.markers` places them. What the plots show of a run's content
is decided once, for the run and the report (:func:`plotted`): our collisions and the
references the run reached, as the checks say.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from rocking_contact.viz import style
from rocking_contact.viz.changes import ending, run_name
from rocking_contact.viz.channels import Channel, columns_of, kinetic_energy_column, sentence
from rocking_contact.viz.marker_drawing import draw_run_references
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
    keys = draw_run_references(ax, [m for m in markers if m.column in columns], history, ours)
    if not log:
        _clip_spikes(ax, values, spec.unit)
    unit = spec.unit if log else style.display_unit(ax, spec.unit)
    ax.set(title=figure_title(data, title), ylabel=replace(spec, unit=unit).ylabel)
    _unclip_points(ax)
    style.place_legend(ax, under=keys)
    return style.save_figure(fig, out_dir, spec.stem)


#: a column whose largest magnitude is below this fraction of the figure's largest is
#: round-off (SDNV105 A's RX_O1 peaks at 2.7e-15 N beside kilonewton reactions): no curve
FLAT = 1e-9


def _drawn(history: Mapping[str, np.ndarray], names: list[str]) -> list[str]:
    """Columns worth a curve: those flat at the figure's scale (all zero, or :data:`FLAT`
    of its largest value at most) are dropped unless nothing else is left."""
    peaks = {n: float(np.nanmax(np.abs(history[n]), initial=0.0)) for n in names}
    largest = max(peaks.values(), default=0.0)
    return [n for n in names if peaks[n] > FLAT * largest] or names[:1]


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


def _time_axis(ax: Any, t: np.ndarray) -> None:
    ax.set_xlabel("time (s)")
    if t[-1] > t[0]:  # a run that failed at its first step has one row
        ax.set_xlim(float(t[0]), float(t[-1]))


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


def _shade_impacts(ax: Any, impacts: Sequence[Mapping[str, Any]]) -> None:
    """Grey bands over our impacts (:func:`impact_spans`)."""
    for i, (start, end) in enumerate(impact_spans(impacts, *ax.get_xlim())):
        ax.axvspan(start, end, color="0.85", zorder=0,
                   label="impacts (ours, FN > 0)" if i == 0 else None)


def impact_spans(impacts: Sequence[Mapping[str, Any]], lo: float,
                 hi: float) -> list[tuple[float, float]]:
    """The (start, end) of our impacts (s) that the plots of a run over [lo, hi] s shade:
    none when contact is the rule rather than the event (a preloaded shock, SDND100)."""
    spans = [(float(i["start"]), float(i["end"])) for i in impacts
             if i.get("start") is not None and i.get("end") is not None]
    return [] if sum(e - s for s, e in spans) > 0.5 * (hi - lo) else spans


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


#: longest line of a figure title (characters): what the 1040 px width holds at 12 pt
#: with a margin (a line of 89 characters of dotted keys is cut at the right edge)
TITLE_CHARS = 72


def figure_title(data: Mapping[str, Any], what: str) -> str:
    """``<run>: <what>``, the run named by its case and what it changes from the file
    (:func:`.changes.run_name`) and, if it did not complete, how it ended
    (:func:`.changes.ending`), wrapped to the figure's width."""
    return textwrap.fill(f"{run_name(data)}: {what}{ending(data)}", TITLE_CHARS)


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
