"""Landings on compliant supports that THETA does not show (post.collisions, the catches):
SDNV105 B's block on soft shock springs, its pivot sunk under the weight, stopped by
another support while its base is still turned, on synthetic histories of that shape."""

import numpy as np
import pytest

from rocking_contact.post.collisions import (
    find_collisions,
    find_landings,
    landings_outside,
)

#: the lift angle (rad) and least energy of the motion (J) of SDNV105's block
LIFT = 4.2e-7
LEAST = 3.1e-4
#: the catch: the first sample on two supports (s), the kinetic energy just before (J)
CAUGHT = 0.0523
PEAK = 6.73


def _caught(end: float = 0.1, step: float = 1e-4) -> dict[str, np.ndarray]:
    """SDNV105 B on 3e7 N/m springs as run (time.end = 0.33 s, windows = []): released at
    0.01 rad on O, whose spring sinks 0.14 mm, it falls onto the middle spring O1 at
    0.0523 s with 6.73 J, THETA still 7.4e-4 rad; the dashpots stop it there (0.04 J
    1.8 ms later) and it creeps down onto A (CONTACTS 3 at 0.119 s) with THETA above
    1.2e-4 rad to the end: no sign change."""
    t = np.arange(0.0, end + step / 2, step)
    before = t < CAUGHT - step / 2
    theta = np.where(before, 0.01 - (0.01 - 7.4e-4) * (t / CAUGHT) ** 2,
                     7.4e-4 * np.exp(-(t - CAUGHT) / 0.3))
    energy = np.where(before, PEAK * (t / (CAUGHT - step)) ** 2,
                      0.5 * PEAK * np.exp(-(t - CAUGHT) / 3e-4) + 3e-5)
    contacts = np.where(before, 1.0, np.where(t < 0.119, 2.0, 3.0))
    return {"time": t, "THETA": theta, "EKIN_BLOCK": energy, "CONTACTS": contacts}


def test_a_block_caught_by_another_support_lands():
    """SDNV105 B on 3e7 N/m springs with windows = [] found no collision ('collisions:
    none (no landing: THETA never changed sign after a lift)') though it fell with 6.73 J
    onto O1; on 1e8 N/m springs likewise (7.12 J at 0.0538 s). Now a landing: the
    impact during which a second support takes the base held by one alone."""
    history = _caught()
    assert np.all(history["THETA"] > 1e-4)  # never past flat
    assert find_landings({k: v for k, v in history.items() if k != "CONTACTS"}, LIFT) == []
    [landing] = find_landings(history, LIFT, least=LEAST)
    assert landing["caught"] is True
    assert landing["time"] == pytest.approx(CAUGHT, abs=1e-9)
    [found] = find_collisions(history, [], lift=LIFT, least=LEAST)
    assert found["interior"] and found["caught"] and found["impact"] == 1
    assert found["time"] == pytest.approx(CAUGHT - 1e-4, abs=1e-9)
    assert found["kinetic_energy"] == pytest.approx(PEAK)
    assert found["landing"] == landing["time"]
    # with windows the window's maximum is that landing's: a collision, the impact 1
    [window] = find_collisions(history, [(0.0, 0.1)], lift=LIFT, least=LEAST)
    assert window["interior"] and window["impact"] == 1


def test_a_catch_outside_the_windows_is_warned_of():
    """A catch is a landing as a sign change is: with windows that miss it, the run says
    so, and how it landed."""
    warning = landings_outside(_caught(), [(0.06, 0.1)], LIFT, least=LEAST)
    assert warning is not None
    assert warning.startswith("the block lands (THETA changes sign after a lift, or a "
                              "second support takes the lifted base) at t = 0.0523 s, "
                              "outside every collision window ([0.06, 0.1] s)")


