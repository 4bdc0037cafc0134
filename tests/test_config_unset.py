"""``--set key=`` (an empty value; None in an override dict) unsets a key (docs/case-files.md):
a key with a default reads its default, a required key is refused as one that cannot be
unset, with the values it takes. Both said "expected a number, got None" (session 31, L1)."""

import dataclasses
import json

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
    cannot be unset). case.name, unset, takes its file's name (below): not listed."""
    keys = [key for key, _, default, _ in schema_doc(kind_schema(kind))
            if default == "(required)" and ".N." not in key]
    assert "time.step" in keys and "case.title" in keys and "case.name" not in keys
    for key in keys:
        with pytest.raises(CaseError) as raised:
            rc.load_case(case, {key: None})
        said = raised.value.problem
        if key == "case.kind":
            assert said.startswith("cannot be unset, and the file's keys are those of kind")
        else:
            assert said.startswith(f"required, cannot be unset with --set {key}= or None "
                                   "(allowed: "), (key, said)


def test_an_unset_case_name_is_its_files_name(tmp_path, capsys):
    """As a file without a name (docs/case-files.md: an unset key reads as if the file did
    not give it): ``--set case.name=``, None in the overrides or set on the loaded case
    was refused as "required, cannot be unset"; now the case takes its file's name, never
    its parent's, and runs into its results directory."""
    child = tmp_path / "child.toml"
    child.write_text('extends = "sdnd101a"\n[case]\nname = "mine"\n')
    assert rc.load_case(child, ["case.name="]).case.name == "child"
    assert rc.load_case(child, {"case.name": None}).case.name == "child"
    assert rc.load_case("sdnd101a", {"case.name": None}).case.name == "sdnd101a"
    assert main(["run", str(child), "--set", "case.name=", "--set", "time.end=0.01",
                 "--quiet", "--no-plots", "--out", str(tmp_path / "o")]) == 0
    assert json.loads((tmp_path / "o" / "results.json").read_text())["case"] == "child"
    loaded = rc.load_case(child, {"time.end": 0.01})
    loaded.case.name = None
    assert rc.run(loaded, write=False, quiet=True).case == "child"
    # a file name that is no case name is refused as for a file without a name
    spaced = tmp_path / "my block.toml"
    spaced.write_text(child.read_text())
    capsys.readouterr()
    assert main(["run", str(spaced), "--set", "case.name=", "--out", "never"]) == 2
    assert capsys.readouterr().err == (
        f"error: {spaced} (with --set): case.name: got 'my block', allowed: letters, digits "
        "and _ . + - (not starting with . + -), no path (the name of the file my block.toml, "
        "taken as the case's name since --set unset it: give a name)\n")


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
