"""A modal basis with fewer modes than unknowns says what it leaves out at the shocks
(docs/discrete.md, "Modal truncation")."""

import math

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.config import build
from rocking_contact.discrete.case import DiscreteCase
from rocking_contact.discrete.system import assemble
from rocking_contact.discrete.truncation import (
    MISSED_FLEXIBILITY_LIMIT,
    missed_flexibility,
    truncation_warnings,
)


def chain(modes, k2=1e4, kn=1e5, v0=1.0, support=None, space="modal"):
    """Ground -1e4 N/m- 1 kg -k2- 1 kg, the second mass 5 mm from a stop of stiffness kn
    (a Code_Aster-style 2-dof chain), launched at v0 or shaken by ``support``."""
    nodes = [{"name": "N0", "fixed": ["DX", "DY", "DZ"]},
             {"name": "N1", "mass": 1.0, "fixed": ["DY", "DZ"]},
             {"name": "N2", "mass": 1.0, "fixed": ["DY", "DZ"], "v0": [v0, 0.0, 0.0]}]
    springs = [{"name": "K1", "nodes": ["N0", "N1"], "stiffness": [1e4, 0.0, 0.0]},
               {"name": "K2", "nodes": ["N1", "N2"], "stiffness": [k2, 0.0, 0.0]}]
    model = {"node": nodes, "spring": springs,
             "shock": [{"name": "S", "node": "N2", "normal": [1.0, 0.0, 0.0], "gap": 5e-3,
                        "kn": kn}]}
    if support:
        model["support"] = support
    solver = {"space": space, **({"modes": modes} if space == "modal" else {})}
    return build(DiscreteCase, {"case": {"name": "chain", "title": "t", "kind": "discrete"},
                                "model": model, "solver": solver,
                                "time": {"start": 0.0, "end": 0.2, "step": 1e-5}},
                 file="<test>")


def test_one_mode_of_two_says_what_it_drops():
    """K = 1e4 [[2, -1], [-1, 1]] N/m, unit masses: the second mode holds (5 - 2 sqrt 5)/10
    of N2's static flexibility 2e-4 m/N, and (5 - sqrt 5)/10 of the energy of a launch at
    N2. The run was 0.016 m off the two-mode one (amplitude 0.009 m), without a word."""
    result = rc.run(chain(modes=1), write=False, quiet=True)
    share = (5 - 2 * math.sqrt(5)) / 10
    assert result.extra["missed_flexibility"]["S"] == pytest.approx(share, rel=1e-12)
    assert result.extra["missed_flexibility_per_spring"]["S"] == pytest.approx(
        1e5 * 2e-4 * share, rel=1e-12)
    assert result.extra["dropped_initial_energy"] == pytest.approx((5 - math.sqrt(5)) / 10,
                                                                   rel=1e-12)
    assert result.warnings == [
        "solver.modes = 1 of 2: the dropped modes hold 0.0528 of shock S's static "
        "flexibility along its normal, 1.06 times its spring's own (more than 0.01): its "
        "impacts (forces, instants) and the motion after them are those of a stiffer "
        "structure; keep more modes or solver.space = 'physical'",
        "solver.modes = 1 of 2: the initial state, projected on the kept modes, loses "
        "0.276 of its energy (in the dropped modes)"]
    full = rc.run(chain(modes=2), write=False, quiet=True)
    assert np.abs(full.history["DX_N2"] - result.history["DX_N2"]).max() > 0.015


@pytest.mark.parametrize("modes,space", [(2, "modal"), (0, "physical")])
def test_the_truncation_warnings_of_a_full_basis_are_none(modes, space):
    """Called on its own, without the runner's guard (missed_flexibility is {} then), it
    raised KeyError: 'S'."""
    case = chain(modes=modes, space=space)
    system = assemble(case.model, case.solver)
    assert missed_flexibility(case, system) == {}
    assert truncation_warnings(case, system) == []


@pytest.fixture(scope="module")
def physical():
    """The chain integrated on its physical unknowns: what every full modal basis gives."""
    return rc.run(chain(modes=0, space="physical"), write=False, quiet=True)


