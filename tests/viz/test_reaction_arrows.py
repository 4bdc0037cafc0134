"""The view draws a reaction at every named point of the block with a reaction column."""

import numpy as np

from rocking_contact import results_io
from rocking_contact.viz import render
from rocking_contact.viz.sample import B, write_sample


def _with_o1(out_dir, rn, rx):
    """The sample (reactions at O and A) with a constant reaction at O1 added."""
    path = out_dir / results_io.HISTORY_FILE
    history = results_io.read_history_csv(path)
    history["RN_O1"] = np.full_like(history["time"], rn)
    history["RX_O1"] = np.full_like(history["time"], rx)
    results_io.write_history_csv(history, path)
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


def _arrow_length(plotter):
    """Length (drawing units, m) of the one reaction arrow drawn, a vertical one."""
    _, _, ymin, ymax, _, _ = plotter.actors["reactions"].GetMapper().GetInput().GetBounds()
    return ymax - ymin


def test_arrows_are_scaled_by_the_weight_not_by_the_runs_own_forces(tmp_path):
    """B's ringing springs (43,228 N at the 99th percentile of |R|) drew its 3.6-4.1 kN
    pivot reactions 8 % long: M g / 2 is drawn at the same length whatever else the run
    holds, and a force past 1.5 M g is clipped, its value printed with a '>'."""
    from rocking_contact.viz.block_scene import ARROW_FRACTION, CLIP_WEIGHTS, block_weight
    from rocking_contact.viz.sample import MASS, G, L

    out = write_sample(tmp_path / "s", end=0.05, fields=False)
    path = out / results_io.HISTORY_FILE
    history = results_io.read_history_csv(path)
    t = history["time"]
    ringing = (t > 0.02) & (t < 0.03)  # 20 % of the rows
    history["RN_O"] = np.where(ringing, 0.0, MASS * G / 2)
    history["RX_O"] = np.zeros_like(t)
    history["RN_A"] = np.where(ringing, 43228.0, 0.0)
    history["RX_A"] = np.zeros_like(t)
    results_io.write_history_csv(history, path)
    scene = render.open_scene(out)
    assert block_weight(scene.data) == MASS * G  # the SDNV105 block, as the sample's
    with render.offscreen_plotter((320, 320)) as plotter:
        scene.add_to(plotter)
        lines = scene.move(0.01)
        assert np.isclose(_arrow_length(plotter), ARROW_FRACTION * 2 * L / 2, rtol=1e-5)
        assert not any(line.endswith(">") for line in lines)
        lines = scene.move(0.025)
        assert np.isclose(_arrow_length(plotter), CLIP_WEIGHTS * ARROW_FRACTION * 2 * L,
                          rtol=1e-5)
    assert f"A: RN {43228.0:9.1f}   RX {0.0:9.1f} >" in lines
    assert lines[-1] == "arrows: 0.3 block height = M g = 4097 N, > clipped at 1.5 x"


def test_the_weight_is_the_results_block(tmp_path):
    from rocking_contact.viz.block_scene import block_weight

    data = {"parameters": {"geometry": {"half_width": 0.1, "half_height": 0.5,
                                        "thickness": 2.0},
                           "material": {"block": {"density": 1000.0}},
                           "loading": {"gravity": 10.0}}}
    assert np.isclose(block_weight(data), 4 * 1000.0 * 0.1 * 0.5 * 2.0 * 10.0)
    data["parameters"]["loading"]["gravity"] = 0.0
    assert block_weight(data) == 0.0
