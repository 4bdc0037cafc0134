"""The report's rigid table says why a collision has no rigid impact beside it."""

from rocking_contact.post.collisions import RIGID_LEVEL
from rocking_contact.report.case_tables import rigid_table


def test_a_collision_without_a_rigid_impact_is_explained_in_the_title():
    """A run that ends between the block's landing and the rigid block's impact (F1's
    granite block to 0.12185 s) has an ``unmatched`` row: the report showed blank rigid
    cells and no reason, where the command line printed one."""
    why = ("collision 1: no nonlinear rigid impact to compare with: it is the run's impact "
           "1, and the nonlinear rigid block has none up to t = 0.12185 s")
    rows = [{"index": 1, "time": 0.12175, "kinetic_energy": 27.4, "levels": {},
             "unmatched": {RIGID_LEVEL: why}}]
    table = rigid_table("granite", rows)
    assert table.caption.endswith(f"extra.rigid_comparison); {why}")
    assert [c.text for c in table.rows[0]][:3] == ["1", "0.12175", "27.4"]


def test_matched_rows_keep_the_plain_title():
    rows = [{"index": 1, "time": 0.0544, "kinetic_energy": 7.29, "levels": {RIGID_LEVEL: {
        "impact": 1, "time": 0.05441, "kinetic_energy": 7.2919, "time_error": -2e-4,
        "energy_error": -1e-4}}}]
    assert rigid_table("d", rows).caption.endswith("extra.rigid_comparison)")
