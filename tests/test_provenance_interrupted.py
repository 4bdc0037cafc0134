"""An interrupted run's rerun runs to the end: its provenance says so, and the rerun's
history starts with the interrupted one's rows, byte for byte."""

import json
import shlex

import pytest

import rocking_contact as rc
from rocking_contact import api, interrupt, provenance
from rocking_contact.cli import main
from rocking_contact.progress import Progress
from rocking_contact.results import RunResult
from rocking_contact.stops import Interrupted


class StopAtUpdate(Progress):
    """A progress bar that presses Ctrl-C at its ``STOP``-th update (step)."""

    STOP = 40
    count = 0

    def update(self, t, info="", step=None):
        StopAtUpdate.count += 1
        if StopAtUpdate.count == self.STOP:
            interrupt.request()


def test_the_rerun_of_an_interrupted_run_starts_with_its_rows(tmp_path, monkeypatch):
    """sdnv105d to 0.01 s, rows every 3 steps, stopped after step 40 (t = 0.004 s): the
    rerun runs the 100 steps, and its history.csv starts with the stopped run's rows, byte
    for byte, but for the row of the stop, a step that output.every does not record."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(api, "Progress", StopAtUpdate)
    StopAtUpdate.count = 0
    case = rc.load_case("sdnv105d", ["time.end=0.01", "output.every=3"])
    with interrupt.deferred(), pytest.raises(Interrupted) as stop:
        rc.run(case, out="stopped", plots=False, quiet=True)
    partial = stop.value.partial
    assert partial.status == "interrupted at t = 0.004 s"
    record = provenance.ended(partial.provenance, partial)
    assert record["rerun"] == ("rocking-contact run sdnv105d --set time.end=0.01 --set "
                               "output.every=3 --out stopped")
    assert record["rerun_note"] == (
        "this run was interrupted at t = 0.004 s; rerun runs it to its end (time.end = "
        "0.01 s): its history.csv starts with this one's rows, byte for byte, up to t = "
        "0.004 s (the row of the stop itself where output.every records that step)")
    written = json.loads((tmp_path / "stopped" / "results.json").read_text())["provenance"]
    assert written["rerun_note"] == record["rerun_note"]  # api's _finish ends it so
    stopped = (tmp_path / "stopped" / "history.csv").read_bytes().splitlines(keepends=True)
    monkeypatch.setattr(api, "Progress", Progress)
    words = shlex.split(record["rerun"])
    assert main([*words[1:], "-q", "--no-plots"]) == 0
    rerun = (tmp_path / "stopped" / "history.csv").read_bytes().splitlines(keepends=True)
    # the header, the release, every third step, the last state (the stop, t = 0.01 s)
    assert len(stopped) == 1 + 1 + 13 + 1 and len(rerun) == 1 + 1 + 33 + 1
    assert rerun[:len(stopped) - 1] == stopped[:-1]
    assert stopped[-1].startswith(b"4.0000000000e-03,")  # 40 is no multiple of 3
    assert not any(row.startswith(b"4.0000000000e-03,") for row in rerun)


def _result(status, end=0.33, stop=0.1275):
    return RunResult(case="c", kind="block", parameters={"time": {"end": end}},
                     history={"time": [0.0, stop]}, status=status)


def test_only_an_interrupted_run_with_a_rerun_gets_the_note():
    """A completed, failed or overturned run's rerun stops where it did: no note; a run
    without a rerun keeps the note that says why."""
    started = {"started": "2026-11-23T00:00:00.000+00:00", "ended": None,
               "rerun": "rocking-contact run sdnv105d --out x"}
    note = provenance.ended(started, _result("interrupted at t = 0.1275 s"))["rerun_note"]
    assert note.startswith("this run was interrupted at t = 0.1275 s; rerun runs it to its "
                           "end (time.end = 0.33 s)")
    for status in ("completed", "failed: step 3 ...", "the block overturned at t = 0.76 s: ..."):
        record = provenance.ended(started, _result(status))
        assert "rerun_note" not in record and record["ended"] is not None
    none = {**started, "rerun": None, "rerun_note": "the case was changed after loading"}
    assert provenance.ended(none, _result("interrupted at t = 0.1275 s"))["rerun_note"] == (
        "the case was changed after loading")
