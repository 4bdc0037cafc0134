"""The report on a run given a record as arrays in Python (U1 #4): its 151 samples were
written out in the summary row, 'Run with', 'This run changes ...' and the rerun line."""

import numpy as np

from rocking_contact import provenance
from rocking_contact.report.content import opening
from rocking_contact.report.provenance import provenance_block
from rocking_contact.report.verdicts import run_status

TIMES = np.linspace(0.0, 0.15, 151)
GIVEN = {"loading.table_acceleration_x": {"type": "table", "path": "", "times": TIMES,
                                          "values": 6 * np.sin(4 * np.pi * TIMES)},
         "time.end": 0.1}
TEXTS, _ = provenance.override_texts(GIVEN)
RERUN = provenance.rerun_command("cases/myshake.toml", TEXTS or [], None)
#: results.json of the run, as far as the report reads it
DATA = {
    "case": "myshake", "status": "completed", "checks": [],
    "extra": {"changes": ["loading.table_acceleration_x.path",
                          "loading.table_acceleration_x.times",
                          "loading.table_acceleration_x.values"]},
    "parameters": {"time": {"end": 0.1}, "loading": {"table_acceleration_x": {
        "type": "table", "amplitude": 1.0, "frequency": 2.0, "phase": 0.0,
        "times": TIMES.tolist(), "values": (6 * np.sin(4 * np.pi * TIMES)).tolist(),
        "path": "", "column": None}}},
    "provenance": {"overrides": {"loading.table_acceleration_x": {
        "type": "table", "path": "", "times": TIMES.tolist(),
        "values": (6 * np.sin(4 * np.pi * TIMES)).tolist()}, "time.end": 0.1},
        "rerun": RERUN, "cwd": "/home/me"},
}
SUMMARY = "table of 151 samples over 0-0.15 s"


def test_the_record_is_said_in_words_where_the_run_is_described():
    run_with, changes = (p.text for p in opening(DATA))
    assert run_with == (f"Run with: --set loading.table_acceleration_x=<{SUMMARY}> --set "
                        "time.end=0.1 (<...>: a value too long to write here, in full in "
                        "results.json provenance.overrides).")
    assert changes.startswith("This run changes its case file's physics: "
                              f"loading.table_acceleration_x = {SUMMARY}. ")
    assert run_status(DATA) == f"completed (the run changes loading.table_acceleration_x = " \
                               f"{SUMMARY})"


def test_the_rerun_of_thousands_of_numbers_is_not_printed():
    rows = {r[0].text: r[1].text for r in provenance_block("myshake", DATA["provenance"]).rows}
    assert len(RERUN) > 4000
    assert rows["rerun"] == (f"a command of {len(RERUN)} characters, which writes out the "
                             "value of loading.table_acceleration_x: results.json "
                             "provenance.rerun")
    assert rows["rerun in"] == "/home/me"


def test_short_overrides_are_written_as_given():
    given = {"overrides": ["time.end=0.06", "geometry.half_width=0.1"],
             "rerun": "rocking-contact run sdnv105d --set time.end=0.06", "cwd": "/w"}
    assert opening({"provenance": given, "parameters": {}})[0].text == \
        "Run with: --set time.end=0.06 --set geometry.half_width=0.1."
    rows = {r[0].text: r[1].text for r in provenance_block("sdnv105d", given).rows}
    assert rows["rerun"] == given["rerun"]
