"""The block-on-table scene: the deformed block coloured by a stress, the table (or the
point springs it stands on), and the contact reactions as arrows at the base nodes.

The block's motion comes from the FEM fields (:class:`FieldMotion`, ``fields.pvd``) or,
for a result without fields such as the rigid-body reference, from the corner lifts of
the history (:class:`RigidMotion`). Stresses are coloured over their range on the whole
run, so that pictures at different instants compare. Displacements are amplified
(``scale``; by default a 1-2-5 factor that makes the largest lift about 8 % of the block's
height) because a 0.01 rad tilt is invisible at true scale; the reference outline is
drawn in grey.

Colours: the block's alone (a table in the mesh is drawn grey: its stresses under an
impact saturated the colour bar of A's and D's event views), over the whole run between
the field's 1st and 99th percentiles (the short stress peaks of impacts saturate) widened
to round ticks (0, 10, ..., 60 kPa for 0.619 to 51.8), or ``clim`` as given.

Arrows: to one scale in every result, the block's weight M g drawn ``ARROW_FRACTION`` of
the block's height long (a pivot that carries the block, about M g, reads the same in A,
B and D; a scale from the run's own forces made B's ringing springs, 43 kN at their 99th
percentile, draw its 4 kN pivot reactions 8 % long); an arrow beyond ``CLIP_WEIGHTS`` M g
(impact peaks) is drawn at that length, its value printed with a ">" beside it.

Supports: the table the block stands on (grey), or, for a block on point springs and no
table (``parameters.contact.spring``: SDNV105 B's shock springs at O, O1, A), each spring
as a short vertical zigzag from a ground plate up to its node; the spring is unilateral, so
its top follows the node down but stays at its gap when the node lifts off.

Reactions: a dataset point array ``reaction`` (force vectors at the nodes, N) is drawn
when the fields have one; otherwise the history columns ``RN_<node>`` (normal, along +y)
and ``RX_<node>`` (tangential, along +x) at nodes whose position is known: the block's named
points (O = (0, 0), O1 = (b, 0), A = (2b, 0), C1; B1, B2 in the aster layout,
:func:`~rocking_contact.geometry.layout.named_points`), plus any in ``results.json``
``extra["node_positions"]`` ({node: [x, y]}).
Arrows point at the node, as the table's push on the block.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Protocol

import numpy as np

from rocking_contact.block import Geometry, Loading, block_mass, block_material
from rocking_contact.geometry.layout import MeshSpec, named_points
from rocking_contact.post.collisions import interior
from rocking_contact.viz.discrete_scene import SPRING_COLOUR, SUPPORT_COLOUR, zigzag
from rocking_contact.viz.fields import FieldSeries, displacement_3d
from rocking_contact.viz.rigid import block_mesh, rigid_displacement, tilt_from_lifts
from rocking_contact.viz.scene import TEXT_FONT, Scene, arrows, nice_factor, nice_ticks

#: field -> (words, colour map, symmetric range about zero)
FIELD_STYLE: dict[str, tuple[str, str, bool]] = {
    "von_mises": ("von Mises stress", "viridis", False),
    "sigma_yy": ("vertical stress sigma_yy", "RdBu_r", True),
}
BLOCK_COLOUR, TABLE_COLOUR, ARROW_COLOUR = "#C8B89A", "#9A9A9A", "#D55E00"
#: largest lift drawn, as a fraction of the block height, when the scale is automatic
LIFT_FRACTION = 0.08
#: length of the arrow of the block's weight M g, as a fraction of the block height
ARROW_FRACTION = 0.3
#: arrows of forces above this many weights are drawn at its length (impact peaks)
CLIP_WEIGHTS = 1.5
#: fraction of the picture's width left of the colour bar (the bar starts just after it)
BAR_X = 0.8
#: instants of a rigid block's history sampled for the region the camera shows
EXTENT_SAMPLES = 200
#: labels of the colour bar at the most (round values, first and last at its ends)
BAR_LABELS = 7
#: a support spring's drawn length, and its zigzag's half width, as fractions of the
#: block height
SPRING_FRACTION, SPRING_WIDTH = 0.1, 0.02
#: the springs' depth (m) toward the camera: in front of an arrow at the same node (the
#: arrow's tip is ~0.04 m thick)
SPRING_Z = 0.1


class BlockMotion(Protocol):
    """Where the block is at each instant."""

    reference: Any

    def at(self, t: float) -> Any:
        """A dataset on the reference mesh with point data ``u`` (and maybe stresses)."""
        ...


class FieldMotion:
    """The block's motion and stresses from the FEM field series."""

    def __init__(self, series: FieldSeries):
        self.series = series
        self.reference = series.reference

    def at(self, t: float) -> Any:
        """The interpolated fields at ``t``."""
        return self.series.at(t)


