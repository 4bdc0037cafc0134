"""The case-file machinery: typed building, partial tables, overrides, extends."""

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from rocking_contact.config import (
    CaseError,
    apply_overrides,
    build,
    load_case,
    param,
    physics_changes,
)
from rocking_contact.loads import table_samples


@dataclass(kw_only=True)
class Inner:
    young: float = param(unit="Pa")
    density: float = param(1.0)


@dataclass(kw_only=True)
class Outer:
    block: Inner = param(default_factory=lambda: Inner(young=6e11, density=1450.0))


def test_partial_table_completes_the_default_instance():
    obj = build(Outer, {"block": {"density": 2000.0}}, file="<t>")
    assert obj.block == Inner(young=6e11, density=2000.0)


def test_overrides_reach_list_items_and_create_tables():
    data = {"a": [{"x": 1}, {"x": 2}]}
    apply_overrides(data, ["a.1.x=3", "b.c=true", "d=[1, 2]", "e=word"])
    assert data == {"a": [{"x": 1}, {"x": 3}], "b": {"c": True}, "d": [1, 2], "e": "word"}
    with pytest.raises(CaseError, match="index"):
        apply_overrides(data, ["a.7.x=1"])


def test_list_items_take_the_index_as_error_messages_write_it():
    """``a[1].x`` (as the messages print keys) and ``a.1.x`` both work, on the command line
    and in the Python API's dicts alike."""
    for overrides in (["a[1].x=3"], ["a.1.x=3"], {"a[1].x": 3}, {"a.1.x": 3}):
        data = {"a": [{"x": 1}, {"x": 2}]}
        apply_overrides(data, overrides)
        assert data == {"a": [{"x": 1}, {"x": 3}]}, overrides
    with pytest.raises(CaseError) as err:
        apply_overrides({"a": [{"x": 1}]}, {"a[4].x": 1})
    assert (err.value.key, err.value.problem) == (
        "a[4]", "got index '4', allowed: an index 0..0 (set the whole list to add items)")
    with pytest.raises(CaseError) as err:
        apply_overrides({"a": []}, ["a.0.x=1"])
    assert err.value.problem.startswith("got index '0', allowed: none: the list is empty")
    assert load_case("sdnd101a", ["model.shock[0].kn=2e6"]).model.shock[0].kn == 2e6
    assert load_case("sdnd101a", {"model.shock[0].kn": 2e6}).model.shock[0].kn == 2e6


def test_values_are_quoted_as_toml_spells_them():
    with pytest.raises(CaseError) as err:
        build(Outer, {"block": {"young": True}}, file="f.toml")
    assert str(err.value) == ("f.toml: block.young: got true, allowed: a number, "
                              "|x| <= 1e+16 Pa")


def test_errors_name_the_key_and_what_is_allowed():
    with pytest.raises(CaseError) as err:
        build(Outer, {"block": {"young": "stiff"}}, file="f.toml")
    assert str(err.value) == ("f.toml: block.young: got 'stiff', allowed: a number, "
                              "|x| <= 1e+16 Pa")


def test_a_table_given_in_python_overrides_merges_into_the_case_table():
    case = load_case("sdnd101a", {"time": {"step": 1e-4}})
    assert (case.time.step, case.time.end) == (1e-4, 0.5)  # time.end kept from the file
    with pytest.raises(CaseError, match=r"\(with overrides\): time.step"):
        load_case("sdnd101a", {"time.step": -1.0})


def test_a_case_changed_after_loading_is_checked_again_by_run():
    import rocking_contact as rc

    case = load_case("sdnd101a")
    case.time.step = -1.0
    with pytest.raises(CaseError, match=r"\(changed after loading\): time.step: got -1"):
        rc.run(case, write=False)


