"""The checks of docs/theta.md's "Checks on inputs outside the validation" and its granite
block (a benchmark script, not a test): the dense Moreau-Jean integrator on problems with
closed forms, and sdnv105d run with inputs its validation does not use, each printing the
figures that page quotes, labelled as it words them.

Dense integrator (:mod:`rocking_contact.contact.moreau`, the relations of
:mod:`rocking_contact.contact.moreau_relations`), seconds each but ``ball``:

- ``ball``: a ball dropped from 1 m, its first three apexes against the exact ones (e = 0.5,
  1; theta = 0.5, 0.75, 1; ``--ball-steps`` steps from 1e-3 to 2.1e-6 s: minutes at 8), and
  the depth it rests at with e = 0;
- ``sliding``, ``incline``: Coulomb on a mass sliding to rest, and on an incline;
- ``bar``: a bar landing flat on its two ends;
- ``oscillator``: a damped oscillator's order before it reaches its stop;
- ``landing``: the rigid SDNV105 block landing with Newton's e at its corner, against one
  step's momentum balance;
- ``rigid``: the rigid block's references of "Restitution" (``rocking-contact rigid``'s
  integration, and the dense integrator's energy kept and time off the table).
- ``local``: the local solver (:mod:`rocking_contact.contact.friction_contact`) on random
  problems of a rigid block on 1 to 19 points of its base
  (:func:`~rocking_contact.contact.moreau_relations.base_problem`, seeds 37 and 38), lifts
  and velocity problems: how many the semismooth Newton solves alone, how many Gauss-Seidel
  finishes after it, and what is left.

sdnv105d (coarse mesh, 1e-4 s; ``rocking_contact.run``), seconds to a minute each:

- ``range``: ``scheme.theta`` refused (exit code and line of the command) and run;
- ``order``: THETA(0.048 s) with steps of 4, 2, 1, 0.5 x 1e-4 s;
- ``restitution``: the block 100 times stiffer landing with e = 0, 0.5, 1;
- ``shipped``: the shipped block landing with e = 0.5, at 1e-4 and 2.5e-5 s;
- ``frictionless``: mu = 0, shipped and stiff block, against the frictionless rigid block
  and its landing step (:func:`~rocking_contact.contact.moreau_relations.
  frictionless_landing_step`);
- ``impulses``: RN_P = PN_P / DT in the results (to 0.33 s: the whole run);
- ``granite``: ``cases/variants/granite_d.toml`` to 0.42 s ("The sign of the residual").
- ``tall``: the 0.2 m x 1.0 m granite block of ``tests/contact/own_block.py`` on sdnv105d
  with 0.05 and 0.005 s steps, to 0.15 s ("A corner through the table").

``--tiny``: the shortest step of each series, e = 0.5 only, the FEM runs cut short, two local
problems of each size: a check that the script runs, not the page's figures.

Usage: python benchmarks/theta_checks.py [--checks NAME ...] [--ball-steps N] [--tiny]
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import math
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
from scipy.integrate import solve_ivp

import rocking_contact as rc
from rocking_contact.analytic.rigid_block import RigidBlock
from rocking_contact.analytic.rigid_levels import block_of
from rocking_contact.analytic.rigid_motion import RockingSimulation
from rocking_contact.contact import moreau_relations as relations
from rocking_contact.contact.friction_contact import (
    NewtonImpactFrictionLaw,
    impulse_scale,
    solve_gauss_seidel,
    solve_semismooth_newton,
)
from rocking_contact.contact.moreau import LagrangianLinearSystem, MoreauJean, StepOutcome
from rocking_contact.contact.projection import LIFT_SWEEPS, smallest_lift
from rocking_contact.summary import collision_summary

G = 9.81
H = 1e-4  # sdnv105d's step (s)
#: the rigid SDNV105 block (b, l in m, M in kg), and the tilts it is released from: the
#: case's, and the preload's angle the FEM block leaves from
BLOCK = RigidBlock(0.18, 0.40, 417.6, G)
TILT, PRELOADED = 0.01, 0.0100002
#: its mass matrix in (x_G, y_G, phi) (kg, kg, kg.m^2)
MASS = np.diag([BLOCK.mass, BLOCK.mass, BLOCK.mass * BLOCK.radius**2 / 3])
ROOT = Path(__file__).resolve().parent.parent
GRANITE = ROOT / "cases" / "variants" / "granite_d.toml"
#: the seed of the local problems' lifts; SEED + 1 that of their velocity problems
#: (``check_local``)
SEED = 37


def _ball(mass: float, restitution: float, mu: float, theta: float,
          weight: np.ndarray | None = None) -> MoreauJean:
    """A point mass (x, y) on the floor y = 0 under ``weight`` (N; default m g down)."""
    force = np.array([0.0, -mass * G]) if weight is None else weight
    return MoreauJean(LagrangianLinearSystem(np.eye(2) * mass, lambda t: force), relations.Floor(),
                      NewtonImpactFrictionLaw(restitution, mu), theta)


def _steps(osi: MoreauJean, q: np.ndarray, v: np.ndarray, h: float,
           count: int) -> Iterator[tuple[float, np.ndarray, np.ndarray, StepOutcome]]:
    """``count`` steps of ``h`` (s) from (q, v) at t = 0: yields (t, q, v, outcome) of each
    step, (q, v) at its start."""
    t = 0.0
    for _ in range(count):
        out = osi.step(q, v, t, h)
        yield t, q, v, out
        q, v, t = out.q, out.v, t + h


def check_ball(args: argparse.Namespace) -> None:
    tiny = args.tiny
    z0 = 1.0
    fall = math.sqrt(2 * z0 / G)  # s, to the first impact
    steps = [1e-3] if tiny else list(np.geomspace(1e-3, 2.1e-6, args.ball_steps))
    print(f"Ball dropped from {z0:g} m, steps {', '.join(f'{h:.3g}' for h in steps)} s:")
    for e in (0.5, 1.0):
        exact, impact = [], fall  # apex n after impact n: e^n T0 later, at e^(2n) z0
        for n in range(1, 4):
            exact.append((impact + e**n * fall, e ** (2 * n) * z0))
            impact += 2 * e**n * fall
        for theta in (0.5, 0.75, 1.0):
            err_t, err_z = [], []
            for h in steps:
                apexes = []
                for t, _, v, out in _steps(_ball(1.0, e, 0.0, theta), np.array([0.0, z0]),
                                           np.zeros(2), h, int((exact[-1][0] + 0.01) / h) + 1):
                    if v[1] > 0 >= out.v[1]:
                        apexes.append((t + h, out.q[1]))
                        if len(apexes) == 3:
                            break
                err_t.append(max(abs(a[0] - b[0]) for a, b in zip(apexes, exact)) / h)
                err_z.append(max(abs(a[1] - b[1]) for a, b in zip(apexes, exact)) / h)
            print(f"  e = {e:g}, theta = {theta:g}: max |error| / h of the first three apexes "
                  f"{min(err_t):.2f}-{max(err_t):.2f} s/s (instants), {min(err_z):.2g}-"
                  f"{max(err_z):.2g} m/s (heights); at {steps[0]:g} s {err_t[0]:.2f} s/s, "
                  f"{err_z[0]:.2g} m/s")
    for theta in (0.5, 0.75, 1.0):
        for h in steps[:1] if tiny else (1e-3, 1e-4):
            q = np.array([0.0, z0])
            for _, _, _, out in _steps(_ball(1.0, 0.0, 0.0, theta), q, np.zeros(2), h,
                                       int(1.0 / h)):
                q = out.q
            print(f"  e = 0, theta = {theta:g}, h = {h:g} s: rests at the depth {-q[1]:.2g} m "
                  f"(h |v| = {h * G * fall:.2g} m)")


def check_sliding(args: argparse.Namespace) -> None:
    tiny = args.tiny
    mass, mu, v0 = 3.0, 0.4, 2.0
    stop_exact, distance = v0 / (mu * G), v0 * v0 / (2 * mu * G)
    print(f"Mass sliding at {v0:g} m/s, mu = {mu:g} (stops at v0 / (mu g) = "
          f"{stop_exact:.6f} s, {distance:.6f} m away):")
    for theta in (0.5, 0.75, 1.0):
        for h in (1e-3,) if tiny else (1e-2, 1e-3, 1e-4):
            deceleration, stop = [], math.nan
            q = np.zeros(2)
            for t, _, v, out in _steps(_ball(mass, 0.0, mu, theta), q, np.array([v0, 0.0]),
                                       h, int((stop_exact + 0.1) / h)):
                if v[0] > mu * G * h * (1 + 1e-9):  # slides over the whole step
                    deceleration.append((v[0] - out.v[0]) / h)
                if math.isnan(stop) and out.v[0] <= 1e-12:
                    stop = t + h
                q = out.q
            worst = float(np.max(np.abs(np.array(deceleration) / (mu * G) - 1)))
            print(f"  theta = {theta:g}, h = {h:g} s: deceleration / (mu g) - 1 at most "
                  f"{worst:.1e}, stops at {stop:.6f} s ({stop - stop_exact:+.1e} s), distance "
                  f"error {q[0] - distance:+.1e} m, (theta - 1/2) v0 h = "
                  f"{(theta - 0.5) * v0 * h:.1e} m")


def check_incline(args: argparse.Namespace) -> None:
    mass, mu, h = 2.0, 0.5, 1e-3
    print(f"Mass at rest on an incline, mu = {mu:g}, theta = 1, {h:g} s steps, 0.5 s:")
    for degrees in (20.0, 26.0, 35.0):
        a = math.radians(degrees)
        weight = np.array([mass * G * math.sin(a), -mass * G * math.cos(a)])
        q, v = np.zeros(2), np.zeros(2)
        for _, _, _, out in _steps(_ball(mass, 0.0, mu, 1.0, weight), q, v, h, 500):
            q, v = out.q, out.v
        sliding = G * (math.sin(a) - mu * math.cos(a)) * 500 * h
        print(f"  {degrees:g} degrees: x {q[0]:.3g} m, P_T / P_N = {out.P[1] / out.P[0]:.15f} "
              f"(-tan a = {-math.tan(a):.15f}), v / (g (sin a - mu cos a) t) - 1 = "
              + (f"{v[0] / sliding - 1:.1e}" if v[0] else "- (sticks)"))


def check_bar(args: argparse.Namespace) -> None:
    mass, b, h = 3.0, 0.5, 1e-3
    print(f"Bar landing flat on two ends (m = {mass:g} kg, 2b = {2 * b:g} m, 1 m/s along x, "
          f"theta = 1/2, {h:g} s steps):")
    for e in (0.0, 0.5):
        for mu in (0.0, 0.3):
            system = LagrangianLinearSystem(np.diag([mass, mass, mass * (2 * b) ** 2 / 12]),
                                            lambda t: np.array([0.0, -mass * G, 0.0]))
            osi = MoreauJean(system, relations.Bar(b), NewtonImpactFrictionLaw(e, mu), 0.5)
            landed, phi, rank = None, 0.0, 0
            for _, q, v, out in _steps(osi, np.array([0.0, 0.5, 0.0]),
                                       np.array([1.0, 0.0, 0.0]), h, int(1.4 / h)):
                if landed is None and out.P[0] > 0:
                    jac = relations.Bar(b).jacobian(q)
                    rank = int(np.linalg.matrix_rank(jac @ np.linalg.solve(system.mass, jac.T)))
                    landed = (v.copy(), out.P.copy())
                elif landed is not None:
                    phi = max(phi, abs(out.q[2]))
            assert landed is not None, "the bar did not land"
            v, P = landed
            normal = mass * (1 + e) * abs(v[1]) + mass * G * h
            print(f"  e = {e:g}, mu = {mu:g}: W 4x4 of rank {rank}, P_N {P[0]:.6f} and "
                  f"{P[2]:.6f} N.s (sum / (M (1 + e) |v-| + M g h) - 1 = "
                  f"{(P[0] + P[2]) / normal - 1:.1e}), |phi| < {phi:.1e} rad after the "
                  f"landing, friction impulse {abs(P[1] + P[3]):.6f} N.s (mu P_N "
                  f"{mu * (P[0] + P[2]):.6f}, M v_x {mass * v[0]:.6f})")


def check_oscillator(args: argparse.Namespace) -> None:
    tiny = args.tiny
    mass, k, c, d = 2.0, 800.0, 4.0, 0.02  # kg, N/m, N.s/m, m to the stop
    w0 = math.sqrt(k / mass)
    zeta = c / (2 * math.sqrt(k * mass))
    wd = w0 * math.sqrt(1 - zeta * zeta)
    steps = (5e-4, 2.5e-4) if tiny else (1e-3, 5e-4, 2.5e-4, 1.25e-4)
    print(f"Damped oscillator launched at 1 m/s towards a stop {d:g} m away (e = 0.8), error "
          f"at 0.018 s, steps {', '.join(f'{h:g}' for h in steps)} s:")
    for theta in (0.5, 0.75, 1.0):
        errors, reversed_ = [], []
        for h in steps:
            system = LagrangianLinearSystem(np.eye(1) * mass, lambda t: np.zeros(1),
                                            np.eye(1) * k, np.eye(1) * c)
            osi = MoreauJean(system, relations.Stop(d), NewtonImpactFrictionLaw(0.8, 0.0), theta)
            before = round(0.018 / h)
            for step, (t, q, v, out) in enumerate(_steps(osi, np.zeros(1), np.ones(1), h,
                                                         round(0.03 / h))):
                if step == before:
                    decay = math.exp(-zeta * w0 * t)
                    x = decay * math.sin(wd * t) / wd
                    xdot = decay * (math.cos(wd * t) - zeta * w0 / wd * math.sin(wd * t))
                    errors.append(abs(q[0] - x) + abs(v[0] - xdot) / w0)
                if out.P[0] > 0:
                    reversed_.append(out.v[0] / v[0])
                    break
        ratios = ", ".join(f"{a / b:.3f}" for a, b in zip(errors, errors[1:]))
        print(f"  theta = {theta:g}: error / error at half the step {ratios}; v+ / v- + 0.8 "
              f"at most {max(abs(r + 0.8) for r in reversed_):.1e}")


def check_landing(args: argparse.Namespace) -> None:
    tiny = args.tiny
    r2 = BLOCK.radius**2
    print(f"Rigid SDNV105 block landing on A with Newton's e (O free, A sticking, theta = 0.6, "
          f"mu = 0.9, released from {TILT:g} rad):")
    for h in (1e-4,) if tiny else (1e-4, 1e-5, 1e-6):
        for e in (0.0, 0.5, 1.0):
            osi = relations.rigid_block_integrator(BLOCK, e, 0.9, 0.6)
            _, _, v, out = next(step for step in _steps(osi, relations.tilted_on_o(BLOCK, TILT),
                                                         np.zeros(3), h, int(0.1 / h))
                                if step[3].P[2] > 0)
            after = relations.corner_landing_step(BLOCK, v[2], e, h)[0]
            print(f"  h = {h:g} s, e = {e:g}: omega+ / omega- = {out.v[2] / v[2]:.5f} (h -> 0: "
                  f"{1 - 3 * BLOCK.half_width**2 * (1 + e) / (2 * r2):.4f}), the step's balance "
                  f"{after / v[2]:.5f}: {out.v[2] / after - 1:+.1e}")


def check_rigid(args: argparse.Namespace) -> None:
    tiny = args.tiny
    print("The rigid block's references (rocking-contact rigid's integration, e = 0):")
    for tilt in (TILT, PRELOADED):
        motion = RockingSimulation(BLOCK).run(tilt, 0.0, 0.06, samples=np.array([0.0544]))
        first = motion.sequence.impacts[0]
        at = motion.history["EKIN_BLOCK"][np.flatnonzero(motion.history["time"] == 0.0544)[0]]
        print(f"  from {tilt:g} rad: first impact {first.time:.8f} s, {first.kinetic_energy:.6f} J"
              f" (at 0.0544 s {at:.6f} J); energy kept e^2 = {BLOCK.restitution**2:.4f}")
    print("The rigid block on the dense integrator (theta = 1/2, mu = 0.9):")
    for e in (0.0, 0.5):
        for h in (1e-4,) if tiny else (1e-4, 1e-5):
            osi = relations.rigid_block_integrator(BLOCK, e, 0.9, 0.5)
            corners = relations.BlockCorners(BLOCK.half_width, BLOCK.half_height)
            landed = off = back = math.nan
            for t, _, v, out in _steps(osi, relations.tilted_on_o(BLOCK, TILT), np.zeros(3), h,
                                       int(0.1 / h)):
                if math.isnan(landed) and out.P[2] > 0:
                    landed, kept = t + h, (out.v @ MASS @ out.v) / (v @ MASS @ v)
                elif not math.isnan(landed) and math.isnan(off) and corners.gaps(out.q)[1] > 0:
                    off = t
                elif not math.isnan(off) and math.isnan(back) and out.P[2] > 0:
                    back = t + h
            hop = (f"A off the table {(back - off) * 1e3:.1f} ms" if not math.isnan(off)
                   else "A stays on the table")
            print(f"  e = {e:g}, h = {h:g} s: lands in the step ending {landed:.6f} s, keeps "
                  f"{kept:.4f} of its kinetic energy over it; {hop}")


def check_local(args: argparse.Namespace) -> None:
    per = 2 if args.tiny else 40
    sizes = range(1, 20)
    print(f"The local solver on the rigid SDNV105 block's base ({per} problems of each 1 to "
          f"19 points, moreau_relations.base_problem; tolerance 1e-12 of the impulses' "
          f"scale, Newton's 50 iterations from P = 0, then Gauss-Seidel from its iterate):")
    for seed, lift in ((SEED, True), (SEED + 1, False)):
        rng = np.random.default_rng(seed)
        newton = dict.fromkeys(sizes, 0)
        finished, sweeps, left = 0, 0, []
        for m in sizes:
            for _ in range(per):
                problem, H = relations.base_problem(BLOCK, m, rng, lift=lift)
                alone = solve_semismooth_newton(problem, tol=1e-12, max_iterations=50)
                if alone.converged:
                    newton[m] += 1
                    continue
                gs = solve_gauss_seidel(problem, alone.P, tol=1e-12,
                                        max_sweeps=LIFT_SWEEPS if lift else 10000)
                if gs.converged:
                    finished += 1
                    sweeps = max(sweeps, gs.iterations)
                else:
                    left.append((problem, H, gs))
        total = per * len(sizes)
        alone_count = sum(newton.values())
        print(f"  {'lifts (mu = 0)' if lift else 'velocity problems (mu = 0.9)'}, seed {seed}: "
              f"Newton alone {alone_count} of {total} (by points 1-19: "
              f"{' '.join(str(newton[m]) for m in sizes)}); Gauss-Seidel finishes "
              f"{finished} of the {total - alone_count} others (at most {sweeps} of its "
              f"{LIFT_SWEEPS if lift else 10000} sweeps); {len(left)} left")
        for problem, H, gs in left:
            m = problem.size
            said = (f"    {m} points: Gauss-Seidel stops at "
                    f"{gs.residual / impulse_scale(problem, gs.P):.1e} after {gs.iterations} "
                    "sweeps")
            if lift:  # the runs' fallback for a lift
                a = smallest_lift(H[0::2], MASS, problem.q[0::2])
                said += ("; smallest_lift finds no motion" if a is None else
                         "; smallest_lift's end gaps >= "
                         f"{np.min(problem.q[0::2] + H[0::2] @ a):.1e} m")
            print(said)


def _run(overrides: dict[str, Any], **kwargs: Any) -> Any:
    end = overrides.get("time.end", 0.33)
    case = rc.load_case("sdnv105d", {"collisions.windows": [[0.0, end]], **overrides})
    return rc.run(case, plots=False, quiet=True, **({"write": False} | kwargs))


def check_range(args: argparse.Namespace) -> None:
    tiny = args.tiny
    print("sdnv105d --set scheme.theta=...:")
    with tempfile.TemporaryDirectory() as out:
        for value in ("0.49",) if tiny else ("0.49", "1.01", "-1", "0", "inf", "nan", "abc"):
            proc = subprocess.run([sys.executable, "-m", "rocking_contact.cli", "run", "sdnv105d",
                                   "--set", f"scheme.theta={value}", "--set", "time.end=0.001",
                                   "--no-plots", "--out", out], capture_output=True, text=True)
            lines = proc.stderr.strip().splitlines()
            print(f"  {value}: exit {proc.returncode}, {len(lines)} line: "
                  f"{lines[-1] if lines else ''}")
    end = 0.0547 if tiny else 0.06
    for theta in (0.5, 0.75, 1.0):
        result = _run({"scheme.theta": theta, "time.end": end})
        h, first = result.history, result.collisions[0]
        flight = (h["time"] >= 0.0025 - 1e-12) & (h["time"] <= first["time"] + 1e-12)
        print(f"  {theta:g}: {result.status}, first impact {first['time']:.4f} s, "
              f"{first['kinetic_energy']:.4f} J; RN_O over the flight, 0.0025 to "
              f"{first['time']:.4f} s, {h['RN_O'][flight].min():.1f}-"
              f"{h['RN_O'][flight].max():.1f} N")


def check_order(args: argparse.Namespace) -> None:
    tiny = args.tiny
    end = 0.0048 if tiny else 0.048
    print(f"Order before the first impact: THETA({end:g} s)")
    for tilt in (TILT, PRELOADED):
        motion = RockingSimulation(BLOCK).run(tilt, 0.0, end, samples=np.array([end]))
        print(f"  rigid block from {tilt:g} rad: {motion.history['THETA'][-1]:.5e} rad")
    for theta in (0.5, 1.0):
        values = [_run({"scheme.theta": theta, "time.step": k * H, "time.end": end}
                       ).history["THETA"][-1] for k in (4, 2, 1, 0.5)]
        d = np.abs(np.diff(values))
        print(f"  theta = {theta:g}, steps 4, 2, 1, 0.5 x {H:g} s: "
              f"{', '.join(f'{x:.5e}' for x in values)} rad; differences "
              f"{', '.join(f'{x:.2e}' for x in d)} rad, shrinking by "
              f"{', '.join(f'{a / b:.2f}' for a, b in zip(d, d[1:]))}")


def _landing(h: dict[str, np.ndarray]) -> int:
    """The row of the step A lands in (its first impulse after the release)."""
    return int(np.flatnonzero((h["PN_A"] > 0) & (h["time"] > 0.01))[0])


def _rate(h: dict[str, np.ndarray], start: float) -> float:
    """The block's mean rotation rate (rad/s) over [start, start + 0.1 ms]."""
    theta = np.interp([start, start + 1e-4], h["time"], h["THETA"])
    return float(theta[1] - theta[0]) / 1e-4


