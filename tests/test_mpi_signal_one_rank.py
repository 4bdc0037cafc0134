"""A Ctrl-C or SIGTERM that reaches one rank of a 2-rank run alone (``kill`` on its pid,
not on ``mpiexec``): the run stops after the same step on every rank, as when mpiexec
forwards the signal to all, and says so the same way: rank 0 announces the stop once,
draws no plots (``results.json`` lists none) and prints how to draw them.

Sent to rank 1 alone, the run stopped at the agreed step, but rank 0, whose own handler
never ran, said nothing of the stop and drew the 26 plots (M1, 2026-11-24).
"""

import io
import signal
import subprocess
import sys
from contextlib import redirect_stderr

import pytest
from test_mpi_interrupt import assert_stopped_and_kept, stop, wait_for
from test_mpi_tools import MPIEXEC, mpi_env

from rocking_contact import interrupt

#: ``rocking-contact ARGS`` on each rank, which first writes its pid to ``pid<rank>``
WITH_PIDS = """
import os, sys
from pathlib import Path
from mpi4py import MPI
Path(f"pid{MPI.COMM_WORLD.rank}").write_text(str(os.getpid()))
from rocking_contact.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.mpi
@pytest.mark.parametrize("rank,signum,code,name", [(1, signal.SIGTERM, 143, "SIGTERM"),
                                                    (1, signal.SIGINT, 130, "Ctrl-C"),
                                                    (0, signal.SIGTERM, 143, "SIGTERM")])
def test_a_signal_to_one_rank_alone_stops_the_run_as_one_to_mpiexec(tmp_path, rank, signum,
                                                                    code, name):
    out = tmp_path / "d"
    proc = subprocess.Popen([str(MPIEXEC), "-n", "2", sys.executable, "-c", WITH_PIDS, "run",
                             "sdnv105d", "--set", "time.end=1.0", "--out", str(out), "-q"],
                            cwd=tmp_path, env=mpi_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    history, pid = out / "history.csv", tmp_path / f"pid{rank}"
    wait_for(proc, lambda: pid.is_file() and pid.read_text() and history.is_file()
             and history.read_text().count("\n") > 60)
    exit_code, _, err = stop(proc, signum, pid=int(pid.read_text()))
    assert exit_code == code, err
    # the stop said once, plots none (results.json's list empty), and how to draw them
    assert assert_stopped_and_kept(out, err, name) >= 0.006
    assert err.count("sdnv105d: plots not drawn after the interrupt") == 1, err
    assert not list(out.glob("*.png")) and not list(out.glob("*.svg"))


class _TwoRanks:
    """A communicator of 2 ranks whose other rank asked for a stop with ``theirs`` (0:
    none), as :func:`interrupt.requested` and :func:`interrupt.agreed` gather it."""

    size, rank = 2, 0

    def __init__(self, theirs):
        self.theirs = theirs

    def allgather(self, ours):
        if isinstance(ours, interrupt.RankStop):
            return [ours, interrupt.RankStop(None, bool(self.theirs), self.theirs or 2)]
        return [ours, self.theirs]

    def allreduce(self, ours, op=None):  # what requested() gathered with before
        return ours or bool(self.theirs)


def test_rank_0_says_once_a_stop_asked_for_on_another_rank():
    """Said as the ranks agree on the stop, and not again when the signal that mpiexec
    forwards reaches rank 0 afterwards (its handler)."""
    said = io.StringIO()
    with redirect_stderr(said), interrupt.deferred():
        assert not interrupt.requested(_TwoRanks(0))
        assert said.getvalue() == ""
        assert interrupt.requested(_TwoRanks(signal.SIGTERM))
        assert "SIGTERM: stopping after the step under way" in said.getvalue()
        assert interrupt.requested(_TwoRanks(signal.SIGTERM))
        signal.raise_signal(signal.SIGTERM)  # now rank 0's own
        assert interrupt.requested()
    assert said.getvalue() == ("\nSIGTERM: stopping after the step under way and writing the "
                               "results so far (SIGTERM again to abort without them)\n")


def test_the_agreement_after_the_results_says_a_stop_of_another_rank(monkeypatch):
    """A stop asked for on another rank alone where no step asks (a discrete run, which
    every rank computes alone; the results being written): said once, with its signal."""
    monkeypatch.setattr(interrupt, "world", lambda: _TwoRanks(signal.SIGINT))
    said = io.StringIO()
    with redirect_stderr(said), interrupt.deferred():
        stop = interrupt.agreed()
        again = interrupt.agreed()
    assert stop.requested and stop.signal == signal.SIGINT and again == stop
    assert said.getvalue().count("Ctrl-C: the run had ended and its results are written") == 1
