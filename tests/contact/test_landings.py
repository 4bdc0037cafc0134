"""Collisions found at a block's landings, without windows placed by hand; no collision
and no alarming energy figure for a block that never lifts; the uplift of a block that
stands flat (post.collisions, post.energy), on synthetic histories."""

from types import SimpleNamespace

import numpy as np
import pytest

from rocking_contact.post.collisions import (
    annotate,
    coarse_collisions,
    find_collisions,
    find_landings,
    find_uplift,
    landings_outside,
    lift_angle,
)
from rocking_contact.post.energy import motion_floor, rise_warning, summary
from rocking_contact.results import RunResult
from rocking_contact.summary import collision_summary

#: a rocking block's swings (s): released tilted, it lands at each of these
LANDINGS = (0.0692, 0.1776)
LIFT = 1e-5


def _rocking(end: float = 0.25, step: float = 1e-4) -> dict[str, np.ndarray]:
    """A block released at +0.02 rad that lands twice (THETA through 0 at
    :data:`LANDINGS`, keeping 0.62 of its energy each time, with 2 % of ringing after
    each impact), and the kinetic energy peaking at each landing, zero at the top of each
    swing."""
    t = np.arange(0.0, end + step / 2, step)
    tops = (0.0, 0.1234, 0.2318)  # the top of each swing, between the landings
    theta = np.zeros_like(t)
    energy = np.zeros_like(t)
    for k, top in enumerate(tops):
        lo = LANDINGS[k - 1] if k else 0.0
        hi = LANDINGS[k] if k < len(LANDINGS) else end + step
        swing = (t >= lo) & (t < hi)
        sign = (-1) ** k
        amplitude = 0.02 * 0.79 ** k
        # the base turns from 0 (a landing) to its amplitude at the top and back
        width = max(top - lo, hi - top)
        theta[swing] = sign * amplitude * np.cos(0.5 * np.pi * (t[swing] - top) / width)
        energy[swing] = 8.6 * 0.62 ** k * ((t[swing] - top) / width) ** 2
        after = swing & (t > lo) & (t < lo + 0.002)
        energy[after] *= 1.0 + 0.02 * np.sin(2e4 * (t[after] - lo))
    return {"time": t, "THETA": theta, "EKIN_BLOCK": energy}


def _standing(seed: int = 1) -> dict[str, np.ndarray]:
    """A block that never lifts: its base turns by 2.6e-7 rad at most, changing sign
    with the elastic ringing, and its kinetic energy is 1e-8 J of ringing."""
    t = np.arange(0.0, 0.1 + 5e-5, 1e-4)
    noise = np.random.default_rng(seed).normal(size=t.size)
    theta = 2.6e-7 * np.sin(2 * np.pi * 7 * t) + 1e-9 * noise
    energy = 1e-8 * (1.0 + np.sin(2 * np.pi * 40 * t)) ** 2 / 4 + 1e-10 * np.abs(noise)
    return {"time": t, "THETA": theta, "EKIN_BLOCK": energy}


def test_without_windows_every_landing_is_a_collision():
    """U1's block with windows [[0, 0.25]] reported one collision though it landed twice:
    without windows, each landing gives its collision, the kinetic-energy maximum
    around it."""
    history = _rocking()
    found = find_collisions(history, [], lift=LIFT)
    assert [c["index"] for c in found] == [1, 2]
    assert all(c["interior"] for c in found)
    assert [c["impact"] for c in found] == [1, 2]
    for c, at in zip(found, LANDINGS):
        assert c["time"] == pytest.approx(at, abs=1.5e-4)
        assert c["landing"] == pytest.approx(at, abs=1.5e-4)
    assert found[1]["kinetic_energy"] == pytest.approx(8.6 * 0.62, rel=0.03)
    # one window over both finds the first only, as windows define it
    [one] = find_collisions(history, [(0.0, 0.25)], lift=LIFT)
    assert one["interior"] and one["time"] == found[0]["time"]


