"""Per-step cost of linear Newmark on the block and table, against one factorised solve.

For meshes of about 1e3, 1e4 and 1e5 dofs (Q1, structured layout with the table), on 1 and
2 ranks: the wall time of a linear average-acceleration step (residual by sparse
matrix-vector products, one solve with the factorised step matrix, state update) next to
the time of one forward/backward substitution with that same factorisation. The aim is a
step costing at most 2 solves: no re-assembly, no re-factorisation while the step size is
unchanged.

Usage::

    python benchmarks/fem_newmark_steps.py              # the table (spawns mpiexec -n 1, 2)
    python benchmarks/fem_newmark_steps.py --ranks 1 2 4 --sizes 0.03 0.009
    mpiexec -n 2 python benchmarks/fem_newmark_steps.py --worker out.json --sizes 0.03

Timings are wall-clock medians over repeated steps (max over ranks); the machine may be
shared, so run it twice.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

#: element sizes (m) giving about 1e3, 1e4, 1e5 dofs with the table
SIZES = (0.03, 0.009, 0.0028)


def measure(size: float, steps: int) -> dict[str, float]:
    """Time the steps and solves of one mesh (collective): times in s, dofs, ranks and
    Jacobian builds as counts."""
    from mpi4py import MPI

    import rocking_contact  # noqa: F401  (before dolfinx/petsc4py)
    from rocking_contact.block import Geometry, Materials
    from rocking_contact.fem.body import ElasticBody
    from rocking_contact.fem.constraints import fix
    from rocking_contact.fem.preload import table_supports
    from rocking_contact.geometry.layout import MeshSpec
    from rocking_contact.geometry.mesh import create_block_mesh
    from rocking_contact.solvers.driver import StepDriver
    from rocking_contact.solvers.newton import NewtonSolver
    from rocking_contact.solvers.step import StepProblem
    from rocking_contact.time.newmark import Newmark

    comm = MPI.COMM_WORLD

    def timed(fn: Callable[[], object]) -> float:
        comm.barrier()
        t0 = time.perf_counter()
        fn()
        comm.barrier()
        return float(comm.allreduce(time.perf_counter() - t0, op=MPI.MAX))

    mesh = create_block_mesh(comm, Geometry(), MeshSpec(element_size=size))
    body = ElasticBody(mesh, Materials(), thickness=1.0, gravity=9.81, kinematics="small_strain")
    supports = [*table_supports(body), fix(body, "CONHAUT", ["DX", "DY"])]
    problem = StepProblem(body, supports)
    solver = NewtonSolver(problem, prefix="bench_")
    driver = StepDriver(problem, solver, max_halvings=0)
    problem.initial_acceleration()
    h = 1e-5
    scheme = Newmark.average_acceleration()
    first = timed(lambda: driver.advance(h, scheme))  # builds and factorises K_eff
    step_times = [timed(partial(driver.advance, (k + 2) * h, scheme)) for k in range(steps)]
    ksp = solver.snes.getKSP()
    b, x = problem.vector(), problem.vector()
    b.setRandom()
    solve_times = [timed(lambda: ksp.solve(b, x)) for _ in range(steps)]
    residual_times = [timed(lambda: problem.residual(None, x, b)) for _ in range(steps)]
    solver.destroy()
    return {"size": size, "dofs": body.n_global, "ranks": comm.size, "first_step_s": first,
            "step_s": statistics.median(step_times), "solve_s": statistics.median(solve_times),
            "residual_s": statistics.median(residual_times),
            "jacobian_builds": problem.jacobian_builds}


def worker(sizes: list[float], steps: int, out: Path) -> None:
    """Measure every mesh on this communicator; rank 0 writes the rows as JSON."""
    from mpi4py import MPI

    rows = [measure(size, steps) for size in sizes]
    if MPI.COMM_WORLD.rank == 0:
        out.write_text(json.dumps(rows))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    p.add_argument("--sizes", type=float, nargs="+", default=list(SIZES))
    p.add_argument("--steps", type=int, default=20, help="timed steps per mesh")
    p.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker is not None:
        worker(args.sizes, args.steps, args.worker)
        return 0
    mpiexec = Path(sys.executable).parent / "mpiexec"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.ranks:
            out = Path(tmp) / f"bench{n}.json"
            cmd = [str(mpiexec), "-n", str(n), sys.executable, __file__, "--worker", str(out),
                   "--steps", str(args.steps), "--sizes", *map(str, args.sizes)]
            subprocess.run(cmd, check=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
            rows += json.loads(out.read_text())
    print(f"{'dofs':>8} {'ranks':>5} {'step (ms)':>10} {'solve (ms)':>10} {'step/solve':>10} "
          f"{'residual (ms)':>13} {'1st step (ms)':>13} {'K_eff builds':>12}")
    for r in sorted(rows, key=lambda r: (r["dofs"], r["ranks"])):
        print(f"{r['dofs']:>8} {r['ranks']:>5} {1e3 * r['step_s']:>10.3f} "
              f"{1e3 * r['solve_s']:>10.3f} {r['step_s'] / r['solve_s']:>10.2f} "
              f"{1e3 * r['residual_s']:>13.3f} {1e3 * r['first_step_s']:>13.1f} "
              f"{r['jacobian_builds']:>12}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
