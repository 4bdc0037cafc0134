"""Bad input to the tools around a run (mesh, view, report): one line on stderr naming the
option or the file, what is wrong and what is allowed; exit code 2; no traceback."""

import shutil
import warnings
from pathlib import Path

import pytest

import rocking_contact as rc
from rocking_contact.block import Geometry
from rocking_contact.cli import main
from rocking_contact.geometry.layout import MAX_CELLS, MeshSpec, check_size, expected_size

needs_proc = pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc")


def assert_one_line_error(capsys, code, words):
    captured = capsys.readouterr()
    assert code == 2, captured
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("error: ")
    for word in words:
        assert word in lines[0], (word, lines[0])


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    """A results directory of a fast discrete run (sdnd101a, no plots)."""
    out = tmp_path_factory.mktemp("sdnd101a")
    rc.run(rc.load_case("sdnd101a"), out=out, quiet=True, plots=False)
    return out


@pytest.fixture
def afile(tmp_path):
    path = tmp_path / "afile"
    path.write_text("not a directory\n")
    return path


# -- --set ----------------------------------------------------------------------------

@pytest.mark.parametrize("command,sets", [
    (["run", "sdnd101a"], ["time.step=1e-4", "time.step=2e-4"]),
    (["validate", "sdnd101a"], ["time.step=1e-4", "time.step=2e-4"]),
    (["rigid", "sdnv105_rigid"], ["time.step=1e-4", "time.step=2e-4"]),
    (["mesh", "sdnv105a"], ["mesh.h=0.1", "mesh.h=0.2"]),
    (["mesh"], ["mesh.h=0.1", "mesh.h=0.2"]),
    (["run", "sdnd101a"], ["model.shock[0].kn=1e5", "model.shock.0.kn=2e5"]),
])
def test_a_key_in_two_sets_is_refused_as_sweep_refuses_it(capsys, tmp_path, command, sets):
    """``run --set time.step=1e-4 --set time.step=2e-4`` ran at the last value, unsaid;
    sweep refused it (audit, session 35)."""
    key = sets[1].partition("=")[0]  # as typed in the second
    args = [*command, *(a for s in sets for a in ("--set", s)), "--out",
            str(tmp_path / ("x.msh" if command[0] == "mesh" else "x"))]
    assert_one_line_error(capsys, main(args), [
        f"{key}: given twice ({sets[0]!r} and {sets[1]!r}; allowed: one --set {key}=VALUE)"])
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("command", ["run", "validate", "rigid", "mesh"])
def test_the_help_of_set_says_a_key_once(capsys, command):
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert done.value.code == 0 and "(repeatable, a key once)" in help_text


def test_a_key_in_two_overrides_is_refused_by_load_case():
    with pytest.raises(rc.CaseError, match="time.step: given twice"):
        rc.load_case("sdnd101a", ["time.step=1e-4", "time.step=2e-4"])


# -- mesh ------------------------------------------------------------------------------

@pytest.mark.parametrize("out,words", [
    pytest.param("/proc/x/a.msh", ["--out: cannot create /proc/x"],
                 marks=needs_proc),
    ("{afile}/a.msh", ["--out: {afile} is a file, not a directory"]),
    ("{tmp}/a.txt", ["--out: {tmp}/a.txt: not a .msh file", "allowed: a .msh file path "
                     "(a name without a suffix gets .msh)"]),
    ("{tmp}", ["--out: {tmp} is a directory", "allowed: a .msh file path"]),
], ids=["unwritable", "under a file", "not .msh", "a directory"])
def test_mesh_out_must_be_a_msh_file_gmsh_can_write(capsys, tmp_path, afile, out, words):
    names = {"afile": afile, "tmp": tmp_path}
    code = main(["mesh", "--set", "mesh.layout=aster", "--out", out.format(**names)])
    assert_one_line_error(capsys, code, [w.format(**names) for w in words])