def blend_notes(between: tuple[float, float] | None, data: Mapping[str, Any],
                history: Mapping[str, np.ndarray]) -> list[str]:
    """Lines that say a picture's fields are a blend of two output times ``between`` (s),
    and what contact change the blend spans: an impact (results.json ``collisions``, the
    kinetic-energy maximum before it) or, failing that, a change of the closed contacts
    (history ``CONTACTS``) over the samples between them: at 0.05446 s of sdnv105a, after
    impact 1, the stresses are those of 0.0525 and 0.055 s blended, which "t = 0.05446 s"
    alone does not say."""
    if between is None:
        return []
    t0, t1 = between
    lines = [f"fields interpolated between {t0:.6g} and {t1:.6g} s"]
    hit = next((c for c in interior(list(data.get("collisions") or []))
                if isinstance(c.get("time"), int | float) and t0 < c["time"] <= t1), None)
    if hit is not None:
        return [*lines, f"(impact {hit.get('index', '?')} at {hit['time']:.6g} s lies "
                        "between them)"]
    time, contacts = history.get("time"), history.get("CONTACTS")
    if time is not None and contacts is not None:
        inside = np.asarray(contacts)[(np.asarray(time) >= t0) & (np.asarray(time) <= t1)]
        if inside.size and np.any(inside != inside[0]):
            lines.append(f"(contacts open or close between them: {inside.min():g} to "
                         f"{inside.max():g} closed)")
    return lines


class RigidMotion:
    """A rigid block tilted about its pivot corner, from the history's corner lifts."""

    def __init__(self, history: Mapping[str, np.ndarray], half_width: float,
                 half_height: float):
        self.history, self.b = history, half_width
        self.reference = block_mesh(half_width, half_height)

    def at(self, t: float) -> Any:
        """The reference mesh with the rigid displacement ``u`` at ``t``."""
        time = self.history["time"]
        phi = tilt_from_lifts(float(np.interp(t, time, self.history["DY_O"])),
                              float(np.interp(t, time, self.history["DY_A"])), self.b)
        out = self.reference.copy()
        out.point_data["u"] = rigid_displacement(out.points, phi, self.b)
        return out


def block_weight(data: Mapping[str, Any]) -> float:
    """The block's weight M g (N) from ``results.json`` ``parameters`` (``geometry``,
    ``material.block.density``, ``loading.gravity``), the SDNV105 values for what a result
    does not give (4096.7 N); 0 without gravity."""
    parameters = data.get("parameters") or {}
    geometry = parameters.get("geometry") or {}
    shape = Geometry(**{k: float(geometry[k]) for k in ("half_width", "half_height", "thickness")
                        if k in geometry})
    density = ((parameters.get("material") or {}).get("block") or {}).get("density")
    material = block_material() if density is None else replace(block_material(),
                                                                 density=float(density))
    gravity = (parameters.get("loading") or {}).get("gravity", Loading().gravity)
    return block_mass(shape, material) * float(gravity)


