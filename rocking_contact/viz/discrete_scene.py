"""The spring-mass scene of a discrete case: masses, springs, obstacles and shock forces.

Drawn from the resolved case (``parameters.model``) and the history: nodes with mass are
spheres, nodes without free dof small grey cubes, springs zigzags (a one-node spring goes
to a ground anchor on the side away from the node's obstacle), obstacles walls normal to
their shock, and each shock's normal force an arrow pushing the node back.

Discrete motions are small next to any length of the model (millimetres for SDND100), so
the drawing has its own length unit U (the largest distance between nodes, or a unit
drawing for one node) and displacements are amplified to make the largest one 0.3 U.
A wall stands where the amplified node touches it (sphere radius plus the amplified gap);
a preloaded shock (gap < 0) is drawn touching at rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from rocking_contact.viz.scene import LABEL_FONT, TEXT_FONT, Scene, arrows, nice_factor

MASS_COLOUR, SUPPORT_COLOUR, SPRING_COLOUR = "#0072B2", "#7F7F7F", "#333333"
WALL_COLOUR, FORCE_COLOUR = "#9A9A9A", "#D55E00"
#: drawn sizes as fractions of the drawing unit U
RADIUS, MOTION, ANCHOR_DISTANCE, FORCE_LENGTH, COILS = 0.12, 0.3, 1.0, 0.5, 8


def zigzag(a: np.ndarray, b: np.ndarray, width: float, coils: int = COILS) -> Any:
    """A spring drawn as a zigzag polyline from ``a`` to ``b``."""
    import pyvista as pv

    axis = b - a
    length = float(np.linalg.norm(axis))
    direction = axis / length if length > 0 else np.array([1.0, 0.0, 0.0])
    side = np.cross(direction, [0.0, 0.0, 1.0])
    if np.linalg.norm(side) < 1e-9:  # a spring along z zigzags along x
        side = np.array([1.0, 0.0, 0.0])
    side /= np.linalg.norm(side)
    s = np.concatenate([[0.0, 0.1], np.linspace(0.15, 0.85, 2 * coils + 1), [0.9, 1.0]])
    offsets = np.zeros_like(s)
    offsets[2:-2] = width * np.where(np.arange(2 * coils + 1) % 2 == 0, 0.0,
                                     np.where(np.arange(2 * coils + 1) % 4 == 1, 1.0, -1.0))
    points = a + np.outer(s, axis) + np.outer(offsets, side)
    return pv.lines_from_points(points)


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
        self.rest = {name: np.asarray(n.get("position", (0, 0, 0)), dtype=float)
                     for name, n in self.nodes.items()}
        spread = [np.linalg.norm(p - q) for p in self.rest.values() for q in self.rest.values()]
        self.unit = max(spread, default=0.0) or 1.0
        motion = self.peak([c for c in history if c[:2] in ("DX", "DY", "DZ")])
        self.scale = scale if scale is not None else (
            nice_factor(MOTION * self.unit / motion) if motion > 0 else 1.0)
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

    def _anchor(self, node: str) -> np.ndarray:
        """Ground end of a one-node spring: away from the node's obstacle, else along -x."""
        away = np.array([-1.0, 0.0, 0.0])
        for shock in self.shocks:
            if shock["node"] == node:
                away = -self._unit_normal(shock)
                break
        return self.rest[node] + ANCHOR_DISTANCE * self.unit * away

    def bounds(self) -> tuple[float, float, float, float, float, float]:
        pts = list(self.rest.values())
        pts += [self._anchor(s["nodes"][0]) for s in self.springs if len(s["nodes"]) == 1]
        pts += [self.rest[s["node"]] + (RADIUS * self.unit + 0.3 * self.unit)
                * self._unit_normal(s) for s in self.shocks]
        pts = np.array(pts)
        margin = 0.6 * self.unit
        lo, hi = pts.min(axis=0) - margin, pts.max(axis=0) + margin
        return (lo[0], hi[0], lo[1], hi[1], lo[2], hi[2])

    def build(self) -> None:
        import pyvista as pv

        pl, r = self.plotter, RADIUS * self.unit
        for shock in self.shocks:
            n = self._unit_normal(shock)
            gap = max(float(shock.get("gap", 0.0)), 0.0)
            centre = self.rest[shock["node"]] + (r + self.scale * gap + 0.015 * self.unit) * n
            wall = pv.Cube(center=centre, x_length=0.03 * self.unit, y_length=1.2 * self.unit,
                           z_length=0.3 * self.unit)
            wall.rotate_vector(np.cross([1.0, 0.0, 0.0], n) if abs(n[0]) < 1 else [0, 0, 1],
                               float(np.degrees(np.arccos(np.clip(n[0], -1, 1)))),
                               point=centre, inplace=True)
            pl.add_mesh(wall, color=WALL_COLOUR, name=f"wall_{shock['name']}")
        for spring in self.springs:
            if len(spring["nodes"]) == 1:
                anchor = self._anchor(spring["nodes"][0])
                pl.add_mesh(pv.Cube(center=anchor, x_length=0.06 * self.unit,
                                    y_length=0.4 * self.unit, z_length=0.3 * self.unit),
                            color=SUPPORT_COLOUR, name=f"ground_{spring['name']}")
        for name, node in self.nodes.items():
            free = len(node.get("fixed") or []) < 3
            body = pv.Sphere(radius=r, center=(0, 0, 0)) if free else pv.Cube(
                x_length=1.2 * r, y_length=1.2 * r, z_length=1.2 * r)
            self._actors[name] = pl.add_mesh(body, color=MASS_COLOUR if free else SUPPORT_COLOUR,
                                             smooth_shading=True, name=f"node_{name}")
            pl.add_point_labels([self.rest[name] + np.array([0, 1.6 * r, 0])], [name],
                                font_size=LABEL_FONT, text_color="black", shape=None,
                                show_points=False, name=f"label_{name}",
                                always_visible=True)
        pl.add_text(f"displacements x {self.scale:g}", position="lower_right",
                    font_size=TEXT_FONT, color="black", name="scale")

    def move(self, t: float) -> list[str]:
        pl, r = self.plotter, RADIUS * self.unit
        where = {name: self.position(name, t) for name in self.nodes}
        for name, actor in self._actors.items():
            actor.position = where[name]
        for spring in self.springs:
            ends = [where[n] for n in spring["nodes"]]
            a = ends[0] if len(ends) == 2 else self._anchor(spring["nodes"][0])
            b = ends[-1]
            pl.add_mesh(zigzag(a, b, 0.05 * self.unit), color=SPRING_COLOUR, line_width=2,
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
