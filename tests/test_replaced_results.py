"""A run into a directory that holds an earlier run's results moves them aside as it
starts (``.rocking-contact-replaced/``) and deletes them once it has computed, however it
ends: the directory then holds this run alone, as before. A run refused as it sets up
(tests/test_refused_run_output.py), or stopped before it computed, puts them back; a folder
a killed run left goes with the next run, or comes back if that run left nothing."""

import errno
import json
import signal
import subprocess
import sys
from contextlib import contextmanager

import numpy as np
import pytest
from test_interrupt import AskToStop
from test_mpi_tools import under_mpiexec
from test_refused_run_output import KeptRun, _misspelt, snapshot

import rocking_contact as rc
from rocking_contact import interrupt, results_dir, results_io
from rocking_contact.cli import EXIT_FAILED, main
from rocking_contact.config import shipped_cases
from rocking_contact.progress import Progress
from rocking_contact.results import STARTED, RunResult, aborted


@pytest.fixture(scope="module")
def kept_run(tmp_path_factory):
    """The earlier run (:class:`KeptRun`), made once for the module."""
    return KeptRun(tmp_path_factory.mktemp("earlier"))


@pytest.fixture
def earlier(kept_run):
    """``(out, before)``: ``out`` holding the earlier run as it was made (whatever the
    test before did to it) and its snapshot."""
    return kept_run.again()


def _earlier_gone(out, before):
    """The earlier run's files are gone but the user's, and no set-aside folder is left."""
    now = snapshot(out)
    assert not (out / results_dir.REPLACED).exists()
    assert now["notes.txt"] == before["notes.txt"]
    assert not any(name.startswith("report/") or name.endswith((".png", ".svg"))
                   for name in now)
    assert now["history.csv"] != before["history.csv"]
    return json.loads(now["results.json"])


def test_a_completed_run_replaces_the_earlier_results(earlier, monkeypatch):
    """While it runs, the earlier run's files are out of the way (no plot or frame of it
    beside this run's), in the hidden folder; once it ends, gone."""
    out, before = earlier
    seen = []

    class Peek(Progress):
        def update(self, t, info="", step=None):
            if not seen:
                seen.append(sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                                   if p.is_file()))

    monkeypatch.setattr("rocking_contact.api.Progress", Peek)
    rc.run(rc.load_case("sdnd101a", ["time.end=0.2"]), out=out, quiet=True, plots=False)
    aside = sorted(f"{results_dir.REPLACED}/{name}" for name in
                   [*(n for n in before if n != "notes.txt"), results_dir.REPLACED_MARK])
    assert seen == [sorted([*aside, "notes.txt", "results.json"])]
    assert _earlier_gone(out, before)["status"] == "completed"


def test_a_failed_run_replaces_them_with_what_it_computed(earlier, capsys, tmp_path):
    """A solver failure is past the set-up: its partial results stay, the earlier go."""
    out, before = earlier
    bad = tmp_path / "bad.toml"
    bad.write_text(f'extends = "{shipped_cases()["sdnd101a"]}"\n[solver]\nscheme = '
                   '"newmark"\nnewton_max_iter = 3\nnewton_tol = 1e-30\n')
    assert main(["run", str(bad), "--out", str(out), "-q", "--no-plots"]) == EXIT_FAILED
    assert "solver failed" in capsys.readouterr().err
    assert _earlier_gone(out, before)["status"].startswith("failed")


def test_a_failure_before_the_first_step_puts_them_back(earlier, monkeypatch, capsys):
    """A runner that fails with nothing computed (``partial`` None: the rigid block's
    levels raising) computed no run to replace them with: they come back, and the command
    line does not say it wrote results. They were deleted, the directory left with the
    started results.json alone ("stopped before it wrote its results (killed)")."""
    out, before = earlier

    class Failing:
        @staticmethod
        def run(case, progress):
            raise rc.SolverFailure("the levels failed: boom")

    monkeypatch.setattr("rocking_contact.api.kind_runner", lambda kind: Failing)
    assert main(["run", "sdnd101a", "--out", str(out), "-q", "--no-plots"]) == EXIT_FAILED
    assert capsys.readouterr().err == ("error: solver failed: the levels failed: boom "
                                       "(no results were written: "
                                       "the ones there before, if any, are kept)\n")
    assert snapshot(out) == before


