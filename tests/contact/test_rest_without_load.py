"""A block at rest with no load at all (no gravity, the table still): Newton meets its
tolerance at the initial guess and takes no iteration, so no Jacobian was factorised when
the theta treatment asked for its Delassus columns; MUMPS refused the solve
(INFOG(1)=-3) and the run ended in a PETSc traceback (U1's block, X1's report)."""

import numpy as np

import rocking_contact as rc


def test_a_block_at_rest_without_load_stays_at_rest():
    case = rc.load_case("sdnv105d_shaking", {"loading.gravity": 0.0,
                                             "loading.table_acceleration_x.amplitude": 0.0,
                                             "time.end": 0.001})
    result = rc.run(case, write=False, plots=False, quiet=True)
    assert result.status == "completed"
    assert len(result.history["time"]) == 11
    assert np.abs(result.history["DY_A"]).max() < 1e-12  # m: nothing moves it
