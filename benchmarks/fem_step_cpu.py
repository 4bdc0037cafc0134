"""CPU time per step of a block case (FEM), and where it goes: assembly of the step
Jacobian and of the forces, the LU factorisations and solves, the contact's local problem,
the output.

For each repetition, one run of the case (``rc.run``, nothing written) prints the steps,
the CPU seconds of the stepping (``time.process_time`` around the step driver: the
process's CPU on every core, so that other jobs sharing the machine do not count), the CPU
ms per step, the whole run's CPU and wall seconds. ``--split`` runs it once more under
cProfile (same clock) and prints the stepping's CPU by part, in ms per step and share, with
each part's calls; the profiler's own overhead inflates the Python parts, so the split's
total is above the plain runs'. ``--out DIR`` writes the run's files there as
``rocking-contact run --no-plots`` does (history streamed, field frames), so that the
field output counts; without it nothing is written.

Usage::

    python benchmarks/fem_step_cpu.py sdnv105d_fine --set time.end=0.06 --repeat 3
    python benchmarks/fem_step_cpu.py cases/variants/sdnv105a_fine.toml --set time.end=0.06 --split
    python benchmarks/fem_step_cpu.py sdnv105a --split --out /tmp/sdnv105a
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sdnv105_contact import refusals

#: the parts of a step: (label, functions as "folder/file.py:function", what is counted):
#: "cum" a function with what it calls (a part's functions that call one another counted
#: once), "own" its own (C) time: the SNES solve's own time is PETSc's (factorisations,
#: solves, vector work), its callbacks are Python. No function is in two parts nor under
#: another part's (the damping work's assembly of the damping force is its own); the rest
#: is the step loop's Python and vector algebra (predictor, combinations of the states,
#: the condensed contact's Newton loop)
PARTS = (
    ("Jacobian assembly (tangent)", ("fem/forces.py:tangent",), "cum"),
    ("force assembly (residual)", ("fem/forces.py:internal",), "cum"),
    ("LU + solves in the SNES", ("solvers/newton.py:solve",), "own"),
    ("LU + solve of contact passes", ("solvers/newton.py:solve_linear",), "own"),
    ("multi-RHS solves (Delassus)", ("solvers/newton.py:solve_columns",), "own"),
    ("contact local problem", ("contact/friction_contact.py:solve",
                               "contact/lagrange.py:local_solve",
                               "contact/continuous.py:local_solve"), "cum"),
    ("contact kinematics", ("contact/kinematics.py:geometry", "contact/kinematics.py:operator",
                            "contact/kinematics.py:without_columns"), "cum"),
    ("position projection (theta)", ("contact/theta.py:_projection",), "cum"),
    ("damping work (energy balance)", ("fem/energy_balance.py:accept",), "cum"),
    ("history rows (probes, energies)", ("fem/output.py:_row",), "cum"),
    ("field output (with --out)", ("fem/output.py:_write_fields",), "cum"),
)


@contextmanager
def timed_stepping(record: dict[str, float]) -> Iterator[None]:
    """Add the CPU seconds spent in ``StepDriver.run`` (every phase) to ``record["cpu"]``."""
    from rocking_contact.solvers.driver import StepDriver

    original = StepDriver.run

    def run(self: Any, steps: Any) -> Any:
        start = time.process_time()
        try:
            return original(self, steps)
        finally:
            record["cpu"] = record.get("cpu", 0.0) + time.process_time() - start

    StepDriver.run = run  # type: ignore[method-assign]
    try:
        yield
    finally:
        StepDriver.run = original  # type: ignore[method-assign]


def one_run(source: str, overrides: list[str], profile: cProfile.Profile | None = None,
            out: str | None = None) -> dict[str, float]:
    """One run, its files written into ``out`` (None: none): steps, stepping CPU (s), whole
    CPU and wall (s)."""
    import rocking_contact as rc

    record: dict[str, float] = {}
    case = rc.load_case(source, overrides)
    cpu, wall = time.process_time(), time.perf_counter()
    with timed_stepping(record):
        if profile is not None:
            profile.enable()
        try:
            result = rc.run(case, out=out, write=out is not None, plots=False, quiet=True)
        finally:
            if profile is not None:
                profile.disable()
    record["run_cpu"] = time.process_time() - cpu
    record["wall"] = time.perf_counter() - wall
    record["steps"] = float(result.timing["steps"])
    record["jacobians"] = float(result.timing.get("jacobian_builds", 0))
    return record


def split(stats: pstats.Stats) -> list[tuple[str, float, int]]:
    """CPU seconds of each part of :data:`PARTS` from a profile's statistics, and the calls
    of its functions (those from the part's own functions left out)."""
    table = stats.stats  # type: ignore[attr-defined]

    def matches(key: tuple[str, int, str], names: tuple[str, ...]) -> bool:
        path, _line, function = key
        return any(path.endswith("/" + name.split(":")[0]) and function == name.split(":")[1]
                   for name in names)

    out = []
    for label, names, kind in PARTS:
        found = [key for key in table if matches(key, names)]
        calls = sum(table[key][1] for key in found) - sum(
            timing[1] for key in found for caller, timing in table[key][4].items()
            if caller in found)
        if kind == "own":
            total = sum(table[key][2] for key in found)
        else:  # the calls of one found function by another are in the caller's time
            total = sum(table[key][3] for key in found)
            total -= sum(timing[3] for key in found
                         for caller, timing in table[key][4].items() if caller in found)
        out.append((label, total, calls))
    return out


def main() -> None:
    doc = (__doc__ or "").split("\n\n")[0]
    parser = argparse.ArgumentParser(description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    # a default, so that `make bench` (every script without arguments) runs this one too
    parser.add_argument("case", nargs="?", default="sdnv105a",
                        help="a shipped case or variant name, or a case file (default "
                             "sdnv105a)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a case override, as rocking-contact run's --set")
    parser.add_argument("--repeat", type=int, default=1, help="plain runs (default 1)")
    parser.add_argument("--split", action="store_true",
                        help="one more run under cProfile: CPU per part of a step")
    parser.add_argument("--out", metavar="DIR",
                        help="write each run's files there (field output included)")
    args = parser.parse_args()
    with refusals(parser):
        overrides = args.set
        print(f"{'run':>4} {'steps':>6} {'stepping CPU (s)':>17} {'CPU / step (ms)':>16} "
              f"{'run CPU (s)':>12} {'wall (s)':>9}")
        for k in range(args.repeat):
            r = one_run(args.case, overrides, out=args.out)
            print(f"{k + 1:>4} {r['steps']:>6.0f} {r['cpu']:>17.2f} "
                  f"{1e3 * r['cpu'] / r['steps']:>16.2f} {r['run_cpu']:>12.2f} {r['wall']:>9.2f}")
        if not args.split:
            return
        profile = cProfile.Profile(time.process_time)
        r = one_run(args.case, overrides, profile, args.out)
        stats = pstats.Stats(profile)
        steps, total = r["steps"], r["cpu"]
        print(f"\nunder cProfile: {steps:.0f} steps, stepping {total:.2f} s CPU "
              f"({1e3 * total / steps:.2f} ms a step), {r['jacobians']:.0f} Jacobians")
        print(f"{'part':<32} {'ms / step':>10} {'share':>7} {'calls':>8}")
        parts = split(stats)
        rest = ("rest (Python, vector algebra)", total - sum(s for _, s, _ in parts), 0)
        for label, seconds, calls in (*parts, rest):
            print(f"{label:<32} {1e3 * seconds / steps:>10.2f} {seconds / total:>7.1%} "
                  f"{calls if calls else '':>8}")


if __name__ == "__main__":
    main()
