"""The FEM field series of a results directory (``fields.pvd``) at any instant.

A FEM run writes ``fields.pvd`` with :class:`dolfinx.io.VTKFile`: one dataset per output
time (several when the functions were written one by one; their arrays are merged here),
holding the displacement ``u`` (2 or 3 components, m) and stresses such as ``von_mises``
and ``sigma_yy`` (Pa, point or cell data). Between two output times the arrays are
interpolated linearly, so that a movie frame or ``--time`` needs no exact output instant
(as ParaView's temporal interpolator does); the viewer prints the instant it shows and,
between two output times, that its fields are a blend of them (:meth:`FieldSeries.between`).

A collection that cannot be read (not XML, a dataset file missing, truncated or not VTK,
a piece of a ``.pvtu`` missing) raises :class:`FieldsError`, one line naming the file,
when the dataset is read: VTK's own error output is caught, not printed.
"""

from __future__ import annotations

import contextlib
import logging
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from rocking_contact.viz.render import ViewError

#: arrays VTK adds for its own bookkeeping
_BOOKKEEPING = ("vtkOriginalPointIds", "vtkOriginalCellIds", "vtkGhostType")


#: first-order VTK Lagrange cells (as dolfinx writes them) -> (linear cell, its point count)
_LINEAR = {70: (9, 4), 69: (5, 3), 72: (12, 8), 71: (10, 4)}


def _linearise(grid: Any) -> Any:
    """First-order Lagrange cells as their linear twins (VTK draws the edges of a Lagrange
    cell on its triangulation, diagonals included; a linear cell shows its true edges)."""
    from rocking_contact.viz.pv import pyvista as pv

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


class FieldsError(ViewError):
    """A field series that cannot be read: one line naming the file and what is wrong."""


@contextlib.contextmanager
def _vtk_errors() -> Iterator[Any]:
    """Catch VTK's errors instead of printing them (they become one :class:`FieldsError`).

    VTK prints through its logger, and pyvista's readers also send them to Python's root
    logger: both are silenced for the read.
    """
    from rocking_contact.viz.pv import pyvista as pv

    before = logging.root.manager.disable
    logging.disable(logging.ERROR)
    try:
        with pv.vtk_verbosity("off"), pv.VtkErrorCatcher(send_to_logging=False) as caught:
            yield caught
    finally:
        logging.disable(before)


def _collection(pvd: Path) -> dict[float, list[Path]]:
    """Output time (s) -> its dataset files, from a ``.pvd`` collection, in time order."""
    try:
        root = ET.parse(pvd).getroot()
    except ET.ParseError as exc:
        raise FieldsError(f"{pvd}: not a VTK collection (bad XML: {exc})") from None
    except OSError as exc:
        raise FieldsError(f"{pvd}: cannot be read ({exc.strerror})") from None
    entries: dict[float, list[Path]] = {}
    for element in root.iter("DataSet"):
        try:  # no timestep: 0, as pyvista and ParaView read it
            t = float(element.get("timestep", "0"))
            entries.setdefault(t, []).append(pvd.parent / element.attrib["file"])
        except (KeyError, ValueError):
            raise FieldsError(f"{pvd}: a DataSet without a file or with a timestep that is "
                              "not a number") from None
    if not entries:
        raise FieldsError(f"{pvd}: no dataset in the collection")
    return dict(sorted(entries.items()))


def _try_read(path: Path) -> tuple[Any, str | None]:
    """The data of dataset file ``path`` and what is wrong with it (None: it read cleanly)."""
    from rocking_contact.viz.pv import pyvista as pv

    if not path.is_file():
        return None, f"{path}: missing"
    damaged = f"{path}: truncated or not a VTK file"
    try:
        with _vtk_errors() as caught:
            data = pv.get_reader(str(path)).read()
    except ValueError:  # pyvista reads no such suffix
        return None, f"{path}: not a VTK dataset file"
    except RuntimeError:  # pyvista raises the VTK errors of some readers
        return None, damaged
    if caught.error_events or data is None or _points(data) == 0:
        return None, _damaged_piece(path) or damaged
    return data, None


def _points(data: Any) -> int:
    """Number of points of a dataset or of all the blocks of a multiblock."""
    if hasattr(data, "n_blocks"):
        return sum(_points(b) for b in data if b is not None)
    return int(data.n_points)


def _damaged_piece(path: Path) -> str | None:
    """What is wrong with a piece of parallel file ``path`` (``.pvtu``: its pieces are
    files of their own), so that the message names the file to look at; else None."""
    if not path.suffix.startswith(".pvt"):
        return None
    try:
        pieces = [e.get("Source") for e in ET.parse(path).getroot().iter("Piece")]
    except ET.ParseError:
        return f"{path}: not VTK XML (truncated?)"
    problems = (_try_read(path.parent / piece)[1] for piece in pieces if piece)
    return next((p for p in problems if p), None)


