"""The figures of a case in the report: its history plots and its pyvista views.

The plots are the run's own when they still show what the report would draw (copied, not
redrawn: drawing them takes seconds a run), else drawn again with
:func:`rocking_contact.post.plots.plot_results`, as the run draws them. What is missing is
said in one line: no history, no fields or a damaged field series (its
:class:`rocking_contact.viz.fields.FieldsError`, when the scene opens or a picture reads a
dataset), a view that failed to render.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from rocking_contact import results
from rocking_contact.config import CaseError
from rocking_contact.report.document import Figure, Paragraph
from rocking_contact.report.inputs import CaseResult
from rocking_contact.results_io import is_solver_diagnostic, ordered_plots, plot_rank
from rocking_contact.viz.channels import Channel

#: figure stem -> caption; what the references add to it when the figure draws some
CAPTIONS: dict[str, str] = {
    "kinetic_energy": "Kinetic energy against time.",
    "displacement": "Displacements against time.",
    "velocity": "Velocities against time.",
    "reactions": "Contact reactions against time: normal (RN, compression positive) and "
                 "tangential (RX, force of the block on the table along x) at the base "
                 "points, and their resultant over the base (_BASE, dashed).",
    "shock_force": "Shock forces against time.",
    "impulses": "Contact impulses of each step (N.s): normal PN and tangential PX, the "
                "theta-scheme's unknowns (forces are the impulses over the step).",
    "energy_balance": "Energy terms (top) and the energy-balance residual (bottom): what the "
                      "time scheme dissipates (< 0) or creates (> 0), above all the "
                      "alpha-modified or theta steps at the impacts (docs/contact.md, "
                      "'Energy balance').",
    "impact_histogram": "Histogram of the largest normal force of each impact.",
    "view": "The result as rocking-contact view draws it (displacements amplified).",
}
REFERENCES_CAPTION: dict[str, str] = {
    "kinetic_energy": " Markers: the collision references (instant and energy of the "
                      "kinetic-energy maximum before each impact), one shape per source, "
                      "black and filled where graded, grey and open for information; "
                      "shaded boxes: the pass bands of graded collisions; lines: other "
                      "references over their windows.",
    "shock_force": " Open markers: the references' instant and value of the largest force "
                   "of each impact.",
}
#: what our impacts add to the caption of a time history that shades them
IMPACTS_CAPTION = " Grey bands: our impacts (FN > 0)."
#: what our collisions add to the kinetic energy's caption, when the run has some
COLLISIONS_CAPTION = " Dots: our collisions (the kinetic-energy maximum before each impact)."
#: what the references add to the caption of any other figure that draws some
REFERENCES_DEFAULT = (" References: one style per source, black where graded, grey for "
                      "information; a maximum or minimum of one of several curves is a short "
                      "segment at ours (where its check measures it), named after its column, "
                      "and after its windows when several share a place.")
#: what our failing graded extrema add to the caption of a figure that marks some
MISSES_CAPTION = " Red cross: our extremum where its graded check fails."


def _referenced_components(data: Mapping[str, Any], history: Mapping[str, Any]
                           ) -> tuple[set[str], set[str]]:
    """The history components (``EKIN``, ``RN``, ``THETA``) whose plots draw a reference,
    as the run's plots select them (:func:`rocking_contact.post.plots.plotted`), and those
    whose plots mark our extremum of a failing graded check
    (:data:`rocking_contact.viz.history_plots.MISS_LABEL`)."""
    from rocking_contact.post.plots import plotted
    from rocking_contact.viz.markers import reference_markers

    markers = reference_markers(plotted(data), [n for n in history if n != "time"])
    return ({Channel.parse(m.column).component for m in markers},
            {Channel.parse(m.column).component for m in markers
             if m.op in ("max", "min") and m.passed is False})


def caption(stem: str, data: Mapping[str, Any], history: Mapping[str, Any],
            referenced: set[str], missed: frozenset[str] | set[str] = frozenset()) -> str:
    """What a plot of the run shows, its collisions, references and failing extrema
    mentioned only when it draws some (``referenced``, ``missed``:
    :func:`_referenced_components`); ``history_<C>`` plots are captioned from their
    column's description and unit."""
    from rocking_contact.post.collisions import interior
    from rocking_contact.viz.history_plots import FIGURES, impact_spans

    components = {c for f in FIGURES if f.stem == stem for c in f.components}
    text = CAPTIONS.get(stem)
    if text is None and stem.startswith("history_"):
        component = stem.removeprefix("history_")
        column = next((n for n in history if Channel.parse(n).component == component), stem)
        channel = Channel.parse(column, data.get("kind"))
        unit = f" ({channel.unit})" if channel.unit else ""
        text = f"{channel.description.capitalize()}{unit} against time."
        components = {component}
    if text is None:
        return stem
    if stem == "kinetic_energy" and interior(list(data.get("collisions") or [])):
        text += COLLISIONS_CAPTION
    t = history.get("time")
    if (components and t is not None and len(t)
            and impact_spans(data.get("impacts") or [], float(t[0]), float(t[-1]))):
        text += IMPACTS_CAPTION
    if components & referenced:
        text += REFERENCES_CAPTION.get(stem, REFERENCES_DEFAULT)
    if components & missed:
        text += MISSES_CAPTION
    return text


