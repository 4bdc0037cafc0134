"""Values a case keeps from the file it extends (or from its own file under ``--set``) after
the change that gave them their meaning: a sine's amplitude under a table, short-step and
collision windows placed at another block's impacts."""

from pathlib import Path

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.api import _check_again
from rocking_contact.config import (
    CaseError,
    load_case,
    physics_changes,
    placed_for_other_physics,
    shipped_cases,
    variant_cases,
)

SHAKING = "sdnv105d_shaking"  # ux(t) = 6 sin(2 pi 2 t) m/s^2: amplitude = 6.0, the peak


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.fixture
def record(tmp_path):
    """A 1 m/s^2 ramp over 0.5 s, next to the case files of the test."""
    path = tmp_path / "ux.csv"
    np.savetxt(path, [[0.0, 0.0], [0.5, 1.0]], delimiter=",")
    return path


def table_x(case, t):
    """The case's table acceleration along x at ``t`` (m/s^2), as the runs read it."""
    return case.loading.table_motion().at(t)[0]


def test_a_table_that_replaces_an_inherited_sine_leaves_its_amplitude_behind(tmp_path, record):
    """A record under sdnv105d_shaking was scaled by its sine's peak, 6 m/s^2: 6.0 m/s^2 at
    the end of a 1 m/s^2 record. The amplitude stays behind with the sine, as its
    frequency does; a table that sets its own (in the file or with --set) keeps it."""
    child = write(tmp_path / "rec.toml", f'extends = "{SHAKING}"\n'
                  '[loading.table_acceleration_x]\ntype = "table"\npath = "ux.csv"\n')
    case = load_case(child)
    f = case.loading.table_acceleration_x
    assert (f.type, f.amplitude, f.path) == ("table", 1.0, str(record))
    assert table_x(case, 0.5) == 1.0
    assert table_x(load_case(child, ["loading.table_acceleration_x.amplitude=2.5"]), 0.5) == 2.5
    own = write(tmp_path / "own.toml", f'extends = "{SHAKING}"\n[loading.table_acceleration_x]'
                '\ntype = "table"\namplitude = 3.0\npath = "ux.csv"\n')
    assert table_x(load_case(own), 0.5) == 3.0
    # an override that switches the file's own sine to a table, key by key
    switched = load_case(SHAKING, ["loading.table_acceleration_x.type=table",
                                   f"loading.table_acceleration_x.path={record}"])
    assert table_x(switched, 0.5) == 1.0


def test_an_amplitude_stays_with_the_type_it_was_given_for(tmp_path, record):
    """A child that keeps the sine keeps its peak; one that turns a parent's table into a
    sine does not take the table's factor (3.0) as a peak in m/s^2."""
    sine = write(tmp_path / "sine.toml", f'extends = "{SHAKING}"\n'
                 '[loading.table_acceleration_x]\nfrequency = 3.0\n')
    f = load_case(sine).loading.table_acceleration_x
    assert (f.type, f.amplitude, f.frequency) == ("sine", 6.0, 3.0)
    write(tmp_path / "own.toml", f'extends = "{SHAKING}"\n[loading.table_acceleration_x]\n'
          'type = "table"\namplitude = 3.0\npath = "ux.csv"\n')
    back = write(tmp_path / "back.toml", 'extends = "own.toml"\n'
                 '[loading.table_acceleration_x]\ntype = "sine"\nfrequency = 2.0\n')
    f = load_case(back).loading.table_acceleration_x
    assert (f.type, f.amplitude) == ("sine", 1.0)
    assert table_x(load_case(back), 0.125) == pytest.approx(1.0, rel=1e-15)  # the peak


def test_a_type_changed_after_loading_under_the_old_types_amplitude_is_refused(record):
    """On the caller's object the sine's 6.0 is in sight: run refuses to read it as the
    table's factor (it would scale the record by 6), rather than change it behind their
    back; with an amplitude set for the table it runs."""
    case = load_case(SHAKING)
    f = case.loading.table_acceleration_x
    f.type, f.path = "table", str(record)
    with pytest.raises(CaseError) as err:
        rc.run(case, write=False, quiet=True)
    file = case.source_file
    assert str(err.value) == (
        f"{file} (changed after loading): loading.table_acceleration_x.type: 'table' reads "
        f"amplitude as a factor on its values (1.0: the values as given), and the amplitude "
        f"= 6.0 of {file} (as loaded) was given for type 'sine', as its peak (the function's "
        f"unit); allowed: set loading.table_acceleration_x.amplitude with the new type")
    f.amplitude = 2.0
    assert table_x(_check_again(case), 0.5) == 2.0


