"""The discrete scene draws a model lying in a plane of the axes in that plane, with its
axes, and each spring along its real direction."""

import numpy as np
import pytest

from rocking_contact.viz.discrete_scene import FACE_ON_OPACITY, RADIUS, DiscreteScene

T = np.linspace(0.0, 0.1, 101)


def two_masses():
    """The audit's model: NO1 moving along x, NO2 along x and y (mostly x), a wall normal
    to -y under NO2, springs K1 (x, to the ground), K12 (x, NO1 to NO2), KY (y, ground)."""
    model = {"node": [{"name": "NO1", "mass": 10.0, "fixed": ["DY", "DZ"],
                       "position": [0.0, 0.0, 0.0]},
                      {"name": "NO2", "mass": 5.0, "fixed": ["DZ"],
                       "position": [1.0, 0.0, 0.0]}],
             "spring": [{"name": "K1", "nodes": ["NO1"], "stiffness": [1e4, 0.0, 0.0]},
                        {"name": "K12", "nodes": ["NO1", "NO2"],
                         "stiffness": [5e3, 0.0, 0.0]},
                        {"name": "KY", "nodes": ["NO2"], "stiffness": [0.0, 1e4, 0.0]}],
             "shock": [{"name": "CH1", "node": "NO2", "normal": [0.0, -1.0, 0.0],
                        "gap": -1e-3}]}
    history = {"time": T, "DX_NO1": 1e-2 * np.cos(30 * T), "DX_NO2": 6e-3 * np.sin(30 * T),
               "DY_NO2": 7e-4 * np.sin(50 * T) ** 2, "FN_CH1": 300.0 + 0 * T}
    return DiscreteScene({"case": "two", "parameters": {"model": model}}, history)


def screen(scene, point):
    """(right, up) screen coordinates of a point (drawing units)."""
    return np.array([np.dot(point, scene.along), np.dot(point, scene.up)])


def test_an_x_y_model_is_drawn_with_x_right_and_y_up():
    """It was turned into its principal-motion frame: the wall normal to -y stood nearly
    upright, NO2 at (1, 0, 0) was drawn above NO1, and KY ran along the same line as K1."""
    scene = two_masses()
    np.testing.assert_array_equal(scene.along, [1.0, 0.0, 0.0])
    np.testing.assert_array_equal(scene.up, [0.0, 1.0, 0.0])
    np.testing.assert_array_equal(scene.view, [0.0, 0.0, 1.0])
    no1, no2 = screen(scene, scene.rest["NO1"]), screen(scene, scene.rest["NO2"])
    assert no2[0] > no1[0] and no2[1] == no1[1]  # NO2 to the right, level with NO1
    springs = {s["name"]: s for s in scene.springs}
    to_k1 = scene._anchor(springs["K1"]) - scene.rest["NO1"]
    to_ky = scene._anchor(springs["KY"]) - scene.rest["NO2"]
    assert to_k1[0] < 0 and to_k1[1] == to_k1[2] == 0  # K1 to the left, horizontal
    # KY vertical, up: away from the wall, which lies below NO2 (its normal -y)
    assert to_ky[1] > 0 and to_ky[0] == to_ky[2] == 0


def test_a_one_axis_model_along_y_is_drawn_upright():
    """A mass dropping on a floor (motion, spring and normal along y) was laid on its side
    (its motion along the screen's right)."""
    model = {"node": [{"name": "N", "mass": 1.0, "fixed": ["DX", "DZ"]}],
             "spring": [{"name": "K", "nodes": ["N"], "stiffness": [1e4, 1e4, 1e4]}],
             "shock": [{"name": "FLOOR", "node": "N", "normal": [0.0, -1.0, 0.0], "gap": 0.0}]}
    history = {"time": T, "DY_N": -1e-3 * np.abs(np.sin(40 * T)), "FN_FLOOR": 0 * T}
    scene = DiscreteScene({"case": "drop", "parameters": {"model": model}}, history)
    np.testing.assert_array_equal(scene.up, [0.0, 1.0, 0.0])
    to_anchor = scene._anchor(scene.springs[0]) - scene.rest["N"]
    assert to_anchor[1] > 0 and to_anchor[0] == to_anchor[2] == 0  # above, the floor below


