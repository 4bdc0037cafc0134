"""The point shock springs of SDNV105 B, one spring at a time: what acts beside the shock
law while a spring is closed (the anchor, the dashpots outside the law) and its Jacobians."""

import re

import numpy as np
import pytest
from own_block import tall_block

import rocking_contact as rc
from rocking_contact.cli import main
from rocking_contact.contact.penalty import PenaltySprings
from rocking_contact.fem import runner
from rocking_contact.time import HHT
from rocking_contact.time.analysis import spectral_radius

KN, CN, KT, CT, KA = 3.0e10, 9.0e6, 1.0e7, 1.0e4, 3.0e10  # SDNV105 B's spring (SI units)


@pytest.fixture(scope="module")
def body():
    return runner.build_body(rc.load_case("sdnv105b"))


def _springs(body, **setting):
    case = rc.load_case("sdnv105b", {f"contact.spring.0.{k}": v for k, v in setting.items()})
    return PenaltySprings(body, case.contact)


def _force(springs, d, dv):
    F, Jd, Jv = np.empty(3), np.empty((3, 3)), np.empty((3, 3))
    closed = springs._force(0, np.asarray(d, float), np.asarray(dv, float), F, Jd, Jv)
    return closed, F, Jd, Jv


def test_code_aster_spring_while_closed(body):
    """Pressed 1e-7 m, shifted 2e-8 m and moving: kn p + cn v up; the stick spring (its
    state unstressed at x = 0), the anchor on the total shift and the dashpot along x."""
    springs = _springs(body)  # the case file's: anchor 3e10 N/m, dashpots "closed"
    d, dv = [2e-8, -1e-7, 0.0], [1e-4, -2e-3, 0.0]
    closed, F, _, _ = _force(springs, d, dv)
    assert closed
    assert F[1] == pytest.approx(KN * 1e-7 + CN * 2e-3, rel=1e-12)
    assert F[0] == pytest.approx(-(KT + KA) * 2e-8 - CT * 1e-4, rel=1e-12)


def test_closed_dashpots_pull_and_open_springs_do_nothing(body):
    """Leaving fast while still pressed: the dashpot outside the law pulls (the spring stays
    closed); inside the law the force is clipped at zero and the spring counts as open."""
    d, dv = [0.0, -1e-7, 0.0], [0.0, 1.0, 0.0]
    closed, F, _, _ = _force(_springs(body), d, dv)
    assert closed and F[1] == pytest.approx(KN * 1e-7 - CN * 1.0, rel=1e-12) and F[1] < 0.0
    closed, F, _, _ = _force(_springs(body, dashpots="clipped", anchor_stiffness=0.0), d, dv)
    assert not closed and np.all(F == 0.0)
    closed, F, Jd, Jv = _force(_springs(body), [5e-6, 1e-9, 0.0], [0.1, -0.1, 0.0])
    assert not closed and np.all(F == 0.0) and np.all(Jd == 0.0) and np.all(Jv == 0.0)


@pytest.mark.parametrize("setting", [{}, {"dashpots": "clipped"}, {"anchor_stiffness": 0.0}])
def test_jacobians_are_the_derivatives(body, setting):
    """dF/dd and dF/dv by central differences, in the stick branch (x, y; z stays zero)."""
    springs = _springs(body, **setting)
    d0, v0 = np.array([3e-8, -2e-7, 0.0]), np.array([2e-4, -1e-3, 0.0])
    _, _, Jd, Jv = _force(springs, d0, v0)
    for J, step, moved in ((Jd, 1e-12, "d"), (Jv, 1e-7, "v")):
        for k in (0, 1):
            e = np.zeros(3)
            e[k] = step
            plus = _force(springs, d0 + e * (moved == "d"), v0 + e * (moved == "v"))[1]
            minus = _force(springs, d0 - e * (moved == "d"), v0 - e * (moved == "v"))[1]
            fd = (plus - minus) / (2 * step)
            assert np.allclose(J[:2, k], fd[:2], rtol=1e-6, atol=1e-6 * np.max(np.abs(J))), (
                moved, k, J[:2, k], fd[:2])