def test_an_interrupted_run_replaces_them_with_what_it_computed(earlier, monkeypatch):
    out, before = earlier
    monkeypatch.setattr("rocking_contact.api.Progress", AskToStop)
    with interrupt.deferred(), pytest.raises(rc.Interrupted):
        rc.run(rc.load_case("sdnd101a", {"time.step": 1e-5}), out=out, plots=False)
    assert _earlier_gone(out, before)["status"].startswith("interrupted at t = ")


def test_a_full_disk_as_the_run_starts_leaves_them(earlier, monkeypatch):
    """The results.json that says the run started cannot be written: no run started, and
    the earlier results are back (renames need no space)."""
    out, before = earlier

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(results_io, "_write_json", full)
    with pytest.raises(OSError):
        rc.run("sdnd101a", out=out, quiet=True)
    assert snapshot(out) == before


def _interrupt():
    raise KeyboardInterrupt


def test_an_interrupt_at_the_barrier_puts_them_back(earlier, monkeypatch, tmp_path):
    """A Ctrl-C or SIGTERM raised as the ranks wait for rank 0 to set them aside (a second
    one: the first is deferred from there on) stops a run that computed nothing. It left
    them set aside beside a results.json that said it had started, for the next run to
    delete; now they are back, and a directory made for the run is gone."""
    out, before = earlier
    monkeypatch.setattr("rocking_contact.api._barrier", _interrupt)
    case = rc.load_case("sdnd101a", ["time.end=0.2"])
    with pytest.raises(KeyboardInterrupt):
        rc.run(case, out=out, quiet=True, plots=False)
    assert snapshot(out) == before
    with pytest.raises(KeyboardInterrupt):
        rc.run(case, out=tmp_path / "made" / "deep", quiet=True, plots=False)
    assert not (tmp_path / "made").exists()


def test_an_interrupt_before_the_run_defers_it_touches_nothing(earlier, monkeypatch, tmp_path):
    """Raised as rc.run starts to defer Ctrl-C: the directory was made and the earlier
    results set aside before it, and stayed so; now both come after it."""
    out, before = earlier

    @contextmanager
    def interrupted_on_entry():
        _interrupt()
        yield

    monkeypatch.setattr(interrupt, "deferred", interrupted_on_entry)
    case = rc.load_case("sdnd101a", ["time.end=0.2"])
    with pytest.raises(KeyboardInterrupt):
        rc.run(case, out=out, quiet=True, plots=False)
    assert snapshot(out) == before
    with pytest.raises(KeyboardInterrupt):
        rc.run(case, out=tmp_path / "made", quiet=True, plots=False)
    assert not (tmp_path / "made").exists()


class AbortAt(Progress):
    """A second Ctrl-C (``KeyboardInterrupt`` at once) at the ``STEP``-th update."""

    STEP = 1

    def update(self, t, info="", step=None):
        self.calls = getattr(self, "calls", 0) + 1
        if self.calls == self.STEP:
            _interrupt()


def test_an_abort_that_leaves_nothing_computed_puts_them_back(earlier, monkeypatch):
    """A discrete run writes its history as it ends: aborted during its steps, it leaves
    only its started results.json, and the earlier results come back."""
    out, before = earlier
    monkeypatch.setattr("rocking_contact.api.Progress", AbortAt)
    with interrupt.deferred(), pytest.raises(KeyboardInterrupt) as stop:
        rc.run(rc.load_case("sdnd101a", {"time.step": 1e-5}), out=out, plots=False)
    assert not isinstance(stop.value, rc.Interrupted)
    assert snapshot(out) == before


def test_an_abort_after_streamed_rows_keeps_them(earlier, monkeypatch):
    """A block run aborted after the rows and frames it streamed keeps them, as a killed
    one does, and its results.json says it was aborted where they end (it said 'started:
    ... (killed)'): the earlier results go."""
    out, before = earlier
    monkeypatch.setattr(AbortAt, "STEP", 60)  # history.csv is flushed every 50 rows
    monkeypatch.setattr("rocking_contact.api.Progress", AbortAt)
    with interrupt.deferred(), pytest.raises(KeyboardInterrupt):
        rc.run(rc.load_case("sdnv105d", ["time.end=0.01"]), out=out, plots=False)
    assert not (out / results_dir.REPLACED).exists()
    end = results_io.read_history_csv(out / "history.csv")["time"][-1]
    assert json.loads((out / "results.json").read_text())["status"] == aborted(end, "Ctrl-C")
    assert (out / "history.csv").read_text().count("\n") > 50
    assert sorted(set(before) - set(snapshot(out))) == sorted(
        name for name in before if name not in ("notes.txt", "results.json", "history.csv"))


