"""Offscreen pyvista views: screenshots are drawn and move with time; movies have their frames."""

import subprocess
import sys

import imageio_ffmpeg
import numpy as np
import pytest
from PIL import Image

from rocking_contact import results
from rocking_contact.cli import main
from rocking_contact.viz import render

#: a picture is "not blank" above this grey-level standard deviation (0-255)
MIN_STD = 10.0
#: two instants differ when this fraction of the pixels changed
MIN_CHANGED = 0.005
SMALL = (320, 320)


def grey(image):
    return np.asarray(Image.fromarray(np.asarray(image)).convert("L"), dtype=float)


def changed_fraction(a, b):
    return float(np.mean(np.abs(grey(a) - grey(b)) > 8))


@pytest.mark.parametrize("fixture", ["block_dir", "discrete_dir"])
def test_screenshot_is_drawn_and_two_instants_differ(fixture, request, tmp_path):
    result = request.getfixturevalue(fixture)
    first = tmp_path / "first.png"
    image_a = render.screenshot(render.open_scene(result), first, time=0.0, window_size=SMALL)
    image_b = render.screenshot(render.open_scene(result), tmp_path / "later.png", time=0.02,
                                window_size=SMALL)
    on_disk = np.asarray(Image.open(first).convert("RGB"))  # a palette PNG: its colours
    assert on_disk.shape[:2] == (SMALL[1], SMALL[0])
    assert grey(on_disk).std() > MIN_STD
    assert changed_fraction(image_a, image_b) > MIN_CHANGED


def test_block_scene_colours_by_the_asked_stress(block_dir, tmp_path):
    vm = render.screenshot(render.open_scene(block_dir, render.ViewOptions(field="von_mises")),
                           tmp_path / "vm.png", time=0.03, window_size=SMALL)
    syy = render.screenshot(render.open_scene(block_dir, render.ViewOptions(field="sigma_yy")),
                            tmp_path / "syy.png", time=0.03, window_size=SMALL)
    plain = render.screenshot(render.open_scene(block_dir, render.ViewOptions(field="none")),
                              tmp_path / "plain.png", time=0.03, window_size=SMALL)
    assert changed_fraction(vm, syy) > MIN_CHANGED
    assert changed_fraction(vm, plain) > MIN_CHANGED


def test_scale_and_reactions_follow_the_history(block_dir):
    scene = render.open_scene(block_dir)
    assert scene.scale == 10  # 8 % of 0.8 m over a 3.6 mm lift, rounded down to 1-2-5
    assert set(scene.nodes) == {"O", "A"}
    explicit = render.open_scene(block_dir, render.ViewOptions(scale=3.0))
    assert explicit.scale == 3.0


def test_gif_has_the_asked_number_of_frames(block_dir, tmp_path):
    path = tmp_path / "rocking.gif"
    assert render.movie(render.open_scene(block_dir), path, frames=7, fps=10,
                        window_size=SMALL) == 7
    with Image.open(path) as gif:
        assert gif.n_frames == 7


def test_mp4_has_the_asked_number_of_frames(discrete_dir, tmp_path):
    path = tmp_path / "bounce.mp4"
    render.movie(render.open_scene(discrete_dir), path, frames=6, fps=10, window_size=(320, 320))
    frames, _ = imageio_ffmpeg.count_frames_and_secs(str(path))
    assert frames == 6


def test_view_command_writes_a_screenshot(block_dir, tmp_path, capsys):
    out = tmp_path / "shot.png"
    assert main(["view", str(block_dir), "--screenshot", str(out), "--time", "0.1",
                 "--window-size", "200", "200", "--field", "sigma_yy"]) == 0
    assert Image.open(out).size == (200, 200)


