"""Integrators and assembly of the discrete module on problems with known answers."""

import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.linalg

from rocking_contact.config import build
from rocking_contact.discrete.case import DiscreteCase
from rocking_contact.discrete.runner import integrate
from rocking_contact.discrete.system import assemble
from rocking_contact.time import HHT

# the Newmark family from its defining equations, shared with the FEM checks (tests/fem)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fem"))
from textbook_schemes import textbook_amplification  # noqa: E402


def make_case(nodes, springs=(), shocks=(), relations=(), solver=None, end=0.2, step=1e-4,
              support=None, damping=None, gravity=(0.0, 0.0, 0.0)):
    model = {"node": list(nodes), "spring": list(springs), "shock": list(shocks),
             "relation": list(relations), "gravity": list(gravity)}
    if support:
        model["support"] = support
    if damping:
        model["damping"] = damping
    data = {"case": {"name": "t", "title": "t", "kind": "discrete"}, "model": model,
            "time": {"start": 0.0, "end": end, "step": step},
            "solver": solver or {}}
    return build(DiscreteCase, data, file="<test>")


def chain(n=3, v0=1.0):
    nodes = [{"name": "N0", "fixed": ["DX", "DY", "DZ"]}]
    springs = []
    for i in range(1, n + 1):
        nodes.append({"name": f"N{i}", "mass": float(i), "fixed": ["DY", "DZ"],
                      "v0": [v0 if i == n else 0.0, 0.0, 0.0]})
        springs.append({"name": f"K{i}", "nodes": [f"N{i - 1}", f"N{i}"],
                        "stiffness": [1e4 * i, 0.0, 0.0]})
    return nodes, springs


def energy(case, history):
    system = assemble(case.model, case.solver)
    masses = {n.name: n.mass for n in case.model.node}
    kin = sum(0.5 * masses[k[3:]] * history[k] ** 2 for k in history if k.startswith("VX_"))
    u = {n.name: np.zeros_like(history["time"]) for n in case.model.node}
    for k in history:
        if k.startswith("DX_"):
            u[k[3:]] = history[k]
    pot = sum(0.5 * s.stiffness[0] * (u[s.nodes[1]] - u[s.nodes[0]]) ** 2
              for s in case.model.spring)
    assert system.n == 3
    return kin + pot


def test_average_acceleration_conserves_energy():
    nodes, springs = chain()
    case = make_case(nodes, springs, solver={"scheme": "newmark"}, end=0.1, step=1e-4)
    history, _, failure, _ = integrate(case, assemble(case.model, case.solver))
    assert failure is None
    e = energy(case, history)
    assert np.abs(e - e[0]).max() <= 1e-10 * e[0]


@pytest.mark.parametrize("solver,kind,coefficients", [
    ({"scheme": "central_difference"}, "CentralDifferenceIntegrator", None),
    ({"scheme": "newmark", "beta": 0.3025, "gamma": 0.6}, "NewmarkIntegrator",
     (0.3025, 0.6, 0.0)),
    ({"scheme": "hht", "alpha": -0.2}, "HHTIntegrator", (1.2**2 / 4, 0.7, -0.2))])
def test_each_scheme_makes_its_integrator(solver, kind, coefficients):
    """Every value of solver.scheme has its integrator (built from the case's SCHEMES, whose
    names the schema's type lists), made with the [solver]'s coefficients: (beta, gamma,
    alpha), HHT's beta and gamma derived from alpha, Newmark's alpha 0."""
    from typing import get_args, get_type_hints

    from rocking_contact.discrete import central_difference, integrators, newmark
    from rocking_contact.discrete.case import SCHEMES, Solver

    assert tuple(integrators.INTEGRATORS) == tuple(SCHEMES) == get_args(
        get_type_hints(Solver)["scheme"])
    nodes, springs = chain()
    case = make_case(nodes, springs, solver=solver, end=0.01, step=1e-4)
    system = assemble(case.model, case.solver)
    made = integrators.make_integrator(case, system, np.eye(system.n), 0.0)
    home = central_difference if kind == "CentralDifferenceIntegrator" else newmark
    assert type(made) is getattr(home, kind)
    assert (made.dt, made.every) == (1e-4, case.output.every)
    if coefficients is not None:
        assert (made.beta, made.gamma, made.alpha) == pytest.approx(coefficients, abs=1e-15)
        assert (made.tol, made.max_iter) == (case.solver.newton_tol,
                                             case.solver.newton_max_iter)
    # HHT reads its rebound a step later (its equilibrium weighs the force of the step before)
    assert made.settle_records == (2 if kind == "HHTIntegrator" else 1)


