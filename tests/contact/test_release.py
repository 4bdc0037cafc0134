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


def test_without_friction_a_block_at_rest_counts_no_sliding_contact(tmp_path):
    """mu = 0 puts every pressed contact on the Coulomb cone: SLIDING counts those that
    move. D's flat block at rest: its base's ringing after the release (corners at 1e-8 m/s
    in the first steps, the middle O1 at 1e-19 m/s) dies away, and once the corners are
    below 1e-12 m/s (a slip of 1e-16 m a step) none slides (were all 5 from the first step
    on, O1 too); A's released state has none (was 5: the acceleration-level set)."""
    d = _history("sdnv105d", {"preload.tilt": 0.0, "contact.mu": 0.0, "time.end": 0.005},
                 tmp_path / "d")
    assert np.all(d["CONTACTS"] == 5)
    assert np.all(d["SLIDING"][1:] <= 4)  # O1 stays still
    still = np.maximum(np.abs(d["VX_O"]), np.abs(d["VX_A"])) < 1e-12
    assert still[-10:].all() and np.all(d["SLIDING"][still] == 0)
    a = _history("sdnv105a", {"preload.tilt": 0.0, "contact.mu": 0.0, "time.end": 1e-5},
                 tmp_path / "a")
    assert a["CONTACTS"][0] == 5 and a["SLIDING"][0] == 0


def test_an_unconverged_release_fails_the_run_saying_where(tmp_path, monkeypatch):
    """A release whose acceleration-level solve does not converge would start the block
    from a wrong acceleration: the run fails, in one line, at the release with its
    residual (the solve is made to report no convergence here: SDNV105's converges at once
    even with contact.local_iterations = 1)."""
    from dataclasses import replace

    from rocking_contact.contact import condensed
    from rocking_contact.stops import SolverFailure

    solved = condensed.solve_active_set
    monkeypatch.setattr(condensed, "solve_active_set", lambda *args, **kwargs: replace(
        solved(*args, **kwargs), converged=False, residual=0.125))
    with pytest.raises(SolverFailure, match=r"the release at t = 0 s: the forces of the 1 "
                       r"closed contact \(the acceleration on W = H M\^-1 H\^T\) did not "
                       r"converge: max \|Phi\| = 1\.250e-01 N after \d+ iterations"):
        _history("sdnv105a", {"time.end": 1e-5}, tmp_path)