def test_fallback_keeps_each_spring_as_the_step_began(body):
    """A fallback attempt: a spring closed at the step's start stays closed though it has
    left the ground (its normal spring goes on linearly and pulls, the anchor holds), and
    one open at the start stays open though it presses."""
    springs = _springs(body)
    springs._status_frozen = True  # what fallback() arms for the next attempt
    springs.closed[0] = True
    d, dv = [2e-8, 1e-7, 0.0], [0.0, 1e-3, 0.0]  # 1e-7 m above the ground, rising
    closed, F, Jd, _ = _force(springs, d, dv)
    assert closed and F[1] == pytest.approx(-KN * 1e-7 - CN * 1e-3, rel=1e-12)
    assert F[0] == pytest.approx(-KA * 2e-8, rel=1e-12) and Jd[1, 1] == -KN
    springs.closed[0] = False
    closed, F, Jd, Jv = _force(springs, [0.0, -1e-7, 0.0], [0.0, -1e-3, 0.0])
    assert not closed and np.all(F == 0.0) and np.all(Jd == 0.0) and np.all(Jv == 0.0)


@pytest.mark.parametrize("branch,shift,direction,contradicts", [
    (0, 1e-3, +1.0, False),  # frozen slip, trial (1e4 N) beyond the cone, force against it
    (0, 1e-5, +1.0, True),  # frozen slip, but the trial (100 N) is inside the cone
    (0, 1e-3, -1.0, True),  # frozen slip whose Coulomb force pushes along the trial
    (1, 1e-5, 0.0, False),  # frozen stick inside the cone
    (1, 1e-3, 0.0, True),  # frozen stick beyond it (1e4 N against mu FN = 2700 N)
])
def test_a_frozen_branch_the_converged_state_contradicts_is_named(body, branch, shift,
                                                                   direction, contradicts):
    """The plain-springs law (dashpots inside, no anchor), pressed 1e-7 m (FN = 3000 N,
    mu FN = 2700 N), its stick spring shifted by ``shift`` from its unstressed position
    (trial force -kt shift along x). The step is rejected when the branch frozen on an
    earlier iterate does not hold at the converged state."""
    springs = _springs(body, dashpots="clipped", anchor_stiffness=0.0)
    springs._branch[0] = branch
    springs._direction[0] = (direction, 0.0, 0.0)
    closed, F, _, _ = _force(springs, [shift, -1e-7, 0.0], [0.0, 0.0, 0.0])
    assert closed and F[1] == pytest.approx(KN * 1e-7, rel=1e-12)
    why = springs.inconsistency(None)
    if contradicts:
        assert why == "the frozen stick/slip branch of O contradicts the converged state"
    else:
        assert why is None


def test_a_step_that_fails_every_halving_is_taken_with_the_fallback():
    """B to impact 4 with no halving allowed: the step at 0.2328 s, which the shipped run
    halves three times (O and O1 landing), converges only with the springs' status of its
    start. The run completes and says which step needed it (results and warning)."""
    case = rc.load_case("sdnv105b", {"solver.max_halvings": 0, "time.end": 0.234,
                                     "collisions.windows": [[0.0, 0.234]]})
    result = rc.run(case, write=False, plots=False, quiet=True)
    assert result.status == "completed" and result.timing["halvings"] == 0
    assert result.timing["fallback_steps"] == 1
    (step,) = result.extra["fallback_steps"]
    assert step["time"] == pytest.approx(0.2328, abs=1e-9)
    assert step["eased"] == "spring status kept from the step's start"
    assert len(result.warnings) == 1 and "t = 0.2328 s" in result.warnings[0]


