"""Wall time of ``rocking-contact report --no-views``, its plots copied from the runs or
drawn again, one case after another or in parallel processes (a benchmark script, not a
test).

The report copies a run's plots while they are up to date and draws them again when they
are not: a run with ``--no-plots``, a history written again, drawing code newer than the
plots (any edit under ``rocking_contact/viz`` or ``rocking_contact/post``). Drawing is
about a second of matplotlib a figure (PNG and SVG), nine figures a run; the cases are
drawn in parallel processes, one per CPU (``rocking_contact.report.figures.drawn_plots``).

Without ``--results`` the script writes a results tree in a temporary directory: the
shipped discrete cases and the rigid block, to ``--end`` seconds, and sample block runs
(``rocking_contact.viz.sample``), ``--copies`` times each under other names, once with
their plots and once without. It prints, for each tree and each number of workers, the
best wall time of ``--repeat`` reports and the figures drawn. ``--results DIR`` times
the report of that tree as it is (its plots copied or drawn as the report finds them).

Usage: python benchmarks/report_plots.py [--copies 2] [--end 0.02] [--repeat 1]
       [--workers 1 0] [--runs sdnd101a sample ...] [--results DIR]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

#: shipped cases that run in seconds without FEM
SHIPPED = ("sdnd100a", "sdnd100a_exact", "sdnd101a", "sdnd102c", "sdnd102e", "sdnv105_rigid")


def results_tree(root: Path, *, copies: int, end: float, plots: bool,
                 runs: tuple[str, ...] = (*SHIPPED, "sample")) -> Path:
    """Write ``copies`` runs of each of ``runs`` (:data:`SHIPPED` cases, to ``end`` s, and
    "sample", the sample block run) under ``root``, with their plots or without; returns
    ``root``."""
    import rocking_contact as rc
    from rocking_contact.results_io import RESULTS_FILE, load
    from rocking_contact.viz.history_plots import plot_results
    from rocking_contact.viz.plot_order import ordered_plots
    from rocking_contact.viz.sample import write_sample

    for k in range(copies):
        for name in (name for name in runs if name in SHIPPED):
            rc.run(rc.load_case(name, {"time.end": end}), out=root / f"{name}_{k}",
                   quiet=True, plots=plots)
        if "sample" not in runs:
            continue
        sample = write_sample(root / f"sample_{k}", case=f"sdnv105_sample_{k}", end=0.1,
                              fields=False)
        if plots:  # drawn and listed in its results.json, as a run does
            data, history = load(sample)
            drawn = plot_results(data, history, sample)
            data["plots"] = ordered_plots(p.name for p in drawn)
            (sample / RESULTS_FILE).write_text(json.dumps(data, indent=2))
    return root


def time_report(results: Path, workers: int, repeat: int) -> tuple[float, int]:
    """Best wall time (s) of ``repeat`` reports of ``results`` with ``workers`` (0: the
    default, one per CPU), and the PNG files its figures directory holds."""
    from rocking_contact.report.cli import write_report

    best = float("inf")
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(repeat):
            out = Path(scratch) / "report"
            started = time.perf_counter()
            write_report([], results, out, views=False, workers=workers or None)
            best = min(best, time.perf_counter() - started)
        figures = len(list((out / "figures").rglob("*.png")))
    return best, figures


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--copies", type=int, default=2,
                   help="runs of each case in the tree written (default 2)")
    p.add_argument("--end", type=float, default=0.02,
                   help="time.end of the shipped runs (s, default 0.02)")
    p.add_argument("--repeat", type=int, default=1, help="reports timed, the best kept")
    p.add_argument("--workers", type=int, nargs="+", default=[1, 0],
                   help="drawing processes to time (0: one per CPU; default 1 0)")
    p.add_argument("--runs", nargs="+", choices=[*SHIPPED, "sample"],
                   default=[*SHIPPED, "sample"],
                   help="the runs of the tree written (default all: the shipped cases "
                        "and the sample block run)")
    p.add_argument("--results", type=Path, help="time the report of this tree as it is")
    args = p.parse_args()
    from rocking_contact.report.figures import MAX_WORKERS, _cpus

    print(f"CPUs {_cpus()}, at most {MAX_WORKERS} drawing processes")
    with tempfile.TemporaryDirectory() as scratch:
        trees = ({"given": args.results} if args.results else
                 {f"{label}": results_tree(Path(scratch) / label, copies=args.copies,
                                           end=args.end, plots=plots, runs=tuple(args.runs))
                  for label, plots in (("plots copied", True), ("plots redrawn", False))})
        for label, tree in trees.items():
            runs = sum(1 for d in tree.iterdir() if (d / "results.json").is_file())
            for workers in args.workers:
                wall, figures = time_report(tree, workers, args.repeat)
                print(f"{label}: {runs} runs, workers {workers or 'one per CPU'}: "
                      f"{wall:.2f} s wall, {figures} PNG figures")


if __name__ == "__main__":
    main()
