"""Build and mesh the block-on-table model with the Gmsh Python API.

The model is made with Gmsh's built-in kernel from the patch grids of
:mod:`~rocking_contact.geometry.layout`: one transfinite surface per patch, so the mesh is
structured and reproducible. Points of the block and of the table at the same position are
distinct Gmsh points (the two bodies are not connected).

Physical groups (names as in the Code_Aster model of SDNV105):

- points: O, O1, A, C1 (+ B1, B2 in the aster layout) on the block; S0, S1, S2 on the table;
- curves: CONHAUT (block base), CTBLO (block contour, base included), CONBAS (table top),
  CTGROUND (table bottom);
- regions: BLOCK, GROUN.

Curve groups overlap (CONHAUT is part of CTBLO); :mod:`~rocking_contact.geometry.mesh`
keeps one tag set per name for that reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rocking_contact import interrupt
from rocking_contact.block import Geometry
from rocking_contact.geometry.layout import (
    BLOCK,
    CONBAS,
    CONHAUT,
    CTBLO,
    CTGROUND,
    TABLE,
    MeshSpec,
    Patch,
    named_points,
    patches,
)

#: first physical tag of each dimension (regions 1.., curves 11.., points 101..)
_FIRST_TAG = {2: 1, 1: 11, 0: 101}


#: the Gmsh options this module sets (put back in a session it does not own)
OPTIONS = ("General.Terminal", "Geometry.AutoCoherence", "Mesh.SecondOrderIncomplete",
           "Mesh.MshFileVersion")


@contextmanager
def session() -> Iterator[Any]:
    """A quiet Gmsh session (the ``gmsh`` module), finalised on exit.

    Gmsh is not allowed to install its SIGINT handler (no global side effect). Its
    initialisation also sets SIGTERM back to the default action behind Python's back, which
    would kill a run the handler of :mod:`rocking_contact.interrupt` is to stop cleanly: the
    Python handlers of both signals are put back. A session that is already open (by the
    caller, a notebook's) is used and left as it was: the models added are removed, the
    caller's current model and the options set here (:data:`OPTIONS`) are put back.
    """
    import gmsh

    owner = not gmsh.isInitialized()
    if owner:
        with interrupt.signals_held_for_python():
            gmsh.initialize(interruptible=False)
    else:
        current, models = gmsh.model.getCurrent(), len(gmsh.model.list())
        options = {name: gmsh.option.getNumber(name) for name in OPTIONS}
    gmsh.option.setNumber("General.Terminal", 0)
    try:
        yield gmsh
    finally:
        if owner:
            with interrupt.signals_held_for_python():
                gmsh.finalize()
        else:
            while len(gmsh.model.list()) > models:
                gmsh.model.remove()  # the current one: the last added
            gmsh.model.setCurrent(current)
            for name, value in options.items():
                gmsh.option.setNumber(name, value)


@dataclass
class _Grid:
    """Gmsh tags of one patch grid: points[i][j], horizontal[i][j], vertical[i][j]."""

    patch: Patch
    points: list[list[int]] = field(default_factory=list)
    horizontal: list[list[int]] = field(default_factory=list)
    vertical: list[list[int]] = field(default_factory=list)
    surfaces: list[int] = field(default_factory=list)

    def side(self, name: str) -> list[int]:
        """Curve tags of a side: ``bottom``, ``top``, ``left``, ``right``."""
        nx, ny = len(self.patch.xs) - 1, len(self.patch.ys) - 1
        if name == "bottom":
            return [self.horizontal[i][0] for i in range(nx)]
        if name == "top":
            return [self.horizontal[i][ny] for i in range(nx)]
        if name == "left":
            return [self.vertical[0][j] for j in range(ny)]
        return [self.vertical[nx][j] for j in range(ny)]


def _add_grid(gmsh: Any, patch: Patch, spec: MeshSpec) -> _Grid:
    geo = gmsh.model.geo
    grid = _Grid(patch)
    nx, ny = len(patch.xs), len(patch.ys)
    grid.points = [[geo.addPoint(x, y, 0.0) for y in patch.ys] for x in patch.xs]
    grid.horizontal = [[geo.addLine(grid.points[i][j], grid.points[i + 1][j])
                        for j in range(ny)] for i in range(nx - 1)]
    grid.vertical = [[geo.addLine(grid.points[i][j], grid.points[i][j + 1])
                      for j in range(ny - 1)] for i in range(nx)]
    for i in range(nx - 1):
        for j in range(ny):
            geo.mesh.setTransfiniteCurve(grid.horizontal[i][j], patch.nx[i] + 1)
    for i in range(nx):
        for j in range(ny - 1):
            geo.mesh.setTransfiniteCurve(grid.vertical[i][j], patch.ny[j] + 1)
    for i in range(nx - 1):
        for j in range(ny - 1):
            loop = geo.addCurveLoop([grid.horizontal[i][j], grid.vertical[i + 1][j],
                                     -grid.horizontal[i][j + 1], -grid.vertical[i][j]])
            surface = geo.addPlaneSurface([loop])
            geo.mesh.setTransfiniteSurface(surface, "Left")
            if spec.cell == "quadrilateral":
                geo.mesh.setRecombine(2, surface)
            grid.surfaces.append(surface)
    return grid


def build_model(geometry: Geometry, spec: MeshSpec) -> dict[str, int]:
    """Add the block-on-table model (Gmsh model ``sdnv105``) to the open Gmsh session and
    mesh it.

    Args:
        geometry: the block and table dimensions (m).
        spec: layout, element size, cell type and order.

    Returns:
        Physical name -> physical tag.

    """
    import gmsh

    gmsh.model.add("sdnv105")
    # Coincident block/table points must stay distinct: no automatic merging.
    gmsh.option.setNumber("Geometry.AutoCoherence", 0)
    gmsh.option.setNumber("Mesh.SecondOrderIncomplete", 0)
    grids = {p.region: _add_grid(gmsh, p, spec) for p in patches(geometry, spec)}
    gmsh.model.geo.synchronize()

    tags: dict[str, int] = {}
    next_tag = dict(_FIRST_TAG)

    def add(dim: int, entities: list[int], group: str) -> None:
        tags[group] = gmsh.model.addPhysicalGroup(dim, entities, next_tag[dim], group)
        next_tag[dim] += 1

    for region, grid in grids.items():
        add(2, grid.surfaces, region)
    block = grids[BLOCK]
    add(1, block.side("bottom"), CONHAUT)
    add(1, block.side("bottom") + block.side("right") + block.side("top")[::-1]
        + block.side("left")[::-1], CTBLO)
    if TABLE in grids:
        add(1, grids[TABLE].side("top"), CONBAS)
        add(1, grids[TABLE].side("bottom"), CTGROUND)
    for point in named_points(geometry, spec):
        grid = grids[point.region]
        i, j = grid.patch.column(point.x), grid.patch.row(point.y)
        add(0, [grid.points[i][j]], point.name)

    gmsh.model.mesh.generate(2)
    if spec.order > 1:
        gmsh.model.mesh.setOrder(spec.order)
    gmsh.model.mesh.renumberNodes()
    gmsh.model.mesh.renumberElements()
    return tags


def write_msh(path: Path) -> None:
    """Write the current Gmsh model's mesh (MSH 4.1, physical groups only)."""
    import gmsh

    gmsh.option.setNumber("Mesh.MshFileVersion", 4.1)
    path.parent.mkdir(parents=True, exist_ok=True)
    gmsh.write(str(path))