@pytest.mark.parametrize(("axes", "along", "up"), [("xz", [1, 0, 0], [0, 0, 1]),
                                                   ("yz", [0, 1, 0], [0, 0, 1])])
def test_a_model_in_another_plane_of_the_axes_is_drawn_in_it(axes, along, up):
    """Two masses set apart along the plane's second axis, moving along its first, a wall
    normal to the first: the plane's first axis right, its second up, seen face-on."""
    first, second = ("xyz".index(c) for c in axes)
    model = {"node": [{"name": "A", "mass": 1.0, "position": [0.0, 0.0, 0.0]},
                      {"name": "B", "mass": 1.0, "position": list(np.eye(3)[second])}],
             "spring": [{"name": "K", "nodes": ["A", "B"]}],
             "shock": [{"name": "S", "node": "A", "normal": list(np.eye(3)[first]),
                        "gap": 1e-3}]}
    column = "D" + "XYZ"[first]
    history = {"time": T, f"{column}_A": 1e-3 * np.sin(30 * T),
               f"{column}_B": 1e-3 * np.cos(30 * T), "FN_S": 0 * T}
    scene = DiscreteScene({"case": axes, "parameters": {"model": model}}, history)
    np.testing.assert_array_equal(scene.along, along)
    np.testing.assert_array_equal(scene.up, up)
    np.testing.assert_array_equal(scene.view, np.cross(along, up))


def shear_frame(positions, pad=(0.0, 0.0, -1.0)):
    """The audit's frame_quake: a base B on a friction pad normal to -z (the first shock,
    SDND100's way), three storeys above it, all moving along x, N3 against a stop normal
    to x; the masses at ``positions`` (None: none given, spread_out sets them apart), the
    pad's normal ``pad``."""
    names = ["B", "N1", "N2", "N3"]
    nodes = [{"name": n, "mass": 1000.0, "fixed": ["DY", "DZ"]} for n in names]
    if positions is not None:
        for node, p in zip(nodes, positions, strict=True):
            node["position"] = p
    model = {"node": nodes,
             "spring": [{"name": "KISO", "nodes": ["B"], "stiffness": [2.4e4, 0.0, 0.0]}]
             + [{"name": f"K{k}", "nodes": [a, b], "stiffness": [1e6, 0.0, 0.0]}
                for k, (a, b) in enumerate(zip(names, names[1:]), start=1)],
             "shock": [{"name": "ISO", "node": "B", "normal": list(pad), "gap": -1.0},
                       {"name": "STOP", "node": "N3", "normal": [1.0, 0.0, 0.0],
                        "gap": 5e-3}]}
    history = {"time": T, "FN_ISO": 49050.0 + 0 * T, "FN_STOP": 0 * T}
    for k, n in enumerate(names):
        history[f"DX_{n}"] = (1 + k) * 1e-3 * np.sin(30 * T)
    return DiscreteScene({"case": "frame", "parameters": {"model": model}}, history)


