"""What a parameter study met in the Python API (S30 audit A1): ``rc.format_table`` of a
results directory, ``RunResult.changes``, an override that unsets a key spelled the same
way from Python, on the command line and in the rerun line, the exit code and kinds of a
stopped run, and the rigid twin exported."""

import json

import pytest

import rocking_contact as rc
from rocking_contact.cli import main
from rocking_contact.commands.compare import read_run
from rocking_contact.config import parse_override
from rocking_contact.provenance import override_texts
from rocking_contact.stops import Diverged, Interrupted, Overturned, SlidOff, SolverFailure

#: the rigid block released from the preload's tilt rather than the file's angle: a
#: change of its physics, run for 0.1 s (206 steps, 0.04 s)
UNSET = {"preload.angle": None, "preload.tilt": 0.005, "time.end": 0.1}


@pytest.fixture(scope="module")
def rigid_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("edges")
    changed = rc.run(rc.load_case("sdnv105_rigid", UNSET), out=root / "changed", quiet=True,
                     plots=False)
    written = rc.run(rc.load_case("sdnv105_rigid", {"time.end": 0.1}), out=root / "file",
                     quiet=True, plots=False)
    return root, changed, written


def test_format_table_reads_a_results_directory(rigid_runs, tmp_path):
    root, changed, _ = rigid_runs
    table = rc.format_table(root / "changed")
    assert table == rc.format_table(str(root / "changed")) == rc.format_table(changed)
    assert table.startswith("== sdnv105_rigid")
    (tmp_path / "empty").mkdir()
    with pytest.raises(rc.CaseError, match="no results.json in it: not a results directory"):
        rc.format_table(tmp_path / "empty")
    # a case name without its checks is no directory: the message says what is allowed
    with pytest.raises(rc.CaseError, match=r"rc\.format_table: result: got str 'sdnd101a', "
                                           r"no such directory, and no checks; allowed: a "
                                           r"RunResult, a results directory"):
        rc.format_table("sdnd101a")


def test_changes_are_an_attribute_read_back_too(rigid_runs):
    root, changed, written = rigid_runs
    assert changed.changes == ["preload.tilt"] == changed.extra["changes"]
    assert rc.load_result(root / "changed").changes == ["preload.tilt"]
    assert written.changes == [] and rc.load_result(root / "file").changes == []
    changed.changes.append("x")  # a copy: the result's own list is left as it was
    assert changed.extra["changes"] == ["preload.tilt"]


def test_an_empty_set_value_unsets_a_key_as_none_does_in_python(rigid_runs, tmp_path):
    root, changed, _ = rigid_runs
    assert parse_override("preload.angle=") == (["preload", "angle"], None)
    assert parse_override("preload.angle=  ") == (["preload", "angle"], None)
    assert parse_override("case.description=''") == (["case", "description"], "")
    assert override_texts({"preload.angle": None}) == (["preload.angle="], "")
    by_python = rc.load_case("sdnv105_rigid", {"preload.angle": None})
    by_set = rc.load_case("sdnv105_rigid", ["preload.angle="])
    assert by_python.preload == by_set.preload and by_set.preload.angle is None
    # the Python run's rerun line spells it, and that line runs the same inputs
    rerun = changed.provenance["rerun"]
    assert changed.provenance.get("rerun_note") is None
    assert "--set preload.angle= --set preload.tilt=0.005 --set time.end=0.1" in rerun
    out = tmp_path / "again"
    assert main(["run", "sdnv105_rigid", "--set", "preload.angle=", "--set",
                 "preload.tilt=0.005", "--set", "time.end=0.1", "--out", str(out),
                 "--quiet", "--no-plots"]) == 0
    again = json.loads((out / "results.json").read_text())
    first = json.loads((root / "changed" / "results.json").read_text())
    assert again["parameters"] == first["parameters"]
    assert again["quantities"] == first["quantities"]
    # a key the case needs, unset, is refused as a None from Python is
    for unset in (["time.step="], {"time.step": None}):
        with pytest.raises(rc.CaseError, match=r"time\.step: required, cannot be unset with "
                                               r"--set time\.step= or None \(allowed: a number"):
            rc.load_case("sdnv105_rigid", unset)


def test_a_failure_has_the_command_lines_exit_code_and_a_slide_its_kind():
    for kind in (SolverFailure, Overturned, SlidOff, Diverged):
        assert kind("stopped").exit_code == 1, kind
    assert Interrupted("stopped", signal=15).exit_code == 143
    assert issubclass(SlidOff, Overturned) and rc.SlidOff is SlidOff
    assert "SlidOff" in rc.__all__
    try:  # a study that catches overturns catches slides
        raise SlidOff("the block slid off its table at t = 0.2 s: ...")
    except rc.Overturned as stop:
        assert isinstance(stop, rc.SlidOff) and stop.status.startswith("the block slid")


def test_the_rigid_twin_is_exported():
    twin = rc.rigid_twin(rc.load_case("sdnv105d", {"preload.tilt": 0.005}))
    assert twin.case.name == "sdnv105d_rigid" and "rigid_twin" in rc.__all__
    assert twin.load_info.twin_of == "sdnv105d"
    with pytest.raises(rc.CaseError, match=r"rc\.rigid_twin: block: got .*allowed: a block "
                                           r"case"):
        rc.rigid_twin(rc.load_case("sdnv105_rigid"))


def test_compare_reads_with_the_same_reader(rigid_runs, tmp_path):
    root, _, _ = rigid_runs
    assert read_run(root / "file").data == json.loads(
        (root / "file" / "results.json").read_text())
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "results.json").write_text('{"case": "x", "checks": {}}')
    with pytest.raises(rc.CaseError, match="checks: a JSON object, expected an array"):
        read_run(tmp_path / "bad")
    (tmp_path / "bad" / "results.json").write_text('{"case": "x"}')
    with pytest.raises(rc.CaseError, match="status: missing, expected a string"):
        read_run(tmp_path / "bad")
