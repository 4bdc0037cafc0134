"""Steps per second of the discrete integrators (a benchmark script, not a test).

1. SDND101 (1 dof, modal, central differences) with dt = 1e-6 s over 1 s: 1e6 steps.
2. A synthetic chain of 200 masses (200 modes kept, modal space) with 20 shock nodes
   against stops, base-excited, central differences.

Usage: python benchmarks/discrete_steps.py [--repeat N] [--steps N]   (``--steps 1000``: a
check that the script runs, its rates dominated by the per-run overhead)
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

import rocking_contact as rc
from rocking_contact.discrete.case import DiscreteCase
from rocking_contact.discrete.runner import integrate
from rocking_contact.discrete.system import assemble


def synthetic_chain(n_masses: int = 200, n_shocks: int = 20, dt: float = 2e-6,
                    end: float = 0.2) -> DiscreteCase:
    """A clamped chain of masses along x; every 10th mass has a stop 1 mm away, on the
    +x side for odd ones and the -x side for even ones, so that both directions hit."""
    from rocking_contact.config import build

    nodes: list[dict[str, Any]] = [{"name": "N0", "fixed": ["DX", "DY", "DZ"]}]
    springs = []
    for i in range(1, n_masses + 1):
        nodes.append({"name": f"N{i}", "mass": 1.0, "fixed": ["DY", "DZ"]})
        springs.append({"name": f"K{i}", "nodes": [f"N{i - 1}", f"N{i}"],
                        "stiffness": [1.0e6, 0.0, 0.0]})
    stride = n_masses // n_shocks
    shocks = [{"name": f"S{i}", "node": f"N{i}", "normal": [(-1.0) ** (i // stride), 0.0, 0.0],
               "gap": 1e-3, "kn": 1.0e7, "cn": 10.0}
              for i in range(stride, n_masses + 1, stride)]
    data = {
        "case": {"name": "chain", "title": "synthetic chain", "kind": "discrete"},
        "model": {"node": nodes, "spring": springs, "shock": shocks,
                  "support": {"acceleration": {"type": "sine", "amplitude": 50.0,
                                               "frequency": 20.0}},
                  "damping": {"modal_ratio": 0.02}},
        "solver": {"space": "modal", "modes": n_masses, "scheme": "central_difference"},
        "time": {"start": 0.0, "end": end, "step": dt},
        "output": {"every": 100},
    }
    return build(DiscreteCase, data, file="<synthetic>")


def steps_per_second(case: DiscreteCase, repeat: int) -> tuple[float, int, float]:
    """Best-of-``repeat`` integration rate, steps, and the fraction of shock samples closed."""
    system = assemble(case.model, case.solver)
    integrate(case, system)  # compile and warm up
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        history, integrator, failure, _ = integrate(case, system)
        best = min(best, time.perf_counter() - t0)
        assert failure is None
    closed = [np.mean(history[k] > 0) for k in history if k.startswith("FN_")]
    return integrator.step / best, integrator.step, float(np.mean(closed))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--steps", type=int, default=None,
                   help="steps of each run (default 1000000 for SDND101, 100000 for the chain)")
    args = p.parse_args()
    end = 1.0 if args.steps is None else args.steps * 1e-6
    sdnd101 = rc.load_case("sdnd101a", {"time.step": 1e-6, "time.end": end,
                                        "output.every": 1})
    if not isinstance(sdnd101, DiscreteCase):  # the shipped case's kind, should it change
        raise SystemExit(f"sdnd101a: a {type(sdnd101).__name__}, this script times "
                         "discrete cases")
    rate, steps, closed = steps_per_second(sdnd101, args.repeat)
    print(f"SDND101 1 dof, dt=1e-6 s, {end:g} s, recording every step: {steps} steps, "
          f"{rate:.3e} steps/s (aim 2e6); shock closed {100 * closed:.0f}% of the time")
    sdnd101.output.every = 1000
    rate, steps, closed = steps_per_second(sdnd101, args.repeat)
    print(f"SDND101 1 dof, dt=1e-6 s, {end:g} s, recording every 1000 steps: {steps} steps, "
          f"{rate:.3e} steps/s")
    chain = synthetic_chain() if args.steps is None else synthetic_chain(end=args.steps * 2e-6)
    rate, steps, closed = steps_per_second(chain, args.repeat)
    print(f"200 modes, 20 shock nodes, dt=2e-6 s, recording every 100 steps: {steps} steps, "
          f"{rate:.3e} steps/s (aim 1e5); shocks closed {100 * closed:.1f}% of the time")


if __name__ == "__main__":
    main()