@pytest.mark.parametrize("positions", [None, [[0.0, 3.0 * k, 0.0] for k in range(4)]])
def test_masses_stacked_across_the_first_normal_are_drawn_apart(positions):
    """All four masses were drawn on one point: the view looked along y, their stacking
    axis, because the first shock's normal (z) was drawn up. Listing the stop first drew
    them apart; the order of the shocks no longer matters."""
    scene = shear_frame(positions)
    np.testing.assert_allclose(scene.along, [1.0, 0.0, 0.0], atol=1e-12)
    # B at the bottom, N3 on top
    np.testing.assert_allclose(scene.up, [0.0, 1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(scene.view, [0.0, 0.0, 1.0], atol=1e-12)
    heights = [screen(scene, scene.rest[n])[1] for n in ("B", "N1", "N2", "N3")]
    assert np.all(np.diff(heights) >= 2 * RADIUS * scene.unit)
    # the stop stays edge-on, to the right of N3
    assert abs(np.dot(scene._unit_normal(scene.shocks[1]), scene.view)) < 1e-12


def test_a_model_seen_across_its_motion_keeps_its_frame_when_its_masses_are_apart():
    """SDND100's frame (motion along x = y, the plane normal to z up) is kept when the
    masses do not hide one another: a second mass beside the first along z."""
    model = {"node": [{"name": "A", "mass": 1.0, "position": [0.0, 0.0, 0.0]},
                      {"name": "B", "mass": 1.0, "position": [0.0, 0.0, 1.0]}],
             "shock": [{"name": "P", "node": "A", "normal": [0.0, 0.0, -1.0], "gap": -1e-3}]}
    history = {"time": T, "DX_A": 1e-3 * np.sin(30 * T), "DY_A": 1e-3 * np.sin(30 * T),
               "DX_B": 1e-3 * np.sin(30 * T), "DY_B": 1e-3 * np.sin(30 * T), "FN_P": 0 * T}
    scene = DiscreteScene({"case": "two", "parameters": {"model": model}}, history)
    np.testing.assert_allclose(scene.along, [2 ** -0.5, 2 ** -0.5, 0.0])
    np.testing.assert_allclose(scene.up, [0.0, 0.0, -1.0])


def test_a_wall_seen_face_on_does_not_hide_the_masses():
    """The pad normal to +z, seen face-on from +z, stood opaque between the camera and B
    (and half of N1); it is translucent, the stop seen edge-on is not."""
    from rocking_contact.viz import render

    scene = shear_frame(None, pad=(0.0, 0.0, 1.0))
    np.testing.assert_allclose(scene.view, [0.0, 0.0, 1.0], atol=1e-12)
    with render.offscreen_plotter((320, 320)) as plotter:
        scene.add_to(plotter)
        assert plotter.actors["wall_ISO"].prop.opacity == FACE_ON_OPACITY
        assert plotter.actors["wall_STOP"].prop.opacity == 1.0


def test_masses_in_a_line_along_the_motion_keep_a_camera_direction():
    """Three masses on a line along x (at 0, 0.1 and 1 m), moving along x, a pad normal to
    -z and a guide normal to y (no plane of the axes): A and B overlap on the screen
    whatever the view across x, and they have no spread across x to draw up. The
    singular vector of their zero offsets was x itself and the view x x x = 0; the
    frame across the motion stays (the pad's normal up)."""
    names, xs = ["A", "B", "C"], [0.0, 0.1, 1.0]
    model = {"node": [{"name": n, "mass": 1.0, "fixed": ["DY", "DZ"], "position": [x, 0.0, 0.0]}
                      for n, x in zip(names, xs, strict=True)],
             "spring": [{"name": "K", "nodes": ["A", "B"], "stiffness": [1e4, 0.0, 0.0]}],
             "shock": [{"name": "PAD", "node": "A", "normal": [0.0, 0.0, -1.0], "gap": -1e-3},
                       {"name": "GUIDE", "node": "C", "normal": [0.0, 1.0, 0.0], "gap": 1e-3}]}
    history = {"time": T, "FN_PAD": 10.0 + 0 * T, "FN_GUIDE": 0 * T}
    for k, n in enumerate(names):
        history[f"DX_{n}"] = (1 + k) * 1e-3 * np.sin(30 * T)
    scene = DiscreteScene({"case": "line", "parameters": {"model": model}}, history)
    np.testing.assert_allclose(scene.along, [1.0, 0.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(scene.up, [0.0, 0.0, -1.0], atol=1e-12)
    np.testing.assert_allclose(scene.view, [0.0, 1.0, 0.0], atol=1e-12)
