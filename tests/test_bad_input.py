"""Bad input: one line on stderr naming the file and key, exit code 2, no traceback."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from rocking_contact.cli import main
from rocking_contact.config import load_case, shipped_cases

CASE = "sdnd101a"

# (--set overrides, words the message must contain)
BAD_SETS = [
    (["time.stpe=1e-4"], ["time.stpe", "unknown key", "allowed: start, end, step"]),
    (["nosuch.section=1"], ["nosuch", "unknown key"]),
    (["time.step=abc"], ["time.step: got 'abc', allowed: a number > 0, |x| <= 1e+06 s"]),
    # a number with a unit: the key's unit is said (test_a_number_with_a_unit_...)
    (["time.step=1e-4 s"], ["time.step: got '1e-4 s', allowed: a number alone, read in s, "
                            "such as 1e-4"]),
    (["time.step=0"], ["time.step", "> 0"]),
    (["time.step=-1e-3"], ["time.step", "> 0"]),
    (["time.end=-1"], ["time.end", "not after start"]),
    (["model.node.0.mass=-1"], ["model.node[0].mass", ">= 0"]),
    (["model.node.0.mass=0"], ["model.node[0].mass", "needs mass"]),
    (["solver.scheme=rk4"], ["solver.scheme", "one of 'central_difference'"]),
    (["model.shock.0.node=NO9"], ["model.shock[0].node", "unknown node 'NO9'"]),
    # the nodes it may name, as model.shock's and model.spring's messages say them
    (["output.nodes=[\"NO9\"]"], ["output.nodes[0]", "unknown node 'NO9' (nodes: NO1)"]),
    (["model.shock.5.kn=1"], ["model.shock[5]", "index"]),
    (["model.shock[5].kn=1"], ["model.shock[5]", "index 0..0"]),
    (["model.shock[0].kn=true"], ["model.shock[0].kn: got true, allowed: a number > 0, "
                                   "|x| <= 1e+16 N/m"]),
    (["model.node[0].v0=[1, false, 0]"], ["model.node[0].v0[1]", "got false"]),
    (["model.node.0.v0=[1, 2]"], ["model.node[0].v0", "list of 3"]),
    (["output.every=0"], ["output.every", "> 0"]),
    (["solver.alpha=0.5"], ["solver.alpha", "[-0.333333, 0]"]),
    (["model.shock.0.friction=exact", "solver.scheme=newmark"], ["solver.scheme", "exact"]),
    (["model.spring.0.nodes=[]"], ["model.spring[0].nodes", "one node"]),
    # what a key without '=' may take, as `keys` says it (tests/test_set_without_value.py)
    (["time.step"], ["time.step: no '=' after the key (allowed: time.step=VALUE, VALUE a "
                     "number > 0, |x| <= 1e+06 s)"]),
    (["solver.modes=2"], ["solver.modes: got 2, allowed: 0..1 (unknowns of this model)"]),
    (["solver.space=physical", "solver.modes=5"],
     ["solver.modes: 5 has no effect with solver.space = 'physical'", "or space 'modal'"]),
    (["time.step=1e-12"], ["time.step: got 1e-12, allowed: at most 1e+08 steps from time.start 0 "
                           "to time.end 0.5 s, a step >= 5e-09 s", "makes 5e+11 steps"]),
    (["time.end=1e6"], ["time.step", "time.end 1e+06 s", "makes 2e+09 steps"]),
    (["time.step=1e-8"], ["output.every: got 1, allowed: >= 6", "50000001 history rows"]),
    (["case.name=../../elsewhere"], ["case.name: got '../../elsewhere'", "no path"]),
    (["solver.alpha=-0.1"], ["solver.alpha: -0.1 has no effect with solver.scheme = "
                             "'central_difference'", "allowed: leave it out, or scheme 'hht'"]),
    # TOML's inf and nan: tracebacks from scipy, or all-NaN runs reported as completed
    (["model.shock.0.kn=inf"], ["model.shock[0].kn: got inf, allowed: a finite number"]),
    (["model.node.0.u0=[nan, 0, 0]"], ["model.node[0].u0[0]: got nan, allowed: a finite"]),
    # no stick spring: a block that had slid to rest slid back, gaining energy
    (["model.shock.0.mu=0.2", "model.shock.0.kt=0"],
     ["model.shock[0].kt: 0 with mu = 0.2 and friction = 'regularised' leaves no stick spring",
      "allowed: a tangential stiffness > 0, or friction = 'exact'"]),
    # the zero vector's line had no "allowed:" part (S27 U1 #12d)
    (["model.support.direction=[0, 0, 0]"], [
        "model.support.direction: got [0.0, 0.0, 0.0], the zero vector; allowed: a vector of "
        "length >= 1e-12 (it is normalised)"]),
    (["model.shock[0].normal=[0, 0, 0]"], [
        "model.shock[0].normal: got [0.0, 0.0, 0.0], the zero vector; allowed: a vector of "
        "length >= 1e-12 (it is normalised)"]),
    # an initial state the supports hold: it was dropped silently
    (["model.node.0.u0=[0, 0.1, 0]"], ["model.node[0].u0: 0.1 on the fixed DY",
                                       "allowed: 0 there"]),
    # a step that does not divide the run: it ended at 0.5001 s, unsaid
    (["time.step=3e-4"], ["time.step: 0.0003 does not divide the run from time.start 0 to "
                          "time.end 0.5 s (1666.67 steps: 1666 steps of 0.0003 s end at "
                          "0.4998 s, 1667 at 0.5001 s)",
                          "allowed: a step that does, such as 0.00025 (2000 steps) or "
                          "0.000299940012 (1667 steps)"]),
    # its digits, as many as tell it from the suggestion: both read "0.0001 (500 steps)"
    (["time.step=1.00000001e-4", "time.end=0.05"], [
        "time.step: 0.000100000001 does not divide the run from time.start 0 to time.end "
        "0.05 s (499.999995 steps: 499 steps of 0.000100000001 s end at 0.0499000005 s, 500 "
        "at 0.0500000005 s); allowed: a step that does, such as 0.0001 (500 steps)"]),
    # a negative index read as a key: "model.shock[-1]: unknown key (allowed: node, ...)"
    (["model.shock[-1].kn=1"], ["model.shock[-1]: got index '-1', allowed: an index 0..0, "
                                "none negative"]),
    # a key inside a value: "time.step: is a value, not a table"
    (["time.step.x=1"], ["time.step: holds the value 0.0005, not a table: time.step.x names "
                         "no key; allowed: set time.step itself"]),
    (["time=0.1", "time.step=1"], ["time: holds the value 0.1, not a table"]),
    # another kind's keys were refused one by one: "model: unknown key"
    (["case.kind=rigid"], ["case.kind: cannot be overridden: got 'rigid', and the file's keys "
                           "are those of kind 'discrete'; allowed: 'discrete', or a case file "
                           "of the other kind"]),
    (["extends=sdnd100a"], ["extends: cannot be overridden", "allowed: a case file with "
                                                              "extends = 'sdnd100a'"]),
]


def assert_one_line_error(capsys, code, words):
    captured = capsys.readouterr()
    assert code == 2
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("error: ")
    assert "Traceback" not in captured.err
    for word in words:
        assert word in lines[0], (word, lines[0])


@pytest.mark.parametrize("overrides,words", BAD_SETS, ids=[" ".join(o) for o, _ in BAD_SETS])
def test_bad_override(capsys, tmp_path, overrides, words):
    argv = ["run", CASE, "--out", str(tmp_path)]
    for o in overrides:
        argv += ["--set", o]
    source = f"{load_case(CASE).source_file} (with --set)"  # the file, then key and words
    assert_one_line_error(capsys, main(argv), [source, *words])
    assert not (tmp_path / "results.json").exists()


def write_case(tmp_path: Path, text: str) -> str:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    return str(path)


GOOD = Path(__file__).parents[1] / "cases" / "sdnd101a.toml"

BAD_FILES = [
    ("missing reference source",
     lambda t: t + '\n[[reference]]\nquantity = "x"\nvalue = 1.0\nsource = " "\n',
     ["reference[15].source", "empty"]),
    ("reference without source",
     lambda t: t + '\n[[reference]]\nquantity = "x"\nvalue = 1.0\n',
     ["reference[15].source", "missing"]),
    ("invalid TOML", lambda t: t + "\n[time\n", ["not valid TOML"]),
    ("missing required key", lambda t: t.replace("step = 5.0e-4", ""), ["time.step", "missing"]),
    ("unknown kind", lambda t: t.replace('kind = "discrete"', 'kind = "fluid"'),
     ["case.kind", "'fluid'", "allowed: discrete"]),
    ("duplicate node", lambda t: t.replace('[[model.spring]]',
                                           '[[model.node]]\nname = "NO1"\nmass = 1.0\n\n'
                                           '[[model.spring]]'),
     ["model.node[1].name: 'NO1' defined twice (allowed: a name no other node has)"]),
    ("extends missing file", lambda t: 'extends = "nowhere.toml"\n' + t,
     ["extends", "nowhere.toml"]),
    ("a setting its scheme does not read", lambda t: t.replace(
        'scheme = "central_difference"', 'scheme = "central_difference"\nbeta = 0.3'),
     ["solver.beta: 0.3 has no effect with solver.scheme = 'central_difference'"]),
    ("a kind that is no string", lambda t: t.replace('kind = "discrete"', 'kind = ["discrete"]'),
     ["case.kind: got ['discrete'], allowed: discrete"]),
    ("no [case] table", lambda t: t.replace("[case]", "[cases]"), ["case.kind: missing"]),
]


@pytest.mark.parametrize("label,edit,words", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_case_file(capsys, tmp_path, label, edit, words):
    path = write_case(tmp_path, edit(GOOD.read_text()))
    assert_one_line_error(capsys, main(["run", path, "--out", str(tmp_path / "o")]),
                          [path, *words])


# A setting that the chosen variant would ignore, given by --set on the shipped block cases
UNREAD = [
    ("sdnv105a", "mesh.element_size=0.02", "mesh.layout = 'aster'", "layout 'structured'"),
    ("sdnv105a", "contact.restitution=0.5", "contact.treatment = 'lagrange'",
     "treatment 'theta'"),
    ("sdnv105b", "contact.augmentation_normal=2", "contact.treatment = 'penalty'",
     "treatment 'lagrange' or 'continuous'"),
    ("sdnv105d", "scheme.alpha=-0.1", "scheme.type = 'theta'", "type 'alpha_newmark' or 'hht'"),
    # D turns off the refinement it inherits from A: a refined step given to it went unread
    ("sdnv105d", "time.refine.hold=0.001", "time.refine.enabled = false", "enabled true"),
]


@pytest.mark.parametrize("case,setting,variant,readers", UNREAD, ids=[u[1] for u in UNREAD])
def test_a_setting_the_variant_does_not_read_is_refused(capsys, tmp_path, case, setting,
                                                         variant, readers):
    """Silently ignored, it would leave the user believing it acted."""
    code = main(["run", case, "--out", str(tmp_path), "--set", setting])
    key, value = setting.split("=")
    assert_one_line_error(capsys, code, [f"{case}.toml (with --set)", f"{key}: {value}",
                                         f"has no effect with {variant}",
                                         f"allowed: leave it out, or {readers}"])


# Each contact treatment with a scheme that cannot step it: Moreau-Jean's impulses live in the
# theta-method's velocity equation; a position-level contact on it returns the impact velocity.
MISMATCHED_SCHEMES = [
    ("sdnv105d", "newmark", "scheme.type: 'newmark' cannot step contact.treatment = 'theta'",
     "allowed: 'theta'"),
    ("sdnv105a", "theta", "scheme.type: 'theta' cannot step contact.treatment = 'lagrange'",
     "allowed: 'newmark', 'alpha_newmark', 'hht', or contact.treatment = 'theta'"),
    ("sdnv105c", "theta", "scheme.type: 'theta' cannot step contact.treatment = 'continuous'",
     "contact.treatment = 'theta'"),
]


@pytest.mark.parametrize("case,scheme,what,allowed", MISMATCHED_SCHEMES,
                         ids=[m[0] for m in MISMATCHED_SCHEMES])
def test_a_scheme_the_treatment_cannot_take_is_refused(capsys, tmp_path, case, scheme, what,
                                                        allowed):
    """sdnv105d with Newmark ran to 394 J of kinetic energy, silently."""
    code = main(["run", case, "--out", str(tmp_path), "--set", f"scheme.type={scheme}",
                 "--set", "time.refine.enabled=false"])
    assert_one_line_error(capsys, code, [f"{case}.toml (with --set)", what, allowed])


def test_an_initial_state_that_breaks_a_relation_is_refused(capsys, tmp_path):
    """SDND100's mass moves along x = y: u0 = [8.5e-4, 0, 0] was projected to 4.25e-4 on
    both, silently."""
    code = main(["run", "sdnd100a", "--out", str(tmp_path), "--set",
                 "model.node.0.u0=[8.5e-4, 0, 0]"])
    assert_one_line_error(capsys, code, [
        "model.relation[0]: the nodes' u0 break it (sum c_i u0_i = 0.00085)",
        "allowed: initial values that satisfy it"])


def test_a_shock_spring_with_friction_and_no_stick_spring_is_refused(capsys, tmp_path):
    code = main(["run", "sdnv105b", "--out", str(tmp_path), "--set",
                 "contact.spring.1.tangential_stiffness=0"])
    assert_one_line_error(capsys, code, [
        "contact.spring[1].tangential_stiffness: 0 with mu = 0.9 and friction = 'regularised' "
        "leaves no stick spring", "allowed: a tangential stiffness > 0"])


def test_a_rigid_comparison_without_a_preload_is_refused(capsys, tmp_path):
    """The rigid block starts from the preload's tilt; from rest there is none to start
    from (it used to warn after the run)."""
    code = main(["run", "sdnv105a", "--out", str(tmp_path), "--set", "initial.state=rest"])
    assert_one_line_error(capsys, code, [
        "sdnv105a.toml (with --set): initial.state: 'rest' gives no preload tilt to release "
        "the rigid block of collisions.rigid = true from; allowed: 'preload', or "
        "collisions.rigid = false"])
    # the key given last is named: a child's state, not its parent's rigid = true
    child = tmp_path / "rest.toml"
    child.write_text('extends = "sdnv105d"\n[initial]\nstate = "rest"\n')
    assert_one_line_error(capsys, main(["run", str(child), "--out", str(tmp_path)]), [
        f"error: {child}: initial.state: 'rest' gives no preload tilt"])
    # the file's own rigid = true, given by --set, is the one named
    code = main(["run", str(child), "--out", str(tmp_path), "--set", "collisions.rigid=true"])
    assert_one_line_error(capsys, code, [
        f"{child} (with --set): collisions.rigid: the rigid block is released from the "
        "preload's tilt, and initial.state = 'rest' has none; allowed: collisions.rigid = "
        "false, or initial.state = 'preload'"])


def test_a_tilt_past_the_overturning_angle_is_refused(capsys, tmp_path):
    """The pull of 0.42 releases the block at asin(0.42) = 0.4334 rad, past atan(b/l): it
    toppled through 7651 halved steps and was reported as completed."""
    code = main(["run", "sdnv105d", "--out", str(tmp_path), "--set", "preload.tilt=0.42"])
    assert_one_line_error(capsys, code, [
        "sdnv105d.toml (with --set): preload.tilt: 0.42 releases the block at 0.433445 rad, "
        "past its overturning angle atan(b/l) = 0.422854 rad", "allowed: below 0.410365"])


@pytest.mark.parametrize("setting,words", [
    ("contact.master=CONHAUT", "contact.master: got 'CONHAUT', allowed: 'CONBAS' (the table's "
                               "top)"),
    ("contact.master=CTGROUND", "contact.master: got 'CTGROUND', allowed: 'CONBAS'"),
    ("contact.slave=CONBAS", "contact.slave: got 'CONBAS', allowed: 'CONHAUT', 'CTBLO' (a "
                             "curve of the block)"),
])
def test_a_contact_pairing_off_the_block_and_table_top_is_refused(capsys, tmp_path, setting,
                                                                   words):
    """The block base as its own master ran without a word: the kinematics take the master
    for the table's top (normal out of the table) and the slave for block nodes."""
    code = main(["run", "sdnv105d", "--out", str(tmp_path), "--set", setting])
    assert_one_line_error(capsys, code, ["sdnv105d.toml (with --set)", words])


