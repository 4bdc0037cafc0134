"""What every pyvista scene of a result shares: the time range, labels, arrows, camera.

A scene is built once on a plotter (:meth:`Scene.add_to`) and then moved to any instant
(:meth:`Scene.update`); screenshots, movies and the interactive time slider all go
through these two methods (:mod:`rocking_contact.viz.render`). The title sits in the upper
left corner, the instant and the values shown (forces) in the lower left one, the
displacement amplification in the lower right one.
"""

from __future__ import annotations

import math
import textwrap
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

import numpy as np

from rocking_contact.viz.changes import changed_keys, ending, run_name

#: font sizes (points) of the scene's texts at the default picture size, and the title's
#: line length (characters)
TITLE_FONT, TEXT_FONT, LABEL_FONT, TITLE_WIDTH = 12, 10, 16, 64
#: the picture size (pixels, its smaller side) the font sizes are for: `view`'s default;
#: they scale with the picture (at fixed sizes a 400 px title runs off its right edge and
#: the scale's text over the forces')
FONT_REFERENCE_PX = 900


def nice_factor(target: float) -> float:
    """The largest of 1, 2, 5 x 10^k not above ``target`` (at least 1)."""
    if not math.isfinite(target) or target <= 1.0:
        return 1.0
    exponent = math.floor(math.log10(target))
    for mantissa in (5.0, 2.0, 1.0):
        factor: float = mantissa * 10**exponent
        if factor <= target:
            return factor
    return 10.0**exponent


def nice_ticks(lo: float, hi: float, most: int = 7) -> np.ndarray:
    """Round values from ``lo`` or below to ``hi`` or above: the multiples of the smallest
    1, 2, 5 x 10^k step that needs ``most`` of them at the most (0, 10, ..., 60 for 0.619
    to 51.8; -60, -40, ..., 60 for -52 to 52). ``[lo, hi]`` as it is if it is empty or not
    finite."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo or most < 2:
        return np.array([lo, hi], dtype=float)
    exponent = math.floor(math.log10((hi - lo) / (most - 1)))
    for step in (m * 10.0**k for k in range(exponent, exponent + 3) for m in (1, 2, 5)):
        # 1e-9: a limit that is a multiple of the step to round-off stays one
        first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
        if last - first + 1 <= most:
            return np.arange(first, last + 1) * step
    return np.array([lo, hi], dtype=float)  # not reached for most >= 2


def arrows(tails: np.ndarray, vectors: np.ndarray) -> Any:
    """Arrow glyphs from ``tails`` along ``vectors`` (n x 3, already scaled to length)."""
    from rocking_contact.viz.pv import pyvista as pv

    cloud = pv.PolyData(np.asarray(tails, dtype=float))
    cloud.point_data["vector"] = np.asarray(vectors, dtype=float)
    cloud.point_data["length"] = np.linalg.norm(vectors, axis=1)
    arrow = pv.Arrow(tip_length=0.3, tip_radius=0.12, shaft_radius=0.045)
    return cloud.glyph(orient="vector", scale="length", factor=1.0, geom=arrow)


class Scene(ABC):
    """A result drawn in pyvista, movable to any instant of its run.

    Args:
        data: the ``results.json`` content.
        history: the history columns (may be empty for a fields-only result).

    """

    def __init__(self, data: Mapping[str, Any], history: Mapping[str, np.ndarray]):
        self.data = data
        self.history = history
        self.plotter: Any = None

    @property
    def times(self) -> np.ndarray:
        """Instants the result has data for (s)."""
        return np.asarray(self.history["time"], dtype=float)

    @property
    def t_start(self) -> float:
        """First instant (s)."""
        return float(self.times[0])

    @property
    def t_end(self) -> float:
        """Last instant (s)."""
        return float(self.times[-1])

    def value(self, column: str, t: float) -> float:
        """History column ``column`` at ``t`` (linear interpolation; 0 if absent)."""
        if column not in self.history:
            return 0.0
        return float(np.interp(t, self.history["time"], self.history[column]))

    def peak(self, columns: list[str]) -> float:
        """Largest absolute value of some history columns over the run (0 if none)."""
        present = [np.abs(self.history[c]).max() for c in columns if c in self.history]
        return float(max(present, default=0.0))

    @property
    def title(self) -> str:
        """Case name and title; for a run that changes its file's physics, the case name
        and those changes instead (the file's title describes another block or load:
        "under a 2 Hz sine" over a run driven by a record); then how the run ended, if it
        did not complete."""
        info = (self.data.get("parameters") or {}).get("case") or {}
        title = info.get("title", "")
        if changed_keys(self.data):
            title = run_name(self.data)
        elif title:
            title = f"{self.data['case']}: {title}"
        else:
            title = str(self.data["case"])
        return title + ending(self.data)

    def font(self, size: int) -> int:
        """A font size (points) of the default picture, scaled to this plotter's; 8 at
        the least (VTK drew nothing at 5)."""
        side = min(self.plotter.window_size) if self.plotter is not None else FONT_REFERENCE_PX
        return max(8, round(size * side / FONT_REFERENCE_PX))

    def add_to(self, plotter: Any) -> None:
        """Build the scene's actors on ``plotter`` at the first instant."""
        self.plotter = plotter
        plotter.set_background("white")
        plotter.add_text(textwrap.fill(self.title, TITLE_WIDTH), position="upper_left",
                         font_size=self.font(TITLE_FONT), color="black", name="title")
        self.build()
        view, up = self.camera_axes()
        plotter.view_vector(view, viewup=up)
        plotter.enable_parallel_projection()
        plotter.reset_camera(bounds=self.bounds())
        self.update(self.t_start)

    def update(self, t: float) -> None:
        """Move every actor to instant ``t`` (s) and print what it shows, lower left."""
        lines = self.move(t)
        self.plotter.add_text("\n".join([f"t = {t:.5f} s", *lines]), position="lower_left",
                              font_size=self.font(TEXT_FONT), color="black", name="info",
                              font="courier")

    @abstractmethod
    def build(self) -> None:
        """Add the actors (``self.plotter`` is set)."""

    @abstractmethod
    def move(self, t: float) -> list[str]:
        """Move the actors to instant ``t`` (s); returns lines of values to print."""

    def camera_axes(self) -> tuple[np.ndarray, np.ndarray]:
        """Direction the camera looks from and the screen's up direction (default: the x-y
        plane, y up)."""
        return np.array([0.0, 0.0, 1.0]), np.array([0.0, 1.0, 0.0])

    @abstractmethod
    def bounds(self) -> tuple[float, float, float, float, float, float]:
        """Region the camera shows: (xmin, xmax, ymin, ymax, zmin, zmax) in drawing units."""
