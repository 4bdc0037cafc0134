"""The view draws a reaction at every named point of the block with a reaction column."""

import numpy as np

from rocking_contact import results
from rocking_contact.viz import render
from rocking_contact.viz.sample import B, write_sample


def _with_o1(out_dir, rn, rx):
    """The sample (reactions at O and A) with a constant reaction at O1 added."""
    path = out_dir / results.HISTORY_FILE
    history = results.read_history_csv(path)
    history["RN_O1"] = np.full_like(history["time"], rn)
    history["RX_O1"] = np.full_like(history["time"], rx)
    results.write_history_csv(history, path)
    return out_dir


def test_o1s_reaction_is_drawn_beside_o_and_a(tmp_path):
    """Springs at O, O1 and A: the view drew and printed O's and A's reactions only (O1 had
    no known position), though RN_O1 carried 1222 N (the auditor's fall.png)."""
    out = _with_o1(write_sample(tmp_path / "s", end=0.05, fields=False), 1222.0, -35.0)
    scene = render.open_scene(out)
    assert list(scene.nodes) == ["O", "O1", "A"]
    assert np.array_equal(scene.nodes["O1"], [B, 0.0, 0.0])
    with render.offscreen_plotter((320, 320)) as plotter:
        scene.add_to(plotter)
        lines = scene.move(0.0)
        assert "reactions" in plotter.actors
    assert f"O1: RN {1222.0:9.1f}   RX {-35.0:9.1f}" in lines
    assert sum(line.split(":")[0] in scene.nodes for line in lines) == 3


def test_a_history_without_o1_draws_what_it_did(tmp_path):
    scene = render.open_scene(write_sample(tmp_path / "s", end=0.05, fields=False))
    assert list(scene.nodes) == ["O", "A"]
