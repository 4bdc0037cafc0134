"""A run's resolved parameters as (key, value, unit) rows.

The keys are the case file's dotted keys, with list items named after their ``name``
(``model.shock[NO1].kn``) or their index; the units come from the case kind's schema
(the ``unit`` of each :func:`rocking_contact.config.param`), so a new kind of case shows
its units with no change here. The ``case``, ``quantity`` and ``reference`` sections are
shown elsewhere in the report. The keys the run's variants did not read (results.json
``extra.unread``), and those its kind never reads (:func:`kind_not_read`), stay in the
table, marked :data:`NOT_READ` (:func:`not_read`).
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Iterable, Mapping
from typing import Any

from rocking_contact.report.document import number

#: top-level sections the report shows in other tables
SHOWN_ELSEWHERE = frozenset({"case", "quantity", "reference"})
#: longest list written out in full
_LIST_ITEMS = 8
#: what the table says of a key that the run's variants did not read
NOT_READ = "not read by this variant"


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        items = [_text(v) for v in value]
        if len(items) > _LIST_ITEMS:
            items = items[:3] + ["…"] + items[-2:] + [f"({len(value)} values)"]
        return "[" + ", ".join(items) + "]"
    if isinstance(value, str):
        return value.strip() or '""'
    return number(value)


def flatten(params: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """(dotted key, value text) of every leaf of the parameters."""
    rows: list[tuple[str, str]] = []
    for key, value in params.items():
        if not prefix and key in SHOWN_ELSEWHERE:
            continue
        if key == "name" and prefix.endswith(f"[{value}]"):
            continue  # already in the item's selector
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, Mapping):
            rows += flatten(value, path)
        elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            for i, item in enumerate(value):
                rows += flatten(item, f"{path}[{item.get('name', i)}]")
        else:
            rows.append((path, _text(value)))
    return rows


def schema_units(cls: type, prefix: str = "") -> dict[str, str]:
    """Dotted key (list items without selector) -> unit, from a case schema's fields."""
    units: dict[str, str] = {}
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        key = f"{prefix}.{f.name}" if prefix else f.name
        inner = _table_type(hints[f.name])
        if dataclasses.is_dataclass(inner):
            units.update(schema_units(inner, key))  # type: ignore[arg-type]
        elif f.metadata.get("unit"):
            units[key] = f.metadata["unit"]
    return units


def _table_type(tp: Any) -> Any:
    """The type a key's values have: a list's items, an optional table's table
    (``X | None``, whose keys have units too: ``time.refine.step``)."""
    if typing.get_origin(tp) is list:
        return typing.get_args(tp)[0]
    tables = [t for t in typing.get_args(tp) if dataclasses.is_dataclass(t)]
    return tables[0] if len(tables) == 1 else tp


def _schema(kind: str) -> Any:
    """A case kind's schema class; None when it cannot be loaded."""
    from rocking_contact.config import CaseError, kind_schema

    try:
        schema = kind_schema(kind)
    except (CaseError, ImportError):
        return None
    return schema if dataclasses.is_dataclass(schema) else None


def _key_docs(schema: Any) -> dict[str, tuple[str, str]]:
    """A schema's ``KEY_DOCS``: dotted key -> (doc, unit) of the keys of a shared section
    that mean something else for its kind, as ``rocking-contact keys`` shows them."""
    return dict(getattr(schema, "KEY_DOCS", {}))


def kind_units(kind: str) -> dict[str, str]:
    """Units of a case kind's keys, a key's ``KEY_DOCS`` unit, where it gives one, before
    its field's (the rigid block's ``preload.tilt`` is an angle, rad, the FEM block's a
    sine, without unit); empty when the kind's schema cannot be loaded."""
    schema = _schema(kind)
    if schema is None:
        return {}
    return {**schema_units(schema),
            **{key: unit for key, (_, unit) in _key_docs(schema).items() if unit}}


def kind_not_read(kind: str) -> list[str]:
    """The dotted keys of a shared section that case ``kind`` never reads, its schema's
    ``NEVER_READ`` (the rigid block's ``material.block.young``; ``rocking-contact keys``
    says so of each): they are in a run's ``parameters`` at their defaults, and in no
    variant's ``extra.unread``."""
    schema = _schema(kind)
    return sorted(getattr(schema, "NEVER_READ", ()))


def parameter_rows(params: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(key, value, unit) of the resolved parameters of a run."""
    kind = (params.get("case") or {}).get("kind", "")
    units = kind_units(kind) if kind else {}
    return [(key, value, units.get(re.sub(r"\[[^\]]*\]", "", key), ""))
            for key, value in flatten(params)]


def not_read(key: str, unread: Iterable[str]) -> bool:
    """Whether a row's ``key`` (:func:`flatten`'s: ``contact.spring[0].on``) is one of the
    ``unread`` dotted keys of a run (results.json ``extra.unread``: ``contact.spring``) or
    lies inside one."""
    return any(key == u or key.startswith((f"{u}.", f"{u}[")) for u in unread)
