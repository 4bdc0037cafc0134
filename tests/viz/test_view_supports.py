"""What the block stands on in its view: a table, or (SDNV105 B) its point springs."""

import json

import numpy as np

from rocking_contact.viz import render
from rocking_contact.viz.block_scene import SPRING_FRACTION
from rocking_contact.viz.sample import B, L, write_sample

SMALL = (320, 320)


def _on_springs(out_dir):
    """The sample, as a block on three shock springs at O, O1 and A and no table (B)."""
    path = out_dir / "results.json"
    data = json.loads(path.read_text())
    data["parameters"]["contact"] = {"treatment": "penalty", "spring": [
        {"on": name, "gap": 0.0, "normal_stiffness": 3e10} for name in ("O", "O1", "A")]}
    path.write_text(json.dumps(data))
    return out_dir


def _points(plotter, name):
    return np.asarray(plotter.actors[name].GetMapper().GetInput().GetPoints().GetData())


def test_a_block_on_springs_is_drawn_on_its_springs_not_on_a_table(tmp_path):
    """B's model has no table: its view showed the block on a grey table and no springs.
    Each spring is a vertical zigzag from a ground plate up to its node; A's, whose node
    is lifted, stays at its gap (0) under it: a shock spring does not pull."""
    scene = render.open_scene(_on_springs(write_sample(tmp_path / "s", end=0.05,
                                                       fields=False)))
    assert [name for name, _ in scene.springs] == ["O", "O1", "A"]
    with render.offscreen_plotter(SMALL) as plotter:
        scene.add_to(plotter)
        scene.update(0.01)  # A lifted, the block turning about O
        assert "table" not in plotter.actors
        bottom = -SPRING_FRACTION * 2 * L
        for name, x in (("O", 0.0), ("O1", B), ("A", 2 * B)):
            spring = _points(plotter, f"spring_{name}")
            assert np.isclose(spring[:, 1].min(), bottom), name
            assert np.isclose(spring[0, 0], x), name  # its foot at the node's rest x
            assert f"ground_{name}" in plotter.actors
        corner_a = scene.mesh.points[np.argmin(np.linalg.norm(
            scene.mesh.points - [2 * B, 0.0, 0.0], axis=1))]
        assert corner_a[1] > 0.01  # A drawn lifted (x 10) ...
        assert np.isclose(_points(plotter, "spring_A")[:, 1].max(), 0.0)  # ... its spring not
        assert np.isclose(_points(plotter, "spring_O")[:, 1].max(), 0.0)  # O pivots on its


def test_a_block_on_its_table_has_no_springs(tmp_path):
    scene = render.open_scene(write_sample(tmp_path / "s", end=0.05, fields=False))
    assert scene.springs == []
    with render.offscreen_plotter(SMALL) as plotter:
        scene.add_to(plotter)
        assert "table" in plotter.actors
        assert not any(name.startswith("spring_") for name in plotter.actors)