def _drawing_code_time() -> float:
    """Modification time (s since the epoch) of the newest module that draws or selects
    what a plot shows (:mod:`rocking_contact.viz`, :mod:`rocking_contact.post`)."""
    import rocking_contact.post
    import rocking_contact.viz

    files = [p for package in (rocking_contact.viz, rocking_contact.post) if package.__file__
             for p in Path(package.__file__).parent.glob("*.py")]
    return max((p.stat().st_mtime for p in files), default=float("inf"))


def run_plots(result: CaseResult) -> list[Path] | None:
    """The run's own plot files, when they show what the report would draw: all those
    its results.json lists (``plots``) are there, and none is older than its history
    or than the code that draws plots. None otherwise (a run with ``--no-plots``, plots
    drawn by an older version, a history written again). In the order a reader takes
    them (:func:`rocking_contact.results_io.ordered_plots`: a results.json written before
    2026-11-24 lists them by name)."""
    names = result.data.get("plots")
    if not names or not isinstance(names, list):
        return None
    names = ordered_plots(str(n) for n in names)
    files = [result.directory / str(n) for n in names]
    history = result.directory / results.HISTORY_FILE
    if any(f.name != str(n) or not f.is_file() for f, n in zip(files, names)) or \
            not history.is_file():
        return None
    oldest = min(f.stat().st_mtime for f in files)
    if oldest < max(history.stat().st_mtime, _drawing_code_time()):
        return None
    return files


def plot_files(result: CaseResult, out_dir: Path) -> list[Path]:
    """The case's plots in ``out_dir`` (PNG and SVG): the run's copied, else drawn."""
    from rocking_contact.post.plots import plot_results

    own = run_plots(result)
    if own is None:
        return sorted(plot_results(result.data, result.history, out_dir),
                      key=lambda p: plot_rank(p.name))
    out_dir.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copyfile(f, out_dir / f.name)) for f in own]


def view_instants(times: Any, data: Mapping[str, Any],
                  history: Mapping[str, Any] | None = None) -> dict[str, tuple[float, str]]:
    """What to picture: label -> (t in s, the caption's sentence saying when that is), at
    instants the result has fields for (``times``, s: a picture between two was blended
    from both).

    The start; then the first impact, else the end. The impact of the first collision (the
    kinetic-energy maximum the block reaches as it lands: the impact starts there) is shown
    at the first output instant after it at which the block is on the table again, a
    normal reaction of the ``history`` (``RN_*``, N) above 0 there
    (:func:`_landed`; SDNV105 A: 0.0575 s, RN_A 3569 N; at 0.055 s, the first output
    after the collision at 0.05441 s, the block was in the air, hopping after the impact,
    every reaction 0), else at the first output instant after it (no reactions recorded,
    or none above 0 before the last output). Without collisions, the largest force of the
    first impact (a discrete run). A window maximum that is no collision (a failed run's
    last instant) is not one.
    """
    from rocking_contact.post.collisions import interior

    t = np.asarray(times, dtype=float)
    instants = {"start": (float(t[0]), f"At the start of the run: t = {t[0]:.5g} s.")}
    slack = 1e-9 * max(1.0, abs(float(t[-1])))
    event = None
    first = next((c for c in interior(list(data.get("collisions") or []))
                  if c.get("time") is not None), None)
    if first is not None:
        after = t[t > float(first["time"]) + slack]
        landed = _landed(after, history or {}, slack)
        if landed is not None:
            event = (landed, f"Just after the first impact: t = {landed:.5g} s, the first "
                     "output instant after the first collision (the kinetic-energy maximum "
                     f"where the impact starts, t = {float(first['time']):.5g} s) with the "
                     "block on the table again (a normal reaction above 0).")
        elif after.size:
            event = (float(after[0]), f"Just after the first impact: t = {after[0]:.5g} s, "
                     "the first output instant after the first collision (the kinetic-energy "
                     f"maximum where the impact starts, t = {float(first['time']):.5g} s).")
    else:
        peak = next((float(i["t_max"]) for i in data.get("impacts") or []
                     if i.get("t_max") is not None), None)
        if peak is not None:
            event = (peak, f"At the first impact's largest force: t = {peak:.5g} s.")
    if event is not None and t[0] + slack < event[0] <= t[-1] + slack:
        instants["event"] = event
    elif t[-1] > t[0]:
        instants["end"] = (float(t[-1]), f"At the end of the run: t = {t[-1]:.5g} s.")
    return instants


