"""The block on a shaking table (``sdnv105d_sliding``: mu = 0.2 on a 6 m/s^2 table) on two
ranks: the table frame's drag and the whole base sliding go through the partitioned
assembly and the gathered contact problem as A-D's rocking does not. Serial numbers to
round-off, where the contact ones (tests/contact/test_contact_mpi.py) cover rocking only.

Measured 2026-11-22 to 0.15 s on 2 and 3 ranks: the quantities the case grades (the slide's
start, the base's speed and slide, the friction work) within 3e-14 of the serial run; the
motions along x and the energies within 1e-10 of each column's largest value; the contact
forces at O, A, O1 within 1e-8, what their solve converges to (the contact tolerance,
1e-9 of the weight vector's norm); the vertical motions, round-off themselves (the base
stays down: DY_A at most 4e-12 m), by up to 3e-6 of theirs.
"""

import json
import subprocess
import sys

import numpy as np
import pytest
from test_mpi_tools import MPIEXEC, mpi_env

import rocking_contact as rc
from rocking_contact.results_io import read_history_csv

pytestmark = pytest.mark.mpi

END = 0.05  # the slide starts at 0.0266 s


def test_a_block_sliding_on_a_shaken_table_does_not_depend_on_the_ranks(tmp_path):
    serial = rc.run(rc.load_case("sdnv105d_sliding", {"time.end": END}),
                    out=tmp_path / "serial", plots=False, quiet=True)
    done = subprocess.run([str(MPIEXEC), "-n", "2", sys.executable, "-m",
                           "rocking_contact.cli", "run", "sdnv105d_sliding", "--set",
                           f"time.end={END}", "--out", "mpi", "-q", "--no-plots"],
                          cwd=tmp_path, env=mpi_env(), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads((tmp_path / "mpi" / "results.json").read_text())
    assert data["extra"]["ranks"] == 2 and data["status"] == "completed"
    assert serial.quantities["slide_start"] == pytest.approx(0.02655, abs=1e-4)
    for name in ("slide_start", "vx_O_50ms", "energy.residual.final"):
        assert data["quantities"][name] == pytest.approx(serial.quantities[name], rel=1e-10)
    assert [c["passed"] for c in data["checks"]] == [c["passed"] for c in serial.checks]
    ours = read_history_csv(tmp_path / "mpi" / "history.csv")
    theirs = read_history_csv(tmp_path / "serial" / "history.csv")
    assert list(ours) == list(theirs) and np.array_equal(ours["time"], theirs["time"])
    # energies on the scale of the run's energy (small ones are differences of those)
    energy = np.max(np.abs(theirs["ETOT"]))
    for column, rtol in (("DX_O", 1e-10), ("VX_O", 1e-10), ("DX_A", 1e-10), ("ETABLE", 1e-10),
                         ("EFRICTION", 1e-10), ("ENERGY_RESIDUAL", 1e-10), ("RN_O", 1e-8),
                         ("RX_O", 1e-8), ("RN_A", 1e-8), ("RX_A", 1e-8)):
        scale = energy if column.startswith("E") else np.max(np.abs(theirs[column]))
        assert np.max(np.abs(ours[column] - theirs[column])) <= rtol * scale, column
