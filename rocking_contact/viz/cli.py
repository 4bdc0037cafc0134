"""``rocking-contact view RESULT_DIR``: look at a result in pyvista.

Without ``--screenshot`` or ``--movie`` a window opens with a time slider (a display is
needed); with them, rendering is offscreen and works on a headless machine. pyvista is
imported only when the command runs.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from pathlib import Path

from rocking_contact.options import file_argument, number_argument, path_argument

#: the image files pyvista writes (its ``SUPPORTED_FORMATS``; exact, lower case)
SCREENSHOT_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")
#: a movie's frames per second and frames when --fps and --frames are not given
MOVIE_FPS = 20
MOVIE_FRAMES = 100
#: what a negative number looks like, scientific notation included: argparse's own matcher
#: takes ``-1e5`` for an option and ``--clim -1e5 1e5`` would lack an argument
NEGATIVE_NUMBER = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^-inf(inity)?$",
                             re.IGNORECASE)
#: what the numeric options take, said by their refusals: a value that is no number (at
#: parsing) and one out of range (checked in :func:`main`, or by the run's span for --time)
SCALE = "a finite number > 0, the factor the displacements are drawn at"
TIME = "a number of s, an instant from the run's start to its end"
CLIM = "two finite numbers LO < HI, stresses in Pa"
FPS = "an integer > 0, the movie's frames per second"
FRAMES = "an integer >= 2, the movie's frames"
WINDOW_SIZE = "two integers >= 16, the width and height in pixels"
#: the smallest --window-size side, in pixels
MIN_SIDE = 16


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``view`` subcommand's options."""
    parser._negative_number_matcher = NEGATIVE_NUMBER  # no option of view looks like one
    parser.add_argument("result", type=path_argument,
                        help="results directory (or a case name: results/<case>/)")
    parser.add_argument("--field", default="auto",
                        help="FEM stress to colour by: von_mises, sigma_yy, none "
                             "(default: von_mises if present, else sigma_yy)")
    parser.add_argument("--scale", type=number_argument(float, SCALE), default=None,
                        metavar="FACTOR",
                        help="displacement amplification (default: automatic, shown on the view)")
    parser.add_argument("--screenshot", type=file_argument, metavar="FILE.png",
                        help="write an image offscreen instead of opening a window (PNG; "
                             "JPEG, BMP or TIFF by the file's suffix); a name without a "
                             "suffix gets .png, any other suffix is refused")
    parser.add_argument("--time", type=number_argument(float, TIME), default=None, metavar="T",
                        help="instant of the screenshot in s (default: the first); between "
                             "two field outputs their blend, said on the picture")
    parser.add_argument("--movie", type=file_argument, metavar="FILE.gif|FILE.mp4",
                        help="write a movie offscreen instead of opening a window")
    parser.add_argument("--clim", type=number_argument(float, CLIM), nargs=2, default=None,
                        metavar=("LO", "HI"),
                        help="colour range of the stress in Pa, for a view coloured by one "
                             "(default: its 1st to 99th percentile over the run on the block, "
                             "the table left out, widened to round ticks; brief impact peaks "
                             "saturate)")
    # None: not given, which a screenshot needs (a movie option given to it is refused)
    parser.add_argument("--fps", type=number_argument(int, FPS), default=None,
                        help=f"movie frames per second (default {MOVIE_FPS})")
    parser.add_argument("--frames", type=number_argument(int, FRAMES), default=None,
                        help=f"movie frames, evenly spaced over the run (default {MOVIE_FRAMES})")
    parser.add_argument("--window-size", type=number_argument(int, WINDOW_SIZE), nargs=2,
                        default=None, metavar=("W", "H"),
                        help="image size in pixels (default 900 900)")


def _clim(values: list[float] | None) -> tuple[float, float] | None:
    """The --clim pair, checked."""
    from rocking_contact.viz import render

    if values is None:
        return None
    lo, hi = values
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise render.ViewError(f"--clim {lo:g} {hi:g}: allowed: {CLIM}")
    if not hi > lo:
        raise render.ViewError(f"--clim: {hi:g} is not above {lo:g} (allowed: {CLIM})")
    return lo, hi


