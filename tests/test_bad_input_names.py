"""The names a case file refers to: a misspelt history column or reference quantity is bad
input where the case says which names its runs compute (discrete cases), and a warning
after the run where only the run knows them."""

import pytest
from test_bad_input import GOOD, assert_one_line_error

import rocking_contact as rc
from rocking_contact.cli import main
from rocking_contact.config import (
    CaseError,
    NamePattern,
    QuantitySpec,
    Reference,
    load_case,
    shipped_cases,
    uncomputed,
    uncomputed_references,
    unknown_name,
    variant_cases,
)


def test_every_shipped_case_and_variant_loads():
    """Their columns and quantities are all known names."""
    for path in [*shipped_cases().values(), *variant_cases().values()]:
        load_case(path)


def refused_child(capsys, tmp_path, name, tables, words):
    """A file ``name`` extending sdnd101a with ``tables`` is refused with ``words``, and the
    run writes nothing; returns the file."""
    child = tmp_path / name
    child.write_text('extends = "sdnd101a"\n' + tables)
    assert_one_line_error(capsys, main(["run", str(child), "--out", str(tmp_path / "o")]),
                          [f"error: {child}: ", *words])
    assert not (tmp_path / "o").exists()
    return child


def test_a_misspelt_reference_quantity_is_refused(capsys, tmp_path):
    """It gave a row "impact.NO1.1.max_forc ... not computed ... FAIL" and exit 0."""
    reference = ('[[reference]]\nquantity = "impact.NO1.1.max_forc"\nvalue = 1.0\n'
                 'source = "me"\ntolerance = 0.1\n')
    child = refused_child(capsys, tmp_path, "b1.toml", reference, [
        "reference[0].quantity: 'impact.NO1.1.max_forc' is no quantity this case computes "
        "(allowed: impact.<shock>.<k>.<field> (shock NO1; field start, end, ",
        "or impact.<shock>.<statistic> (shock NO1; statistic count, ",
        "or a [[quantity]] name (none here); close: impact.NO1.1.max_force"])
    # an override too, and a name a [[quantity]] of the case gives is one
    code = main(["run", "sdnd101a", "--set", "reference.0.quantity=impact.NO2.count"])
    assert_one_line_error(capsys, code, [
        f"error: {GOOD} (with --set): reference[0].quantity: 'impact.NO2.count' is no quantity",
        "close: impact.NO1.count"])
    case = load_case(child, {"quantity": [{"name": "impact.NO1.1.max_forc", "column": "DX_NO1",
                                           "op": "max"}]})
    assert case.reference[0].quantity == case.quantity[0].name


def test_a_misspelt_column_is_refused(capsys, tmp_path):
    refused_child(capsys, tmp_path, "b2.toml",
                  '[[quantity]]\nname = "q"\ncolumn = "DX_NO9"\nop = "max"\n', [
        "quantity[0].column: 'DX_NO9' is no history column of this case (allowed: time, "
        "DX_NO1, VX_NO1, AX_NO1, FN_NO1, FT_NO1, VN_NO1, PN_NO1, EKIN, EELAS, ETOT, "
        "ESPRING, ECONTACT, ENERGY_RESIDUAL; close: DX_NO1"])
    # output.nodes decides which nodes are recorded
    with pytest.raises(rc.CaseError, match=r"quantity\[0\]\.column: 'DX_NO2' is no history "):
        load_case("sdnd102c", {"output.nodes": ["NO1"]})


@pytest.mark.parametrize("case,overrides", [
    ("sdnd101a", {"time.end": 0.01}),
    ("sdnd100a", {"time.end": 0.01}),  # two components
    ("sdnd102c", {"time.end": 0.01, "output.nodes": ["NO1", "NO2"], "quantity": [],
                  "reference": []}),
])
def test_the_columns_a_case_announces_are_its_runs(case, overrides):
    """What the load checks against is what the runner writes."""
    loaded = load_case(case, overrides)
    result = rc.run(loaded, write=False, quiet=True)
    assert list(result.history) == loaded.history_columns()
    impacts, statistics = loaded.quantity_patterns()
    assert any(statistics.matches(name) for name in result.quantities)
    assert any(impacts.matches(name) for name in result.quantities) == bool(result.impacts)
    assert all(impacts.matches(n) or statistics.matches(n)
               for n in result.quantities if n.startswith("impact."))


def test_a_name_pattern():
    pattern = NamePattern("impact.<shock>.<k>.<field>", {"shock": ["S1", "S.2"], "k": None,
                                                        "field": ["speed", "t_max"]})
    assert pattern.matches("impact.S1.12.speed") and pattern.matches("impact.S.2.1.t_max")
    assert not pattern.matches("impact.S1.0.speed")  # impacts count from 1
    assert not pattern.matches("impact.SX2.1.speed")  # a dot is no wildcard
    assert not pattern.matches("impact.S1.1.speeds")
    assert pattern.instances("impact.S1.7.sped") == [
        "impact.S1.7.speed", "impact.S1.7.t_max", "impact.S.2.7.speed", "impact.S.2.7.t_max"]
    assert pattern.described() == ("impact.<shock>.<k>.<field> (shock S1, S.2; field speed, "
                                   "t_max)")


class _Case:
    def __init__(self, quantity, reference):
        self.quantity, self.reference = quantity, reference


