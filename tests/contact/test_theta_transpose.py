"""The theta treatment's ``H^T p`` and dense ``H^T`` without a transpose: scipy's sums,
bit for bit."""

import numpy as np
import scipy.sparse as sp

from rocking_contact.contact.theta import dense_transpose, transpose_times


def test_transpose_times_has_the_bits_of_scipys_transpose_product():
    rng = np.random.default_rng(29)
    for _ in range(300):
        m, n = int(rng.integers(1, 12)), int(rng.integers(1, 40))
        H = sp.random(m, n, density=0.4, random_state=rng, format="csr")
        # magnitudes over 16 decades, so that the order of the sums shows in their rounding
        H.data = rng.standard_normal(H.nnz) * 10.0 ** rng.integers(-8, 8, H.nnz)
        p = rng.standard_normal(m) * 10.0 ** rng.integers(-5, 5, m)
        p[rng.random(m) < 0.2] = -0.0  # 0.0 + -0.0 is 0.0 in both
        rows = np.repeat(np.arange(m), np.diff(H.indptr))
        expected = H.T @ p
        got = transpose_times(H, rows, p)
        assert np.array_equal(got.view(np.uint64), expected.view(np.uint64))


def test_dense_transpose_has_the_bits_of_scipys_toarray():
    rng = np.random.default_rng(30)
    for _ in range(100):
        m, n = int(rng.integers(1, 12)), int(rng.integers(1, 40))
        H = sp.random(m, n, density=0.4, random_state=rng, format="csr")
        H.data = rng.standard_normal(H.nnz) * 10.0 ** rng.integers(-8, 8, H.nnz)
        H.data[rng.random(H.nnz) < 0.2] = -0.0  # an explicit -0.0 becomes 0.0 + -0.0
        rows = np.repeat(np.arange(m), np.diff(H.indptr))
        expected = H.T.toarray()
        got = dense_transpose(H, rows)
        assert np.array_equal(got.view(np.uint64), expected.view(np.uint64))
    # a repeated entry (not canonical) is summed in storage order, as toarray sums it
    H = sp.csr_matrix((np.array([1e16, 1.0, -1e16]), np.array([2, 2, 2]), np.array([0, 3])),
                      shape=(1, 4))
    rows = np.zeros(3, dtype=np.int64)
    assert np.array_equal(dense_transpose(H, rows).view(np.uint64),
                          H.T.toarray().view(np.uint64))