def _writable(option: str, path: Path) -> Path:
    """``path`` opened for writing now, its directory made first, so that a file the
    system refuses (under /sys, a read-only file; the directory's access bits do not tell
    for root) is one error before the rendering rather than after it. A file made by the
    probe is removed."""
    from rocking_contact.out_paths import check_dir
    from rocking_contact.viz import render

    check_dir(option, path.parent)
    existed = path.exists()
    try:
        with path.open("ab"):
            pass
    except OSError as exc:
        raise render.ViewError(f"{option} {path}: cannot be written ({exc.strerror}; allowed: "
                               "a file this user may create or overwrite: not under /proc, "
                               "/sys or a read-only mount)") from None
    if not existed:
        path.unlink()
    return path


def _result_dir(arg: Path) -> Path:
    """A results directory, or ``results/<name>`` when given a bare case name.

    An existing file is taken as given (unless results/<name> holds results), so that the
    error names it rather than a results/<name> the user never mentioned.

    Raises:
        ViewError: a bare name with no results/<name>: how to run it if it names a case,
            else the case names close to it (a path typed with a slash is refused by
            :func:`~rocking_contact.viz.render.open_scene` as a missing directory).

    """
    from rocking_contact.config.loading import run_first_hint
    from rocking_contact.results_io import RESULTS_FILE
    from rocking_contact.viz import render

    if arg.is_dir() or len(arg.parts) > 1:
        return arg
    named = Path("results") / arg
    if arg.exists() and not (named / RESULTS_FILE).is_file():
        return arg
    if not named.exists():
        raise render.ViewError(f"{named}: no results {run_first_hint(arg.name)}")
    return named


def main(args: argparse.Namespace) -> int:
    """Run ``view``; returns the exit code (2 on bad input)."""
    from rocking_contact.out_paths import check_file
    from rocking_contact.viz import render

    window = tuple(args.window_size) if args.window_size else render.WINDOW
    try:
        # an amplification: nan or inf would draw nothing (or fail deep in VTK)
        if args.scale is not None and not (math.isfinite(args.scale) and args.scale > 0):
            raise render.ViewError(f"--scale {args.scale:g}: must be > 0 (allowed: {SCALE})")
        for option, given in (("--fps", args.fps), ("--frames", args.frames)):
            if given is not None and args.movie is None:
                raise render.ViewError(f"{option} goes with --movie")
        fps = MOVIE_FPS if args.fps is None else args.fps
        frames = MOVIE_FRAMES if args.frames is None else args.frames
        if fps <= 0:
            raise render.ViewError(f"--fps {fps}: must be > 0 (allowed: {FPS})")
        if min(window) < MIN_SIDE:
            raise render.ViewError(f"--window-size {window[0]} {window[1]}: at least "
                                   f"{MIN_SIDE} x {MIN_SIDE} pixels (allowed: {WINDOW_SIZE})")
        if args.time is not None and args.screenshot is None:
            raise render.ViewError("--time goes with --screenshot")
        # the outputs' names and sizes checked before the results are read, their
        # directories made after (_writable): results refused leave no directory behind
        screenshot = movie = None
        if args.screenshot is not None:
            screenshot = check_file(
                "--screenshot", args.screenshot, f"an image ({', '.join(SCREENSHOT_SUFFIXES)})",
                SCREENSHOT_SUFFIXES, create=False)
        if args.movie is not None:
            movie = check_file("--movie", args.movie, "a .gif or .mp4", create=False)
            render.check_movie(movie, frames, window)
        options = render.ViewOptions(field=args.field, scale=args.scale, clim=_clim(args.clim))
        scene = render.open_scene(_result_dir(args.result), options)
        screenshot = None if screenshot is None else _writable("--screenshot", screenshot)
        movie = None if movie is None else _writable("--movie", movie)
        if screenshot is None and movie is None:
            if sys.platform.startswith("linux") and not os.environ.get("DISPLAY") \
                    and not os.environ.get("WAYLAND_DISPLAY"):
                raise render.ViewError("no display: use --screenshot FILE.png or --movie "
                                       "FILE.gif or FILE.mp4")
            render.interactive(scene, window)
            return 0
        if screenshot is not None:
            render.screenshot(scene, screenshot, time=args.time, window_size=window)
            print(f"wrote {screenshot}")
        if movie is not None:
            if screenshot is not None:  # a fresh scene: the screenshot's plotter is closed
                scene = render.open_scene(_result_dir(args.result), options)
            n = render.movie(scene, movie, frames=frames, fps=fps,
                             window_size=window)
            print(f"wrote {movie} ({n} frames)")
    except (render.ViewError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