def test_a_second_fallback_in_a_row_is_refused_to_a_spring_held_open_in_the_ground():
    """B with its anchors but the dashpots clipped inside the law (their default): A lands
    again at 0.0574 s 0.147 mm from where it started, its anchor (3e10 N/m) pushes 4.4e6 N
    and no status solves the step; the fallback takes it with A held open, and A falls in.
    The next step has no status either. A second fallback would hold A open in the ground
    again: from 94396cd to d24deec the run took 3443 fallback steps, A sank 14.7 mm by
    0.13 s and the block gained 3.5e6 J before it toppled at 0.1386 s. It stops at the
    second, saying why."""
    clipped = {f"contact.spring.{n}.dashpots": "clipped" for n in range(3)}
    case = rc.load_case("sdnv105b", {**clipped, "time.end": 0.0576,
                                     "collisions.windows": [[0.0, 0.0576]]})
    with pytest.raises(rc.SolverFailure) as failure:
        rc.run(case, write=False, plots=False, quiet=True)
    message = str(failure.value)
    assert re.search(r"step 291 from t = 0\.0574289\d* s failed with h = 7\.81e-07 s after 5 "
                     r"halvings", message), message
    assert message.endswith("; the fallback of the step before held A open though the law "
                            "closed it: no second fallback in a row for a spring in the "
                            "ground"), message
    partial = failure.value.partial
    assert partial is not None and partial.timing["fallback_steps"] == 1


def test_springs_held_closed_may_take_the_fallback_again():
    """B flat on a table shaken at 6 m/s^2, 2 Hz (docs/theta.md): as O1 lifts at 0.0661 s,
    5 steps in a row need the fallback, each holding a spring closed that its law opens
    (a scale of 1e-12 m). A spring held closed still pulls its node back: the run goes on."""
    case = rc.load_case("sdnv105b", {
        "preload.tilt": 0.0, "time.end": 0.07, "collisions.windows": [],
        "loading.table_acceleration_x": {"type": "sine", "amplitude": 6.0, "frequency": 2.0}})
    result = rc.run(case, write=False, plots=False, quiet=True)
    assert result.status == "completed"
    times = [step["time"] for step in result.extra["fallback_steps"]]
    late = [t for t in times if t > 0.066]
    assert len(times) == 33 and len(late) == 5
    assert np.allclose(np.diff(late), 0.00125 / 32, rtol=1e-6)  # in a row: last halving's h


def test_hht_weights_the_springs_as_the_body_forces():
    """HHT is second order only if every force of the step equation is weighted alike. The
    block stands undeformed on its three springs, pressed by half their static compression
    (gap -p/2), and bounces on them: linear springs that stay closed, no dashpot, anchor or
    Rayleigh damping, 200 steps of 25 us. Its vertical mode (omega^2 = 3 kn / M) must keep
    the amplitude the one-mode analysis of HHT gives, rho^180 between the first and last
    tenths of the run; springs weighted as the alpha-modified Newmark would leave ~0.35 of it
    (first order, and what HHT with unweighted springs did before)."""
    mass, gravity, h, alpha = 417.6, 9.81, 2.5e-5, -0.1  # M = 4 rho b l e
    static = mass * gravity / (3 * KN)
    overrides = {"initial.state": "rest", "time.end": 200 * h, "time.step": h,
                 "time.window": [], "time.refine.enabled": False, "scheme.type": "hht",
                 "scheme.alpha": alpha, "collisions.windows": [], "collisions.rigid": False,
                 "reference": [], "quantity": [], "material.block.rayleigh_stiffness": 0.0}
    for j in range(3):
        overrides.update({f"contact.spring.{j}.{key}": 0.0 for key in
                          ("normal_damping", "tangential_damping", "anchor_stiffness")})
        overrides[f"contact.spring.{j}.gap"] = -static / 2
    result = rc.run(rc.load_case("sdnv105b", overrides), write=False, plots=False,
                    quiet=True)
    assert result.status == "completed"
    assert np.all(result.history["CONTACTS"][1:] == 3)
    dy = np.asarray(result.history["DY_O1"])
    tenth = len(dy) // 10
    kept = np.ptp(dy[-tenth:]) / np.ptp(dy[:tenth])
    rho = spectral_radius(HHT(alpha), np.sqrt(3 * KN / mass) * h)
    assert kept == pytest.approx(rho ** (len(dy) - tenth), abs=0.01)


