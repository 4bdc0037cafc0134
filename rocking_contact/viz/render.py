"""Open a result as a scene and render it: screenshot, GIF/MP4 movie, interactive window.

Which scene a result gets follows from what it holds: FEM fields (``extra["fields"]``)
give the block coloured by a stress; block corner lifts (``DY_O`` and ``DY_A``) without
fields give a rigid block; a discrete model (``parameters.model.node``) gives masses and
springs. Offscreen rendering needs no display (VTK falls back on EGL or OSMesa).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rocking_contact import interrupt, results_io
from rocking_contact.viz.scene import Scene

#: default window size (pixels) of screenshots and movies
WINDOW = (900, 900)
#: camera zoom of the interactive window (< 1 leaves room for the time slider)
SLIDER_ZOOM = 0.78
#: the stresses tried, in order, when none is asked for
DEFAULT_FIELDS = ("von_mises", "sigma_yy")


class ViewError(ValueError):
    """A result that cannot be viewed as asked (one line for the user)."""


@dataclass(frozen=True)
class ViewOptions:
    """How to draw a result.

    Attributes:
        field: stress to colour the block by; ``"auto"`` picks von Mises, then sigma_yy;
            ``"none"`` draws a plain block.
        scale: displacement amplification (None: automatic).
        clim: colour range of the stress (Pa), drawn as given; None: the block's 1st to 99th
            percentile over the run, widened to round ticks.

    """

    field: str = "auto"
    scale: float | None = None
    clim: tuple[float, float] | None = None


def _pick_field(names: list[str], options: ViewOptions) -> str | None:
    """The stress to colour by among the result's ``names`` (none for a result without
    fields); an unknown one is refused with the allowed names, and so is a colour range
    (``--clim``) for a view coloured by nothing, as any option that does not apply."""
    asked = options.field
    if asked != "auto" and asked != "none" and asked not in names:
        where = "not in the results" if names else "the result has no stress fields"
        raise ViewError(f"--field {asked}: {where} (allowed: {', '.join([*names, 'none'])})")
    field = (None if asked == "none" else asked if asked != "auto" else
             next((f for f in DEFAULT_FIELDS if f in names), None))
    if field is None and options.clim is not None:
        why = "--field none" if asked == "none" else "the result has no stress fields"
        raise ViewError(f"--clim goes with a stress to colour by ({why}; allowed: leave "
                        "--clim out)")
    return field


def _not_a_run(directory: Path) -> str:
    """What a directory without ``results.json`` is, as ``report`` says it: a run killed
    before it wrote its results (``history.csv`` alone), a folder of runs (a sweep's
    ``--out``, ``results/``: one of them to view), or neither."""
    from rocking_contact.commands.compare import results_dirs
    from rocking_contact.config import CaseError

    if (directory / results_io.HISTORY_FILE).is_file():
        return (f" beside {results_io.HISTORY_FILE}: the run was killed before it wrote its "
                "results")
    try:
        runs, _ = results_dirs([directory])
    except CaseError:  # no results.json in its folders either
        return " (not a results directory)"
    return (f" (a folder of {len(runs)} results directories: view one of them, such as "
            f"{runs[0]})")


def open_scene(result_dir: Path, options: ViewOptions = ViewOptions()) -> Scene:
    """The scene that fits the results in ``result_dir``.

    Raises:
        ViewError: no results there, or nothing this viewer can draw.

    """
    from rocking_contact.config.loading import run_first_hint, shipped_cases, variant_cases
    from rocking_contact.viz.block_scene import BlockScene, FieldMotion, RigidMotion
    from rocking_contact.viz.discrete_scene import DiscreteScene
    from rocking_contact.viz.fields import FieldSeries

    result_dir = Path(result_dir)
    if result_dir.exists() and not result_dir.is_dir():
        raise ViewError(f"{result_dir}: not a directory (allowed: a results directory, or a "
                        "case name for results/<case>/)")
    if not result_dir.exists():
        # a case's results not run yet: say how to, as the report does; any other path
        # (results/nothing too) is a directory that is not there, not a case name
        if result_dir.parent == Path("results") and result_dir.name in {
                **variant_cases(), **shipped_cases()}:
            raise ViewError(f"{result_dir}: no results {run_first_hint(result_dir.name)}")
        raise ViewError(f"{result_dir}: no such directory ({results_io.RESULTS_DIRECTORY}, "
                        "or a case name whose results/<case>/ holds one; `rocking-contact "
                        f"run CASE --out {result_dir}` writes one there)")
    if not (result_dir / results_io.RESULTS_FILE).is_file():
        raise ViewError(f"{result_dir}: no {results_io.RESULTS_FILE}{_not_a_run(result_dir)}")
    data, history = results_io.load(result_dir)
    fields = (data.get("extra") or {}).get("fields")
    if fields:
        path = result_dir / fields
        if not path.is_file():
            raise ViewError(f"{path}: missing (results.json names it in extra.fields)")
        series = FieldSeries(path)  # a FieldsError (a ViewError) if it cannot be read
        names = [n for n in series.array_names() if n not in ("u", "reaction")]
        return BlockScene(data, history, FieldMotion(series),
                          field=_pick_field(names, options), scale=options.scale,
                          times=series.times, clim=options.clim)
    if "DY_O" in history and "DY_A" in history:
        geometry = (data.get("parameters") or {}).get("geometry") or {}
        motion = RigidMotion(history, float(geometry.get("half_width", 0.18)),
                             float(geometry.get("half_height", 0.40)))
        return BlockScene(data, history, motion, field=_pick_field([], options),
                          scale=options.scale)
    if ((data.get("parameters") or {}).get("model") or {}).get("node") and "time" in history:
        _pick_field([], options)  # no stress to colour a discrete model by
        return DiscreteScene(data, history, scale=options.scale)
    status = str(data.get("status", "completed"))
    if not len(history.get("time", ())) and status != "completed":
        # a run that failed in its static preload wrote results.json and nothing else
        raise ViewError(f"{result_dir}: nothing to draw: the run stopped before its first "
                        f"time step ({status})")
    raise ViewError(f"{result_dir}: nothing to draw (no fields, no block corners, no nodes)")


def check_time(scene: Scene, t: float) -> float:
    """``t`` (s) if the run covers it, else a :class:`ViewError` naming the range: ``--time
    -1: outside the run (allowed: a time in [0, 0.06] s, from its start to its end)``."""
    eps = 1e-9 * max(1.0, abs(scene.t_end))
    if not (np.isfinite(t) and scene.t_start - eps <= t <= scene.t_end + eps):
        raise ViewError(f"--time {t:g}: outside the run (allowed: a time in [{scene.t_start:g}, "
                        f"{scene.t_end:g}] s, from its start to its end)")
    return min(max(t, scene.t_start), scene.t_end)


@contextlib.contextmanager
def offscreen_plotter(window_size: tuple[int, int] = WINDOW) -> Iterator[Any]:
    """An offscreen pyvista plotter, closed on exit.

    VTK first tries an X display and warns when there is none before it falls back on
    EGL/OSMesa; the warning is noise on a headless machine, so it is silenced here.
    """
    from rocking_contact.viz.pv import pyvista as pv

    # a signal inside the plotter's creation, which calls back into Python from VTK, would
    # leave VTK half set up and crash the process (SIGSEGV): it is taken once the plotter
    # stands
    with pv.vtk_verbosity("error"):
        with interrupt.signals_held_for_python():
            plotter = pv.Plotter(off_screen=True, window_size=list(window_size))
        try:
            yield plotter
        finally:
            plotter.close()


def screenshot(scene: Scene, path: Path, *, time: float | None = None,
               window_size: tuple[int, int] = WINDOW) -> np.ndarray:
    """Render the scene at ``time`` (default: its first instant) into an image file (a
    PNG as the 2D figures are written, :func:`.style.write_png`: in 256 colours when they
    keep it visibly the same); returns the image as rendered (RGB)."""
    from rocking_contact.viz.style import write_png

    t = scene.t_start if time is None else check_time(scene, time)
    with offscreen_plotter(window_size) as plotter:
        scene.add_to(plotter)
        scene.update(t)
        png = path.suffix.lower() == ".png"
        image: np.ndarray = plotter.screenshot(None if png else str(path), return_img=True)
    if png:
        write_png(image, path)
    return image


def frame_times(scene: Scene, frames: int) -> np.ndarray:
    """``frames`` evenly spaced instants over the run, first and last included."""
    return np.linspace(scene.t_start, scene.t_end, frames)


def _open_movie(plotter: Any, path: Path, fps: int) -> None:
    """Start the GIF or MP4 writer of ``path`` on ``plotter``.

    H.264 in yuv420p needs even dimensions; imageio would also scale any size that is not
    a multiple of its 16-pixel macro block (with a warning), so the block is 2: the movie
    has the asked size and libx264 pads its macro blocks itself.
    """
    if path.suffix.lower() == ".gif":
        plotter.open_gif(str(path), fps=fps)
    else:
        plotter.open_movie(str(path), framerate=fps, quality=7, macro_block_size=2)


def _close_movie(plotter: Any, path: Path) -> None:
    """Finish the movie file; a failure is a :class:`ViewError` (pyvista's ``close``
    would swallow it, and imageio retry it noisily at exit)."""
    writer, plotter.mwriter = plotter.mwriter, None
    try:
        writer.close()
    except (OSError, RuntimeError) as exc:
        # no second attempt (and traceback) at exit from the __del__ of imageio's GIF
        # writer and of its plugin; its ffmpeg writer marks itself closed first
        with contextlib.suppress(AttributeError):
            writer.closed = True
            writer.instance.close = lambda: None
        raise ViewError(f"{path}: cannot be written ({_first_line(exc)})") from None


def _first_line(exc: BaseException) -> str:
    """An exception's message, first line only (imageio-ffmpeg appends ffmpeg's output)."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def check_movie(path: Path, frames: int, window_size: tuple[int, int]) -> None:
    """Refuse, before anything is rendered, a movie :func:`movie` cannot write.

    Raises:
        ViewError: another suffix than .gif or .mp4 (any case), fewer than 2 frames, or an
            MP4 of odd width or height (H.264 in yuv420p needs even ones).

    """
    from rocking_contact.viz.cli import FRAMES  # what the option takes, as --frames says it

    suffix = path.suffix.lower()
    if suffix not in (".gif", ".mp4"):
        raise ViewError(f"{path}: a movie is a .gif or an .mp4 (allowed: FILE.gif or "
                        "FILE.mp4, any case)")
    if frames < 2:
        raise ViewError(f"--frames {frames}: a movie needs at least 2 frames (allowed: "
                        f"{FRAMES})")
    if suffix == ".mp4" and any(n % 2 for n in window_size):
        raise ViewError(f"--window-size {window_size[0]} {window_size[1]}: an .mp4 needs "
                        "an even width and height (allowed: even sizes, or a .gif)")


