"""A signal that reaches rank 1 alone while rank 0 draws the plots (``kill`` on rank 1's
pid): the run's steps are over, its results and plots on disk (status completed, the plots
listed), and the command ends as interrupted (exit code 143: a loop of runs stops, as a
signal after a serial run's last step ends its command so). Rank 0 said 'SIGTERM: stopping
after the step under way and writing the results so far (SIGTERM again to abort without
them)', with nothing left to stop after or to abort; it now says the run had ended and its
results are written."""

import io
import json
import signal
import subprocess
import sys
from contextlib import redirect_stderr

import pytest
from test_mpi_tools import MPIEXEC, communicate, mpi_env

from rocking_contact import interrupt

#: ``rocking-contact ARGS`` on 2 ranks; rank 1 sends itself SIGTERM as it enters the
#: agreement after the plots, which rank 0 is drawing
SIGNALLED_AS_RANK_0_DRAWS = """
import os, signal, sys
from mpi4py import MPI
from rocking_contact import interrupt
from rocking_contact.cli import main
if MPI.COMM_WORLD.rank == 1:
    agreed, calls = interrupt.agreed, []
    def signalled_at_the_second(alone=None):
        calls.append(alone)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGTERM)
        return agreed(alone)
    interrupt.agreed = signalled_at_the_second
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.mpi
def test_a_signal_to_rank_1_as_rank_0_draws_keeps_the_plots_and_says_so(tmp_path):
    out = tmp_path / "o"
    proc = subprocess.Popen([str(MPIEXEC), "-n", "2", sys.executable, "-c",
                             SIGNALLED_AS_RANK_0_DRAWS, "run", "sdnd101a", "--out", str(out),
                             "-q"], cwd=tmp_path, env=mpi_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    _, err = communicate(proc, 240, "a rank hung")
    assert proc.returncode == 143, err
    data = json.loads((out / "results.json").read_text())
    assert data["status"] == "completed" and data["plots"]
    assert all((out / name).is_file() for name in data["plots"])
    said = [line for line in err.splitlines() if line]
    assert said == ["SIGTERM: the run had ended and its results are written",
                    "interrupted at the end of the run (t = 0.5 s) (results so far were "
                    "written)"], err


class _Rank1Asked:
    """A 2-rank communicator whose rank 1 asked for a stop with SIGTERM."""

    size, rank = 2, 0

    def allgather(self, ours):
        if isinstance(ours, interrupt.RankStop):
            return [ours, interrupt.RankStop(None, True, signal.SIGTERM)]
        return [ours, int(signal.SIGTERM)]


def test_the_agreement_after_the_results_says_the_run_had_ended(monkeypatch):
    """Where the ranks agree after rank 0 wrote the results, a stop asked for on another
    rank alone is said once, as a stop that came after the run; during the steps
    (interrupt.requested) it is said as before."""
    monkeypatch.setattr(interrupt, "world", lambda: _Rank1Asked())
    said = io.StringIO()
    with redirect_stderr(said), interrupt.deferred():
        assert interrupt.agreed().requested and interrupt.agreed().requested
    assert said.getvalue() == "\nSIGTERM: the run had ended and its results are written\n"
    said = io.StringIO()
    with redirect_stderr(said), interrupt.deferred():
        assert interrupt.requested(_Rank1Asked())
    assert said.getvalue() == ("\nSIGTERM: stopping after the step under way and writing "
                               "the results so far (SIGTERM again to abort without them)\n")
