"""SDND102: time-step convergence of central differences and implicit Newmark.

Prints x(NO2) at t = 0.1 ... 0.5 s for dt = 1e-3, 1e-4, 1e-5 with both schemes, the exact
piecewise solution, and the largest difference between the schemes at the finest step
relative to the largest |x| of the run (the issue asks for < 1%).

Usage: python benchmarks/sdnd102_convergence.py [--steps 1e-3 1e-4 1e-5]
"""

from __future__ import annotations

import argparse

import numpy as np

from rocking_contact.analytic.forced_impact import response
from rocking_contact.discrete.studies import convergence, format_convergence

TIMES = [0.1, 0.2, 0.3, 0.4, 0.5]
STEPS = [1e-3, 1e-4, 1e-5]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=float, nargs="+", default=STEPS,
                   help="time steps (s), the finest last (default 1e-3 1e-4 1e-5)")
    steps = p.parse_args().steps
    rows = convergence("sdnd102c", "DX_NO2", TIMES, steps)
    exact = response(np.array(TIMES), m=25.0, k=98696.0, kc=5.76e7, gap=5e-4,
                     acceleration=lambda t: np.sin(2 * np.pi * 10 * t))
    print(format_convergence(rows, TIMES, exact))
    cd, nm = (next(r for r in rows if r.scheme == s and r.step == steps[-1])
              for s in ("central_difference", "newmark"))
    gap = np.abs(cd.values - nm.values).max() / max(cd.max_abs, nm.max_abs)
    print(f"\nat dt = {steps[-1]:g} s: max |CD - Newmark| / max|x| = {gap:.2e} (target < 1e-2)")
    for r in rows:
        err = np.abs(r.values - exact).max() / np.abs(exact).max()
        print(f"{r.scheme:19s} dt={r.step:g}: max error vs exact / max|x_exact| = {err:.2e}, "
              f"{r.steps} steps, {r.newton_iterations} Newton iterations, {r.wall_s:.3f} s")


if __name__ == "__main__":
    main()
