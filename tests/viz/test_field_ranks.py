"""A field series written by several ranks reads back as the serial one: each mesh node
once, so that the stress colour range of ``view`` and of the report's pictures does not
depend on the number of ranks.

Each rank writes its piece of the ``.pvtu`` with the nodes it shares with another piece;
read back whole, a 2-rank sdnv105d series had 28 points a frame instead of 25, and the
99th percentile of von Mises over the run was 39.2 kPa instead of 43.8 kPa (M1, to 0.06 s).
"""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import pyvista as pv

import rocking_contact as rc
from rocking_contact.results_io import collection_xml
from rocking_contact.viz.fields import FieldSeries

MPIEXEC = Path(sys.executable).parent / "mpiexec"
#: one thread a rank, and a waiting rank yields its core (as tests/test_mpi_tools.py)
MPI_ENV = dict(os.environ, OMP_NUM_THREADS="1", MPIR_CVAR_POLLS_BEFORE_YIELD="1")
#: the arrays of a piece, as DOLFINx lists them in its .pvtu
ARRAYS = (("vtkOriginalPointIds", "Int64", 1), ("vtkGhostType", "UInt8", 1), ("u", "Float64", 3),
          ("von_mises", "Float64", 1), ("sigma_yy", "Float64", 1))


def _pvtu(pieces):
    arrays = "".join(f'<PDataArray type="{kind}" Name="{name}" NumberOfComponents="{n}"/>'
                     for name, kind, n in ARRAYS)
    sources = "".join(f'<Piece Source="{piece}"/>' for piece in pieces)
    return ('<?xml version="1.0"?><VTKFile type="PUnstructuredGrid" version="1.0">'
            f'<PUnstructuredGrid GhostLevel="1"><PPointData>{arrays}</PPointData>'
            '<PPoints><PDataArray type="Float64" NumberOfComponents="3"/></PPoints>'
            f'{sources}</PUnstructuredGrid></VTKFile>')


def in_pieces(series, directory, ranks=2):
    """``series`` written as ``ranks`` ranks would: per instant a .pvtu of pieces that
    share the nodes of their boundaries, numbered by their index in the whole mesh (on
    one rank: 0, 1, ... in the file's order); a piece flags the copies of nodes an earlier
    one has as ghosts. Returns the new collection."""
    directory.mkdir()
    entries = []
    for i, t in enumerate(series.times):
        whole = series.dataset(i)
        owned = set()
        names = []
        for k, cells in enumerate(np.array_split(np.arange(whole.n_cells), ranks)):
            piece = whole.extract_cells(cells)
            ids = np.asarray(piece.point_data["vtkOriginalPointIds"])
            piece.point_data["vtkGhostType"] = np.isin(ids, list(owned)).astype(np.uint8)
            owned.update(ids.tolist())
            piece.cell_data.clear()
            names.append(f"fields_p{k}_{i:06d}.vtu")
            piece.save(directory / names[-1])
        (directory / f"fields{i:06d}.pvtu").write_text(_pvtu(names))
        entries.append((float(t), f"fields{i:06d}.pvtu"))
    (directory / "fields.pvd").write_text(collection_xml(entries))
    return FieldSeries(directory / "fields.pvd")


def test_pieces_sharing_nodes_read_back_as_the_whole_mesh(block_dir, tmp_path):
    whole = FieldSeries(block_dir / "fields.pvd")
    split = in_pieces(whole, tmp_path / "two")
    raw = pv.get_reader(str(tmp_path / "two" / "fields000003.pvtu")).read()
    assert raw.n_points > whole.reference.n_points  # the shared nodes, twice
    for i in (0, 3, whole.times.size - 1):
        a, b = whole.dataset(i), split.dataset(i)
        assert (b.n_points, b.n_cells) == (a.n_points, a.n_cells)
        # the same nodes: match them by position (the sample has no coincident nodes)
        order_a, order_b = (np.lexsort(d.points.T[::-1]) for d in (a, b))
        assert np.array_equal(a.points[order_a], b.points[order_b])
        for name in ("u", "von_mises", "sigma_yy"):
            assert np.array_equal(a.point_data[name][order_a], b.point_data[name][order_b])
        assert "vtkOriginalPointIds" not in b.point_data.keys()
        # the cells join the same nodes
        assert np.allclose(np.sort(a.cell_centers().points, axis=0),
                           np.sort(b.cell_centers().points, axis=0), rtol=0, atol=1e-15)
    for name in ("von_mises", "sigma_yy"):
        for percentile in (99.0, 100.0):
            assert split.value_range(name, percentile) == whole.value_range(name, percentile)


def test_a_serial_series_is_read_as_written(block_dir, tmp_path):
    """A series whose nodes are numbered 0, 1, ... in the file's order (one rank) is read
    as it stands: its points and cells in the order written (the pictures and ranges of
    a serial run are unchanged)."""
    one = in_pieces(FieldSeries(block_dir / "fields.pvd"), tmp_path / "one", ranks=1)
    raw = pv.get_reader(str(tmp_path / "one" / "fields000002.pvtu")).read()
    assert np.array_equal(raw.point_data["vtkOriginalPointIds"], np.arange(raw.n_points))
    assert np.array_equal(one.dataset(2).points, raw.points)
    assert np.array_equal(one.dataset(2).cells, raw.cells)
    assert np.array_equal(one.dataset(2).point_data["von_mises"], raw.point_data["von_mises"])


@pytest.mark.mpi
def test_a_two_rank_run_has_the_serial_fields_and_colour_range(tmp_path):
    """sdnv105d to 5 ms (3 frames): 25 nodes, as serially, and the same ranges."""
    end = 0.005
    rc.run(rc.load_case("sdnv105d", {"time.end": end}), out=tmp_path / "serial", plots=False,
           quiet=True)
    done = subprocess.run([str(MPIEXEC), "-n", "2", sys.executable, "-m",
                           "rocking_contact.cli", "run", "sdnv105d", "--set", f"time.end={end}",
                           "--out", "mpi", "-q", "--no-plots"], cwd=tmp_path, env=MPI_ENV,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    serial, mpi = (FieldSeries(tmp_path / d / "fields.pvd") for d in ("serial", "mpi"))
    assert np.array_equal(serial.times, mpi.times) and serial.times.size == 3
    for i in range(serial.times.size):
        assert mpi.dataset(i).n_points == serial.dataset(i).n_points == 25
        assert mpi.dataset(i).n_cells == serial.dataset(i).n_cells
        raw = pv.get_reader(str(tmp_path / "serial" / f"fields{i:06d}.pvtu")).read()
        assert np.array_equal(serial.dataset(i).points, raw.points)  # as written
    for name in ("von_mises", "sigma_yy"):
        for percentile in (99.0, 100.0):
            lo, hi = serial.value_range(name, percentile)
            # the histories agree to ~1e-10 between 1 and 2 ranks (the duplicates moved
            # the 99th percentile by 1.4 % here)
            assert mpi.value_range(name, percentile) == pytest.approx((lo, hi), rel=1e-8,
                                                                       abs=1e-8 * (hi - lo))
