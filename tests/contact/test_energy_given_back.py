"""What the energy warnings say of energy the steps created (post/energy.py), on synthetic
histories (A3's audit, session 31: a granite block 0.3 x 1.2 m on HHT with
``time.refine.hold = 0``) and a run: both rises of the total energy, the larger first; the
dissipations that gave energy back, each step's rise counted once, named when a step gave
more than 1 % of the energy of the motion; and the refinement's hold in the advice."""

import json

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.post.energy import (
    THETA_ADVICE,
    dissipation_warning,
    given_back,
    given_steps,
    remedy,
    rise_warning,
    run_warnings,
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
    assert energy["given_back_total"] == energy["given_back_max"] == pytest.approx(0.4401)
    assert energy["given_back_time"] == 0.1375
    [given] = given_back(history, energy["motion"])
    assert given.name == "EFRICTION" and given.energy == pytest.approx(0.4401)
    assert given.time == 0.1375 and given.step == pytest.approx(0.0025)
    warning = dissipation_warning(history, energy, ADVICE)
    assert warning is not None
    assert warning.startswith(
        "energy taken by the dissipations came back to the block: 0.4401 J over the run "
        "(4.4% of the energy of the motion), 0.4401 J (4.4%) in the step to t = 0.1375 s: "
        "the contact's friction (column EFRICTION) 0.4401 J, 0.4401 J of it in the 0.0025 s "
        "step to t = 0.1375 s (in each step where the total energy rose, the rise shared "
        "among the columns that fell, in proportion to their falls); a dissipation only "
        "takes energy: the time steps created it; use a longer time.refine.hold")


def test_a_rise_is_counted_once_among_the_columns_that_fell():
    """In one step the total energy rises 0.5 J while the contact's normal share falls
    0.9 J and its friction 0.1 J: the block gained 0.5 J, not 0.5 J from each column
    (capped by the rise, they counted 0.6 J, and SDNV105 A on the 0.02 m mesh twice its
    0.0472 J at the first impact). The rise is shared in proportion to the falls."""
    history = rows([10.0, 10.0, 10.5], ECONTACT=[0.0, 1.0, 0.0], EFRICTION=[0.0, 0.2, 0.1],
                   EDAMP=np.zeros(3))
    steps = given_steps(history)
    assert steps["ECONTACT - EFRICTION"] == pytest.approx([0.0, 0.45])
    assert steps["EFRICTION"] == pytest.approx([0.0, 0.05])
    assert steps["EDAMP"] == pytest.approx([0.0, 0.0])
    energy = summary(history)
    assert energy["given_back_total"] == energy["given_back_max"] == pytest.approx(0.5)
    assert energy["given_back_relative"] == pytest.approx(0.05)
    given = given_back(history, energy["motion"])
    assert [(g.name, round(g.energy, 12)) for g in given] == [
        ("ECONTACT - EFRICTION", 0.45), ("EFRICTION", 0.05)]
    warning = dissipation_warning(history, energy, ADVICE)
    assert warning is not None and warning.startswith(
        "energy taken by the dissipations came back to the block: 0.5 J over the run (5% of "
        "the energy of the motion), 0.5 J (5%) in the step to t = 0.002 s: the contact's "
        "normal forces (columns ECONTACT - EFRICTION) 0.45 J, 0.45 J of it in the 0.001 s "
        "step to t = 0.002 s; the contact's friction (column EFRICTION) 0.05 J, 0.05 J of "
        "it in the 0.001 s step to t = 0.002 s (in each step")
    # the falls smaller than the rise: they gave what they lost, 0.3 J, no more
    history["ECONTACT"] = np.array([0.0, 1.0, 0.7])
    history["EFRICTION"] = np.array([0.0, 0.2, 0.2])
    assert summary(history)["given_back_total"] == pytest.approx(0.3)


def test_gifts_within_the_tolerance_in_each_step_are_no_warning():
    """SDNV105 A on the 0.02 m mesh: its contact's normal forces give back 0.0472 J at its
    first impact and 0.0327 J at its fourth, each in a 10 us step of its collision windows,
    1.10 % of its 7.29 J together, each under 1 % (its rise above the lowest value reached,
    0.65 %, is no warning either). The run records the total, and is not warned; a step
    that gives more than 1 % is."""
    etot = [7.292, 5.0, 5.0 + 0.0472, 1.8, 1.8 + 0.0327]
    history = rows(etot, ECONTACT=np.subtract(7.292, etot), EFRICTION=np.zeros(5),
                   EDAMP=np.zeros(5))
    history["EKIN_BLOCK"] = np.full(5, 7.2918)
    energy = summary(history)
    assert energy["given_back_total"] == pytest.approx(0.0799)
    assert energy["given_back_total"] / energy["motion"] == pytest.approx(0.01096, abs=1e-5)
    assert energy["given_back_max"] == pytest.approx(0.0472)
    assert energy["given_back_relative"] < 0.01
    assert given_back(history, energy["motion"]) == []
    assert dissipation_warning(history, energy, ADVICE) is None
    assert rise_warning(energy, ADVICE) is None
    history["ETOT"][4] = 1.8 + 0.0774  # 1.06 % in that step
    history["ECONTACT"] = 7.292 - history["ETOT"]
    warned = summary(history)
    assert dissipation_warning(history, warned, ADVICE) is not None
    assert rise_warning(warned, ADVICE) is not None  # a step's gift is at most its rise


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
    # the rise shared: the normal forces fell 1.454284 J, the friction 0.029996 J
    given = given_back(history, summary(history)["motion"])
    assert [g.name for g in given] == ["ECONTACT - EFRICTION", "EFRICTION"]
    assert [g.energy for g in given] == pytest.approx([1.484 * 1.454284 / 1.48428,
                                                       1.484 * 0.029996 / 1.48428])


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


def test_a_landing_in_a_long_step_is_said_by_the_run(tmp_path, capsys):
    """SDNV105 A without its collision windows and [time.refine], to 0.08 s, lands in the
    2.5 ms step to 0.06 s, where the contact's normal forces give 3.70 J back (51 % of
    its 7.29 J, measured): the run says it in one line, after its rise warning, and
    results.json records it among its warnings. Refined (779 steps), the dissipations give
    back 4.0e-7 J, and nothing is said."""
    window = {"time.end": 0.08, "collisions.windows": [[0.0, 0.08]]}
    case = rc.load_case("sdnv105a_auto", {**window, "time.refine.enabled": False})
    result = rc.run(case, out=tmp_path, quiet=True, plots=False)
    energy = result.extra["energy"]
    assert energy["given_back_relative"] > 0.4
    assert energy["given_back_time"] == pytest.approx(0.06)
    rose, said = result.warnings
    assert rose.startswith("the total energy rose up to ")
    assert said.startswith(f"energy taken by the dissipations came back to the block: "
                           f"{energy['given_back_total']:.4g} J over the run")
    assert ("the contact's normal forces (columns ECONTACT - EFRICTION) "
            f"{energy['given_back_total']:.4g} J") in said
    assert "of it in the 0.0025 s step to t = 0.06 s" in said
    assert said.endswith("the time steps created it; use a smaller time.step, or enable "
                         "[time.refine] (docs/contact.md, 'Sensitivity')")
    assert json.loads((tmp_path / "results.json").read_text())["warnings"] == [rose, said]
    err = capsys.readouterr().err.splitlines()
    assert err == [f"warning: sdnv105a_auto: {rose}", f"warning: sdnv105a_auto: {said}"]
    refined = rc.run(rc.load_case("sdnv105a_auto", window), write=False, quiet=True,
                     plots=False)
    assert refined.extra["energy"]["given_back_relative"] < 0.01
    assert refined.warnings == []


def test_a_base_released_in_the_table_is_no_dissipation_warning():
    """A base released 2.27e-8 m into the table (SDNV105 A with preload.tilt = 1e-9) is
    pushed out in the first step: the contact's normal forces fall by what the total
    energy rises. The rise's warning names the release, whose steps' advice would be
    wrong (smaller steps create more of it); no dissipation is blamed. Released above the
    table, the same rise is the steps', and both are said."""
    history = rows([10.0, 10.15, 10.15], ECONTACT=[0.0, -0.15, -0.15],
                   EFRICTION=np.zeros(3), EDAMP=np.zeros(3))
    energy = summary(history)
    [rose] = run_warnings(history, energy, ADVICE, depth=2.27e-8)
    assert rose.startswith("the total energy rose up to 0.15 J above its released value")
    assert "the block was released with its base 2.27e-08 m into the table" in rose
    rose, said = run_warnings(history, energy, ADVICE)
    assert rose.endswith(f"{ADVICE} (docs/contact.md, 'Sensitivity')")
    assert said.startswith("energy taken by the dissipations came back to the block: "
                           "0.15 J over the run (1.5% of the energy of the motion)")


def test_nothing_given_back_names_no_step():
    """Dissipations that only take (the total energy falls as they rise): zero given back,
    and no ``given_back_time``, which would otherwise name the first step."""
    history = rows([10.0, 9.0, 8.5], ECONTACT=[0.0, 1.0, 1.5], EDAMP=np.zeros(3))
    energy = summary(history)
    assert energy["given_back_total"] == energy["given_back_max"] == 0.0
    assert "given_back_time" not in energy
    assert given_back(history, energy["motion"]) == []
    assert dissipation_warning(history, energy, ADVICE) is None


def test_a_run_computes_what_was_given_back_once(monkeypatch, tmp_path):
    """The run's summary and its warning each computed given_steps from the whole history
    (cheap, but a reader wondered why twice): computed once, passed to both, the same
    figures."""
    from rocking_contact.fem import runner
    from rocking_contact.post import energy

    calls = []

    def counted(history):
        calls.append(len(history["time"]))
        return given_steps(history)

    for module in (energy, runner):
        monkeypatch.setattr(module, "given_steps", counted, raising=False)
    case = rc.load_case("sdnv105d", {"time.end": 0.005})
    result = rc.run(case, out=tmp_path, quiet=True, plots=False)  # not the cwd's results/
    assert calls == [len(result.history["time"])]
    assert result.extra["energy"] == energy.summary(result.history, energy.motion_floor(case))