@pytest.mark.parametrize("modes,space", [(2, "modal"), (0, "modal"), (0, "physical")])
def test_every_mode_kept_drops_nothing(modes, space, physical):
    """No warning, and the motion, stop included, is the physical one (central differences: the same
    arithmetic up to round-off, 1.4e-14 of each column's largest value; the energy balance's
    residual, a difference of energies that cancel, of the largest total energy)."""
    result = rc.run(chain(modes=modes, space=space), write=False, quiet=True)
    assert "missed_flexibility" not in result.extra and result.warnings == []
    assert physical.history["FN_S"].max() > 0 and list(result.history) == list(physical.history)
    for column, values in physical.history.items():
        of = "ETOT" if column == "ENERGY_RESIDUAL" else column
        scale = np.abs(physical.history[of]).max()
        assert np.abs(result.history[column] - values).max() <= 1e-9 * scale, column


@pytest.mark.parametrize("kn,warned,largest_error", [(1e4, False, 0.0025), (1e5, True, None)])
def test_the_limit_parts_small_errors_from_large_ones(kn, warned, largest_error):
    """Shaken at 8 Hz (50 m/s^2), K2 = 1e6 N/m: the dropped mode holds 0.25 % of N2's
    flexibility either way, but against a 1e4 N/m stop (kn df = 0.0025) the one-mode peak
    force is 0.19 % off the two-mode one over 0.2 s, against 1e5 N/m (0.025) 1.6 % (4.0 %
    over 0.5 s)."""
    shake = {"direction": [1.0, 0.0, 0.0],
             "acceleration": {"type": "sine", "amplitude": 50.0, "frequency": 8.0}}
    one, two = (rc.run(chain(modes=m, k2=1e6, kn=kn, v0=0.0, support=shake), write=False,
                       quiet=True) for m in (1, 2))
    ratio = one.extra["missed_flexibility_per_spring"]["S"]
    assert (ratio > MISSED_FLEXIBILITY_LIMIT) == warned
    assert any("dropped modes hold" in w for w in one.warnings) == warned
    error = abs(one.history["FN_S"].max() / two.history["FN_S"].max() - 1.0)
    if warned:
        assert error > MISSED_FLEXIBILITY_LIMIT
    else:
        assert error < largest_error


def test_a_pad_is_said_to_miss_its_tangential_flexibility():
    """A pad pressed along N1's held DY (its node cannot move along its normal) with a
    1e8 N/m stick spring along x: the dropped mode holds none of its normal's flexibility
    and kt df = 1e8 * 2e-4 * 0.0528 = 1056 of its stick spring's. The warning said "0 of
    shock P's static flexibility along its normal, 1.06e+03 times its spring's own"
    (S27 U1 #9): it names the tangent plane and the stick spring now."""
    case = chain(modes=1, kn=1e5)
    case.model.shock[0].gap = 1.0  # the stop stays away: the pad's warning alone
    case.model.shock.append(build(type(case.model.shock[0]), {
        "name": "P", "node": "N2", "normal": [0.0, -1.0, 0.0], "gap": -1.0, "kn": 9.81,
        "kt": 1e8, "ct": 2e4, "mu": 0.1}, file="<test>"))
    result = rc.run(case, write=False, quiet=True)
    share = (5 - 2 * math.sqrt(5)) / 10
    assert result.extra["missed_flexibility"]["P"] == 0.0
    assert result.extra["missed_flexibility_per_spring"]["P"] == pytest.approx(
        1e8 * 2e-4 * share, rel=1e-9)
    said = [w for w in result.warnings if "shock P" in w]
    assert said == [
        "solver.modes = 1 of 2: the dropped modes hold a static flexibility in shock P's "
        "tangent plane 1.06e+03 times its stick spring's own (1/kt, kt = 1e+08 N/m), and 0 "
        "of the node's along its normal (more than 0.01): its friction (stick phases, the "
        "force it holds) and the motion after them are those of a stiffer structure; keep "
        "more modes or solver.space = 'physical'"]
