"""An error on one rank of a 2-rank run ends every rank: the others used to wait for it in
their next collective call, and ``mpiexec`` never returned, past SIGTERM too.

Rank 0 alone writes ``history.csv`` as the run goes: a full disk there (``/dev/full`` in
place of the file) is said in one line naming the file, and mpiexec exits with code 1; so
does an uncaught error (a bug) on rank 0 alone, with its traceback.
"""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_mpi_tools import MPIEXEC, communicate, mpi_env

pytestmark = pytest.mark.mpi

RUN = ["run", "sdnv105a", "--set", "time.end=0.002", "--quiet", "--no-plots"]


def under_mpiexec(cwd, *command):
    """``mpiexec -n 2 COMMAND`` from ``cwd``: (exit code, stderr); a hung rank fails the
    test and is killed with mpiexec."""
    proc = subprocess.Popen([str(MPIEXEC), "-n", "2", *command], cwd=cwd, env=mpi_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, err = communicate(proc, 240, "a rank hung after the other's error")
    return proc.returncode, err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_a_full_disk_on_rank_0_ends_both_ranks(tmp_path):
    out = tmp_path / "full"
    out.mkdir()
    (out / "history.csv").symlink_to("/dev/full")  # every write: No space left on device
    code, err = under_mpiexec(tmp_path, sys.executable, "-m", "rocking_contact.cli", *RUN,
                              "--out", str(out))
    assert code == 1, err
    said = [line for line in err.splitlines() if line.startswith("error: ")]
    assert said == [f"error: cannot write {out / 'history.csv'}: No space left on device"]
    assert "Traceback" not in err


def test_an_error_on_rank_0_alone_ends_both_ranks(tmp_path):
    # a bug on rank 0 alone, as its third history row is appended (the steps under way)
    script = textwrap.dedent(f"""
        import os, sys
        from rocking_contact.solvers import history
        from rocking_contact import cli
        append = history.History.append
        def broken(self, row):
            if os.environ.get("PMI_RANK") == "0" and len(self.rows) == 2:
                raise RuntimeError("a bug on rank 0")
            append(self, row)
        history.History.append = broken
        sys.exit(cli.main({RUN + ["--out", str(tmp_path / "bug")]!r}))
    """)
    code, err = under_mpiexec(tmp_path, sys.executable, "-c", script)
    assert code == 1, err
    assert err.count("RuntimeError: a bug on rank 0") == 1, err