@pytest.mark.parametrize("case", [[], ["sdnv105d", "--set", "mesh.layout=structured"]])
def test_mesh_size_is_capped_before_meshing(capsys, tmp_path, case):
    """1e-5 m for 1e-2: 3.5e9 cells, hours of Gmsh; refused at once."""
    out = tmp_path / "a.msh"
    code = main(["mesh", *case, "--set", "mesh.element_size=1e-5", "--out", str(out)])
    assert_one_line_error(capsys, code, [
        "mesh.element_size: got 1e-05, which makes 3.5e+09 cells",
        "allowed: at most 1e+06 cells, an element_size of about >= 0.00059 m"])
    assert not out.exists()


def test_the_size_suggested_by_the_cap_is_allowed():
    geometry = Geometry()
    for cell in ("quadrilateral", "triangle"):
        with pytest.raises(ValueError, match="element_size of about >= ") as error:
            check_size(geometry, MeshSpec(element_size=1e-4, cell=cell))
        smallest = float(str(error.value).split(">= ")[1].split(" m")[0])
        spec = MeshSpec(element_size=smallest, cell=cell)
        check_size(geometry, spec)
        assert expected_size(geometry, spec)[1] > 0.9 * MAX_CELLS  # not far from the cap


def test_mesh_refuses_a_size_the_aster_layout_ignores_as_run_does(capsys, tmp_path):
    setting = ["--set", "mesh.element_size=0.02"]
    code = main(["mesh", "sdnv105a", *setting, "--out", str(tmp_path / "a.msh")])
    mesh_err = capsys.readouterr().err
    assert code == 2
    assert "sdnv105a.toml (with --set): mesh.element_size: 0.02 has no effect with " \
        "mesh.layout = 'aster'" in mesh_err
    # the very line `run` prints
    assert main(["run", "sdnv105a", *setting, "--out", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err == mesh_err
    # with the defaults, both keys from --set
    code = main(["mesh", "--set", "mesh.layout=aster", *setting, "--out", str(tmp_path / "a.msh")])
    assert_one_line_error(capsys, code, ["--set: mesh.element_size: 0.02 has no effect",
                                         "allowed: leave it out, or layout 'structured'"])
    assert not (tmp_path / "a.msh").exists()


# -- view and report on results files that are not what a run writes --------------------

BAD_RESULTS = [
    ("{bad", ["results.json: not valid JSON", "allowed: the results.json a run writes"]),
    ("{}", ["results.json: case: missing, expected the case name"]),
    ("[1, 2]", ["results.json: a JSON array, not an object"]),
    ('{"case": "x", "checks": 3}', ["results.json: checks: a JSON number, expected an array"]),
]
BAD_HISTORY = [
    ("garbage\n", ["history.csv: header 'garbage' does not start with time"]),
    ("time,DX_NO1\n", ["history.csv: no rows after the header"]),
    ("time,DX_NO1\n0,abc\n", ["history.csv: not a table of numbers", "'abc'"]),
    ("time,DX_NO1,DY_NO1\n0,1\n", ["history.csv: fewer values per row than header columns"]),
]


def _command(tool, where, tmp_path):
    if tool == "view":
        return ["view", str(where), "--screenshot", str(tmp_path / "v.png")]
    return ["report", str(where), "--no-views", "--out", str(tmp_path / "rep")]


@pytest.mark.parametrize("tool", ["view", "report"])
@pytest.mark.parametrize("text,words", BAD_RESULTS, ids=[b[0] for b in BAD_RESULTS])
def test_bad_results_json_is_one_line(capsys, tmp_path, tool, text, words):
    """The report skips what it cannot read and says so; with nothing left it stops."""
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "results.json").write_text(text)
    where = f"error: {bad}/" if tool == "view" else f"error: no results could be read: {bad}: "
    assert_one_line_error(capsys, main(_command(tool, bad, tmp_path)), [where, *words])


@pytest.mark.parametrize("tool", ["view", "report"])
@pytest.mark.parametrize("text,words", BAD_HISTORY, ids=[b[0] for b in BAD_HISTORY])
def test_bad_history_csv_is_one_line(capsys, tmp_path, result, tool, text, words):
    """view stops; the report keeps the run's results and says why it has no plots."""
    bad = tmp_path / "bad"
    bad.mkdir()
    shutil.copy(result / "results.json", bad)
    (bad / "history.csv").write_text(text)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's "input contained no data" must not leak
        code = main(_command(tool, bad, tmp_path))
    if tool == "view":
        assert_one_line_error(capsys, code, [f"error: {bad}/", *words])
        assert not (tmp_path / "v.png").exists()
        return
    assert code == 0 and not capsys.readouterr().err
    page = (tmp_path / "rep" / "report.md").read_text()
    assert "No plots: " + words[0] in page


# -- output paths of report and view ---------------------------------------------------

@pytest.mark.parametrize("out,words", [
    ("{afile}", ["--out: {afile} is a file, not a directory", "allowed: a writable directory"]),
    pytest.param("/proc/x", ["--out: cannot create /proc/x: No such file or directory"],
                 marks=needs_proc),
    ("{afile}/sub", ["--out: {afile} is a file, not a directory"]),
], ids=["a file", "unwritable", "under a file"])
def test_report_out_names_the_option(capsys, result, afile, out, words):
    code = main(["report", "--results", str(result.parent), str(result), "--no-views",
                 "--out", out.format(afile=afile)])
    assert_one_line_error(capsys, code, [w.format(afile=afile) for w in words])


@pytest.mark.parametrize("shot,words", [
    pytest.param("/proc/x/s.png", ["--screenshot: cannot create /proc/x"],
                 marks=needs_proc),
    ("{afile}/s.png", ["--screenshot: {afile} is a file, not a directory"]),
    ("{tmp}", ["--screenshot: {tmp} is a directory", "allowed: an image (.png"]),
    ("{tmp}/s.PNG", ["--screenshot: {tmp}/s.PNG: not a .png/.jpg/.jpeg/.bmp/.tif/.tiff file"]),
], ids=["unwritable", "under a file", "a directory", "unknown suffix"])
def test_view_screenshot_names_the_option(capsys, tmp_path, result, afile, shot, words):
    names = {"afile": afile, "tmp": tmp_path}
    code = main(["view", str(result), "--screenshot", shot.format(**names)])
    assert_one_line_error(capsys, code, [w.format(**names) for w in words])


def test_view_movie_into_a_directory_is_refused(capsys, tmp_path, result):
    code = main(["view", str(result), "--movie", str(tmp_path)])
    assert_one_line_error(capsys, code, [f"--movie: {tmp_path} is a directory", ".gif or .mp4"])


def test_view_says_which_file_it_wrote(capsys, tmp_path, result):
    """pyvista adds .png to a name without a suffix: the message names that file."""
    assert main(["view", str(result), "--screenshot", str(tmp_path / "shot")]) == 0
    assert capsys.readouterr().out == f"wrote {tmp_path / 'shot.png'}\n"
    assert (tmp_path / "shot.png").is_file()


@pytest.mark.parametrize("scale", ["nan", "inf", "-inf", "0"])
def test_view_scale_must_be_finite_and_positive(capsys, tmp_path, result, scale):
    code = main(["view", str(result), "--screenshot", str(tmp_path / "s.png"),
                 f"--scale={scale}"])
    assert_one_line_error(capsys, code, [f"--scale {scale}: must be > 0 (allowed: a finite "
                                         "number > 0, the factor the displacements are "
                                         "drawn at)"])
    assert not (tmp_path / "s.png").exists()


def test_view_clim_must_be_finite(capsys, tmp_path, result):
    code = main(["view", str(result), "--screenshot", str(tmp_path / "s.png"),
                 "--clim", "0", "inf"])
    assert_one_line_error(capsys, code, ["--clim 0 inf: allowed: two finite numbers LO < HI, "
                                         "stresses in Pa"])


# -- a path given is the path named ----------------------------------------------------

def test_view_of_a_file_names_the_file(capsys, tmp_path, afile, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = main(["view", "afile", "--screenshot", "s.png"])
    assert_one_line_error(capsys, code, ["error: afile: not a directory"])


def test_report_of_a_directory_without_results_names_it(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "emptydir").mkdir()
    assert_one_line_error(capsys, main(["report", "emptydir", "--no-views"]),
                          ["error: no results could be read: emptydir: results.json: missing "
                           "(not a results directory)"])
    # a name that is no path still means results/<name>
    assert_one_line_error(capsys, main(["report", "nosuch", "--no-views"]),
                          ["nosuch: no results in results/nosuch"])


def test_report_of_a_parent_directory_says_to_give_it_as_results(capsys, tmp_path, result,
                                                                 monkeypatch):
    """A parent of results directories given as a case was 'not a results directory'; a
    missing path was told to run it as a case."""
    monkeypatch.chdir(tmp_path)
    parent = tmp_path / "runs"
    parent.mkdir()
    shutil.copytree(result, parent / "one")
    assert_one_line_error(capsys, main(["report", "runs", "--no-views"]),
                          ["error: no results could be read: runs: results.json: missing "
                           "(a parent of 1 results directories: give it as --results runs)"])
    assert_one_line_error(capsys, main(["report", "gone/dir", "--no-views"]),
                          ["error: gone/dir: no such directory (allowed: a results directory "
                           "written by run, validate, rigid, sweep or rc.run, or a case name "
                           "under --results results)"])


def test_report_of_a_results_directory_that_does_not_exist(capsys, tmp_path, monkeypatch):
    """``report --results nowhere`` said "no results (run rocking-contact validate first)",
    where a positional path said "no such directory"; an empty one keeps the former."""
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(capsys, main(["report", "--results", "nowhere", "--no-views"]),
                          ["error: nowhere: no such directory (allowed: for --results, the "
                           "directory the runs wrote under, `results` by default; no run yet: "
                           "run `rocking-contact validate` first)"])
    # a file is there, but no directory ('no such directory' said it was missing)
    (tmp_path / "notes.txt").write_text("")
    assert_one_line_error(capsys, main(["report", "--results", "notes.txt", "--no-views"]),
                          ["error: notes.txt: not a directory (allowed: for --results, the "])
    # a new user's first `report`, before any run: told how to make results too
    assert_one_line_error(capsys, main(["report", "--no-views"]),
                          ["error: results: no such directory (", "; no run yet: run "
                           "`rocking-contact validate` first)"])
    (tmp_path / "empty").mkdir()
    assert_one_line_error(capsys, main(["report", "--results", "empty", "--no-views"]),
                          ["error: empty: no results (run `rocking-contact validate` first)"])


# -- empty paths -------------------------------------------------------------------------

@pytest.mark.parametrize("args,option,allowed", [
    (["run", "sdnd101a", "--out", ""], "--out", "a path; . for the current directory"),
    (["validate", "sdnd101a", "--out", ""], "--out", "a path; . for the current directory"),
    (["sweep", "sdnd101a", "--set", "time.step=1e-4,2e-4", "--out", ""], "--out",
     "a path; . for the current directory"),
    (["rigid", "--out", ""], "--out", "a path; . for the current directory"),
    (["mesh", "--out", ""], "--out", "a file path"),
    (["report", "{result}", "--out", ""], "--out", "a path; . for the current directory"),
    (["report", "--results", ""], "--results", "a path; . for the current directory"),
    (["report", ""], "cases", "a path; . for the current directory"),
    (["view", ""], "result", "a path; . for the current directory"),
    (["view", "{result}", "--screenshot", ""], "--screenshot", "a file path"),
    (["view", "{result}", "--movie", ""], "--movie", "a file path"),
    (["compare", ""], "DIR", "a path; . for the current directory"),
    (["compare", "{result}", "--csv", ""], "--csv", "a file path"),
], ids=lambda a: " ".join(a) if isinstance(a, list) else None)
def test_an_empty_path_is_refused_not_taken_for_the_current_directory(
        capsys, tmp_path, result, monkeypatch, args, option, allowed):
    """``--out "$DIR"`` with DIR unset: Path("") is ".", and run, validate, sweep, rigid and
    report wrote into the current directory (view "" and compare "" read it); mesh, view
    and compare said '. is a directory', a path the user never typed."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:  # argparse's, as for every syntax error
        main([a.format(result=result) for a in args])
    assert_one_line_error(capsys, stop.value.code,
                          [f"argument {option}: empty (allowed: {allowed})"])
    assert list(tmp_path.iterdir()) == []


def test_rc_run_refuses_an_empty_out(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(rc.CaseError, match=r"^rc.run: out: empty \(allowed: a directory path"):
        rc.run("sdnd101a", out="", quiet=True, plots=False)
    assert list(tmp_path.iterdir()) == []
