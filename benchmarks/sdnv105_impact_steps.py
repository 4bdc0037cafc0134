"""Time convergence at the impacts of SDNV105: A without collision windows
with ever smaller refined steps, B with ever smaller steps in Code_Aster's windows, and D
with ever smaller uniform steps (a benchmark script, not a test; docs/contact.md, "Time
convergence at the impacts").

A is ``sdnv105a_auto``: 2.5 ms steps, every step in which a contact changes taken again with
``time.refine.step`` = h (the release window uses h too). B is ``sdnv105b`` with h in its
collision windows and its refinement (the release window keeps 25 us). D is ``sdnv105d``
with ``time.step`` = h. Each row: h, steps, wall time, t2..t5, E2..E5, the first percussion
and RX max at A over [0.06, 0.12] s.

Usage: python benchmarks/sdnv105_impact_steps.py [--a 1e-5 5e-6 ...] [--b 2.5e-5 ...]
[--d 1e-4 1e-5 ...] [--mesh coarse|fine|SIZE] [--end T] (coarse: the defaults take ~3 min;
A at 6.25e-7 s adds ~3 min, B at 2.5e-6 s ~1 min, D at 2.5e-6 s ~6 min; fine, the 0.02 m
structured mesh: A at 1e-5 s ~1.5 min, 2.5e-6 s ~6 min). A SIZE such as 0.01 is a
structured mesh of that element size (m); ``--end 0.2`` stops the runs after the second
collision, for the costly meshes (0.01 m, to 0.2 s: A at 2.5e-6 s ~8 min, D at 1e-4 s
~3 min).
"""

from __future__ import annotations

import argparse
from dataclasses import asdict
from typing import Any

from sdnv105_contact import load_block, run

#: the mesh settings of ``--mesh``
MESHES: dict[str, dict[str, Any]] = {
    "coarse": {}, "fine": {"mesh.layout": "structured", "mesh.element_size": 0.02}}


def mesh_settings(mesh: str) -> dict[str, Any]:
    """The overrides of ``--mesh``: a name of :data:`MESHES`, or a structured mesh's
    element size in metres (ValueError for anything else)."""
    if mesh in MESHES:
        return MESHES[mesh]
    try:
        size = float(mesh)
    except ValueError:
        raise ValueError(f"--mesh: {mesh!r} is neither {' nor '.join(MESHES)} "
                         "nor an element size in metres") from None
    return {"mesh.layout": "structured", "mesh.element_size": size}


def overrides(name: str, h: float) -> dict[str, Any]:
    """The step settings of one row."""
    if name == "a":
        return {"time.refine.step": h,
                "time.window": [{"start": 0.0, "end": 0.0025, "step": h, "alpha": -0.1}]}
    if name == "b":
        windows = [{k: v for k, v in asdict(w).items() if v is not None}
                   for w in load_block("sdnv105b").time.window]
        return {"time.refine.step": h,
                "time.window": [w if k == 0 else {**w, "step": h} for k, w in enumerate(windows)]}
    return {"time.step": h}


#: the case each letter of the rows runs
SOURCES = {"a": "sdnv105a_auto", "b": "sdnv105b", "d": "sdnv105d"}


def settings(name: str, h: float, mesh: dict[str, Any], end: float | None) -> dict[str, Any]:
    """The overrides of one row (``end``: the run's end time, s, or the case's)."""
    return {**overrides(name, h), **mesh, **({} if end is None else {"time.end": end})}


def row(name: str, h: float, mesh: dict[str, Any], end: float | None) -> str:
    """One run as a markdown row."""
    r = run(name, SOURCES[name], settings(name, h, mesh, end))
    found = {c["index"]: c for c in r["collisions"] if c["interior"]}
    t = " | ".join(f"{found[k]['time']:.5f}" if k in found else "—" for k in range(2, 6))
    e = " | ".join(f"{found[k]['kinetic_energy']:.4f}" if k in found else "—"
                   for k in range(2, 6))
    q = r["quantities"]
    percussion = q.get("percussion_RN_base") if name == "d" else q.get("percussion_RN_A")
    return (f"| {name.upper()}, {h:g} s | {r['timing']['steps']} | "
            f"{r['timing']['wall_s']:.1f} | {t} | {e} | {percussion:.2f} | "
            f"{q.get('rx_max_A', float('nan')):.1f} |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--a", nargs="*", type=float, default=[1e-5, 5e-6, 2.5e-6, 1.25e-6])
    p.add_argument("--b", nargs="*", type=float, default=[2.5e-5, 1.25e-5, 5e-6])
    p.add_argument("--d", nargs="*", type=float, default=[1e-4, 1e-5])
    p.add_argument("--mesh", default="coarse",
                   help="coarse, fine, or a structured mesh's element size (m)")
    p.add_argument("--end", type=float, default=None, help="end time of the runs (s)")
    args = p.parse_args()
    rows = [(name, h) for name, steps in (("a", args.a), ("b", args.b), ("d", args.d))
            for h in steps]
    # Every row's case is read before the first run: a setting one of them refuses (B's
    # windows past --end, say) stops the script at once, not after minutes of other rows.
    try:
        mesh = mesh_settings(args.mesh)
        for name, h in rows:
            load_block(SOURCES[name], settings(name, h, mesh, args.end))
    except ValueError as exc:  # rc.CaseError is one
        p.error(str(exc))
    print("| run, impact step | steps | wall (s) | t2 | t3 | t4 | t5 (s) | E2 | E3 | E4 | E5 (J) "
          "| percussion (N.s) | RX max A (N) |")
    print("|---" * 13 + "|")
    for name, h in rows:
        print(row(name, h, mesh, args.end), flush=True)


if __name__ == "__main__":
    main()