WEIGHT = 4 * 1450.0 * 0.18 * 0.40 * 9.81  # B's block (N), what the preload's support at O carries


@pytest.mark.parametrize("gap", [-1e-6, 0.0, 1e-3])
def test_a_gap_is_free_travel_from_where_the_preload_left_the_block(gap):
    """The spring under O takes the support's reaction only where it is closed: touching
    (gap 0, B as shipped) or pressed (gap < 0, the penetration on top); with a gap above O
    the block stays where the preload left it and falls the gap (it was lowered by
    ``R / kn + gap``: 1 mm, A's lift above its spring 3.5958 -> 2.5958 mm)."""
    sets = {"time.end": 2.5e-5, "collisions.windows": [[0.0, 2.5e-5]], "contact.spring.0.gap": gap}
    h = rc.run(rc.load_case("sdnv105b_plain_springs", sets), write=False, plots=False,
               quiet=True).history
    closed = gap <= 0.0
    assert h["DY_O"][0] == pytest.approx(-WEIGHT / KN if closed else 0.0, rel=1e-6, abs=1e-15)
    assert h["RN_O"][0] == pytest.approx(WEIGHT - KN * gap if closed else 0.0, rel=1e-6)
    assert h["DY_A"][0] - h["DY_O"][0] == pytest.approx(0.0035959, abs=1e-7)
    assert h["RN_O1"][0] == 0.0 and h["RN_A"][0] == 0.0


FLAT = {"preload.tilt": 0.0, "time.step": 1e-4, "time.window": [], "collisions.windows": [],
        "collisions.rigid": False, "reference": [], "quantity": []}


@pytest.mark.parametrize("name", ["sdnv105b", "sdnv105b_plain_springs"])
def test_a_block_released_flat_stands_in_equilibrium_on_its_springs(name):
    """Tilt 0: the preload's supports hold the five base nodes, the springs are under three
    (O, O1, A). The block is settled on them by a static solve (fem.preload.settle_on_springs)
    and released there: the springs carry M g, about a third each, symmetrically, and nothing
    moves over 10 ms of 1e-4 s average-acceleration steps. Before, the springs took the
    supports' 899 N each (0.66 M g) and the sum swung between 2697 and 4892 N.

    Bounds: the settle's Newton stops at 1e-10 of its first residual (about M g), so the
    springs balance the weight to ~1e-10 M g (4e-16 measured with the plain springs and with
    B's, docs/contact.md at 8670ae5; 2.4e-11 with the plain springs before): 1e-9 relative.
    An imbalance of 1e-9 M g (4e-6 N) on the 418 kg block for 10 ms gives it 2e-17 J; EKIN
    stays below 1e-16 J (1e-35 J measured; 1.1e-6 J before). That nothing moves also says
    each spring carries what the static problem gives."""
    result = rc.run(rc.load_case(name, {**FLAT, "time.end": 0.01}), write=False,
                    plots=False, quiet=True)
    h = result.history
    # its total energy's round-off (2.7e-20 J of 2e-4 J) is no rise (it warned of 2e18 %)
    assert result.warnings == []
    rn = h["RN_O"] + h["RN_O1"] + h["RN_A"]
    assert rn[0] == pytest.approx(WEIGHT, rel=1e-9)
    assert np.max(np.abs(rn - WEIGHT)) <= 1e-9 * WEIGHT, (rn.min(), rn.max())
    assert h["RN_A"][0] == pytest.approx(h["RN_O"][0], rel=1e-9)
    for point in ("O", "O1", "A"):
        assert h[f"RN_{point}"][0] == pytest.approx(WEIGHT / 3, rel=0.05)
    assert np.all(h["CONTACTS"] == 3)
    assert np.max(h["EKIN"]) < 1e-16


