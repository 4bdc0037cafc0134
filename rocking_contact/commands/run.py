"""``rocking-contact run``: run one case and write its results.

This module is imported to build the command line: keep its imports light.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rocking_contact.options import add_case_options, path_argument

if TYPE_CHECKING:
    from rocking_contact.results import RunResult

#: ``--out`` of the commands that run one case into a directory (``run``, ``rigid``)
OUT_HELP = ("results directory (default results/<case>/); replaces the results already "
            "there (of any case) once the run starts; a run refused as it sets up leaves "
            "them")

#: ``--quiet`` of those commands: what they still print
QUIET_HELP = ("no progress bar and no table of the checks (the summary line, warnings and "
              "errors are still printed)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``rocking-contact run``."""
    parser.add_argument("case", help="shipped case name or path to a case TOML file")
    parser.add_argument("--out", type=path_argument, help=OUT_HELP)
    add_case_options(parser, QUIET_HELP)


def main(args: argparse.Namespace) -> int:
    """Run the case, show its table and summary line (those of a stopped run too, before
    its exception goes on to the command line's one line); returns the exit code."""
    import rocking_contact as rc
    from rocking_contact.summary import show_result

    def show(result: RunResult | None, out: Path) -> None:
        show_result(result, out, table=not args.quiet)

    result, out = run_into(rc.load_case(args.case, args.overrides), args, show)
    show(result, out)
    return 0


def run_into(case: Any, args: argparse.Namespace,
             show: Callable[[RunResult | None, Path], None]) -> tuple[RunResult, Path]:
    """Run the loaded ``case`` into ``args.out`` (default ``results/<case>/``, where a
    copy of a shipped case that kept its name is warned of) as ``run`` and ``rigid`` do,
    with ``args.quiet`` and ``args.no_plots``; returns the result and its directory.

    The directory is made before the run (rank 0 alone, the ranks agreeing:
    :func:`~rocking_contact.out_paths.make_dir`), so that a bad ``--out`` is named as the
    option, not as ``rc.run``'s ``out=``; a run refused as it sets up (:class:`CaseError`)
    removes the directories made for it again, and what a stopped one (failure, Ctrl-C)
    computed is given to ``show`` before its exception goes on."""
    import rocking_contact as rc
    from rocking_contact.api import default_out_dir, mpi_rank
    from rocking_contact.out_paths import make_dir, missing_dirs, remove_made
    from rocking_contact.stops import RunStopped

    out = args.out or default_out_dir(case)
    taken = None if args.out else shipped_name_taken(case)
    if taken is not None and mpi_rank() == 0:
        print(f"warning: {taken}", file=sys.stderr)
    made = missing_dirs(out)
    make_dir("--out", out)
    try:
        result = rc.run(case, out=out, quiet=args.quiet, plots=not args.no_plots)
    except rc.CaseError:  # refused as it set up (rc.run put the earlier results back)
        if mpi_rank() == 0:
            remove_made(made)
        raise
    except RunStopped as exc:  # Ctrl-C too: what it computed, then _command's one line
        show(exc.partial, out)
        raise
    return result, out


def shipped_name_taken(case: Any) -> str | None:
    """The warning for a case read from a file other than the shipped case of its name (a
    copy edited and run as it is: ``[case] name`` came with it), whose default results
    directory is the shipped case's: the report takes what it writes there for that case's
    run, and without the warning an edited copy's checks silently replace the shipped
    run's. None otherwise."""
    from rocking_contact import config
    from rocking_contact.api import default_out_dir

    name: str = case.case.name
    shipped = {**config.variant_cases(), **config.shipped_cases()}.get(name)
    source = config.source_file(case)
    if shipped is None or source is None or Path(source).resolve() == shipped.resolve():
        return None
    return (f"{name}: {source} is not the shipped {name} but has its [case] name: its "
            f"results go to {default_out_dir(case)}/, where the shipped case's go and the "
            f"report takes them as its; give the file a [case] name of its own, or --out")
