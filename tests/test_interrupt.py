"""Ctrl-C: the run stops after the step under way, keeps what it computed, exits with 130."""

import json
import os
import shlex
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from functools import partial
from pathlib import Path

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact import interrupt, results, results_dir, results_io
from rocking_contact.api import plots_command
from rocking_contact.cli import EXIT_INTERRUPTED, main
from rocking_contact.config import shipped_cases
from rocking_contact.progress import Progress
from rocking_contact.results_io import read_history_csv
from rocking_contact.stops import Interrupted, RunStopped, SolverFailure
from rocking_contact.viz.plot_order import ordered_plots

CLI = Path(sys.executable).parent / "rocking-contact"


class AskToStop(Progress):
    """A progress bar that presses Ctrl-C at its first update (what the handler does)."""

    def update(self, t, info="", step=None):
        interrupt.request()


def test_discrete_run_stops_between_chunks_with_its_partial_history():
    from rocking_contact.discrete.runner import run

    case = rc.load_case("sdnd101a", {"time.step": 1e-5})  # 50000 steps, 25 chunks
    with interrupt.deferred(), pytest.raises(Interrupted) as info:
        run(case, progress=AskToStop(0.0, 0.5, enabled=False))
    partial = info.value.partial
    # a stop asked for, not an error: a loop's `except Exception` lets it through
    assert isinstance(info.value, KeyboardInterrupt | RunStopped)
    assert not isinstance(info.value, Exception) and info.value.signal == signal.SIGINT
    assert str(info.value).startswith("interrupted at t = ")
    assert 0.0 < partial.history["time"][-1] < 0.5
    # the history ends at the instant the status gives, with no row twice
    stopped = float(str(info.value).removeprefix("interrupted at t = ").split()[0])
    assert partial.history["time"][-1] == pytest.approx(stopped, rel=1e-12)
    assert (np.diff(partial.history["time"]) > 0).all()
    # and the state there is the uninterrupted run's
    whole = run(case)
    row = np.searchsorted(whole.history["time"], partial.history["time"][-1])
    assert partial.history["DX_NO1"][-1] == whole.history["DX_NO1"][row]
    assert not interrupt.requested()  # the request does not outlive the run


def test_the_failures_a_caller_catches_are_exported():
    """A failure is an error; an interruption is a KeyboardInterrupt, which neither
    ``except SolverFailure`` nor ``except Exception`` catches (it was a SolverFailure: a
    study's loop kept its partial result and went on with the next run); both carry the
    partial result, as RunStopped."""
    assert (rc.Interrupted, rc.SolverFailure, rc.RunStopped) == (Interrupted, SolverFailure,
                                                                 RunStopped)
    assert issubclass(rc.SolverFailure, Exception) and issubclass(rc.Overturned,
                                                                  rc.SolverFailure)
    assert issubclass(rc.Interrupted, KeyboardInterrupt)
    assert not issubclass(rc.Interrupted, Exception | rc.SolverFailure)
    assert all(issubclass(kind, rc.RunStopped) for kind in (rc.Interrupted, rc.Overturned))
    stop = Interrupted("interrupted at t = 0.1 s", None, signal.SIGTERM)
    assert (stop.signal, stop.exit_code, stop.status) == (15, 143, "interrupted at t = 0.1 s")
    with pytest.raises(rc.CaseError, match="time.step"):
        rc.load_case("sdnd101a", {"time.step": -1.0})


#: a parameter study as a user writes it: a failed run's partial result kept, any other
#: error reported, the loop going on; the signal is sent at the first run's first update
STUDY = """
import os, signal, sys
import rocking_contact as rc
from rocking_contact import api
from rocking_contact.progress import Progress

class Signal(Progress):
    def update(self, t, info="", step=None):
        if not sent:
            sent.append(t)
            os.kill(os.getpid(), {signum})

sent = []
api.Progress = Signal
try:
    for i, step in enumerate((1e-5, 2e-5)):
        try:
            r = rc.run(rc.load_case("sdnd101a", {{"time.step": step}}), out=f"r{{i}}",
                       quiet=True, plots=False)
        except rc.SolverFailure as failure:
            r = failure.partial
        except Exception as error:
            print("caught", type(error).__name__)
            continue
        print("finished", i, r.status)
except rc.Interrupted as stop:
    print("stopped:", stop.partial.status, stop.signal)
    sys.exit(stop.exit_code)
"""