@pytest.mark.parametrize("args, message", [
    (["view", "{missing}", "--screenshot", "{out}"], "nothing: no such directory (allowed: "
                                                     "a results directory written by run, "),
    # it said '--time -1 is outside the run [0, 0.1] s', no 'allowed:' (audit, session 35)
    (["view", "{block}", "--screenshot", "{out}", "--time", "5"],
     "--time 5: outside the run (allowed: a time in [0, "),
    (["view", "{block}", "--screenshot", "{out}", "--time", "-1"],
     "--time -1: outside the run (allowed: a time in [0, "),
    (["view", "{block}", "--screenshot", "{out}", "--time", "-1"],
     "] s, from its start to its end)\n"),
    (["view", "{block}", "--screenshot", "{out}", "--field", "pressure"], "not in the results"),
    (["view", "{block}", "--movie", "{tmp}/m.avi"], ".gif or an .mp4"),
    (["view", "{block}", "--movie", "{tmp}/m.gif", "--frames", "1"], "at least 2 frames"),
    (["view", "{block}", "--time", "0.1"], "--time goes with --screenshot"),
    # movie options given to a screenshot were ignored without a word (exit code 0)
    (["view", "{block}", "--screenshot", "{out}", "--frames", "5"], "--frames goes with --movie"),
    (["view", "{block}", "--screenshot", "{out}", "--fps", "5"], "--fps goes with --movie"),
    (["view", "{block}", "--screenshot", "{out}", "--scale", "-1"], "must be > 0"),
    (["view", "{block}", "--screenshot", "{out}", "--clim", "5", "1"], "--clim: 1 is not above 5"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, message, block_dir, tmp_path, capsys):
    names = {"missing": tmp_path / "nothing", "block": block_dir, "out": tmp_path / "s.png",
             "tmp": tmp_path}
    assert main([a.format(**names) for a in args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_no_display_means_offscreen_options(block_dir, monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    if not sys.platform.startswith("linux"):
        pytest.skip("the display check is for Linux")
    assert main(["view", str(block_dir)]) == 2
    err = capsys.readouterr().err  # both movie formats the command writes are offered
    assert "no display" in err and "FILE.gif or FILE.mp4" in err


def test_view_and_report_commands_import_no_drawing_library():
    code = ("import sys, rocking_contact.viz.cli, rocking_contact.report.cli; "
            "print(sorted(m for m in ('pyvista', 'vtk', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_discrete_camera_sees_motion_and_obstacle_edge_on():
    """SDND100's layout: motion along x = y, a plane normal to z pressing the mass."""
    from rocking_contact.viz.discrete_scene import DiscreteScene

    t = np.linspace(0, 1, 50)
    d = 1e-3 * np.cos(10 * t)
    data = {"case": "plane", "parameters": {"model": {
        "node": [{"name": "N", "mass": 1.0, "position": [0, 0, 0], "fixed": ["DZ"]}],
        "spring": [{"name": "K", "nodes": ["N"]}],
        "shock": [{"name": "S", "node": "N", "normal": [0, 0, 1], "gap": -0.5}]}}}
    scene = DiscreteScene(data, {"time": t, "DX_N": d, "DY_N": d, "FN_S": 10 + 0 * t})
    assert np.allclose(scene.along, [2**-0.5, 2**-0.5, 0])
    assert np.allclose(scene.up, [0, 0, 1])
    assert abs(np.dot(scene.view, scene.along)) < 1e-12
    assert abs(np.dot(scene.view, scene.up)) < 1e-12
    assert np.allclose(scene._anchor(scene.springs[0]), -scene.unit * scene.along)


def test_interactive_time_slider_moves_the_scene(block_dir):
    import pyvista as pv

    scene = render.open_scene(block_dir)
    with pv.vtk_verbosity("error"):
        plotter = render.interactive_plotter(scene, SMALL, off_screen=True)
        try:
            (slider,) = plotter.widgets.slider_widgets
            rep = slider.GetRepresentation()
            assert (rep.GetMinimumValue(), rep.GetMaximumValue()) == (scene.t_start,
                                                                      scene.t_end)
            before = plotter.screenshot(return_img=True)
            rep.SetValue(0.1)
            slider.InvokeEvent("InteractionEvent")
            after = plotter.screenshot(return_img=True)
        finally:
            plotter.close()
    assert changed_fraction(before, after) > MIN_CHANGED


def test_a_run_that_changes_its_file_is_titled_by_its_changes(block_dir):
    """The file's title ("under a 2 Hz sine") is not printed over a run driven by a record."""
    scene = render.open_scene(block_dir)
    assert scene.title.startswith("sdnv105_sample: Sample rocking block")
    scene.data = {**scene.data, "parameters": {**scene.data["parameters"], "loading": {
        "table_acceleration_x": {"type": "table"}}}, "warnings": [
        "its references describe the case file's parameters and the run changes "
        "loading.table_acceleration_x.type: the checks are shown for information, without "
        "a pass mark"]}
    assert scene.title == "sdnv105_sample with loading.table_acceleration_x.type = table"
    scene.data = {**scene.data, "status": "interrupted at t = 0.0861 s"}
    assert scene.title.endswith("table [interrupted at t = 0.0861 s]")
    scene.data = {**scene.data, "status": "failed: step 2 from t = 0.0001 s failed"}
    assert scene.title.endswith("table [failed]")
    # a run killed (or still under way) was titled "[started]", which the report never said
    scene.data = {**scene.data, "status": results.STARTED}
    assert scene.title.endswith("table [still running, or killed]")


def test_the_colour_bar_has_its_own_room_beside_a_wide_table(block_dir, tmp_path):
    """A table much wider than the block is tall (b = 0.25 m, l = 0.3 m on 1.1 m) ran
    under the colour bar: no table grey right of where the bar starts."""
    import json
    import shutil

    from rocking_contact.viz.block_scene import BAR_X

    wide = shutil.copytree(block_dir, tmp_path / "wide")
    path = wide / "results.json"
    data = json.loads(path.read_text())
    data["parameters"]["geometry"].update(table_left=-0.5, table_right=2.0)
    path.write_text(json.dumps(data))
    image = np.asarray(render.screenshot(render.open_scene(wide), tmp_path / "w.png",
                                         time=0.0, window_size=(400, 400)))[:, :, :3]
    table_grey = np.all(np.abs(image.astype(int) - 0x9A) <= 6, axis=2)
    rows = table_grey.sum(axis=1) > 50  # the table's band (text is grey at its edges only)
    assert rows.any()
    assert table_grey[rows, int(BAR_X * image.shape[1]):].sum() == 0


def test_the_camera_keeps_a_block_that_leaves_its_place_in_the_picture(block_dir):
    """A block that slid off its table turned by 0.7 rad and left the picture: the region
    shown holds the amplified block at every output."""
    from rocking_contact.viz.fields import displacement_3d

    scene = render.open_scene(block_dir, render.ViewOptions(scale=100.0))
    xmin, xmax, ymin, ymax, _, _ = scene.bounds()
    series = scene.motion.series
    ref = np.asarray(series.reference.points, dtype=float)
    for i in range(series.times.size):
        drawn = ref + 100.0 * displacement_3d(series.dataset(i).point_data["u"])
        assert xmin <= drawn[:, 0].min() and drawn[:, 0].max() <= xmax
        assert ymin <= drawn[:, 1].min() and drawn[:, 1].max() <= ymax


def test_unpositioned_masses_are_drawn_apart_each_spring_away_from_its_stop():
    """Two masses without `position` (it is optional) were drawn as one, and a one-node
    spring crossed the wall of a mass pushed toward the other side."""
    from rocking_contact.viz.discrete_scene import DiscreteScene

    t = np.linspace(0.0, 0.1, 11)
    model = {"node": [{"name": "M1", "mass": 50.0}, {"name": "M2", "mass": 50.0}],
             "spring": [{"name": "K1", "nodes": ["M1"]}, {"name": "K2", "nodes": ["M2"]}],
             "shock": [{"name": "S1", "node": "M1", "normal": [-1.0, 0.0, 0.0], "gap": 1e-3},
                       {"name": "S2", "node": "M2", "normal": [1.0, 0.0, 0.0], "gap": 1e-3}]}
    history = {"time": t, "DX_M1": -0.005 * np.sin(30 * t), "DX_M2": 0.005 * np.sin(30 * t)}
    scene = DiscreteScene({"case": "x", "parameters": {"model": model}}, history)
    m1, m2 = scene.rest["M1"], scene.rest["M2"]
    assert np.linalg.norm(m1 - m2) >= 1.0 and m1[0] == m2[0]  # apart, across the normals
    for node, shock in (("M1", 0), ("M2", 1)):
        to_anchor = scene._anchor(model["spring"][shock]) - scene.rest[node]
        assert np.dot(to_anchor, model["shock"][shock]["normal"]) < 0, node


def test_texts_scale_with_a_small_picture(block_dir, tmp_path):
    """At 400 px the title ran off the right edge (font sizes were those of 900 px)."""
    image = grey(render.screenshot(render.open_scene(block_dir), tmp_path / "s.png", time=0.0,
                                   window_size=(400, 400)))
    title_band = image[:40]
    assert (title_band < 128).any()  # the title is drawn
    assert not (title_band[:, -20:] < 128).any()  # and ends before the right edge


def test_a_picture_between_field_outputs_says_it_is_a_blend_and_of_what(block_dir):
    """`view sdnv105a --time 0.05446` showed the 0.0525 and 0.055 s fields blended over
    impact 1 under "t = 0.05446 s" alone (audit s24 #10). The sample writes fields every
    0.01 s and its impact 1 at 0.053 s."""
    scene = render.open_scene(block_dir)
    with render.offscreen_plotter(SMALL) as plotter:
        scene.add_to(plotter)
        assert scene.move(0.055)[:2] == ["fields interpolated between 0.05 and 0.06 s",
                                         "(impact 1 at 0.053 s lies between them)"]
        assert scene.move(0.045)[0] == "fields interpolated between 0.04 and 0.05 s"
        assert "interpolated" not in scene.move(0.045)[1]
        assert not any("interpolated" in line for line in scene.move(0.05))


def test_a_blend_over_a_contact_change_without_a_collision_says_so():
    """A change of the closed contacts (history CONTACTS) the collisions do not list, such
    as a corner that lands and stays, is said too; a steady count is not."""
    from rocking_contact.viz.block_scene import blend_notes

    history = {"time": np.array([0.0, 0.01, 0.02, 0.03]),
               "CONTACTS": np.array([1.0, 1.0, 3.0, 3.0])}
    assert blend_notes((0.0, 0.02), {}, history) == [
        "fields interpolated between 0 and 0.02 s",
        "(contacts open or close between them: 1 to 3 closed)"]
    assert blend_notes((0.02, 0.03), {}, history) == [
        "fields interpolated between 0.02 and 0.03 s"]
    # a window maximum that is no collision (a failed run's last instant) is not an impact
    no_collision = {"collisions": [{"index": 1, "time": 0.025, "interior": False}]}
    assert blend_notes((0.02, 0.03), no_collision, history) == [
        "fields interpolated between 0.02 and 0.03 s"]
    assert blend_notes(None, {}, history) == []


def test_a_views_png_is_a_256_colour_palette_like_the_figures(block_dir, tmp_path):
    """The 2D figures are 256-colour PNGs, their style's colours exact; the 3D views were
    RGB, 3 times larger (SDNV105 A's 800 px view at t = 0: 58.1 kB, 19.1 kB in 256
    colours)."""
    from matplotlib.colors import to_rgb

    from rocking_contact.viz import style

    path = tmp_path / "view.png"
    image = render.screenshot(render.open_scene(block_dir), path, time=0.0, window_size=SMALL)
    written = Image.open(path)
    assert written.mode == "P"
    drawn, back = image[..., :3].astype(int), np.asarray(written.convert("RGB"), dtype=int)
    change = np.abs(back - drawn).max(axis=2)
    assert change.mean() <= style.PALETTE_MEAN_CHANGE
    # no colour of the stress map in bands: median cut left its rare colours up to 50
    # levels off here (the top of the colour bar, the block's hot corner)
    assert change.max() <= 16
    kept = np.array([[round(255 * c) for c in to_rgb(colour)] for colour in style.KEPT_COLOURS])
    exact = (drawn[:, :, None, :] == kept[None, None]).all(axis=3).any(axis=2)
    assert exact.sum() > 0.1 * exact.size  # the white ground and the black text at least
    assert np.array_equal(back[exact], drawn[exact])


def test_a_folder_of_runs_or_a_killed_run_is_said_as_the_report_says_it(tmp_path):
    """``view studies/mu`` (a sweep's --out) said only 'no results.json (not a results
    directory)'; it names a run to view, and a run killed before its results (history.csv
    alone) says so, as ``report`` does."""
    sweep = tmp_path / "mu"
    for name in ("contact.mu=0.3", "contact.mu=0.9"):
        (sweep / name).mkdir(parents=True)
        (sweep / name / "results.json").write_text("{}")
    with pytest.raises(render.ViewError) as err:
        render.open_scene(sweep)
    assert str(err.value) == (f"{sweep}: no results.json (a folder of 2 results directories: "
                              f"view one of them, such as {sweep / 'contact.mu=0.3'})")
    killed = tmp_path / "killed"
    killed.mkdir()
    (killed / "history.csv").write_text("time\n0\n")
    with pytest.raises(render.ViewError) as err:
        render.open_scene(killed)
    assert str(err.value) == (f"{killed}: no results.json beside history.csv: the run was "
                              "killed before it wrote its results")
    with pytest.raises(render.ViewError) as err:
        render.open_scene(tmp_path / "killed" / "..")
    assert str(err.value).endswith("no results.json (not a results directory)")