def check_restitution(args: argparse.Namespace) -> None:
    tiny = args.tiny
    print(f"Restitution: E = 6e13 Pa (100 times stiffer), h = {H:g} s; the rigid step "
          "(corner_landing_step) from the block's omega-:")
    for e in (0.5,) if tiny else (0.0, 0.5, 1.0):
        result = _run({"material.block.young": 6e13, "contact.restitution": e,
                       "time.end": 0.0548 if tiny else 0.06})
        h = result.history
        k = _landing(h)
        w = np.diff(h["THETA"], prepend=np.nan) / H  # over each step (rad/s)
        rigid, pn, px = relations.corner_landing_step(BLOCK, w[k - 1], e, H)
        ek = h["EKIN_BLOCK"]
        said = [f"lands in the step ending {h['time'][k]:.4f} s ({ek[k - 1]:.6f} J at "
                f"{h['time'][k - 1]:.4f} s)",
                f"omega+ {w[k + 2]:.5f} / {rigid:.5f} rad/s ({w[k + 2] / rigid - 1:+.2%})",
                f"P_N at A {h['PN_A'][k]:.3f} / {pn:.3f} N.s ({h['PN_A'][k] / pn - 1:+.2%})",
                f"P_X at A {-h['PX_A'][k]:.3f} / {px:.3f} N.s",
                f"E after / E before {ek[k] / ek[k - 1]:.4f}",
                f"strain energy of the step {h['EELAS'][k]:.3f} J"]
        print(f"  e = {e:g}: " + "; ".join(said))