def test_a_run_that_ends_on_a_landing_has_no_collision_there():
    """The kinetic energy still rising when the run stops, after THETA crossed zero
    (an elastic corner's contact takes a few steps to stop the fall), is no peak; a run
    stopped before the landing has none."""
    history = {k: v[:694].copy() for k, v in _rocking().items()}  # to 0.0693 s
    history["EKIN_BLOCK"][-2:] = 8.7, 8.8
    [first] = find_collisions(history, [], lift=LIFT)
    assert not first["interior"] and first["time"] == history["time"][-1]
    assert find_collisions({k: v[:690] for k, v in history.items()}, [], lift=LIFT) == []


def test_a_block_that_never_lifts_has_no_landing_and_no_collision():
    """U1: a block shaken below its uplift got collision 1 at 0.0556 s (9.7e-9 J),
    interior, "impact" 4, in its window [0, 0.1] s: its base never turned beyond its
    elastic deformation, and its sign changes are the ringing's."""
    history = _standing()
    assert np.any(np.diff(np.sign(history["THETA"])) != 0)
    assert find_landings(history, LIFT) == []
    assert find_collisions(history, [], lift=LIFT) == []
    [window] = find_collisions(history, [(0.0, 0.1)], lift=LIFT)
    assert window["interior"] is False and window["impact"] is None


def _trembling() -> dict[str, np.ndarray]:
    """A block on compliant supports standing flat on a table shaken below its uplift, as
    SDNV105 B's on its three shock springs at 4 m/s^2 to 0.3 s (its base turned by up to
    1.5 times its lift angle with the table's load, THETA changing sign where the table's
    acceleration does, at 0.25 s; its kinetic energy 1.1e-7 J at most, at 0.066 s), here
    at U1's block's scale: THETA up to 2e-5 rad, twice :data:`LIFT`."""
    t = np.arange(0.0, 0.3 + 5e-5, 1e-4)
    theta = 2e-5 * np.sin(2 * np.pi * 2 * t) + 1e-9
    energy = 1.1e-7 * np.sin(np.pi * t / 0.132) ** 2
    return {"time": t, "THETA": theta, "EKIN_BLOCK": energy}


def test_a_sign_change_of_less_than_the_energy_of_a_fall_is_no_collision():
    """SDNV105 B shaken at 4 m/s^2 with windows = [] had collision 1 at 0.0658 s, 1.1e-7 J,
    interior, its landing 0.2503 s: the springs' rotation following the table's load. A
    block that falls from past the lift angle lands with about M g b lift_angle at least
    (motion_floor: 3.1e-4 J for SDNV105's block, 0.00499 J for U1's)."""
    case = _case()
    history = _trembling()
    assert len(find_landings(history, LIFT)) == 1
    [found] = find_collisions(history, [], lift=LIFT, least=motion_floor(case))
    assert found["interior"] is False
    result = RunResult(case="mine", kind="block", parameters={}, history=history,
                       quantities={}, collisions=[], extra={}, timing={})
    annotate(case, result)
    assert len(result.collisions) == 1
    assert not [name for name in result.quantities if name.startswith("collision.")]
    assert collision_summary(result).splitlines()[1].startswith(
        "collisions: none (THETA changed sign after a lift at t = 0.250004 s, no impact: a "
        "kinetic-energy maximum below the least energy of the motion")
    # a rocking block's landings carry far more: found as before
    rocking = find_collisions(_rocking(), [], lift=LIFT, least=motion_floor(case))
    assert [c["interior"] for c in rocking] == [True, True]


def _pushed() -> dict[str, np.ndarray]:
    """A block lifted at the release and landing at 0.2 s (THETA through 0), its kinetic
    energy pushed by the table to 5 J at 0.05 s, down to 0.1 J at 0.1 s, then rising to
    2 J at its landing and dropping after it."""
    t = np.arange(0.0, 0.3 + 5e-5, 1e-4)
    theta = 1e-3 * np.sin(np.pi * t / 0.2)
    energy = np.where(t < 0.1, 0.1 + 4.9 * np.sin(np.pi * t / 0.1) ** 2,
                      np.where(t < 0.2, 0.1 + 1.9 * ((t - 0.1) / 0.1) ** 2,
                               2.0 * np.exp(-(t - 0.2) / 0.005)))
    return {"time": t, "THETA": theta, "EKIN_BLOCK": energy}


