"""``rocking-contact run``: run one case and write its results.

This module is imported to build the command line: keep its imports light.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rocking_contact.options import add_case_options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``rocking-contact run``."""
    parser.add_argument("case", help="shipped case name or path to a case TOML file")
    parser.add_argument("--out", type=Path, help="results directory (default results/<case>/); "
                                                 "replaces the results already there (of "
                                                 "any case) once the run starts; a run "
                                                 "refused as it sets up leaves them")
    add_case_options(parser, "no progress bar and no table of the checks (the summary line, "
                             "warnings and errors are still printed)")


def main(args: argparse.Namespace) -> int:
    """Run the case, show its table and summary line (those of a stopped run too, before
    its exception goes on to the command line's one line); returns the exit code."""
    import rocking_contact as rc
    from rocking_contact.api import default_out_dir, mpi_rank, shipped_name_taken
    from rocking_contact.out_paths import make_dir, missing_dirs, remove_made
    from rocking_contact.stops import RunStopped
    from rocking_contact.summary import show_result

    case = rc.load_case(args.case, args.overrides)
    out = args.out or default_out_dir(case)
    taken = None if args.out else shipped_name_taken(case)
    if taken is not None and mpi_rank() == 0:
        print(f"warning: {taken}", file=sys.stderr)
    made = missing_dirs(out)
    make_dir("--out", out)  # made here: rc.run's error would name its argument, out=
    try:
        result = rc.run(case, out=out, quiet=args.quiet, plots=not args.no_plots)
    except rc.CaseError:  # refused as it set up (rc.run put the earlier results back)
        if mpi_rank() == 0:
            remove_made(made)
        raise
    except RunStopped as exc:  # Ctrl-C too: what it computed, then _command's one line
        show_result(exc.partial, out, table=not args.quiet)
        raise
    show_result(result, out, table=not args.quiet)
    return 0