def test_no_catch_without_a_lift_or_below_the_energy_of_a_fall():
    """Supports closing in an impact are no catch when the base was never held by one
    support alone (a block standing on its three springs), nor when the impact's energy
    is below the least energy of the motion (a support's compliance rocking the base)."""
    history = _caught()
    standing = dict(history, CONTACTS=np.where(history["CONTACTS"] < 2, 2.0, 3.0))
    standing["CONTACTS"][520:524] = 1.0  # one support alone, flat: THETA within the lift
    standing["THETA"] = np.where(standing["CONTACTS"] < 2, 1e-7, history["THETA"])
    assert find_landings(standing, LIFT, least=LEAST) == []
    small = dict(history, EKIN_BLOCK=history["EKIN_BLOCK"] * 1e-5)  # 6.7e-5 J
    assert find_landings(small, LIFT, least=LEAST) == []
    assert len(find_landings(small, LIFT)) == 1  # without the floor it is an impact


def _rocking(end: float = 0.25, step: float = 1e-4) -> dict[str, np.ndarray]:
    """A block released at +0.01 rad that lands at 0.0692 and 0.1776 s (THETA through 0),
    keeping 0.62 of its energy each time; the landing corner's support closes two steps
    before THETA changes sign (the pivot's spring has sunk), and the supports rattle
    (CONTACTS 1, 2, 1) in the first 2 ms of each swing."""
    t = np.arange(0.0, end + step / 2, step)
    landings, tops = (0.0692, 0.1776), (0.0, 0.1234, 0.2318)
    theta, energy = np.zeros_like(t), np.zeros_like(t)
    contacts = np.ones_like(t)
    for k, top in enumerate(tops):
        lo = landings[k - 1] if k else 0.0
        hi = landings[k] if k < len(landings) else end + step
        swing = (t >= lo) & (t < hi)
        width = max(top - lo, hi - top)
        theta[swing] = ((-1) ** k * 0.01 * 0.79 ** k
                        * np.cos(0.5 * np.pi * (t[swing] - top) / width))
        energy[swing] = 7.3 * 0.62 ** k * ((t[swing] - top) / width) ** 2
        if k:
            first = int(np.flatnonzero(swing)[0])
            contacts[first - 2:first + 2] = 2.0  # the corner's support closes
            contacts[first + 6:first + 9] = 2.0  # a rattle
            contacts[first + 14:first + 16] = 2.0
    return {"time": t, "THETA": theta, "EKIN_BLOCK": energy, "CONTACTS": contacts}


def test_a_rocking_block_s_landings_are_its_sign_changes():
    """The shipped runs' supports close at each landing, a step or two before THETA
    changes sign, and rattle after it: the landings are the sign changes alone, found as
    without CONTACTS (SDNV105 A, B, C, D windowed and windowless: results.json
    collisions byte-identical before and after the catches)."""
    history = _rocking()
    without = {k: v for k, v in history.items() if k != "CONTACTS"}
    landings = find_landings(history, LIFT, least=LEAST)
    assert landings == find_landings(without, LIFT, least=LEAST)
    assert [round(landing["time"], 4) for landing in landings] == [0.0692, 0.1776]
    assert not any(landing.get("caught") for landing in landings)
    found = find_collisions(history, [], lift=LIFT, least=LEAST)
    assert found == find_collisions(without, [], lift=LIFT, least=LEAST)
    assert [c["interior"] for c in found] == [True, True]


def test_sdnv105b_on_softer_springs_has_its_first_collision(tmp_path):
    """The run itself: SDNV105 B on 1e8 N/m springs (its pivot sunk 41 um) is caught by
    O1 at 0.0538 s with THETA at 2.1e-4 rad, and THETA creeps toward 0 from above to the
    end; with windows = [] it had no collision (collision.1.* not computed)."""
    import rocking_contact as rc

    springs = {f"contact.spring.{k}.normal_stiffness": 1e8 for k in range(3)}
    case = rc.load_case("sdnv105b", {**springs, "collisions.windows": [], "time.end": 0.06})
    result = rc.run(case, out=tmp_path, quiet=True, plots=False)
    [found] = result.collisions
    assert found["caught"] and found["interior"] and found["impact"] == 1
    assert found["landing"] == pytest.approx(0.0538, abs=2e-5)
    assert found["kinetic_energy"] == pytest.approx(7.12, rel=0.01)
    assert result.quantities["collision.1.time"] == found["time"]
    assert np.min(result.history["THETA"]) > 0.0