def chain_modes():
    """(omega^2 (rad^2/s^2), M-orthonormal shapes) of ``chain()``: masses 1, 2, 3 kg,
    springs 1e4, 2e4, 3e4 N/m from the ground."""
    mass = np.diag([1.0, 2.0, 3.0])
    stiffness = np.array([[3e4, -2e4, 0.0], [-2e4, 5e4, -3e4], [0.0, -3e4, 3e4]])
    return scipy.linalg.eigh(stiffness, mass)


def test_hht_is_the_textbook_scheme_mode_by_mode():
    """HHT (alpha = -0.3, h = 0.01 s, omega h = 0.34 to 2.1) on the chain launched at N3:
    each mode is the textbook amplification matrix's (Hilber, Hughes & Taylor) to
    round-off, displacements at every step and the energy it leaves (0.576 of the start)."""
    nodes, springs = chain()
    hht = make_case(nodes, springs, solver={"scheme": "hht", "alpha": -0.3}, end=1.0, step=1e-2)
    history = integrate(hht, assemble(hht.model, hht.solver))[0]
    e = energy(hht, history)
    omega2, shapes = chain_modes()
    launch = shapes.T @ np.diag([1.0, 2.0, 3.0]) @ np.array([0.0, 0.0, 1.0])  # modal v0
    # (mode, step, (q, dq/dt, d2q/dt2)), from q = 0, dq/dt = the launch's share, at rest
    modal = np.array([[np.linalg.matrix_power(amplification, k) @ [0.0, v0, 0.0]
                       for k in range(len(history["time"]))]
                      for amplification, v0 in zip(
                          (textbook_amplification(HHT(-0.3), np.sqrt(w2), 1e-2)
                           for w2 in omega2), launch)])
    expected = shapes @ modal[:, :, 0]                          # (node, step) displacements
    got = np.array([history[f"DX_N{i}"] for i in (1, 2, 3)])
    assert np.abs(got - expected).max() <= 1e-12 * np.abs(expected).max()
    kept = np.sum(0.5 * modal[:, -1, 1] ** 2 + 0.5 * omega2 * modal[:, -1, 0] ** 2)
    assert e[-1] == pytest.approx(kept, rel=1e-12)
    assert e[-1] < 0.9 * e[0]  # (the physical energy of HHT need not decrease monotonically)


def test_central_difference_energy_within_its_step_error():
    """Central differences conserve a shadow energy; the physical one oscillates by about
    (omega_max h)^2 / 4 of it (1.1e-4 here, h = 1e-4 s, omega_max = 209 rad/s)."""
    nodes, springs = chain()
    cd = make_case(nodes, springs, solver={"scheme": "central_difference"}, end=0.2, step=1e-4)
    e = energy(cd, integrate(cd, assemble(cd.model, cd.solver))[0])
    bound = np.max(chain_modes()[0]) * 1e-4**2 / 4
    assert np.abs(e - e[0]).max() <= bound * e[0]


