"""The verification problems and a shipped case under mpiexec -n 2 and 3: serial results
to 1e-10 relative (gathered on rank 0, written by rank 0 only)."""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import fem_checks as checks
import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.results_io import read_history_csv

pytestmark = pytest.mark.mpi

MPIEXEC = Path(sys.executable).parent / "mpiexec"
SCRIPT = Path(checks.__file__)
RTOL = 1e-10


def _mpirun(n, *args, cwd):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    run = subprocess.run([str(MPIEXEC), "-n", str(n), sys.executable, *args], cwd=cwd,
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    return run


def _flatten(tree, prefix=""):
    if isinstance(tree, dict):
        out = {}
        for key, value in tree.items():
            out.update(_flatten(value, f"{prefix}{key}."))
        return out
    if isinstance(tree, list):
        return {f"{prefix}{i}": float(v) for i, v in enumerate(tree)}
    return {prefix.rstrip("."): float(tree)}


@pytest.fixture(scope="module")
def serial():
    return _flatten(json.loads(json.dumps(checks.all_checks(), default=float)))


@pytest.mark.parametrize("ranks", [2, 3])
def test_verification_numbers_do_not_depend_on_ranks(serial, ranks, tmp_path):
    out = tmp_path / "checks.json"
    _mpirun(ranks, str(SCRIPT), str(out), cwd=tmp_path)
    parallel = _flatten(json.loads(out.read_text()))
    assert parallel.keys() == serial.keys()
    worst = max(abs(parallel[k] - serial[k]) / max(abs(serial[k]), 1e-300) for k in serial)
    print(f"\n{ranks} ranks: largest relative difference {worst:.2e} over {len(serial)} numbers")
    for key, value in serial.items():
        assert math.isclose(parallel[key], value, rel_tol=RTOL, abs_tol=1e-300), (
            key, value, parallel[key])


def test_shipped_case_on_two_ranks(tmp_path):
    """sdnv105_preload: history, written by rank 0, equal to the serial one."""
    result = rc.run(rc.load_case("sdnv105_preload"), out=tmp_path / "serial", plots=False,
                    quiet=True)
    assert result.passed
    _mpirun(2, "-m", "rocking_contact.cli", "run", "sdnv105_preload", "--out",
            str(tmp_path / "mpi"), "--no-plots", "--quiet", cwd=tmp_path)
    a = read_history_csv(tmp_path / "serial" / "history.csv")
    b = read_history_csv(tmp_path / "mpi" / "history.csv")
    assert a.keys() == b.keys() and len(a["time"]) == len(b["time"])
    # Energies (E*) are compared on the scale of the run's energy: small ones (elastic,
    # dissipated) are differences of numbers of that size.
    energy = np.max(np.abs(a["EPOT_GRAV"]))
    for name in a:
        scale = max(np.max(np.abs(a[name])), energy if name.startswith("E") else 0.0)
        if scale > 0:
            assert np.max(np.abs(a[name] - b[name])) <= RTOL * scale, name
    data = json.loads((tmp_path / "mpi" / "results.json").read_text())
    assert data["extra"]["ranks"] == 2 and data["status"] == "completed"
    assert (tmp_path / "mpi" / "fields.pvd").exists()
