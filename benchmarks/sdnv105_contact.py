"""SDNV105 A, B, C with contact: collisions against every reference, cost (a benchmark
script, not a test).

For each case and mesh it runs the whole history and prints

- the collision instants t1..t5 and kinetic-energy peaks E1..E5 next to the integrated
  rigid values, the manual's closed forms, the recalage, LMGC90 and Code_Aster;
- the graded checks that fail (with their errors);
- the accepted steps, the Newton iterations per step (SNES plus contact iterations, mean and
  maximum), the wall time, next to Code_Aster's 3867 steps (A) and 2140 steps (B).

Meshes: ``coarse`` is the shipped case (Code_Aster's 25-node mesh and time windows);
``fine`` is the structured mesh of 0.02 m cells (1928 dofs), the case variants
``cases/variants/sdnv105?_fine.toml`` (Code_Aster's windows; that mesh's later impacts are
taken with small steps by the refinement at contact changes: see docs/contact.md); ``auto``
is the coarse case with its release window only, every impact found and refined by the
step driver (``cases/variants/sdnv105a_auto.toml`` for A).
``--small-strain`` adds the coarse runs with small-strain kinematics. ``--profile N`` runs
each case once more under cProfile and prints the N functions with the largest own time
(where the step loop's time goes: PETSc's and MUMPS's C time counts in the Python function
that calls them, and the profiler slows the Python code most).

Usage: python benchmarks/sdnv105_contact.py [--cases a b c] [--meshes coarse [fine] [auto]]
       [--small-strain] [--json FILE] [--profile N] [--end T]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import math
import pstats
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import rocking_contact as rc
from rocking_contact.fem.case import BlockCase
from rocking_contact.stops import SolverFailure

#: Code_Aster's published collisions (CASES SDNV105)
CODE_ASTER = {
    "a": ([0.05441, 0.14151, 0.20905, 0.26224, 0.30306],
          [7.28974, 4.73829, 2.85983, 1.78097, 1.08113], 3867),
    "b": ([0.054375, 0.134900, 0.19365, 0.23560, 0.26570],
          [7.28314, 4.04539, 2.17093, 1.11604, 0.57368], 2140),
    "c": ([0.054400, 0.14154], [7.28973, 4.74225], None),
}
#: where Code_Aster's runs ended (s): its step counts are to there
CODE_ASTER_END = {"a": 0.33, "b": 0.285}
LMGC90 = ([0.0546, 0.1324, 0.1929, 0.2359, 0.2693], [7.23255, 4.04688, 2.25311, 1.26174])

#: the finer mesh: structured 0.02 m cells (case variants)
VARIANTS = Path(__file__).resolve().parent.parent / "cases" / "variants"


@contextmanager
def refusals(parser: argparse.ArgumentParser) -> Iterator[None]:
    """A case that a script's options make invalid (``rc.CaseError``: a ``--set``, an
    ``--end`` before one of its windows, an unknown case) ends the script as argparse ends
    it for a bad option: one error line, exit code 2, no traceback. The rows printed before
    it stay."""
    try:
        yield
    except rc.CaseError as exc:
        parser.error(str(exc))


def load_block(source: str | Path, overrides: dict[str, Any] | None = None) -> BlockCase:
    """``rc.load_case`` of a block case: these scripts read its time windows and run its
    contact; a case of another kind is refused (SystemExit)."""
    case = rc.load_case(source, overrides)
    if not isinstance(case, BlockCase):
        raise SystemExit(f"{source}: a {type(case).__name__}, allowed: a block case (SDNV105)")
    return case


def case_file(name: str, mesh: str) -> str | Path:
    """The shipped case (coarse, auto) or its fine-mesh variant."""
    return VARIANTS / f"sdnv105{name}_fine.toml" if mesh == "fine" else f"sdnv105{name}"


#: refine.hold of the ``auto`` runs (s). B's anchors pin a landing corner to where it started:
#: the rattling after each impact needs the small steps, or the block leaves the ground in a
#: long step, lands shifted and is thrown back (with hold 0 its run fails at 0.069 s).
AUTO_HOLD = {"b": 5e-3}


def release_window_only(source: str | Path, name: str) -> dict[str, Any]:
    """Overrides keeping the case's first time window (the release) and no other."""
    first = load_block(source).time.window[0]
    overrides: dict[str, Any] = {"time.window": [
        {"start": first.start, "end": first.end, "step": first.step, "alpha": first.alpha}]}
    if name in AUTO_HOLD:
        overrides["time.refine.hold"] = AUTO_HOLD[name]
    return overrides


