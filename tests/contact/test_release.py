"""The release of SDNV105's block (Lagrange A, continuous C, Moreau-Jean D): the table
carries the block's weight before it, as in Code_Aster's preload (fem/preload.load_table),
so that the contact takes over from a static equilibrium of both bodies."""

import numpy as np
import pytest

import rocking_contact as rc

WEIGHT = 1450.0 * 0.36 * 0.80 * 1.0 * 9.81  # M g (N): density, 2b, 2l, thickness, gravity


def _history(name, overrides, tmp_path):
    case = rc.load_case(name, {**overrides, "collisions.windows": [], "reference": [],
                               "quantity": []})
    return rc.run(case, out=tmp_path, plots=False, quiet=True).history


@pytest.mark.parametrize("name", ["sdnv105a", "sdnv105c"])
def test_a_block_released_flat_stays_at_rest(name, tmp_path):
    """Tilt 0: the base's contacts start with the preload's reactions and keep them (before
    the table was loaded, RN_O started at 336 N and rang between 650 and 1273 N about its
    static 900 N)."""
    h = _history(name, {"preload.tilt": 0.0, "time.end": 5e-4}, tmp_path)
    rn = h["RN_O"]
    assert np.all(h["CONTACTS"] == 5)
    assert np.max(np.abs(rn - rn[0])) <= 0.01 * rn[0], (rn.min(), rn.max())
    assert np.max(np.abs(h["VY_C1"])) < 1e-6


def test_the_release_starts_from_the_static_reaction_without_ringing(tmp_path):
    """At the release O carries the whole weight (the supports' reaction), then its force
    falls towards the rocking block's pivot reaction (3579 N) and never rises above the
    static one (before the table was loaded: 1989 N at t = 0, then 5389 N)."""
    h = _history("sdnv105a", {"time.end": 1e-3}, tmp_path)
    rn = h["RN_O"]
    assert rn[0] == pytest.approx(WEIGHT, rel=1e-4)
    assert np.max(rn) == rn[0]
    assert np.all(rn[1:] < rn[0]) and 3500.0 < rn[-1] < 3650.0
