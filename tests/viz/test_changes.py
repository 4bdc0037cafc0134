"""A run's changes to its case file's physics, read back from its results.json."""

from rocking_contact.results import STARTED
from rocking_contact.viz.changes import changed_keys, changes_text, ending, run_name

WARNING = ("its references describe the case file's parameters and the run changes "
           "loading.table_acceleration_x.path, loading.table_acceleration_x.type: the checks "
           "are shown for information, without a pass mark")


def test_changes_are_named_with_their_values_in_the_run():
    data = {"case": "sdnv105d_shaking", "warnings": [WARNING], "parameters": {"loading": {
        "table_acceleration_x": {"type": "table", "path": "/tmp/post/record.csv"}}}}
    assert changed_keys(data) == ["loading.table_acceleration_x.path",
                                  "loading.table_acceleration_x.type"]
    assert run_name(data) == ("sdnv105d_shaking with loading.table_acceleration_x.path = "
                              "record.csv, loading.table_acceleration_x.type = table")


def test_inherited_references_and_list_items():
    data = {"case": "mine", "parameters": {"model": {"shock": [{"friction": "exact"}]}},
            "warnings": ["its references come from /x/sdnd100a.toml, and it changes "
                         "model.shock.0.friction: the checks are shown for information, "
                         "without a pass mark"]}
    assert changes_text(data) == "model.shock.0.friction = exact"


def test_a_run_of_its_file_as_written_changes_nothing():
    data = {"case": "sdnd101a", "warnings": ["1 reference(s) hold for a time step of 5e-4 s"],
            "checks": [{"note": "not reached: the run ends at t = 0.1 s"}]}
    assert changed_keys(data) == [] and run_name(data) == "sdnd101a"


def test_how_a_run_ended_is_said_unless_it_completed():
    assert ending({"status": "completed"}) == ""
    assert ending({"status": "interrupted at t = 0.0861 s"}) == " [interrupted at t = 0.0861 s]"
    assert ending({"status": "the block slid off its table at t = 0.2273 s: corner O at x = "
                             "-0.18061 m"}) == " [the block slid off its table at t = 0.2273 s]"
    assert ending({"status": STARTED}) == " [still running, or killed]"


def test_the_recorded_changes_come_first_and_hold_without_references():
    """results.json's extra.changes (a case without references has no warning to parse)."""
    from rocking_contact.viz.changes import changed_keys

    data = {"extra": {"changes": ["initial.state"]}, "warnings": [], "checks": [],
            "parameters": {"initial": {"state": "rest"}}}
    assert changed_keys(data) == ["initial.state"]
    assert changed_keys({"extra": {"changes": []}, "warnings": [
        "its references describe the case file's parameters and the run changes "
        "geometry.half_width: the checks are shown for information"]}) == []


def test_a_run_with_other_numerics_is_named_by_them():
    """P1 audit #14: `run sdnd101a --set time.step=2e-4` had the shipped run's titles."""
    data = {"case": "sdnd101a", "extra": {"changes": []},
            "parameters": {"time": {"step": 2e-4}, "solver": {"scheme": "newmark"}},
            "provenance": {"overrides": ["time.step=2e-4", "solver.scheme=newmark",
                                         "output.xdmf=false", "case.title=mine"]}}
    assert run_name(data) == "sdnd101a with time.step = 0.0002, solver.scheme = newmark"
    assert changes_text(data) == ""  # the physics: the references still grade it


def test_physics_first_each_key_once_and_rc_run_mappings():
    from rocking_contact.viz.changes import variant_values

    data = {"case": "sdnv105d", "extra": {"changes": ["geometry.half_width"]},
            "parameters": {"geometry": {"half_width": 0.1}, "time": {"end": 0.06}},
            "provenance": {"overrides": {"time.end": 0.06, "geometry.half_width": 0.1,
                                         "solver.tolerance": 1e-10}}}
    assert variant_values(data) == [("geometry.half_width", "0.1"), ("time.end", "0.06"),
                                    ("solver.tolerance", "1e-10")]
    assert run_name({"case": "sdnd101a", "provenance": {"overrides": []}}) == "sdnd101a"
