"""``rocking-contact list``: the shipped cases and their variants, with their titles.

This module is imported to build the command line: keep its imports light.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``list`` takes no argument."""


def main(args: argparse.Namespace) -> int:
    """Print one line per shipped case, then the variants'; returns the exit code."""
    from rocking_contact.config import shipped_cases, variant_cases

    shipped, variants = shipped_cases(), variant_cases()
    width = max((len(n) for n in (*shipped, *variants)), default=0)
    _print_cases(shipped, width)
    if variants:
        print("\nvariants (run by name; not in validate's default set):")
        _print_cases(variants, width)
    return 0


def _print_cases(cases: dict[str, Path], width: int) -> None:
    from rocking_contact.config import KINDS, CaseError, read_toml, toml_text

    # the titles in one column: '[block]' padded as wide as '[discrete]'
    kind_width = max(len(kind) for kind in KINDS) + 2
    for name, path in cases.items():
        try:
            info = read_toml(path).get("case", {})
            title, kind = info.get("title", "?"), info.get("kind", "?")
            if not isinstance(title, str):  # as run and validate refuse it, not "True"
                title = f"(case.title: got {toml_text(title)}, allowed: a string)"
        except CaseError as exc:
            title, kind = f"(unreadable: {exc.problem})", "?"
        print(f"{name.ljust(width)}  {f'[{kind}]'.ljust(kind_width)}  {title}")