A_WINDOWS = ("[0, 0.0025] [0.0525, 0.0575] [0.14, 0.145] [0.205, 0.2125] [0.2575, 0.265] "
             "[0.2975, 0.3075]")
A_COLLISIONS = "[0, 0.33] [0.1, 0.33] [0.15, 0.33] [0.22, 0.33] [0.28, 0.33]"


def test_windows_placed_at_the_parents_impacts_are_said_to_be_the_parents(tmp_path):
    """A wider block extending sdnv105a keeps A's short-step and collision windows, placed
    at A's impacts: one sentence each says whose they are, for what, and how to remove
    them."""
    child = write(tmp_path / "wide.toml", 'extends = "sdnv105a"\nquantity = []\n'
                  'reference = []\n[case]\nname = "wide"\ntitle = "a wider block"\n'
                  'kind = "block"\n[geometry]\nhalf_width = 0.12\n[time]\nend = 0.01\n')
    a = load_case("sdnv105a").source_file
    assert placed_for_other_physics(load_case(child)) == [
        f"time.window: the 6 short-step windows {A_WINDOWS} s come from {a}, placed there "
        "at the impacts of its block, and this run changes geometry.half_width: they do "
        "not follow this run's impacts (time.refine still takes small steps where a contact "
        "closes or opens); give the run its own [[time.window]] tables, or time.window = "
        "[] to remove them",
        f"collisions.windows: the 5 collision windows {A_COLLISIONS} s "
        f"come from {a}, placed there at the impacts of its block, and this run changes "
        "geometry.half_width: collision k is still the largest kinetic energy in window k, "
        "an impact of this run or not; give the run its own (collisions.windows = [[t0, "
        "t1], ...]), or collisions.windows = [] to take one at each landing of this run",
        DESCRIBED.format(a=a, changed="geometry.half_width")]
    # windows of its own, or none, are the run's: nothing to say
    assert placed_for_other_physics(load_case(child, [
        "time.window=[]", "collisions.windows=[[0.0, 0.01]]", "case.description=''"])) == []
    assert [w.split(":")[0] for w in placed_for_other_physics(
        load_case(child, ["time.window.1={step=5e-6}", "case.description='mine'"]))] == [
        "collisions.windows"]


DESCRIBED = ("case.description: comes from {a}, written for its block, and this run changes "
             "{changed}: the report describes the run with it; give the case its own "
             "(description = \"\" for none)")


def test_a_description_inherited_by_other_physics_is_said_to_be_the_parents(tmp_path):
    """A user's block extending sdnv105d was described in its report as Code_Aster's
    25-node mesh of SDNV105; a file's own under --set, or a child of the same physics,
    is not said (the report marks a changed run)."""
    d = load_case("sdnv105d").source_file
    child = write(tmp_path / "tall.toml", 'extends = "sdnv105d"\n[geometry]\n'
                  'half_height = 0.5\n')
    notes = placed_for_other_physics(load_case(child))
    assert [n.split(":")[0] for n in notes] == ["collisions.windows", "case.description"]
    assert notes[1] == DESCRIBED.format(a=d, changed="geometry.half_height")
    same = write(tmp_path / "same.toml", 'extends = "sdnv105d"\n[time]\nend = 0.1\n')
    assert placed_for_other_physics(load_case(same)) == []
    assert [n.split(":")[0] for n in placed_for_other_physics(
        load_case("sdnv105d", ["preload.tilt=0.012"]))] == ["collisions.windows"]


def test_a_files_own_windows_under_a_set_that_changes_its_block(tmp_path):
    """The same for sdnv105a itself with another tilt: its windows are its own file's, the
    run's block is not; without time.refine the sentence says what takes the impacts."""
    a = load_case("sdnv105a").source_file
    notes = placed_for_other_physics(load_case("sdnv105a", [
        "preload.tilt=0.012", "time.refine.enabled=false"]))
    assert [w.split(":")[0] for w in notes] == ["time.window", "collisions.windows"]
    assert notes[0].startswith(f"time.window: the 6 short-step windows {A_WINDOWS} s come "
                               f"from {a}, placed there at the impacts of its block, and "
                               "this run changes preload.tilt: they do not follow this "
                               "run's impacts (without time.refine, an impact outside them "
                               "takes steps of time.step);")
    assert placed_for_other_physics(load_case("sdnv105a", ["contact.tolerance=1e-8"])) == []


