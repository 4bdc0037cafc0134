"""A run into a directory that holds an earlier run's results moves them aside as it
starts (``.rocking-contact-replaced/``) and deletes them when its computation ends, however
it ends: the directory then holds this run alone, as before. A run refused as it sets up
puts them back (tests/test_refused_run_output.py); a folder a killed run left goes with the
next run."""

import errno
import json

import pytest
from test_interrupt import AskToStop
from test_mpi_tools import under_mpiexec
from test_refused_run_output import earlier_run, snapshot

import rocking_contact as rc
from rocking_contact import interrupt, results_io
from rocking_contact.cli import EXIT_FAILED, main
from rocking_contact.config import shipped_cases
from rocking_contact.progress import Progress


def _earlier_gone(out, before):
    """The earlier run's files are gone but the user's, and no set-aside folder is left."""
    now = snapshot(out)
    assert not (out / results_io.REPLACED).exists()
    assert now["notes.txt"] == before["notes.txt"]
    assert not any(name.startswith("report/") or name.endswith((".png", ".svg"))
                   for name in now)
    assert now["history.csv"] != before["history.csv"]
    return json.loads(now["results.json"])


def test_a_completed_run_replaces_the_earlier_results(monkeypatch, tmp_path):
    """While it runs, the earlier run's files are out of the way (no plot or frame of it
    beside this run's), in the hidden folder; once it ends, gone."""
    out = tmp_path / "o"
    before = earlier_run(out, tmp_path)
    seen = []

    class Peek(Progress):
        def update(self, t, info="", step=None):
            if not seen:
                seen.append(sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                                   if p.is_file()))

    monkeypatch.setattr("rocking_contact.api.Progress", Peek)
    rc.run(rc.load_case("sdnd101a", ["time.end=0.2"]), out=out, quiet=True, plots=False)
    aside = sorted(f"{results_io.REPLACED}/{name}" for name in
                   [*(n for n in before if n != "notes.txt"), results_io.REPLACED_MARK])
    assert seen == [sorted([*aside, "notes.txt", "results.json"])]
    assert _earlier_gone(out, before)["status"] == "completed"


def test_a_failed_run_replaces_them_with_what_it_computed(capsys, tmp_path):
    """A solver failure is past the set-up: its partial results stay, the earlier go."""
    out = tmp_path / "o"
    before = earlier_run(out, tmp_path)
    bad = tmp_path / "bad.toml"
    bad.write_text(f'extends = "{shipped_cases()["sdnd101a"]}"\n[solver]\nscheme = '
                   '"newmark"\nnewton_max_iter = 3\nnewton_tol = 1e-30\n')
    assert main(["run", str(bad), "--out", str(out), "-q", "--no-plots"]) == EXIT_FAILED
    assert "solver failed" in capsys.readouterr().err
    assert _earlier_gone(out, before)["status"].startswith("failed")


def test_an_interrupted_run_replaces_them_with_what_it_computed(monkeypatch, tmp_path):
    out = tmp_path / "o"
    before = earlier_run(out, tmp_path)
    monkeypatch.setattr("rocking_contact.api.Progress", AskToStop)
    with interrupt.deferred(), pytest.raises(rc.Interrupted):
        rc.run(rc.load_case("sdnd101a", {"time.step": 1e-5}), out=out, plots=False)
    assert _earlier_gone(out, before)["status"].startswith("interrupted at t = ")


def test_a_full_disk_as_the_run_starts_leaves_them(monkeypatch, tmp_path):
    """The results.json that says the run started cannot be written: no run started, and
    the earlier results are back (renames need no space)."""
    out = tmp_path / "o"
    before = earlier_run(out, tmp_path)

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(results_io, "_write_json", full)
    with pytest.raises(OSError):
        rc.run("sdnd101a", out=out, quiet=True)
    assert snapshot(out) == before


def test_a_killed_runs_set_aside_folder_goes_with_the_next_run(tmp_path):
    """SIGKILL as the run set up leaves the earlier results in
    ``.rocking-contact-replaced/`` beside the results.json that says it started: the next
    run (and :func:`results_io.clear`) removes the folder, not only the files a run
    writes."""
    out = tmp_path / "o"
    before = earlier_run(out, tmp_path)
    moved = results_io.set_aside(out)
    assert sorted(p.relative_to(out).as_posix() for p in moved) == sorted(
        name for name in before if name != "notes.txt")
    assert sorted(p.name for p in out.iterdir()) == [results_io.REPLACED, "notes.txt"]
    rc.run(rc.load_case("sdnd101a", ["time.end=0.2"]), out=out, quiet=True, plots=False)
    assert _earlier_gone(out, before)["status"] == "completed"
    (out / results_io.REPLACED / "plots.partial").mkdir(parents=True)
    (out / results_io.REPLACED / "plots.partial" / "a.png").write_bytes(b"half")
    (out / results_io.REPLACED / results_io.REPLACED_MARK).write_text("")
    gone = results_io.clear(out)
    assert out / results_io.REPLACED in gone
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


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


def test_a_folder_of_that_name_without_the_mark_is_the_users(tmp_path):
    """A user's own folder named as the set-aside one (no mark in it) stays, whatever it
    holds: discard deleted any folder of that name."""
    out = tmp_path / "o"
    earlier_run(out, tmp_path)
    mine = out / results_io.REPLACED / "my_notes.txt"
    mine.parent.mkdir()
    mine.write_text("mine\n")
    rc.run(rc.load_case("sdnd101a", ["time.end=0.2"]), out=out, quiet=True, plots=False)
    assert mine.read_text() == "mine\n"
    assert results_io.clear(out) and mine.read_text() == "mine\n"


def test_listed_plots_are_names_not_patterns(tmp_path):
    """A results.json whose plots list '*.txt' took the user's text files with the run."""
    out = tmp_path / "o"
    rc.run(rc.load_case("sdnd101a", ["time.end=0.2"]), out=out, quiet=True, plots=False)
    data = json.loads((out / "results.json").read_text())
    (out / "results.json").write_text(json.dumps({**data, "plots": ["*.txt"]}))
    (out / "thesis.txt").write_text("mine\n")
    rc.run(rc.load_case("sdnd101a", ["time.end=0.2"]), out=out, quiet=True, plots=False)
    assert (out / "thesis.txt").read_text() == "mine\n"