@pytest.mark.parametrize("scheme", ["central_difference", "newmark"])
def test_modal_and_physical_spaces_agree_with_all_modes(scheme):
    nodes, springs = chain()
    shocks = [{"name": "S", "node": "N3", "normal": [1.0, 0.0, 0.0], "gap": 1e-3,
               "kn": 1e7}]
    runs = []
    for space in ("physical", "modal"):
        case = make_case(nodes, springs, shocks, solver={"scheme": scheme, "space": space},
                         end=0.1, step=1e-5)
        runs.append(integrate(case, assemble(case.model, case.solver))[0])
    assert runs[0]["FN_S"].max() > 0  # the shock is exercised
    # Explicit: the same arithmetic up to round-off; implicit: up to Newton's tolerance.
    tol = 1e-9 if scheme == "central_difference" else 1e-7
    for key in runs[0]:
        scale = np.abs(runs[0][key]).max()
        assert np.abs(runs[1][key] - runs[0][key]).max() <= tol * scale, key


def test_relation_keeps_dofs_equal():
    nodes = [{"name": "P", "mass": 2.0, "fixed": ["DZ"], "u0": [1e-3, 1e-3, 0.0]}]
    springs = [{"name": "K", "nodes": ["P"], "stiffness": [1e4, 3e4, 0.0]}]
    relations = [{"dofs": ["P.DX", "P.DY"], "coefficients": [1.0, -1.0]}]
    case = make_case(nodes, springs, relations=relations, end=0.05)
    system = assemble(case.model, case.solver)
    assert system.n == 1
    history = integrate(case, system)[0]
    np.testing.assert_allclose(history["DX_P"], history["DY_P"], rtol=0, atol=1e-15)
    # One dof, mass 2 x 2 kg along the line, stiffness 1e4 + 3e4: w^2 = 4e4 / 4. Central
    # differences from rest give 1e-3 cos(w_h t) exactly, with sin(w_h h / 2) = w h / 2
    # (the start-up's u1 = u0 (1 - (w h)^2 / 2) is cos(w_h h)); 0.05 s lag the exact phase
    # by w t (w h)^2 / 24 = 2.1e-5 rad.
    w, h, t = np.sqrt(4e4 / 4.0), case.time.step, history["time"]
    w_h = 2 / h * np.arcsin(w * h / 2)
    np.testing.assert_allclose(history["DX_P"], 1e-3 * np.cos(w_h * t), rtol=0, atol=1e-15)
    lag = w * t[-1] * (w * h) ** 2 / 24
    np.testing.assert_allclose(history["DX_P"], 1e-3 * np.cos(w * t), rtol=0,
                               atol=1.01 * lag * 1e-3)


def test_support_acceleration_relative_formulation():
    """Constant support acceleration a0 with damping: the mass settles at -m a0 / K."""
    nodes = [{"name": "S", "fixed": ["DX", "DY", "DZ"]},
             {"name": "M", "mass": 10.0, "fixed": ["DY", "DZ"]}]
    springs = [{"name": "K", "nodes": ["S", "M"], "stiffness": [1e4, 0, 0]}]
    case = make_case(nodes, springs, end=3.0, step=1e-3,
                     support={"acceleration": {"type": "table", "times": [0.0, 10.0],
                                               "values": [3.0, 3.0]}},
                     damping={"modal_ratio": 0.2}, solver={"scheme": "newmark"})
    history = integrate(case, assemble(case.model, case.solver))[0]
    assert history["DX_M"][-1] == pytest.approx(-10.0 * 3.0 / 1e4, rel=1e-6)


def test_exact_friction_sticks_below_and_slides_above_the_threshold():
    """A 1 kg block pressed by N = 10 N (mu = 0.5) and pulled by gravity along x.

    The block starts at its normal equilibrium (penetration m g / kn) so that the normal
    force is established from the first step.
    """
    for pull, slides in ((4.0, False), (8.0, True)):
        nodes = [{"name": "B", "mass": 1.0}]
        shocks = [{"name": "F", "node": "B", "normal": [0.0, 0.0, -1.0], "gap": -1e-5,
                   "kn": 1e6, "cn": 2e3, "mu": 0.5, "friction": "exact"}]
        case = make_case(nodes, shocks=shocks, gravity=(pull, 0.0, -10.0), end=0.2,
                         step=1e-4)
        history = integrate(case, assemble(case.model, case.solver))[0]
        t, x = history["time"], history["DX_B"]
        if slides:
            late = t > 0.1
            accel = np.polyfit(t[late], x[late], 2)[0] * 2
            assert accel == pytest.approx(pull - 0.5 * 10.0, rel=1e-3)
        else:
            assert np.abs(x).max() <= 1e-12



