"""The figures of a case in the report: its history plots and its pyvista views.

The plots are the run's own when they still show what the report would draw (copied, not
redrawn: drawing them takes seconds a run), else drawn again with
:func:`rocking_contact.viz.history_plots.plot_results`, as the run draws them, the cases' in
parallel processes (:func:`drawn_plots`: about a second of matplotlib a figure, and a
report of 18 runs redraws 160 of them once the drawing code is newer than their plots).
What is missing is
said in one line: no history, no fields or a damaged field series (its
:class:`rocking_contact.viz.fields.FieldsError`, when the scene opens or a picture reads a
dataset), a view that failed to render.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import shutil
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

import numpy as np

from rocking_contact import results_io
from rocking_contact.config import CaseError
from rocking_contact.report.document import Figure, Paragraph
from rocking_contact.report.inputs import CaseResult, read_result
from rocking_contact.viz.channels import Channel, sentence
from rocking_contact.viz.plot_order import is_solver_diagnostic, ordered_plots, plot_rank

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
    as the run's plots select them (:func:`rocking_contact.viz.history_plots.plotted`), and
    those whose plots mark our extremum of a failing graded check
    (:data:`rocking_contact.viz.marker_drawing.MISS_LABEL`)."""
    from rocking_contact.viz.history_plots import plotted
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
        text = f"{sentence(channel.description)}{unit} against time."
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
    them (:func:`rocking_contact.viz.plot_order.ordered_plots`: an older results.json
    lists them by name)."""
    names = result.data.get("plots")
    if not names or not isinstance(names, list):
        return None
    names = ordered_plots(str(n) for n in names)
    files = [result.directory / str(n) for n in names]
    history = result.directory / results_io.HISTORY_FILE
    if any(f.name != str(n) or not f.is_file() for f, n in zip(files, names)) or \
            not history.is_file():
        return None
    oldest = min(f.stat().st_mtime for f in files)
    if oldest < max(history.stat().st_mtime, _drawing_code_time()):
        return None
    return files


def plot_files(result: CaseResult, out_dir: Path) -> list[Path]:
    """The case's plots in ``out_dir`` (PNG and SVG): the run's copied, else drawn."""
    own = run_plots(result)
    if own is None:
        return _draw(result.data, result.history, out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copyfile(f, out_dir / f.name)) for f in own]


def _draw(data: Mapping[str, Any], history: Mapping[str, np.ndarray], out_dir: Path
          ) -> list[Path]:
    """The plots of a run drawn into ``out_dir``, in the order a reader takes them (in a
    worker of :func:`drawn_plots`, or in the report's process)."""
    from rocking_contact.viz.history_plots import plot_results

    return sorted(plot_results(data, history, out_dir), key=lambda p: plot_rank(p.name))


#: the most processes that draw plots at once: each holds matplotlib and its cases'
#: histories (about 100 MB), and a report has seldom more than a few dozen cases to draw
MAX_WORKERS = 8


def _cpus() -> int:
    """The CPUs this process may run on (its affinity: a batch job's share, not the
    machine's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _worker(tasks: Sequence[tuple[str, Path, Path]], sender: Connection) -> None:
    """For each task (case key, results directory, folder of its plots) in turn, read the
    run and draw its plots; send ``(key, files, None)`` back, or ``(key, None, error)``
    for the first that fails (:func:`_sendable`), and stop there."""
    for key, directory, out_dir in tasks:
        try:
            result = read_result(directory)
            drawn = _draw(result.data, result.history, out_dir)
        except Exception as exc:  # noqa: BLE001  (raised again by the report: _received)
            sender.send((key, None, _sendable(exc)))
            return
        sender.send((key, drawn, None))


def _sendable(exc: Exception) -> Exception | tuple[str, ...]:
    """A worker's error as it can cross to the report: itself if it comes back whole from
    pickle, a :class:`CaseError` as its parts (it does not: its one argument is the whole
    line), another as its type and text."""
    if isinstance(exc, CaseError):
        return ("CaseError", exc.file, exc.key, exc.problem)
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001  (any error of pickle's or of the class's)
        return ("error", f"{type(exc).__name__}: {exc}")
    return exc


def _received(error: Exception | tuple[str, ...]) -> Exception:
    """The error a worker sent (:func:`_sendable`), to raise: a CaseError as the report's
    process would have raised it (one line, exit code 2); an error that could not cross as
    a RuntimeError with its type and text."""
    if isinstance(error, Exception):
        return error
    if error[0] == "CaseError":
        return CaseError(error[1], error[2], error[3])
    return RuntimeError(f"drawing the plots: {error[1]}")


def _shares(cases: Sequence[CaseResult], count: int) -> list[list[CaseResult]]:
    """``cases`` dealt to ``count`` workers, those of most history columns first, each to
    the worker with the fewest columns so far, so that they end together; each worker's
    in the report's order, which asks for them in turn. Columns, not values: the figures
    follow the columns, and a figure's text and layout cost more than its points (18
    runs to 0.02 s, dealt by their numbers of values, kept two workers busy for 18 and
    26 s)."""
    order = {id(r): k for k, r in enumerate(cases)}
    shares: list[list[CaseResult]] = [[] for _ in range(count)]
    load = [0] * count
    for r in sorted(cases, key=lambda r: -len(r.history)):
        least = load.index(min(load))
        shares[least].append(r)
        load[least] += len(r.history)
    return [sorted(share, key=lambda r: order[id(r)]) for share in shares if share]


@contextmanager
def drawn_plots(cases: Sequence[CaseResult], figures_dir: Path, workers: int | None = None
                ) -> Iterator[Callable[[CaseResult], list[Path]]]:
    """Within the block, a function giving a case's plots in ``figures_dir / case.key``
    as :func:`plot_files` does (the run's copied, else drawn), the cases to draw being
    drawn from the start by up to ``workers`` processes (default: one per CPU this process
    may use, at most :data:`MAX_WORKERS`): the same files, byte for byte, as drawn one case
    after another in this process, which is what one worker, one CPU or one case to draw
    does. An error of a worker is raised as the function gives that case's plots. The
    block leaving, whichever way (Ctrl-C, SIGTERM, an error), stops the workers.

    The workers are started afresh ("spawn": this process may hold MPI and OpenBLAS
    threads, which a fork copies badly), each importing the main module again: a script
    that writes a report calls it under ``if __name__ == "__main__":``. Each is given its
    cases' results directories and reads them again (given their histories, a worker's
    start would wait until it has read them). They start with Ctrl-C ignored and keep it so
    (a terminal sends it to the whole process group, where each worker would print the
    traceback of its ``KeyboardInterrupt``): the report stops them; a Ctrl-C in the
    milliseconds of their start is lost. Once started they are sent nothing and only send
    their plots back: this process writes to no pipe a killed worker may have closed
    (PETSc, which the report starts, takes a SIGPIPE for a crash and aborts)."""
    redrawn = [r for r in cases if r.history and run_plots(r) is None]
    count = min(_cpus() if workers is None else workers, MAX_WORKERS, len(redrawn))
    if count < 2:
        yield lambda r: plot_files(r, figures_dir / r.key)
        return
    context = multiprocessing.get_context("spawn")
    started: list[tuple[BaseProcess, Connection]] = []
    owner: dict[str, Connection] = {}
    drawn: dict[str, list[Path]] = {}

    def plots(result: CaseResult) -> list[Path]:
        receiver = owner.get(result.key)
        if receiver is None:
            return plot_files(result, figures_dir / result.key)
        while result.key not in drawn:
            try:
                key, files, error = receiver.recv()
            except EOFError:  # killed, or out of memory
                process = next(p for p, c in started if c is receiver)
                process.join()
                raise RuntimeError(f"the process drawing the plots of {result.label} ended "
                                   f"with exit code {process.exitcode}") from None
            if error is not None:
                raise _received(error)
            drawn[key] = files
        return drawn[result.key]

    # a worker started with Ctrl-C ignored keeps it ignored (Python leaves it so), from
    # its first instruction on; a handler set from C (None) could not be put back
    handler = signal.getsignal(signal.SIGINT)
    ignored = threading.current_thread() is threading.main_thread() and handler is not None
    if ignored:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        try:
            for share in _shares(redrawn, count):
                receiver, sender = context.Pipe(duplex=False)
                worker = context.Process(target=_worker, daemon=True, args=(
                    [(r.key, r.directory, figures_dir / r.key) for r in share], sender))
                worker.start()
                sender.close()  # the worker's end: a worker gone is an EOFError here
                started.append((worker, receiver))
                owner.update((r.key, receiver) for r in share)
        finally:
            if ignored and handler is not None:
                signal.signal(signal.SIGINT, handler)
        yield plots
    except BaseException:
        for process, _ in started:
            process.kill()
        raise
    finally:
        for process, receiver in started:
            process.join()
            receiver.close()


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
    after the collision at 0.05441 s, the block is in the air, hopping after the impact,
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
    (:func:`rocking_contact.viz.plot_order.is_solver_diagnostic`). They come last and
    together, so that a renderer may fold them away under :data:`DIAGNOSTICS_HEADING`."""
    if isinstance(block, Figure):
        return is_solver_diagnostic(block.path.stem)
    return isinstance(block, Paragraph) and block.text == DIAGNOSTICS_TEXT


def figures(result: CaseResult, out_dir: Path, *, views: bool,
            plots: Sequence[Path] | None = None) -> list[Figure | Paragraph]:
    """The case's plots (PNG; their SVG twins are written beside them) in the order a
    reader takes them (:func:`rocking_contact.viz.plot_order.ordered_plots`), its views,
    then the solver's diagnostics under :data:`DIAGNOSTICS_TEXT` (:func:`is_diagnostic`), or
    a line for each that is missing and why. ``plots``: the plot files already in
    ``out_dir`` (:func:`drawn_plots`); by default :func:`plot_files` puts them there."""
    out: list[Figure | Paragraph] = []
    diagnostics: list[Figure | Paragraph] = []
    if result.history:
        referenced, missed = _referenced_components(result.data, result.history)
        for p in plot_files(result, out_dir) if plots is None else plots:
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
