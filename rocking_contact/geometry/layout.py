"""The ``[mesh]`` section and the layout of the block-on-table model, without Gmsh.

Each body is a rectangle cut by "key lines" into a grid of patches; every patch is meshed
transfinitely (structured), so a layout is fully described by the key abscissae and
ordinates of each body and the number of element divisions between them.

Coordinates (m), y up, origin at the block's bottom-left corner O (CASES: SDNV105):

- block ``BLOCK`` = [0, 2b] x [0, 2l];
- table ``GROUN`` = [table_left, table_right] x [-table_thickness, 0].

The block's base and the table's top carry separate nodes at the same positions wherever
both bodies have key lines (always at x = 0, b, 2b: O/S0, O1/S1, A/S2); in the structured
layout every base node has a table node under it. The bodies are not connected: contact
between them is the job of the contact treatments.

Layouts:

- ``aster``: the coarse Code_Aster mesh of SDNV105 (25 nodes, 12 quadrilaterals at order 1):
  block columns at x = 0, b - b/9, b, b + b/9, 2b (0, 0.16, 0.18, 0.20, 0.36 m for
  b = 0.18 m), rows at y = 0, l, 2l; one row of four table cells with top nodes at
  x = table_left, 0, b, 2b, table_right. ``element_size`` is not used.
- ``structured``: square-ish cells of edge ``element_size``, with key lines at x = 0, b, 2b
  in the block (so O1 and C1 are nodes) and matching divisions in the table under it.

Triangles split each transfinite quadrilateral in two.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, Literal

from rocking_contact.block import Geometry
from rocking_contact.config import POSITIVE, in_range, param

#: region (cell) groups
BLOCK, TABLE = "BLOCK", "GROUN"
#: curve groups: block base (contact slave), table top (contact master), block contour,
#: table bottom
CONHAUT, CONBAS, CTBLO, CTGROUND = "CONHAUT", "CONBAS", "CTBLO", "CTGROUND"


@dataclass(kw_only=True)
class MeshSpec:
    """``[mesh]``: how the block and its table are meshed."""

    layout: Literal["aster", "structured"] = param(
        "structured", doc="aster: the coarse Code_Aster mesh; structured: element_size")
    element_size: float = param(0.04, unit="m", check=POSITIVE,
                                doc="target cell edge")
    cell: Literal["quadrilateral", "triangle"] = param("quadrilateral")
    order: int = param(1, check=in_range(1, 2),
                       doc="Lagrange order of the geometry and of the displacement")
    table: bool = param(True, doc="mesh the table (GROUN); false: the block alone")

    #: the aster layout has fixed cells: a size given with it is refused, not ignored
    #: (config.load_case)
    VARIANTS: ClassVar = {"layout": {"aster": (), "structured": ("element_size",)}}


@dataclass(frozen=True)
class Patch:
    """A body as a grid of transfinite patches.

    Attributes:
        region: physical name of the body's cells.
        xs, ys: key abscissae / ordinates (m), increasing.
        nx, ny: element divisions of each interval between consecutive key lines.

    """

    region: str
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    nx: tuple[int, ...]
    ny: tuple[int, ...]

    def column(self, x: float) -> int:
        """Index of the key abscissa ``x`` (a bug if it is not one)."""
        return _index(self.xs, x)

    def row(self, y: float) -> int:
        """Index of the key ordinate ``y``."""
        return _index(self.ys, y)

    @property
    def n_quadrilaterals(self) -> int:
        """Quadrilateral cells of the body's mesh (twice as many triangles)."""
        return sum(self.nx) * sum(self.ny)


@dataclass(frozen=True)
class NamedPoint:
    """A named node: its body and position (m)."""

    name: str
    region: str
    x: float
    y: float


def _index(keys: tuple[float, ...], value: float) -> int:
    for i, k in enumerate(keys):
        if abs(k - value) <= 1e-12 * max(1.0, abs(value)):
            return i
    raise ValueError(f"{value} is not a key line of {keys}")


def _divisions(length: float, size: float) -> int:
    return max(1, round(length / size))


def aster_offset(geometry: Geometry) -> float:
    """Half-width of the two narrow middle columns of the aster layout: b/9 (m)."""
    return geometry.half_width / 9.0


def patches(geometry: Geometry, spec: MeshSpec) -> list[Patch]:
    """The patch grids of the block (first) and, if meshed, the table."""
    b, l2 = geometry.half_width, 2 * geometry.half_height
    left, right, t = geometry.table_left, geometry.table_right, geometry.table_thickness
    if spec.layout == "aster":
        d = aster_offset(geometry)
        block = Patch(BLOCK, (0.0, b - d, b, b + d, 2 * b), (0.0, l2 / 2, l2),
                      (1, 1, 1, 1), (1, 1))
        n_under, n_left, n_right, n_thick = (1, 1), 1, 1, 1
    else:
        h = spec.element_size
        n = _divisions(b, h)
        block = Patch(BLOCK, (0.0, b, 2 * b), (0.0, l2), (n, n), (_divisions(l2, h),))
        n_under = (n, n)
        n_left, n_right = _divisions(-left, h), _divisions(right - 2 * b, h)
        n_thick = _divisions(t, h)
    result = [block]
    if spec.table:
        xs: list[float] = [0.0, b, 2 * b]
        nx: list[int] = list(n_under)
        if left < 0.0:  # the table overhangs on the left of O
            xs.insert(0, left)
            nx.insert(0, n_left)
        if right > 2 * b:
            xs.append(right)
            nx.append(n_right)
        result.append(Patch(TABLE, tuple(xs), (-t, 0.0), tuple(nx), (n_thick,)))
    return result


