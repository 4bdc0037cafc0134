"""`view` on damaged fields, unwritable outputs, negative scientific --clim, unknown fields:
one line naming the problem and exit code 2, or the picture."""

import shutil
from pathlib import Path

import imageio_ffmpeg
import pytest

from rocking_contact.cli import main
from rocking_contact.viz import render
from rocking_contact.viz.fields import FieldSeries, FieldsError
from rocking_contact.viz.sample import write_sample

SMALL = ["--window-size", "64", "64"]
#: the dataset the damages hit (not the first: the error comes when it is read)
BROKEN = "fields_000003.vtu"


def one_error_line(capfd, *names):
    """Everything printed, at the file descriptors (VTK prints there), is one error line
    naming ``names``."""
    out, err = capfd.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("error: "), err
    assert all(str(n) in err for n in names), err
    return err


@pytest.fixture
def copy_of_block(block_dir, tmp_path):
    """A copy of the sample FEM result, to damage."""
    return Path(shutil.copytree(block_dir, tmp_path / "block"))


def _truncate(path):
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


DAMAGES = {
    "missing": lambda p: p.unlink(),
    "truncated": _truncate,
    "garbage": lambda p: p.write_bytes(b"\x00\x01 not a VTK file\n" * 20),
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_dataset_is_one_line_naming_it(damage, copy_of_block, tmp_path, capfd):
    DAMAGES[damage](copy_of_block / BROKEN)
    out = tmp_path / "s.png"
    assert main(["view", str(copy_of_block), "--screenshot", str(out), *SMALL]) == 2
    one_error_line(capfd, copy_of_block / BROKEN, "fields.pvd")
    series = FieldSeries(copy_of_block / "fields.pvd")  # what the report reads
    with pytest.raises(ValueError, match=BROKEN):
        series.dataset(3)


def test_a_broken_collection_is_one_line_naming_it(copy_of_block, tmp_path, capfd):
    _truncate(copy_of_block / "fields.pvd")
    assert main(["view", str(copy_of_block), "--screenshot", str(tmp_path / "s.png")]) == 2
    one_error_line(capfd, copy_of_block / "fields.pvd")
    with pytest.raises(FieldsError, match="fields.pvd"):
        render.open_scene(copy_of_block)


def test_a_missing_piece_of_a_parallel_dataset_is_named(copy_of_block, tmp_path, capfd):
    """dolfinx writes a .pvtu per instant whose pieces are .vtu files."""
    pvtu = copy_of_block / "fields_000003.pvtu"
    arrays = "".join(f'<PDataArray type="Float64" Name="{name}" NumberOfComponents="{n}"/>'
                     for name, n in (("u", 3), ("sigma_yy", 1), ("von_mises", 1)))
    pvtu.write_text(
        '<?xml version="1.0"?><VTKFile type="PUnstructuredGrid" version="1.0">'
        f'<PUnstructuredGrid GhostLevel="0"><PPointData>{arrays}</PPointData>'
        '<PPoints><PDataArray type="Float64" NumberOfComponents="3"/></PPoints>'
        f'<Piece Source="{BROKEN}"/></PUnstructuredGrid></VTKFile>')
    pvd = copy_of_block / "fields.pvd"
    pvd.write_text(pvd.read_text().replace(f'"{BROKEN}"', f'"{pvtu.name}"'))
    assert FieldSeries(pvd).dataset(3).n_points > 0  # the parallel file reads when whole
    (copy_of_block / BROKEN).unlink()
    assert main(["view", str(copy_of_block), "--screenshot", str(tmp_path / "s.png")]) == 2
    assert "missing" in one_error_line(capfd, copy_of_block / BROKEN)


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="needs Linux's /sys")
@pytest.mark.parametrize("name", ["m.gif", "m.mp4", "s.png"])
def test_an_output_the_system_refuses_is_refused_before_rendering(name, block_dir, capfd):
    """/sys takes no new file, even from root (for whom the access bits say yes)."""
    option = "--screenshot" if name.endswith(".png") else "--movie"
    frames = ["--frames", "2"] if option == "--movie" else []  # a movie's option alone
    assert main(["view", str(block_dir), option, f"/sys/{name}", *frames]) == 2
    one_error_line(capfd, f"/sys/{name}", "cannot be written (", "; allowed: a file this user may "
                   "create or overwrite: not under /proc, /sys or a read-only mount)")


def test_a_movie_that_fails_to_write_is_not_reported_written(block_dir, tmp_path, capfd):
    """The disk fills up after the check: /dev/full opens, and refuses every byte."""
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    movie = tmp_path / "full.gif"
    movie.symlink_to("/dev/full")
    assert main(["view", str(block_dir), "--movie", str(movie), "--frames", "2", *SMALL]) == 2
    one_error_line(capfd, movie, "No space left")


