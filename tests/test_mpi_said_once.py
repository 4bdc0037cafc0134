"""A full disk that every rank of a 2-rank run meets (fields.h5, which every rank writes)
is said once: each rank said 'error: cannot write ...', two lines. stops.say_once: rank 0
says it and notes so to the others; another rank says it only if rank 0 did not meet it.
Ranks more than stops.SAID_WAIT (1 s) apart said it twice when rank 1 came first: it said it
after its wait and sent no note, and rank 0 said it again; now every rank that says it notes
so to the others."""

import subprocess
import sys
import textwrap

import pytest
from test_mpi_tools import MPIEXEC, communicate, mpi_env

pytestmark = pytest.mark.mpi

#: each rank in ``saying`` says the line, after its delay (s): ranks meet the error at
#: their own moment. The notes no rank received are taken before the ranks end (the
#: command line ends them with MPI_Abort): one left in MPI's queue as a process finalised
#: got a 3-rank run killed, 2 runs in 4
SCRIPT = textwrap.dedent("""
    import sys, time
    from mpi4py import MPI
    from rocking_contact import stops
    saying = {saying!r}
    comm = MPI.COMM_WORLD
    if comm.rank in saying:
        time.sleep(saying[comm.rank])
        stops.say_once(f"error: cannot write fields.h5: No space left on device")
    comm.Barrier()
    while any(comm.iprobe(source=MPI.ANY_SOURCE, tag=stops.SAID_TAG) for _ in range(3)):
        comm.recv(source=MPI.ANY_SOURCE, tag=stops.SAID_TAG)
    comm.Barrier()
""")


def said(tmp_path, saying, ranks=2):
    """The lines of stderr of a run of :data:`SCRIPT` on ``ranks`` ranks."""
    proc = subprocess.Popen([str(MPIEXEC), "-n", str(ranks), sys.executable, "-c",
                             SCRIPT.format(saying=saying)], cwd=tmp_path, env=mpi_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, err = communicate(proc, 120, "a rank hung")
    assert proc.returncode == 0, err
    return err.splitlines()


LINE = ["error: cannot write fields.h5: No space left on device"]


@pytest.mark.parametrize("saying", [
    {0: 0.0, 1: 0.0},  # together
    {0: 0.0, 1: 0.3},  # rank 0 first
    {0: 0.3, 1: 0.0},  # rank 1 first: it waits for rank 0's note
    {0: 0.0, 1: 1.5},  # rank 0 first by more than rank 1's wait
    {0: 1.5, 1: 0.0},  # rank 1 first by more than its wait: it says it, rank 0 not again
], ids=["together", "rank 0 first", "rank 1 first", "rank 0 first by 1.5 s",
        "rank 1 first by 1.5 s"])
def test_every_rank_meeting_the_error_says_it_once(tmp_path, saying):
    assert said(tmp_path, saying) == LINE


@pytest.mark.parametrize("rank", [0, 1])
def test_one_rank_meeting_it_alone_says_it(tmp_path, rank):
    assert said(tmp_path, {rank: 0.0}) == LINE


@pytest.mark.parametrize("saying", [
    {1: 0.0, 2: 0.0},          # every rank but 0, together: rank 1 says it after its wait
    {0: 2.5, 1: 0.0, 2: 0.0},  # rank 0 past both waits
    {2: 0.0},                  # one rank alone, after waiting twice rank 1's wait
], ids=["ranks 1 and 2 together", "rank 0 last by 2.5 s", "rank 2 alone"])
def test_three_ranks_say_it_once(tmp_path, saying):
    assert said(tmp_path, saying, ranks=3) == LINE
