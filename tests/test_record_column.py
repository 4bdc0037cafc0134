"""A table acceleration record of more than two columns (t, ax, ay, az; a PEER/NGA export)
is read through ``column``: the value column by its header name or by its number.

The reader is shared by the block (``loading.table_acceleration_*``), the rigid block and
the discrete kind (``model.support.acceleration``): each reads the column as the two-column
record of that column, to the bit.
"""

import json
import math

import numpy as np
import pytest
from test_bad_input import assert_one_line_error

import rocking_contact as rc
from rocking_contact.cli import main

#: t (s), then three accelerations (m/s^2); az was not measured
TIMES = np.linspace(0.0, 0.01, 21)


def _records(tmp_path):
    """The four-column record with its header line, and the two-column record of its ax
    column, written from the same texts."""
    rows = [(repr(t), repr(6.0 * math.sin(2 * math.pi * 10 * t + 0.3)),
             repr(-2.0 * t), "nan") for t in map(float, TIMES)]
    wide, narrow = tmp_path / "axyz.csv", tmp_path / "ax.csv"
    wide.write_text("t,ax,ay,az\n" + "".join(",".join(r) + "\n" for r in rows))
    narrow.write_text("".join(f"{t},{ax}\n" for t, ax, _, _ in rows))
    return wide, narrow


def test_a_wider_record_read_by_name_or_number_runs_as_its_column_alone(tmp_path):
    """The block on a shaking table: the same history.csv, byte for byte, and its
    results.json says which column was read."""
    wide, narrow = _records(tmp_path)
    histories = {}
    for label, table in (("narrow", {"path": str(narrow)}),
                         ("name", {"path": str(wide), "column": "ax"}),
                         ("number", {"path": str(wide), "column": 2}),
                         ("ay", {"path": str(wide), "column": "ay"})):
        case = rc.load_case("sdnv105d_shaking", {
            "loading.table_acceleration_x": {"type": "table", **table}, "time.end": 0.004})
        out = tmp_path / label
        result = rc.run(case, out=out, quiet=True, plots=False)
        assert result.status == "completed"
        histories[label] = (out / "history.csv").read_bytes()
        written = json.loads((out / "results.json").read_text())
        assert (written["parameters"]["loading"]["table_acceleration_x"]["column"]
                == table.get("column"))
    assert histories["name"] == histories["narrow"] == histories["number"]
    assert histories["ay"] != histories["narrow"]  # the column read moves the table
    assert len(histories["narrow"].splitlines()) == 42  # header, t = 0, 40 steps of 1e-4 s


def test_the_discrete_support_reads_a_column_too(tmp_path):
    """sdnd102c's support acceleration from the wide record's ax column: the same history
    as from the two-column record."""
    wide, narrow = _records(tmp_path)
    runs = [rc.run(rc.load_case("sdnd102c", {
        "model.support.acceleration": {"type": "table", **table}, "time.end": 0.01}),
        write=False, quiet=True) for table in ({"path": str(narrow)},
                                               {"path": str(wide), "column": "ax"})]
    assert runs[0].history.keys() == runs[1].history.keys()
    for name, values in runs[0].history.items():
        assert values.tobytes() == runs[1].history[name].tobytes(), name
    assert np.ptp(runs[0].history["DX_NO2"]) > 0.0  # the support moved the mass