def _unique_points(grid: Any) -> Any:
    """``grid`` with each mesh node once: the dataset of a run on several ranks.

    Each rank writes its piece with the nodes it shares with another piece (on the
    partition boundary, flagged as ghosts in all but one), so the pieces read back hold
    those nodes twice or more, and :meth:`FieldSeries.value_range`'s percentiles counted
    them so (a 2-rank sdnv105d: 28 points for 25 nodes). DOLFINx numbers the nodes of every
    piece by their index in the whole mesh (``vtkOriginalPointIds``): each is kept once, in
    the order of that index, and the cells renumbered. Coincident points are not merged:
    the block's base and the table's top are distinct nodes at the same place. A grid
    without the index, or whose index is 0, 1, ... already (one rank: the pictures and
    ranges of a serial run are those it always had), is returned as it is.
    """
    from rocking_contact.viz.pv import pyvista as pv

    if "vtkOriginalPointIds" not in grid.point_data.keys():
        return grid
    ids = np.asarray(grid.point_data["vtkOriginalPointIds"]).ravel()
    if np.array_equal(ids, np.arange(ids.size)):
        return grid
    # a node's copy on the rank that owns it first (the others are flagged as ghosts; their
    # values are the owner's, scattered)
    ghost = np.asarray(grid.point_data["vtkGhostType"]).ravel() \
        if "vtkGhostType" in grid.point_data.keys() else np.zeros(ids.size)
    order = np.lexsort((ghost, ids))
    unique, first = np.unique(ids[order], return_index=True)
    keep = order[first]
    cells = np.array(grid.cells, dtype=np.int64)
    nodes = np.ones(cells.size, dtype=bool)  # cells: each cell's node count, then its nodes
    nodes[np.asarray(grid.cell_offsets)[:-1] + np.arange(grid.n_cells)] = False
    cells[nodes] = np.searchsorted(unique, ids[cells[nodes]])
    out = pv.UnstructuredGrid(cells, np.asarray(grid.celltypes), np.asarray(grid.points)[keep])
    for name in grid.point_data.keys():
        out.point_data[name] = np.asarray(grid.point_data[name])[keep]
    out.cell_data.update(grid.cell_data)
    return out


def _merge(blocks: list[Any]) -> Any:
    """One dataset from the datasets written at one instant."""
    from rocking_contact.viz.pv import pyvista as pv

    blocks = [_linearise(_unique_points(b)) for b in blocks if b is not None and b.n_points]
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
    """The datasets of a ``.pvd`` collection, read on demand and kept once read.

    Raises:
        FieldsError: the collection cannot be read (here), or a dataset (when read).

    """

    def __init__(self, pvd: Path):
        self.path = Path(pvd)
        self._files = _collection(self.path)
        self.times = np.array(list(self._files), dtype=float)
        self._load = lru_cache(maxsize=None)(self._read)

    def _read(self, index: int) -> Any:
        t = float(self.times[index])
        blocks: list[Any] = []
        for path in self._files[t]:
            data, problem = _try_read(path)
            if problem:
                raise FieldsError(f"{problem} (the dataset of {self.path.name} at t = {t:g} s)")
            blocks += [data[i] for i in range(data.n_blocks)] if hasattr(data, "n_blocks") \
                else [data]
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

    def between(self, t: float) -> tuple[float, float] | None:
        """The two output times (s) that :meth:`at` blends at ``t``; None when ``t`` is an
        output time (to 1e-9 of the series' end, round-off of ``--time``) or outside the
        series (clamped to its first or last output)."""
        eps = 1e-9 * max(1.0, abs(float(self.times[-1])))
        i = int(np.searchsorted(self.times, t, side="right")) - 1
        if i < 0 or i >= self.times.size - 1 or np.any(np.abs(self.times - t) <= eps):
            return None
        return float(self.times[i]), float(self.times[i + 1])

    def array_names(self) -> list[str]:
        """Point and cell array names of the series (from its first dataset)."""
        ref = self.reference
        return list(ref.point_data.keys()) + list(ref.cell_data.keys())

    def value_range(self, name: str, percentile: float = 100.0,
                    where: np.ndarray | None = None) -> tuple[float, float]:
        """Range of array ``name`` over every output: its extremes, or with ``percentile``
        below 100 the (100 - p)-th and p-th percentiles, so that the brief peaks of impacts
        saturate instead of washing out the colours of the rest of the run; of its entries
        ``where`` (indices of the points or cells) alone if given (the block's, not the
        table's)."""
        def kept(i: int) -> np.ndarray:
            values = np.asarray(self.dataset(i).get_array(name), float)
            return (values if where is None else values[where]).ravel()

        values = np.concatenate([kept(i) for i in range(self.times.size)])
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
