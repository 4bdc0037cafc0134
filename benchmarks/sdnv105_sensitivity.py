"""How much SDNV105 A and C move under perturbations far below any physical significance
(a benchmark script, not a test): the release tilt changed by 1e-6 to 1e-2 relative, the
release window's step halved, and round-off alone (the contact corrections ``Z lambda``
added as one matrix-vector product instead of column by column: the same numbers summed in
another order). Prints the "Sensitivity" table of docs/contact.md.

Usage: python benchmarks/sdnv105_sensitivity.py [--end T] [LABEL_PREFIX ...]   (default: every
row, to the case's end)
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple

from sdnv105_contact import refusals, run

from rocking_contact.contact import condensed

if TYPE_CHECKING:  # for the annotations only: petsc4py comes after rocking_contact at run time
    import numpy as np
    from petsc4py import PETSc


@contextlib.contextmanager
def one_product() -> Iterator[None]:
    """``y += Z @ lambda`` in one product for the runs inside (the shipped code adds the
    columns one by one): a change of summation order only."""
    shipped = condensed.add_columns

    def add(y: PETSc.Vec, Z: np.ndarray, coefficients: np.ndarray,
            column: PETSc.Vec | None = None) -> None:  # the shipped signature; no work vector
        y.array = y.array + Z @ coefficients

    condensed.add_columns = add
    try:
        yield
    finally:
        condensed.add_columns = shipped


class Row(NamedTuple):
    """One row of the table: its label, the case (``a``, ``c``), the overrides of its run
    (SI units) and the context the run is made in."""
    label: str
    case: str
    overrides: dict[str, float]
    context: Callable[[], contextlib.AbstractContextManager[None]] = contextlib.nullcontext


RUNS = [
    Row("A, tilt 0.01 (shipped)", "a", {}),
    Row("A, tilt 0.01000001", "a", {"preload.tilt": 0.01000001}),
    Row("A, tilt 0.009999", "a", {"preload.tilt": 0.009999}),
    Row("A, tilt 0.010001", "a", {"preload.tilt": 0.010001}),
    Row("C, tilt 0.009999", "c", {"preload.tilt": 0.009999}),
    Row("A, release window step 5 us", "a", {"time.window[0].step": 5e-6}),
    Row("A, round-off only", "a", {}, one_product),
    Row("C, round-off only", "c", {}, one_product),
]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("chosen", nargs="*", metavar="LABEL_PREFIX",
                   help="run the rows whose label starts with one of these, e.g. 'C,' "
                        f"(default: every row; the labels: {'; '.join(r.label for r in RUNS)})")
    p.add_argument("--end", type=float, default=None,
                   help="end time of the runs (s; default the case's)")
    args = p.parse_args()
    with refusals(p):
        chosen, stop = args.chosen, {} if args.end is None else {"time.end": args.end}
        unknown = [c for c in chosen if not any(r.label.startswith(c) for r in RUNS)]
        if unknown:
            p.error(f"no row's label starts with {', '.join(map(repr, unknown))}")
        print("| run | t2 | t3 | t4 | t5 (s) | E2 | E3 | E4 | E5 (J) | percussion at A (N.s) "
              "| steps (refined) | wall (s) |")
        print("|---" * 12 + "|")
        for label, name, overrides, context in RUNS:
            if chosen and not any(label.startswith(prefix) for prefix in chosen):
                continue
            with context():
                r = run(name, f"sdnv105{name}", {**overrides, **stop})
            found = {c["index"]: c for c in r["collisions"]}
            t = " | ".join(f"{found[k]['time']:.5f}" if k in found else "—" for k in range(2, 6))
            e = " | ".join(f"{found[k]['kinetic_energy']:.4f}" if k in found else "—"
                           for k in range(2, 6))
            tm = r["timing"]
            percussion = r["quantities"].get("percussion_RN_A", float("nan"))
            print(f"| {label} | {t} | {e} | {percussion:.2f}"
                  f" | {tm['steps']} ({tm.get('refined_steps', 0)}) | {tm['wall_s']:.1f} |",
                  flush=True)


if __name__ == "__main__":
    main()
