"""The block-on-table mesh: layouts, named groups, coincident nodes, the mesh command."""

import re
import subprocess
import sys

import numpy as np
import pytest
from dolfinx.mesh import entities_to_geometry
from mpi4py import MPI

from rocking_contact.block import Geometry
from rocking_contact.geometry.layout import MeshSpec, expected_size, named_points
from rocking_contact.geometry.mesh import create_block_mesh, read_block_mesh

GEOMETRY = Geometry()


def _size(block_mesh):
    mesh = block_mesh.mesh
    return (mesh.geometry.index_map().size_global,
            mesh.topology.index_map(mesh.topology.dim).size_global)


def test_aster_layout_is_the_code_aster_mesh():
    """25 nodes, 12 quadrilaterals; block base nodes at x = 0, 0.16, 0.18, 0.20, 0.36."""
    bm = create_block_mesh(MPI.COMM_WORLD, GEOMETRY, MeshSpec(layout="aster"))
    assert _size(bm) == (25, 12)
    x = bm.mesh.geometry.x
    base = np.sort(x[np.isclose(x[:, 1], 0.0), 0])
    # block base (5 nodes) and table top (5 nodes) at y = 0
    assert np.allclose(base, np.sort([0, 0.16, 0.18, 0.20, 0.36, -0.18, 0, 0.18, 0.36, 0.54]))
    assert len(bm.cells("BLOCK")) == 8 and len(bm.cells("GROUN")) == 4


@pytest.mark.parametrize("spec", [
    MeshSpec(layout="aster", cell="triangle"), MeshSpec(layout="aster", order=2),
    MeshSpec(layout="structured", element_size=0.03, order=2, cell="triangle"),
    MeshSpec(layout="structured", element_size=0.05, table=False)], ids=str)
def test_layouts_have_the_expected_size(spec):
    bm = create_block_mesh(MPI.COMM_WORLD, GEOMETRY, spec)
    assert _size(bm) == expected_size(GEOMETRY, spec)


@pytest.mark.parametrize("layout", ["aster", "structured"])
def test_named_points_and_coincident_nodes(layout):
    spec = MeshSpec(layout=layout, element_size=0.045)
    bm = create_block_mesh(MPI.COMM_WORLD, GEOMETRY, spec)
    mesh = bm.mesh
    vertex = {}
    for point in named_points(GEOMETRY, spec):
        dim, entities = bm.entities(point.name)
        assert dim == 0 and len(entities) == 1
        node = entities_to_geometry(mesh, 0, entities)[0, 0]
        assert np.allclose(mesh.geometry.x[node, :2], [point.x, point.y]), point
        vertex[point.name] = entities[0]
    for block, table in (("O", "S0"), ("O1", "S1"), ("A", "S2")):
        assert vertex[block] != vertex[table], "block and table nodes are distinct"
    # the bodies share no vertex
    mesh.topology.create_connectivity(2, 0)
    c2v = mesh.topology.connectivity(2, 0)
    block = {v for c in bm.cells("BLOCK") for v in c2v.links(c)}
    table = {v for c in bm.cells("GROUN") for v in c2v.links(c)}
    assert not block & table


def test_curve_groups():
    bm = create_block_mesh(MPI.COMM_WORLD, GEOMETRY, MeshSpec(layout="aster"))
    counts = {name: len(bm.entities(name)[1]) for name in ("CONHAUT", "CTBLO", "CONBAS",
                                                           "CTGROUND")}
    assert counts == {"CONHAUT": 4, "CTBLO": 12, "CONBAS": 4, "CTGROUND": 4}
    assert set(bm.entities("CONHAUT")[1]) <= set(bm.entities("CTBLO")[1])


def test_mesh_command_writes_named_groups(tmp_path):
    out = tmp_path / "aster.msh"
    run = subprocess.run([sys.executable, "-m", "rocking_contact.cli", "mesh", "--set",
                          "mesh.layout=aster", "--out", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "25 nodes, 12 cells" in run.stdout
    # a named point is one node (it said "1 nodes")
    assert re.search(r"^  O +point +1 node$", run.stdout, re.MULTILINE), run.stdout
    assert re.search(r"^  BLOCK +region +15 nodes$", run.stdout, re.MULTILINE), run.stdout
    import gmsh

    gmsh.initialize(interruptible=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.merge(str(out))
        names = {gmsh.model.getPhysicalName(d, t) for d, t in gmsh.model.getPhysicalGroups()}
    finally:
        gmsh.finalize()
    assert {"O", "A", "O1", "C1", "B1", "B2", "S0", "S1", "S2", "CONHAUT", "CONBAS", "CTBLO",
            "CTGROUND", "BLOCK", "GROUN"} == names
    bm = read_block_mesh(MPI.COMM_WORLD, out)
    assert _size(bm) == (25, 12) and "CONHAUT" in bm.names


def test_mesh_command_bad_input_is_one_line(tmp_path):
    run = subprocess.run([sys.executable, "-m", "rocking_contact.cli", "mesh", "--set",
                          "mesh.order=3", "--out", str(tmp_path / "x.msh")],
                         capture_output=True, text=True)
    assert run.returncode == 2 and not (tmp_path / "x.msh").exists()
    assert run.stderr == "error: --set: mesh.order: got 3, allowed: a number in [1, 2]\n"


@pytest.mark.parametrize("case", [["--case", "sdnd101a"], ["sdnd101a"]])
def test_mesh_command_refuses_a_case_without_a_block(tmp_path, case):
    """The case is named as for ``run`` and ``keys``, or with ``--case``."""
    run = subprocess.run([sys.executable, "-m", "rocking_contact.cli", "mesh", *case,
                          "--out", str(tmp_path / "x.msh")],
                         capture_output=True, text=True)
    assert run.returncode == 2 and not (tmp_path / "x.msh").exists()
    assert run.stderr.count("\n") == 1 and "case.kind: got 'discrete'" in run.stderr


def test_mesh_command_malformed_override_names_only_the_override(tmp_path):
    run = subprocess.run([sys.executable, "-m", "rocking_contact.cli", "mesh", "--set",
                          "mesh.layout", "--out", str(tmp_path / "x.msh")],
                         capture_output=True, text=True)
    assert run.returncode == 2
    # the values the key takes, from the mesh's schema (no case: no kind to name)
    assert run.stderr == ("error: --set: mesh.layout: no '=' after the key (allowed: "
                          "mesh.layout=VALUE, VALUE one of 'aster', 'structured')\n")


def test_mesh_command_module_is_cheap_to_import():
    code = ("import sys, rocking_contact.geometry.cli; "
            "print(any(m in sys.modules for m in ('gmsh', 'dolfinx')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.stdout.strip() == "False", run.stderr
