"""An element size too large for the block: the mesh made is said, not the size asked."""

import subprocess
import sys

import pytest
from mpi4py import MPI

import rocking_contact as rc
from rocking_contact.block import Geometry
from rocking_contact.config import shipped_cases, variant_cases
from rocking_contact.geometry.layout import MeshSpec, size_warning
from rocking_contact.geometry.mesh import create_block_mesh

GEOMETRY = Geometry()  # SDNV105's block, 0.36 x 0.8 m

#: what 0.5 m on SDNV105's block gives (the audit's `--set mesh.element_size=0.5`)
COARSE = ("mesh.element_size: 0.5 m is too large for the block (0.36 x 0.8 m): the "
          "structured layout keeps nodes at x = 0, b, 2b and gives each span one cell at "
          "least, so the block has 2 x 2 cells of 0.18 x 0.4 m, not 0.5 m ones")


@pytest.mark.parametrize(("size", "columns", "rows"), [(0.5, 2, 2), (0.36, 2, 2), (2.0, 2, 1)])
def test_a_size_twice_a_span_of_the_block_is_said(size, columns, rows):
    """The block's spans (b = 0.18 m across, 2l = 0.8 m up) take a whole number of cells,
    at least one: from 2b = 0.36 m on, the cells across are at most half the size asked,
    and the warning gives the cells the mesh has."""
    spec = MeshSpec(layout="structured", element_size=size)
    warning = size_warning(GEOMETRY, spec)
    assert warning is not None
    assert f"{columns} x {rows} cells of 0.18 x {0.8 / rows:g} m, not {size:g} m ones" in warning
    block = create_block_mesh(MPI.COMM_WORLD, GEOMETRY, spec).cells("BLOCK")
    assert len(block) == columns * rows
    if size == 0.5:
        assert warning == COARSE


@pytest.mark.parametrize("size", [0.02, 0.2, 0.35])
def test_a_size_the_rounding_honours_is_no_warning(size):
    """Below 2b every span has round(span / size) >= 1 cells, each more than half and less
    than 1.5 times the size (0.35 m: 0.18 x 0.4 m): no warning."""
    assert size_warning(GEOMETRY, MeshSpec(layout="structured", element_size=size)) is None


def test_no_shipped_case_warns():
    for name in [*shipped_cases(), *variant_cases()]:
        case = rc.load_case(name)
        if case.case.kind == "block":
            assert size_warning(case.geometry, case.mesh) is None, name


def test_the_run_and_the_mesh_command_warn(tmp_path):
    """It was accepted silently by both (the run gave 2 x 2 block cells)."""
    coarse = {"mesh.layout": "structured", "mesh.element_size": 0.5}
    result = rc.run(rc.load_case("sdnv105d", {**coarse, "time.end": 5e-4}), write=False,
                    plots=False, quiet=True)
    assert result.status == "completed" and COARSE in result.warnings
    mesh = subprocess.run([sys.executable, "-m", "rocking_contact.cli", "mesh", "--set",
                           "mesh.element_size=0.5", "--out", str(tmp_path / "big.msh")],
                          capture_output=True, text=True)
    assert mesh.returncode == 0 and mesh.stderr == f"warning: {COARSE}\n"
