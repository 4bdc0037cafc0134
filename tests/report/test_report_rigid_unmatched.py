"""The report's rigid table says why a collision has no rigid impact beside it."""

from rocking_contact.post.collisions import RIGID_LEVEL
from rocking_contact.report.case_tables import rigid_table, rigid_unmatched
from rocking_contact.report.verdicts import rigid_summary

#: the plain caption of the rigid table
CAPTION_END = "extra.rigid_comparison)"


def test_a_collision_without_a_rigid_impact_is_explained_under_the_table():
    """A run that ends between the block's landing and the rigid block's impact (F1's
    granite block to 0.12185 s) has an ``unmatched`` row: the report showed blank rigid
    cells and no reason, where the command line printed one; then the reason in the
    table's caption, naming no row. Now a line under the table, as run prints it, and
    the summary table's rigid column says there is no rigid impact, not a bare dash."""
    why = ("it is the run's impact 1, and the nonlinear rigid block has none up to "
           "t = 0.12185 s")
    rows = [{"index": 1, "time": 0.12175, "kinetic_energy": 27.4, "levels": {},
             "unmatched": {RIGID_LEVEL: why}}]
    table = rigid_table("granite", rows)
    assert table.caption.endswith(CAPTION_END)
    assert [c.text for c in table.rows[0]] == ["1", "0.12175", "27.4", *["—"] * 5]
    assert [p.text for p in rigid_unmatched(rows)] == [
        f"— collision 1: no nonlinear rigid impact to compare with: {why}"]
    assert rigid_summary({"extra": {"rigid_comparison": rows}}) == (
        "no rigid impact to compare its 1 collision with (see the case's table)")


def test_matched_rows_keep_the_plain_title_and_no_line():
    matched = {"index": 1, "time": 0.0544, "kinetic_energy": 7.29, "levels": {RIGID_LEVEL: {
        "impact": 1, "time": 0.05441, "kinetic_energy": 7.2919, "time_error": -2e-4,
        "energy_error": -1e-4}}}
    assert rigid_table("d", [matched]).caption.endswith(CAPTION_END)
    assert rigid_unmatched([matched]) == []
    assert rigid_summary({"extra": {"rigid_comparison": [matched]}}) == (
        "t -0.02 %, energy -0.01 % (1 collision)")
    # sdnv105d at mu = 0.3 to 0.15 s: its third collision has no rigid impact
    late = {"index": 2, "time": 0.1497, "kinetic_energy": 0.507, "levels": {},
            "unmatched": {RIGID_LEVEL: "it is the run's impact 2, and ..."}}
    assert rigid_summary({"extra": {"rigid_comparison": [matched, late]}}) == (
        "t -0.02 %, energy -0.01 % (1 collision; 1 with no rigid impact, see the case's "
        "table)")
    assert len(rigid_unmatched([matched, late])) == 1
