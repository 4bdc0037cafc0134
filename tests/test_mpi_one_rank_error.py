"""An error on one rank of a 2-rank run ends every rank: the others used to wait for it in
their next collective call, and ``mpiexec`` never returned, past SIGTERM too.

Rank 0 alone writes ``history.csv`` as the run goes: a full disk there (``/dev/full`` in
place of the file) is said in one line naming the file, and mpiexec exits with code 1; so
does an uncaught error (a bug) on rank 0 alone, with its traceback, and a second signal
sent to one rank alone (exit code 143 for SIGTERM).
"""

import os
import signal
import subprocess
import sys
import textwrap
import time
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
        from rocking_contact import results_io
        from rocking_contact import cli
        append = results_io.History.append
        def broken(self, row):
            if os.environ.get("PMI_RANK") == "0" and len(self.rows) == 2:
                raise RuntimeError("a bug on rank 0")
            append(self, row)
        results_io.History.append = broken
        sys.exit(cli.main({RUN + ["--out", str(tmp_path / "bug")]!r}))
    """)
    code, err = under_mpiexec(tmp_path, sys.executable, "-c", script)
    assert code == 1, err
    assert err.count("RuntimeError: a bug on rank 0") == 1, err


def _rank_pid(marker, rank):
    """The pid of the process whose command line holds ``marker`` and whose mpiexec rank
    is ``rank`` (from /proc), None while there is none."""
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes()
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:  # not a process, or gone
            continue
        if marker.encode() in command and f"PMI_RANK={rank}".encode() in environ:
            return int(entry.name)
    return None


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="no /proc")
def test_two_signals_to_one_rank_alone_end_both_ranks(tmp_path):
    """A second SIGTERM to rank 1 alone (kill on its pid) raised KeyboardInterrupt on that
    rank only: it left with exit code 143 while rank 0 waited for it, until SIGKILL."""
    out = tmp_path / "two_signals"
    proc = subprocess.Popen([str(MPIEXEC), "-n", "2", sys.executable, "-m",
                             "rocking_contact.cli", "run", "sdnv105a", "--set", "time.end=0.05",
                             "--quiet", "--no-plots", "--out", str(out)], cwd=tmp_path,
                            env=mpi_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + 120
    while not (out / "history.csv").is_file() and time.monotonic() < deadline:
        time.sleep(0.01)  # the ranks step: rank 0 streams the history
    pid = _rank_pid(str(out), 1)
    assert pid is not None and proc.poll() is None
    os.kill(pid, signal.SIGTERM)
    time.sleep(0.05)
    os.kill(pid, signal.SIGTERM)
    _, err = communicate(proc, 120, "rank 0 hung after rank 1 left")
    assert proc.returncode == 143, err