@pytest.mark.parametrize("signum,code", [(signal.SIGINT, EXIT_INTERRUPTED),
                                         (signal.SIGTERM, 143)])
def test_a_signal_stops_a_python_loop_of_runs(tmp_path, signum, code):
    """Ctrl-C or SIGTERM in a study's loop stops the loop: the run under way writes what it
    computed and raises Interrupted, which the loop's ``except SolverFailure`` and ``except
    Exception`` let through (the audit's loop printed 'finished ... interrupted at t =' and
    ran the next tilts to the end, exit code 0)."""
    proc = subprocess.run([sys.executable, "-c", STUDY.format(signum=int(signum))],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == code, proc.stderr
    status = json.loads((tmp_path / "r0" / "results.json").read_text())["status"]
    assert status.startswith("interrupted at t = ")
    assert proc.stdout == f"stopped: {status} {int(signum)}\n"
    assert not (tmp_path / "r1").exists()


def test_a_second_ctrl_c_raises_at_once():
    with interrupt.deferred():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        assert interrupt.requested()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)


def test_validate_goes_on_after_a_failing_case(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(f'extends = "{shipped_cases()["sdnd101a"]}"\n[case]\nname = "bad"\n'
                   '[solver]\nscheme = "newmark"\nnewton_max_iter = 3\nnewton_tol = 1e-30\n')
    code = main(["validate", str(bad), "sdnd102c", "--out", str(tmp_path / "r"), "-q",
                 "--no-plots"])
    captured = capsys.readouterr()
    assert code == 1
    assert "bad: error: solver failed" in captured.err
    assert "FAILED: bad (solver failed)" in captured.out
    # what the failed case computed is shown as run shows it, its summary line too
    shown = captured.out.split("== sdnd102c")[0]
    assert shown.startswith("== bad\n") and "not reached" in shown
    assert "bad: 0 steps before the run stopped, " in shown and "checks pass (" in shown
    assert "sdnd102c" in captured.out and "sdnd102c" not in captured.out.split("FAILED:")[1]
    assert json.loads((tmp_path / "r" / "bad" / "results.json").read_text())["status"] \
        .startswith("failed")
    assert (tmp_path / "r" / "sdnd102c" / "results.json").is_file()


def test_ctrl_c_during_validate_names_the_case_and_those_not_run(monkeypatch, tmp_path,
                                                                    capsys):
    def stopped(case, **kwargs):
        raise Interrupted("interrupted at t = 0.1 s", None)

    monkeypatch.setattr(rc, "run", stopped)
    code = main(["validate", "sdnd101a", "sdnd102c", "sdnd102e", "--out", str(tmp_path)])
    assert code == EXIT_INTERRUPTED
    assert "sdnd101a: interrupted at t = 0.1 s; not run: sdnd102c, sdnd102e" in \
        capsys.readouterr().err


@pytest.mark.parametrize("command", ["run", "validate"])
def test_ctrl_c_shows_the_table_and_summary_of_the_results_so_far(monkeypatch, tmp_path,
                                                                   capsys, command):
    """Ctrl-C said only "interrupted at t = ..." though results.json held the checks
    passed, failed and not reached: they are shown first, as a finished run shows them."""
    monkeypatch.setattr("rocking_contact.api.Progress", AskToStop)
    argv = ([command, "sdnd101a", "--set", "time.step=1e-5", "--no-plots", "--out",
             str(tmp_path / "r")])
    assert main(argv) == EXIT_INTERRUPTED
    captured = capsys.readouterr()
    out = tmp_path / "r" / ("sdnd101a" if command == "validate" else "")
    end = read_history_csv(out / "history.csv")["time"][-1]
    assert 0.0 < end < 0.5
    data = json.loads((out / "results.json").read_text())
    lines = captured.out.splitlines()
    rows = lines[3:3 + len(data["checks"])]  # after the title, header and rule
    assert lines[0] == "== sdnd101a" and sum("not reached" in row for row in rows) == sum(
        c["value"] is None and c["note"].startswith("not reached") for c in data["checks"])
    summary = [line for line in lines if line.startswith("sdnd101a: ")]
    where = f"; results in {out}/" if command == "run" else ""  # validate's: under --out
    assert len(summary) == 1 and summary[0].endswith(
        f"not reached: the run stopped at t = {end:.6g} s){where}")
    # results.json says it as the summary does: its notes said "the run ends at t = ..."
    unreached = [c["note"] for c in data["checks"] if c["note"].startswith("not reached")]
    assert unreached and all(note.startswith(f"not reached: the run stopped at t = {end:.6g} s")
                             for note in unreached), unreached
    assert captured.err.splitlines()[-1].endswith(
        f"interrupted at t = {end:.6g} s (results so far were written)")


def block_run_under_way(out, *settings):
    """``run sdnv105d`` to 1 s into ``out``, once its history holds 120 rows."""
    proc = subprocess.Popen([str(CLI), "run", "sdnv105d", "--set", "time.end=1.0", *settings,
                             "--out", str(out), "-q"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    history = out / "history.csv"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if history.is_file() and history.read_text().count("\n") > 120:
            break
        time.sleep(0.2)
    assert proc.poll() is None, proc.communicate()
    return proc


@pytest.mark.parametrize("signum,code,name", [(signal.SIGINT, EXIT_INTERRUPTED, "Ctrl-C"),
                                               (signal.SIGTERM, 143, "SIGTERM")])
def test_ctrl_c_on_a_block_run_keeps_its_results(tmp_path, signum, code, name):
    """A real SIGINT in the middle of a FEM run (PETSc callbacks under way); SIGTERM, what
    ``docker stop`` and batch schedulers send, likewise. The results are written, the plots
    (seconds that a scheduler's grace period may not leave) are not."""
    out = tmp_path / "d"
    proc = block_run_under_way(out)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    assert "interrupted at t = " in err and "results so far were written" in err
    assert "solver failed" not in err and "Traceback" not in err
    assert f"{name}: stopping after the step under way" in err
    data = json.loads((out / "results.json").read_text())
    assert data["status"].startswith("interrupted at t = ")
    assert data["extra"]["fields"] == "fields.pvd" and (out / "fields.pvd").is_file()
    t = read_history_csv(out / "history.csv")["time"]
    assert 0.01 < t[-1] < 1.0 and data["collisions"] is not None
    assert f"sdnv105d: plots not drawn after the interrupt ({plots_command(out)} draws " \
        f"them, into {out}/report/figures/sdnv105d/)" in err
    assert data["plots"] == [] and not list(out.glob("*.png")) and not list(out.glob("*.partial"))


def test_the_hinted_command_draws_the_plots_without_touching_the_default_report(
        monkeypatch, tmp_path, capsys):
    """The hint was ``rocking-contact report DIR``: it rewrote the default report/ (another
    run's index, and its figures of a case of the same name) and drew nothing in DIR. As
    printed (a directory with a space, quoted), it draws the run's plots in DIR/report/."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("rocking_contact.api.Progress", AskToStop)
    default = tmp_path / "report"
    (default / "figures" / "sdnd101a").mkdir(parents=True)
    (default / "index.html").write_text("the demo's report")
    out = Path("my runs") / "stopped"
    assert main(["run", "sdnd101a", "--set", "time.step=1e-5", "--out", str(out)]) \
        == EXIT_INTERRUPTED
    (hint,) = [line for line in capsys.readouterr().err.splitlines() if "plots not" in line]
    command = hint.split("(", 1)[1].split(" draws them")[0]
    assert command == "rocking-contact report 'my runs/stopped' --out 'my runs/stopped/report'"
    # as printed; the pyvista views (seconds) are the report's, and tested there
    assert main([*shlex.split(command)[1:], "--no-views"]) == 0
    drawn = {p.name for p in (out / "report" / "figures" / "sdnd101a").iterdir()}
    assert {"displacement.png", "shock_force.png"} <= drawn
    assert (out / "report" / "index.html").is_file()
    assert (default / "index.html").read_text() == "the demo's report"
    assert not any((default / "figures" / "sdnd101a").iterdir())


def test_an_interrupted_runs_results_say_what_its_rerun_does_not_reproduce(monkeypatch,
                                                                          tmp_path):
    """provenance.ended's rerun_note reaches results.json: the rerun runs to time.end."""
    monkeypatch.setattr("rocking_contact.api.Progress", AskToStop)
    with interrupt.deferred(), pytest.raises(Interrupted):
        rc.run(rc.load_case("sdnd101a", {"time.step": 1e-5}), out=tmp_path, plots=False)
    record = json.loads((tmp_path / "results.json").read_text())["provenance"]
    assert record["rerun_note"].startswith("this run was interrupted at t = ")
    assert record["ended"] is not None


def _run_stopped_while_plotting(monkeypatch, out, signum):
    """``run sdnd101a`` into ``out`` with plots whose drawing receives ``signum`` after a
    first file; returns the exit code and what the plotting saw of ``out`` then."""
    seen = {}

    def draw(result, staging):
        seen["results"] = results_io.load(out)[0]  # already written, whole
        staging.mkdir(parents=True, exist_ok=True)
        first = staging / "first.png"
        first.write_bytes(b"half")
        os.kill(os.getpid(), signum)
        time.sleep(0.5)  # the signal is handled at the next bytecode: no later plot
        seen["went_on"] = True
        return [first]

    monkeypatch.setattr("rocking_contact.viz.history_plots.plot_results", draw)
    return main(["run", "sdnd101a", "--set", "time.end=0.2", "--out", str(out), "-q"]), seen


@pytest.mark.parametrize("signum,code", [(signal.SIGINT, EXIT_INTERRUPTED),
                                         (signal.SIGTERM, 143)])
def test_a_signal_while_the_plots_are_drawn_drops_them_at_once(monkeypatch, tmp_path, capsys,
                                                               signum, code):
    """results.json is on disk before the first plot; a signal then stops the drawing at
    once and leaves no plot that results.json does not list."""
    out = tmp_path / "r"
    assert _run_stopped_while_plotting(monkeypatch, out, signum) == (code, {
        "results": results_io.load(out)[0]})  # the very results.json, and no "went_on"
    err = capsys.readouterr().err
    assert "interrupted while the plots were drawn: none was kept (results so far were " \
        "written)" in err and "Traceback" not in err
    data = json.loads((out / "results.json").read_text())
    assert data["status"] == "completed" and data["plots"] == [] and data["checks"]
    assert sorted(p.name for p in out.iterdir()) == ["history.csv", "results.json"]


def test_the_plots_are_listed_once_drawn_and_a_killed_drawing_is_cleared(tmp_path):
    """The second results.json lists the plots; what a killed run leaves half written (a
    temporary file, the plots' folder) goes with the next run into the directory."""
    out = tmp_path / "r"
    result = rc.run("sdnd101a", out=out, quiet=True, plots=False)
    assert json.loads((out / "results.json").read_text())["plots"] == []
    names = results_io.write_plots(result, out)
    assert names and json.loads((out / "results.json").read_text())["plots"] == names
    assert sorted(p.name for p in out.glob("*.png")) == sorted(n for n in names
                                                              if n.endswith(".png"))
    assert names == ordered_plots(names)  # the reader's order, not the alphabet
    (out / "plots.partial").mkdir()
    (out / "plots.partial" / "a.png").write_bytes(b"half")
    (out / "results.json.partial").write_text("{")
    (out / "mine.partial").write_text("kept")
    gone = results_dir.set_aside(out)
    assert {p.name for p in gone} >= {"plots.partial", "results.json.partial", *names}
    results_dir.discard(out)
    assert sorted(p.name for p in out.iterdir()) == ["mine.partial"]


def test_clearing_a_results_directory_removes_only_what_a_run_writes(tmp_path):
    """A user's files whose names start like the field series stay (they matched a
    ``fields*`` pattern and were deleted with no earlier run in the directory)."""
    run_files = ["results.json", "history.csv", "fields.pvd", "fields.xdmf", "fields.h5",
                 "fields000000.pvtu", "fields000132.pvtu", "fields_p0_000000.vtu",
                 "fields_p1_000132.vtu", "fields000007.vtu", "fields.pvd.partial",
                 "history.csv.partial"]
    mine = ["fields_survey.csv", "fields.xlsx", "fieldsnotes.txt", "fields_p0_notes.vtu",
            "history.csv.bak"]
    for name in run_files + mine:
        (tmp_path / name).write_text("x")
    gone = results_dir.set_aside(tmp_path)
    assert sorted(p.name for p in gone) == sorted(run_files)
    results_dir.discard(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(mine)



def test_results_json_says_the_run_started_until_it_ends(monkeypatch, tmp_path):
    """A killed run keeps that results.json (tests/test_replaced_results.py, a run killed
    as it sets up)."""
    from rocking_contact import api

    out, seen = tmp_path / "r", []

    class Peek(Progress):
        def update(self, t, info="", step=None):
            seen.append(results_io.load(out)[0]["status"])

    monkeypatch.setattr(api, "Progress", Peek)
    rc.run("sdnd101a", out=out, quiet=True, plots=False)
    assert seen and set(seen) == {results.STARTED}
    assert results_io.load(out)[0]["status"] == "completed"


def test_the_field_index_is_current_at_most_once_per_interval(tmp_path):
    path = tmp_path / "fields.pvd"
    index = results_io.FieldIndex(path, interval=3600.0)
    for t in (0.0, 0.5, 1.0):
        index.add(t)
    assert path.read_text().count("<DataSet ") == 1  # the first frame at once, then due later
    index.write()
    assert 'timestep="1.0" part="0" file="fields000002.pvtu"' in path.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fields.pvd"]


def test_a_killed_block_run_can_still_be_read(tmp_path):
    """SIGKILL (out of memory, a scheduler past its grace period) gives no time to write:
    results.json said as the run started, history.csv and fields.pvd kept current, are
    what view and report read."""
    out = tmp_path / "d"
    proc = block_run_under_way(out, "--set", "output.fields_every=10")
    proc.kill()
    proc.communicate(timeout=60)
    data, columns = results_io.load(out)
    assert data["status"] == results.STARTED and data["extra"] == {"fields": "fields.pvd"}
    assert data["parameters"]["time"]["end"] == 1.0 and len(columns["time"]) > 100
    frames = [out / d.attrib["file"] for d in ET.parse(out / "fields.pvd").iter("DataSet")]
    assert frames and all(f.is_file() for f in frames)


@pytest.mark.parametrize("kept", [True, False])
def test_petscs_signal_handlers_do_not_outlive_its_start(kept):
    """PETSc's start puts its own SIGTERM handler in place (MPI_Abort(59): exit code 15),
    without Python knowing; started within signals_held_for_python, SIGTERM meets Python's
    again (here the default action: killed by SIGTERM). The command line starts PETSc so
    for a block run, before the run defers the signals."""
    start = ("with interrupt.signals_held_for_python():\n    from petsc4py import PETSc\n"
             if kept else "from petsc4py import PETSc\n")
    code = ("import os, signal\nimport rocking_contact\nfrom rocking_contact import interrupt\n"
            + start + "os.kill(os.getpid(), signal.SIGTERM)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    if kept:
        assert proc.returncode == -signal.SIGTERM and "PETSC ERROR" not in proc.stderr
    else:  # PETSc's report and MPI_Abort's exit code
        assert "Caught signal number 15 Terminate" in proc.stderr
        assert proc.returncode == 15


def test_a_stop_asked_while_the_results_are_written_ends_as_interrupted(tmp_path, monkeypatch):
    """Ctrl-C after the last step, while the results are written (seconds for 5e5 rows):
    they are written whole (status completed), the plots are not drawn, and the run ends
    as interrupted (exit code 130), as the handler's message said; it returned as if
    unasked (exit code 0)."""
    import rocking_contact.api as api

    grade = api.grade

    def grade_then_ask(case, result):
        grade(case, result)
        interrupt.request()  # what the handler does

    monkeypatch.setattr(api, "grade", grade_then_ask)
    with pytest.raises(Interrupted) as info:
        rc.run("sdnd101a", out=tmp_path, quiet=True)
    assert str(info.value) == "interrupted at the end of the run (t = 0.5 s)"
    data = json.loads((tmp_path / results_io.RESULTS_FILE).read_text())
    assert data["status"] == "completed" and data["plots"] == []
    written = read_history_csv(tmp_path / results_io.HISTORY_FILE)["time"]
    assert written[-1] == pytest.approx(0.5) and len(written) == len(
        info.value.partial.history["time"])


def test_every_rank_takes_the_stop_rank_0_took_alone_or_the_first_asked_for():
    """After rank 0 wrote the results alone, the ranks agree (interrupt.agreed gathers a
    RankStop from each): a rank that decided on its own flag went on to the next case's
    barrier while rank 0, stopped as it drew the plots, ended (mpiexec hung)."""
    none = interrupt.RankStop(None, False, signal.SIGINT)
    term = interrupt.RankStop(None, True, signal.SIGTERM)
    drawing = interrupt.RankStop("interrupted while the plots were drawn", True,
                                 signal.SIGTERM)
    # rank 0 stopped alone: its stop on every rank, whatever the others know
    assert interrupt.common([drawing, none]) == drawing
    assert interrupt.common([drawing, interrupt.RankStop(None, True, signal.SIGINT)]) \
        == drawing
    # asked for on another rank only (the signal reaches each rank at its own moment)
    assert interrupt.common([none, term]) == term
    assert interrupt.common([none, none, term, interrupt.RankStop(None, True, 2)]) == term
    assert interrupt.common([interrupt.RankStop(None, True, 2), term]).signal == 2
    # none asked for anywhere: no stop, on one rank as on several
    assert interrupt.common([none, none]) == none and not interrupt.common([none]).requested
    assert interrupt.exit_code(signal.SIGTERM) == 143 == Interrupted("x", None, 15).exit_code


def test_a_serial_run_agrees_with_itself():
    """Without MPI the agreement is this process's own state, as before it existed."""
    with interrupt.deferred():
        assert interrupt.agreed() == (None, False, signal.SIGINT)
        interrupt.request()
        assert interrupt.agreed("plots dropped") == ("plots dropped", True, signal.SIGINT)


@pytest.mark.parametrize("name,end,streamed", [("sdnv105d", 0.005, True),
                                               ("sdnd101a", 0.1, False)])
def test_a_run_aborted_by_a_second_ctrl_c_says_so_in_its_results(tmp_path, monkeypatch, capsys,
                                                                 name, end, streamed):
    """A second Ctrl-C (the handler's KeyboardInterrupt at once) before the results are
    written left results.json saying 'started: ... (killed)', and compare 'not ended
    (under way, or killed)', of a run the user aborted: it says 'aborted', where the
    history it streamed ends, nothing graded; the report's verdict is INTERRUPTED."""
    import rocking_contact.api as api

    def second_ctrl_c(case, result):
        raise KeyboardInterrupt  # what the handler raises on a second signal

    monkeypatch.setattr(api, "grade", second_ctrl_c)
    with pytest.raises(KeyboardInterrupt) as info:
        rc.run(rc.load_case(name, {"time.end": end}), out=tmp_path, quiet=True)
    assert not isinstance(info.value, Interrupted)
    data = json.loads((tmp_path / results_io.RESULTS_FILE).read_text())
    history = tmp_path / results_io.HISTORY_FILE
    if streamed:  # a block run's rows are on disk as it goes
        assert read_history_csv(history)["time"][-1] == pytest.approx(end)
        assert data["status"] == results.aborted(end, "Ctrl-C") and "at t = 0.005 s" in \
            data["status"]
    else:  # a discrete run writes its history with its results
        assert not history.exists()
        assert data["status"] == results.aborted(None, "Ctrl-C") == (
            "aborted: Ctrl-C again before the run wrote its results (nothing graded)")
    assert data["checks"] == [] and data["provenance"]["ended"] and data["stack"]
    assert results.classify(data["status"], []) is results.Verdict.INTERRUPTED
    assert main(["compare", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith(
        f"aborted at t = {end:g} s" if streamed else "aborted")


def test_an_aborted_block_run_lists_every_frame_it_wrote(tmp_path, monkeypatch):
    """A second Ctrl-C between two steps of a block run (the handler's KeyboardInterrupt,
    here at t = 4 ms): as the abort leaves the runner, fields.pvd lists every frame on disk,
    to where the history ends. It listed those of its last rewrite (at most one a second,
    here once: the first frame) until DOLFINx's VTKFile, collected as the process exited,
    wrote it again; a kill after the abort left it so."""
    from rocking_contact.fem import output

    monkeypatch.setattr(output, "FieldIndex", partial(results_io.FieldIndex, interval=3600.0))
    check = interrupt.check

    def second_ctrl_c(t, comm=None):
        if t >= 0.004 - 1e-12:
            raise KeyboardInterrupt  # what the handler raises on a second signal
        check(t, comm)

    monkeypatch.setattr(interrupt, "check", second_ctrl_c)
    with pytest.raises(KeyboardInterrupt) as info:
        rc.run(rc.load_case("sdnv105d", {"time.end": 0.01, "output.fields_every": 1}),
               out=tmp_path, quiet=True)
    # info holds the run's frames, and so its VTKFile: nothing rewrote fields.pvd since
    assert not isinstance(info.value, Interrupted)
    listed = list(ET.parse(tmp_path / "fields.pvd").iter("DataSet"))
    frames = [d.attrib["file"] for d in listed]
    assert frames == sorted(p.name for p in tmp_path.glob("fields*.pvtu"))
    assert len(frames) == 41  # the initial state and 40 steps of 0.1 ms
    end = read_history_csv(tmp_path / results_io.HISTORY_FILE)["time"][-1]
    assert float(listed[-1].attrib["timestep"]) == end == pytest.approx(0.004)


def test_an_abort_before_a_run_computed_leaves_the_earlier_results_as_they_were(tmp_path,
                                                                               monkeypatch):
    """The earlier results put back by a run aborted before its first step are not
    relabelled as aborted: only the results.json this run started with is."""
    from rocking_contact.discrete import runner

    rc.run(rc.load_case("sdnd101a", {"time.end": 0.1}), out=tmp_path, quiet=True, plots=False)
    before = (tmp_path / results_io.RESULTS_FILE).read_bytes()

    def second_ctrl_c(case, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run", second_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        rc.run(rc.load_case("sdnd101a", {"time.end": 0.2}), out=tmp_path, quiet=True)
    assert (tmp_path / results_io.RESULTS_FILE).read_bytes() == before


def frozen(proc):
    """Wait until ``proc``, sent SIGSTOP, has stopped (state T in ``/proc/<pid>/stat``);
    False if it had ended."""
    stat = Path(f"/proc/{proc.pid}/stat")
    deadline = time.monotonic() + 60
    while proc.poll() is None:  # not reaped: its /proc entry is there (a zombie's too)
        if stat.read_text().rpartition(")")[2].split()[0] == "T":
            return True
        assert time.monotonic() < deadline, "SIGSTOP not taken in 60 s"
        time.sleep(0.001)
    return False


def test_a_second_ctrl_c_on_a_block_run_leaves_it_aborted(tmp_path):
    """Two SIGINTs in the middle of a FEM run: the second aborts it at once (exit code 130),
    its results.json saying so where its streamed history ends, which it said 'started:
    ... (killed)'.

    The second aborts only before the run has written its results (measured at 46dbea7 on
    an AMD EPYC: 0.6 to 0.7 s after the first said its line, 1.6 to 2.7 s beside three busy
    loops): the run is frozen (SIGSTOP) once that line is read, and the second is sent
    while it is, so that what the run had written then is what the signal meets. A run
    that had written its results (the test process held back on a loaded machine) ends as
    interrupted, which is checked too, and another run is tried. A run that ends without
    saying the first stop fails the test (its stderr read to its end looped for good)."""
    for attempt in range(3):
        out = tmp_path / f"d{attempt}"
        proc = block_run_under_way(out)
        proc.send_signal(signal.SIGINT)
        said = []  # the second once the first was taken: two at once are one signal
        while not any("stopping after the step under way" in line for line in said):
            said.append(proc.stderr.readline())
            assert said[-1], f"the run ended without saying its stop: {''.join(said)}"
        proc.send_signal(signal.SIGSTOP)
        written = out / results_io.RESULTS_FILE
        in_time = frozen(proc) and (json.loads(written.read_text())["status"] == results.STARTED
                                    and not results_io.partial_path(written).exists())
        proc.send_signal(signal.SIGINT)
        proc.send_signal(signal.SIGCONT)
        _, err = proc.communicate(timeout=120)
        assert "Traceback" not in err
        data = json.loads(written.read_text())
        end = read_history_csv(out / "history.csv")["time"][-1]
        if in_time:
            assert proc.returncode == EXIT_INTERRUPTED, err
            assert data["status"] == results.aborted(float(f"{end:.6g}"), "Ctrl-C")
            assert data["status"].startswith(f"aborted at t = {end:.6g} s: Ctrl-C again")
            return
        # late: the results stay; as the process ends, Python's handler may be gone
        assert proc.returncode in (EXIT_INTERRUPTED, -signal.SIGINT), err
        assert data["status"] == f"interrupted at t = {end:.6g} s", err
    pytest.fail("each of 3 runs wrote its results before the second Ctrl-C reached it")


def test_the_stop_said_is_one_whole_line_however_soon_a_second_signal_comes(monkeypatch):
    """Two SIGINTs a few microseconds apart: the second's KeyboardInterrupt, raised as the
    first handler printed, came between the line and its newline, and the command's
    'interrupted' followed on the same line ('... without them)interrupted')."""

    class Cut:
        """stderr that a second signal stops after its first write."""

        written: list[str] = []

        def write(self, text):
            self.written.append(text)
            raise KeyboardInterrupt

        def flush(self):
            pass

    monkeypatch.setitem(interrupt._state, "announced", False)
    monkeypatch.setattr(sys, "stderr", Cut())
    with pytest.raises(KeyboardInterrupt):
        interrupt._announce(signal.SIGINT)
    assert Cut.written == ["\nCtrl-C: stopping after the step under way and writing the "
                           "results so far (Ctrl-C again to abort without them)\n"]


def test_ctrl_c_during_the_numba_compilation_says_it_comes_first(monkeypatch, capsys):
    """A Ctrl-C as a cold cache compiled the kernels said 'stopping after the step under
    way', then the run went on compiling for seconds (10 s for sdnd101a here) without a
    word (audit, session 35)."""
    from rocking_contact.discrete import runner

    made = runner.make_integrator

    def pressed(*args, **kwargs):  # Ctrl-C as the throwaway integrator compiles
        if not interrupt.requested():  # once: the run's own integrator is made after it
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
        return made(*args, **kwargs)

    monkeypatch.setattr(runner, "make_integrator", pressed)
    with interrupt.deferred(), pytest.raises(Interrupted):
        runner.run(rc.load_case("sdnd101a", {"time.end": 0.01}))
    assert capsys.readouterr().err == (
        f"\nCtrl-C: stopping after the step under way ({runner.COMPILING_FIRST}) and writing "
        "the results so far (Ctrl-C again to abort without them)\n")
    monkeypatch.setattr(runner, "make_integrator", made)

    class Press(Progress):
        def update(self, t, info="", step=None):
            if not interrupt.requested():  # once: a second Ctrl-C aborts
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)

    # once the steps are under way, nothing is said of the compilation
    with interrupt.deferred(), pytest.raises(Interrupted):
        runner.run(rc.load_case("sdnd101a", {"time.step": 1e-5}),
                   progress=Press(0.0, 0.5, enabled=False))
    assert capsys.readouterr().err == (
        "\nCtrl-C: stopping after the step under way and writing the results so far "
        "(Ctrl-C again to abort without them)\n")