def test_a_landing_s_collision_is_the_peak_it_ends():
    """The lowest kinetic energy since the previous landing (the release here) may lie
    before a larger maximum that is no impact: SDNV105 B's springs shaken below its uplift
    gave collision 1 at 0.0658 s for a landing at 0.2503 s. The collision is the peak the
    landing ends, back to the minimum before it."""
    [found] = find_collisions(_pushed(), [], lift=LIFT, least=motion_floor(_case()))
    assert found["interior"] and found["landing"] == pytest.approx(0.2, abs=1e-4)
    assert found["time"] == pytest.approx(0.2, abs=1.5e-4)
    assert found["kinetic_energy"] == pytest.approx(2.0, rel=1e-3)
    # a peak one sample before the sign change is the landing's too
    history = _pushed()
    j = find_landings(history, LIFT)[0]["index"]
    history["EKIN_BLOCK"][j - 1] = 2.5
    [found] = find_collisions(history, [], lift=LIFT)
    assert found["interior"] and found["kinetic_energy"] == 2.5


def test_a_landing_outside_every_window_is_warned_of_once():
    history = _rocking()
    said = landings_outside(history, [(0.0, 0.1)], LIFT)
    assert said is not None and "t = 0.1776 s" in said and "[0, 0.1] s" in said
    assert "collisions.windows = []" in said
    assert landings_outside(history, [(0.0, 0.1), (0.15, 0.25)], LIFT) is None
    assert landings_outside(history, [], LIFT) is None  # each landing is a collision


def _case(gravity: float = 9.81, windows=(), rigid: bool = False) -> SimpleNamespace:
    """U1's 0.25 x 0.6 m concrete block (M = 360 kg)."""
    return SimpleNamespace(
        geometry=SimpleNamespace(half_width=0.125, half_height=0.3, thickness=1.0),
        material=SimpleNamespace(block=SimpleNamespace(young=3e10, density=2400.0)),
        loading=SimpleNamespace(gravity=gravity),
        collisions=SimpleNamespace(windows=list(windows), column="EKIN_BLOCK", rigid=rigid))


def test_the_lift_and_the_least_energy_of_the_motion_come_from_the_block():
    case = _case()
    assert lift_angle(case) == pytest.approx(10 * 2400 * 9.81 * 0.36 / (3e10 * 0.25))
    # M g b theta_lift: the gravity potential of the smallest swing that lifts the block
    assert motion_floor(case) == pytest.approx(360 * 9.81 * 0.125 * lift_angle(case))
    # without gravity nothing rocks: the elastic energy at a strain of sqrt(2 eps)
    assert lift_angle(_case(0.0)) == 0.0
    assert motion_floor(_case(0.0)) == pytest.approx(3e10 * 0.15 * np.finfo(float).eps)


def test_annotate_finds_the_landings_and_warns_of_one_outside_the_windows():
    result = RunResult(case="mine", kind="block", parameters={}, history=_rocking(),
                       quantities={}, collisions=[], extra={}, timing={})
    annotate(_case(), result)
    assert [c["index"] for c in result.collisions if c["interior"]] == [1, 2]
    assert result.quantities["collision.2.time"] == pytest.approx(0.1776, abs=1.5e-4)
    assert not result.warnings
    result = RunResult(case="mine", kind="block", parameters={}, history=_rocking(),
                       quantities={}, collisions=[], extra={}, timing={})
    annotate(_case(windows=[(0.0, 0.1)]), result)
    [said] = result.warnings
    assert said.startswith("the block lands (THETA changes sign after a lift) at t = 0.1776 s")


