"""The vectorised contact geometry gives bit for bit what one contact at a time gives.

The SDNV105 A and C runs amplify any round-off at their impacts (docs/contact.md, "Parallel
layout"), so a faster ``ContactKinematics.geometry`` must keep every bit: it is checked
here against a per-contact evaluation of the same formulas (node normal, gap, rows of H),
on the Code_Aster mesh (node-to-node and node-to-segment pairs) and on the 0.02 m mesh.
"""

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.contact.kinematics import (
    ContactKinematics,
    Pairing,
    _project,
    _segment_frames,
)
from rocking_contact.fem import runner


def _one_by_one(kin, geometry, u):
    """Normal, gap and H rows of each paired contact from its own pairing, one at a time."""
    ns, nm = len(kin.slave), len(kin.master)
    us, um = u[:2 * ns].reshape(ns, 2), u[2 * ns:].reshape(nm, 2)
    xm = kin.master.X + um if kin.large_rotation else kin.master.X
    normal = np.zeros((ns, 2))
    normal[:, 1] = 1.0
    gap = np.full(ns, np.inf)
    H = np.zeros((2 * ns, 2 * (ns + nm)))
    for i in np.flatnonzero(geometry.pairing).tolist():
        m, w = geometry.masters[i], geometry.weights[i]
        if geometry.pairing[i] == Pairing.NODE_TO_NODE:
            segments = [k for k in (m[0] - 1, m[0]) if 0 <= k < nm - 1]
            n = sum(_segment_normal(xm, k) for k in segments)
            normal[i] = n / np.hypot(*n)
            offset = np.zeros(2)
        else:
            normal[i] = _segment_normal(xm, m[0])
            offset = kin.slave.X[i] - w[0] * kin.master.X[m[0]] - w[1] * kin.master.X[m[1]]
        gap[i] = normal[i] @ (offset + us[i] - w[0] * um[m[0]] - w[1] * um[m[1]])
        tangent = np.array([normal[i, 1], -normal[i, 0]])
        for r, e in ((2 * i, normal[i]), (2 * i + 1, tangent)):
            H[r, 2 * i:2 * i + 2] = e
            for mk, wk in zip(m, w):
                if wk != 0.0:
                    H[r, 2 * (ns + mk):2 * (ns + mk) + 2] -= wk * e
    return normal, gap, H


def _segment_normal(xm, k):
    d = xm[k + 1] - xm[k]
    t = d / np.hypot(d[0], d[1])
    return np.array([-t[1], t[0]])


@pytest.mark.parametrize("case", ["sdnv105a", "sdnv105a_fine"])
@pytest.mark.parametrize("large_rotation", [True, False])
def test_geometry_is_the_per_contact_evaluation_to_the_bit(case, large_rotation):
    body = runner.build_body(rc.load_case(case))
    kin = ContactKinematics(body, large_rotation=large_rotation)
    rng = np.random.default_rng(7)
    pairings = set()
    for _ in range(50):
        u = 10.0 ** rng.uniform(-9, -3) * rng.standard_normal(kin.n_dofs)
        g = kin.geometry(u)
        normal, gap, H = _one_by_one(kin, g, u)
        assert np.array_equal(g.normal, normal)
        assert np.array_equal(g.gap, gap)
        assert np.array_equal(g.H, H)
        assert np.array_equal(g.tangent[:, 0], g.normal[:, 1])
        pairings |= set(g.pairing.tolist())
    expected = {Pairing.NODE_TO_NODE, Pairing.NODE_TO_SEGMENT} if case == "sdnv105a" else {
        Pairing.NODE_TO_NODE}
    assert pairings == expected


def _vectorised_projection(xs, xm, seg_t, lengths):
    """The projection as numpy computed it on all points and segments at once (the form
    ``_project`` replaced by Python floats, the same IEEE operations)."""
    d = xs[:, None, :] - xm[None, :-1, :]
    xi = np.vecdot(d, seg_t) / lengths
    distance = np.abs(seg_t[:, 0] * d[..., 1] - seg_t[:, 1] * d[..., 0])
    within = (xi >= -1e-12) & (xi <= 1.0 + 1e-12) & (distance < np.inf)
    nearest = np.where(within, distance, np.inf).argmin(axis=1).tolist()
    return [(k, min(max(float(xi[i, k]), 0.0), 1.0)) if within[i, k] else None
            for i, k in enumerate(nearest)]


def test_projection_is_the_vectorised_one_to_the_bit():
    """Nearest segment and parameter of each point, on polylines with points outside them,
    on their nodes (two segments equally near: the first wins) and on their ends (xi of
    -0.0 or 1 + round-off, clipped)."""
    rng = np.random.default_rng(11)
    found = set()
    for _ in range(3000):
        xm = np.cumsum(rng.standard_normal((5, 2)), axis=0)
        xs = 3.0 * rng.standard_normal((4, 2))
        xs[0] = xm[rng.integers(5)]
        xs[1] = xm[0] + 1e-13 * rng.standard_normal(2)
        seg_t, _, lengths = _segment_frames(xm)
        got = _project(xs, xm, seg_t, lengths)
        assert repr(got) == repr(_vectorised_projection(xs, xm, seg_t, lengths))
        found |= {None if p is None else p[1] in (0.0, 1.0) for p in got}
    assert found == {None, True, False}  # outside, at an end, inside