def test_a_setting_changed_after_loading_for_a_variant_that_ignores_it_is_refused():
    """``case.contact.restitution = 0.5`` on a Lagrange case would act on nothing; a
    variant switched after loading leaves the file's settings behind, as ``--set`` does."""
    from rocking_contact.api import _check_again

    case = load_case("sdnv105a")
    case.contact.restitution = 0.5
    with pytest.raises(CaseError, match=r"sdnv105a\.toml \(changed after loading\): "
                       r"contact\.restitution: 0\.5 has no effect with contact\.treatment "
                       r"= 'lagrange'"):
        _check_again(case)
    case = load_case("sdnv105d")
    case.contact.treatment, case.scheme.type = "lagrange", "newmark"
    _check_again(case)  # the file's theta = 0.6 is left behind
    case.scheme.theta = 0.7
    with pytest.raises(CaseError, match=r"scheme\.theta: 0\.7 has no effect"):
        _check_again(case)


@pytest.mark.parametrize("name,overrides,changed", [
    ("sdnd100a", {"model.shock[0].friction": "exact", "time.step": 1e-4}, []),
    ("sdnd100a", {"model.shock[0].mu": 0.2}, ["model.shock.0.mu"]),
    ("sdnv105a", {"kinematics.type": "small_strain", "contact.tolerance": 1e-8}, []),
    ("sdnv105a", {"contact.mu": 0.5, "preload.tilt": 0.02}, ["contact.mu", "preload.tilt"]),
    ("sdnv105b", {"contact.spring[1].dashpots": "clipped"}, []),
    ("sdnv105b", {"contact.spring[1].normal_stiffness": 1e9},
     ["contact.spring.1.normal_stiffness"]),
])
def test_physics_changes_leave_out_the_method(name, overrides, changed):
    """What invalidates a case's references: physics, not steps, schemes or law variants."""
    assert physics_changes(load_case(name, overrides)) == changed


@pytest.mark.parametrize("name,overrides,kept", [
    # the file's theta = 0.6 stays behind, unread, when overrides pick Lagrange and Newmark
    ("sdnv105d", {"contact.treatment": "lagrange", "scheme.type": "newmark"},
     ("scheme", "theta", 0.6)),
    # the file's cell size stays behind when an override picks the fixed Code_Aster mesh
    ("sdnv105a_fine", {"mesh.layout": "aster"}, ("mesh", "element_size", 0.02)),
    # a default value has no effect either way: given with its non-reader, it is no mistake
    ("sdnd101a", {"solver.space": "physical", "solver.modes": 0}, ("solver", "modes", 0)),
])
def test_switching_variant_leaves_the_old_variants_settings_behind(name, overrides, kept):
    """A setting given in an earlier layer (extended file < file < override) than the
    choice of variant is not the user's mistake: the later choice switched variant."""
    case = load_case(name, overrides)
    section, key, value = kept
    assert getattr(getattr(case, section), key) == value
    for dotted, chosen in overrides.items():
        first, _, second = dotted.partition(".")
        assert getattr(getattr(case, first), second) == chosen


def test_an_extending_file_that_switches_treatment_leaves_the_parents_behind(tmp_path):
    """Parent: theta with a restitution; child: Lagrange. The restitution is the parent's,
    left behind; given in the child itself, with Lagrange, it is refused."""
    shipped = load_case("sdnv105d").source_file
    parent = tmp_path / "parent.toml"
    # a copy of the shipped file loads as it is: its parent is named as a shipped case
    parent.write_text(shipped.read_text().replace("restitution = 0.0", "restitution = 0.5"))
    child = tmp_path / "child.toml"
    child.write_text('extends = "parent.toml"\n[contact]\ntreatment = "lagrange"\n'
                     '[scheme]\ntype = "alpha_newmark"\n')
    case = load_case(child)
    assert case.contact.treatment == "lagrange" and case.contact.restitution == 0.5
    child.write_text('extends = "parent.toml"\n[contact]\ntreatment = "lagrange"\n'
                     'restitution = 0.3\n[scheme]\ntype = "alpha_newmark"\n')
    with pytest.raises(CaseError, match=r"child\.toml: contact\.restitution: 0\.3 has no "
                                        r"effect with contact\.treatment = 'lagrange'"):
        load_case(child)