def test_names_known_only_after_the_run_are_warned_about():
    """Block and rigid cases: the checks of an unknown name say "not computed", and a
    warning names it with the closest names the run has."""
    case = _Case([QuantitySpec(name="q", column="DY_A1", op="max")],
                 [Reference(quantity="collision.1.tme", value=1.0, source="s"),
                  Reference(quantity="q", value=1.0, source="s")])
    assert unknown_name(case, None, None) is None  # nothing known at load
    warnings = uncomputed(case, {"collision.1.time": 0.1, "q": float("nan")},
                          {"time": [], "DY_A": []})
    assert warnings == [
        "quantity[0].column: the run's history has no column 'DY_A1': [[quantity]] 'q' is "
        "not computed; close: DY_A",
        "reference[0].quantity: the run computed no quantity 'collision.1.tme' (its check "
        "says 'not computed'); close: collision.1.time"]
    assert unknown_name(case, ["time", "DY_A1"], None) is None


def test_a_misspelt_name_several_references_give_is_said_once():
    case = _Case([], [Reference(quantity=q, value=1.0, source="s")
                      for q in ["x", "dy_mx", "dy_mx", "dy_mx", "x", "dy_mx"]])
    assert uncomputed_references(case, {"dy_max", "x"}) == [
        "reference[1-3, 5].quantity: the run computed no quantity 'dy_mx' (their 4 checks "
        "say 'not computed'); close: dy_max"]


def test_the_rigid_blocks_impacts_it_does_not_export_are_said_in_one_line():
    """``[rigid] impacts = 3`` leaves sdnv105_rigid's 31 references to impacts 4 and 5
    (every level's collisions and lifts) without a value: one line says why, none offers
    the close names of a typo."""
    result = rc.run(load_case("sdnv105_rigid", {"rigid.impacts": 3}), write=False,
                    quiet=True)
    assert [w for w in result.warnings if "collision" in w or "lift" in w] == [
        "collisions 4, 5 not exported: [rigid] impacts = 3 gives the quantities of the "
        "first 3 (collision.<k>.*, lift.<k>) (references to them have no value)"]


def test_a_run_warns_of_a_misspelt_name_unless_it_stopped_early(tmp_path):
    """The rigid case's misspelt reference is warned about after a whole run; a shortened
    run lacks its later collisions rightly and names none of them."""
    child = tmp_path / "mine.toml"
    child.write_text('extends = "sdnv105_rigid"\n[[reference]]\nquantity = "collision.1.tme"\n'
                     'value = 0.0544\ntolerance = 0.01\nsource = "me"\n')
    whole = rc.run(load_case(child), write=False, quiet=True)
    (warning,) = [w for w in whole.warnings if "collision.1.tme" in w]
    assert warning.startswith(
        "reference[0].quantity: the run computed no quantity 'collision.1.tme' (its check "
        "says 'not computed'); close: collision.1.time, ")
    shortened = rc.run(load_case(child, {"time.end": 0.03}), write=False, quiet=True)
    assert not any("computed no quantity" in w for w in shortened.warnings)


def test_a_quantity_instant_past_the_files_own_end_is_refused(capsys, tmp_path):
    """An ``op = "at"`` at 5 s in a file ending at 0.001 s read "not reached" whatever the
    run, and its not-reached check kept the misspelt column of the file's other quantity
    from being warned about; a child's instant past its parent's end is the child's."""
    child = tmp_path / "rq.toml"
    child.write_text('extends = "sdnv105d"\nreference = []\n[time]\nend = 0.05\n'
                     '[collisions]\nwindows = [[0.0, 0.04]]\n[[quantity]]\nname = "q"\n'
                     'column = "DY_O"\nop = "at"\ntime = 5.0\n')
    assert_one_line_error(capsys, main(["run", str(child), "--out", str(tmp_path / "o")]), [
        f"error: {child}: quantity[0].time: 5 s is after time.end = 0.05 s: the run never "
        "reaches it; allowed: an instant up to 0.05 s, or a longer time.end"])
    # a window from the end on too, and its end's own instant is reached
    assert_one_line_error(capsys, main(["run", str(child), "--set", "quantity.0.time=0.05",
                                        "--set", "quantity.0.window=[0.05, 0.06]"]),
                          ["(with --set): quantity[0].window: starts at 0.05 s"])
    assert load_case(child, ["quantity.0.time=0.05"]).quantity[0].time == 0.05
    # a longer end given later keeps it: the run reaches 5 s
    assert load_case(child, ["time.end=5.0"]).time.end == 5.0


def test_a_misspelt_column_of_a_block_case_is_refused_before_its_first_step():
    """A block run has all its columns from its first row (the treatment, the points and
    the table's motion decide them): a [[quantity]] naming none of them is refused there,
    after the preload and before the first step, as bad input (audit s25 #5: a user's
    'RN_0' was said after the whole run, its check 'not computed', exit 0)."""
    case = rc.load_case("sdnv105d", {"time.end": 0.003, "quantity.0.column": "DY_Q"})
    with pytest.raises(CaseError) as refused:
        rc.run(case, write=False, quiet=True)
    assert refused.value.key == "quantity[0].column"
    assert refused.value.problem.startswith("'DY_Q' is no history column of this case "
                                            "(allowed: time, DX_O, DY_O, ")
    assert refused.value.problem.endswith("; close: DY_O, DY_A, DY_O1)")


def test_an_energy_column_is_a_column_of_the_case():
    """The energy columns a discrete run writes (5c7bf98) can be read by a [[quantity]]:
    'EKIN' was refused at load as no history column of the case."""
    case = load_case("sdnd101a", {"time.end": 0.01, "quantity": [
        {"name": "ekin_max", "column": "EKIN", "op": "max"}], "reference": []})
    result = rc.run(case, write=False, quiet=True)
    assert result.quantities["ekin_max"] == max(result.history["EKIN"])