#: ``rocking-contact ARGS`` killed (SIGKILL) at the barrier after the earlier results are
#: set aside and the results.json saying it started is written
KILLED_AS_IT_SETS_UP = """
import os, signal, sys
import rocking_contact.api as api
api._barrier = lambda: os.kill(os.getpid(), signal.SIGKILL)
from rocking_contact.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_run_killed_as_it_set_up_gives_them_back_to_the_next(earlier, capsys, tmp_path):
    """Killed before it computed, a run leaves them set aside beside its started
    results.json and nothing else: the next run puts them back before it sets them aside
    again, so that a refusal of that run leaves them (the next run deleted them)."""
    out, before = earlier
    killed = subprocess.run([sys.executable, "-c", KILLED_AS_IT_SETS_UP, "run", "sdnd101a",
                             "--out", str(out), "-q", "--no-plots"], capture_output=True)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert sorted(p.name for p in out.iterdir()) == [results_dir.REPLACED, "notes.txt",
                                                      "results.json"]
    assert json.loads((out / "results.json").read_text())["status"] == STARTED
    capsys.readouterr()
    assert main(["run", str(_misspelt(tmp_path)), "--out", str(out), "-q", "--set",
                 "time.end=0.002"]) == 2
    assert snapshot(out) == before


#: ``rocking-contact ARGS`` sent Ctrl-C as it makes its directory (a stop asked for) and
#: again as it ends setting the earlier results aside (an abort). Two signals sent
#: together may be taken as one: a signal is pending once at most
CTRL_C_TWICE_AS_IT_SETS_UP = """
import os, signal, sys
import rocking_contact.api as api
from rocking_contact import results_dir

def ctrl_c_after(original):
    def sent(*args, **kwargs):
        done = original(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)
        return done
    return sent

api.make_dir = ctrl_c_after(api.make_dir)
results_dir.set_aside = ctrl_c_after(results_dir.set_aside)
from rocking_contact.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_second_ctrl_c_as_they_are_set_aside_puts_them_back(earlier):
    """The second Ctrl-C raised KeyboardInterrupt after set_aside had moved them and before
    the run noted it: they stayed in the hidden folder, the directory without results
    until the next run put them back. Now a signal there comes once the run knows they
    are aside: they are back, and the command says the stop, then "interrupted" (no
    traceback), exit code 130."""
    out, before = earlier
    aborted = subprocess.run([sys.executable, "-c", CTRL_C_TWICE_AS_IT_SETS_UP, "run",
                              "sdnd101a", "--out", str(out), "-q", "--no-plots"],
                             capture_output=True, text=True)
    assert (aborted.returncode, aborted.stdout) == (130, ""), aborted.stderr
    assert aborted.stderr == ("\nCtrl-C: stopping after the step under way and writing the "
                              "results so far (Ctrl-C again to abort without them)\n"
                              "interrupted\n")
    assert snapshot(out) == before


def _killed_after(out, history):
    """``out`` as a run killed after it set the earlier results aside leaves it: its
    started results.json, and the rows it streamed (``history``: time -> values)."""
    results_dir.set_aside(out)
    results_io.write(RunResult(case="sdnd101a", kind="discrete", parameters={},
                               status=STARTED, history=history), out)


def test_a_killed_runs_set_aside_folder_goes_with_the_next_run(earlier):
    """SIGKILL during its steps leaves the earlier results in
    ``.rocking-contact-replaced/`` beside the results.json that says it started and the
    rows it streamed: the next run removes the folder with that run."""
    out, before = earlier
    _killed_after(out, {"time": np.array([0.0, 1e-4]), "DX_NO1": np.zeros(2)})
    assert sorted(p.name for p in out.iterdir()) == [results_dir.REPLACED, "history.csv",
                                                      "notes.txt", "results.json"]
    rc.run(rc.load_case("sdnd101a", ["time.end=0.2"]), out=out, quiet=True, plots=False)
    assert _earlier_gone(out, before)["status"] == "completed"
    (out / results_dir.REPLACED / "plots.partial").mkdir(parents=True)
    (out / results_dir.REPLACED / "plots.partial" / "a.png").write_bytes(b"half")
    (out / results_dir.REPLACED / results_dir.REPLACED_MARK).write_text("")
    assert results_dir.set_aside(out)
    assert not (out / results_dir.REPLACED / "plots.partial").exists()
    assert results_dir.discard(out) == [out / results_dir.REPLACED]
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_a_history_without_rows_is_nothing_computed(earlier):
    """Killed with its history.csv opened and no row on disk (a block run's rows are
    flushed every 50), a run left nothing: the earlier results come back; with a row on
    disk, they go with the next run."""
    out, before = earlier
    _killed_after(out, {})
    (out / "history.csv").write_text("time,DX_NO1\n")
    assert results_dir.only_started(out)
    assert results_dir.set_aside(out)
    assert results_dir.restore(out)
    assert snapshot(out) == before
    _killed_after(out, {})
    (out / "history.csv").write_text("time,DX_NO1\n0.0,0.0\n")
    assert not results_dir.only_started(out)
    results_dir.set_aside(out)
    assert sorted(p.name for p in out.iterdir()) == [results_dir.REPLACED, "notes.txt"]
    assert sorted(p.name for p in (out / results_dir.REPLACED).iterdir()) == [
        "history.csv", "results.json", results_dir.REPLACED_MARK]


