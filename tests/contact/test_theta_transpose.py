"""The theta treatment's ``H^T p`` and dense ``H^T`` without a transpose: scipy's sums,
bit for bit."""

import numpy as np
import scipy.sparse as sp

from rocking_contact.contact.theta import dense_transpose, transpose_times


def random_operators(seed, count):
    """``(H, rows, rng)``: sparse matrices whose entries span 16 decades (so that the order
    of the sums shows in their rounding), a fifth of them -0.0, with each entry's row."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        m, n = int(rng.integers(1, 12)), int(rng.integers(1, 40))
        H = sp.random(m, n, density=0.4, random_state=rng, format="csr")
        H.data = rng.standard_normal(H.nnz) * 10.0 ** rng.integers(-8, 8, H.nnz)
        H.data[rng.random(H.nnz) < 0.2] = -0.0  # an explicit -0.0 becomes 0.0 + -0.0
        yield H, np.repeat(np.arange(m), np.diff(H.indptr)), rng


def same_bits(a, b):
    return np.array_equal(a.view(np.uint64), b.view(np.uint64))


def test_transpose_times_has_the_bits_of_scipys_transpose_product():
    for H, rows, rng in random_operators(29, 300):
        p = rng.standard_normal(H.shape[0]) * 10.0 ** rng.integers(-5, 5, H.shape[0])
        p[rng.random(H.shape[0]) < 0.2] = -0.0
        assert same_bits(transpose_times(H, rows, p), H.T @ p)


def test_dense_transpose_has_the_bits_of_scipys_toarray():
    for H, rows, _ in random_operators(30, 100):
        assert same_bits(dense_transpose(H, rows), H.T.toarray())
    # a repeated entry (not canonical) is summed in storage order, as toarray sums it
    H = sp.csr_matrix((np.array([1e16, 1.0, -1e16]), np.array([2, 2, 2]), np.array([0, 3])),
                      shape=(1, 4))
    assert same_bits(dense_transpose(H, np.zeros(3, dtype=np.int64)), H.T.toarray())