def _round_off_energies(history: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The energy columns of a block that nothing moves: 1e-26 J of kinetic energy and a
    total energy whose round-off rises by 6.5e-25 J."""
    t = history["time"]
    wiggle = 6.5e-25 * np.sin(2 * np.pi * 30 * t) ** 2
    return {**history, "EKIN_BLOCK": 1e-26 * (1 + np.sin(t)), "EKIN": 1e-26 * (1 + np.sin(t)),
            "EELAS": 1e-24 + wiggle, "EPOT_GRAV": np.zeros_like(t), "ETOT": 1e-24 + wiggle,
            "ENERGY_RESIDUAL": 2.7e-23 * np.sin(t)}


def test_round_off_energies_are_judged_against_the_least_energy_of_the_motion():
    """U1, a block without gravity: 'the total energy rose up to 6.5e-25 J ... 4.7e+03% of
    the energy of the motion ... do not trust the results', and the residual '6e+04 %' of
    the largest kinetic energy."""
    history = _round_off_energies({"time": np.arange(0.0, 0.04, 1e-4)})
    assert rise_warning(summary(history), "use a smaller time.step") is not None  # before
    least = motion_floor(_case(0.0))
    energy = summary(history, least)
    assert energy["motion"] == energy["motion_floor"] == least
    assert energy["ETOT_regain_relative"] < 1e-15
    assert rise_warning(energy, "use a smaller time.step") is None


def test_the_residual_of_a_block_that_never_lifts_is_said_against_its_least_motion():
    """U1: 'energy balance: largest |residual| 3.65e-09 J (38 % of the largest kinetic
    energy)' for a block whose only motion is 1e-8 J of elastic ringing."""
    history = _standing()
    t = history["time"]
    history.update(EKIN=history["EKIN_BLOCK"], EELAS=np.full_like(t, 3e-4),
                   EPOT_GRAV=np.full_like(t, -3.5e-4), ETOT=np.full_like(t, -5e-5),
                   ENERGY_RESIDUAL=3.65e-9 * np.sin(40 * t))
    case = _case()
    energy = summary(history, motion_floor(case))
    assert energy["motion_floor"] == pytest.approx(motion_floor(case))
    result = RunResult(case="mine", kind="block", parameters={}, history=history,
                       quantities={}, collisions=[], extra={"energy": energy}, timing={})
    annotate(case, result)
    assert result.collisions == []
    lines = collision_summary(result).splitlines()
    assert lines[0] == "collisions: none (no landing: THETA never changed sign after a lift)"
    assert lines[1].startswith("energy balance: largest |residual| 3.65e-09 J (7.3e-05 % of "
                               "the least energy of the motion, 0.00499 J)")


def _lifting() -> dict[str, np.ndarray]:
    """A block standing flat on a shaken table: its base nodes let go one by one (5 in
    contact, then 4 from 0.0255 s, 3, 2, and O alone from 0.0597 s, the rigid block's
    uplift), its base turning by its elastic 7e-7 rad until then, then growing as it
    rocks on O."""
    t = np.arange(0.0, 0.1 + 5e-5, 1e-4)
    contacts = np.select([t < 0.0255, t < 0.0373, t < 0.0401, t < 0.0597],
                         [5.0, 4.0, 3.0, 2.0], 1.0)
    theta = 7e-7 * t / 0.06 + np.where(t >= 0.0597, 1e-6 * np.expm1((t - 0.0597) / 0.0035),
                                       0.0)
    return {"time": t, "THETA": theta, "CONTACTS": contacts, "EKIN_BLOCK": theta ** 2}


def test_the_uplift_of_a_block_standing_flat_is_when_one_corner_holds_it():
    """U1 #6: an elastic block's uplift was nowhere; the rigid twin's is an event."""
    history = _lifting()
    uplift = find_uplift(history, LIFT)
    assert uplift == {"kind": "uplift", "time": pytest.approx(0.0597), "corner": "O",
                      "note": "corner A lifts"}
    # without the contact count, the instant the base turns past the lift angle
    del history["CONTACTS"]
    late = find_uplift(history, LIFT)
    assert late is not None and late["time"] > 0.0597 + 1e-3
    # mirrored: it rocks on A
    mirrored = {**_lifting(), "THETA": -_lifting()["THETA"]}
    assert find_uplift(mirrored, LIFT)["corner"] == "A"
    # released tilted (it rocks from the start), or never lifting: none
    assert find_uplift(_rocking(), LIFT) is None
    assert find_uplift(_standing(), LIFT) is None


def _weightless() -> dict[str, np.ndarray]:
    """sdnv105d_shaking with loading.gravity = 0 (to 0.3 s): nothing holds the base, which
    no node presses from the first step (CONTACTS 0, then 1 at round-off), and THETA is
    the solver's round-off, 0 at the release, then growing to 2e-11 rad, of one sign."""
    t = np.arange(0.0, 0.3 + 5e-5, 1e-4)
    theta = 2.1e-11 * (t / 0.3) ** 2
    contacts = np.where(t > 0.0, 1.0, 0.0)
    return {"time": t, "THETA": theta, "CONTACTS": contacts, "EKIN_BLOCK": 190.0 * t ** 2}