def run(name: str, source: str | Path, overrides: dict[str, Any],
        repeat: int = 1) -> dict[str, Any]:
    """One run (the best of ``repeat``): collisions, rigid levels, failing checks, cost.

    The cost is the wall time of the run and the CPU time of this process over it (s): on
    a shared machine the CPU time is the steadier measure. Repeats must give the same
    collisions."""
    case = load_block(source, overrides)
    best: tuple[float, float] = (math.inf, math.inf)
    result = None
    for _ in range(repeat):
        cpu = time.process_time()
        try:
            this = rc.run(case, write=False, plots=False, quiet=True)
        except SolverFailure as exc:  # keep what was computed
            if exc.partial is None:  # it failed before its first step: nothing to print
                raise
            this = exc.partial
        cpu = time.process_time() - cpu
        if result is not None and this.collisions != result.collisions:
            raise SystemExit(f"{name}: a repeated run gave other collisions")
        result = this
        best = (min(best[0], this.timing.get("wall_s", math.nan)), min(best[1], cpu))
    assert result is not None
    q = result.quantities
    levels = {}
    for level in ("nonlinear", "closed_form", "recalage"):
        levels[level] = [(q.get(f"rigid.{level}.collision.{k}.time", math.nan),
                          q.get(f"rigid.{level}.collision.{k}.kinetic_energy", math.nan))
                         for k in range(1, 6)]
    return {
        "case": name, "source": str(source), "overrides": overrides, "status": result.status,
        "collisions": result.collisions, "levels": levels,
        "failed": [(c["quantity"], c["value"], c["reference"], c["rel_error"])
                   for c in result.checks if c["passed"] is False],
        "quantities": {k: v for k, v in q.items() if not k.startswith("rigid.")},
        "timing": {**result.timing, "wall_s": best[0], "cpu_s": best[1], "repeat": repeat},
        "energy": result.extra.get("energy", {}),
        "dofs": result.extra.get("dofs"),
        "end": case.time.end,
        # None for a run ending before Code_Aster's (--end): its steps are not comparable
        "steps_to_code_aster_end": _steps_to(result.history, CODE_ASTER_END.get(name),
                                             case.time.end),
    }


def profile(source: str | Path, overrides: dict[str, Any], top: int) -> str:
    """The ``top`` functions of one run of the case by own time (cProfile's table)."""
    case = rc.load_case(source, overrides)
    profiler = cProfile.Profile()
    try:
        profiler.runcall(rc.run, case, write=False, plots=False, quiet=True)
    except SolverFailure:
        pass  # the table says where the time went until then
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def _steps_to(history: dict[str, Any], end: float | None, run_end: float) -> int | None:
    """Accepted steps ending at or before ``end`` (s), None when the run (to ``run_end``,
    s) stops before it; the history has every step."""
    if end is None or end > run_end or "DT" not in history:
        return None
    return sum(1 for t, dt in zip(history["time"], history["DT"]) if dt > 0 and t <= end + 1e-12)