@pytest.mark.parametrize("column,text,words", [
    ("'axx'", None, ["loading.table_acceleration_x.column: 'axx' is no column of ",
                     "axyz.csv (line 1: t, ax, ay, az; allowed: its values' column by name "
                     "(ax, ay, az) or number 2 to 4; close: ax)"]),
    ("'AY'", None, ["'AY' is no column of ", "; close: ay)"]),
    ("'t'", None, ["column: 't' is column 1 of ", "axyz.csv (line 1), the times"]),
    ("5", None, ["column: 5 is past the last column of ", "axyz.csv, column 4 (allowed: "
                 "its values' column by name (ax, ay, az) or number 2 to 4)"]),
    ("1", None, ["column: got 1, allowed: a name of the record's header line, or a column "
                 "number >= 2 (column 1 is the time)"]),
    # a float: the values the key takes (it said "expected a string or an integer")
    ("2.0", None, ["column: got 2.0, allowed: a name of the record's header line, or a "
                   "column number >= 2 (column 1 is the time)"]),
    ("'ax'", "0,1,2\n0.1,2,3\n", ["column: 'ax' names no column of ", "its first line is "
                                  "no header line of names (allowed: its values' column by "
                                  "number 2 or 3)"]),
    ("3", "t,ax,ay\n0,1,2\n0.1,2\n", ["path: ", "axyz.csv: line 3: 2 fields, the lines "
                                      "before have 3 (allowed: rows of numbers, as many "
                                      "each, at least 2, times increasing)"]),
    ("3", "t,ax,ay\n0,1,2\n0.1,2,x\n", ["axyz.csv: line 3, column 3 (ay): 'x' is not a "
                                        "number"]),
    ("2", "t,ax,ay\n0,1,2\n0.1,nan,3\n", ["axyz.csv: line 3, column 2 (ax): nan is not "
                                          "finite"]),
    ("'ay'", "t,ax,ay\n0,1,2\n0.2,2,3\n0.1,2,3\n", ["line 4, column 1 (t): time 0.1 after "
                                                    "0.2 on line 3"]),
    (None, None, ["path: ", "axyz.csv: 21 row(s) of 4 column(s) (allowed: rows 't, value' of "
                  "numbers, at least 2, times increasing; or set column to the values' name "
                  "(ax, ay, az) or number 2 to 4)"]),
])
def test_a_column_the_record_has_not(capsys, tmp_path, column, text, words):
    """Exit code 2 and one line: the file, its line and column, what is allowed and the
    names closest to a misspelt one."""
    wide, _ = _records(tmp_path)
    if text is not None:
        wide.write_text(text)
    given = "" if column is None else f", column = {column}"
    code = main(["run", "sdnv105d_shaking", "--out", str(tmp_path / "o"), "--set",
                 f'loading.table_acceleration_x={{type = "table", path = "{wide.as_posix()}"'
                 f'{given}}}'])
    assert_one_line_error(capsys, code, [f"{wide}" if "path: " in words[0] else "", *words])
    assert not (tmp_path / "o").exists()


def test_a_column_needs_a_record(capsys, tmp_path):
    """Inline times and values have one column of values; a sine none."""
    for table, words in (
            ("{type = 'table', times = [0.0, 1.0], values = [0.0, 1.0], column = 2}",
             ["loading.table_acceleration_x.column: 2 names a column of a CSV record, and "
              "this table has none (allowed: column with a path; unset with times and "
              "values)"]),
            ("{type = 'sine', amplitude = 1.0, frequency = 2.0, column = 'ax'}",
             ["loading.table_acceleration_x.column: 'ax' has no effect with "
              "loading.table_acceleration_x.type = 'sine'"])):
        code = main(["run", "sdnv105d_shaking", "--out", str(tmp_path / "o"), "--set",
                     f"loading.table_acceleration_x={table}"])
        assert_one_line_error(capsys, code, words)


def test_a_quoted_header_names_its_columns(tmp_path):
    """A spreadsheet may quote its header ('"t","ax"'): 'ax' was refused with 'close:
    "ax"'. The quoted and the plain header read the same samples."""
    from rocking_contact.loads import TimeFunction, table_samples

    rows = "0,1,2\n0.1,3,4\n0.2,5,6\n"
    (tmp_path / "q.csv").write_text('"t","ax","ay"\n' + rows)
    (tmp_path / "p.csv").write_text("t,ax,ay\n" + rows)
    quoted = table_samples(TimeFunction(type="table", path=str(tmp_path / "q.csv"),
                                        column="ay"))
    plain = table_samples(TimeFunction(type="table", path=str(tmp_path / "p.csv"),
                                       column="ay"))
    assert np.array_equal(quoted[1], plain[1]) and quoted[1].tolist() == [2.0, 4.0, 6.0]


def test_a_name_given_to_the_times_too_offers_the_value_column(tmp_path):
    """'t,ax,t' and column = 't': the numbers allowed leave out column 1, the times."""
    from rocking_contact.loads import TimeFunction, table_samples

    (tmp_path / "d.csv").write_text("t,ax,t\n0,1,2\n0.1,3,4\n")
    with pytest.raises(ValueError, match=r"names columns 1, 3 of .*\(allowed: the number 3\)"):
        table_samples(TimeFunction(type="table", path=str(tmp_path / "d.csv"), column="t"))