def test_setting_them_aside_is_all_or_none(earlier, monkeypatch):
    """Stopped as it moves them (a second Ctrl-C, an error), set_aside moves back those it
    moved: none is left in the folder for the next run to delete."""
    out, before = earlier
    replace, moves = results_io.os.replace, []

    def third_fails(source, target):
        moves.append(source)
        if len(moves) == 3:
            _interrupt()
        replace(source, target)

    monkeypatch.setattr(results_io.os, "replace", third_fails)
    with pytest.raises(KeyboardInterrupt):
        results_dir.set_aside(out)
    monkeypatch.undo()
    assert len(moves) > 3 and snapshot(out) == before


@pytest.mark.mpi
def test_a_run_refused_under_mpiexec_leaves_them(tmp_path):
    """Rank 0 moves them aside and back; ``petsc`` is refused on 2 ranks before the mesh
    is built."""
    out = tmp_path / "r"
    rc.run("sdnd101a", out=out, quiet=True, plots=False)
    (out / "notes.txt").write_text("mine\n")
    before = snapshot(out)
    code, _, err = under_mpiexec(tmp_path, "run", "sdnv105d", "--no-plots", "--out", "r",
                                 "--set", "solver.linear_solver=petsc")
    assert code == 2 and "factorises on one rank" in err, err
    assert snapshot(out) == before


@pytest.mark.mpi
def test_a_run_refused_under_mpiexec_leaves_no_directory_it_made(tmp_path):
    """Every rank made the missing --out directories and rank 0 alone listed and removed
    them: when another rank made them first, rank 0's list was empty and they stayed (2 of
    3 runs). Rank 0 alone makes them now. Three runs, as the race is not certain."""
    for k in range(3):
        code, _, err = under_mpiexec(tmp_path, "run", "sdnv105d", "--no-plots", "--out",
                                     f"z{k}/deep", "--set", "solver.linear_solver=petsc")
        assert code == 2 and "factorises on one rank" in err, err
        assert not (tmp_path / f"z{k}").exists()


def test_a_folder_of_that_name_without_the_mark_is_the_users(earlier):
    """A user's own folder named as the set-aside one (no mark in it) stays, whatever it
    holds: discard deleted any folder of that name."""
    out, _ = earlier
    mine = out / results_dir.REPLACED / "my_notes.txt"
    mine.parent.mkdir()
    mine.write_text("mine\n")
    rc.run(rc.load_case("sdnd101a", ["time.end=0.2"]), out=out, quiet=True, plots=False)
    assert mine.read_text() == "mine\n"
    assert results_dir.set_aside(out) == [] and not (out / "results.json").exists()
    assert results_dir.discard(out) == [] and mine.read_text() == "mine\n"


def test_listed_plots_are_names_not_patterns(tmp_path):
    """A results.json whose plots list '*.txt' took the user's text files with the run."""
    out = tmp_path / "o"
    rc.run(rc.load_case("sdnd101a", ["time.end=0.2"]), out=out, quiet=True, plots=False)
    data = json.loads((out / "results.json").read_text())
    (out / "results.json").write_text(json.dumps({**data, "plots": ["*.txt"]}))
    (out / "thesis.txt").write_text("mine\n")
    rc.run(rc.load_case("sdnd101a", ["time.end=0.2"]), out=out, quiet=True, plots=False)
    assert (out / "thesis.txt").read_text() == "mine\n"
