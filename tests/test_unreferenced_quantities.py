"""What a run computed is shown where it is printed, not in results.json alone: a
``[[quantity]]`` that no ``[[reference]]`` compares is an information row (its value, no
pass mark) of ``run``'s table, ``rc.format_table`` and the report; a rigid run's outcome
and events (an overturn, the uplifts) are in its summary line and in the report's status
and events table, where an overturned block read "completed ... NO CHECK"."""

import dataclasses
import math
import textwrap

import pytest

import rocking_contact as rc
from rocking_contact.post.references import NO_REFERENCE, format_table, unreferenced
from rocking_contact.report.case_tables import checks_table, events_table
from rocking_contact.report.content import case_section
from rocking_contact.report.inputs import read_result
from rocking_contact.report.verdicts import run_status
from rocking_contact.summary import outcome_text, show_result, summary_line

#: SDND101 A (graded on its impacts) with two quantities of its own and no reference to
#: them: the largest displacement into the stop, and a crossing the run never finds
LAUNCH = """
extends = "sdnd101a"

[[quantity]]
name = "x_max"
column = "DX_NO1"
op = "max"

[[quantity]]
name = "t_never"
column = "DX_NO1"
op = "crossing"
level = 1.0e9
direction = "up"
"""

#: a tall block (h/b = 5) released past its overturning angle atan(b/h) = 0.197 rad
TOPPLING = """
[case]
name = "topple"
title = "tall slender block released beyond its overturning angle"
kind = "rigid"

[geometry]
half_width = 0.1
half_height = 0.5
thickness = 0.2

[material.block]
density = 2400.0

[preload]
tilt = 0.21

[time]
end = 2.0
step = 1.0e-3
"""


@pytest.fixture(scope="module")
def launch(tmp_path_factory):
    root = tmp_path_factory.mktemp("launch")
    (root / "launch.toml").write_text(textwrap.dedent(LAUNCH), encoding="utf-8")
    result = rc.run(rc.load_case(str(root / "launch.toml")), out=root / "out", quiet=True,
                    plots=False)
    return root / "out", result


def test_a_quantity_without_reference_is_a_row_of_the_table(launch, capsys):
    """The audit's t_hit was in results.json alone: run printed the summary line,
    rc.format_table an empty table."""
    out, result = launch
    graded = [c["quantity"] for c in result.checks]
    assert graded and not {"x_max", "t_never"} & set(graded)  # sdnd101a's impact checks
    shown = unreferenced(result.parameters["quantity"], result.quantities, result.checks)
    assert list(shown) == ["x_max", "t_never"]
    # v0 / omega_c, omega_c = sqrt((1e6 + 1e4) / 100) rad/s, sampled every 5e-4 s
    assert shown["x_max"] == result.quantities["x_max"] == pytest.approx(
        1.0 / math.sqrt(1.01e4), rel=2e-3)
    assert math.isnan(shown["t_never"])
    for table in (rc.format_table(result), rc.format_table(rc.load_result(out))):
        rows = [line.split() for line in table.splitlines()[3:]]
        assert [r[0] for r in rows] == [*graded, "x_max", "t_never"]  # the checks first
        x_max, t_never = rows[-2:]
        assert x_max[:5] == ["x_max", "—", f"{shown['x_max']:.6g}", "—", "info"]
        assert " ".join(x_max[5:]) == f"{NO_REFERENCE} -"
        assert t_never[2:4] == ["no", "value"]
    # given its checks, a table shows them alone, as before
    assert "x_max" not in rc.format_table(result.case, result.checks)
    assert "x_max" not in format_table(result.case, result.checks)
    show_result(result)
    printed = capsys.readouterr().out
    assert rc.format_table(result) in printed


def test_a_case_without_reference_prints_its_quantities(launch, capsys):
    _, graded = launch
    result = dataclasses.replace(graded, checks=[])
    show_result(result)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"== {result.case}"
    # then, a run with nothing to check, what it did: its impacts and its energy balance
    assert [line.split()[0] for line in lines[3:]] == [
        "x_max", "t_never", "impacts", "k", "1", "2", "energy", result.case + ":"]
    assert lines[-1].startswith(f"{result.case}: 1000 steps")


def test_the_report_shows_them_as_information_rows(launch, tmp_path):
    out, result = launch
    shown = unreferenced(result.parameters["quantity"], result.quantities, [])
    (table,) = checks_table("launch", [], shown)
    assert table.caption.startswith("Computed quantities (no reference")
    cells = {row[0].text: row for row in table.rows}
    assert list(cells) == ["x_max", "t_never"]
    assert cells["x_max"][3].text == f"{shown['x_max']:.7g}"
    assert cells["x_max"][6].text == "info" and cells["x_max"][6].css == "info"
    assert "the run has none" in cells["t_never"][7].text
    section = case_section(read_result(out), tmp_path, views=False)
    # the graded checks, then the information rows: references without a pass mark and
    # the quantities without reference
    graded, info = (b for b in section.blocks if getattr(b, "id", "").startswith("checks-"))
    assert graded.caption.startswith("Comparison with the references")
    assert info.id.startswith("checks-info-") and info.collapsed
    assert [row[0].text for row in graded.rows + info.rows] == [
        *(c["quantity"] for c in result.checks if c["passed"] is not None),
        *(c["quantity"] for c in result.checks if c["passed"] is None), "x_max", "t_never"]


@pytest.fixture(scope="module")
def topple(tmp_path_factory):
    root = tmp_path_factory.mktemp("topple")
    (root / "topple.toml").write_text(textwrap.dedent(TOPPLING), encoding="utf-8")
    return rc.run(rc.load_case(str(root / "topple.toml")), out=root / "out", quiet=True,
                  plots=False)


def test_an_overturned_rigid_block_says_so_in_its_summary(topple):
    """It read 'topple: 1 steps, ... s wall; results in ...' and 'completed' / 'NO CHECK'
    in the report, its overturn in extra.outcome alone."""
    assert topple.status == "completed" and topple.extra["outcome"] == "overturned"
    line = summary_line(topple)
    assert ", outcome overturned; events: overturn at t = 0 s" in line
    data = {"status": topple.status, "extra": topple.extra, "checks": []}
    assert run_status(data).startswith("completed (outcome overturned; events: overturn")
    table = events_table("topple", topple.extra["events"])
    assert [c.text for c in table.rows[0][:3]] == ["overturn", "0", "O"]


def test_events_in_words():
    uplifts = [{"kind": "uplift", "time": t, "corner": "A"} for t in (0.25, 0.5, 0.75)]
    assert outcome_text({"outcome": "rest", "events": [*uplifts, {"kind": "rest",
                                                                  "time": 1.0}]}) == (
        "outcome rest; events: uplift at t = 0.25, 0.5 and 0.75 s, rest at t = 1 s")
    many = [{"kind": "uplift", "time": 0.1 * k} for k in range(1, 8)]
    assert outcome_text({"outcome": "rocking", "events": many}) == (
        "outcome rocking; events: 7 uplifts from t = 0.1 to 0.7 s")
    # the shipped sdnv105_rigid: its summary line as before
    assert outcome_text({"outcome": "rocking", "events": []}) == ""
    assert outcome_text({"outcome": "rest", "events": []}) == "outcome rest"
    assert outcome_text({}) == ""  # a discrete or block run
