"""Collision instants from a kinetic-energy history (post.collisions), without a run."""

import math

import numpy as np

from rocking_contact.config import Reference
from rocking_contact.post.collisions import collision_quantities, find_collisions
from rocking_contact.post.references import compare


def _history(t_end: float):
    """Two energy peaks, at 0.05 s and 0.14 s, sampled every 1 ms up to ``t_end``."""
    t = np.arange(0.0, t_end + 1e-12, 1e-3)
    energy = np.where(t <= 0.05, t / 0.05, np.maximum(0.0, (t - 0.05) / 0.09) * 0.6)
    energy = np.where(t > 0.14, 0.0, energy)
    return {"time": t, "EKIN_BLOCK": energy}


def test_interior_peaks_are_collisions():
    found = find_collisions(_history(0.2), [(0.0, 0.2), (0.10, 0.2)])
    assert [c["interior"] for c in found] == [True, True]
    assert [c["time"] for c in found] == [0.05, 0.14]
    q = collision_quantities(found)
    assert q["collision.2.time"] == 0.14 and math.isclose(q["collision.2.kinetic_energy"], 0.6)


def test_a_run_that_ends_before_an_impact_reports_no_collision_for_it():
    """Shortened to 0.03 s, the first window's maximum is the last sample (energy still
    rising): no collision, and its check says "not computed" instead of grading 0.03 s."""
    found = find_collisions(_history(0.03), [(0.0, 0.33), (0.10, 0.33)])
    assert len(found) == 1 and not found[0]["interior"] and found[0]["time"] == 0.03
    quantities = collision_quantities(found)
    assert quantities == {}
    [check] = compare([Reference(quantity="collision.1.time", value=0.0544098,
                                 source="rigid", tolerance=0.002)], quantities, step=None)
    assert check["passed"] is False and check["note"] == "not computed"


def test_a_window_that_finds_the_previous_collision_again_is_no_collision():
    found = find_collisions(_history(0.2), [(0.0, 0.2), (0.10, 0.2), (0.12, 0.2)])
    assert [c["interior"] for c in found] == [True, True, False]
    assert "collision.3.time" not in collision_quantities(found)