def test_unknowns_known_at_load_match_the_assembly():
    """Model.unknowns (what solver.modes is checked against at load) counts the columns of
    the assembled basis: free dofs less independent relations, repeated ones counted once,
    terms on fixed dofs dropped."""
    nodes = [{"name": "P", "mass": 2.0, "fixed": ["DZ"]},
             {"name": "Q", "mass": 1.0},
             {"name": "G", "fixed": ["DX", "DY", "DZ"]}]
    springs = [{"name": "K", "nodes": ["P", "Q"], "stiffness": [1e4, 3e4, 2e4]}]
    relations = [{"dofs": ["P.DX", "P.DY"], "coefficients": [1.0, -1.0]},
                 {"dofs": ["P.DX", "P.DY"], "coefficients": [2.0, -2.0]},
                 {"dofs": ["Q.DZ", "G.DX"], "coefficients": [1.0, 5.0]},
                 {"dofs": ["P.DZ", "G.DY"], "coefficients": [1.0, 1.0]}]
    case = make_case(nodes, springs, relations=relations)
    assert case.model.unknowns() == assemble(case.model, case.solver).n == 5 - 2
    chain_case = make_case(*chain(3), solver={"space": "modal", "modes": 3})
    assert chain_case.model.unknowns() == 3


def test_the_stability_limit_counts_the_dampers():
    """Central differences with dampers on the lagged half-step velocity: a 1 kg oscillator
    (k = 100 N/m) under a mass damping of 5000 /s is stable only below 2/c = 4e-4 s; the
    undamped limit 2/omega = 0.2 s said nothing, and the run went to NaN as "completed".
    With no shock to close, that limit is the model's: a step above it is refused."""
    from rocking_contact.discrete.system import critical_step

    nodes = [{"name": "N0", "fixed": ["DX", "DY", "DZ"]},
             {"name": "N1", "mass": 1.0, "fixed": ["DY", "DZ"], "u0": [0.1, 0.0, 0.0]}]
    springs = [{"name": "K", "nodes": ["N0", "N1"], "stiffness": [100.0, 0.0, 0.0]}]
    for c, expected in ((0.0, 0.2), (5000.0, 4.0 / (np.sqrt(400.0 + 5000.0**2) + 5000.0))):
        case = make_case(nodes, springs, damping={"mass_coefficient": c})
        assert critical_step(assemble(case.model, case.solver)) == pytest.approx(expected,
                                                                                  rel=1e-9)
    from rocking_contact.config import CaseError

    with pytest.raises(CaseError, match=r"<test>: time.step: got 0.0005 s, above 0.0004 s, "
                       r"the central-difference stability limit of this model with every "
                       r"shock open \(dampers included\)"):
        make_case(nodes, springs, damping={"mass_coefficient": 5000.0}, step=5e-4, end=0.5)
    # a free undamped node (no spring, no damper) sets no limit
    free = make_case(nodes, [{**springs[0], "stiffness": [0.0, 0.0, 0.0]}])
    assert critical_step(assemble(free.model, free.solver)) == np.inf


def test_the_support_direction_is_a_direction():
    """[2, 0, 0] doubled the support's acceleration; it is normalised like a shock normal."""
    nodes = [{"name": "N0", "fixed": ["DX", "DY", "DZ"]},
             {"name": "N1", "mass": 1.0, "fixed": ["DY", "DZ"]}]
    springs = [{"name": "K", "nodes": ["N0", "N1"], "stiffness": [100.0, 0.0, 0.0]}]
    drive = {"acceleration": {"type": "sine", "amplitude": 1.0, "frequency": 2.0}}
    runs = []
    for direction in ([1.0, 0.0, 0.0], [2.0, 0.0, 0.0]):
        case = make_case(nodes, springs, support={**drive, "direction": direction})
        runs.append(integrate(case, assemble(case.model, case.solver), None)[0]["DX_N1"])
    np.testing.assert_array_equal(runs[0], runs[1])


