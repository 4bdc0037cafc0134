"""The FEM field series of a results directory (``fields.pvd``) at any instant.

A FEM run writes ``fields.pvd`` with :class:`dolfinx.io.VTKFile`: one dataset per output
time (several when the functions were written one by one; their arrays are merged here),
holding the displacement ``u`` (2 or 3 components, m) and stresses such as ``von_mises``
and ``sigma_yy`` (Pa, point or cell data). Between two output times the arrays are
interpolated linearly, so that a movie frame or ``--time`` needs no exact output instant
(as ParaView's temporal interpolator does); the viewer prints the instant it shows.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

#: arrays VTK adds for its own bookkeeping
_BOOKKEEPING = ("vtkOriginalPointIds", "vtkOriginalCellIds", "vtkGhostType")


#: first-order VTK Lagrange cells (as dolfinx writes them) -> (linear cell, its point count)
_LINEAR = {70: (9, 4), 69: (5, 3), 72: (12, 8), 71: (10, 4)}


def _linearise(grid: Any) -> Any:
    """First-order Lagrange cells as their linear twins (VTK draws the edges of a Lagrange
    cell on its triangulation, diagonals included; a linear cell shows its true edges)."""
    import pyvista as pv

    types = np.unique(grid.celltypes)
    if types.size != 1 or int(types[0]) not in _LINEAR:
        return grid
    linear, n = _LINEAR[int(types[0])]
    cells = grid.cells.reshape(-1, n + 1) if grid.cells.size % (n + 1) == 0 else None
    if cells is None or not np.all(cells[:, 0] == n):
        return grid  # higher order: keep the Lagrange cells
    out = pv.UnstructuredGrid({pv.CellType(linear): cells[:, 1:]}, grid.points)
    out.point_data.update(grid.point_data)
    out.cell_data.update(grid.cell_data)
    return out


def _merge(blocks: list[Any]) -> Any:
    """One dataset from the datasets written at one instant."""
    import pyvista as pv

    blocks = [_linearise(b) for b in blocks if b is not None and b.n_points]
    base = blocks[0]
    same_mesh = all(b.n_points == base.n_points and b.n_cells == base.n_cells for b in blocks)
    if not same_mesh:
        return pv.MultiBlock(blocks).combine(merge_points=False)
    merged = base.copy()
    for other in blocks[1:]:
        for name in other.point_data.keys():
            merged.point_data[name] = other.point_data[name]
        for name in other.cell_data.keys():
            merged.cell_data[name] = other.cell_data[name]
    for name in _BOOKKEEPING:
        merged.point_data.pop(name, None)
        merged.cell_data.pop(name, None)
    return merged


class FieldSeries:
    """The datasets of a ``.pvd`` collection, read on demand and kept once read."""

    def __init__(self, pvd: Path):
        import pyvista as pv

        self.path = Path(pvd)
        self._reader = pv.get_reader(str(self.path))
        self.times = np.asarray(self._reader.time_values, dtype=float)
        if self.times.size == 0:
            raise ValueError(f"{self.path}: no dataset in the collection")
        self._load = lru_cache(maxsize=None)(self._read)

    def _read(self, index: int) -> Any:
        self._reader.set_active_time_value(float(self.times[index]))
        data = self._reader.read()
        blocks = [data[i] for i in range(data.n_blocks)] if hasattr(data, "n_blocks") else [data]
        return _merge(blocks)

    def dataset(self, index: int) -> Any:
        """The dataset of output ``index`` (shared: copy it before changing it)."""
        return self._load(index)

    @property
    def reference(self) -> Any:
        """The first dataset: the mesh in its reference configuration."""
        return self.dataset(0)

    def at(self, t: float) -> Any:
        """A dataset at instant ``t``, linearly interpolated between output times.

        Instants outside the series are clamped to its first or last output.
        """
        i = int(np.searchsorted(self.times, t, side="right")) - 1
        if i < 0:
            return self.dataset(0).copy()
        if i >= self.times.size - 1:
            return self.dataset(self.times.size - 1).copy()
        t0, t1 = self.times[i], self.times[i + 1]
        w = 0.0 if t1 == t0 else (t - t0) / (t1 - t0)
        a, b = self.dataset(i), self.dataset(i + 1)
        out = a.copy()
        if w == 0.0:
            return out
        for data_out, data_a, data_b in ((out.point_data, a.point_data, b.point_data),
                                          (out.cell_data, a.cell_data, b.cell_data)):
            for name in data_a.keys():
                if name in data_b.keys() and data_a[name].shape == data_b[name].shape \
                        and np.issubdtype(data_a[name].dtype, np.floating):
                    data_out[name] = (1 - w) * data_a[name] + w * data_b[name]
        return out

    def array_names(self) -> list[str]:
        """Point and cell array names of the series (from its first dataset)."""
        ref = self.reference
        return list(ref.point_data.keys()) + list(ref.cell_data.keys())

    def value_range(self, name: str, percentile: float = 100.0) -> tuple[float, float]:
        """Range of array ``name`` over every output: its extremes, or with ``percentile``
        below 100 the (100 - p)-th and p-th percentiles, so that the brief peaks of impacts
        saturate instead of washing out the colours of the rest of the run."""
        values = np.concatenate([np.asarray(self.dataset(i).get_array(name), float).ravel()
                                 for i in range(self.times.size)])
        return (float(np.percentile(values, 100.0 - percentile)),
                float(np.percentile(values, percentile)))


def displacement_3d(u: np.ndarray) -> np.ndarray:
    """A displacement array as n x 3 (2D runs may write 2 components)."""
    u = np.asarray(u, dtype=float)
    if u.ndim == 1:
        u = u[:, None]
    if u.shape[1] >= 3:
        return u[:, :3]
    return np.hstack([u, np.zeros((u.shape[0], 3 - u.shape[1]))])
