"""A full disk that every rank of a 2-rank run meets at once (fields.h5, which every rank
writes) is said in one line by the command line (cli's full-disk branch through
stops.say_once, b0c81d0): each rank printed 'error: cannot write fields.h5: ...', two
lines. Every rank's third history row raises the ENOSPC that writing fields.h5 would."""

import subprocess
import sys
import textwrap

import pytest
from test_mpi_tools import MPIEXEC, communicate, mpi_env

pytestmark = pytest.mark.mpi

SCRIPT = textwrap.dedent("""
    import errno, sys
    from rocking_contact import results_io
    from rocking_contact import cli
    append = results_io.History.append
    def full(self, row):
        if len(self.rows) == 2:
            raise OSError(errno.ENOSPC, "No space left on device", "fields.h5")
        append(self, row)
    results_io.History.append = full
    sys.exit(cli.main(["run", "sdnv105a", "--set", "time.end=0.002", "--quiet",
                       "--no-plots", "--out", {out!r}]))
""")


def test_a_full_disk_on_every_rank_is_said_once(tmp_path):
    proc = subprocess.Popen([str(MPIEXEC), "-n", "2", sys.executable, "-c",
                             SCRIPT.format(out=str(tmp_path / "r"))], cwd=tmp_path,
                            env=mpi_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    _, err = communicate(proc, 240, "a rank hung after the full disk")
    assert proc.returncode == 1, err
    said = [line for line in err.splitlines() if line.startswith("error: ")]
    assert said == ["error: cannot write fields.h5: No space left on device"], err
    assert "Traceback" not in err
