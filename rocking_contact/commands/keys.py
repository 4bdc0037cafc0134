"""``rocking-contact keys``: every case-file key of a kind, with its type, default and
meaning.

This module is imported to build the command line: keep its imports light.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``rocking-contact keys``."""
    parser.add_argument("case", help="a case name or file (its kind is described), or a kind")


def main(args: argparse.Namespace) -> int:
    """Print the keys of the kind of ``args.case``, table by table; returns the exit code."""
    from rocking_contact.config import kind_of, kind_schema, schema_doc

    kind = kind_of(args.case)
    rows = schema_doc(kind_schema(kind, args.case))
    width = max(len(r[0]) for r in rows)
    print(f"case-file keys of kind {kind!r} (override any with --set KEY=VALUE); "
          "N indexes a list of tables")
    print(f"  {'extends'.ljust(width)}  a string, optional; a case file (path relative to this "
          "one) whose values this file overrides, tables merged key by key")
    tables = {r[0] for r in rows if r[1].endswith("table") or r[1] == "list of tables"}
    heading = ""
    for key, type_name, default, doc in rows:
        if key in tables:
            heading = key
            print(f"\n[{key}]  ({type_name})" + (f"  {doc}" if doc else ""))
            continue
        parent = key.rpartition(".")[0].removesuffix(".N")
        if parent != heading:  # back in an enclosing table after a nested one
            heading = parent
            print(f"\n[{parent}]  (continued)" if parent else "")
        text = f"{type_name}, default {default}" if default != "(required)" else \
            f"{type_name}, required"
        print(f"  {key.ljust(width)}  {text}" + (f"; {doc}" if doc else ""))
    return 0
