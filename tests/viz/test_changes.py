"""A run's changes to its case file's physics, read back from its results.json."""

from rocking_contact.results import STARTED
from rocking_contact.viz.changes import changed_keys, changes_text, ending, run_name

WARNING = ("its references describe the case file's parameters and the run changes "
           "loading.table_acceleration_x.path, loading.table_acceleration_x.type: the checks "
           "are shown for information, without a pass mark")


def test_changes_are_named_with_their_values_in_the_run():
    data = {"case": "sdnv105d_shaking", "warnings": [WARNING], "parameters": {"loading": {
        "table_acceleration_x": {"type": "table", "path": "/tmp/post/record.csv"}}}}
    data_type_alone = {**data, "parameters": {"loading": {"table_acceleration_x": {
        "type": "table"}}}}
    assert run_name(data_type_alone) == (
        "sdnv105d_shaking with loading.table_acceleration_x.path, "
        "loading.table_acceleration_x.type = table")
    assert changed_keys(data) == ["loading.table_acceleration_x.path",
                                  "loading.table_acceleration_x.type"]
    assert run_name(data) == ("sdnv105d_shaking with loading.table_acceleration_x = record "
                              "record.csv")


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


def _function(**given):
    """A table acceleration as results.json's parameters hold it: every key of the
    function, those its type does not read left at what they were."""
    return {"type": "zero", "amplitude": 1.0, "frequency": 0.0, "phase": 0.0, "times": [],
            "values": [], "path": "", "column": None, **given}


def test_a_table_given_as_arrays_is_summed_up():
    """U1 #4: rc.load_case(..., {"loading.table_acceleration_x": {"type": "table", "times":
    t, "values": v}}) with 151 samples put both arrays in every title, the report's summary
    row and its 'This run changes' line."""
    times = [k / 1000 for k in range(151)]
    given = {"type": "table", "path": "", "times": times, "values": [6.0] * 151}
    data = {"case": "myshake", "extra": {"changes": [
        "loading.table_acceleration_x.path", "loading.table_acceleration_x.times",
        "loading.table_acceleration_x.values"]},
        "parameters": {"loading": {"table_acceleration_x": _function(
            type="table", frequency=2.0, times=times, values=[6.0] * 151)},
            "time": {"end": 0.1}},
        "provenance": {"overrides": {"loading.table_acceleration_x": given, "time.end": 0.1}}}
    assert changes_text(data) == "loading.table_acceleration_x = table of 151 samples over 0-0.15 s"
    assert run_name(data) == ("myshake with loading.table_acceleration_x = table of 151 "
                              "samples over 0-0.15 s, time.end = 0.1")


def test_a_sine_set_over_a_record_is_named_once_without_the_record():
    """U1 #4: --set 'loading.table_acceleration_x={type="sine",amplitude=12.0,frequency=1.0}'
    over a CSV case: the view's title, 7 lines, named the change twice (the dotted keys, then
    the whole table) and the record's path the sine does not read."""
    data = {"case": "myshake", "extra": {"changes": [
        "loading.table_acceleration_x.amplitude", "loading.table_acceleration_x.frequency",
        "loading.table_acceleration_x.type"]},
        "parameters": {"loading": {"table_acceleration_x": _function(
            type="sine", amplitude=12.0, frequency=1.0, path="/tmp/cases/table.csv")},
            "time": {"end": 0.55, "step": 2e-4}},
        "provenance": {"overrides": [
            'loading.table_acceleration_x={type="sine",amplitude=12.0,frequency=1.0}',
            "time.end=0.55", "time.step=2e-4"]}}
    assert run_name(data) == ("myshake with loading.table_acceleration_x = sine of 12 m/s^2 at "
                              "1 Hz, time.end = 0.55, time.step = 0.0002")


def test_a_function_in_words():
    from rocking_contact.viz.changes import function_text

    assert function_text(_function(type="sine", amplitude=6.0, frequency=2.0, phase=0.5)) \
        == "sine of 6 m/s^2 at 2 Hz from phase 0.5 rad"
    assert function_text(_function(type="table", amplitude=0.5, path="/r/ux.csv",
                                   column="ax")) == "record ux.csv column ax times 0.5"
    assert function_text(_function(type="table", frequency=2.0, times=[0.0, 0.2],
                                   values=[0.0, 1.0])) == "table of 2 samples over 0-0.2 s"
    assert function_text(_function(amplitude=3.0)) == "zero"


def test_a_long_list_is_counted():
    data = {"case": "c", "parameters": {}, "provenance": {"overrides": {
        "collisions.windows": [[0.1 * k, 0.1 * k + 0.1] for k in range(8)]}}}
    assert run_name(data) == "c with collisions.windows = 8 values"


def test_no_collision_windows_are_said_by_what_they_mean():
    """F3: `--set collisions.windows=[]` titled its plots 'collisions.windows = []' (from
    Python, a tuple: '()'), which says nothing of how the collisions are then found."""
    means = "collisions.windows = none (a collision at each landing found)"
    data = {"case": "sdnv105d", "extra": {"changes": []},
            "parameters": {"collisions": {"windows": []}},
            "provenance": {"overrides": ["collisions.windows=[]"]}}
    assert run_name(data) == f"sdnv105d with {means}"
    given_in_python = {"case": "sdnv105d", "extra": {"changes": []},
                       "provenance": {"overrides": {"collisions.windows": ()}}}
    assert run_name(given_in_python) == f"sdnv105d with {means}"
    windows = {**data, "parameters": {"collisions": {"windows": [[0.0, 0.33]]}}}
    assert run_name(windows) == "sdnv105d with collisions.windows = [[0.0, 0.33]]"


def test_a_key_the_run_did_not_read_is_named_by_the_value_it_was_given():
    """The rigid twin of sdnv105d at --set preload.tilt=0.02 runs at the angle the tilt
    gives; its parameters keep its levels' file's tilt 0.01, unread (extra.unread): its
    title said 'preload.tilt = 0.01' (measured at 46dbea7, `rigid sdnv105d --set
    preload.tilt=0.02` then `view --screenshot`)."""
    data = {"case": "sdnv105d_rigid",
            "parameters": {"preload": {"tilt": 0.01, "angle": 0.02000133357339049}},
            "extra": {"changes": ["preload.angle"], "unread": ["preload.tilt"]},
            "provenance": {"overrides": ["preload.tilt=0.02"]}}
    assert run_name(data) == "sdnv105d_rigid with preload.angle = 0.0200013, preload.tilt = 0.02"
