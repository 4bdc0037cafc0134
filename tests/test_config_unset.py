"""``--set key=`` (an empty value; None in an override dict) unsets a key (docs/case-files.md):
a key with a default reads its default, a required key is refused as one that cannot be
unset, with the values it takes. Both said "expected a number, got None" (session 31, L1)."""

import dataclasses

import pytest

import rocking_contact as rc
from rocking_contact.cli import main
from rocking_contact.config import CaseError, kind_schema, physics_changes, schema_doc

#: a shipped case of each kind
CASES = {"discrete": "sdnd101a", "block": "sdnv105a", "rigid": "sdnv105_rigid"}


@pytest.mark.parametrize("case", CASES.values())
def test_a_required_key_unset_is_refused_as_such(case, capsys):
    source = rc.load_case(case).source_file
    assert main(["run", case, "--set", "time.step=", "--out", "never"]) == 2
    assert capsys.readouterr().err == (
        f"error: {source} (with --set): time.step: required, cannot be unset with --set "
        "time.step= or None (allowed: a number > 0, |x| <= 1e+06 s)\n")
    with pytest.raises(CaseError) as raised:
        rc.load_case(case, {"time.step": None})
    assert raised.value.file == f"{source} (with overrides)"
    assert raised.value.problem.startswith("required, cannot be unset with --set time.step=")


@pytest.mark.parametrize(("kind", "case"), CASES.items())
def test_every_required_key_says_so(kind, case):
    """Each required key of a kind's schema (those not in a list of tables), unset on a
    shipped case: one place says it for all (case.kind, which selects the schema, says it
    cannot be unset)."""
    keys = [key for key, _, default, _ in schema_doc(kind_schema(kind))
            if default == "(required)" and ".N." not in key]
    assert "time.step" in keys and "case.title" in keys
    for key in keys:
        with pytest.raises(CaseError) as raised:
            rc.load_case(case, {key: None})
        said = raised.value.problem
        if key == "case.kind":
            assert said.startswith("cannot be unset, and the file's keys are those of kind")
        else:
            assert said.startswith(f"required, cannot be unset with --set {key}= or None "
                                   "(allowed: "), (key, said)


def test_the_values_allowed_are_those_of_the_key():
    for key, allowed in [("case.title", "a string"),
                         ("time.end", "a finite number, |x| <= 1e+06 s"),
                         ("model.shock[0].kn", "a number > 0, |x| <= 1e+16 N/m")]:
        with pytest.raises(CaseError) as raised:
            rc.load_case("sdnd101a", [f"{key}="])
        assert raised.value.key == key
        assert raised.value.problem.endswith(f"(allowed: {allowed})")


def test_a_key_with_a_default_unset_reads_its_default():
    """As the docs say: it reads as if the file did not give it (it was refused as
    'expected a number, got None' too)."""
    solver = rc.load_case("sdnd101a", ["solver.newton_tol="]).solver
    (field,) = [f for f in dataclasses.fields(solver) if f.name == "newton_tol"]
    assert solver.newton_tol == field.default
    # a key the file gives, unset: the schema's default, a change of the physics
    case = rc.load_case("sdnd101a", ["model.node[0].fixed="])
    (field,) = [f for f in dataclasses.fields(case.model.node[0]) if f.name == "fixed"]
    assert case.model.node[0].fixed == field.default_factory()
    assert rc.load_case("sdnd101a").model.node[0].fixed != field.default_factory()
    assert physics_changes(case) == ["model.node.0.fixed"]
