"""``rocking-contact report [CASE...] [--out report/]``: the validation report.

Reads the results directories (``results/<case>/`` by default, as ``validate`` writes
them) and writes ``index.html`` (self-contained), ``report.md`` and ``figures/``. It runs
no simulation: a name that is neither a results directory nor a case with results is an
error (exit code 2). A results directory that
cannot be read (a damaged results.json, a run killed before it wrote one) is skipped: the
report lists it with its reason, stderr has one ``warning:`` line for it, and the exit code
stays 0 unless no directory at all could be read (2).

The report is drawn in a hidden folder of ``--out`` (:data:`STAGING`) and moved into place
once complete, its page last, a Ctrl-C or SIGTERM held through the moves: an interrupted or
failed report leaves the previous report of ``--out`` as it was (or none), or the new one
whole, not a page without its figures or figures without a page.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rocking_contact.options import given_text, path_argument
from rocking_contact.report.meta import REPORT_INDEX

if TYPE_CHECKING:
    from rocking_contact.report.inputs import Skipped

#: the report's files beside its page (:data:`~rocking_contact.report.meta.REPORT_INDEX`,
#: named where the page's format is, as a later run reads it back)
MARKDOWN_FILE, FIGURES_DIR = "report.md", "figures"
#: the folder of ``--out`` a report is drawn in, moved into ``--out`` once complete
#: (:func:`write_report`): one a killed report left is removed by the next
STAGING = ".rocking-contact-report-partial"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``report`` subcommand's options."""
    parser.add_argument("cases", nargs="*", type=given_text,
                        help="case names or results directories (default: every result in "
                             "--results)")
    parser.add_argument("--results", type=path_argument, default=Path("results"),
                        help="parent directory of the per-case results (default results/)")
    parser.add_argument("--out", type=path_argument, default=Path("report"),
                        help="report directory (default report/)")
    parser.add_argument("--no-views", action="store_true",
                        help="skip the pyvista pictures (faster, no OpenGL needed)")


def write_report(cases: list[str], results_dir: Path, out: Path, *, views: bool = True,
                 skipped: list[Skipped] | None = None, workers: int | None = None) -> Path:
    """Write the report of ``cases`` (all results when empty) into ``out``; returns the HTML.

    Args:
        skipped: if given, receives the results directories that could not be read (the
            report lists them too).
        workers: the most processes that redraw plots at once (default: one per CPU,
            :func:`rocking_contact.report.figures.drawn_plots`, which starts them afresh:
            a script calling this runs it under ``if __name__ == "__main__":``); 1 draws
            them in this process.

    Raises:
        rocking_contact.report.inputs.ReportError: no results to report on, or none
            that could be read.
        rocking_contact.config.CaseError: an ``out`` that cannot be a directory.

    """
    from rocking_contact import interrupt
    from rocking_contact.out_paths import check_dir
    from rocking_contact.report import content, html, markdown
    from rocking_contact.report.inputs import find_results
    from rocking_contact.report.meta import report_meta

    found, unread = find_results(results_dir, cases)
    check_dir("--out", out)  # as `run --out`: one line naming --out, not an OSError
    staging = out / STAGING
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        doc = content.build(found, staging / FIGURES_DIR, views=views, skipped=unread,
                            workers=workers)
        # what it was drawn from and wrote: a run into the directory of the one run it
        # shows removes those files (report.meta.own_reports), not a user's own
        figures = _files(staging / FIGURES_DIR, staging)
        meta = report_meta([r.directory for r in found],
                           [REPORT_INDEX, MARKDOWN_FILE, *figures])
        (staging / REPORT_INDEX).write_text(html.render(doc, meta), encoding="utf-8")
        (staging / MARKDOWN_FILE).write_text(markdown.render(doc, staging), encoding="utf-8")
        # the page last, and every file moved before a Ctrl-C or SIGTERM is taken (held
        # through the renames, milliseconds): one that came between two renames left the
        # previous page over some of the new figures of the same names
        with interrupt.signals_held_for_python():
            for name in [*figures, MARKDOWN_FILE, REPORT_INDEX]:
                (out / name).parent.mkdir(parents=True, exist_ok=True)
                os.replace(staging / name, out / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    if skipped is not None:
        skipped += unread
    return out / REPORT_INDEX


def _files(folder: Path, base: Path) -> list[str]:
    """The files under ``folder``, relative to ``base``, sorted."""
    return sorted(p.relative_to(base).as_posix() for p in folder.rglob("*") if p.is_file())


def main(args: argparse.Namespace) -> int:
    """Run ``report``; returns the exit code (2 on bad input)."""
    from rocking_contact.config import CaseError
    from rocking_contact.report.inputs import ReportError

    _start_petsc()
    skipped: list[Skipped] = []
    had_page = _page(args.out)
    try:
        page = write_report(args.cases, args.results, args.out, views=not args.no_views,
                            skipped=skipped)
    except ReportError as exc:  # found before anything is written
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {exc}\n{_left(args.out, had_page)}", file=sys.stderr)
        return 2
    except BaseException as exc:  # Ctrl-C, SIGTERM: the line ``interrupted`` follows
        if not isinstance(exc, CaseError):  # a bad --out, refused before any writing
            print(_left(args.out, had_page), file=sys.stderr)
        raise
    for s in skipped:
        print(f"warning: skipped {s.directory}: {s.reason}", file=sys.stderr)
    print(f"wrote {page} and {args.out / MARKDOWN_FILE}")
    return 0


def _page(out: Path) -> tuple[int, int] | None:
    """Which page ``out`` holds (its inode and modification time: a report moved into
    place is another file), None for none."""
    try:
        found = (out / REPORT_INDEX).stat()
    except OSError:
        return None
    return found.st_ino, found.st_mtime_ns


def _left(out: Path, had_page: tuple[int, int] | None) -> str:
    """What a report that did not end leaves in ``out`` (:func:`write_report`), whose
    page was ``had_page`` (:func:`_page`) as it started: the previous report, none, or the
    new one whole, when the stop came as it moved into place (held until it was)."""
    now = _page(out)
    if now is not None and now != had_page:
        return f"wrote {out / REPORT_INDEX} and {out / MARKDOWN_FILE} before the interrupt"
    if had_page is not None:
        return f"no report written: the previous report in {out} is unchanged"
    return f"no report written to {out}"


def _start_petsc() -> None:
    """Start PETSc and SLEPc, whose versions the report gives, with the Python handlers of
    Ctrl-C and SIGTERM put back: started by the report, PETSc's would take a SIGTERM (its
    crash report and MPI_Abort, exit code 15)."""
    from rocking_contact import interrupt

    with interrupt.signals_held_for_python(), contextlib.suppress(ImportError):
        from petsc4py import PETSc  # noqa: F401
        from slepc4py import SLEPc  # noqa: F401