@pytest.mark.parametrize("name", [*shipped_cases(), *variant_cases()])
def test_no_shipped_case_keeps_windows_placed_for_another_block(name):
    """The fine meshes keep A's, B's, C's and D's windows (a mesh is method, not physics);
    sdnv105d_shaking and sdnv105d_sliding change the physics, and keep no window."""
    assert placed_for_other_physics(load_case(name)) == []


def test_a_run_says_once_whose_windows_it_keeps(tmp_path):
    child = tmp_path / "wide.toml"
    child.write_text('extends = "sdnv105a"\nquantity = []\nreference = []\n[case]\n'
                     'name = "wide"\ntitle = "a wider block"\nkind = "block"\n[geometry]\n'
                     'half_width = 0.12\n[time]\nend = 0.001\n')
    case = load_case(child)
    result = rc.run(case, write=False, plots=False, quiet=True)
    placed = placed_for_other_physics(case)
    assert len(placed) == 3
    # but the collision windows, which the run sets aside (its collisions taken at its
    # landings: post.collisions.windows_set_aside), saying so in a line of its own, once
    kept = [w for w in placed if not w.startswith("collisions.windows:")]
    assert len(kept) == 2
    assert [w for w in result.warnings if w in placed] == kept  # each once, in order
    from rocking_contact.post.collisions import set_aside_line

    assert [w for w in result.warnings if w.startswith("collisions.windows:")] == [
        set_aside_line(result.extra["windows_set_aside"])]


def test_a_run_that_starts_elsewhere_changes_the_physics(capsys):
    """Another time.start moves every instant the references give (sdnd101a's impact 1
    peaks at 0.1155 s from a start at 0.1, the reference says 0.0156) and, under a table
    acceleration, the motion: it is no method key, so validate refuses it as it does
    physics, and windows placed at the file's impacts are said to be the file's. The end,
    step, windows and refinement stay method."""
    from rocking_contact.cli import main

    assert physics_changes(load_case("sdnd101a", ["time.start=0.1", "time.end=0.6"])) == [
        "time.start"]
    assert physics_changes(load_case("sdnv105a", [
        "time.end=0.4", "time.step=1.25e-3", "time.window.0.step=5e-6",
        "time.refine.enabled=false"])) == []
    assert [w.split(":")[0] for w in placed_for_other_physics(load_case(
        "sdnv105a", ["time.start=0.01"]))] == ["time.window", "collisions.windows"]
    code = main(["validate", "sdnd101a", "--set", "time.start=0.1", "--set", "time.end=0.6"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0].startswith(f"error: {load_case('sdnd101a').source_file} (with --set): "
                             "time.start: changes the physics the references describe")


def test_one_window_over_the_whole_run_was_placed_at_no_impact(tmp_path):
    """A user's block with one collision window over its whole run, studied under --set
    contact.restitution=0.5, was told the window was "placed there at the impacts of its
    block" (audit s25 #7): one window holding the run suits any physics; one that does not,
    or several, are still said."""
    own = write(tmp_path / "own.toml", 'extends = "sdnv105d"\nquantity = []\nreference = []\n'
                '[case]\nname = "own"\ndescription = ""\n[time]\nend = 0.15\n'
                '[collisions]\nwindows = [[0.0, 0.15]]\n')
    assert placed_for_other_physics(load_case(own, ["contact.restitution=0.5"])) == []
    assert [n.split(":")[0] for n in placed_for_other_physics(load_case(own, [
        "contact.restitution=0.5", "time.end=0.2"]))] == ["collisions.windows"]
    two = write(tmp_path / "two.toml", own.read_text().replace(
        "windows = [[0.0, 0.15]]", "windows = [[0.0, 0.15], [0.1, 0.15]]"))
    assert [n.split(":")[0] for n in placed_for_other_physics(load_case(two, [
        "contact.restitution=0.5"]))] == ["collisions.windows"]