def check_shipped(args: argparse.Namespace) -> None:
    tiny = args.tiny
    end = 0.0552 if tiny else 0.08
    print("The shipped block (E = 6e11 Pa) with e = 0.5:")
    for step in (H,) if tiny else (H, 2.5e-5):
        result = _run({"contact.restitution": 0.5, "time.step": step, "time.end": end})
        h = result.history
        k, t = _landing(h), h["time"]
        kept = _rate(h, 0.0546) / _rate(h, 0.0543)
        line = f"  h = {step:g} s: omega+ / omega- = {kept:.3f} (omega+ over 0.0546 to 0.0547 s)"
        if step == H:
            ek = h["EKIN_BLOCK"]
            damped = h["EELAS"][k + round(5e-4 / step)] if k + 5 < len(t) else math.nan
            gone = np.flatnonzero((t > t[k]) & (h["PN_A"] == 0))
            back = np.flatnonzero((t > t[gone[0]]) & (h["PN_A"] > 0)) if gone.size else gone
            off = (t[back[0]] - t[gone[0] - 1]) * 1e3 if back.size else math.nan
            line += (f"; the node leaves at {h['VY_A'][k]:.5f} against {-h['VY_A'][k - 1]:.5f}"
                     f" m/s; strain energy of the step {h['EELAS'][k]:.3f} J, 0.5 ms later "
                     f"{damped:.3f} J; percussion {h['PN_A'][k]:.1f} N.s; E after / E before "
                     f"{ek[k] / ek[k - 1]:.3f}; A off the table {off:.1f} ms")
        print(line)


