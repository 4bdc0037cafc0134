"""Command-line options that several commands share (``run``, ``validate``, ``rigid``,
``mesh``): one definition each, so that their spelling and meaning cannot drift apart."""

from __future__ import annotations

import argparse


def add_set_option(parser: argparse.ArgumentParser,
                   help_text: str = "override a case-file value (repeatable), "
                                    "e.g. time.step=1e-4") -> None:
    """``--set SECTION.KEY=VALUE``, repeatable, gathered in ``args.overrides``."""
    parser.add_argument("--set", dest="overrides", action="append", default=[],
                        metavar="SECTION.KEY=VALUE", help=help_text)


def add_case_options(parser: argparse.ArgumentParser, quiet: str,
                     set_help: str | None = None) -> None:
    """``--set``, ``--quiet`` (what it leaves printed: ``quiet``) and ``--no-plots``."""
    if set_help is None:
        add_set_option(parser)
    else:
        add_set_option(parser, set_help)
    parser.add_argument("--quiet", "-q", action="store_true", help=quiet)
    parser.add_argument("--no-plots", action="store_true", help="skip the plots (PNG and SVG)")
