"""A full disk that every rank of a 2-rank run meets (fields.h5, which every rank writes)
is said once: each rank said 'error: cannot write ...', two lines. stops.say_once: rank 0
says it and notes so to the others; another rank says it only if rank 0 did not meet it."""

import subprocess
import sys
import textwrap

import pytest
from test_mpi_tools import MPIEXEC, communicate, mpi_env

pytestmark = pytest.mark.mpi

#: each rank in ``saying`` says the line, after its delay (s): ranks meet the error at
#: their own moment
SCRIPT = textwrap.dedent("""
    import sys, time
    from mpi4py import MPI
    from rocking_contact import stops
    saying = {saying!r}
    rank = MPI.COMM_WORLD.rank
    if rank in saying:
        time.sleep(saying[rank])
        stops.say_once(f"error: cannot write fields.h5: No space left on device")
    MPI.COMM_WORLD.Barrier()
""")


def said(tmp_path, saying):
    """The lines of stderr of a 2-rank run of :data:`SCRIPT`."""
    proc = subprocess.Popen([str(MPIEXEC), "-n", "2", sys.executable, "-c",
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
], ids=["together", "rank 0 first", "rank 1 first"])
def test_every_rank_meeting_the_error_says_it_once(tmp_path, saying):
    assert said(tmp_path, saying) == LINE


@pytest.mark.parametrize("rank", [0, 1])
def test_one_rank_meeting_it_alone_says_it(tmp_path, rank):
    assert said(tmp_path, {rank: 0.0}) == LINE