def test_a_setting_given_with_its_variant_that_does_not_read_it_is_refused(tmp_path):
    text = (tmp_path / "x.toml")
    parent = load_case("sdnv105d").source_file
    text.write_text(f'extends = "{parent}"\n[contact]\nsearch_distance = 1e-3\n')
    with pytest.raises(CaseError, match=r"x\.toml: contact\.search_distance: 0\.001 has no "
                                        r"effect with contact\.treatment = 'theta'"):
        load_case(text)


def test_a_file_extends_a_shipped_case_by_name(tmp_path):
    """``extends = "sdnv105d"`` from anywhere: a file next to the child comes first."""
    child = tmp_path / "mine.toml"
    child.write_text('extends = "sdnv105d"\n[case]\nname = "mine"\n[time]\nend = 0.1\n')
    case = load_case(child)
    assert case.contact.treatment == "theta" and case.time.end == 0.1
    child.write_text('extends = "sdnv105x"\n')
    with pytest.raises(CaseError, match=r"mine\.toml: extends: no such file sdnv105x \(allowed: "
                                        r"a path relative to this file, or a shipped case's "
                                        r"name"):
        load_case(child)


@pytest.mark.parametrize("parent, hint", [
    ("sdnv105d.toml", '; a shipped case is given by its name alone: extends = "sdnv105d")'),
    ("variants/sdnv105d_fine.toml",
     '; a shipped case is given by its name alone: extends = "sdnv105d_fine")'),
    ("sdnv105", "; close: sdnv105d, sdnv105c, sdnv105b)"),
    ("xyz", ": rocking-contact list)"),
])
def test_a_shipped_case_extended_by_its_file_name_or_a_typo_is_offered_its_name(
        tmp_path, parent, hint):
    """A user who saw cases/sdnv105d.toml wrote extends = "sdnv105d.toml" and was told 'no
    such file' without the fix; a typo got no close names, which resolve_case_path gives."""
    child = tmp_path / "mine.toml"
    child.write_text(f'extends = "{parent}"\n')
    with pytest.raises(CaseError) as error:
        load_case(child)
    assert str(error.value).startswith(f"{child}: extends: no such file {parent} (allowed: ")
    assert str(error.value).endswith(hint)


def test_the_python_api_takes_one_override_string_and_numpy_scalars():
    """What a script has at hand: one "key=value" string, NumPy numbers (not bools)."""
    assert load_case("sdnd101a", "time.step=1e-4").time.step == 1e-4
    case = load_case("sdnd101a", {"output.every": np.int64(2), "time.step": np.float64(1e-4)})
    assert case.output.every == 2 and type(case.output.every) is int
    with pytest.raises(CaseError, match="output.every: got true, allowed: an integer > 0$"):
        load_case("sdnd101a", {"output.every": True})


def test_numpy_arrays_are_read_as_lists():
    """A velocity or a record built with NumPy: refused ("expected a list of 3 values ...,
    got array([2., 0., 0.])") unless turned into a list; a float32 item is the decimal it
    was given as, and the override still has its ``--set`` spelling for ``rerun``."""
    import rocking_contact as rc

    case = rc.load_case("sdnd101a", {"model.node.0.v0": np.array([1.25, 0, 0])})
    assert case.model.node[0].v0 == (1.25, 0.0, 0.0)
    assert case.load_info.load_record["set"] == (["model.node.0.v0=[1.25, 0.0, 0.0]"], "")
    shaken = load_case("sdnv105_rigid", {"loading.table_acceleration_x": {
        "type": "table", "times": np.linspace(0.0, 1.0, 3),
        "values": np.array([0, 0.1, 0], np.float32)}})
    assert shaken.loading.table_acceleration_x.values == [0.0, 0.1, 0.0]
    with pytest.raises(CaseError, match=r"v0: got \[2\.0, 0\.0\], allowed: a list of 3 values "
                                        r"\(a number each\), \|x\| <= 1000 m/s$"):
        load_case("sdnd101a", {"model.node.0.v0": np.array([2.0, 0.0])})


