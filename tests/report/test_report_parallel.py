"""The plots the report draws again are drawn by parallel processes, one case each: the
report is the one drawn in turn, and a stop stops them (a report of 18 short runs whose
plots were older than the drawing code took 2 min 41 s, 160 figures drawn one by one)."""

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rocking_contact.config import CaseError
from rocking_contact.report import figures as report_figures
from rocking_contact.report.cli import STAGING, write_report
from rocking_contact.report.inputs import read_result

CLI = Path(sys.executable).parent / "rocking-contact"
#: runs of the session's results tree that have no plots of their own: all drawn again
REDRAWN = ["sdnd101a", "sdnv105_rigid"]


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in folder.rglob("*") if p.is_file()}


def _without_date(text):
    """The report's text but its first line giving the instant it was made."""
    return [line for line in text.splitlines() if not line.lstrip("<p>").startswith(
        "Generated ")]


def test_plots_drawn_in_parallel_are_those_drawn_in_turn(results_dir, tmp_path, monkeypatch):
    dealt = []
    shares = report_figures._shares

    def counted(cases, count):
        dealt.append([[r.key for r in share] for share in shares(cases, count)])
        return shares(cases, count)

    monkeypatch.setattr(report_figures, "_shares", counted)
    write_report(REDRAWN, results_dir, tmp_path / "turn", views=False, workers=1)
    assert dealt == []  # one worker: drawn here
    write_report(REDRAWN, results_dir, tmp_path / "parallel", views=False, workers=2)
    assert sorted(dealt[0]) == [[name] for name in REDRAWN]  # one case each
    turn, parallel = (_files(tmp_path / d / "figures") for d in ("turn", "parallel"))
    assert len(turn) > 10 and turn == parallel  # byte for byte, PNG and SVG
    for name in ("report.md", "index.html"):
        texts = [(tmp_path / d / name).read_text() for d in ("turn", "parallel")]
        assert _without_date(texts[0]) == _without_date(texts[1])


def test_the_workers_stop_with_the_block_that_uses_them(results_dir, tmp_path):
    cases = [read_result(results_dir / name) for name in REDRAWN]
    with pytest.raises(KeyboardInterrupt), \
            report_figures.drawn_plots(cases, tmp_path, workers=2) as plots:
        assert callable(plots) and multiprocessing.active_children()
        raise KeyboardInterrupt
    assert multiprocessing.active_children() == []


def _process_group_left(pgid):
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("signum,code,group", [(signal.SIGINT, 130, True),
                                               (signal.SIGTERM, 143, False)])
def test_a_signal_as_the_workers_draw_stops_the_report_and_them(results_dir, tmp_path,
                                                                signum, code, group):
    """Ctrl-C goes to the whole process group (a terminal's): the workers leave it to the
    report, which says what it left and ``interrupted``; SIGTERM to the report alone
    (``kill``) stops its workers too: nothing of the report's is left running, and no
    figure without its page."""
    proc = subprocess.Popen([str(CLI), "report", *REDRAWN, "--results", str(results_dir),
                             "--no-views", "--out", str(tmp_path / "rep")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    drawn = tmp_path / "rep" / STAGING / "figures"  # drawn there, moved once complete
    deadline = time.monotonic() + 120
    while not any(drawn.glob("*/*.png")) and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()  # stopped as the workers draw
    if group:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    left = f"no report written to {tmp_path / 'rep'}\n"
    assert proc.returncode == code and err == left + "interrupted\n", err
    assert not any((tmp_path / "rep").iterdir())  # no figures without their page
    deadline = time.monotonic() + 10
    while _process_group_left(proc.pid):  # the workers, stopped as the report ended
        assert time.monotonic() < deadline, "a drawing worker outlived the report"
        time.sleep(0.05)


@pytest.mark.parametrize("error", [CaseError("results.json", "checks", "not a list"),
                                   ValueError("bad value"), KeyError("EKIN")])
def test_a_worker_s_error_is_the_report_s(results_dir, tmp_path, monkeypatch, error):
    """What drawing raises in a worker is raised by the report as drawn in turn: a
    CaseError (which pickle does not bring back whole) its one line."""
    def failing(data, history, out_dir):
        raise error

    monkeypatch.setattr(report_figures, "_draw", failing)
    receiver, sender = multiprocessing.Pipe(duplex=False)
    run = results_dir / REDRAWN[0]
    report_figures._worker([("a", run, tmp_path), ("b", run, tmp_path)], sender)
    key, files, sent = receiver.recv()
    assert key == "a" and files is None and not receiver.poll()  # stopped at the first
    raised = report_figures._received(sent)
    assert type(raised) is type(error) and str(raised) == str(error)
