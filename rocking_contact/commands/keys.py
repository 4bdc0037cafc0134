"""``rocking-contact keys``: every case-file key of a kind, with its type, default and
meaning; given a case, also the value the case gives where it is not the default, and the
file that gives it.

This module is imported to build the command line: keep its imports light.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from typing import Any

#: the longest value text a line quotes whole; a longer one is cut (a list after its
#: first items, with its length)
LONGEST_VALUE = 60


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``rocking-contact keys``."""
    from rocking_contact.options import add_set_option

    parser.add_argument("case", help="a case name or file (the keys of its kind, and the "
                                     "values it gives where they are not the defaults), "
                                     "or a kind")
    add_set_option(parser, "a value to show the case with, as run --set gives it "
                           "(repeatable, a key once): its line says 'this case: VALUE (--set)'")


def main(args: argparse.Namespace) -> int:
    """Print the keys of the kind of ``args.case``, table by table, with the case's own
    values beside the defaults when ``args.case`` names a case; returns the exit code."""
    from rocking_contact.config import KINDS, CaseError, kind_of, kind_schema, schema_doc

    if args.case in KINDS and args.overrides:
        raise CaseError("--set", "", f"{args.case} is a kind, which has no values to override "
                        "(allowed: --set with a case name or file)")
    kind = kind_of(args.case)
    rows = schema_doc(kind_schema(kind, args.case))
    given = {} if args.case in KINDS else _case_values(args.case, args.overrides)
    width = max(len(r[0]) for r in rows)
    print(f"case-file keys of kind {kind!r} (override any with --set KEY=VALUE); "
          "N indexes a list of tables"
          + ("; 'this case:' where the case's value is not the default"
             + (" or --set gives it" if args.overrides else "") if given else ""))
    print(f"  {'extends'.ljust(width)}  a string, optional; a case file (path relative to this "
          "one) whose values this file overrides, tables merged key by key"
          + _this_case(given.get("extends")))
    tables = {r[0] for r in rows if r[1].endswith("table") or r[1] == "list of tables"}
    heading = ""
    for key, type_name, default, doc in rows:
        if key in tables:
            heading = key
            own = given.get(key) if type_name != "table" else None  # (its keys say it)
            own = None if own is None or own[0] in ("[]", "unset") else own
            print(f"\n[{key}]  ({type_name})" + _this_case(own) + (f"  {doc}" if doc else ""))
            continue
        parent = key.rpartition(".")[0].removesuffix(".N")
        if parent != heading:  # back in an enclosing table after a nested one
            heading = parent
            print(f"\n[{parent}]  (continued)" if parent else "")
        text = f"{type_name}, default {default}" if default != "(required)" else \
            f"{type_name}, required"
        own = given.get(key)
        # (a key given by --set is shown even at its default: the user asked for it)
        text += _this_case(own) if own is None or own[0] != default or own[1] == "--set" \
            else ""
        print(f"  {key.ljust(width)}  {text}" + (f"; {doc}" if doc else ""))
    return 0


def _this_case(own: tuple[str, str] | None) -> str:
    """``; this case: VALUE (FILE)`` for a (value text, file name) pair, '' for None."""
    if own is None:
        return ""
    value, file = own
    return f"; this case: {value}" + (f" ({file})" if file else "")


def _case_values(case: str, overrides: list[str]) -> dict[str, tuple[str, str]]:
    """Dotted key -> (the value ``case`` loads with, with ``overrides`` (``--set`` texts),
    as a case file writes it and cut to :data:`LONGEST_VALUE`; the name of the file that
    gives it, ``--set`` for an override, '' for a value no file gives) for its keys,
    ``extends`` and its tables (a list of tables as its length; an optional table as
    'given'); empty, with a note on stderr, for a case file that does not load (its keys
    are still what the user needs to mend it).

    Raises:
        CaseError: an override the case refuses.

    """
    from rocking_contact.config import (
        CaseError,
        Origins,
        given_layer,
        key_path,
        load_case,
        loaded_as,
        read_case_data,
        read_toml,
        resolve_case_path,
    )

    path = resolve_case_path(case)
    try:
        loaded = load_case(path, overrides)
    except CaseError as exc:
        if overrides:
            raise
        print(f"note: {exc}; the keys below show the defaults only", file=sys.stderr)
        return {}
    values = dataclasses.asdict(loaded)
    _, layer = loaded_as(loaded) or ({}, lambda key: math.inf)  # (load_case notes it)
    origins: Origins = {}
    read_case_data(path, origins=origins)

    def file_of(key: str) -> str:
        if given_layer(layer, key) == 0:
            return "--set"
        parts = tuple(key_path(key))
        holder = next((origins[parts[:n]] for n in range(len(parts), 0, -1)
                       if parts[:n] in origins), ())
        return holder[0].name if holder else ""

    out: dict[str, tuple[str, str]] = {}
    parent = read_toml(path).get("extends")
    if isinstance(parent, str):
        out["extends"] = (repr(parent), path.name)

    def walk(prefix: str, data: dict[str, Any]) -> None:
        for name, value in data.items():
            key = f"{prefix}.{name}" if prefix else name
            if isinstance(value, dict):
                out[key] = ("given", file_of(key))  # (an optional table's header says it)
                walk(key, value)
            elif isinstance(value, list) and value and isinstance(value[0], dict):
                out[key] = (f"{len(value)} table{'s' if len(value) > 1 else ''}",
                            file_of(key))
            else:
                out[key] = (_value_text(value), file_of(key))

    walk("", values)
    # a name is never inherited (load_case): the file's own, or by default its file's stem
    if values["case"]["name"] == path.stem:
        del out["case.name"]
    else:
        out["case.name"] = (out["case.name"][0], path.name)
    return out


def _value_text(value: Any) -> str:
    """``value`` as a case file writes it, cut to :data:`LONGEST_VALUE` characters: a list
    after its first items, with its length (``[[0.0, 0.33], [0.1, 0.33], ... 5 in all]``),
    a text on one line with ``...``."""
    from rocking_contact.config import toml_text

    if value is None:
        return "unset"  # as the defaults say it
    if isinstance(value, str):
        value = " ".join(value.split())
    text = toml_text(value)
    if len(text) <= LONGEST_VALUE:
        return text
    if isinstance(value, list):
        shown = 1
        while len(toml_text(value[:shown + 1])) < LONGEST_VALUE - 20:
            shown += 1
        return f"{toml_text(value[:shown])[:-1]}, ... {len(value)} in all]"
    quote = text[0] if text[0] in "'\"" else ""  # a string's: closed again after the cut
    return text[:LONGEST_VALUE - 3 - len(quote)] + "..." + quote
