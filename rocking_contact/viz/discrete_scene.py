"""The spring-mass scene of a discrete case: masses, springs, obstacles and shock forces.

Drawn from the resolved case (``parameters.model``) and the history: nodes with mass are
spheres (at their ``position``; those that share one moved apart, :func:`spread_out`),
nodes without free dof small grey cubes, springs zigzags (a one-node spring goes to a
ground anchor on the side away from the node's obstacle), obstacles walls normal to their
shock, and each shock's normal force an arrow pushing the node back.

Discrete motions are small next to any length of the model (millimetres for SDND100), so
the drawing has its own length unit U (the largest distance between nodes, or a unit
drawing for one node) and displacements are amplified to make the largest one 0.3 U.
A wall stands where the amplified node touches it (sphere radius plus the amplified gap);
a preloaded shock (gap < 0) is drawn touching at rest.

A model that lies in a plane of the axes is drawn in that plane with its own axes: x
right and y up for an x-y model (SDND101, SDND102), x right and z up for x-z, y right and
z up for y-z. It lies in one when its nodes' rest positions, the axes its nodes move along,
its obstacles' normals and its one-axis springs use two axes at most (two masses moving
along x and y, a wall normal to y). Otherwise the camera looks across the motion: the
motion's main direction d (the leading singular vector of the recorded displacements) runs
left to right, and the first obstacle's normal n points up when it is not along d (SDND100:
motion along x = y, a plane normal to z), so that both the motion and the wall are seen
edge-on; with no normal across d, d runs right with the obstacle on its right in an x-y
view (x-z when d is near z). When that view would look along the line of two masses
(their spheres overlapping on the screen: a frame's storeys stacked along y over a
friction pad normal to z, listed first), the masses' own spread across d is drawn up
instead (y up, seen along z), and an obstacle normal to the line of sight is then seen
face-on, translucent (it would hide its mass when it stands between it and the camera).
Masses on a line along d (nothing across it to draw up), or whose spread does not part
them either, keep the view across the motion: masses nearer each other along d than
their spheres' diameter overlap in any view with d to the right.

A one-node spring goes to its ground anchor along its own axis when its stiffness acts
along one axis (``[0, k, 0]``: along y), else along its node's main direction of motion
(the model's when the node does not move); on the side away from the node's obstacle, on
the left (below) of a node without one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from rocking_contact.viz.scene import LABEL_FONT, TEXT_FONT, Scene, arrows, nice_factor

MASS_COLOUR, SUPPORT_COLOUR, SPRING_COLOUR = "#0072B2", "#7F7F7F", "#333333"
WALL_COLOUR, FORCE_COLOUR = "#9A9A9A", "#D55E00"
#: drawn sizes as fractions of the drawing unit U
RADIUS, MOTION, ANCHOR_DISTANCE, FORCE_LENGTH, COILS = 0.12, 0.3, 1.0, 0.5, 8
#: the planes of the axes a model may be drawn in: (screen right, screen up), in this order
PLANES = ((0, 1), (0, 2), (1, 2))
#: an axis counts as used beyond this fraction of the largest component (of the model's
#: directions, or of the displacements along the axes: not their rounding)
MOVES = 1e-6
#: the opacity of a wall seen face-on (its normal within 60 degrees of the line of sight),
#: which would hide its mass and those beside it when it stands between them and the camera
FACE_ON_OPACITY, FACE_ON_COS = 0.25, 0.5
#: the spread of the masses across the motion (a fraction of U), and the sine of a
#: direction's angle to the motion, below which there is none to draw up: round-off
ACROSS = 1e-6


def zigzag(a: np.ndarray, b: np.ndarray, width: float, side: np.ndarray,
           coils: int = COILS) -> Any:
    """A spring drawn as a zigzag polyline from ``a`` to ``b``, its teeth along ``side``
    (made perpendicular to the spring; the screen's up direction keeps them visible)."""
    from rocking_contact.viz.pv import pyvista as pv

    axis = b - a
    length = float(np.linalg.norm(axis))
    direction = axis / length if length > 0 else np.array([1.0, 0.0, 0.0])
    side = np.asarray(side, dtype=float) - np.dot(side, direction) * direction
    if np.linalg.norm(side) < 1e-9:  # a spring along the screen's up direction
        side = np.cross(direction, [0.0, 0.0, 1.0]) if abs(direction[2]) < 0.9 else np.array(
            [1.0, 0.0, 0.0])
    side /= np.linalg.norm(side)
    s = np.concatenate([[0.0, 0.1], np.linspace(0.15, 0.85, 2 * coils + 1), [0.9, 1.0]])
    teeth = np.arange(2 * coils + 1)
    offsets = np.zeros_like(s)
    offsets[2:-2] = width * np.where(teeth % 2 == 0, 0.0, np.where(teeth % 4 == 1, 1.0, -1.0))
    points = a + np.outer(s, axis) + np.outer(offsets, side)
    return pv.lines_from_points(points)


def spread_out(rest: dict[str, np.ndarray],
               normals: Sequence[np.ndarray] = ()) -> dict[str, np.ndarray]:
    """Rest positions (m) with a node that would sit on an earlier one moved 1 m at a time
    (the drawing unit of an unpositioned model) until it sits alone: ``position`` is
    optional and for drawings only, and two masses left at the origin would be drawn as
    one.
    They move across the shocks' ``normals`` (along y, else x, else z: the axis the
    normals use least), so that no mass lands on another's obstacle or spring anchor,
    which lie along the normals."""
    use = np.sum([np.abs(n) / np.linalg.norm(n) for n in normals], axis=0) \
        if len(normals) else np.zeros(3)
    axis = np.eye(3)[min((1, 0, 2), key=lambda i: use[i])]
    out: dict[str, np.ndarray] = {}
    for name, p in rest.items():
        place = p.copy()
        while any(np.allclose(place, q) for q in out.values()):
            place = place + axis
        out[name] = place
    return out


def _largest_positive(direction: np.ndarray) -> np.ndarray:
    """A direction (a singular vector: its sign undecided) turned so that its largest
    component is positive."""
    oriented: np.ndarray = direction * np.sign(direction[np.argmax(np.abs(direction))])
    return oriented


class DiscreteScene(Scene):
    """Masses, springs, obstacles and shock forces (see the module docstring).

    Args:
        data: the ``results.json`` content of a discrete case.
        history: the history columns (``D*_<node>``, ``FN_<shock>``).
        scale: displacement amplification; None for automatic.

    """

    def __init__(self, data: Mapping[str, Any], history: Mapping[str, np.ndarray], *,
                 scale: float | None = None):
        super().__init__(data, history)
        model = data["parameters"]["model"]
        self.nodes = {n["name"]: n for n in model["node"]}
        self.springs = model.get("spring") or []
        self.shocks = model.get("shock") or []
        self.rest = spread_out({name: np.asarray(n.get("position", (0, 0, 0)), dtype=float)
                                for name, n in self.nodes.items()},
                               [np.asarray(sh["normal"], dtype=float) for sh in self.shocks])
        spread = [np.linalg.norm(p - q) for p in self.rest.values() for q in self.rest.values()]
        self.unit = max(spread, default=0.0) or 1.0
        motion = self.peak([c for c in history if c[:2] in ("DX", "DY", "DZ")])
        self.scale = scale if scale is not None else (
            nice_factor(MOTION * self.unit / motion) if motion > 0 else 1.0)
        self.along, self.up, self.view = self._frame()
        peak_force = self.peak([f"FN_{s['name']}" for s in self.shocks])
        self.force_scale = FORCE_LENGTH * self.unit / peak_force if peak_force > 0 else 0.0
        self._actors: dict[str, Any] = {}

    def position(self, node: str, t: float) -> np.ndarray:
        """Drawn position of ``node`` at ``t``: rest position plus amplified displacement."""
        d = [self.value(f"{c}_{node}", t) for c in ("DX", "DY", "DZ")]
        return self.rest[node] + self.scale * np.asarray(d)

    def _unit_normal(self, shock: Mapping[str, Any]) -> np.ndarray:
        n = np.asarray(shock["normal"], dtype=float)
        return n / np.linalg.norm(n)

    def _main_direction(self, nodes: Sequence[str]) -> np.ndarray | None:
        """Unit main direction of some nodes' displacements (the leading singular vector of
        their samples, sign undecided); None when they do not move."""
        samples = [np.column_stack([self.history.get(f"{c}_{n}", np.zeros_like(self.times))
                                    for c in ("DX", "DY", "DZ")]) for n in nodes]
        motion = np.vstack(samples) if samples else np.zeros((1, 3))
        if not np.any(motion):
            return None
        direction: np.ndarray = np.linalg.svd(motion, full_matrices=False)[2][0]
        return direction

    def _motion_direction(self) -> np.ndarray:
        """Unit main direction of the displacements, its largest component positive (x when
        nothing moves)."""
        direction = self._main_direction(list(self.nodes))
        if direction is None:
            return np.array([1.0, 0.0, 0.0])
        return _largest_positive(direction)

    def _axes_used(self) -> list[int]:
        """The axes (0, 1, 2 for x, y, z) the model uses: its nodes' rest offsets, the
        directions its nodes move along, its obstacles' normals, its one-axis springs."""
        offsets = [p - q for p in self.rest.values() for q in self.rest.values()]
        directions = [o / np.linalg.norm(o) for o in offsets if np.any(o)]
        directions += [self._unit_normal(s) for s in self.shocks]
        directions += [axis for s in self.springs if (axis := self._spring_axis(s)) is not None]
        moves = np.array([self.peak([f"{c}_{n}" for n in self.nodes]) for c in ("DX", "DY", "DZ")])
        directions.append(moves / moves.max() if moves.max() > 0 else moves)
        used = np.max(np.abs(np.array(directions)), axis=0)
        return [i for i in range(3) if used[i] > MOVES]

    def _frame(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(along, up, view): screen right, screen up and camera direction, unit vectors."""
        used = self._axes_used()
        for right, top in PLANES:
            if set(used) <= {right, top}:
                along, upward = np.eye(3)[right], np.eye(3)[top]
                return along, upward, np.cross(along, upward)
        along, up, view = self._across_motion()
        if self._apart(along, up):
            return along, up, view
        # the view looks along the line of some masses (4 storeys stacked along y, the
        # first shock a pad normal to z): the masses' own spread is drawn up instead,
        # unless they have none across the motion (all in a line along it) or it parts
        # them no better: the first frame then stays, which has a camera direction
        spread = self._spread_across(along)
        if spread is None or not self._apart(along, spread):
            return along, up, view
        return along, spread, np.cross(along, spread)

    def _apart(self, along: np.ndarray, up: np.ndarray) -> bool:
        """Whether the masses at distinct rest positions are drawn apart on a screen with
        these axes: their spheres (radius :data:`RADIUS` U) do not overlap."""
        points = np.array(list(self.rest.values()))
        screen = points @ np.column_stack([along, up])
        for i in range(len(points)):
            for j in range(i):
                if (np.linalg.norm(points[i] - points[j]) > 0
                        and np.linalg.norm(screen[i] - screen[j]) < 2 * RADIUS * self.unit):
                    return False
        return True

    def _spread_across(self, along: np.ndarray) -> np.ndarray | None:
        """The unit direction across ``along`` in which the rest positions spread most (the
        leading singular vector of their offsets from their centre, less their part along
        ``along``), its largest component positive: y up for masses stacked along y. None
        when they do not spread across it (all on a line along ``along``: the singular
        vector of zero offsets is any, and the view along ``along`` x it would be zero)."""
        points = np.array(list(self.rest.values()))
        offsets = points - points.mean(axis=0)
        offsets -= np.outer(offsets @ along, along)
        _, spreads, directions = np.linalg.svd(offsets, full_matrices=False)
        if spreads[0] <= ACROSS * self.unit:
            return None
        spread = _largest_positive(directions[0])
        if np.linalg.norm(np.cross(along, spread)) < ACROSS:
            return None
        return spread

    def _across_motion(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(along, up, view) of a model in no plane of the axes, seen across its motion
        (see the module docstring)."""
        d = self._motion_direction()
        normals = [self._unit_normal(s) for s in self.shocks]
        if normals and np.linalg.norm(np.cross(d, normals[0])) > 1e-6:
            n = normals[0]
            up = n - np.dot(n, d) * d
            up /= np.linalg.norm(up)
            return d, up, np.cross(d, up)
        if normals and np.dot(d, normals[0]) < 0:
            d = -d  # the obstacle on the right
        view = np.array([0.0, 0.0, 1.0]) if abs(d[2]) < 0.9 else np.array([0.0, 1.0, 0.0])
        up = np.cross(view, d)
        return d, up / np.linalg.norm(up), view

    def camera_axes(self) -> tuple[np.ndarray, np.ndarray]:
        return self.view, self.up

    @staticmethod
    def _spring_axis(spring: Mapping[str, Any]) -> np.ndarray | None:
        """The unit axis of a one-node spring whose stiffness acts along one axis only."""
        k = np.abs(np.asarray(spring.get("stiffness") or (0.0, 0.0, 0.0), dtype=float))
        if len(spring["nodes"]) != 1 or np.count_nonzero(k) != 1:
            return None
        axis: np.ndarray = np.eye(3)[int(np.argmax(k))]
        return axis

    def _node_direction(self, node: str) -> np.ndarray:
        """Unit main direction of a node's displacements (the drawing's ``along`` when the
        node does not move), pointing right, else up, on the screen."""
        direction = self._main_direction([node])
        if direction is None:
            return self.along
        screen = (np.dot(direction, self.along), np.dot(direction, self.up))
        lead = screen[0] if abs(screen[0]) > 1e-9 else screen[1]
        return direction if lead >= 0 else -direction

    def _anchor(self, spring: Mapping[str, Any]) -> np.ndarray:
        """Ground end of a one-node spring: along its axis (its node's motion when it has
        none, see the module docstring), on the side away from the node's obstacle (a mass
        pushed to the right stop had its spring cross that wall), on the left (below) of a
        node without one."""
        node = spring["nodes"][0]
        axis = self._spring_axis(spring)
        if axis is None:
            axis = self._node_direction(node)
        elif np.dot(axis, self.along) < -1e-9 or np.dot(axis, self.up) < -1e-9:
            axis = -axis
        toward = [float(np.dot(self._unit_normal(s), axis)) for s in self.shocks
                  if s["node"] == node]
        side = -1.0 if not toward or abs(toward[0]) < 1e-9 else -float(np.sign(toward[0]))
        end: np.ndarray = self.rest[node] + side * ANCHOR_DISTANCE * self.unit * axis
        return end

    def bounds(self) -> tuple[float, float, float, float, float, float]:
        pts = list(self.rest.values())
        pts += [self._anchor(s) for s in self.springs if len(s["nodes"]) == 1]
        pts += [self.rest[s["node"]] + (RADIUS * self.unit + 0.3 * self.unit)
                * self._unit_normal(s) for s in self.shocks]
        points = np.array(pts)
        margin = 0.6 * self.unit
        lo, hi = points.min(axis=0) - margin, points.max(axis=0) + margin
        return (lo[0], hi[0], lo[1], hi[1], lo[2], hi[2])

    def _plate(self, centre: np.ndarray, normal: np.ndarray, length: float,
                thickness: float) -> Any:
        """A plate normal to ``normal`` (walls, ground anchors), seen edge-on: ``length``
        across the screen, ``thickness`` along ``normal`` (drawing units)."""
        from rocking_contact.viz.pv import pyvista as pv

        across = np.cross(self.view, normal)
        across = across / np.linalg.norm(across) if np.linalg.norm(across) > 1e-9 else self.up
        depth = np.cross(normal, across)
        plate = pv.Cube(x_length=thickness, y_length=length, z_length=0.3 * self.unit)
        frame = np.eye(4)
        frame[:3, :3] = np.column_stack([normal, across, depth])
        frame[:3, 3] = centre
        return plate.transform(frame, inplace=False)

    def build(self) -> None:
        from rocking_contact.viz.pv import pyvista as pv

        pl, r = self.plotter, RADIUS * self.unit
        for shock in self.shocks:
            n = self._unit_normal(shock)
            gap = max(float(shock.get("gap", 0.0)), 0.0)
            centre = self.rest[shock["node"]] + (r + self.scale * gap + 0.015 * self.unit) * n
            face_on = abs(float(np.dot(n, self.view))) > FACE_ON_COS
            pl.add_mesh(self._plate(centre, n, 1.2 * self.unit, 0.03 * self.unit),
                        color=WALL_COLOUR, opacity=FACE_ON_OPACITY if face_on else 1.0,
                        name=f"wall_{shock['name']}")
        for spring in self.springs:
            if len(spring["nodes"]) == 1:
                anchor = self._anchor(spring)
                axis = anchor - self.rest[spring["nodes"][0]]
                pl.add_mesh(self._plate(anchor, axis / np.linalg.norm(axis), 0.4 * self.unit,
                                        0.06 * self.unit),
                            color=SUPPORT_COLOUR, name=f"ground_{spring['name']}")
        for name, node in self.nodes.items():
            free = len(node.get("fixed") or []) < 3
            body = pv.Sphere(radius=r, center=(0, 0, 0)) if free else pv.Cube(
                x_length=1.2 * r, y_length=1.2 * r, z_length=1.2 * r)
            self._actors[name] = pl.add_mesh(body, color=MASS_COLOUR if free else SUPPORT_COLOUR,
                                             smooth_shading=True, name=f"node_{name}")
            pl.add_point_labels([self.rest[name] + 1.6 * r * self.up], [name],
                                font_size=self.font(LABEL_FONT), text_color="black", shape=None,
                                show_points=False, name=f"label_{name}",
                                always_visible=True)
        pl.add_text(f"displacements x {self.scale:g}", position="lower_right",
                    font_size=self.font(TEXT_FONT), color="black", name="scale")

    def move(self, t: float) -> list[str]:
        pl, r = self.plotter, RADIUS * self.unit
        where = {name: self.position(name, t) for name in self.nodes}
        for name, actor in self._actors.items():
            actor.position = where[name]
        for spring in self.springs:
            ends = [where[n] for n in spring["nodes"]]
            a = ends[0] if len(ends) == 2 else self._anchor(spring)
            b = ends[-1]
            # teeth across the spring in the screen's plane (the screen's up for a spring
            # pointing at the camera)
            teeth = np.cross(self.view, b - a)
            side = teeth if np.linalg.norm(teeth) > 1e-9 * self.unit else self.up
            pl.add_mesh(zigzag(a, b, 0.05 * self.unit, side), color=SPRING_COLOUR,
                        line_width=2,
                        name=f"spring_{spring['name']}")
        lines = []
        for name in self.nodes:
            recorded = [c for c in ("DX", "DY", "DZ") if f"{c}_{name}" in self.history]
            if recorded:
                lines.append(f"{name}: " + "  ".join(
                    f"{c} {self.value(f'{c}_{name}', t):+.4e} m" for c in recorded))
        for shock in self.shocks:
            fn = self.value(f"FN_{shock['name']}", t)
            lines.append(f"shock {shock['name']}: FN {fn:.1f} N")
            n = self._unit_normal(shock)
            if fn > 0 and self.force_scale > 0:
                vector = -n * fn * self.force_scale
                tail = where[shock["node"]] + r * n - vector
                pl.add_mesh(arrows(tail[None, :], vector[None, :]), color=FORCE_COLOUR,
                            name=f"force_{shock['name']}")
            else:
                pl.remove_actor(f"force_{shock['name']}")
        return lines