def test_run_takes_a_case_name_as_it_stands():
    import rocking_contact as rc

    result = rc.run("sdnd101a", write=False, plots=False, quiet=True)
    assert result.case == "sdnd101a" and result.passed


def test_a_table_given_for_a_list_item_merges_into_it():
    """As a table given for a table does: the other keys of the item stay."""
    case = load_case("sdnv105b", ["time.window.1={step=1e-5}"])
    assert (case.time.window[1].start, case.time.window[1].step) == (0.05375, 1e-5)
    assert case.time.window[1].alpha == -0.1


def test_a_mistyped_attribute_on_a_loaded_case_is_refused():
    """``case.time.stpe = 1e-3`` would be ignored by the run: refused as in a file, with
    the close key named as a file's misspelling is."""
    import rocking_contact as rc

    case = load_case("sdnd101a")
    case.time.stpe = 1e-3
    with pytest.raises(CaseError, match=r"time\.stpe: unknown key \(allowed: start, end, "
                                        r"step; close: step\)"):
        rc.run(case, write=False, quiet=True)


def test_setting_the_source_file_says_what_to_do_instead():
    """``case.source_file`` is the file the case's record says it read: set or deleted, it
    said "property 'source_file' of 'DiscreteCase' object has no setter"; now where the
    case came from and what to do instead, and the case keeps its file."""
    from rocking_contact.config import as_dict, build

    case = load_case("sdnd101a")
    source = case.source_file
    allowed = ("allowed: rc.load_case(<case file>) for another file's case; a path set in "
               "Python (a record's) is read from the current directory")
    for change in (lambda: setattr(case, "source_file", "mine.toml"),
                   lambda: delattr(case, "source_file")):
        with pytest.raises(AttributeError) as refused:
            change()
        assert str(refused.value) == (f"case.source_file is read-only: the case was loaded "
                                      f"from {source}; {allowed}")
    assert case.source_file == source and source.name == "sdnd101a.toml"
    built = build(type(case), as_dict(case), file="code")
    with pytest.raises(AttributeError, match=r"^case\.source_file is read-only: the case "
                                             r"was built in code; allowed: "):
        built.source_file = source


def test_a_record_is_read_next_to_the_file_that_names_it(tmp_path, monkeypatch):
    """A CSV record named in an extended file in another folder is that file's: the child
    reads ``sub/ux.csv``, not ``ux.csv`` next to itself, and loads the same value as the
    parent (its references stay graded: no change of physics between the two)."""
    sub = tmp_path / "sub"
    sub.mkdir()
    np.savetxt(sub / "ux.csv", [[0.0, 0.0], [0.5, 3.0]], delimiter=",")
    parent = sub / "parent.toml"
    parent.write_text('extends = "sdnv105d_shaking"\n'
                      '[loading.table_acceleration_x]\ntype = "table"\namplitude = 1.0\n'
                      'path = "ux.csv"\n')
    child = tmp_path / "child.toml"
    child.write_text('extends = "sub/parent.toml"\n[time]\nend = 0.1\n')
    case, base = load_case(child), load_case(parent)
    record = case.loading.table_acceleration_x.path
    assert record == base.loading.table_acceleration_x.path == str(sub / "ux.csv")
    assert physics_changes(case, base) == []
    # given on the command line (or to load_case), a record is relative to the current
    # directory, where it was typed (it was read next to the loaded file: ux.csv in the
    # current directory was "cases/variants/ux.csv: no such file")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    np.savetxt(elsewhere / "uy.csv", [[0.0, 0.0], [0.5, 1.0]], delimiter=",")
    monkeypatch.chdir(elsewhere)
    for overrides in (["loading.table_acceleration_x.path=uy.csv"],
                      {"loading.table_acceleration_x.path": "uy.csv"},
                      {"loading.table_acceleration_x": {"type": "table", "path": "uy.csv"}}):
        moved = load_case(child, overrides)
        assert moved.loading.table_acceleration_x.path == str(elsewhere / "uy.csv")
        assert table_samples(moved.loading.table_acceleration_x)[1].tolist() == [0.0, 1.0]
    given = {"loading.table_acceleration_x": {"type": "table", "path": "uy.csv"}}
    load_case("sdnv105d_shaking", given)
    assert given["loading.table_acceleration_x"]["path"] == "uy.csv"  # the caller's, as given
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CaseError, match=r"path: .*sub/ux\.csv: no such file"):
        (sub / "ux.csv").unlink()
        load_case(child)


