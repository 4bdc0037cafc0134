"""The theta treatment's faster pieces give bit for bit what they replace.

The SDNV105 runs amplify any round-off at their impacts (docs/contact.md), so the step's
relation ``H`` without the prescribed columns must be the matrix, entry order included,
that ``H @ diag(keep)`` gave: ``H @ v`` sums each row in its stored order.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from rocking_contact.contact.kinematics import without_columns


def _product(H, columns):
    keep = np.ones(H.shape[1])
    keep[columns] = 0.0
    return (H @ sp.diags(keep)).tocsr()


def _same(a, b):
    return (a.shape == b.shape and a.indptr.dtype == b.indptr.dtype
            and a.indices.dtype == b.indices.dtype and np.array_equal(a.indptr, b.indptr)
            and np.array_equal(a.indices, b.indices) and a.data.tobytes() == b.data.tobytes())


@pytest.mark.parametrize("seed", range(5))
def test_without_columns_is_the_product(seed):
    """Random rows picked from a canonical matrix, with explicit zeros, -0.0 and NaN."""
    rng = np.random.default_rng(seed)
    for _ in range(200):
        m, n = int(rng.integers(1, 12)), int(rng.integers(1, 40))
        dense = rng.standard_normal((m, n)) * (rng.random((m, n)) < 0.3)
        dense[rng.random((m, n)) < 0.05] = np.nan
        full = sp.csr_matrix(dense)
        data = np.where(rng.random(full.nnz) < 0.1, rng.choice([0.0, -0.0]), full.data)
        full = sp.csr_matrix((data, full.indices, full.indptr), shape=full.shape)
        H = full[rng.integers(0, m, int(rng.integers(1, m + 1)))].tocsr()
        columns = rng.integers(0, n, int(rng.integers(1, n + 1)))
        assert _same(without_columns(H, columns), _product(H, columns))


def test_without_columns_keeps_the_sums():
    """``H @ v`` of both matrices: the same bits (the rows' order of summation)."""
    rng = np.random.default_rng(7)
    H = sp.random(16, 1928, density=0.004, random_state=8, format="csr")
    columns = np.arange(1800, 1928)
    v = rng.standard_normal(1928) * 10.0 ** rng.integers(-8, 8, 1928)
    got, want = without_columns(H, columns), _product(H, columns)
    assert (got @ v).tobytes() == (want @ v).tobytes()
    assert not np.any(got[:, columns].toarray())


def test_without_columns_of_a_repeated_column_is_the_product():
    """A row holding a column twice (not canonical) is left to the product itself."""
    H = sp.csr_matrix((np.array([1.0, 2.0, 3.0]), np.array([2, 2, 0]), np.array([0, 2, 3])),
                      shape=(2, 4))
    assert _same(without_columns(H, np.array([1])), _product(H, np.array([1])))