def _frictionless_rigid(end: float) -> tuple[float, float, float]:
    """The rigid block on a frictionless table rocking on O, G on a vertical line: x_G
    fixed, y_G = b sin phi + l cos phi. Returns (landing instant s, O's slide m, phi(0.03 s)
    rad) for a release at rest from ``TILT``."""
    b, height, mass, j_g = (BLOCK.half_width, BLOCK.half_height, BLOCK.mass,
                            BLOCK.mass * BLOCK.radius**2 / 3)

    def rate(t: float, y: list[float]) -> list[float]:
        phi, omega = y
        dy = b * math.cos(phi) - height * math.sin(phi)  # dy_G / dphi
        y_g = b * math.sin(phi) + height * math.cos(phi)  # -d2y_G / dphi2
        return [omega, (mass * dy * y_g * omega**2 - mass * G * dy) / (j_g + mass * dy**2)]

    def lands(t: float, y: list[float]) -> float:
        return y[0]

    lands.terminal = True  # type: ignore[attr-defined]
    s = solve_ivp(rate, (0.0, end), [TILT, 0.0], rtol=1e-12, atol=1e-15, events=lands,
                  dense_output=True)
    slide = (b * math.cos(TILT) - height * math.sin(TILT)) - b  # x_O at phi = 0
    return float(s.t_events[0][0]), slide, float(s.sol(0.03)[0])