def test_an_inline_table_override_sets_only_the_keys_it_names():
    """It merges into the file's table: a table record given for sdnv105d_shaking's sine
    leaves the file's frequency behind (it was refused, "frequency: 2.0 has no effect with
    type 'table'", as if the override had given it), and its amplitude (the sine's peak,
    which scaled the table by 6: tests/test_config_inherited.py); a key it names itself
    that the new variant does not read is still refused."""
    table = '{type = "table", times = [0.0, 1.0], values = [0.0, 1.0]}'
    for overrides in ([f"loading.table_acceleration_x={table}"],
                      {"loading.table_acceleration_x": {"type": "table", "times": [0.0, 1.0],
                                                        "values": [0.0, 1.0]}}):
        case = load_case("sdnv105d_shaking", overrides)
        f = case.loading.table_acceleration_x
        assert (f.type, f.times, f.amplitude, f.frequency) == ("table", [0.0, 1.0], 1.0, 2.0)
        assert physics_changes(case) == ["loading.table_acceleration_x.amplitude",
                                         "loading.table_acceleration_x.times",
                                         "loading.table_acceleration_x.type",
                                         "loading.table_acceleration_x.values"]
    with pytest.raises(CaseError, match=r"sdnv105d_shaking\.toml \(with --set\): "
                                        r"loading\.table_acceleration_x\.frequency: 3\.0 has "
                                        r"no effect with loading\.table_acceleration_x\.type "
                                        r"= 'table'"):
        load_case("sdnv105d_shaking",
                  ['loading.table_acceleration_x={type = "table", frequency = 3.0, '
                   'times = [0.0, 1.0], values = [0.0, 1.0]}'])


def test_keys_of_a_table_with_a_default_instance_default_to_its_values():
    """A case without [material.table] gets SDNV105's table (a partial table completes the
    default instance): `keys` listed its young, poisson and density as required."""
    from rocking_contact.config import kind_schema, schema_doc

    rows = {key: default for key, _, default, _ in schema_doc(kind_schema("block"))}
    assert rows["material.table.young"] == "1e+14"  # printed 100000000000000.0 before S31
    assert rows["material.block.density"] == "1450.0"
    assert rows["time.end"] == "(required)"


@pytest.mark.parametrize("case", ["sdnd101a", "sdnv105a", "sdnv105_rigid"])
def test_keys_say_an_unnamed_case_takes_its_files_name(case, capsys):
    """`keys` listed case.name as required, of every kind: a file without a name, or one
    that unsets it (--set case.name=, 6e2c37b), takes its file's name; a key the case
    needs (case.title) is still listed as required."""
    from rocking_contact.cli import main
    from rocking_contact.config import kind_of, kind_schema, schema_doc

    rows = {key: default for key, _, default, _ in schema_doc(kind_schema(kind_of(case)))}
    assert rows["case.name"] == "the case file's name (without .toml)"
    assert rows["case.title"] == "(required)"
    assert main(["keys", case]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()
             if line.startswith("  case.")}
    assert lines["case.name"].split(None, 1)[1].startswith(
        "a string, default the case file's name (without .toml); short name, used for the "
        "results directory (not given or unset: its own file's name, never its parent's)")
    assert lines["case.title"].split(None, 1)[1].startswith("a string, required; ")