@pytest.mark.parametrize("clim", [("-1e5", "1e5"), ("-2.5E+4", "-1e-3"), ("-.5e3", "0")])
def test_negative_numbers_in_scientific_notation_are_numbers(clim, block_dir, tmp_path,
                                                           monkeypatch):
    """The scene is drawn with the colour range given, as numbers (not only an image)."""
    out, asked = tmp_path / "s.png", []
    opened = render.open_scene

    def open_scene(result_dir, options):
        asked.append(options.clim)
        return opened(result_dir, options)

    monkeypatch.setattr(render, "open_scene", open_scene)
    assert main(["view", str(block_dir), "--screenshot", str(out), "--clim", *clim,
                 "--field", "sigma_yy", *SMALL]) == 0
    assert out.is_file() and asked == [(float(clim[0]), float(clim[1]))]


def test_a_negative_scientific_scale_is_refused_as_a_value(block_dir, tmp_path, capfd):
    assert main(["view", str(block_dir), "--screenshot", str(tmp_path / "s.png"),
                 "--scale", "-1e3"]) == 2
    one_error_line(capfd, "--scale -1000: must be > 0")


@pytest.fixture(scope="module")
def rigid_dir(tmp_path_factory):
    """A rigid-like result: block corner lifts, no fields."""
    return write_sample(tmp_path_factory.mktemp("rigid") / "rigid", fields=False)


@pytest.mark.parametrize("result", ["discrete_dir", "rigid_dir"])
def test_an_unknown_field_is_refused_without_fields(result, request, tmp_path, capfd):
    out = tmp_path / "s.png"
    assert main(["view", str(request.getfixturevalue(result)), "--screenshot", str(out),
                 "--field", "bogus"]) == 2
    one_error_line(capfd, "--field bogus", "allowed: none")
    assert not out.exists()
    assert main(["view", str(request.getfixturevalue(result)), "--screenshot", str(out),
                 "--field", "none", *SMALL]) == 0


def test_an_unknown_field_names_the_allowed_ones(block_dir, tmp_path, capfd):
    assert main(["view", str(block_dir), "--screenshot", str(tmp_path / "s.png"),
                 "--field", "bogus"]) == 2
    one_error_line(capfd, "(allowed: sigma_yy, von_mises, none)")


def test_an_mp4_has_the_asked_size_and_no_resizing_warning(block_dir, tmp_path, capfd):
    """900 x 900 (the default) is not a multiple of imageio's 16-pixel macro block."""
    path = tmp_path / "m.mp4"
    assert main(["view", str(block_dir), "--movie", str(path), "--frames", "2",
                 "--window-size", "90", "90"]) == 0
    out, err = capfd.readouterr()
    assert err == "" and out == f"wrote {path} (2 frames)\n"
    reader = imageio_ffmpeg.read_frames(str(path))
    assert next(reader)["size"] == (90, 90)
    reader.close()


def test_an_mp4_of_odd_size_is_refused(block_dir, tmp_path, capfd):
    assert main(["view", str(block_dir), "--movie", str(tmp_path / "m.mp4"), "--frames", "2",
                 "--window-size", "91", "90"]) == 2
    one_error_line(capfd, "even width and height")


def test_a_movie_it_cannot_write_is_refused_before_the_result_is_read(tmp_path, capfd):
    """The window size and frame count are said first, not after loading the fields."""
    missing = tmp_path / "no_such_result"
    assert main(["view", str(missing), "--movie", str(tmp_path / "m.mp4"),
                 "--window-size", "91", "90"]) == 2
    one_error_line(capfd, "even width and height")
    assert main(["view", str(missing), "--movie", str(tmp_path / "m.gif"), "--frames", "1"]) == 2
    one_error_line(capfd, "--frames 1: a movie needs at least 2 frames (allowed: an integer "
                          ">= 2, the movie's frames)")
    # each says what it takes (they said 'must be > 0' and 'at least 16 x 16 pixels' alone)
    assert main(["view", str(missing), "--movie", str(tmp_path / "m.gif"), "--fps", "0"]) == 2
    one_error_line(capfd, "--fps 0: must be > 0 (allowed: an integer > 0, the movie's frames "
                          "per second)")
    assert main(["view", str(missing), "--movie", str(tmp_path / "m.gif"),
                 "--window-size", "8", "900"]) == 2
    one_error_line(capfd, "--window-size 8 900: at least 16 x 16 pixels (allowed: two "
                          "integers >= 16, the width and height in pixels)")
    assert not (tmp_path / "m.mp4").exists() and not (tmp_path / "m.gif").exists()