def check_frictionless(args: argparse.Namespace) -> None:
    tiny = args.tiny
    landing, slide, phi = _frictionless_rigid(0.1)
    print(f"mu = 0: the frictionless rigid block lands at {landing:.6f} s, O slides by "
          f"{slide * 1e3:.5f} mm, phi(0.03 s) = {phi:.5e} rad")
    for young in (6e11,) if tiny else (6e11, 6e13):
        result = _run({"contact.mu": 0.0, "material.block.young": young,
                       "time.end": 0.0336 if tiny else 0.04})
        h = result.history
        k, t = _landing(h), h["time"]
        at = int(np.argmin(np.abs(t - 0.03)))
        rx = max(np.abs(h["RX_O"]).max(), np.abs(h["RX_A"]).max())
        w = np.diff(h["THETA"], prepend=np.nan) / H  # over each step (rad/s)
        rigid, pn = relations.frictionless_landing_step(BLOCK, w[k - 1], 0.0, H)
        print(f"  E = {young:g} Pa: lands in the step ending {t[k]:.4f} s, O slid by "
              f"{h['DX_O'][k] * 1e3:.5f} mm at its end; phi(0.03 s) {h['THETA'][at]:.5e} rad "
              f"({h['THETA'][at] / phi - 1:+.2%}); |RX| < {rx:.1e} N; P_N at A "
              f"{h['PN_A'][k]:.3f} + {h['PN_A'][k + 1]:.3f} N.s; the rigid step from its "
              f"omega- {w[k - 1]:.5f} rad/s: P_N {pn:.3f} N.s (ours {h['PN_A'][k] / pn - 1:+.2%}"
              f" in the step), omega+ {rigid:.5f} rad/s (ours over the second step after "
              f"it {w[k + 2]:.5f}, {w[k + 2] / rigid - 1:+.1%})")