def test_central_differences_start_a_mass_resting_on_its_stop_at_rest():
    """1 kg on a 1e6 N/m floor, pressed by its weight exactly: the start-up acceleration
    counts the closed shock, so nothing moves. Left out, the mass started with VY 4.9e-4 m/s
    and its force swung between 9.32 and 10.30 N."""
    g, kn = 9.81, 1.0e6
    nodes = [{"name": "N1", "mass": 1.0, "fixed": ["DX", "DZ"]}]
    shocks = [{"name": "FLOOR", "node": "N1", "normal": [0.0, -1.0, 0.0], "gap": -g / kn,
               "kn": kn}]
    case = make_case(nodes, shocks=shocks, gravity=(0.0, -g, 0.0), end=0.05, step=1e-4)
    history = integrate(case, assemble(case.model, case.solver), None)[0]
    np.testing.assert_allclose(history["FN_FLOOR"], g, rtol=1e-12)
    assert np.max(np.abs(history["VY_N1"])) < 1e-12


def test_an_implicit_step_longer_than_the_contact_warns():
    """sdnd101a with Newmark: a 1e12 N/m stop holds the 100 kg mass for 3.1e-5 s, 0.06 of a
    step, and its rebound speeds came out between 1.1 and 3.0 m/s for 1 m/s; at 1e8 N/m the
    contact takes 6 steps and the rebound is within 3 %, unwarned."""
    import rocking_contact as rc

    warned, rebounds = {}, {}
    for kn in (1e8, 1e12):
        case = rc.load_case("sdnd101a", {"model.shock.0.kn": kn, "solver.scheme": "newmark",
                                         "time.end": 0.05})
        result = rc.run(case, write=False, quiet=True)
        warned[kn] = [w for w in result.warnings if "its contact lasts" in w]
        rebounds[kn] = [i["rebound_speed"] for i in result.impacts]
    assert warned[1e8] == []
    assert "shock NO1: its contact lasts about 3.14e-05 s, 0.063 step(s)" in warned[1e12][0]
    assert len(rebounds[1e8]) == 1 and abs(rebounds[1e8][0] - 1.0) <= 0.03


@pytest.mark.parametrize(("load", "moved"),
                         [(2.0, 2.0 / 1e5), (4.0, 0.5 * (4.0 - 0.3 * 9.81) * 0.1**2)])
def test_central_differences_start_a_loaded_contact_sticking_when_its_disc_holds_it(load, moved):
    """1 kg resting on a floor under gravity, a tangential load along x (gravity's x), mu =
    0.3 (limit 2.943 N), stick spring 1e5 N/m with ct = 300 N.s/m. 2 N is held: the stick
    spring takes it, x = 2 N / kt = 2e-5 m. The first step saw the dt-sized velocity
    dt/2 a0 and slid, the friction reversed it and the spring kept the 2.943 N sliding force:
    the mass went uphill to -9.43e-6 m. 4 N slides from the start: x = (4 - 2.943) t^2 / 2."""
    g, kn = 9.81, 1.0e6
    nodes = [{"name": "N1", "mass": 1.0, "fixed": ["DZ"], "u0": [0.0, -g / kn, 0.0]}]
    shocks = [{"name": "FLOOR", "node": "N1", "normal": [0.0, -1.0, 0.0], "kn": kn,
               "kt": 1e5, "ct": 300.0, "mu": 0.3}]
    case = make_case(nodes, shocks=shocks, gravity=(load, -g, 0.0), end=0.1, step=1e-5)
    history = integrate(case, assemble(case.model, case.solver), None)[0]
    # (the start left the friction out of a(t0) until 2026-11-23: 1.5e-6 m short at 0.1 s;
    # tests/discrete/test_initial_state.py holds the slide to rounding)
    assert abs(history["DX_N1"][-1] - moved) <= 1e-3 * moved
    if load < 0.3 * g:
        assert history["DX_N1"].min() >= 0.0  # never uphill


