"""The modules one command line imports and runs: the counts docs/code.md quotes for a block
run, a discrete run, the rigid block and the report (a benchmark script, not a test).

Each trace is a fresh Python process: ``sys.setprofile`` is set on the command line's
``rocking_contact.cli.main`` and records every call of a function of the package (a
function, lambda or generator expression; not a module or class body, whose code objects
are not CO_OPTIMIZED). Printed per trace: the package's modules in ``sys.modules`` at the
end ("imported"), those with a function called while ``main`` ran ("ran"), and which of
DOLFINx, petsc4py, UFL, Gmsh, numba, matplotlib and pyvista were imported. The runs write
into a temporary folder; ``report`` reads the ``block_plots`` run's folder (it is added).

Usage: python benchmarks/code_paths.py [--traces block block_plots discrete rigid report]
(all five: ~1 min, most of it Gmsh, DOLFINx and numba loading).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from types import FrameType

#: each trace's command line (arguments of ``rocking-contact``), DIR the temporary folder
TRACES: dict[str, list[str]] = {
    "block": ["run", "sdnv105a", "--set", "time.end=0.002", "--no-plots", "--quiet",
              "--out", "DIR/block"],
    "block_plots": ["run", "sdnv105a", "--set", "time.end=0.002", "--quiet",
                    "--out", "DIR/block_plots"],
    "discrete": ["run", "sdnd101a", "--no-plots", "--quiet", "--out", "DIR/discrete"],
    "rigid": ["rigid", "--no-plots", "--quiet", "--out", "DIR/rigid"],
    "report": ["report", "--results", "DIR/block_plots", "--out", "DIR/report"],
}
#: the libraries whose import the traces report
HEAVY = ("dolfinx", "petsc4py", "ufl", "gmsh", "numba", "matplotlib", "pyvista")


def trace(argv: list[str]) -> dict[str, object]:
    """Run ``rocking-contact argv`` in this process under the profiler (see the module's
    docstring); returns the counts, the heavy libraries imported and the exit code."""
    ran: set[str] = set()

    def record(frame: FrameType, event: str, arg: object) -> None:  # noqa: ARG001
        if event == "call" and frame.f_code.co_flags & 1:  # CO_OPTIMIZED: a function
            module = frame.f_globals.get("__name__", "")
            if module == "rocking_contact" or module.startswith("rocking_contact."):
                ran.add(module)

    from rocking_contact import cli

    code: int | str | None
    sys.setprofile(record)
    try:
        code = cli.main(argv)
    except SystemExit as exc:
        code = exc.code
    finally:
        sys.setprofile(None)
    imported = [m for m in sys.modules
                if m == "rocking_contact" or m.startswith("rocking_contact.")]
    return {"exit": code, "imported": len(imported), "ran": len(ran),
            "heavy": [m for m in HEAVY if m in sys.modules]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--traces", nargs="+", choices=list(TRACES), default=list(TRACES))
    p.add_argument("--one", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.one is not None:  # a trace in this fresh process; its line for the parent
        print(json.dumps(trace(args.one)))
        return
    chosen = list(args.traces)
    if "report" in chosen and "block_plots" not in chosen:
        chosen.insert(chosen.index("report"), "block_plots")
    print(f"{'trace':<12} {'imported':>8} {'ran':>4}  heavy modules imported  (exit code)")
    with tempfile.TemporaryDirectory(prefix="code_paths_") as folder:
        for name in chosen:
            argv = [a.replace("DIR", folder) for a in TRACES[name]]
            proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--one",
                                   *argv], capture_output=True, text=True, cwd=folder)
            if proc.returncode != 0:
                sys.exit(f"{name}: the trace failed (exit code {proc.returncode}):\n"
                         f"{proc.stderr[-2000:]}")
            got = json.loads(proc.stdout.splitlines()[-1])
            print(f"{name:<12} {got['imported']:>8} {got['ran']:>4}  "
                  f"{', '.join(got['heavy']) or 'none'}  ({got['exit']})", flush=True)


if __name__ == "__main__":
    main()
