"""``rocking-contact validate``: run cases and compare them with their references.

This module is imported to build the command line: keep its imports light.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rocking_contact.options import add_case_options, path_argument


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``rocking-contact validate``."""
    parser.add_argument("cases", nargs="*", help="case names or files (default: every "
                                                 "shipped case); one given twice runs once")
    parser.add_argument("--out", type=path_argument, default=Path("results"),
                        help="parent directory of the per-case results (default results/; "
                             "replaces each case's results already there once its run "
                             "starts; a run refused as it sets up leaves them)")
    add_case_options(parser, "no progress bar (the tables of the checks, the summary lines, "
                             "warnings and errors are still printed)")


def main(args: argparse.Namespace) -> int:
    """Run the cases, show each one's table and summary line, then which failed, were not
    graded or incomplete; returns the exit code (1 if any case did not pass)."""
    import rocking_contact as rc
    from rocking_contact.api import mpi_rank
    from rocking_contact.config import (
        CaseError,
        grading_changes,
        physics_changes,
        shipped_cases,
    )
    from rocking_contact.out_paths import check_dir
    from rocking_contact.stops import Interrupted, SolverFailure
    from rocking_contact.summary import print_verdicts, show_result, validation_verdict

    names = args.cases or list(shipped_cases())
    cases = distinct([rc.load_case(name, args.overrides) for name in names])  # all checked
    for case in cases:
        changed = physics_changes(case)
        if changed:
            raise CaseError(f"{case.source_file} (with --set)", changed[0],
                            "changes the physics the references describe; validate takes only "
                            "keys of the method (time but time.start, scheme, solver, mesh, "
                            "kinematics, ...: "
                            "rocking_contact.config.METHOD_KEYS); run shows other physics "
                            "next to the references")
        changed = grading_changes(case)
        if changed:
            raise CaseError(f"{case.source_file} (with --set)", changed[0],
                            "changes what the case is graded on (its references, quantities "
                            "and collision or impact measures: rocking_contact.config."
                            "GRADING_KEYS); validate grades with the case file's, run shows "
                            "the checks with yours")
    check_dir("--out", args.out)  # made once nothing is refused: a refusal leaves nothing
    verdicts: dict[str, list[str]] = {}  # validate's word -> "case (why)"
    for i, case in enumerate(cases):
        out = args.out / case.case.name
        check_dir("--out", out)
        try:
            result = rc.run(case, out=out, quiet=args.quiet, plots=not args.no_plots)
        except Interrupted as exc:  # what it computed, then _command's one line
            show_result(exc.partial)
            skipped = [c.case.name for c in cases[i + 1:]]
            rest = f"; not run: {', '.join(skipped)}" if skipped else ""
            raise Interrupted(f"{case.case.name}: {exc}{rest}", exc.partial, exc.signal
                              ) from None
        except SolverFailure as exc:  # what it computed, then the error
            show_result(exc.partial)
            # the next cases still run; this one failed
            verdicts.setdefault("FAILED", []).append(
                f"{case.case.name} ({exc.describe().split(':')[0]})")
            if mpi_rank() == 0:
                print(f"{case.case.name}: error: {exc.describe()} {exc.written}\n",
                      file=sys.stderr)
            continue
        said = validation_verdict(result)
        if said is not None:
            verdicts.setdefault(said[0], []).append(f"{case.case.name} ({said[1]})")
        show_result(result)
        if mpi_rank() == 0:
            print()
    if mpi_rank() == 0:
        print_verdicts(len(cases), verdicts)
    return 1 if verdicts else 0


def distinct(cases: list[Any]) -> list[Any]:
    """The cases ``validate`` runs: a case file given twice (``validate sdnd101a
    sdnd101a``, a name and its path) once, said on stderr; two files of one
    ``case.name``, whose results would go into one directory, refused.

    Raises:
        CaseError: two case files of the same name.

    """
    from rocking_contact.api import mpi_rank
    from rocking_contact.config import CaseError

    kept: dict[str, Any] = {}
    counts: dict[str, int] = {}
    for case in cases:
        name, first = case.case.name, kept.get(case.case.name)
        if first is not None and Path(first.source_file).resolve() != Path(
                case.source_file).resolve():
            raise CaseError(str(case.source_file), "case.name",
                            f"{name!r} is the name of {first.source_file} too: their results "
                            f"would go into one directory (allowed: cases of distinct names; "
                            f"validate them one at a time, each with its --out)")
        kept.setdefault(name, case)
        counts[name] = counts.get(name, 0) + 1
    for name, count in counts.items():
        if count > 1 and mpi_rank() == 0:
            print(f"warning: {name}: given {count} times, validated once", file=sys.stderr)
    return list(kept.values())