def _impulse_error(h: dict[str, np.ndarray]) -> float:
    """The largest |R - P / DT| / |R| of RN_P and RX_P, P = O, A, O1, over the rows with a
    step (DT > 0; the first row has none) and a force."""
    worst = 0.0
    for point in ("O", "A", "O1"):
        for axis in ("N", "X"):
            force, impulse = h[f"R{axis}_{point}"], h[f"P{axis}_{point}"]
            rows = (h["DT"] > 0) & (force != 0)
            if rows.any():
                worst = max(worst, float(np.max(np.abs(force[rows] - impulse[rows]
                                                       / h["DT"][rows]) / np.abs(force[rows]))))
    return worst


def check_impulses(args: argparse.Namespace) -> None:
    tiny = args.tiny
    print("Impulses and forces: max |R - P / DT| / |R| of RN_P, RX_P (P = O, A, O1):")
    end = 0.006 if tiny else 0.06
    runs = [(f"D to {end:g} s", {"time.end": end})]
    if not tiny:
        runs.append(("to 0.33 s, contact.max_iterations=2", {"contact.max_iterations": 2}))
    for label, overrides in runs:
        print(f"  {label}: {_impulse_error(_run(overrides).history):.1e}")
    with tempfile.TemporaryDirectory() as out:
        _run({"contact.max_iterations": 2, "time.end": end}, out=Path(out), write=True)
        with open(Path(out) / "history.csv", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    h = {name: np.array([float(r[name]) for r in rows]) for name in rows[0]}
    short = h["DT"][(h["DT"] > 0) & (h["DT"] < H * (1 - 1e-9))]
    steps = ", ".join(f"{dt:g} s x {n}" for dt, n in zip(*np.unique(h["DT"][h["DT"] > 0],
                                                                       return_counts=True)))
    print(f"  to {end:g} s, contact.max_iterations=2, from history.csv: "
          f"{_impulse_error(h):.1e}, {round(short.size - short.sum() / H)} halvings "
          f"(steps: {steps})")


def check_granite(args: argparse.Namespace) -> None:
    tiny = args.tiny
    cut = {"time.end": 0.13, "collisions.windows": [[0.0, 0.13]]} if tiny else {}
    result = rc.run(rc.load_case(GRANITE, cut), write=False, plots=False, quiet=True)
    h = result.history
    t, residual = h["time"], h["ENERGY_RESIDUAL"]
    end = float(h["time"][-1])
    print(f"{GRANITE.stem} to {end:g} s, {result.timing.get('steps')} steps, as run prints it:")
    print("\n".join(f"  {line}" for line in collision_summary(result).splitlines()))
    changes = t[np.flatnonzero(np.diff(h["CONTACTS"]) != 0) + 1]
    marks = [m for m in (0.1218, 0.2, 0.3, 0.42) if m <= end]
    start = 0.0
    for mark in marks:
        k = int(np.argmin(np.abs(t - mark)))
        print(f"  ENERGY_RESIDUAL at {t[k]:.4f} s: {residual[k]:.4f} J; CONTACTS changes in "
              f"({start:g}, {mark:g}] s: {int(np.sum((changes > start) & (changes <= mark)))}")
        start = mark
    later = changes[changes > 0.3]
    if later.size:
        print(f"  the first CONTACTS change after 0.3 s (the second landing): {later[0]:.4f} s")


def _tall_block() -> Callable[..., str]:
    """``tall_block(parent, extra="")`` of ``tests/contact/own_block.py``: the case file of
    the 0.2 m x 1.0 m granite block the tests run (loaded from its path: tests/ is no
    package)."""
    spec = importlib.util.spec_from_file_location("own_block",
                                                  ROOT / "tests" / "contact" / "own_block.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tall: Callable[..., str] = module.tall_block
    return tall


def check_tall(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tall.toml"
        path.write_text(_tall_block()("sdnv105d"), encoding="utf-8")
        case: Any = rc.load_case(path)  # a block case (sdnv105d's kind)
        block, tilt = block_of(case), case.preload.tilt
        released = block.mass * block.gravity * (
            block.half_width * math.sin(tilt) + block.half_height * (math.cos(tilt) - 1))
        print(f"The tall granite block (tests/contact/own_block.py on sdnv105d: 2b x 2l = "
              f"{2 * block.half_width:g} x {2 * block.half_height:g} m, {block.mass:g} kg) "
              f"released at {tilt:g} rad, to {case.time.end:g} s; released with "
              f"M g (y_G - l) = {released:.2f} J:")
        for step in (0.05, 0.005):
            result = rc.run(rc.load_case(path, {"time.step": step}), write=False, plots=False,
                            quiet=True)
            h, found = result.history, result.extra["penetration"]
            warned = any(w.startswith("the base went") for w in result.warnings)
            print(f"  time.step = {step:g} s: {result.status}; the base went "
                  f"{found['depth_m']:.3g} m deep (at {found['time_s']:g} s, "
                  f"{found['depth_m'] / found['scale_m']:.1%} of its largest lift "
                  f"{found['scale_m']:.4f} m), {'warned' if warned else 'not warned'}; "
                  f"EKIN_BLOCK at {h['time'][-1]:g} s {h['EKIN_BLOCK'][-1]:.2f} J "
                  f"({h['EKIN_BLOCK'][-1] / released - 1:+.0%} of the release's)")


CHECKS: dict[str, Callable[[argparse.Namespace], None]] = {
    "ball": check_ball, "sliding": check_sliding, "incline": check_incline, "bar": check_bar,
    "oscillator": check_oscillator, "landing": check_landing, "rigid": check_rigid,
    "local": check_local, "range": check_range, "order": check_order,
    "restitution": check_restitution,
    "shipped": check_shipped, "frictionless": check_frictionless,
    "impulses": check_impulses, "granite": check_granite, "tall": check_tall,
}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--checks", nargs="+", choices=list(CHECKS), default=list(CHECKS),
                   metavar="NAME", help=f"which checks, in order (default all: "
                   f"{' '.join(CHECKS)})")
    p.add_argument("--ball-steps", type=int, default=8,
                   help="steps of the ball's series from 1e-3 to 2.1e-6 s (default 8)")
    p.add_argument("--tiny", action="store_true",
                   help="the shortest series and runs: a check that the script runs")
    args = p.parse_args()
    for name in args.checks:
        started = time.process_time()
        CHECKS[name](args)
        print(f"[{name}: {time.process_time() - started:.1f} s CPU]", flush=True)


if __name__ == "__main__":
    main()