def test_a_block_without_gravity_has_no_uplift():
    """sdnv105d_shaking --set loading.gravity=0 recorded 'uplift at t = 0 s (O) corner A
    lifts' (uplift.1.time 0): its lift angle is 0, which the round-off of THETA passed at
    the first step."""
    assert lift_angle(_case(0.0)) == 0.0
    assert find_uplift(_weightless(), 0.0) is None
    result = RunResult(case="mine", kind="block", parameters={}, history=_weightless(),
                       quantities={}, collisions=[], extra={}, timing={})
    annotate(_case(0.0), result)
    assert "events" not in result.extra and "uplift.1.time" not in result.quantities
    assert result.collisions == []  # THETA never changes sign


def test_a_base_held_by_several_supports_has_not_lifted():
    """SDNV105 B's block on its three shock springs, shaken at 4 m/s^2 (below its uplift):
    its springs turn the base past the lift angle at 0.00875 s with all three pressed, and
    A's alone lets go later: 'uplift at t = 0.00875 s (O) corner A lifts' was recorded.
    The block lifts where one support alone holds it, if ever."""
    history = _lifting()
    history["CONTACTS"] = np.maximum(history["CONTACTS"], 2.0)  # never fewer than two
    assert find_uplift(history, LIFT) is None
    # held by several where it passes the angle, by one alone later: lifted from there
    history = _lifting()
    late = history["time"] >= 0.08
    history["CONTACTS"] = np.where(late, 1.0, np.maximum(history["CONTACTS"], 2.0))
    uplift = find_uplift(history, LIFT)
    assert uplift is not None and uplift["time"] == pytest.approx(0.08)


def test_annotate_records_and_prints_the_uplift_as_the_rigid_runner_does():
    result = RunResult(case="mine", kind="block", parameters={}, history=_lifting(),
                       quantities={}, collisions=[], extra={}, timing={})
    annotate(_case(), result)
    [event] = result.extra["events"]
    assert event["kind"] == "uplift" and result.quantities["uplift.1.time"] == event["time"]
    assert collision_summary(result).splitlines()[0] == (
        "event: uplift at t = 0.0597 s (O) corner A lifts")
    released = RunResult(case="mine", kind="block", parameters={}, history=_rocking(),
                         quantities={}, collisions=[], extra={}, timing={})
    annotate(_case(), released)
    assert "events" not in released.extra and "uplift.1.time" not in released.quantities


def _stepped(step: float, every: int = 1) -> dict[str, np.ndarray]:
    """:func:`_rocking` sampled at ``step``, each row recording the step ``DT`` that
    ended it; a row every ``every`` steps (``output.every``)."""
    history = _rocking(step=step * every)
    history["DT"] = np.full_like(history["time"], step)
    return history


def test_a_collision_resolved_by_coarse_steps_is_warned_of():
    """U1 #12: myblock_theta with time.step = 0.02 ran to exit 0 with its first collision
    13 % early and 25 % low: its kinetic energy rose by 56 and 83 % in the last step
    before its collisions. SDNV105 D's rise by 1.2 % at most, its 5e-4 s variant's 6.1 %."""
    coarse = _stepped(0.02)
    found = find_collisions(coarse, [], lift=LIFT)
    said = coarse_collisions(coarse, found)
    assert said is not None and said.startswith("collisions 1, 2: the kinetic energy rose by "
                                                "up to ")
    assert "(steps of 0.02 s)" in said and "use a smaller time.step" in said
    for fine in (_stepped(1e-4), _stepped(1e-4, every=200)):  # rows 0.02 s apart, not steps
        assert coarse_collisions(fine, find_collisions(fine, [], lift=LIFT)) is None
    result = RunResult(case="mine", kind="block", parameters={}, history=coarse,
                       quantities={}, collisions=[], extra={}, timing={})
    annotate(_case(), result)
    assert result.warnings == [said]
