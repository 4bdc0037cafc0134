"""A discrete run's history has energy columns (S29 U1 #5): the kinetic energy, the
springs', the shocks' normal springs', and, when the rows are the steps, what the dampers,
the shocks and friction took and the support's drag gave, with the balance's residual
ENERGY_RESIDUAL, each computed from the recorded states (not from the balance)."""

import numpy as np
import pytest
from twomass_case import twomass_case

import rocking_contact as rc

#: a run of twomass to 0.2 s: 2 impacts
SHORT = "time.end=0.2"


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    return twomass_case(tmp_path_factory.mktemp("twomass"))


def run(path, *changes):
    return rc.run(rc.load_case(path, [SHORT, *changes]), write=False, quiet=True)


def relative_residual(result):
    energy = result.extra["energy"]
    return energy["residual_max_abs"] / energy["motion"]


def test_the_energy_columns_follow_the_recorded_ones_and_are_the_states_energies(case):
    h = run(case).history
    recorded = ["time", "DX_N1", "DX_N2", "DY_N2", "VX_N1", "VX_N2", "VY_N2", "AX_N1",
                "AX_N2", "AY_N2", "FN_STOP", "FT_STOP", "VN_STOP", "PN_STOP"]
    assert list(h) == [*recorded, "EKIN", "EELAS", "ETOT", "ESPRING", "EFRICTION", "ESTICK",
                       "ECONTACT", "ENERGY_RESIDUAL"]
    kinetic = 0.5 * (10.0 * h["VX_N1"] ** 2 + 5.0 * (h["VX_N2"] ** 2 + h["VY_N2"] ** 2))
    springs = 0.5 * (1e4 * h["DX_N1"] ** 2 + 2e4 * (h["DX_N2"] - h["DX_N1"]) ** 2
                     + 1e3 * h["DY_N2"] ** 2)
    np.testing.assert_allclose(h["EKIN"], kinetic, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(h["EELAS"], springs, rtol=1e-12, atol=1e-15)
    # the normal spring's store; the stick spring's too while it sticks (FT below mu FN:
    # tests/discrete/test_friction_energy.py), not while it slides
    normal = 0.5e7 * np.maximum(h["PN_STOP"], 0.0) ** 2
    slides = h["FT_STOP"] >= (1.0 - 1e-9) * 0.3 * h["FN_STOP"]
    np.testing.assert_allclose(h["ESPRING"][slides], normal[slides], rtol=1e-12)
    assert np.all(h["ESPRING"] >= normal) and np.any(h["ESPRING"] > normal + 0.01)
    np.testing.assert_allclose(h["ETOT"], h["EKIN"] + h["EELAS"], rtol=1e-15)
    assert h["ENERGY_RESIDUAL"][0] == 0.0 and h["ECONTACT"][0] == 0.0
    assert h["ESPRING"].max() > 1.0  # the stop was hit: 2.1 J stored at its deepest
    # friction dissipates what it took, what the law supplied and the stick spring does
    # not hold, to the scheme's error (2e-7 J)
    dissipated = h["EFRICTION"] + h["ESTICK"] - (h["ESPRING"] - normal)
    assert np.all(np.diff(dissipated) >= -1e-6) and dissipated[-1] > 0.1


def test_the_balance_closes_without_regularised_friction(case):
    """Frictionless, or with the exact Coulomb law, the terms balance to what the
    central differences' reported mean velocity adds to the kinetic energy
    (tests/discrete/test_energy_increments): 3.5e-5 and 3.8e-5 of the largest mechanical
    energy (3.125 J) over 0.5 s, largest at the first impact."""
    for change in ("model.shock[0].mu=0.0", "model.shock[0].friction='exact'"):
        result = run(case, change)
        assert relative_residual(result) < 1e-3, change
        assert "stick_supplied" not in result.extra["energy"]
        assert "ESTICK" not in result.history
    assert run(case, "model.shock[0].friction='exact'").history["EFRICTION"][-1] > 0.1


def test_what_the_regularised_law_supplied_is_said(case):
    """The regularised law's stick spring (ct at 0.11 of critical) rings and resticks
    from the sliding force, as if stretched: what that hands it (ESTICK, 0.44 J of 3.125
    J by 0.2 s, 1.1 J over 0.5 s) is in extra.energy, and the balance closes (was 0.30 J
    of residual at 0.2 s, 0.68 J over 0.5 s, when EFRICTION was FT |v_t|)."""
    result = run(case)
    energy = result.extra["energy"]
    assert "sticking" not in energy
    assert energy["stick_supplied"] == result.history["ESTICK"][-1]
    assert energy["stick_supplied"] > 0.1 * energy["motion"]
    assert relative_residual(result) < 1e-3


def test_dampers_and_a_moving_support_under_newmark(case):
    """Rayleigh damping and a shaken support: EDAMP grows, ETABLE is the support's work,
    and the average-acceleration balance closes (frictionless)."""
    result = run(case, "model.shock[0].mu=0.0", "solver.scheme='newmark'",
                 "model.damping.mass_coefficient=5.0",
                 "model.support.acceleration={type='sine', amplitude=5.0, frequency=3.0}")
    h = result.history
    assert {"EDAMP", "ETABLE", "ECONTACT", "ENERGY_RESIDUAL"} <= set(h)
    assert np.all(np.diff(h["EDAMP"]) >= 0.0) and h["EDAMP"][-1] > 0.1
    assert np.abs(h["ETABLE"]).max() > 0.1
    assert relative_residual(result) < 1e-3


def test_nodes_left_out_of_the_history_still_count(case):
    """output.nodes = ['N2'] leaves N1 out: its columns are not written, and the energy
    is still the whole state's, as the full run's (the recorded columns identical)."""
    full = run(case).history
    part = run(case, "output.nodes=['N2']").history
    assert "DX_N1" not in part
    for name in ("DX_N2", "VY_N2", "AX_N2", "FN_STOP", "PN_STOP"):
        assert np.array_equal(part[name], full[name]), name
    for name in ("EKIN", "EELAS", "ESPRING", "EFRICTION", "ESTICK", "ENERGY_RESIDUAL"):
        np.testing.assert_allclose(part[name], full[name], rtol=1e-9, atol=1e-12)


def test_rows_steps_apart_have_the_energies_and_no_balance(case):
    """output.every = 10: the stored energies at the rows, no integral over the steps
    between them, and the balance says why."""
    result = run(case, "output.every=10")
    h = result.history
    assert {"EKIN", "EELAS", "ETOT", "ESPRING"} <= set(h)
    assert not {"EFRICTION", "ESTICK", "ECONTACT", "ENERGY_RESIDUAL"} & set(h)
    assert "output.every = 10" in result.extra["energy"]["not_computed"]
