"""The tangent assembled into a matrix that shares its values with a DOLFINx CSR matrix
(``ElasticBody.matrix`` on one process) is PETSc's own assembly, bit for bit.

The SDNV105 runs amplify any round-off at their impacts (docs/contact.md), so the faster
insertion must add each cell's contributions in PETSc's order; a direct solver must also
see the new values (it refactorises a matrix whose state changed).
"""

import gc

import numpy as np
import pytest
from fem_checks import block_body
from mpi4py import MPI
from petsc4py import PETSc

from rocking_contact.fem.petsc import CSR_ATTRIBUTE, assemble_matrix_into

pytestmark = pytest.mark.skipif(MPI.COMM_WORLD.size > 1, reason="one process")


def _values(mat: PETSc.Mat) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return mat.getValuesCSR()


def _petsc_copy(body) -> PETSc.Mat:
    out = body.M.duplicate(copy=False)
    out.zeroEntries()
    return out


def _lu(mat: PETSc.Mat) -> PETSc.KSP:
    """A MUMPS LU of ``mat``, as the step solver's."""
    ksp = PETSc.KSP().create(mat.getComm())
    ksp.setOperators(mat)
    ksp.setType("preonly")
    ksp.getPC().setType("lu")
    ksp.getPC().setFactorSolverType("mumps")
    return ksp


@pytest.fixture(scope="module")
def body():
    body = block_body("large_rotation", size=0.05, table=True, rayleigh_stiffness=1e-4,
                      rayleigh_mass=2.0)
    rng = np.random.default_rng(3)
    body.u.x.array[:] = 1e-3 * rng.standard_normal(body.u.x.array.size)
    body.v.x.array[:] = 1e-1 * rng.standard_normal(body.v.x.array.size)
    return body


@pytest.mark.parametrize("cu, cv", [(1.0, 0.0), (0.6, 3.7e-4), (-2.5e3, 1.0)])
def test_shared_tangent_is_petsc_assembly(body, cu, cv):
    shared, plain = body.matrix(), _petsc_copy(body)
    assert shared.getAttr(CSR_ATTRIBUTE) is not None
    assert plain.getAttr(CSR_ATTRIBUTE) is None
    for _ in range(2):  # the second assembly starts from the first one's values
        body.tangent(cu, cv, shared)
        body.tangent(cu, cv, plain)
        (ri, ci, got), (rj, cj, want) = _values(shared), _values(plain)
        assert np.array_equal(ri, rj) and np.array_equal(ci, cj)
        assert got.tobytes() == want.tobytes()
        assert np.any(got != 0.0)
    assert shared.getBlockSize() == body.M.getBlockSize()


def test_shared_matrix_outlives_its_references(body):
    """The arrays stay with the matrix when every Python name of them is gone."""
    shared = body.matrix()
    body.tangent(0.3, 0.0, shared)
    want = _values(shared)[2].copy()
    gc.collect()
    np.zeros(int(shared.getInfo()["nz_used"]) * 4)  # reuse of freed memory would show
    assert _values(shared)[2].tobytes() == want.tobytes()


def test_direct_solver_sees_new_values(body):
    """An LU of the shared matrix is redone after an assembly, as for PETSc's own."""
    shared = body.matrix()
    ksp = _lu(shared)
    b = shared.createVecLeft()
    b.array[:] = np.linspace(-1.0, 1.0, b.getLocalSize())
    solutions = []
    for cu in (1.0, 4.0):
        body.tangent(cu, 0.0, shared)
        shared.axpy(1e6, body.M, PETSc.Mat.Structure.SAME_NONZERO_PATTERN)
        x = b.duplicate()
        ksp.solve(b, x)
        solutions.append(x.array.copy())
        fresh = _petsc_copy(body)
        assemble_matrix_into(body.kinematics._jacobian, fresh)
        fresh.axpy(1e6, body.M, PETSc.Mat.Structure.SAME_NONZERO_PATTERN)
        check = _lu(fresh)
        y = b.duplicate()
        check.solve(b, y)
        assert x.array.tobytes() == y.array.tobytes()
        for obj in (check, fresh, x, y):
            obj.destroy()
    assert not np.array_equal(solutions[0], solutions[1])
    ksp.destroy()


def test_a_compressed_pattern_is_refused(body):
    """zeroRows without MAT_KEEP_NONZERO_PATTERN compresses PETSc's arrays in place: the
    next assembly would write DOLFINx's layout into them (values off by up to 5 on a 3x3
    mesh, unsaid), and is refused instead; with the pattern kept it goes on."""
    kept = body.matrix()
    body.tangent(1.0, 0.0, kept)
    kept.setOption(PETSc.Mat.Option.KEEP_NONZERO_PATTERN, True)
    kept.zeroRows([0, 1], diag=1.0)
    body.tangent(1.0, 0.0, kept)
    compressed = body.matrix()
    body.tangent(1.0, 0.0, compressed)
    compressed.zeroRows([0, 1], diag=1.0)
    with pytest.raises(RuntimeError, match="nonzero pattern changed"):
        body.tangent(1.0, 0.0, compressed)
