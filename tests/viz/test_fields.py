"""Reading the FEM field series: interpolation in time, merged datasets, linear cells."""

import numpy as np
import pytest
import pyvista as pv

from rocking_contact.results_io import collection_xml
from rocking_contact.viz.fields import FieldSeries, _linearise, displacement_3d
from rocking_contact.viz.rigid import block_mesh, rigid_displacement, tilt_from_lifts


def test_fields_between_outputs_are_interpolated(block_dir):
    series = FieldSeries(block_dir / "fields.pvd")
    t0, t1 = series.times[3], series.times[4]
    u0 = series.dataset(3).point_data["u"]
    u1 = series.dataset(4).point_data["u"]
    middle = series.at(0.5 * (t0 + t1)).point_data["u"]
    assert np.allclose(middle, 0.5 * (u0 + u1))
    assert np.allclose(series.at(t0).point_data["u"], u0)
    assert np.allclose(series.at(series.times[-1] + 1.0).point_data["u"],
                       series.dataset(series.times.size - 1).point_data["u"])
    assert {"u", "von_mises", "sigma_yy"} <= set(series.array_names())


def test_between_names_the_two_outputs_a_blend_uses(block_dir):
    """`view --time` between outputs shows a blend; at an output (to round-off) or outside
    the series (clamped) it shows that output's fields."""
    series = FieldSeries(block_dir / "fields.pvd")
    t0, t1 = float(series.times[3]), float(series.times[4])
    assert series.between(0.5 * (t0 + t1)) == (t0, t1)
    assert series.between(t0) is None and series.between(t1 * (1 + 1e-12)) is None
    assert series.between(-1.0) is None and series.between(series.times[-1] + 1.0) is None


def test_datasets_written_one_function_at_a_time_are_merged(tmp_path):
    """dolfinx's VTKFile.write_function([u], t) then ([s], t) makes two datasets per instant."""
    mesh = block_mesh(0.18, 0.40, 2, 2)
    entries = []
    for i, t in enumerate((0.0, 0.1)):
        a, b = mesh.copy(), mesh.copy()
        a.point_data["u"] = np.full((mesh.n_points, 3), t)
        b.cell_data["von_mises"] = np.full(mesh.n_cells, 10.0 * t)
        for j, part in enumerate((a, b)):
            part.save(tmp_path / f"f_{i}_{j}.vtu")
            entries.append((t, f"f_{i}_{j}.vtu"))
    (tmp_path / "fields.pvd").write_text(collection_xml(entries))
    series = FieldSeries(tmp_path / "fields.pvd")
    assert list(series.times) == [0.0, 0.1]
    last = series.dataset(1)
    assert np.allclose(last.point_data["u"], 0.1) and np.allclose(last.cell_data["von_mises"], 1.0)


def test_first_order_lagrange_cells_become_linear_cells():
    quads = block_mesh(0.18, 0.40, 2, 2)
    cells = quads.cells.reshape(-1, 5)[:, 1:]
    lagrange = pv.UnstructuredGrid({pv.CellType.LAGRANGE_QUADRILATERAL: cells}, quads.points)
    lagrange.point_data["u"] = np.ones((quads.n_points, 3))
    linear = _linearise(lagrange)
    assert set(linear.celltypes) == {pv.CellType.QUAD}
    assert linear.n_cells == quads.n_cells and "u" in linear.point_data


def test_two_component_displacements_are_padded():
    assert displacement_3d(np.ones((4, 2))).shape == (4, 3)


@pytest.mark.parametrize("phi", [0.01, -0.02, 0.0])
def test_tilt_from_corner_lifts_inverts_the_rigid_rotation(phi):
    corners = np.array([[0.0, 0.0, 0.0], [0.36, 0.0, 0.0]])
    u = rigid_displacement(corners, phi, 0.18)
    assert tilt_from_lifts(u[0, 1], u[1, 1], 0.18) == pytest.approx(phi, abs=1e-12)
    assert min(u[0, 1], u[1, 1]) == pytest.approx(0.0, abs=1e-15)  # the pivot stays down


def test_a_dolfinx_written_series_is_viewed(tmp_path):
    """The real writer: VTKFile, a 2-component u and a DG0 stress written one by one."""
    import json

    import dolfinx_solver  # noqa: F401  (before dolfinx)
    from dolfinx import fem, io, mesh
    from mpi4py import MPI

    from rocking_contact.viz import render

    domain = mesh.create_rectangle(MPI.COMM_SELF, [[0.0, 0.0], [0.36, 0.8]], [2, 4],
                                   mesh.CellType.quadrilateral)
    u = fem.Function(fem.functionspace(domain, ("Lagrange", 1, (2,))), name="u")
    stress = fem.Function(fem.functionspace(domain, ("DG", 0)), name="von_mises")
    with io.VTKFile(MPI.COMM_SELF, str(tmp_path / "fields.pvd"), "w") as vtk:
        for t, lift in ((0.0, 0.0), (0.05, 0.01)):
            u.interpolate(lambda x, lift=lift: np.vstack([0 * x[0], lift * x[0] / 0.36]))
            stress.x.array[:] = 1e3 * (1 + lift)
            vtk.write_function([u], t)
            vtk.write_function([stress], t)
    (tmp_path / "results.json").write_text(json.dumps({
        "case": "dolfinx_written", "kind": "fem", "status": "completed",
        "parameters": {"geometry": {"half_width": 0.18, "half_height": 0.4}},
        "checks": [], "extra": {"fields": "fields.pvd"}}))
    scene = render.open_scene(tmp_path)
    assert scene.field == "von_mises" and list(scene.times) == [0.0, 0.05]
    image = render.screenshot(scene, tmp_path / "shot.png", time=0.05, window_size=(240, 240))
    assert np.asarray(image).std() > 10
    assert set(FieldSeries(tmp_path / "fields.pvd").dataset(1).celltypes) == {pv.CellType.QUAD}
