"""Ctrl-C, SIGTERM and solver failures of a 2-rank run, as a user meets them: the signal
goes to ``mpiexec``, which forwards it to every rank. The run stops after the same step on
both, rank 0 writes what they computed and says so once, and no rank is left waiting.

A Ctrl-C that came while the ranks set the run up (rank 0 clearing the results directory
while rank 1 waited at the barrier after it, the mesh distributed) used to leave one rank
in a collective call that the other had left: ``mpiexec`` never returned.
"""

import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest
from test_mpi_tools import MPIEXEC, communicate, mpi_env

import rocking_contact as rc
from rocking_contact.results_io import read_history_csv

pytestmark = pytest.mark.mpi

#: what mpiexec prints when a rank dies of a signal or an uncaught exception
BAD_TERMINATION = "BAD TERMINATION"


def start(cwd, *args):
    """``mpiexec -n 2 rocking-contact ARGS``, started."""
    return subprocess.Popen([str(MPIEXEC), "-n", "2", sys.executable, "-m",
                             "rocking_contact.cli", *args], cwd=cwd, env=mpi_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(proc, ready, seconds=240):
    """Poll every 10 ms until ``ready()``; the process must still be running then."""
    deadline = time.monotonic() + seconds
    while not ready() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert proc.poll() is None, proc.communicate()


def stop(proc, signum, pid=None):
    """Send ``signum`` to mpiexec (or to the process ``pid`` alone); (exit code, stdout,
    stderr). A hung rank fails the test (and is killed with mpiexec)."""
    if pid is None:
        proc.send_signal(signum)
    else:
        os.kill(pid, signum)
    out, err = communicate(proc, 120, "a rank hung after the signal")
    assert "Traceback" not in err and BAD_TERMINATION not in out, (out, err)
    return proc.returncode, out, err


def block_run(cwd, out):
    return start(cwd, "run", "sdnv105d", "--set", "time.end=1.0", "--out", str(out), "-q")


def assert_stopped_and_kept(out, err, name):
    """One message of each kind; results.json, history.csv and fields.pvd end at the
    same step, the one the status names (sdnv105d: uniform 1e-4 s steps)."""
    assert err.count(f"{name}: stopping after the step under way") == 1, err
    assert err.count("results so far were written") == 1, err
    data = json.loads((out / "results.json").read_text())
    assert data["status"].startswith("interrupted at t = ") and data["plots"] == []
    assert data["extra"]["ranks"] == 2
    assert f"{data['status']} (results so far were written)" in err
    end = float(data["status"].split("t = ")[1].removesuffix(" s"))
    history = read_history_csv(out / "history.csv")
    assert history["time"][-1] == pytest.approx(end, abs=1e-12)
    assert len(history["time"]) == round(end / 1e-4) + 1
    frames = list(ET.parse(out / "fields.pvd").iter("DataSet"))
    assert float(frames[-1].attrib["timestep"]) == pytest.approx(end, abs=1e-12)
    assert all((out / frame.attrib["file"]).is_file() for frame in frames)
    return end


@pytest.mark.parametrize("signum,code,name", [(signal.SIGINT, 130, "Ctrl-C"),
                                               (signal.SIGTERM, 143, "SIGTERM")])
def test_a_signal_to_mpiexec_mid_run_keeps_the_results(tmp_path, signum, code, name):
    out = tmp_path / "d"
    proc = block_run(tmp_path, out)
    history = out / "history.csv"
    wait_for(proc, lambda: history.is_file() and history.read_text().count("\n") > 60)
    exit_code, _, err = stop(proc, signum)
    assert exit_code == code, err
    assert assert_stopped_and_kept(out, err, name) >= 0.006


@pytest.mark.parametrize("signum,code,name", [(signal.SIGINT, 130, "Ctrl-C"),
                                               (signal.SIGTERM, 143, "SIGTERM")])
def test_a_signal_while_the_ranks_set_the_run_up_stops_after_the_first_step(tmp_path, signum,
                                                                             code, name):
    """The directory appears as rank 0 clears it, before the barrier the ranks then pass
    and the mesh they build: the request is kept until the first step ends."""
    out = tmp_path / "d"
    proc = block_run(tmp_path, out)
    wait_for(proc, out.exists)
    exit_code, _, err = stop(proc, signum)
    assert exit_code == code, err
    assert assert_stopped_and_kept(out, err, name) == pytest.approx(1e-4)


#: ``rocking-contact report`` with a report that takes a minute of Python (the signal lands
#: in time.sleep): what rank 0 does on it is the command line's, not the report's
SLOW_REPORT = """
import sys, time
from pathlib import Path
import rocking_contact.report.cli as report

def slow(args):
    Path("started").touch()
    time.sleep(60)
    return 0

report.main = slow
from rocking_contact.cli import main
sys.exit(main(["report", "--no-views"]))
"""


@pytest.mark.parametrize("signum,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_during_a_command_rank_0_runs_alone(tmp_path, signum, code):
    """``report`` runs on rank 0 while rank 1 waits at a barrier: the waiting rank raised
    the forwarded Ctrl-C as the barrier returned (a traceback, mpiexec's BAD TERMINATION
    and exit code 2), or was killed by it in MPI_Finalize, and PETSc, started on rank 0,
    took SIGTERM (its error banner, MPI_Abort and exit code 15)."""
    proc = subprocess.Popen([str(MPIEXEC), "-n", "2", sys.executable, "-c", SLOW_REPORT],
                            cwd=tmp_path, env=mpi_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    wait_for(proc, (tmp_path / "started").exists)
    time.sleep(1.0)  # rank 1 on its way to the barrier
    exit_code, _, err = stop(proc, signum)
    assert exit_code == code and err == "interrupted\n", err


#: ``rocking-contact ARGS`` whose plots take a minute on rank 0 (the signal lands in
#: time.sleep), which says its pid in ``drawing`` then; each rank writes its exit code to
#: ``exit<rank>``
SLOW_PLOTS = """
import os, sys, time
from pathlib import Path
from mpi4py import MPI
import rocking_contact.viz.history_plots as plots

def slow(result, staging):
    Path("drawing").write_text(str(os.getpid()))
    time.sleep(60)
    return []

plots.plot_results = slow
from rocking_contact.cli import main
code = main(sys.argv[1:])
Path(f"exit{MPI.COMM_WORLD.rank}").write_text(str(code))
sys.exit(code)
"""


@pytest.mark.parametrize("signum,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_to_rank_0_alone_as_it_draws_the_plots_stops_every_rank(tmp_path, signum,
                                                                         code):
    """Rank 0 writes the results and draws the plots alone: a signal that reaches it there
    (mpiexec forwards one to each rank at its own moment) stops it at once. Rank 1, which
    had decided on its own flag, went on to the next case and waited at its barrier for
    rank 0, gone: mpiexec never returned. Every rank now takes rank 0's stop."""
    proc = subprocess.Popen([str(MPIEXEC), "-n", "2", sys.executable, "-c", SLOW_PLOTS,
                             "validate", "sdnd100a", "sdnd101a", "--out", "d", "-q"],
                            cwd=tmp_path, env=mpi_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    drawing = tmp_path / "drawing"
    wait_for(proc, lambda: drawing.is_file() and drawing.read_text())
    exit_code, _, err = stop(proc, signum, pid=int(drawing.read_text()))
    assert exit_code == code, err
    assert [(tmp_path / f"exit{rank}").read_text() for rank in (0, 1)] == [str(code)] * 2
    assert err.count("sdnd100a: interrupted while the plots were drawn: none was kept; not "
                     "run: sdnd101a (results so far were written)") == 1, err
    data = json.loads((tmp_path / "d" / "sdnd100a" / "results.json").read_text())
    assert data["status"] == "completed" and data["plots"] == []
    assert read_history_csv(tmp_path / "d" / "sdnd100a" / "history.csv")["time"][-1] == \
        pytest.approx(data["parameters"]["time"]["end"])
    assert not (tmp_path / "d" / "sdnd101a").exists()


def test_a_solver_failure_on_two_ranks_is_said_once_and_keeps_the_results(tmp_path):
    """Two contact iterations a step and no halving: A's first 2.5 ms step fails at
    t = 0.0025 s, on one rank as on two."""
    args = ["run", "sdnv105a", "--set", "time.end=0.01", "--set", "contact.max_iterations=2",
            "--set", "solver.max_halvings=0", "-q", "--out"]
    proc = start(tmp_path, *args, str(tmp_path / "mpi"))
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 1, err
    # rank 0 alone shows what was computed: the summary line (-q hides the table)
    assert len(out.splitlines()) == 1 and out.startswith("sdnv105a: ") and \
        out.endswith(f"; results in {tmp_path / 'mpi'}/\n"), out
    where = "solver failed: step 251 from t = 0.0025 s failed with h = 0.0025 s"
    assert err.startswith(f"error: {where}") and len(err.splitlines()) == 1, err
    assert err.count("(results so far were written)") == 1
    with pytest.raises(rc.SolverFailure) as serial:
        rc.run(rc.load_case("sdnv105a", {"time.end": 0.01, "contact.max_iterations": 2,
                                         "solver.max_halvings": 0}),
               out=tmp_path / "serial", plots=False, quiet=True)
    assert serial.value.describe().startswith(where)
    data = json.loads((tmp_path / "mpi" / "results.json").read_text())
    assert data["status"].startswith(f"failed: {where.removeprefix('solver failed: ')}")
    assert data["extra"]["ranks"] == 2
    assert data["plots"] and all((tmp_path / "mpi" / p).is_file() for p in data["plots"])
    history = read_history_csv(tmp_path / "mpi" / "history.csv")
    assert history["time"][-1] == pytest.approx(0.0025) and len(history["time"]) == 251
