"""A value of the wrong type is refused with the values its key takes, as ``rocking-contact
keys`` lists them (the type, the check, the scale of its unit; a table's keys): session 37
found ``time.step: expected a number, got 'fast'``, ``output.every: expected an integer,
got 2.5`` (no range) and ``time: missing (expected a table)`` (no keys)."""

import pytest
from test_bad_input import assert_one_line_error

from rocking_contact.cli import main

CASE = "sdnd101a"


@pytest.mark.parametrize("given, said", [
    ("time.step=fast", "time.step: got 'fast', allowed: a number > 0, |x| <= 1e+06 s"),
    # an integer's check is said of an integer (the checks speak of 'a number')
    ("output.every=2.5", "output.every: got 2.5, allowed: an integer > 0"),
    ("output.every=true", "output.every: got true, allowed: an integer > 0"),
    ("case.title=3", "case.title: got 3, allowed: a string"),
    ("solver.scheme=rk4", "solver.scheme: got 'rk4', allowed: one of 'central_difference', "
                          "'newmark', 'hht'"),
    # each item of a list: the item's values
    ("model.node.0.v0=[1, 'a', 0]", "model.node[0].v0[1]: got 'a', allowed: a number, "
                                    "|x| <= 1000 m/s"),
    ("time=3", "time: got 3, allowed: a table with keys start, end, step"),
    ("model.shock=3", "model.shock: got 3, allowed: a list of tables, each with keys name, "
                      "node, normal, gap, kn, cn, kt, ct, mu, friction"),
])
def test_a_value_of_another_type_is_told_the_values_of_its_key(capsys, tmp_path, given, said):
    code = main(["run", CASE, "--out", str(tmp_path), "--set", given])
    assert_one_line_error(capsys, code, [f"{CASE}.toml (with --set): {said}"])


def test_a_missing_table_and_a_bad_extends_are_told_what_they_take(capsys, tmp_path):
    shipped = tmp_path / "a.toml"
    shipped.write_text('[case]\ntitle = "t"\nkind = "discrete"\n[model]\n'
                       '[[model.node]]\nname = "NO1"\nmass = 1.0\n')
    assert_one_line_error(capsys, main(["run", str(shipped), "--out", str(tmp_path / "o")]),
                          [f"{shipped}: time: missing (required; allowed: a table with keys "
                           "start, end, step)"])
    extends = tmp_path / "b.toml"
    extends.write_text('extends = 3\n[case]\ntitle = "t"\n')
    assert_one_line_error(capsys, main(["run", str(extends), "--out", str(tmp_path / "o")]),
                          [f"{extends}: extends: got 3, allowed: a string, a case file "
                           "relative to this file or a shipped case's name"])


@pytest.mark.parametrize("given, said", [
    # TOML reads 1e3 and 2.0 as floats: the integer meant is offered, if the key takes it
    ("output.every=1e3", "output.every: got 1000.0, allowed: an integer > 0 (1000, written "
                         "without a point or an exponent)"),
    ("output.every=-2.0", "output.every: got -2.0, allowed: an integer > 0"),
    # a dotted key with an empty name said 'empty component in the dotted key' alone
    ("time..step=1", "time..step: empty component in the dotted key (allowed: names joined "
                     "by single dots, such as time.step or model.shock.0.kn)"),
])
def test_a_whole_float_and_an_empty_name_are_told_what_is_allowed(capsys, tmp_path, given,
                                                                  said):
    code = main(["run", CASE, "--out", str(tmp_path), "--set", given])
    err = capsys.readouterr().err
    assert code == 2 and err.endswith(f"{CASE}.toml (with --set): {said}\n"), err
    assert err.count("\n") == 1 and err.startswith("error: ")


@pytest.mark.parametrize("case, given, said", [
    # the rules between a table's keys said what was wrong and not what is allowed
    ("sdnd100a", "model.relation.0.coefficients=[1]", "model.relation[0].coefficients: 1 "
     "given for 2 dofs (allowed: one coefficient per dof, at least one dof)"),
    ("sdnd100a", "model.relation.0.coefficients=[0, 0]", "model.relation[0].coefficients: "
     "all zero (allowed: at least one that is not 0)"),
    ("sdnd100a", "model.spring.0.nodes=['NO1', 'NO1', 'NO1']", "model.spring[0].nodes: 3 "
     "given (allowed: one node, a spring to ground, or two)"),
    ("sdnd101a", "model.shock=[{name = 'S', node = 'NO1', normal = [1, 0, 0], kn = 1}, "
     "{name = 'S', node = 'NO1', normal = [1, 0, 0], kn = 1}]", "model.shock[1].name: 'S' "
     "defined twice (allowed: a name no other shock has)"),
    ("sdnd101a", "model.node.0.fixed=['DX', 'DY', 'DZ']", "model.shock[0].node: 'NO1' has "
     "no free dof (allowed: a node that moves: not all of DX, DY, DZ in its fixed)"),
    ("sdnv105a", "time.window.1.start=0.0", "time.window[1].start: 0 overlaps window[0] "
     "[0, 0.0025] (allowed: a start >= 0.0025 s, where the other ends)"),
])
def test_a_rule_between_keys_says_what_is_allowed(capsys, tmp_path, case, given, said):
    rest = ["model.node.0.u0=[0, 0, 0]", "model.node.0.v0=[0, 0, 0]"] if "fixed" in given else []
    argv = ["run", case, "--out", str(tmp_path), "--set", given]
    code = main(argv + [f"--set={r}" for r in rest])
    assert_one_line_error(capsys, code, [f"{case}.toml (with --set): {said}"])


def test_a_case_that_is_no_table_is_told_so(capsys, tmp_path):
    """``case = 3`` was told 'case.kind: missing', as if the table were there."""
    path = tmp_path / "c.toml"
    path.write_text("case = 3\n")
    assert_one_line_error(capsys, main(["run", str(path), "--out", str(tmp_path / "o")]),
                          [f"{path}: case: got 3, allowed: a table [case] with kind = one of "
                           "discrete, rigid, block"])