def test_an_empty_case_name_is_named_in_its_error():
    """rc.load_case("") said ": no such case file ..." (an empty file name)."""
    with pytest.raises(CaseError) as info:
        load_case("")
    assert str(info.value).startswith("'': no such case file or shipped case (shipped: ")


def test_a_record_with_a_line_of_column_names_reads_as_without(tmp_path):
    """A spreadsheet's 't_s,ax' first line was refused ('could not convert string')."""
    from rocking_contact.loads import TimeFunction, table_samples

    plain, named = tmp_path / "plain.csv", tmp_path / "named.csv"
    plain.write_text("# a comment\n0,0\n0.1,1.5\n0.2,-1\n")
    named.write_text("# a comment\nt_s, ax_m_s2\n0,0\n0.1,1.5\n0.2,-1\n")
    a = table_samples(TimeFunction(type="table", path=str(plain)))
    b = table_samples(TimeFunction(type="table", path=str(named)))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert b[1].tolist() == [0.0, 1.5, -1.0]


def test_keys_say_what_preload_tilt_is_for_each_kind(capsys):
    """`keys sdnv105d` labelled preload.tilt "[rad]": for a FEM block it is the sine of the
    release angle (--set preload.tilt=0.43 said "releases the block at 0.444493 rad");
    the rigid block's is the same pull, beside its own preload.angle [rad] (U1 #8)."""
    import math

    from rocking_contact.cli import main

    def tilt_row(case):
        assert main(["keys", case]) == 0
        return next(line for line in capsys.readouterr().out.splitlines()
                    if line.split()[:1] == ["preload.tilt"])

    block = tilt_row("sdnv105d")
    assert "[rad]" not in block and "no angle but the sine of the release angle" in block
    assert "0.3: 0.304693 rad" in block
    assert load_case("sdnv105d", ["preload.tilt=0.3"]).release_angle == pytest.approx(
        math.asin(0.3), rel=1e-12)
    rigid = tilt_row("sdnv105_rigid")
    assert "[rad]" not in rigid and "no angle but the sine of the release angle" in rigid
    assert "0.3: 0.304693 rad" in rigid and "preload.angle gives the angle itself" in rigid
    assert load_case("sdnv105_rigid", ["preload.tilt=0.3"]).release_angle == (
        load_case("sdnv105d", ["preload.tilt=0.3"]).release_angle)


def test_a_float32_step_is_the_decimal_it_was_given_as():
    """``np.float32(1e-4)`` is 9.99999974737875e-05 in binary: it was refused as a step
    that does not divide a 0.05 s run, "such as 0.0001", while 1.0000000001e-4 passed."""
    case = load_case("sdnd101a", {"time.end": 0.05, "time.step": np.float32(1e-4)})
    assert case.time.step == 1e-4 and case.time.n_steps == 500
    assert load_case("sdnd101a", {"model.shock.0.kn": np.float32(0.1)}).model.shock[0].kn == 0.1
    with pytest.raises(CaseError, match=r"time\.step: 0\.000100000001 does not divide"):
        load_case("sdnd101a", {"time.end": 0.05, "time.step": 1.00000001e-4})


def test_texts_given_from_python_can_be_called_overrides():
    """``rc.load_case(name, ["time.step=-1"])`` said "(with --set)": not typed there."""
    with pytest.raises(CaseError, match=r"sdnd101a\.toml \(with overrides\): time\.step: got"):
        load_case("sdnd101a", ["time.step=-1"], given="overrides")
    with pytest.raises(CaseError, match=r"sdnd101a\.toml \(with --set\): time\.step: got"):
        load_case("sdnd101a", ["time.step=-1"])