def test_an_explicit_step_that_samples_the_contact_twice_warns():
    """SDND102 at Code_Aster's 1e-3 s: the 5.76e7 N/m wall holds the 25 kg mass for
    2.07e-3 s, two steps; central differences are stable there but no better resolved than
    Newmark (a 2 kg mass on an oblique stop: impact speeds 30 % off at 2 steps per contact).
    At 2e-4 s, 10 steps, no warning."""
    import rocking_contact as rc

    def warned(step):
        result = rc.run(rc.load_case("sdnd102c", {"time.step": step}), write=False, quiet=True)
        return [w for w in result.warnings if "its contact lasts" in w]

    assert warned(1e-3) == ["shock NO2: its contact lasts about 0.00207 s, 2.1 step(s) of "
                            "0.001 s; an impact resolved in fewer than 5 steps rebounds with "
                            "a speed that depends on the step"]
    assert warned(2e-4) == []


def test_an_undamped_stick_spring_warns_that_the_node_creeps():
    """1 kg on a floor under 2 N along it, below mu FN = 2.943 N: Coulomb sticks, and so does
    the regularised law with ct = 300 N.s/m (x = 2 N / kt). With ct = 0 the stick spring,
    loaded from 0, swings to 4 N, slips, and rings on at the limit: the mass creeps
    (8.4e-3 m in 1 s), and the run says so; the exact law never warns."""
    import rocking_contact as rc

    g, kn = 9.81, 1.0e6
    nodes = [{"name": "N1", "mass": 1.0, "fixed": ["DZ"], "u0": [0.0, -g / kn, 0.0]}]
    runs = {}
    for ct, law in ((0.0, "regularised"), (300.0, "regularised"), (0.0, "exact")):
        shock = {"name": "FLOOR", "node": "N1", "normal": [0.0, -1.0, 0.0], "kn": kn,
                 "kt": 1e5 if law == "regularised" else 0.0, "ct": ct, "mu": 0.3,
                 "friction": law}
        case = make_case(nodes, shocks=[shock], gravity=(2.0, -g, 0.0), end=0.1, step=1e-5)
        result = rc.run(case, write=False, quiet=True)
        runs[ct, law] = (result.history["DX_N1"][-1],
                         [w for w in result.warnings if "creeping" in w])
    x, warned = runs[0.0, "regularised"]
    assert x > 20 * 2.0 / 1e5 and warned == [
        "shock FLOOR: ct = 0 N.s/m damps its stick spring (kt = 100000 N/m) below 0.25 of "
        "critical (632 N.s/m): a stick phase rings up to the Coulomb limit and slips again, "
        "the node creeping where Coulomb sticks; ct of about half the critical value, or "
        "friction = 'exact', holds it"]
    x, warned = runs[300.0, "regularised"]
    assert x == pytest.approx(2.0 / 1e5, rel=1e-6) and warned == []
    x, warned = runs[0.0, "exact"]
    assert x == 0.0 and warned == []


def test_an_unknown_scheme_is_refused_with_the_names_of_the_table():
    """solver.scheme outside discrete.case.SCHEMES: one line naming the key and the
    schemes, in the table's order, and each name's keys are the ones it reads."""
    import rocking_contact as rc
    from rocking_contact.discrete.case import SCHEMES, Solver

    with pytest.raises(rc.CaseError) as error:
        rc.load_case("sdnd101a", {"solver.scheme": "rk4"})
    allowed = ", ".join(repr(name) for name in SCHEMES)
    assert str(error.value).endswith(f"solver.scheme: got 'rk4', allowed: one of {allowed}")
    assert allowed == "'central_difference', 'newmark', 'hht'"
    assert Solver.VARIANTS["scheme"] == {name: info.keys for name, info in SCHEMES.items()}