def test_a_flat_block_its_springs_cannot_hold_is_lowered_onto_them_and_tips(capsys):
    """Flat on springs at O and B1 only (A's 1 mm above the ground), the weight beyond both
    (O1 at x = 0.18 m, B1 at 0.16 m): no static equilibrium, the settle fails and the block is
    released as a tilted one is, lowered rigidly by the largest support reaction over kn
    (both springs carry it), and it tips towards A. The run says so, once: the start is not
    the one docs/contact.md describes (it said nothing)."""
    sets = {**FLAT, "time.end": 1e-3, "contact.spring.1.on": "B1", "contact.spring.2.gap": 1e-3}
    result = rc.run(rc.load_case("sdnv105b_plain_springs", sets), write=False, plots=False,
                    quiet=True)
    assert result.status == "completed"
    (warning,) = result.warnings
    # Newton runs away from the weight it cannot balance (7.6e8 N measured)
    assert re.fullmatch(r"the preload's static step on the springs found no equilibrium "
                        r"\(residual \d\.\d{3}e\+0[5-9] N, DIVERGED_DTOL\): the block is "
                        r"released from its supports' state instead, lowered rigidly onto the "
                        r"spring under the largest support reaction, not in equilibrium on its "
                        r"springs", warning), warning
    err = capsys.readouterr().err.splitlines()
    assert err == [f"warning: sdnv105b_plain_springs: {warning}"]
    h = result.history
    assert h["RN_O"][0] == pytest.approx(h["RN_B1"][0], rel=1e-9) and h["RN_A"][0] == 0.0
    assert h["RN_O"][0] < WEIGHT / 3 and h["RN_O"][-1] == 0.0
    assert h["DY_A"][-1] < h["DY_A"][0] < 0.0


def test_a_constraint_holds_the_block_in_the_settle_on_its_springs():
    """Flat B with O held at DY = 0 by a [[constraint]] (springs at O, O1, A): the settle on
    the springs keeps the supports of the dynamic phase, so the block stands in equilibrium
    on O1's and A's springs and the pin at O from the release on: O stays at 0 and nothing
    moves (EKIN below 1e-16 J over 1 ms, 2.8e-36 J measured). The settle used to drop the
    constraint (the table's supports only): O sank 4.49e-8 m onto its spring (1348 N), the
    release lifted it back to 0 in the first step and the block rang (EKIN up to 5.5e-4 J,
    a warning of the energy's rise)."""
    sets = {**FLAT, "time.end": 1e-3, "constraint": [{"on": "O", "components": ["DY"],
                                                       "value": 0.0}]}
    result = rc.run(rc.load_case("sdnv105b", sets), write=False, plots=False, quiet=True)
    assert result.status == "completed" and result.warnings == []
    h = result.history
    assert np.all(h["DY_O"] == 0.0), h["DY_O"][:3]
    # the pin carries O's share: its spring, at zero penetration, carries nothing
    assert np.all(h["RN_O"] == 0.0) and np.all(h["CONTACTS"] == 2)
    assert h["RN_O1"][0] + h["RN_A"][0] < WEIGHT
    assert np.max(h["EKIN"]) < 1e-16


def test_at_rest_the_block_starts_where_it_is_and_falls_its_gap():
    """No preload: nothing to take over, the block is not moved. With 5 mm gaps it falls
    freely (undeformed, the rigid free fall of the average-acceleration scheme, exact) and the
    springs stay open; it started 5 mm down, already on them."""
    h, gap = 1e-3, 0.005
    sets = {"initial.state": "rest", "time.end": 10 * h, "time.step": h, "time.window": [],
            "time.refine.enabled": False, "collisions.windows": [], "collisions.rigid": False,
            "reference": [], "quantity": []}
    sets |= {f"contact.spring.{j}.gap": gap for j in range(3)}
    result = rc.run(rc.load_case("sdnv105b_plain_springs", sets), write=False, plots=False,
                    quiet=True)
    assert result.status == "completed"
    t = result.history["time"]
    for name in ("O", "O1", "A"):
        assert result.history[f"DY_{name}"][0] == 0.0
        assert np.all(result.history[f"RN_{name}"] == 0.0)
        assert result.history[f"DY_{name}"] == pytest.approx(-9.81 * t**2 / 2, rel=1e-6,
                                                             abs=1e-12)
    assert np.all(result.history["CONTACTS"] == 0)


