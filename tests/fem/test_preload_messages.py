"""What a tilt kept short of the rigid one says, and that its advice works (audit of session
30 on f528ea7's messages): the elastic block's base is turned back by the forces that hold
it tilted, about 6.40e-8 rad for SDNV105 at any small tilt, so the warning names that
cause and the tilt that reaches the rigid angle (preload.tilt = 1e-6 said "the elastic
block's own compliance under the pull"); a tilt below it leaves the base in the table,
whose contact throws it out in the first step, the harder the shorter the step (tilt = 1e-9
was told "use a smaller time.step")."""

import re

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.fem.preload_messages import round_up
from rocking_contact.post.energy import (
    RELEASED,
    Created,
    from_release,
    from_table_release,
    released_depth,
    rise_warning,
    summary,
)

SHORT = {"time.end": 0.0005}


def run(tilt):
    """SDNV105 A released from ``preload.tilt = tilt``, to 0.5 ms, nothing written."""
    return rc.run(rc.load_case("sdnv105a", {**SHORT, "preload.tilt": tilt}), write=False,
                  plots=False, quiet=True)


def preload_warning(result):
    said = [w for w in result.warnings if w.startswith("the preload's tilt reached")]
    assert len(said) <= 1, result.warnings
    return said[0] if said else None


def first(name, result):
    return float(result.history[name][0])


def test_the_tilt_the_warning_offers_reaches_the_rigid_angle():
    """tilt = 1e-6: released at 9.35955e-7 rad, 6.404e-8 rad back; the warning offers
    preload.tilt = 1.06404e-06, which releases the block at 1e-6 rad (to 1e-5)."""
    said = preload_warning(run(1e-6))
    assert said is not None
    back, offered, angle = re.search(
        r"which turns its base back by (\S+) rad, about as much at any small tilt \(as "
        r"1/material\.block\.young\); the block is released there; preload\.tilt = (\S+) "
        r"releases it at about (\S+) rad$", said).groups()
    assert float(back) == pytest.approx(6.404e-8, rel=1e-3)
    assert float(angle) == pytest.approx(1e-6, rel=1e-6)
    released = run(float(offered))
    assert first("THETA", released) == pytest.approx(1e-6, rel=1e-5)


def test_a_tilt_below_the_turn_back_says_the_base_is_in_the_table():
    """tilt = 1e-9 releases the base 2.27e-8 m into the table: the preload's warning says
    so and offers tilt 0 (flat) and the least tilt with the base above O; the energy the
    contact gives in throwing it out is no step error, and the warning says that smaller
    steps make it larger (no "use a smaller time.step")."""
    result = run(1e-9)
    said = preload_warning(result)
    assert said is not None
    depth = -first("GAP_MIN", result)
    assert depth == pytest.approx(2.27e-8, rel=1e-2)
    below, clear = re.search(
        r"more than preload\.tilt turns it forward; the block is released there, its base's "
        r"lowest node (\S+) m below O, into the table, which the table's contact pushes out "
        r"in its first step, the harder the shorter the step; preload\.tilt = 0 releases it "
        r"flat at rest, a preload\.tilt above (\S+) with its base above O$", said).groups()
    assert float(below) == pytest.approx(depth, rel=1e-2)
    rose = [w for w in result.warnings if w.startswith("the total energy rose")]
    assert len(rose) == 1 and "smaller time.step" not in rose[0], result.warnings
    assert f"the block was released with its base {depth:.3g} m into the table" in rose[0]
    assert "smaller steps create more of it, not less" in rose[0]
    # the tilts offered release it above the table, without a rise of the energy
    for tilt in (0.0, float(clear)):
        released = run(tilt)
        assert first("GAP_MIN", released) >= 0.0, tilt
        assert not any(w.startswith("the total energy rose") for w in released.warnings)
        short = preload_warning(released)
        assert short is None or "below O" not in short, short
    # a tilt a little below the one offered still leaves a base node in the table
    assert first("GAP_MIN", run(0.9 * float(clear))) < 0.0


def test_a_release_into_the_table_is_named_from_the_history():
    """The rise warning's cause from the history alone: a first GAP_MIN below the table
    names the release; round-off (1e-25 m) and a release above the table do not."""
    n = 4
    rows = {"time": 1e-5 * np.arange(n), "ENERGY_RESIDUAL": np.zeros(n),
            "EKIN_BLOCK": np.array([0.0, 1e-3, 2e-3, 2e-3]),
            "EPOT_GRAV": np.full(n, -7.9e-5), "ETOT": np.array([-3.9e-5, 1e-3, 2.5e-3, 2.5e-3]),
            "GAP_MIN": np.array([-2.27e-8, 1e-9, 1e-8, 1e-8])}
    assert released_depth(rows, 0.36) == 2.27e-8
    warned = rise_warning(summary(rows), "use a smaller time.step",
                          depth=released_depth(rows, 0.36))
    assert warned is not None and "use a smaller time.step" not in warned
    assert "released with its base 2.27e-08 m into the table (GAP_MIN at its first row)" \
        in warned
    for gap in (-1e-25, 7.8e-13):
        rows["GAP_MIN"][0] = gap
        assert released_depth(rows, 0.36) == 0.0
        assert rise_warning(summary(rows), "use a smaller time.step",
                            depth=released_depth(rows, 0.36)).endswith(
            "use a smaller time.step (docs/contact.md, 'Sensitivity')")
    # a rise above the lowest value reached later is no release's
    later = Created(1.0, 0.1, 0.5, "the lowest value it had reached")
    assert from_table_release(later, 2.27e-8) is None
    assert from_table_release(Created(1.0, 2e-5, 0.5, RELEASED), 0.0) is None