def test_inline_times_going_back_name_their_index():
    with pytest.raises(CaseError, match=r"loading\.table_acceleration_x\.times\[2\]: 0\.1 "
                                        r"after 0\.2; allowed: times increasing strictly"):
        load_case("sdnv105_rigid", {"loading.table_acceleration_x": {
            "type": "table", "times": [0.0, 0.2, 0.1], "values": [0.0, 1.0, 2.0]}})


def test_a_record_path_set_after_loading_is_read_from_the_current_directory(
        tmp_path, monkeypatch):
    """As one given by --set or in overrides: ``case.loading.table_acceleration_x.path =
    "ux.csv"`` was read next to the shipped case ("cases/ux.csv: no such file")."""
    from rocking_contact.loads import TimeFunction, time_function_values

    monkeypatch.chdir(tmp_path)
    np.savetxt(tmp_path / "ux.csv", [[0.0, 0.0], [1.0, 2.0]], delimiter=",")
    case = load_case("sdnv105_rigid")
    f = case.loading.table_acceleration_x
    f.type, f.path = "table", "ux.csv"
    assert f.path == str(tmp_path / "ux.csv")
    assert time_function_values(f, np.array([0.5])).tolist() == [1.0]
    case.loading.table_acceleration_y = TimeFunction(type="table", path="ux.csv")
    assert case.loading.table_acceleration_y.path == str(tmp_path / "ux.csv")


def test_windows_past_the_end_are_refused_where_the_end_was_given_with_them(tmp_path):
    """``--set collisions.windows=[[0.2,0.3]]`` on a 0.12 s run measured nothing, exit 0,
    without a word; a shortened run (``--set time.end``, a child's earlier end) keeps the
    windows it cuts off, which say "not reached"."""
    with pytest.raises(CaseError) as err:
        load_case("sdnv105d", ["time.end=0.12", "collisions.windows=[[0.2, 0.3]]"])
    assert str(err.value).endswith(
        "sdnv105d.toml (with --set): collisions.windows[0]: starts at 0.2 s, at or after "
        "time.end = 0.12 s: the run never reaches it; allowed: a start before 0.12 s, or a "
        "longer time.end")
    assert load_case("sdnv105a", ["time.end=0.06"]).time.end == 0.06
    short = tmp_path / "short.toml"
    short.write_text('extends = "sdnv105a"\n[time]\nend = 0.08\n')
    assert len(load_case(short).time.window) == len(load_case("sdnv105a").time.window)
    short.write_text('extends = "sdnv105a"\n[time]\nend = 0.08\nwindow = [{start = 0.2, '
                     'end = 0.3, step = 1e-5}]\n')
    with pytest.raises(CaseError, match=r"short.toml: time.window\[0\]: starts at 0.2 s, at "
                       r"or after time.end = 0.08 s"):
        load_case(short)
    # a child's windows under its parent's end are the child's to fix
    mine = tmp_path / "mine.toml"
    mine.write_text('extends = "short.toml"\n[collisions]\nwindows = [[0.0, 0.05], '
                    '[0.09, 0.1]]\n')
    short.write_text('extends = "sdnv105a"\n[time]\nend = 0.08\n')
    with pytest.raises(CaseError, match=r"mine.toml: collisions.windows\[1\]: starts at "
                       r"0.09 s"):
        load_case(mine)


