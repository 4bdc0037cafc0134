"""The report's table headings say what holds for the run shown: the impacts table
explains an unresolved impact only when it has one, the collisions table says what a
collision's ``time`` is for the run's kind, and a rigid run's parameters table greys the
keys of the block's sections the rigid kind never reads and gives ``preload.tilt`` its
unit, as ``rocking-contact keys`` does."""

from rocking_contact.report.case_tables import (
    COLLISION_TITLES,
    collisions_table,
    impacts_table,
    parameters_table,
)
from rocking_contact.report.parameters import NOT_READ, kind_not_read
from rocking_contact.viz.changes import unread_recorded

IMPACT = {"shock": "NO1", "index": 1, "start": 0.1, "end": 0.2, "t_max": 0.15,
          "max_force": 10.0, "duration": 0.1, "impulse": 0.5, "speed": 0.3,
          "rebound_speed": 0.2, "resolved": True}


def test_the_unresolved_explanation_only_with_an_unresolved_impact():
    """It was printed for every run, whose impacts were all resolved."""
    resolved = impacts_table("x", [IMPACT, {**IMPACT, "index": 2}])
    assert resolved.caption == "Impacts"
    unresolved = impacts_table("x", [IMPACT, {**IMPACT, "index": 2, "resolved": False,
                                              "duration": None, "max_force": None}])
    assert unresolved.caption.startswith("Impacts (resolved false: a contact shorter")


def test_the_collisions_heading_says_what_time_is_for_the_kind():
    """"kinetic-energy maximum before each impact" was said of every run, a rigid run's
    (whose collisions are its impacts) and a block's on a shaken table (whose window
    maximum need not come before an impact) alike."""
    collision = {"index": 1, "time": 0.05, "kinetic_energy": 1.0}
    rigid = collisions_table("x", [collision], "rigid").caption
    block = collisions_table("x", [collision], "block").caption
    assert rigid == COLLISION_TITLES["rigid"] and "instant of impact" in rigid
    assert block == collisions_table("x", [collision]).caption
    assert "maximum in each collision window" in block and "on a still table" in block
    assert "before each impact" not in rigid + block


def test_a_rigid_run_greys_the_keys_its_kind_never_reads(results_dir):
    """sdnv105_rigid: material.block.young, material.table.*, preload.pivot were shown as
    if read (the rigid kind refuses them away from their defaults); preload.tilt had no
    unit where keys says rad (now preload.angle, the angle the file gives)."""
    from rocking_contact import results_io

    data = results_io.load(results_dir / "sdnv105_rigid")[0]
    assert not {"material.block.young", "preload.pivot"} & set(unread_recorded(data))
    never = kind_not_read("rigid")
    assert {"material.block.young", "material.table.young", "preload.pivot"} <= set(never)
    assert not {"material.block.density", "preload.tilt"} & set(never)
    table = parameters_table("sdnv105_rigid", data["parameters"],
                             unread_recorded(data) + never)
    rows = {row[0].text: row for row in table.rows}
    for key in ("material.block.young", "material.table.density", "preload.pivot"):
        assert rows[key][1].text.endswith(f"({NOT_READ})") and rows[key][1].css == "info"
    assert NOT_READ not in rows["material.block.density"][1].text
    assert rows["material.block.density"][2].text == "kg/m3"
    # sdnv105_rigid gives the angle itself since 09918a6; the pull ratio is left unread
    assert rows["preload.angle"][2].text == "rad"
    assert NOT_READ not in rows["preload.angle"][1].text
    assert rows["preload.tilt"][1].text.endswith(f"({NOT_READ})")
    assert kind_not_read("discrete") == [] and kind_not_read("nonsense") == []


def test_the_report_shows_the_rigid_keys_greyed(report_dir):
    from rocking_contact.report.cli import MARKDOWN_FILE

    markdown = (report_dir / MARKDOWN_FILE).read_text(encoding="utf-8")
    section = markdown.split('<a id="case-sdnv105_rigid"></a>')[1]
    assert f"| preload.pivot | O1 ({NOT_READ}) |" in section
    assert "| preload.angle | " in section and " | rad |" in section.split(
        "| preload.angle | ")[1].split("\n")[0]
    assert f"| preload.tilt | 0.01 ({NOT_READ}) |" in section