def _landed(outputs: np.ndarray, history: Mapping[str, Any], slack: float) -> float | None:
    """The first of the ``outputs`` (s) at which a normal reaction of ``history``
    (``RN_*`` columns, N, compression positive) is above 0, read on the history's own
    sample there (within ``slack`` s: no blend of two steps); None without reactions, a
    sample or such an output."""
    columns = [np.asarray(history[n], dtype=float) for n in history
               if Channel.parse(n).component == "RN"]
    if not columns or "time" not in history:
        return None
    time = np.asarray(history["time"], dtype=float)
    for instant in outputs:
        row = int(np.argmin(np.abs(time - instant)))
        if abs(time[row] - instant) <= slack and any(c[row] > 0.0 for c in columns):
            return float(instant)
    return None


def view_figures(result: CaseResult, out_dir: Path) -> list[Figure | Paragraph]:
    """Pictures of the result (pyvista) at its start and at its first event (else its end),
    or a line saying why there are none."""
    from rocking_contact.viz import render

    try:
        scene = render.open_scene(result.directory)
    except (render.ViewError, CaseError) as exc:  # no fields file, an unreadable history
        return [Paragraph(f"No 3D view: {exc}.")]
    out_dir.mkdir(parents=True, exist_ok=True)
    out: list[Figure | Paragraph] = []
    for label, (t, when) in view_instants(scene.times, result.data, result.history).items():
        path = out_dir / f"view_{label}.png"
        try:  # one scene for every picture: opening it reads the whole field series
            render.screenshot(scene, path, time=t, window_size=(800, 800))
        except render.ViewError as exc:  # a FieldsError: a dataset read on demand is damaged
            return out + [Paragraph(f"No 3D view: {exc}.")]
        except Exception as exc:  # noqa: BLE001  (a machine without OpenGL still gets a report)
            return out + [Paragraph(f"No 3D view: rendering failed ({exc}).")]
        out.append(Figure(path, f"{CAPTIONS['view']} {when}"))
    return out


#: the line that opens the solver's diagnostics at the end of a case's figures
DIAGNOSTICS_HEADING = "Solver diagnostics"
DIAGNOSTICS_TEXT = (f"{DIAGNOSTICS_HEADING}: how the solver worked (time step, iterations, "
                    "contact counts, smallest gap), not what the block did.")


def is_diagnostic(block: Figure | Paragraph | Any) -> bool:
    """Whether ``block`` of :func:`figures` belongs to the solver's diagnostics: the
    paragraph :data:`DIAGNOSTICS_TEXT` that opens them or one of their plots
    (:func:`rocking_contact.results_io.is_solver_diagnostic`). They come last and together,
    so that a renderer may fold them away under :data:`DIAGNOSTICS_HEADING`."""
    if isinstance(block, Figure):
        return is_solver_diagnostic(block.path.stem)
    return isinstance(block, Paragraph) and block.text == DIAGNOSTICS_TEXT


def figures(result: CaseResult, out_dir: Path, *, views: bool) -> list[Figure | Paragraph]:
    """The case's plots (PNG; their SVG twins are written beside them) in the order a
    reader takes them (:func:`rocking_contact.results_io.ordered_plots`), its views, then
    the solver's diagnostics under :data:`DIAGNOSTICS_TEXT` (:func:`is_diagnostic`), or a
    line for each that is missing and why."""
    out: list[Figure | Paragraph] = []
    diagnostics: list[Figure | Paragraph] = []
    if result.history:
        referenced, missed = _referenced_components(result.data, result.history)
        for p in plot_files(result, out_dir):
            if p.suffix == ".png":
                figure = Figure(p, caption(p.stem, result.data, result.history, referenced,
                                           missed))
                (diagnostics if is_diagnostic(figure) else out).append(figure)
    else:
        out.append(Paragraph(f"No plots: {result.history_problem or 'no history'}."))
    if views:
        out += view_figures(result, out_dir)
    if diagnostics:
        out += [Paragraph(DIAGNOSTICS_TEXT), *diagnostics]
    return out