def test_springs_under_a_table_treatment_are_refused(capsys, tmp_path):
    """Point springs are B's supports; beside the table of A they would be ignored."""
    path = tmp_path / "a_with_springs.toml"
    path.write_text(f'extends = "{shipped_cases()["sdnv105a"].as_posix()}"\n'
                    '[[contact.spring]]\non = "O"\n')
    code = main(["run", str(path), "--out", str(tmp_path / "o")])
    assert_one_line_error(capsys, code, [
        f"{path}: contact.spring: 1 [[contact.spring]] table(s) has no effect with "
        "contact.treatment = 'lagrange'", "allowed: leave it out, or treatment 'penalty'"])


def test_a_moved_key_says_where_it_went(capsys, tmp_path):
    """The table accelerations of the rigid block moved from [rigid] to [loading]."""
    code = main(["rigid", "--out", str(tmp_path), "--set", "rigid.table_acceleration_y.type=sine"])
    assert_one_line_error(capsys, code, [
        "sdnv105_rigid.toml (with --set): rigid.table_acceleration_y: moved: set "
        "loading.table_acceleration_y instead"])


def test_unknown_case_name(capsys):
    assert_one_line_error(capsys, main(["run", "sdnd999"]), ["sdnd999", "shipped:"])


def test_validate_checks_every_input_before_running(capsys, tmp_path):
    code = main(["validate", "sdnd101a", "nosuch", "--out", str(tmp_path)])
    assert_one_line_error(capsys, code, ["nosuch"])
    assert not (tmp_path / "sdnd101a").exists()