def table(r: dict[str, Any]) -> str:
    """Markdown table of t_k and E_k against the references."""
    ca_t, ca_e, ca_steps = CODE_ASTER[r["case"]]
    rows = ["| k | t_k (s) | rigid integ. | closed form | recalage | LMGC90 | Code_Aster |"
            " E_k (J) | rigid integ. | closed form | recalage | LMGC90 | Code_Aster |",
            "|---" * 13 + "|"]
    found = {c["index"]: c for c in r["collisions"]}
    for k in range(1, 6):
        c = found.get(k)
        t = f"{c['time']:.5f}" if c else "—"
        e = f"{c['kinetic_energy']:.4f}" if c else "—"
        lv = {name: r["levels"][name][k - 1] for name in r["levels"]}
        rows.append(
            f"| {k} | {t} | {lv['nonlinear'][0]:.5f} | {lv['closed_form'][0]:.5f} | "
            f"{lv['recalage'][0]:.5f} | {LMGC90[0][k - 1]:.4f} | "
            f"{ca_t[k - 1] if k <= len(ca_t) else '—'} | {e} | {lv['nonlinear'][1]:.4f} | "
            f"{lv['closed_form'][1]:.4f} | {lv['recalage'][1]:.4f} | "
            f"{LMGC90[1][k - 1] if k <= len(LMGC90[1]) else '—'} | "
            f"{ca_e[k - 1] if k <= len(ca_e) else '—'} |")
    tm = r["timing"]
    rows.append("")
    end = CODE_ASTER_END.get(r["case"])
    upto = (f"; {r['steps_to_code_aster_end']} to {end} s, Code_Aster {ca_steps}"
            if ca_steps and r["steps_to_code_aster_end"] is not None else "")
    rows.append(f"steps {tm.get('steps')} (to {r['end']:g} s{upto}), "
                f"Newton iterations "
                f"per step {tm.get('iterations_per_step_mean', math.nan):.2f} mean / "
                f"{tm.get('iterations_per_step_max', math.nan):.0f} max, halvings "
                f"{tm.get('halvings')}, refined {tm.get('refined_steps', 0)}, "
                f"wall {tm.get('wall_s', math.nan):.1f} s, cpu {tm.get('cpu_s', math.nan):.1f} s"
                f" (best of {tm.get('repeat', 1)}), "
                f"dofs {r['dofs']}, energy residual "
                f"{r['energy'].get('residual_final', math.nan):.3g} J, status {r['status']}")
    return "\n".join(rows)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", nargs="*", default=["a", "b", "c"])
    p.add_argument("--meshes", nargs="*", default=["coarse"],
                   help="coarse, fine, auto (A, B, C: ~25 s, ~3 min, ~15 s of runs)")
    p.add_argument("--small-strain", action="store_true")
    p.add_argument("--json", type=Path, help="also write every run's summary there")
    p.add_argument("--repeat", type=int, default=1,
                   help="runs of each case; the cost printed is the best (default 1)")
    p.add_argument("--profile", type=int, default=0, metavar="N",
                   help="one more run of each case under cProfile: its N functions of "
                        "largest own time")
    p.add_argument("--end", type=float, default=None,
                   help="end time of the runs (s; default the case's)")
    args = p.parse_args()
    with refusals(p):
        report_runs(args)


def report_runs(args: argparse.Namespace) -> None:
    """The runs of ``main``'s options, each printed as it ends."""
    stop = {} if args.end is None else {"time.end": args.end}
    runs = []
    for mesh in args.meshes:
        for name in args.cases:
            source = case_file(name, mesh)
            overrides = release_window_only(source, name) if mesh == "auto" else {}
            runs.append((f"{name.upper()} {mesh}", name, source, {**overrides, **stop}))
    if args.small_strain:
        for name in args.cases:
            runs.append((f"{name.upper()} coarse, small strain", name,
                         case_file(name, "coarse"), {"kinematics.type": "small_strain", **stop}))
    summaries = []
    for title, name, source, overrides in runs:
        r = run(name, source, overrides, args.repeat)
        summaries.append({"title": title, **r})
        print(f"\n### SDNV105 {title}\n")
        print(table(r))
        for quantity, value, reference, rel in r["failed"]:
            print(f"- FAIL {quantity}: {value:.6g} vs {reference:.6g} ({rel:.2%})")
        print(f"- percussion RN / RX at A: {r['quantities'].get('percussion_RN_A', math.nan):.4g}"
              f" / {r['quantities'].get('percussion_RX_A', math.nan):.4g} N.s")
        if args.profile > 0:
            print(f"\nProfile (own time, cProfile) of SDNV105 {title}:\n")
            print(profile(source, overrides, args.profile))
    if args.json:
        args.json.write_text(json.dumps(summaries, indent=1, default=float))


if __name__ == "__main__":
    main()
