"""SDNV105 D (Moreau-Jean theta-scheme): the D table against every reference, the energy
lost per impact, and the cost at both steps (a benchmark script, not a test).

For each run it prints

- t_k and the kinetic-energy peaks E_k next to the rigid block (the manual's closed forms and
  the rigid equations integrated exactly, from :mod:`rocking_contact.analytic`), LMGC90
  and Code_Aster A (informational: the manual publishes no table for D), with the relative
  differences;
- the energy kept per impact, against the rigid block's e^2 = 0.5586: ``E(t_k + h) /
  E(t_k)`` over the impact step, and ``E_{k+1} / E_k`` from peak to peak (a rigid flight
  keeps its energy, so both are e^2 for the rigid block);
- the graded checks that fail, the steps, Newton iterations (SNES on the free step, coupled
  contact passes), the wall time.

Runs: ``coarse`` (sdnv105d, 1e-4 s), ``step5e-4`` (5e-4 s), ``fine`` (0.02 m mesh); ``--a``
also runs sdnv105a for its cost. ``--theta`` repeats the coarse run for other thetas.

Usage: python benchmarks/sdnv105d.py [--runs coarse step5e-4 fine] [--a] [--theta 0.5 1]
       [--json FILE] [--end T]
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
from sdnv105_contact import refusals

import rocking_contact as rc
from rocking_contact.stops import SolverFailure

VARIANTS = Path(__file__).resolve().parent.parent / "cases" / "variants"
SOURCES: dict[str, str | Path] = {
    "coarse": "sdnv105d",
    "step5e-4": VARIANTS / "sdnv105d_step5e-4.toml",
    "fine": VARIANTS / "sdnv105d_fine.toml",
}
LMGC90 = ([0.0546, 0.1324, 0.1929, 0.2359, 0.2693], [7.23255, 4.04688, 2.25311, 1.26174])
CODE_ASTER_A = ([0.05441, 0.14151, 0.20905, 0.26224, 0.30306],
                [7.28974, 4.73829, 2.85983, 1.78097, 1.08113])
RIGID_ENERGY_RATIO = 0.5586


def run(source: str | Path, overrides: dict[str, Any]) -> dict[str, Any]:
    """One run: collisions, rigid levels, energy ratios, failing checks, cost."""
    case = rc.load_case(source, overrides)
    try:
        result = rc.run(case, write=False, plots=False, quiet=True)
    except SolverFailure as exc:  # keep what was computed
        assert exc.partial is not None
        result = exc.partial
    q = result.quantities
    levels = {level: [(q.get(f"rigid.{level}.collision.{k}.time", math.nan),
                       q.get(f"rigid.{level}.collision.{k}.kinetic_energy", math.nan))
                      for k in range(1, 6)] for level in ("closed_form", "nonlinear")}
    return {
        "source": str(source), "overrides": overrides, "status": result.status,
        "collisions": result.collisions, "levels": levels,
        "ratios": energy_ratios(result.history, result.collisions),
        "failed": [(c["quantity"], c["value"], c["reference"], c["rel_error"])
                   for c in result.checks if c["passed"] is False],
        "quantities": {k: v for k, v in q.items() if not k.startswith("rigid.")},
        "timing": result.timing, "dofs": result.extra.get("dofs"),
        "energy": result.extra.get("energy", {}),
    }


def energy_ratios(history: dict[str, np.ndarray],
                  collisions: list[dict[str, Any]]) -> list[tuple[float, float]]:
    """Per impact: (kinetic energy one step after / at the peak, next peak / this peak)."""
    t, ekin = history["time"], history["EKIN_BLOCK"]
    out = []
    for k, c in enumerate(collisions):
        i = int(np.argmin(np.abs(t - c["time"])))
        step = ekin[i + 1] / ekin[i] if i + 1 < len(t) else math.nan
        peak = (collisions[k + 1]["kinetic_energy"] / c["kinetic_energy"]
                if k + 1 < len(collisions) else math.nan)
        out.append((step, peak))
    return out


def _err(value: float, ref: float) -> str:
    return f"{100 * (value / ref - 1):+.2f}%" if math.isfinite(ref) else "-"


def table(r: dict[str, Any]) -> str:
    """Markdown table of t_k and E_k against the references, with relative differences."""
    rows = ["| k | t_k (s) | rigid closed form | rigid integrated | LMGC90 | Code_Aster A |"
            " E_k (J) | rigid closed form | rigid integrated | LMGC90 | Code_Aster A |",
            "|---" * 11 + "|"]
    for k, c in enumerate(r["collisions"]):
        cells = [str(k + 1), f"{c['time']:.4f}"]
        refs_t = [r["levels"]["closed_form"][k][0], r["levels"]["nonlinear"][k][0],
                  LMGC90[0][k], CODE_ASTER_A[0][k]]
        cells += [f"{ref:.5f} ({_err(c['time'], ref)})" for ref in refs_t]
        cells.append(f"{c['kinetic_energy']:.4f}")
        refs_e = [r["levels"]["closed_form"][k][1], r["levels"]["nonlinear"][k][1],
                  LMGC90[1][k] if k < len(LMGC90[1]) else math.nan, CODE_ASTER_A[1][k]]
        cells += [f"{ref:.4f} ({_err(c['kinetic_energy'], ref)})" if math.isfinite(ref)
                  else "-" for ref in refs_e]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def report(name: str, r: dict[str, Any]) -> str:
    """Everything printed for one run."""
    t = r["timing"]
    lines = [f"## {name}: {r['source']} {r['overrides'] or ''} ({r['dofs']} dofs, {r['status']})",
             "", table(r), "",
             f"energy kept per impact (rigid e^2 = {RIGID_ENERGY_RATIO}), impact step / peak"
             " to peak: " + ", ".join(f"{a:.4f} / {b:.4f}" for a, b in r["ratios"]),
             f"percussion at A {r['quantities'].get('percussion_RN_A', math.nan):.2f} N.s "
             f"(rigid 48.73), whole base {r['quantities'].get('percussion_RN_base', math.nan):.2f};"
             f" free flight RN_O {r['quantities'].get('rn_max_O_flight', math.nan):.1f} N, "
             f"RX_O {r['quantities'].get('rx_min_O_flight', math.nan):.1f} N, "
             f"RN_A {r['quantities'].get('rn_max_A', math.nan):.1f} N, "
             f"RX_A {r['quantities'].get('rx_max_A', math.nan):.1f} N",
             f"energy residual {r['energy'].get('residual_final', math.nan):+.4f} J "
             f"(damping {r['energy'].get('EDAMP_final', math.nan):.4f} J, contact "
             f"{r['energy'].get('ECONTACT_final', math.nan):.4f} J)",
             f"cost: {t.get('steps')} steps, {t.get('newton_iterations')} SNES iterations, "
             f"{t.get('contact_iterations', 0)} contact passes (max "
             f"{t.get('contact_iterations_max_per_step', 0)}/step), "
             f"{t.get('iterations_per_step_mean', math.nan):.2f} iterations/step, "
             f"{t.get('wall_s', math.nan):.1f} s wall"]
    if r["failed"]:
        lines.append("failed checks: " + "; ".join(
            f"{q} = {v:.6g} vs {ref:.6g} ({100 * e:+.2f}%)" for q, v, ref, e in r["failed"]))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", nargs="+", default=["coarse", "step5e-4"],
                        choices=list(SOURCES))
    parser.add_argument("--a", action="store_true", help="also run sdnv105a (its cost)")
    parser.add_argument("--theta", nargs="*", type=float, default=[],
                        help="other thetas for the coarse run")
    parser.add_argument("--json", type=Path, help="write every result to this file")
    parser.add_argument("--end", type=float, default=None,
                        help="end time of the runs (s; default the case's)")
    args = parser.parse_args()
    with refusals(parser):
        stop = {} if args.end is None else {"time.end": args.end}
        results: dict[str, Any] = {}
        for name in args.runs:
            results[name] = run(SOURCES[name], stop)
            print(report(name, results[name]), "\n", flush=True)
        for theta in args.theta:
            name = f"coarse theta={theta:g}"
            results[name] = run("sdnv105d", {"scheme.theta": theta, **stop})
            print(report(name, results[name]), "\n", flush=True)
        if args.a:
            a = rc.run(rc.load_case("sdnv105a", stop), write=False, plots=False, quiet=True)
            results["sdnv105a"] = {"timing": a.timing, "collisions": a.collisions}
            t = a.timing
            print(f"## sdnv105a (Lagrange, Code_Aster's windows): {t.get('steps')} steps, "
                  f"{t.get('newton_iterations')} SNES iterations, {t.get('contact_iterations', 0)} "
                  f"contact iterations, {t.get('wall_s', math.nan):.1f} s wall", flush=True)
        if args.json:
            args.json.write_text(json.dumps(results, indent=1, default=float))


if __name__ == "__main__":
    main()