def named_points(geometry: Geometry, spec: MeshSpec) -> list[NamedPoint]:
    """Every named node of the layout.

    Block: O (0, 0), O1 (b, 0), A (2b, 0), C1 (b, 2l) and, in the aster layout, the other
    base nodes B1 (b - b/9, 0) and B2 (b + b/9, 0). Table (if meshed): S0, S1, S2 under O,
    O1, A.
    """
    b, l2 = geometry.half_width, 2 * geometry.half_height
    points = [NamedPoint("O", BLOCK, 0.0, 0.0), NamedPoint("O1", BLOCK, b, 0.0),
              NamedPoint("A", BLOCK, 2 * b, 0.0), NamedPoint("C1", BLOCK, b, l2)]
    if spec.layout == "aster":
        d = aster_offset(geometry)
        points += [NamedPoint("B1", BLOCK, b - d, 0.0), NamedPoint("B2", BLOCK, b + d, 0.0)]
    if spec.table:
        points += [NamedPoint("S0", TABLE, 0.0, 0.0), NamedPoint("S1", TABLE, b, 0.0),
                   NamedPoint("S2", TABLE, 2 * b, 0.0)]
    return points


def base_points(geometry: Geometry, spec: MeshSpec) -> list[str]:
    """Names of the block's named points on its base (y = 0): O, O1, A and the aster
    layout's B1, B2, in :func:`named_points` order."""
    return [p.name for p in named_points(geometry, spec) if p.region == BLOCK and p.y == 0.0]


def point_names(geometry: Geometry, spec: MeshSpec) -> list[str]:
    """Names of the named nodes, in :func:`named_points` order."""
    return [p.name for p in named_points(geometry, spec)]


def curve_names(spec: MeshSpec) -> list[str]:
    """Names of the curve groups of a layout."""
    return [CONHAUT, CTBLO] + ([CONBAS, CTGROUND] if spec.table else [])


def region_names(spec: MeshSpec) -> list[str]:
    """Names of the cell groups of a layout."""
    return [BLOCK] + ([TABLE] if spec.table else [])


def expected_size(geometry: Geometry, spec: MeshSpec) -> tuple[int, int]:
    """(nodes, cells) the mesh will have: what the Gmsh mesh must reproduce."""
    nodes = cells = 0
    k = spec.order
    for p in patches(geometry, spec):
        nodes += (k * sum(p.nx) + 1) * (k * sum(p.ny) + 1)
        cells += p.n_quadrilaterals * (2 if spec.cell == "triangle" else 1)
    # Order 2: a quadrilateral's centre node and a triangle pair's diagonal midpoint are one
    # node each, so the count is the same for both cell types.
    return nodes, cells


#: Most cells a mesh may have. The shipped meshes have at most 864 (0.02 m quadrilaterals); Gmsh
#: takes about 8 s and 0.8 GB to write 1e6 order-2 triangles of this layout (a 150 MB .msh),
#: and a finite-element run on them would take days. A larger count is a typo in
#: ``element_size`` (1e-5 for 1e-2 asks for 3.5e9 cells and Gmsh would run for hours).
MAX_CELLS = 1_000_000


def size_warning(geometry: Geometry, spec: MeshSpec) -> str | None:
    """A warning when ``element_size`` is too large for the structured layout to honour on
    the block, None otherwise (and for the aster layout, which does not read it).

    The layout keeps nodes at x = 0, b, 2b and rounds each key interval of the block to a
    whole number of cells, at least one: an interval shorter than half the size (a size at
    least twice b, or twice the height 2l) is one cell anyway. Such a block is still a
    rectangle meshed exactly, with its named nodes and contact pairs, so it runs (0.5 m on
    SDNV105's 0.36 m block: 2 x 2 cells of 0.18 x 0.4 m, coarser than Code_Aster's coarse
    mesh of 4 x 2); the warning says what was meshed instead of the size asked.
    """
    if spec.layout != "structured":
        return None
    block = patches(geometry, spec)[0]
    h = spec.element_size
    spans = [*zip(block.xs[1:], block.xs[:-1], block.nx, strict=True),
             *zip(block.ys[1:], block.ys[:-1], block.ny, strict=True)]
    if all(round((end - start) / h) >= 1 for end, start, _ in spans):
        return None
    dx = max((end - start) / n for end, start, n in spans[:len(block.nx)])
    dy = max((end - start) / n for end, start, n in spans[len(block.nx):])
    return (f"mesh.element_size: {h:g} m is too large for the block ({2 * geometry.half_width:g}"
            f" x {2 * geometry.half_height:g} m): the structured layout keeps nodes at x = 0, "
            f"b, 2b and gives each span one cell at least, so the block has {sum(block.nx)} x "
            f"{sum(block.ny)} cells of {dx:g} x {dy:g} m, not {h:g} m ones")


def check_size(geometry: Geometry, spec: MeshSpec) -> None:
    """Refuse, before meshing, a mesh of more than :data:`MAX_CELLS` cells.

    The count is :func:`expected_size`'s (exact, arithmetic only). Raises
    ``ValueError("mesh.element_size: ...")`` as a schema's ``validate`` does.
    """
    cells = expected_size(geometry, spec)[1]
    if cells <= MAX_CELLS:
        return
    # cells go as 1 / element_size**2: the smallest size allowed, rounded up to 2 digits
    smallest = spec.element_size * math.sqrt(cells / MAX_CELLS)
    digit = 10.0 ** (math.floor(math.log10(smallest)) - 1)
    smallest = math.ceil(smallest / digit) * digit
    raise ValueError(f"mesh.element_size: got {spec.element_size:g}, which makes {cells:.2g} "
                     f"cells (allowed: at most {MAX_CELLS:.0e} cells, an element_size of about "
                     f">= {smallest:g} m for this geometry and cell type)")
