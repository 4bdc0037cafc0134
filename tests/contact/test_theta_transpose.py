"""The theta treatment's ``H^T p`` without a transpose: scipy's sums, bit for bit."""

import numpy as np
import scipy.sparse as sp

from rocking_contact.contact.theta import transpose_times


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