def test_a_bound_is_rounded_to_its_safe_side():
    """The least tilt offered is printed rounded up: 1.0149e-7 as 1.02e-07, not 1.01e-07."""
    assert round_up(1.0149e-7) == "1.02e-07"
    assert round_up(1.02e-7) == "1.02e-07"
    assert round_up(0.5) == "0.5"


def test_on_springs_a_base_turned_back_is_named_not_their_gap():
    """SDNV105 B (springs, no table contact) at tilt 1e-9: the release lowers the block
    onto O's spring and the base, turned back 2.23e-8 m below O, presses the others; the
    springs' store gives the block energy. The rise named their gap and stiffness (0 and
    3e10 N/m as shipped); now the base turned back. Tilt 0 settles it flat, without a
    rise."""
    case = rc.load_case("sdnv105b", {**SHORT, "preload.tilt": 1e-9})
    result = rc.run(case, write=False, plots=False, quiet=True)
    said = preload_warning(result)
    assert said is not None and said.endswith(
        "m below O; preload.tilt = 0 releases it flat, settled on its supports"), said
    below = result.extra["preload"]["base_below"]
    assert below == pytest.approx(2.23e-8, rel=1e-2)
    # Whether this release gives the block energy is the CPU's: the tilt's static solution
    # is degenerate at 1e-9 rad (the Intel Xeon's springs held 1.0e-3 J at the release and
    # the total energy rose; an AMD EPYC's, with any kernels, 9.33e-5 J, the block settled
    # on its three springs and nothing rose). A rise the store covers names the base.
    named = (f"the preload released its base turned back, its lowest node {below:.3g} m "
             "below the corner O")
    rose = [w for w in result.warnings if w.startswith("the total energy rose")]
    assert len(rose) <= 1, result.warnings
    for warning in rose:
        assert named in warning and "check contact.spring's gap" not in warning, warning
    stored = float(result.history["ESPRING"][0])
    cause = from_release(Created(stored / 2, 1e-4, 0.5, RELEASED), stored, below)
    assert cause is not None and named in cause and "contact.spring's gap" not in cause, cause
    flat = rc.run(rc.load_case("sdnv105b", {**SHORT, "preload.tilt": 0.0}), write=False,
                  plots=False, quiet=True)
    assert not any(w.startswith(("the total energy rose", "the preload's tilt"))
                   for w in flat.warnings), flat.warnings
    assert "base_below" not in flat.extra["preload"]


def test_springs_pressed_by_the_release_are_not_blamed_on_their_gap():
    """SDNV105 B at tilt 9.8e-8: the base stands above O (A 1.26e-8 m), but the release
    lowers the block 1.37e-7 m onto O's spring (its weight over 3e10 N/m), pressing A's
    and O1's: the rise (3.2e-4 J) said 'check contact.spring's gap ... and
    normal_stiffness', both as shipped. With every gap >= 0 it says the release pressed
    several springs; a negative gap keeps the old words (pure function: the run above is
    test_on_springs_a_base_turned_back_is_named_not_their_gap's kind)."""
    result = rc.run(rc.load_case("sdnv105b", {"time.end": 0.001, "preload.tilt": 9.8e-8}),
                    write=False, plots=False, quiet=True)
    assert "base_below" not in result.extra["preload"]
    rose = [w for w in result.warnings if w.startswith("the total energy rose")]
    assert len(rose) == 1, result.warnings
    assert "check contact.spring's gap" not in rose[0] and "smaller" not in rose[0]
    assert rose[0].endswith(
        "no spring starts in the ground (every contact.spring's gap >= 0), so the release "
        "pressed more than one: it lowers the block onto the spring under the loaded support "
        "by the load over that spring's normal_stiffness, pressing the springs whose nodes "
        "stand less than that above it (a small preload.tilt; preload.tilt = 0 settles the "
        "block on them all)"), rose[0]
    created = Created(1.3e3, 2.25e-4, 1.01, RELEASED)
    assert from_release(created, 1.5e4).endswith(
        "check contact.spring's gap (negative: pressed into the ground at the release) and "
        "normal_stiffness")
