"""Contact kinematics on the Code_Aster mesh: pairing, gaps, H, the parallel views of H."""

import numpy as np
import pytest
from mpi4py import MPI

import rocking_contact as rc
from rocking_contact.contact.kinematics import ContactKinematics, OwnedDofsRelation, Pairing
from rocking_contact.fem import runner
from rocking_contact.geometry.layout import BLOCK, TABLE


@pytest.fixture(scope="module")
def body():
    return runner.build_body(rc.load_case("sdnv105a"))


def _field(body, region, fn):
    """A local dof array: fn(x, y) -> (ux, uy) on the nodes of a region, zero elsewhere."""
    u = np.zeros(len(body.u.x.array))
    X = body.V.tabulate_dof_coordinates()
    for c in (0, 1):
        dofs = body.block_mesh.dofs(body.V, region, c)
        u[dofs] = fn(X[dofs // 2, 0], X[dofs // 2, 1])[c]
    return u


def test_pairing_of_the_code_aster_mesh(body):
    kin = ContactKinematics(body)
    assert np.allclose(kin.slave.X[:, 0], [0.0, 0.16, 0.18, 0.20, 0.36])
    assert kin.named == {"O": 0, "O1": 2, "A": 4}
    g = kin.geometry(np.zeros(kin.n_dofs))
    assert list(g.pairing) == [Pairing.NODE_TO_NODE, Pairing.NODE_TO_SEGMENT,
                               Pairing.NODE_TO_NODE, Pairing.NODE_TO_SEGMENT,
                               Pairing.NODE_TO_NODE]
    # B1 (x = 0.16) lies 8/9 of the way along the table segment [0, 0.18].
    assert g.weights[1] == pytest.approx([1 / 9, 8 / 9], rel=1e-12)
    assert np.all(g.gap[[0, 2, 4]] == 0.0)  # coincident nodes: exactly closed
    assert np.all(np.abs(g.gap) <= 1e-15)  # the mesh's coordinates carry 1e-17 m of round-off
    assert np.allclose(g.normal, [0.0, 1.0]) and np.allclose(g.tangent, [1.0, 0.0])


@pytest.mark.parametrize("large_rotation", [True, False])
def test_h_gives_gaps_and_slips_of_translations(body, large_rotation):
    kin = ContactKinematics(body, large_rotation=large_rotation)
    lift = _field(body, BLOCK, lambda x, y: (3e-4 + 0 * x, 2e-4 + 0 * x))
    sink = _field(body, TABLE, lambda x, y: (0 * x, -1e-4 + 0 * x))
    for u, gap, slip in ((lift, 2e-4, 3e-4), (sink, 1e-4, 0.0)):
        values = kin.values(u)
        g = kin.geometry(values)
        assert g.gap == pytest.approx(np.full(5, gap), abs=1e-15)
        q = g.H @ values
        assert q[0::2] == pytest.approx(np.full(5, gap), abs=1e-15)
        assert q[1::2] == pytest.approx(np.full(5, slip), abs=1e-15)


def test_large_rotation_updates_the_projection_small_strain_keeps_it(body):
    theta = 0.01  # rigid rotation of the block about O
    c, s = np.cos(theta), np.sin(theta)
    u = _field(body, BLOCK, lambda x, y: (c * x - s * y - x, s * x + c * y - y))
    for large, xi in ((True, 0.16 * c / 0.18), (False, 0.16 / 0.18)):
        kin = ContactKinematics(body, large_rotation=large)
        g = kin.geometry(kin.values(u))
        assert g.weights[1, 1] == pytest.approx(xi, rel=1e-12)
        assert g.gap[4] == pytest.approx(0.36 * s, rel=1e-12)  # A lifted by 2 b sin(theta)


def test_parallel_views_of_h_agree(body):
    kin = ContactKinematics(body)
    u = _field(body, BLOCK, lambda x, y: (1e-4 * y, 1e-3 * x))
    values = kin.values(u)
    H = kin.geometry(values).H
    relation = OwnedDofsRelation(kin, body.n_owned)
    local = relation.operator(u) @ u[:body.n_owned]
    total = body.comm.allreduce(local, op=MPI.SUM)
    assert total == pytest.approx(H @ values, abs=1e-15)
    assert relation.gaps(u) == pytest.approx(kin.geometry(values).gap)
    assert relation.contact_at("A") == 4 and relation.contact_at("C1") is None
    mat = kin.petsc_operator(kin.geometry(values), body)
    y = mat.createVecLeft()
    x = body.vector()
    x.array[:] = u[:body.n_owned]
    mat.mult(x, y)
    gathered = np.concatenate(body.comm.allgather(y.array))
    # rows of the distributed H come in the order of the ranks owning the contacts
    order = np.argsort(kin.owner, kind="stable")
    expected = (H @ values).reshape(-1, 2)[order].ravel()
    assert gathered == pytest.approx(expected, abs=1e-15)
    mat.destroy()


def test_normal_tangential_rows_interleave_the_rows_of_each_contact():
    from rocking_contact.contact.components import normal_tangential_rows

    assert normal_tangential_rows(np.array([0, 3, 4])).tolist() == [0, 1, 6, 7, 8, 9]
    assert normal_tangential_rows(np.zeros(0, dtype=np.int64)).shape == (0,)


def test_add_forces_of_several_columns_is_each_column_added(body):
    """``add_forces`` of a (contact dofs, k) array adds each column as a vector would."""
    kin = ContactKinematics(body)
    rng = np.random.default_rng(5)
    forces = rng.standard_normal((kin.n_dofs, 3))
    together = rng.standard_normal((body.n_owned, 3))
    apart = together.copy()
    kin.add_forces(forces, together, -2.0)
    for j in range(3):
        column = apart[:, j].copy()
        kin.add_forces(forces[:, j], column, -2.0)
        apart[:, j] = column
    assert np.array_equal(together, apart)


@pytest.mark.parametrize("contacts", [[0, 1, 2, 3, 4], [4], [3, 0], [2]])
def test_operator_of_some_rows_is_the_rows_of_the_operator(body, contacts):
    """``operator(u, geometry, rows)``: the matrix scipy's row indexing of the whole H
    gives (entries, their order, the products), without the indexing."""
    kin = ContactKinematics(body)
    relation = OwnedDofsRelation(kin, body.n_owned)
    u = _field(body, BLOCK, lambda x, y: (2e-3 * y - 1e-4, 7e-3 * x - 1e-3))
    geometry = relation.geometry(u)
    rows = np.ravel([[2 * c, 2 * c + 1] for c in contacts])
    whole = relation.operator(u, geometry)[rows].tocsr()
    some = relation.operator(u, geometry, rows)
    assert some.shape == whole.shape
    for name in ("data", "indices", "indptr"):
        assert np.array_equal(getattr(some, name), getattr(whole, name))
    v = np.random.default_rng(5).standard_normal(body.n_owned)
    assert (some @ v).tobytes() == (whole @ v).tobytes()