def test_console_script_exit_code():
    """The installed entry point gives exit code 2 and no traceback."""
    exe = Path(sys.executable).parent / "rocking-contact"
    proc = subprocess.run([str(exe), "run", CASE, "--set", "time.step=0"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ") and "Traceback" not in proc.stderr


@pytest.mark.parametrize("command", ["run", "keys"])
def test_file_not_utf8(capsys, tmp_path, command):
    path = tmp_path / "bin.toml"
    path.write_bytes(b"\xff\xfe")
    assert_one_line_error(capsys, main([command, str(path)]), [f"{path}: not UTF-8 text"])


def test_error_in_an_extended_file_names_that_file(capsys, tmp_path):
    """The bad key is in the parent: the message names the parent, then who extends it."""
    (tmp_path / "parent.toml").write_text(
        GOOD.read_text().replace('scheme = "central_difference"', "schem = 1"))
    (tmp_path / "child.toml").write_text('extends = "parent.toml"\n[time]\nend = 0.4\n')
    (tmp_path / "grand.toml").write_text('extends = "child.toml"\n')
    parent, child = tmp_path / "parent.toml", tmp_path / "child.toml"
    assert_one_line_error(capsys, main(["run", str(child)]),
                          [f"error: {parent} (extended by {child}): solver.schem: unknown key"])
    assert_one_line_error(capsys, main(["run", str(tmp_path / "grand.toml")]),
                          [f"{parent} (extended by {child}, extended by "
                           f"{tmp_path / 'grand.toml'}): solver.schem"])
    # A key the child itself sets (here through --set) is the child's.
    assert_one_line_error(capsys, main(["run", str(child), "--set", "solver.schem=2"]),
                          [f"error: {child} (with --set): solver.schem: unknown key"])
    # A key the child sets wrong is the child's, though the parent has the table.
    parent.write_text(GOOD.read_text())
    child.write_text('extends = "parent.toml"\n[time]\nend = -1.0\n')
    assert_one_line_error(capsys, main(["run", str(child)]),
                          [f"error: {child}: time.end: "])


def test_keys_of_a_file_whose_kind_is_no_string(capsys, tmp_path):
    path = write_case(tmp_path, GOOD.read_text().replace('kind = "discrete"', "kind = [1]"))
    assert_one_line_error(capsys, main(["keys", path]), [f"{path}: case.kind: got [1]"])


# A table acceleration's CSV record, read and checked when the case is loaded
BAD_RECORDS = [
    ("missing", None, ["no such file", "relative path starts at the case file that gives it, "
                                       "or at the current directory for --set"]),
    ("one column", "0\n0.1\n", ["2 row(s) of 1 column(s)", "allowed: rows 't, value'"]),
    # the file's line and column from 1, as an editor shows them (numpy said "row 1, column
    # 2": rows from 0 after the header), with the column's name from the header
    ("text", "t,a\n0,1\nx,2\n", ["line 3, column 1 (t): 'x' is not a number"]),
    ("a value", "# record\nt,ax\n0,1\n0.1,x\n", ["line 4, column 2 (ax): 'x' is not a number"]),
    ("no header", "0,1\n0.1,\n", ["line 2, column 2: '' is not a number"]),
    ("two header lines", "t,a\ns,m/s2\n0,1\n1,2\n", ["line 2, column 1 (t): 's' is not a "
                                                      "number"]),
    ("a third column", "0,1\n0.1,2,3\n", ["line 2: 3 fields, the lines before have 2"]),
    # its line, as an editor counts them (it said "times: must increase strictly (got 0.2
    # then 0.1)" and left the line to be found)
    ("times going back", "# t, ax\n0,1\n\n0.2,2\n0.1,3\n", [
        "line 5, column 1: time 0.1 after 0.2 on line 4", "times increasing strictly"]),
    ("times going back, named", "t,ax\n0,1\n0.1,2\n0.1,3\n", ["line 4, column 1 (t): time "
                                                               "0.1 after 0.1 on line 3"]),
    # a spreadsheet's semicolons and a text file's spaces: the first line was taken for
    # column names, then "line 2, column 1 (0;0): '0.1;1' is not a number"
    ("semicolons", "0;0\n0.1;1\n", ["line 1: '0;0' has no comma; a record is "
                                     "comma-separated (allowed: rows 't, value'"]),
    ("spaces", "t ax\n0 0\n0.1 1\n", ["line 1: 't ax' has no comma"]),
    ("tabs after a header", "t\n0\t0\n", ["line 2: '0\\t0' has no comma"]),
    ("empty", "", ["empty"]),
    ("one row", "0,1\n", ["1 row(s) of 2 column(s)"]),
    # its line (it said "a value is not finite" and left the line to be found)
    ("nan", "# t, ax\nt,ax\n0,0\n\n0.1,nan\n", ["line 5, column 2 (ax): nan is not finite"]),
    ("inf time", "0,0\ninf,1\n", ["line 2, column 1: inf is not finite"]),
]


@pytest.mark.parametrize("label,text,words", BAD_RECORDS, ids=[b[0] for b in BAD_RECORDS])
def test_a_bad_acceleration_record(capsys, tmp_path, label, text, words):
    record = tmp_path / "ux.csv"
    if text is not None:
        record.write_text(text)
    table = f'{{type = "table", path = "{record.as_posix()}"}}'
    code = main(["rigid", "--out", str(tmp_path / "o"), "--set",
                 f"loading.table_acceleration_x={table}"])
    assert_one_line_error(capsys, code, [f"loading.table_acceleration_x.path: {record}", *words])


@pytest.mark.parametrize("setting,words", [
    ("loading.gravity=0", ["loading.gravity: got 0, allowed: > 0 for the rigid-block levels"]),
    ("rigid.restitution=0", ["rigid.restitution: got 0.0, allowed: a number in (0, 1]"]),
    ("rigid.recalage_restitution=0", ["rigid.recalage_restitution: got 0.0"]),
    ("loading.table_acceleration_x={type='sine', path='ux.csv'}",
     # (the record's path as read: from the current directory, where it was typed)
     ["loading.table_acceleration_x.path: '/", "/ux.csv' has no effect with"]),
])
def test_a_rigid_block_that_cannot_rock_through_impacts(capsys, tmp_path, setting, words):
    """Without gravity the released block stays put; with no restitution it stops at its
    first impact: no sequence of impacts to tabulate (these divided by zero)."""
    code = main(["rigid", "--out", str(tmp_path), "--set", setting])
    assert_one_line_error(capsys, code, words)


def test_rigid_levels_of_a_block_without_gravity_are_refused(capsys, tmp_path):
    code = main(["run", "sdnv105d", "--out", str(tmp_path), "--set", "loading.gravity=0"])
    assert_one_line_error(capsys, code, ["loading.gravity: 0 leaves the rigid block of "
                                         "collisions.rigid = true at rest",
                                         "allowed: > 0, or collisions.rigid = false"])


@pytest.mark.parametrize("command", ["run", "validate", "rigid"])
def test_an_out_directory_that_cannot_be_made(capsys, tmp_path, command):
    """Said before the run, not as a traceback once it is over."""
    (tmp_path / "afile").write_text("")
    case = [] if command == "rigid" else [CASE]
    nowhere = Path("/proc/rocking_contact_x")  # /proc takes no new directory, even for root
    for out, words in ((tmp_path / "afile" / "sub", ["afile is a file, not a directory"]),
                       (nowhere, [f"cannot create {nowhere}"])):
        code = main([command, *case, "--out", str(out)])
        assert_one_line_error(capsys, code, ["--out", *words, "allowed: a writable directory"])
    if command == "validate":  # its case's directory under --out, made as the run starts
        (tmp_path / CASE).write_text("")
        code = main([command, CASE, "--out", str(tmp_path)])
        assert_one_line_error(capsys, code, [f"error: --out: {tmp_path / CASE} is a file"])


def test_validate_grades_with_the_case_files_marks(capsys, tmp_path):
    """A tolerance widened by --set would make validate's verdict the user's, not the case's."""
    code = main(["validate", CASE, "--out", str(tmp_path), "--set", "reference.0.tolerance=1e9"])
    assert_one_line_error(capsys, code, ["reference.0.tolerance: changes what the case is "
                                         "graded on", "run shows the checks with yours"])
    assert not (tmp_path / CASE).exists()


def test_a_mesh_too_fine_to_be_meant(capsys, tmp_path):
    """A typo in element_size (1e-5 for 1e-2) would mesh for hours before running."""
    code = main(["run", "sdnv105d", "--out", str(tmp_path), "--set", "mesh.layout=structured",
                 "--set", "mesh.element_size=1e-5"])
    assert_one_line_error(capsys, code, ["sdnv105d.toml (with --set): mesh.element_size: got "
                                         "1e-05, which makes 3.5e+09 cells", "at most 1e+06"])


def test_a_file_that_is_no_case_file(capsys, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    assert_one_line_error(capsys, main(["run", str(path)]),
                          [f"{path}: not a case file (allowed: a .toml file"])


def test_a_window_step_longer_than_the_base_step_is_refused(capsys, tmp_path):
    """A [[time.window]] takes shorter steps than time.step, or the same with its own alpha
    or scheme: 1e-2 s where time.step is 2.5e-3 s was accepted (a typo for 1e-5)."""
    code = main(["run", "sdnv105a", "--out", str(tmp_path), "--no-plots",
                 "--set", "time.window.1={step=1e-2}"])
    assert_one_line_error(capsys, code, [
        "sdnv105a.toml (with --set): time.window[1].step: 0.01 is longer than time.step "
        "0.0025 outside the windows; allowed: a step <= 0.0025 s (shorter steps, or the same "
        "with the window's own alpha or scheme), or time.window = [] for uniform steps"])
    assert not (tmp_path / "results.json").exists()
    assert load_case("sdnv105a", ["time.step=1e-5"]).time.window[1].step == 1e-5  # equal


def test_a_start_a_child_gives_after_its_parents_end_is_the_childs(capsys, tmp_path):
    """A rule two keys break together names the one given last, and where the other comes
    from: "sdnd101a.toml (extended by a4.toml): time.end: 0.5 is not after start 1" blamed
    the parent's end for the child's start."""
    child = tmp_path / "a4.toml"
    child.write_text('extends = "sdnd101a"\n[time]\nstart = 1.0\n')
    assert_one_line_error(capsys, main(["run", str(child)]), [
        f"error: {child}: time.start: 1 is not before end 0.5 (time.end from {GOOD})"])
    child.write_text('extends = "sdnd101a"\n[time]\nend = 0.10015\n')
    assert_one_line_error(capsys, main(["run", str(child)]), [
        f"error: {child}: time.end: 0.10015 is not a whole number of time.step 0.0005 s after "
        f"time.start 0 (200.3 steps); allowed: an end that is, such as 0.1 (200 steps) or "
        f"0.1005 (201 steps) "
        f"(time.step from {GOOD})"])
    # given last, by --set, the start is the one named; the end without --set
    assert_one_line_error(capsys, main(["run", CASE, "--set", "time.start=1"]), [
        f"error: {GOOD} (with --set): time.start: 1 is not before end 0.5"])
    child.write_text('extends = "sdnd101a"\n[time]\nend = 0.00015\n')
    assert_one_line_error(capsys, main(["run", str(child)]), [
        f"error: {child}: time.end: 0.00015 leaves a run of 0.00015 s after time.start 0, "
        f"shorter than time.step 0.0005 (time.step, time.start from {GOOD})"])


def test_an_extends_cycle_is_said_whole(capsys, tmp_path):
    """It said "b11.toml: extends: a11.toml extends itself (cycle)" of a two-file cycle."""
    (tmp_path / "a11.toml").write_text('extends = "b11.toml"\n')
    (tmp_path / "b11.toml").write_text('extends = "a11.toml"\n')
    assert_one_line_error(capsys, main(["run", str(tmp_path / "a11.toml")]), [
        f"error: {tmp_path / 'b11.toml'}: extends: a11.toml closes a cycle: a11.toml -> "
        "b11.toml -> a11.toml (allowed: a chain that ends in a file without extends)"])
    (tmp_path / "a10.toml").write_text('extends = "a10.toml"\n')
    assert_one_line_error(capsys, main(["run", str(tmp_path / "a10.toml")]), [
        "extends: a10.toml closes a cycle: a10.toml -> a10.toml"])


@pytest.mark.parametrize("command", ["run", "keys", "validate"])
def test_a_directory_given_as_a_case_is_said_to_be_one(capsys, tmp_path, command):
    """It said "no such case file or shipped case" of /tmp, of a directory named dir.toml
    and of a directory named by extends."""
    folder = tmp_path / "dir.toml"
    folder.mkdir()
    for case in (tmp_path, folder):
        assert_one_line_error(capsys, main([command, str(case)]), [
            f"error: {case}: is a directory, not a case file (allowed: a .toml file, or a "
            "shipped case's name)"])
    child = tmp_path / "child.toml"
    child.write_text('extends = "dir.toml"\n')
    assert_one_line_error(capsys, main([command, str(child)]), [
        f"error: {child}: extends: dir.toml is a directory (allowed: a case file relative to "
        "this file"])


def test_a_record_given_with_set_is_read_from_the_current_directory(capsys, tmp_path,
                                                                   monkeypatch):
    """`run sdnv105d_shaking --set 'loading.table_acceleration_x={type="table",
    path="ux.csv"}'` read cases/variants/ux.csv, not ./ux.csv."""
    monkeypatch.chdir(tmp_path)
    table = '{type="table",path="ux.csv"}'
    argv = ["run", "sdnv105d_shaking", "--out", str(tmp_path / "o"), "--set",
            f"loading.table_acceleration_x={table}"]
    assert_one_line_error(capsys, main(argv), [
        f"loading.table_acceleration_x.path: {tmp_path / 'ux.csv'}: no such file"])
    (tmp_path / "ux.csv").write_text("t,ax\n0,0\n1,x\n")  # read there: its line 3 is bad
    assert_one_line_error(capsys, main(argv), [
        f"{tmp_path / 'ux.csv'}: line 3, column 2 (ax): 'x' is not a number"])


def test_a_block_that_nothing_holds_is_refused(capsys, tmp_path):
    """A [case] and a [time] alone made a block with no contact (treatment 'none', the
    default) and no support: it fell through its table for 1000 steps (DY_O = -0.049 m at
    0.1 s) and the run said "completed". 'none' is for a block held by [[constraint]]s
    (sdnv105_preload pins O), which still loads; without gravity nothing moves it."""
    path = write_case(tmp_path, '[case]\nname = "x"\ntitle = "x"\nkind = "block"\n'
                                '[time]\nend = 0.1\nstep = 1e-4\n')
    out = str(tmp_path / "o")
    assert_one_line_error(capsys, main(["run", path, "--out", out]), [
        f"error: {path}: contact.treatment: 'none' (no contact), and no [[constraint]] holds "
        "the block in DY: under loading.gravity = 9.81 m/s^2 it falls through its table; "
        "allowed: a treatment 'lagrange', 'continuous', 'theta', or 'penalty' with "
        "[[contact.spring]], or a [[constraint]] with DY on the block (O, O1, A, C1, CONHAUT, "
        "CTBLO, BLOCK): sdnv105_preload pins O"])
    assert not (tmp_path / "o" / "results.json").exists()
    # the pin removed by --set is the one named; a pin on the table holds nothing
    for pins in ("[]", "[{on='S0'}]", "[{on='O', components=['DX']}]"):
        assert_one_line_error(capsys, main(["run", "sdnv105_preload", "--out", out, "--set",
                                            f"constraint={pins}"]), [
            "sdnv105_preload.toml (with --set): constraint: holds the block nowhere in DY, "
            "and contact.treatment = 'none' gives it no contact", "allowed: a [[constraint]] "
            "with DY on the block (O, O1, A, C1, B1, B2, CONHAUT, CTBLO, BLOCK)"])
    # a horizontal table motion needs a hold in DX
    assert_one_line_error(capsys, main([
        "run", path, "--out", out, "--set", "loading.gravity=0", "--set",
        "constraint=[{on='O', components=['DY']}]", "--set",
        "loading.table_acceleration_x={type='sine', amplitude=1.0, frequency=2.0}"]), [
        "constraint: holds the block nowhere in DX, and contact.treatment = 'none' gives it "
        "no contact: under loading.table_acceleration_x it slides off its table"])
    assert load_case(path, ["loading.gravity=0"]).contact.treatment == "none"
    assert load_case("sdnv105_preload", ["constraint=[{on='CONHAUT', components=['DY']}]"])


def test_a_wider_block_than_its_inherited_table_is_the_childs(capsys, tmp_path):
    """A child's half_width under its grandparent's table_right blamed the grandparent's
    key, as a plain ValueError ("sdnv105a.toml (extended by ...): geometry.table_right:
    0.54 must be >= 2 b = 0.6 (under corner A)", no "allowed:")."""
    big, wide = tmp_path / "big.toml", tmp_path / "wide.toml"
    big.write_text('extends = "sdnv105d"\nquantity = []\nreference = []\n[case]\nname = '
                   '"big"\ntitle = "big"\nkind = "block"\n[geometry]\nhalf_width = 0.25\n'
                   'half_height = 0.75\n[time]\nend = 0.1\n[collisions]\nwindows = '
                   '[[0.0, 0.1]]\n')
    wide.write_text('extends = "big.toml"\n[geometry]\nhalf_width = 0.3\n')
    sdnv105a = shipped_cases()["sdnv105a"]
    assert_one_line_error(capsys, main(["run", str(wide), "--out", str(tmp_path / "o")]), [
        f"error: {wide}: geometry.half_width: 0.3 puts corner A at 2 b = 0.6 m, past the "
        "table's right end table_right = 0.54; allowed: a half_width <= 0.27, or "
        f"geometry.table_right >= 0.6 (geometry.table_right from {sdnv105a})"])
    # a table shortened last is the one named
    assert_one_line_error(capsys, main(["run", str(big), "--set", "geometry.table_right=0.4"]), [
        f"error: {big} (with --set): geometry.table_right: 0.4 ends before corner A at 2 b = "
        "0.5 m; allowed: a table_right >= 0.5"])
    assert_one_line_error(capsys, main(["run", str(big), "--set", "geometry.table_left=0.1"]), [
        "geometry.table_left: got 0.1, allowed: a number <= 0"])


def test_a_table_contact_without_the_table_names_the_key_given_last(capsys, tmp_path):
    """``--set mesh.table=false`` on A said "contact.master: unknown curve 'CONBAS'", a key
    of A's file that the user did not touch."""
    assert_one_line_error(capsys, main(["run", "sdnv105a", "--set", "mesh.table=false"]), [
        "sdnv105a.toml (with --set): mesh.table: false leaves no table for contact.treatment "
        "= 'lagrange', which pairs the block's base with the table's top; allowed: mesh.table "
        "= true, or contact.treatment 'penalty' (springs to the ground) or 'none' (with a "
        "[[constraint]] holding the block)"])
    child = tmp_path / "lagrange.toml"
    child.write_text('extends = "sdnv105_preload"\n[mesh]\ntable = false\n')
    assert_one_line_error(capsys, main(["run", str(child), "--set",
                                        "contact.treatment=lagrange"]), [
        f"{child} (with --set): contact.treatment: 'lagrange' pairs the block's base with the "
        "table's top, and mesh.table = false meshes no table; allowed: 'penalty'"])


def test_a_list_given_as_a_value_and_as_tables_says_what_to_do(capsys, tmp_path):
    """docs/case-files.md's own recipe (``quantity = []`` at the top, then
    ``[[quantity]]``) met a bare TOML error: the line now says to keep one."""
    child = tmp_path / "docq.toml"
    child.write_text('extends = "sdnv105d"\nquantity = []\nreference = []\n[case]\nname = "x"\n'
                     'title = "x"\nkind = "block"\n[time]\nend = 0.01\n[[quantity]]\nname = '
                     '"m"\ncolumn = "DY_A"\nop = "max"\n')
    assert_one_line_error(capsys, main(["run", str(child)]), [
        f"error: {child}: not valid TOML: Cannot mutate immutable namespace ('quantity',) "
        "(at line 10, column 11); quantity is given both as a value (quantity = [...]) and "
        "as [[quantity]] tables: keep one (a child's [[quantity]] tables replace the list it "
        "extends; quantity = [] alone empties it)"])
    child.write_text('extends = "sdnv105d"\nreference = []\n[case]\nname = "x"\n'
                     'title = "x"\nkind = "block"\n[time]\nend = 0.01\n[collisions]\n'
                     'windows = [[0.0, 0.01]]\n[[quantity]]\nname = "m"\ncolumn = "DY_A"\n'
                     'op = "max"\n')
    assert [q.name for q in load_case(child).quantity] == ["m"]


@pytest.mark.parametrize("given,allowed", [
    ("0.05 s", "a number alone, read in s, such as 0.05"),
    (".5s", "a number alone, read in s, such as 0.5"),  # as TOML writes it
    ("10ms", "a number alone, read in s"),  # another unit: its conversion is the user's
])
def test_a_number_with_a_unit_is_told_the_unit_of_its_key(given, allowed):
    """``time.end=10ms`` said "expected a number, got '10ms'" without the unit that the
    number is read in; a word that is no unit is told the key's values."""
    from rocking_contact.config import CaseError

    with pytest.raises(CaseError) as refused:
        load_case(CASE, [f"time.end={given}"])
    assert str(refused.value).endswith(f"time.end: got {given!r}, allowed: {allowed}")
    with pytest.raises(CaseError) as refused:
        load_case(CASE, ["time.end=abc"])
    assert str(refused.value).endswith("time.end: got 'abc', allowed: a finite number, "
                                       "|x| <= 1e+06 s")


@pytest.mark.parametrize("line, said", [
    ("gravity = 9,81", "line 3 is 'gravity = 9,81': a number with a decimal point, such as "
                       "9.81 (a comma separates the items of a list)"),
    ("gravity = .5", "line 3 is 'gravity = .5': TOML writes a digit on both sides of the "
                     "point, 0.5"),
    ("gravity = 9.81 m/s2", "line 3 is 'gravity = 9.81 m/s2': a number alone, without its "
                            "unit (rocking-contact keys CASE gives each key's unit)"),
    ("gravity: 9.81", "line 3 is 'gravity: 9.81': TOML writes key = value"),
    ("type = zero", "line 3 is 'type = zero': a text goes in quotes, type = \"zero\""),
    ("gravity = True", "line 3 is 'gravity = True': TOML writes true"),
    ("gravity = 9.81,", "line 3 is 'gravity = 9.81,'"),  # the line, and no guess
])
def test_a_toml_error_quotes_its_line_and_what_it_meant(capsys, tmp_path, line, said):
    """A case file's TOML mistakes said where ('Invalid value (at line 3, column 8)') but
    neither the line nor the TOML meant: a decimal comma, an unquoted word, a unit."""
    child = tmp_path / "mine.toml"
    child.write_text(f'extends = "sdnv105d"\n[loading]\n{line}\n')
    assert main(["run", str(child)]) == 2
    (err,) = capsys.readouterr().err.splitlines()
    assert re.fullmatch(rf"error: {re.escape(str(child))}: not valid TOML: [^;]* \(at line 3, "
                        rf"column [0-9]+\); {re.escape(said)}", err), err
