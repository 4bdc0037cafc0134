"""A base that sinks into the table is reported (audit s25 #1): a user's tall block with
theta steps of 0.05 s ended with its corner 2.4 mm inside the table and 55 % more kinetic
energy than it was released with, and the run said "completed", without a warning."""

from pathlib import Path

import numpy as np
import pytest
from own_block import tall_block

import rocking_contact as rc
from rocking_contact.post.penetration import DEPTH_WARNING, deepest, penetration_warning

BASE = ["O", "O1", "A"]


def rows(gap, dy_a):
    """History rows of the smallest gap and of corner A's lift, 1 ms apart (m)."""
    return {"time": 1e-3 * np.arange(len(gap)), "GAP_MIN": np.asarray(gap, dtype=float),
            "DY_A": np.asarray(dy_a, dtype=float), "DY_O": np.zeros(len(gap))}


def test_the_deepest_gap_against_the_largest_lift():
    """The depth is minus the smallest gap, judged against the largest lift of the base;
    the warning says when, and from when the results are not to be trusted."""
    found = deepest(rows([1e-5, -2e-5, -6e-5, 0.0], [4e-3, 1e-3, -1e-6, 0.0]), BASE, 0.36)
    assert found is not None
    assert (found.depth, found.time, found.scale) == (6e-5, 0.002, 4e-3)
    assert found.since == pytest.approx(0.002)  # 2e-5 is 0.5 % of the lift, 6e-5 1.5 %
    assert penetration_warning(found, "use a smaller time.step") == (
        "the base went 6e-05 m into the table (at t = 0.002 s, 1.5% of the base's largest "
        "lift, 0.004 m): the contact let it through, and the sunk corner's gravity "
        "potential became motion; do not trust the results after t = 0.002 s, where it "
        "passed 1%; use a smaller time.step")


def test_within_the_mark_or_above_the_table_nothing_is_said():
    """SDNV105 D at 5e-4 s steps sinks 0.65 % of its lift: no warning; nor for a base that
    stays above the table, a base off the table (no paired contact: NaN), or a history
    without the column (a discrete run, the springs of B)."""
    shallow = deepest(rows([0.0, -0.9 * DEPTH_WARNING * 3.6e-3], [3.6e-3, 0.0]), BASE, 0.36)
    assert shallow is not None and shallow.since is None
    assert penetration_warning(shallow, "") is None
    assert deepest(rows([0.0, 1e-3], [3.6e-3, 0.0]), BASE, 0.36) is None
    assert deepest(rows([np.nan, np.nan], [3.6e-3, 0.0]), BASE, 0.36) is None
    assert deepest({"time": np.zeros(3), "DY_A": np.zeros(3)}, BASE, 0.36) is None


def test_a_flat_block_is_judged_against_its_width():
    """A block that never lifts (standing, sliding) has no lift to compare with: 1e-3 of
    its base width is the scale, so 1e-7 m is nothing and 1e-5 m of 0.36 m is said."""
    standing = deepest(rows([0.0, -1e-7], [0.0, -1e-7]), BASE, 0.36)
    assert standing is not None and standing.scale == pytest.approx(3.6e-4)
    assert penetration_warning(standing, "") is None
    sunk = deepest(rows([0.0, -1e-5], [0.0, -1e-5]), BASE, 0.36)
    assert penetration_warning(sunk, "") is not None


@pytest.mark.parametrize("step, warned", [(0.05, True), (0.002, False)])
def test_a_theta_step_that_lets_the_corner_through_is_said(tmp_path: Path, step, warned):
    """The audit's block: at 0.05 s steps corner A ends 2.4 mm inside the table (its first
    impact is at 0.124 s), at 2 ms steps 9.4e-7 m; the warning names the treatment's
    remedy (theta: a smaller time.step)."""
    path = tmp_path / "tall.toml"
    path.write_text(tall_block("sdnv105d"), encoding="utf-8")
    result = rc.run(rc.load_case(path, {"time.step": step}), out=tmp_path / "out", quiet=True,
                    plots=False)
    said = [w for w in result.warnings if w.startswith("the base went")]
    assert bool(said) is warned, result.warnings
    if warned:
        assert said[0].startswith("the base went 0.00237 m into the table (at t = 0.15 s"), \
            said[0]
        assert said[0].endswith("use a smaller time.step (the theta scheme takes no "
                                "[time.refine])"), said[0]
    found = result.extra["penetration"]
    assert (found["depth_m"] > 1e-3) is warned
