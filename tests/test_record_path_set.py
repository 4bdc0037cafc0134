"""A record path set in Python on a loaded case, as an attribute or in a table set whole as
a dict, starts at the current directory, as one given by --set or in overrides does
(docs/case-files.md); and a time function's repr shows the keys its type reads."""

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.loads import TimeFunction


@pytest.fixture
def two_records(tmp_path, monkeypatch):
    """A case file extending sdnv105_rigid, with a record ``ux.csv`` of 1 m/s^2 next to
    it, and another ``ux.csv`` of 2 m/s^2 in the current directory; returns the case."""
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "shaken.toml").write_text('extends = "sdnv105_rigid"\n[time]\nend = 0.02\n')
    np.savetxt(folder / "ux.csv", [[0.0, 1.0], [1.0, 1.0]], delimiter=",")
    here = tmp_path / "here"
    here.mkdir()
    np.savetxt(here / "ux.csv", [[0.0, 2.0], [1.0, 2.0]], delimiter=",")
    monkeypatch.chdir(here)
    return rc.load_case(folder / "shaken.toml"), here / "ux.csv"


def read_record(case):
    """The path of the record the run of ``case`` read, and its table acceleration (m/s^2)
    at 0.01 s, as its runner reads it."""
    result = rc.run(case, write=False, quiet=True)
    function = result.parameters["loading"]["table_acceleration_x"]
    checked = rc.load_case("sdnv105_rigid", {"loading.table_acceleration_x": function})
    return function["path"], checked.loading.table_motion().at(0.01)[0]


def test_a_path_set_as_an_attribute_starts_at_the_current_directory(two_records):
    case, here = two_records
    case.loading.table_acceleration_x.type = "table"
    case.loading.table_acceleration_x.amplitude = 1.0
    case.loading.table_acceleration_x.path = "ux.csv"
    assert read_record(case) == (str(here), 2.0)


def test_a_path_in_a_table_set_as_a_dict_starts_at_the_current_directory(two_records):
    """It started at the case file's folder (api._check_again): 1 m/s^2, the file's
    neighbour, where the same path set as an attribute read 2 m/s^2. The run reads a
    copy: the caller's dict stays as given."""
    case, here = two_records
    case.loading.table_acceleration_x = {"type": "table", "path": "ux.csv"}
    assert read_record(case) == (str(here), 2.0)
    assert case.loading.table_acceleration_x == {"type": "table", "path": "ux.csv"}


def test_a_time_functions_repr_shows_the_keys_its_type_reads():
    """A sine switched to a table showed the sine's frequency=2.0 and phase, which a table
    does not read (its amplitude is: a table's factor)."""
    f = TimeFunction(type="sine", amplitude=6.0, frequency=2.0)
    assert repr(f) == "TimeFunction(type='sine', amplitude=6.0, frequency=2.0, phase=0.0)"
    f.type = "table"
    assert repr(f) == ("TimeFunction(type='table', amplitude=6.0, times=[], values=[], "
                       "path='', column=None)")
    assert repr(TimeFunction(frequency=3.0)) == "TimeFunction(type='zero')"
    f.type = "tabel"  # no variant's: refused by rc.run, shown whole meanwhile
    assert "frequency=2.0" in repr(f) and "column=None" in repr(f)
