"""``rocking-contact report [CASE...] [--out report/]``: the validation report.

Reads the results directories (``results/<case>/`` by default, as ``validate`` writes
them) and writes ``index.html`` (self-contained), ``report.md`` and ``figures/``. It runs
no simulation: a case without results is an error (exit code 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HTML_FILE, MARKDOWN_FILE, FIGURES_DIR = "index.html", "report.md", "figures"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``report`` subcommand's options."""
    parser.add_argument("cases", nargs="*",
                        help="case names or results directories (default: every result in "
                             "--results)")
    parser.add_argument("--results", type=Path, default=Path("results"),
                        help="parent directory of the per-case results (default results/)")
    parser.add_argument("--out", type=Path, default=Path("report"),
                        help="report directory (default report/)")
    parser.add_argument("--no-views", action="store_true",
                        help="skip the pyvista pictures (faster, no OpenGL needed)")


def write_report(cases: list[str], results_dir: Path, out: Path, *, views: bool = True) -> Path:
    """Write the report of ``cases`` (all results when empty) into ``out``; returns the HTML.

    Raises:
        rocking_contact.report.content.ReportError: no results to report on.
        rocking_contact.config.CaseError: a results file that is not what a run writes, or
            an ``out`` that cannot be a directory.

    """
    from rocking_contact.out_paths import check_dir
    from rocking_contact.report import content, html, markdown

    found = content.find_results(results_dir, cases)
    check_dir("--out", out)  # as `run --out`: one line naming --out, not an OSError
    doc = content.build(found, out / FIGURES_DIR, views=views)
    page = out / HTML_FILE
    page.write_text(html.render(doc), encoding="utf-8")
    (out / MARKDOWN_FILE).write_text(markdown.render(doc, out), encoding="utf-8")
    return page


def main(args: argparse.Namespace) -> int:
    """Run ``report``; returns the exit code (2 on bad input)."""
    from rocking_contact.report.content import ReportError

    try:
        page = write_report(args.cases, args.results, args.out, views=not args.no_views)
    except (ReportError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {page} and {args.out / MARKDOWN_FILE}")
    return 0