def test_a_disabled_refinement_needs_none_of_its_keys(tmp_path):
    """``[time.refine]`` with ``enabled = false`` written in a case of its own: step and hold,
    which a refinement requires, are not asked for (a disabled one could only be written in
    a file that extends a case having one: "step: missing", then, given, "has no effect")."""
    own = tmp_path / "own.toml"
    text = (Path(__file__).parents[1] / "cases" / "sdnv105_preload.toml").read_text()
    own.write_text(text + "\n[time.refine]\nenabled = false\n")
    assert load_case(own).time.refine.enabled is False
    assert load_case("sdnv105_preload", ["time.refine={enabled=false}"]).time.refine.step is None
    with pytest.raises(CaseError, match=r"time.refine.step: missing"):
        load_case("sdnv105_preload", ["time.refine={enabled=true}"])
    with pytest.raises(CaseError, match=r"time.refine.step: 1e-05 has no effect"):
        load_case("sdnv105_preload", ["time.refine={enabled=false,step=1e-5,hold=0.0}"])


def test_a_record_in_milliseconds_is_said(tmp_path):
    """A 200 Hz record whose times were written in ms (0, 5, 10, ... 200) shook a 0.15 s
    run with the straight line between its first two samples, silently (audit s25, nit
    4); the same record in s, or a two-point ramp, is a record the run sees."""
    from rocking_contact.loads import TimeFunction, held_values

    t_ms = np.arange(0.0, 205.0, 5.0)
    values = np.sin(2 * np.pi * 5e-3 * t_ms)
    (tmp_path / "ms.csv").write_text("".join(f"{t},{v}\n" for t, v in zip(t_ms, values)))
    (tmp_path / "s.csv").write_text("".join(f"{t},{v}\n" for t, v in zip(1e-3 * t_ms,
                                                                         values)))
    ms = TimeFunction(type="table", path=str(tmp_path / "ms.csv"))
    assert held_values(ms, "loading.table_acceleration_x", 0.0, 0.15) == [
        "loading.table_acceleration_x: the run [0, 0.15] s lies between two samples of the "
        "record, at t = 0 and 5 s: it sees the straight line between them, not the record "
        "(are its times in seconds?)"]
    seconds = TimeFunction(type="table", path=str(tmp_path / "s.csv"))
    assert held_values(seconds, "loading.table_acceleration_x", 0.0, 0.15) == []
    ramp = TimeFunction(type="table", times=[0.0, 1.0], values=[0.0, 5.0])
    assert held_values(ramp, "loading.table_acceleration_x", 0.0, 0.15) == []


def test_a_child_of_another_kind_is_told_its_kind_not_its_parents_keys(tmp_path):
    """A child of sdnv105d given kind = "rigid" (to get the rigid block) was told
    'cases/sdnv105a.toml (extended by ...): mesh: unknown key', a file it did not edit;
    the refusal names its own case.kind, the parent's kind and the rigid command."""
    child = tmp_path / "own.toml"
    child.write_text('extends = "sdnv105d"\n[case]\nkind = "rigid"\n')
    with pytest.raises(CaseError) as error:
        load_case(child)
    assert str(error.value) == (
        f"{child}: case.kind: got 'rigid', and sdnv105a.toml, which it extends, is a 'block' "
        "case: its mesh is no key of kind 'rigid'; allowed: 'block', or a case file of kind "
        "'rigid' that does not extend it; for the rigid block of this block case, keep kind "
        f"'block' and run rocking-contact rigid {child}")
    child.write_text('extends = "sdnd101a"\n[case]\nkind = "block"\n')
    with pytest.raises(CaseError, match=r"case\.kind: got 'block', and sdnd101a\.toml, which "
                                        r"it extends, is a 'discrete' case: its model is no "
                                        r"key of kind 'block'; allowed: 'discrete', or a case "
                                        r"file of kind 'block' that does not extend it$"):
        load_case(child)
    # a parent without a kind gives shared keys to children of either kind
    (tmp_path / "base.toml").write_text("[geometry]\nhalf_width = 0.2\n")
    child.write_text('extends = "base.toml"\n[case]\ntitle = "r"\nkind = "rigid"\n'
                     '[time]\nend = 0.1\nstep = 1e-3\n')
    assert load_case(child).geometry.half_width == 0.2