def _unit(magnitude: float) -> tuple[float, str]:
    """Divisor and unit name for stresses of this magnitude (Pa)."""
    for divisor, name in ((1e9, "GPa"), (1e6, "MPa"), (1e3, "kPa")):
        if magnitude >= divisor:
            return divisor, name
    return 1.0, "Pa"


class BlockScene(Scene):
    """The block on its table (see the module docstring).

    Args:
        data: the ``results.json`` content (``parameters.geometry`` is used).
        history: the history columns.
        motion: where the block is at each instant.
        field: stress array to colour by, or None for a plain block.
        scale: displacement amplification; None for automatic.
        clim: colour range of the field (Pa), drawn as given; None: the block's 1st to 99th
            percentile over the run, widened to round ticks.

    """

    def __init__(self, data: Mapping[str, Any], history: Mapping[str, np.ndarray],
                 motion: BlockMotion, *, field: str | None, scale: float | None,
                 times: np.ndarray | None = None,
                 clim: tuple[float, float] | None = None):
        super().__init__(data, history)
        geometry = (data.get("parameters") or {}).get("geometry") or {}
        self.b = float(geometry.get("half_width", 0.18))
        self.l = float(geometry.get("half_height", 0.40))
        self.table = (float(geometry.get("table_left", -self.b)),
                      float(geometry.get("table_right", 3 * self.b)),
                      float(geometry.get("table_thickness", 0.08)))
        self.motion, self.field, self.clim = motion, field, clim
        self._times = times
        self.scale = scale if scale is not None else self._auto_scale()
        self.mesh: Any = None
        self._ref_points = np.asarray(motion.reference.points, dtype=float)
        # the table lies below y = 0 (a mesh that has one: A, C, D), the block above
        below = np.asarray(motion.reference.cell_centers().points)[:, 1] < 0.0
        self._block, self._block_points, self._block_cells = self._part(np.flatnonzero(~below))
        self._table, self._table_points, _ = self._part(np.flatnonzero(below))
        self.table_mesh: Any = None
        self._known = self._named_positions()
        self.nodes = {name: xy for name, xy in self._known.items()
                      if f"RN_{name}" in self.history or f"RX_{name}" in self.history}
        #: support springs (parameters.contact.spring) at known points: (node, gap in m)
        self.springs = [(str(s["on"]), float(s.get("gap") or 0.0)) for s in
                        (((data.get("parameters") or {}).get("contact") or {}).get("spring")
                         or []) if str(s.get("on")) in self._known]
        # the arrows' scale: the weight; without gravity, the 99th percentile of the forces
        self.weight = block_weight(data)
        magnitudes = np.concatenate([np.ravel(np.hypot(self.history.get(f"RN_{n}", 0.0),
                                                       self.history.get(f"RX_{n}", 0.0)))
                                     for n in self.nodes] or [np.zeros(1)])
        self.force_unit = (self.weight if self.weight > 0
                           else float(np.percentile(magnitudes, 99.0)))
        self.force_scale = (ARROW_FRACTION * 2 * self.l / self.force_unit
                            if self.force_unit > 0 else 0.0)
        # the longest arrow the run draws (the camera keeps room for it below the table)
        self._longest_arrow = min(float(magnitudes.max()) * self.force_scale,
                                  CLIP_WEIGHTS * ARROW_FRACTION * 2 * self.l)

    @property
    def times(self) -> np.ndarray:
        """Output instants of the fields, or the history's."""
        return self._times if self._times is not None else super().times

    def _auto_scale(self) -> float:
        lift = self.peak(["DY_O", "DY_A"])
        if lift == 0.0 and isinstance(self.motion, FieldMotion):
            series = self.motion.series
            lift = max(float(np.abs(series.dataset(i).point_data["u"]).max())
                       for i in range(series.times.size))
        return nice_factor(LIFT_FRACTION * 2 * self.l / lift) if lift > 0 else 1.0

    def _named_positions(self) -> dict[str, np.ndarray]:
        """The block's named points and ``extra.node_positions``: name -> (x, y, 0)."""
        layout = ((self.data.get("parameters") or {}).get("mesh") or {}).get("layout")
        mesh = MeshSpec(layout=layout or "structured", table=False)
        known = {p.name: (p.x, p.y) for p in named_points(
            Geometry(half_width=self.b, half_height=self.l), mesh)}
        known.update({k: tuple(v) for k, v in
                      ((self.data.get("extra") or {}).get("node_positions") or {}).items()})
        return {name: np.array([xy[0], xy[1], 0.0]) for name, xy in known.items()}

    def _part(self, cells: np.ndarray) -> tuple[Any, np.ndarray, np.ndarray]:
        """The reference mesh's ``cells`` as a mesh of their own without data (None for
        no cells), and the indices in the reference mesh of its points and of its cells."""
        if not cells.size:
            return None, np.arange(0), np.arange(0)
        part = self.motion.reference.extract_cells(cells)
        points = np.asarray(part.point_data["vtkOriginalPointIds"], dtype=int)
        kept = np.asarray(part.cell_data["vtkOriginalCellIds"], dtype=int)
        part.clear_data()
        return part, points, kept

    def _nearest_point(self, position: np.ndarray) -> int:
        """The block's mesh point nearest ``position`` (not the table's below it)."""
        block = self._ref_points[self._block_points]
        return int(self._block_points[np.argmin(np.linalg.norm(block - position, axis=1))])

    def _drawn_extent(self) -> tuple[np.ndarray, np.ndarray]:
        """Lower-left and upper-right corners (x, y; drawing units) of what the amplified
        block covers over the run: the camera keeps it in the picture (a block that slides
        off its table, turned by 0.7 rad, would be drawn half outside)."""
        if isinstance(self.motion, FieldMotion):
            series = self.motion.series  # its datasets are cached: the colour range reads them
            states = (series.dataset(i) for i in range(series.times.size))
        else:
            t = self.times
            picked = np.unique(np.linspace(0, t.size - 1, min(t.size, EXTENT_SAMPLES)).astype(int))
            states = (self.motion.at(float(t[i])) for i in picked)
        lo, hi = self._ref_points[:, :2].min(axis=0), self._ref_points[:, :2].max(axis=0)
        for state in states:
            drawn = (self._ref_points + self.scale * displacement_3d(state.point_data["u"]))[:, :2]
            lo, hi = np.minimum(lo, drawn.min(axis=0)), np.maximum(hi, drawn.max(axis=0))
        return lo, hi

    def bounds(self) -> tuple[float, float, float, float, float, float]:
        left, right, thick = self.table
        arrow = self._longest_arrow
        lo, hi = self._drawn_extent()
        xmin = min(left, -0.1 * self.b, float(lo[0])) - 0.05
        xmax = max(right, 2.1 * self.b, float(hi[0])) + 0.05
        if self.field is not None:
            # room for the colour bar on the right: a table wider than the block is tall
            # (b = 0.25 m, l = 0.3 m on a 1.1 m table) would run under it
            xmax = xmin + (xmax - xmin) / BAR_X
        below = max(thick, SPRING_FRACTION * 2 * self.l) if self.springs else thick
        return (xmin, xmax, min(-below - arrow, float(lo[1])) - 0.03,
                max(2 * self.l * 1.12, float(hi[1]) + 0.05), 0.0, 0.0)

    def build(self) -> None:
        from rocking_contact.viz.pv import pyvista as pv

        pl = self.plotter
        left, right, thick = self.table
        if self._table is not None:  # the mesh's own table, grey: the block alone is coloured
            self.table_mesh = self._table.copy()
            pl.add_mesh(self.table_mesh, color=TABLE_COLOUR, show_edges=True,
                        edge_color="#7F7F7F", name="table", lighting=False)
        elif self.springs:  # a block on springs, no table: their ground plates
            height = SPRING_FRACTION * 2 * self.l
            for name, _ in self.springs:
                x = float(self._known[name][0])
                plate = pv.Box((x - 2.5 * SPRING_WIDTH * 2 * self.l,
                                x + 2.5 * SPRING_WIDTH * 2 * self.l,
                                -height - 0.01 * 2 * self.l, -height, -1e-3, -1e-3))
                pl.add_mesh(plate, color=SUPPORT_COLOUR, name=f"ground_{name}", lighting=False)
        else:  # the mesh has no table: draw one
            table = pv.Box((left, right, -thick, 0.0, -1e-3, -1e-3))
            pl.add_mesh(table, color=TABLE_COLOUR, name="table", lighting=False)
        self.mesh = self._block.copy()
        outline = self.mesh.extract_surface(algorithm=None).extract_feature_edges(
            boundary_edges=True, feature_edges=False, manifold_edges=False,
            non_manifold_edges=False)
        pl.add_mesh(outline, color="#7F7F7F", line_width=1.5, name="reference")
        if self.field is None:
            pl.add_mesh(self.mesh, color=BLOCK_COLOUR, show_edges=True, edge_color="#6B5B45",
                        lighting=False,
                        name="block")
        else:
            self._add_coloured_block()
        pl.add_text(f"displacements x {self.scale:g}", position="lower_right",
                    font_size=self.font(TEXT_FONT), color="black", name="scale")

    def _add_coloured_block(self) -> None:
        assert self.field is not None  # the block is coloured only for a field
        words, cmap, symmetric = FIELD_STYLE.get(self.field, (self.field, "viridis", False))
        first = self.motion.at(self.t_start)
        self._on_points = self.field in first.point_data.keys()
        lo, hi = self.clim if self.clim is not None else self._range()
        self._divisor, unit = _unit(max(abs(lo), abs(hi)))
        target = self.mesh.point_data if self._on_points else self.mesh.cell_data
        target["display"] = self._block_values(first)
        clim = (lo / self._divisor, hi / self._divisor)
        if symmetric:
            half = max(abs(clim[0]), abs(clim[1]))
            clim = (-half, half)
        labels, fmt = 5, "%.3g"
        if self.clim is None:  # the automatic range, widened to round ticks
            ticks = nice_ticks(*clim, most=BAR_LABELS)
            clim, labels = (float(ticks[0]), float(ticks[-1])), ticks.size
            step = (ticks[-1] - ticks[0]) / max(ticks.size - 1, 1)
            fmt = f"%.{max(0, -math.floor(math.log10(step) + 1e-9))}f" if step > 0 else fmt
        self.plotter.add_mesh(
            self.mesh, scalars="display", cmap=cmap, clim=clim, show_edges=True,
            edge_color="#555555", name="block", preference="point" if self._on_points else "cell",
            lighting=False,
            scalar_bar_args={"title": f"{words}\n({unit})\n", "vertical": True,
                             "position_x": BAR_X + 0.02, "position_y": 0.25,
                             "height": 0.5, "n_labels": labels,
                             "width": 0.08, "fmt": fmt, "title_font_size": self.font(14),
                             "label_font_size": self.font(13), "color": "black"})

    def _range(self) -> tuple[float, float]:
        """The field's range on the block over every output: pictures at any instant
        compare."""
        assert isinstance(self.motion, FieldMotion)  # only fields carry stresses
        assert self.field is not None
        where = self._block_points if self._on_points else self._block_cells
        lo, hi = self.motion.series.value_range(self.field, percentile=99.0, where=where)
        return (lo, hi) if hi > lo else (lo - 1.0, hi + 1.0)

    def _block_values(self, state: Any) -> np.ndarray:
        """The field on the block's points or cells of ``state``, in the display unit."""
        assert self.field is not None
        values = (state.point_data if self._on_points else state.cell_data)[self.field]
        where = self._block_points if self._on_points else self._block_cells
        shown: np.ndarray = np.asarray(values, dtype=float)[where] / self._divisor
        return shown

    def move(self, t: float) -> list[str]:
        state = self.motion.at(t)
        u = displacement_3d(state.point_data["u"])
        drawn = self._ref_points + self.scale * u
        self.mesh.points = drawn[self._block_points]
        if self.table_mesh is not None:
            self.table_mesh.points = drawn[self._table_points]
        if self.field is not None:
            data = self.mesh.point_data if self._on_points else self.mesh.cell_data
            data["display"][:] = self._block_values(state)
        self.mesh.Modified()
        self._draw_springs(u)
        between = (self.motion.series.between(t) if isinstance(self.motion, FieldMotion)
                   else None)
        return [*blend_notes(between, self.data, self.history),
                *self._draw_reactions(t, state, u)]

    def _draw_springs(self, u: np.ndarray) -> None:
        """Each support spring from its ground plate (at its node's rest x) up to its node
        as drawn, or to its gap (amplified) when the node is above: a shock spring pushes,
        it never pulls the node down."""
        height = SPRING_FRACTION * 2 * self.l
        for name, gap in self.springs:
            rest = self._known[name]
            node = rest + self.scale * u[self._nearest_point(rest)]
            top = np.array([node[0], min(node[1], -self.scale * gap), SPRING_Z])
            foot = np.array([rest[0], -height, SPRING_Z])
            self.plotter.add_mesh(zigzag(foot, top, SPRING_WIDTH * 2 * self.l,
                                         np.array([1.0, 0.0, 0.0]), coils=4),
                                  color=SPRING_COLOUR, line_width=2, name=f"spring_{name}")

    def _draw_reactions(self, t: float, state: Any, u: np.ndarray) -> list[str]:
        """Arrows of the reactions at ``t``; returns their values as text lines."""
        if "reaction" in state.point_data.keys():
            forces = displacement_3d(state.point_data["reaction"])
            idx = np.flatnonzero(np.linalg.norm(forces, axis=1) > 0)
            heads = self._ref_points[idx] + self.scale * u[idx]
            forces = forces[idx]
            names: list[str] = []
        else:
            nearest = [self._nearest_point(p) for p in self.nodes.values()]
            heads = np.array([self.nodes[n] + self.scale * u[i]
                              for n, i in zip(self.nodes, nearest)]).reshape(-1, 3)
            # RN pushes the block up; RX is the force of the block on the table: the
            # table's force on the block is (-RX, RN).
            forces = np.array([[-self.value(f"RX_{n}", t), self.value(f"RN_{n}", t), 0.0]
                               for n in self.nodes]).reshape(-1, 3)
            names = list(self.nodes)
        vectors = forces * self.force_scale
        cap = CLIP_WEIGHTS * ARROW_FRACTION * 2 * self.l  # impact peaks: value in the text
        lengths = np.linalg.norm(vectors, axis=1, keepdims=True)
        clipped = lengths[:, 0] > cap
        drawn = lengths[:, 0] > 0  # a zero force is no arrow (VTK drew a point there)
        if drawn.any():
            vectors = np.where(clipped[:, None], vectors * cap / np.maximum(lengths, 1e-300),
                               vectors)[drawn]
            self.plotter.add_mesh(arrows(heads[drawn] - vectors, vectors), color=ARROW_COLOUR,
                                  name="reactions")
        else:
            self.plotter.remove_actor("reactions")
        if not names:
            return []
        # + 0.0: a zero force reads 0.0, not -0.0
        lines = [f"{n}: RN {f[1] + 0.0:9.1f}   RX {-f[0] + 0.0:9.1f}" + (" >" if c else "")
                 for n, f, c in zip(names, forces, clipped)]
        which = "M g" if self.weight > 0 else "99th percentile"
        scale = (f"arrows: {ARROW_FRACTION:g} block height = {which} = "
                 f"{self.force_unit:.0f} N" + (f", > clipped at {CLIP_WEIGHTS:g} x"
                                               if clipped.any() else ""))
        return ["contact forces (N): RN on the block,", "RX of the block on the table",
                *lines, scale]
