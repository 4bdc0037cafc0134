"""Rigid-block kinematics for drawing: the block's mesh, and its tilt from the corner lifts.

Sign convention of the tilt ``phi``: ``phi > 0`` rotates the block counter-clockwise about
its bottom-left corner O = (0, 0) (corner A lifts), ``phi < 0`` clockwise about its
bottom-right corner A = (2b, 0) (corner O lifts).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def block_mesh(half_width: float, half_height: float, nx: int = 6, ny: int = 12) -> Any:
    """The block [0, 2b] x [0, 2l] as linear quadrilaterals (a pyvista UnstructuredGrid)."""
    from rocking_contact.viz.pv import pyvista as pv

    x = np.linspace(0, 2 * half_width, nx + 1)
    y = np.linspace(0, 2 * half_height, ny + 1)
    xx, yy = np.meshgrid(x, y, indexing="xy")
    points = np.column_stack([xx.ravel(), yy.ravel(), np.zeros(xx.size)])
    first = (np.arange(ny)[:, None] * (nx + 1) + np.arange(nx)[None, :]).ravel()
    cells = np.column_stack([first, first + 1, first + nx + 2, first + nx + 1])
    return pv.UnstructuredGrid({pv.CellType.QUAD: cells}, points)


def rigid_displacement(points: np.ndarray, phi: float, half_width: float) -> np.ndarray:
    """Displacement (n x 3) of reference ``points`` (n x 3) tilted by ``phi`` about its pivot."""
    pivot = np.array([0.0, 0.0]) if phi >= 0 else np.array([2 * half_width, 0.0])
    c, s = math.cos(phi), math.sin(phi)
    rotated = pivot + (points[:, :2] - pivot) @ np.array([[c, s], [-s, c]])
    u = np.zeros((points.shape[0], 3))
    u[:, :2] = rotated - points[:, :2]
    return u


def tilt_from_lifts(dy_o: float, dy_a: float, half_width: float) -> float:
    """The tilt ``phi`` (rad) of a rigid block whose corners O and A rose by ``dy_o``, ``dy_a``."""
    ratio = (dy_a - dy_o) / (2 * half_width)
    return math.asin(max(-1.0, min(1.0, ratio)))