@pytest.mark.parametrize("sets,words", [
    # a table node: the block fell freely
    ({"mesh.table": True, "contact.spring.0.on": "S0"},
     "mesh.table: true meshes a table that contact.treatment = 'penalty' never touches"),
    # the top of the block, taken for a ground spring
    ({"contact.spring.2.on": "C1"},
     "contact.spring[2].on: 'C1' is not a named point of the block's base (allowed: O, O1, "
     "A, B1, B2, each once)"),
    ({"contact.spring.0.on": "Q"}, "contact.spring[0].on: 'Q' is not a named point"),
    # one point twice: its stiffness doubled
    ({"contact.spring.1.on": "O"},
     "contact.spring[1].on: 'O' has a spring already (contact.spring[0]; two would double "
     "its stiffness; allowed: O, O1, A, B1, B2, each once)"),
])
def test_springs_that_make_no_sense_are_refused(capsys, tmp_path, sets, words):
    """One line naming the file and the key, exit code 2, nothing run."""
    argv = ["run", "sdnv105b", "--out", str(tmp_path / "o")]
    for key, value in sets.items():
        argv += ["--set", f"{key}={str(value).lower() if isinstance(value, bool) else value}"]
    code = main(argv)
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("error: ") and "sdnv105b.toml (with --set)" in err
    assert words in err, err
    assert not (tmp_path / "o" / "results.json").exists()




def test_the_energy_a_restuck_spring_is_handed_is_the_laws_not_the_steps(tmp_path):
    """A user's tall block on plain springs (audit s25 #2): corner A slid while its normal
    force rose to 11.8 kN, stuck again at 0.1344 s with the 7 kN it carried, and its stick
    spring gave the block 2.52 J that no work had put there. The run said "the time steps
    created it ... use a smaller time.step", and smaller steps gave as much. The law's
    energy is column ESTICK (2.958 J over the run, 0.691 J with kt ten times stiffer: it
    is Ft^2 / (2 kt)); the energy checks count it as supplied, and a warning says whose it
    is."""
    path = tmp_path / "tall.toml"
    path.write_text(tall_block("sdnv105b", """[contact]
spring = [{on = "O"}, {on = "O1"}, {on = "A"}]
[[time.window]]
start = 0.0
end = 0.0025
step = 2.5e-5
alpha = -0.1
"""), encoding="utf-8")
    result = rc.run(rc.load_case(path), out=tmp_path / "out", quiet=True, plots=False)
    energy = result.extra["energy"]
    assert energy["ESTICK_final"] == pytest.approx(2.958, abs=1e-3)
    # the store jumps where the spring sticks again by what the law handed it
    h = result.history
    mechanical = h["ETOT"] + h["ESPRING"]
    k = int(np.argmax(np.diff(mechanical))) + 1
    assert np.diff(mechanical)[k - 1] == pytest.approx(np.diff(h["ESTICK"])[k - 1], rel=0.05)
    assert energy["ETOT_regain_relative"] < 0.01 and energy["ETOT_rise_relative"] < 0.01
    said = [w for w in result.warnings if "friction law supplied" in w]
    assert said == [
        "the shock springs' friction law supplied 2.958 J (29.4% of the energy of the motion, "
        "column ESTICK): a spring that slides carries mu RN without stretching, and when it "
        "sticks again it starts from that force as if stretched Ft / kt, then gives the "
        "block Ft^2 / (2 kt) that no work put there; smaller steps do not remove it, a "
        "larger tangential stiffness kt makes it smaller"]
    assert not any("the time steps created it" in w for w in result.warnings)
