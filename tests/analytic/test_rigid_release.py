"""One key, one meaning (U1's finding 8): ``preload.tilt`` is a FEM block case's pull of C1
(the sine of the release angle, pivot O1, large rotation) in a rigid case too, and the
rigid kind's own ``preload.angle`` gives the release angle itself (rad). ``run --set
preload.tilt=0.3`` released the FEM block at 0.304693 rad and ``rigid --set
preload.tilt=0.3`` the rigid one at 0.3 rad."""

import json
import math

import pytest

import rocking_contact as rc
from rocking_contact.cli import main
from rocking_contact.config import CaseError, load_case
from rocking_contact.results_io import read_history_csv


def test_the_tilt_releases_the_rigid_block_where_it_releases_the_fem_block():
    fem = load_case("sdnv105d", ["preload.tilt=0.3"]).release_angle
    assert fem == pytest.approx(0.304692654, abs=1e-9)
    assert load_case("sdnv105_rigid", ["preload.tilt=0.3"]).release_angle == fem
    assert load_case("sdnv105_rigid", ["preload.tilt=0.02"]).release_angle == math.asin(0.02)
    # the shipped case releases at the manual's 0.01 rad itself, its own key
    shipped = load_case("sdnv105_rigid")
    assert shipped.preload.angle == 0.01 and shipped.release_angle == 0.01
    assert load_case("sdnv105_rigid", ["preload.angle=0.3"]).release_angle == 0.3


def test_of_the_tilt_and_the_angle_the_one_given_last_is_read(tmp_path, capsys):
    child = tmp_path / "child.toml"
    child.write_text('extends = "sdnv105_rigid"\n[preload]\ntilt = 0.02\n')
    assert load_case(child).release_angle == math.asin(0.02)  # over the parent's angle
    grandchild = tmp_path / "grandchild.toml"
    grandchild.write_text('extends = "child.toml"\n[preload]\nangle = 0.03\n')
    assert load_case(grandchild).release_angle == 0.03
    assert load_case(grandchild, ["preload.tilt=0.3"]).release_angle == math.asin(0.3)
    # both in one place: one of them would be ignored
    with pytest.raises(CaseError) as info:
        load_case("sdnv105_rigid", ["preload.angle=0.3", "preload.tilt=0.2"])
    assert str(info.value).endswith(
        "(with --set): preload.tilt: 0.2 has no effect with preload.angle = 0.3 given with "
        "it, which replaces it; allowed: one of preload.tilt and preload.angle")
    both = tmp_path / "both.toml"
    both.write_text('extends = "sdnv105_rigid"\n[preload]\ntilt = 0.02\nangle = 0.03\n')
    assert main(["rigid", str(both), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: {both}: preload.tilt: 0.02 has no effect with preload.angle = "
                   "0.03 given with it, which replaces it; allowed: one of preload.tilt and "
                   "preload.angle"]


def test_a_tilt_changed_after_loading_under_the_files_angle_is_refused():
    """The file's angle would be read and the change ignored: refused, not undone."""
    case = load_case("sdnv105_rigid")
    case.preload.tilt = 0.3
    with pytest.raises(CaseError, match=r"preload\.tilt: 0\.3 has no effect: preload\.angle "
                                        r"= 0\.01 of .*sdnv105_rigid\.toml \(as loaded\) "
                                        r"replaces it; allowed: set preload\.angle = None too"):
        rc.run(case, write=False, quiet=True)
    case.preload.angle = None
    result = rc.run(case, write=False, quiet=True, plots=False)
    assert result.parameters["preload"] == {"tilt": 0.3, "pivot": "O1", "angle": None}


def test_the_rigid_command_runs_the_tilt_as_its_angle(tmp_path, capsys):
    """rigid --set preload.tilt=0.02 and --set preload.angle=asin(0.02): one run."""
    runs = {}
    for key, value in (("tilt", "0.02"), ("angle", repr(math.asin(0.02)))):
        out = tmp_path / key
        assert main(["rigid", "--set", f"preload.{key}={value}", "--set", "time.end=0.1",
                     "--out", str(out), "--no-plots"]) == 0
        runs[key] = (read_history_csv(out / "history.csv"),
                     json.loads((out / "results.json").read_text()))
        printed = capsys.readouterr().out
        assert "released at 0.0200013 rad;" in printed.splitlines()[0]
    (tilt, tilt_json), (angle, angle_json) = runs["tilt"], runs["angle"]
    assert all((tilt[c] == angle[c]).all() for c in tilt)
    assert tilt_json["quantities"] == angle_json["quantities"]
    assert "preload.angle" in tilt_json["extra"]["unread"]
    assert "preload.tilt" in angle_json["extra"]["unread"]


def test_keys_say_the_units_of_the_release():
    from rocking_contact.config import kind_schema, schema_doc

    rows = {key: doc for key, _, _, doc in schema_doc(kind_schema("rigid"))}
    assert "[rad]" in rows["preload.angle"] and "replaces tilt" in rows["preload.angle"]
    assert "a ratio, no unit" in rows["preload.tilt"] and "[rad]" not in rows["preload.tilt"]
