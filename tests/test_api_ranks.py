"""A script under ``mpiexec`` prints once with ``rc.mpi_rank()``: every rank runs the
script, so its own ``print`` ran on each (README's ``print(rc.format_table(result))`` came
twice, the lines of two ranks interleaved), and the package named no rank helper (only
``rocking_contact.api.mpi_rank``; M1, 2026-11-24)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import rocking_contact as rc

MPIEXEC = Path(sys.executable).parent / "mpiexec"

#: what README and docs/outputs.md advise, around a run of every rank
SCRIPT = """
from pathlib import Path
import rocking_contact as rc

result = rc.run("sdnd101a", out="d", quiet=True, plots=False)
Path(f"rank{rc.mpi_rank()}").write_text(result.status)
if rc.mpi_rank() == 0:
    print(rc.format_table(result))
"""


def test_the_rank_is_a_public_name():
    assert "mpi_rank" in rc.__all__ and "mpi_rank" in dir(rc)
    assert rc.mpi_rank() == 0  # no mpiexec
    assert "rc.mpi_rank() == 0" in rc.__doc__


@pytest.mark.mpi
def test_a_script_under_mpiexec_prints_once(tmp_path):
    env = dict(os.environ, OMP_NUM_THREADS="1", MPIR_CVAR_POLLS_BEFORE_YIELD="1")
    done = subprocess.run([str(MPIEXEC), "-n", "2", sys.executable, "-c", SCRIPT],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    serial = rc.format_table(rc.run("sdnd101a", write=False, quiet=True))
    assert done.stdout == serial + "\n"
    assert [(tmp_path / f"rank{r}").read_text() for r in (0, 1)] == ["completed"] * 2
