"""What the energy warnings say of energy the steps created (post/energy.py), on synthetic
histories (A3's audit, session 31: a granite block 0.3 x 1.2 m on HHT with
``time.refine.hold = 0``): both rises of the total energy, the larger first; a dissipation
that gave energy back, named; and the refinement's hold in the advice."""

import numpy as np
import pytest

from rocking_contact.post.energy import (
    THETA_ADVICE,
    dissipation_warning,
    given_back,
    remedy,
    rise_warning,
    summary,
)

ADVICE = remedy("hht", True, True, 0.0)


def rows(etot, **columns):
    """A block run's rows, 1 ms steps, the motion's energy 10 J (EKIN_BLOCK's peak), the
    total energy ``etot`` and other columns (J)."""
    n = len(etot)
    out = {"time": 1e-3 * np.arange(n), "ENERGY_RESIDUAL": np.zeros(n),
           "EKIN_BLOCK": np.linspace(0.0, 10.0, n), "EPOT_GRAV": np.zeros(n),
           "ETOT": np.asarray(etot, dtype=float)}
    out.update({name: np.asarray(value, dtype=float) for name, value in columns.items()})
    return out


def test_the_larger_rise_leads_and_the_other_follows():
    """Released at 10 J, down to 9.7 J at an impact, then 0.7 J created in one step: 0.4 J
    above the released value, 0.7 J above the lowest reached. The warning quoted 0.4 J, the
    first it looked at; it leads with 0.7 J and says both."""
    energy = summary(rows([10.0, 9.7, 10.4, 10.4]))
    warning = rise_warning(energy, ADVICE)
    assert warning is not None
    assert warning.startswith(
        "the total energy rose up to 0.7 J above the lowest value it had reached (largest at "
        "t = 0.002 s, 7% of the energy of the motion) and up to 0.4 J above its released "
        "value (largest at t = 0.002 s, 4%): the time steps created it")
    # a rise from the released value on is the same figure twice: said once
    alone = rise_warning(summary(rows([10.0, 10.4, 10.4])), ADVICE)
    assert alone is not None and alone.startswith(
        "the total energy rose up to 0.4 J above its released value (largest at t = 0.001 s, "
        "4% of the energy of the motion): the time steps")
    # one of them within 1 % of the motion: the other alone
    small = rise_warning(summary(rows([10.0, 9.7, 10.05, 10.05])), ADVICE)
    assert small is not None and small.startswith(
        "the total energy rose up to 0.35 J above the lowest value it had reached (largest "
        "at t = 0.002 s, 3.5% of the energy of the motion): ")


def test_a_refined_run_is_told_the_hold():
    """With [time.refine] on, the advice names time.refine.hold first, with the case's
    value when given; without it, or for the theta scheme or no contact, as before."""
    assert ADVICE == ("use a longer time.refine.hold (how long the refined steps go on after "
                      "a contact change, now 0 s), or a smaller time.step or "
                      "time.refine.step")
    assert remedy("hht", True, True) == (
        "use a longer time.refine.hold (how long the refined steps go on after a contact "
        "change), or a smaller time.step or time.refine.step")
    assert "now 0.005 s" in remedy("alpha_newmark", True, True, 5e-3)
    assert remedy("hht", True, False) == "use a smaller time.step, or enable [time.refine]"
    assert remedy("hht", False, True) == "use a smaller time.step"
    assert remedy("theta", True, True, 0.0) == THETA_ADVICE


def test_friction_that_gives_energy_back_is_named():
    """The granite block's step 0.135 -> 0.1375 s (a corner closed through it): EFRICTION
    falls 0.4467 J and the total energy rises 0.4401 J. The dissipation is named with what
    it gave (at most the rise), when and in how long a step; the normal forces' share,
    which stays, is not."""
    friction = [0.0, 0.3075, 0.3075, 0.3075 - 0.4467]
    history = rows([27.0, 26.8, 26.8, 26.8 + 0.4401], ECONTACT=np.add(friction, 0.01),
                   EFRICTION=friction, EDAMP=np.zeros(4))
    history["time"] = np.array([0.0, 0.1325, 0.135, 0.1375])
    energy = summary(history)
    [given] = given_back(history, energy["motion"])
    assert given.name == "EFRICTION" and given.energy == pytest.approx(0.4401)
    assert given.time == 0.1375 and given.step == pytest.approx(0.0025)
    warning = dissipation_warning(history, energy, ADVICE)
    assert warning is not None
    assert warning.startswith(
        "energy taken by a dissipation came back to the block: the contact's friction "
        "(column EFRICTION) gave 0.4401 J (4.4% of the energy of the motion), 0.4401 J of it "
        "in the 0.0025 s step to t = 0.1375 s (falls of the column in steps where the total "
        "energy rose); a dissipation only takes energy: the time steps created it; use a "
        "longer time.refine.hold")


def test_a_fall_another_term_takes_back_is_no_warning():
    """SDNV105 A's first impact, the 10 us step to 0.05443 s where both corners lift: the
    contact's normal share falls 1.484 J (20 % of the 7.29 J released) while the damping
    takes 1.368 J and the total energy falls 0.0065 J. The block gained nothing: no
    warning. The same fall with the total energy rising by it is one."""
    history = rows([7.292, 5.0087, 5.0022], ECONTACT=[0.0, 0.21328, -1.271],
                   EFRICTION=[0.0, 0.0, -0.029996], EDAMP=[0.0, 1.3564, 2.7241])
    history["EKIN_BLOCK"] = np.array([7.2918, 4.9398, 4.7349])
    energy = summary(history)
    assert given_back(history, energy["motion"]) == []
    assert dissipation_warning(history, energy, ADVICE) is None
    history["ETOT"] = np.array([7.292, 5.0087, 5.0087 + 1.484])
    # the normal forces' share named; the friction's 0.03 J is 0.4 % of the motion
    named = [g.name for g in given_back(history, summary(history)["motion"])]
    assert named == ["ECONTACT - EFRICTION"]


def test_springs_that_give_their_store_back_are_no_warning():
    """On springs ECONTACT holds what they store (ESPRING), which they give back: the
    dissipation is ECONTACT - ESPRING, which does not fall as the store empties."""
    store = np.array([0.0, 2.0, 0.5, 0.0])
    history = rows(10.0 - store, ECONTACT=store, ESPRING=store, EDAMP=np.zeros(4))
    energy = summary(history)
    assert given_back(history, energy["motion"]) == []
    # the same springs whose dampers give 0.5 J back as the block's energy rises by it
    history["ECONTACT"] = store + np.array([0.0, 0.6, 0.1, 0.1])
    history["ETOT"] = 10.0 - history["ECONTACT"]
    [given] = given_back(history, summary(history)["motion"])
    assert given.name == "ECONTACT - ESPRING" and given.energy == pytest.approx(0.5)