def movie(scene: Scene, path: Path, *, frames: int = 100, fps: int = 20,
          window_size: tuple[int, int] = WINDOW) -> int:
    """Write a GIF or MP4 (by the file's suffix) of ``frames`` instants; returns the count.

    Raises:
        ViewError: what :func:`check_movie` refuses, or a file that cannot be written.

    """
    check_movie(path, frames, window_size)
    with offscreen_plotter(window_size) as plotter:
        scene.add_to(plotter)
        try:
            _open_movie(plotter, path, fps)
            for t in frame_times(scene, frames):
                scene.update(float(t))
                plotter.write_frame()
        except OSError as exc:  # ffmpeg gone (disk full, refused path): its pipe broke
            raise ViewError(f"{path}: cannot be written ({_first_line(exc)})") from None
        _close_movie(plotter, path)
    return frames


def interactive_plotter(scene: Scene, window_size: tuple[int, int] = WINDOW, *,
                        off_screen: bool = False) -> Any:
    """A plotter showing the scene with a time slider under the title."""
    from rocking_contact.viz.pv import pyvista as pv

    with interrupt.signals_held_for_python():  # as in offscreen_plotter
        plotter = pv.Plotter(window_size=list(window_size), off_screen=off_screen)
    scene.add_to(plotter)
    plotter.camera.zoom(SLIDER_ZOOM)  # room for the slider above the scene
    # pyvista's decorator types the bound method as still taking the plotter first
    plotter.add_slider_widget(scene.update,  # type: ignore[arg-type]
                              [scene.t_start, scene.t_end], value=scene.t_start,
                              title="time (s)", fmt="%.4f", pointa=(0.3, 0.9),
                              pointb=(0.7, 0.9), interaction_event="always",
                              color="black", title_color="black", title_height=0.02)
    return plotter


def interactive(scene: Scene, window_size: tuple[int, int] = WINDOW) -> None:
    """Show the scene in a window with a time slider (needs a display)."""
    interactive_plotter(scene, window_size).show()
