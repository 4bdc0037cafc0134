"""A user's own case files and keys (U1's audit, findings 3, 7, 10): a case that extends a
shipped one takes its own name, not its parent's (whose results folder it replaced); an
error of a ``--set`` inside an inherited table names the ``--set``, not the parent's file;
``rigid --set`` on another block says once that SDNV105's references do not apply, and
that the block had no impact, rather than printing them "not reached" and empty tables."""

import json
import re
from pathlib import Path

import pytest

from rocking_contact.api import default_out_dir
from rocking_contact.cli import main
from rocking_contact.config import CaseError, load_case, shipped_cases, variant_cases

#: U1's minimal case: the shipped D with a narrower block, no [case] table of its own
MINIMAL = 'extends = "sdnv105d"\n[geometry]\nhalf_width = 0.125\n'


def test_a_child_without_a_name_of_its_own_takes_its_files_not_its_parents(tmp_path):
    """U1's minimal.toml ran as sdnv105d, into results/sdnv105d/, replacing the
    validated run there."""
    child = tmp_path / "minimal.toml"
    child.write_text(MINIMAL)
    case = load_case(child)
    assert case.case.name == "minimal"
    assert default_out_dir(case) == Path("results") / "minimal"
    # a [case] table without a name (its title, say) is no name either
    child.write_text(MINIMAL + '[case]\ntitle = "my block"\n')
    assert load_case(child).case.name == "minimal"
    # a grandchild of the shipped case through the user's file: its own stem again
    grandchild = tmp_path / "narrower.toml"
    grandchild.write_text('extends = "minimal.toml"\n[geometry]\nhalf_width = 0.1\n')
    assert load_case(grandchild).case.name == "narrower"
    # a name given in the file, or by --set, stands
    child.write_text(MINIMAL + '[case]\nname = "mine"\n')
    assert load_case(child).case.name == "mine"
    assert load_case(child, ["case.name=other"]).case.name == "other"
    assert load_case(grandchild, ["case.name=other"]).case.name == "other"


def test_the_shipped_cases_keep_their_names():
    """Every shipped case and variant names itself, as its file: none changes name (the
    results folders and the report's runs stay where they were)."""
    for name, path in {**shipped_cases(), **variant_cases()}.items():
        assert load_case(path).case.name == name == path.stem


def test_a_file_name_that_is_no_case_name_says_where_the_name_came_from(tmp_path, capsys):
    child = tmp_path / "my block.toml"
    child.write_text(MINIMAL)
    with pytest.raises(CaseError) as info:
        load_case(child)
    message = str(info.value)
    assert message.startswith(f"{child}: case.name: got 'my block', allowed: letters")
    assert message.endswith("(the name of the file my block.toml, taken as the case's name "
                            "since the file gives none: give [case] name)")
    assert main(["run", str(child)]) == 2  # refused as it loads: nothing runs
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0] == f"error: {message}"


def test_a_set_inside_an_inherited_table_is_named_not_the_parents_file(tmp_path, capsys):
    """U1's finding 10: '--set time.refine.enabled=true' on a child of sdnv105d (whose
    [time.refine] says enabled = false) was told as an error of sdnv105d.toml, 'extended
    by' the child, the --set last."""
    child = tmp_path / "mine.toml"
    child.write_text('extends = "sdnv105d"\n[case]\nname = "mine"\n')
    with pytest.raises(CaseError) as info:
        load_case(child, ["time.refine.enabled=true"])
    assert str(info.value).startswith(f"{child} (with --set): time.refine: the theta "
                                      "scheme's velocity-level contact")
    assert main(["run", str(child), "--set", "time.refine.enabled=true"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: {child} (with --set): time.refine:")
    # the same refusal without the --set names the file that holds the table
    child.write_text('extends = "sdnv105d"\n[case]\nname = "mine"\n'
                     '[time.refine]\nenabled = true\n')
    with pytest.raises(CaseError) as info:
        load_case(child)
    assert str(info.value).startswith(f"{child}: time.refine: ")
    # a key the child does not touch inside an inherited table is still its parent's
    child.write_text('extends = "sdnv105d"\n[case]\nname = "mine"\n')
    with pytest.raises(CaseError) as info:
        load_case(child, ["time.step=-1"])
    assert str(info.value).startswith(f"{child} (with --set): time.step: ")


def test_rigid_on_another_block_says_once_that_the_references_do_not_apply(tmp_path,
                                                                           capsys):
    """U1's finding 7: rigid --set on another block printed SDNV105's references, most of
    them 'not reached' at instants the run had passed, and impact tables with headers
    alone."""
    out = tmp_path / "r"
    assert main(["rigid", "--set", "geometry.half_width=0.125", "--set",
                 "geometry.half_height=0.3", "--set", "time.end=0.02", "--out", str(out),
                 "--no-plots"]) == 0
    printed = capsys.readouterr().out
    data = json.loads((out / "results.json").read_text())
    assert "not reached" not in printed and "closed_form.collision" not in printed
    assert re.search(rf"^{len(data['checks'])} checks not shown: the case's references "
                     r"describe its file's block, and this run changes "
                     r"geometry.half_height, geometry.half_width \(in results.json, for "
                     r"information\)$", printed, re.M)
    assert "\nno impact by t = 0.02 s\n" in printed and "corner" not in printed
    # the summary line counts what it shows
    assert re.search(r"^sdnv105_rigid: \d+ steps, [\d.]+ s wall; results in ", printed, re.M)
    assert data["checks"] and all(c["passed"] is None for c in data["checks"])


def test_rigid_of_the_file_as_written_keeps_its_tables(tmp_path, capsys):
    """The physics of the file: its references are its own (the shortened run's collisions
    are 'not reached' rightly), and the tables list the impacts it had."""
    assert main(["rigid", "--set", "time.end=0.1", "--out", str(tmp_path / "r"),
                 "--no-plots"]) == 0
    printed = capsys.readouterr().out
    assert "checks not shown" not in printed and "no impact by" not in printed
    assert re.search(r"^1  A  +0\.05440978", printed, re.M)
    assert re.search(r"^closed_form\.collision\.2\.time +0\.13574 +not reached", printed,
                     re.M)
    # no impact yet: said, and the references table still shown
    assert main(["rigid", "--set", "time.end=0.02", "--out", str(tmp_path / "s"),
                 "--no-plots"]) == 0
    printed = capsys.readouterr().out
    assert "\nno impact by t = 0.02 s\n" in printed and "== sdnv105_rigid" in printed