@pytest.mark.parametrize("option, name", [("--screenshot", "s.png"), ("--movie", "m.gif")])
def test_results_refused_leave_no_directory_for_the_output(tmp_path, capfd, option, name):
    """``view results/x --screenshot v/x.png`` made v/ before it found no results there."""
    out = tmp_path / "made" / "here" / name
    assert main(["view", str(tmp_path / "no_such_result"), option, str(out)]) == 2
    one_error_line(capfd, "no_such_result: no such directory (allowed: a results directory")
    assert not (tmp_path / "made").exists()


def test_an_output_in_a_new_directory_is_written_there(block_dir, tmp_path, capfd):
    out = tmp_path / "made" / "s.png"
    assert main(["view", str(block_dir), "--screenshot", str(out), *SMALL]) == 0
    assert out.is_file() and capfd.readouterr().out == f"wrote {out}\n"


def test_a_run_that_failed_before_its_first_step_says_so(tmp_path, capfd):
    """A block run that failed in its static preload writes results.json alone: the view
    says why there is nothing to draw, in one line."""
    import json

    (tmp_path / "failed").mkdir()
    status = "failed: step 2 from pseudo-time 0 failed with a pseudo-time step of 1"
    (tmp_path / "failed" / "results.json").write_text(json.dumps(
        {"case": "myblock", "kind": "block", "status": status, "parameters": {},
         "checks": [], "extra": {}}))
    assert main(["view", str(tmp_path / "failed"), "--screenshot", str(tmp_path / "a.png")]) == 2
    err = one_error_line(capfd, "the run stopped before its first time step", status)
    assert "no block corners" not in err


@pytest.mark.parametrize(("result", "field", "why"), [
    ("discrete_dir", "auto", "the result has no stress fields"),
    ("rigid_dir", "auto", "the result has no stress fields"),
    ("block_dir", "none", "--field none"),
])
def test_a_colour_range_without_a_stress_to_colour_is_refused(result, field, why, request,
                                                             tmp_path, capfd):
    """--clim on a result coloured by nothing was taken without a word; the options that
    do not apply (--time without --screenshot, --field on a result without fields) are
    refused, and so is it."""
    out = tmp_path / "s.png"
    assert main(["view", str(request.getfixturevalue(result)), "--screenshot", str(out),
                 "--field", field, "--clim", "0", "1", *SMALL]) == 2
    one_error_line(capfd, f"--clim goes with a stress to colour by ({why}; allowed: leave "
                          "--clim out)")
    assert not out.exists()


def test_a_case_not_run_yet_says_how_to_run_it(tmp_path, monkeypatch, capfd):
    """`view sdnv105b` without its results said "no results.json (not a results
    directory)"; the report said "run ... first", and so does the view now."""
    monkeypatch.chdir(tmp_path)
    assert main(["view", "sdnv105b", "--screenshot", "s.png"]) == 2
    one_error_line(capfd, "error: results/sdnv105b: no results (run `rocking-contact run "
                          "sdnv105b` first)")
    # a name that is no case is not to be run: `run sdnv105` refuses it
    assert main(["view", "sdnv105", "--screenshot", "s.png"]) == 2
    one_error_line(capfd, "error: results/sdnv105: no results (sdnv105 is no shipped case or "
                          "variant; allowed: a results directory, or the name of a case run "
                          "into results/<case>/; close: sdnv105d, sdnv105c, sdnv105b)")
    # a path typed with a slash is a directory that is not there, not a case name (it was
    # told 'nothing is no shipped case or variant'); a case's own results/<case> is told
    # how to run it, however typed
    assert main(["view", "results/nothing", "--screenshot", "s.png"]) == 2
    one_error_line(capfd, "error: results/nothing: no such directory (allowed: a results "
                          "directory written by run, validate, rigid, sweep or rc.run, or a "
                          "case name whose results/<case>/ holds one; `rocking-contact run "
                          "CASE --out results/nothing` writes one there)")
    assert main(["view", "results/sdnv105b", "--screenshot", "s.png"]) == 2
    one_error_line(capfd, "error: results/sdnv105b: no results (run `rocking-contact run "
                          "sdnv105b` first)")
    (tmp_path / "empty").mkdir()  # a directory that is there is not a run to be
    assert main(["view", "empty", "--screenshot", "s.png"]) == 2
    one_error_line(capfd, "error: empty: no results.json (not a results directory)")
