"""Command-line options that several commands share (``run``, ``validate``, ``rigid``,
``mesh``): one definition each, so that their spelling and meaning cannot drift apart.

Imported to build the command line: keep its imports light.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path


def given_text(text: str, allowed: str = "a path; . for the current directory") -> str:
    """An argparse ``type`` for a path or a name: ``text`` unless it is empty. ``Path("")``
    is the current directory, so that ``--out "$DIR"`` with ``DIR`` unset wrote into it (and
    ``view ""`` showed what it held) instead of saying that no path was given."""
    if not text:
        raise argparse.ArgumentTypeError(f"empty (allowed: {allowed})")
    return text


def path_argument(text: str) -> Path:
    """An argparse ``type`` for a directory (or a path of either kind): :func:`given_text`
    as a ``Path``."""
    return Path(given_text(text))


def file_argument(text: str) -> Path:
    """An argparse ``type`` for a file to write: :func:`given_text` as a ``Path``."""
    return Path(given_text(text, "a file path"))


def add_set_option(parser: argparse.ArgumentParser,
                   help_text: str = "override a case-file value (repeatable, a key once), "
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


def add_case_argument(parser: argparse.ArgumentParser, help_text: str) -> None:
    """The case, optional, as a positional argument or as ``--case CASE`` (one of them:
    :func:`case_argument`), gathered in ``args.case`` and ``args.case_option``."""
    parser.add_argument("case", nargs="?", help=help_text)
    parser.add_argument("--case", dest="case_option", metavar="CASE",
                        help="the same, as an option")


def case_argument(args: argparse.Namespace) -> str | None:
    """The case :func:`add_case_argument` took, None when neither form names one.

    Raises:
        CaseError: the case given both ways.

    """
    if args.case is not None and args.case_option is not None:
        from rocking_contact.config import CaseError

        raise CaseError("--case", "", f"{args.case_option!r} given beside the case "
                        f"{args.case!r} (allowed: one of them)")
    case: str | None = args.case or args.case_option
    return case


def number_argument(kind: type[int] | type[float], allowed: str,
                    test: Callable[[float], bool] | None = None) -> Callable[[str], float]:
    """An argparse ``type`` for a number (``kind`` ``int`` or ``float``) whose refusal
    says what the option takes, ``allowed`` (its range and unit, as the command checks them
    afterwards, or ``test`` here), in one line through the command line's parser:
    ``argument --scale: got 'abc', allowed: a finite number > 0, ...`` rather than
    argparse's ``invalid float value: 'abc'``."""
    def number(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or (test is not None and not test(value)):
            raise argparse.ArgumentTypeError(f"got {text!r}, allowed: {allowed}")
        return value
    return number
