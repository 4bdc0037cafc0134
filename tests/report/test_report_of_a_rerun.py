"""The report the Ctrl-C hint draws inside a run's directory goes with that run's files
when the run is run again there (it said INTERRUPTED beside completed results); a user's
files and a report of several runs stay."""

import numpy as np

import rocking_contact as rc
from rocking_contact.report.cli import write_report
from rocking_contact.report.meta import own_reports
from rocking_contact.results_dir import discard, set_aside
from rocking_contact.results_io import write


def _results(directory, status="completed"):
    t = np.linspace(0.0, 0.1, 5)
    write(rc.RunResult(case="x", kind="discrete", parameters={}, status=status,
                       history={"time": t, "DX_NO1": t * t}), directory)
    return directory


def test_a_report_of_the_run_alone_goes_with_it(tmp_path):
    run = _results(tmp_path / "run", status="interrupted at t = 0.1 s")
    write_report([str(run)], tmp_path, run / "report", views=False)
    assert (run / "report" / "figures").is_dir()
    (run / "report" / "figures" / "my_notes.txt").write_text("mine")
    (run / "mine").mkdir()
    (run / "mine" / "index.html").write_text("<html><head></head></html>")
    other = _results(tmp_path / "other")
    write_report([str(run), str(other)], tmp_path, run / "both", views=False)
    assert [r.name for r, _ in own_reports(run)] == ["report"]
    gone = set_aside(run)
    discard(run)
    assert run / "report" / "index.html" in gone and run / "report" / "report.md" in gone
    left = sorted(p.relative_to(run).as_posix() for p in run.rglob("*") if p.is_file())
    both = [p.relative_to(run).as_posix() for p in (run / "both").rglob("*") if p.is_file()]
    assert "both/index.html" in both and "both/figures/x--other/displacement.png" in both
    assert left == sorted(both + ["mine/index.html", "report/figures/my_notes.txt"])
    assert [p.name for p in (run / "report" / "figures").iterdir()] == ["my_notes.txt"]
