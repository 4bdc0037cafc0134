"""Overrides: ``section.key=value`` (``--set``, or a dict in the Python API) applied to
parsed case data.

They are applied to the parsed TOML before validation, so they are checked exactly like the
file; list items are addressed by index, written as the error messages write it
(``model.shock[0].kn=2e6``) or dotted (``model.shock.0.kn=2e6``).

A relative file ``path`` (a CSV record) is read from the folder of the text that gives it
(:func:`anchor_paths`): the case file's folder for a file, the current directory for an
override typed on the command line or passed to ``load_case``.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rocking_contact.config.names import close_hint
from rocking_contact.config.schema import (
    CaseError,
    dotted_key,
    key_values,
    merge,
    schema_doc,
    short_text,
    toml_text,
)


def key_path(key: str) -> list[str]:
    """Components of a dotted key; a list index reads ``shock[0]`` or ``shock.0``.

    Both spellings are taken so that a key copied from an error message (which writes
    ``model.shock[0].kn``) works in ``--set`` and in the Python API's override dicts.

    Raises:
        CaseError: an empty component (``time..step``).

    """
    # any bracketed text, not only digits: ``shock[-1]`` is then refused as an index
    path = re.sub(r"\[([^\[\]]*)\]", r".\1", key.strip()).split(".")
    if any(not p for p in path):
        raise CaseError("--set", key, "empty component in the dotted key (allowed: names "
                                      "joined by single dots, such as time.step or "
                                      "model.shock.0.kn)")
    return path


def dig(data: Any, key: str) -> Any:
    """The value at dotted ``key`` (:func:`key_path`) of parsed case data or of a run's
    parameters, list items by index; ``dataclasses.MISSING`` if there is none."""
    for part in key_path(key):
        if isinstance(data, Mapping) and part in data:
            data = data[part]
        elif isinstance(data, list) and part.isdigit() and int(part) < len(data):
            data = data[int(part)]
        else:
            return dataclasses.MISSING
    return data


def plain(value: Any) -> Any:
    """An override value with its NumPy arrays as lists (nested for a 2-D array: a table of
    ``collisions.windows``), their items NumPy scalars, which the schema reads as numbers
    (a ``float32`` as the decimal it prints as); tables and lists are copied, other values
    kept. A script builds a velocity or a record with NumPy and need not call
    ``.tolist()``; a 0-d array is its scalar."""
    if isinstance(value, np.ndarray):
        return value[()] if value.ndim == 0 else [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(plain(v) for v in value)
    return value


def refuse_repeated_keys(texts: Sequence[str], allowed: str) -> None:
    """Refuse a key given in two ``--set`` texts (``time.step=1e-4``, ``time.step=2e-4``;
    ``model.shock[0].mu`` and ``model.shock.0.mu`` are one key), which would otherwise
    keep the last value unsaid. ``allowed``: what to give instead, ``{key}`` the key as
    typed. A text without a key is left to its reader to refuse.

    Raises:
        CaseError: ``--set: time.step: given twice ('time.step=1e-4' and
            'time.step=2e-4'; allowed: one --set time.step=VALUE)``.

    """
    seen: dict[tuple[str, ...], str] = {}
    for text in texts:
        path = set_key(text)
        if path is None:
            continue
        key = text.partition("=")[0].strip()
        if path in seen:
            raise CaseError("--set", key, f"given twice ({seen[path]!r} and {text!r}; "
                            f"allowed: {allowed.format(key=key)})")
        seen[path] = text


def set_key(text: str) -> tuple[str, ...] | None:
    """The key path (:func:`key_path`) a ``--set`` text sets, ``("model", "shock", "0",
    "kn")`` for ``model.shock[0].kn=1e5`` and ``model.shock.0.kn=1e5`` alike; None for a
    text without a key, which its reader refuses."""
    key, sep, _ = text.partition("=")
    key = key.strip()
    return tuple(key_path(key)) if sep and key else None


def malformed_override(text: str, kind: Any = None, *, value: str = "VALUE",
                       schema: type | None = None) -> CaseError:
    """The refusal of an override text that is not ``KEY=VALUE``: no ``=``
    (``time.step``) or no key before it (``=1e-4``). What is allowed is said from the
    schema of the case's ``kind`` (its ``case.kind``, unchecked: an unknown kind counts as
    none) or ``schema`` (a part of one) where the key is one of its keys, as
    ``rocking-contact keys`` gives it (``allowed: time.step=VALUE, VALUE a number > 0,
    |x| <= 1e+06 s``; a table's keys for a table; the close keys of one the kind does not
    have); ``value``: the placeholder of what follows ``=`` (``V1,V2,...`` for a sweep)."""
    from rocking_contact.config.kinds import KINDS, kind_schema

    key = text.partition("=")[0].strip()
    kind = kind if isinstance(kind, str) and kind in KINDS else None  # (not checked yet)
    listed = f"rocking-contact keys {kind} lists them" if kind else ""
    if not key:
        wrong = "no key before '='" if "=" in text else "an empty text"
        return CaseError("--set", text.strip(), f"{wrong} (allowed: KEY={value}, "
                         f"KEY a dotted key such as time.step{'; ' if listed else ''}"
                         f"{listed})")
    if schema is None and kind:
        schema = kind_schema(kind)
    try:
        known = key_values(schema, key_path(key)) if schema is not None else None
    except CaseError:  # an empty component (time..step): its key reads as unknown
        known = None
    wrong = "no '=' after the key"
    if known is None and listed and schema is not None:
        # the keys as `keys` writes them, a list's item as N (model.shock.N.kn)
        typed = ".".join("N" if part.isdigit() else part for part in key.split("."))
        close = close_hint(typed, [row[0] for row in schema_doc(schema)])
        return CaseError("--set", key, f"{wrong}, and no key of kind {kind!r} (allowed: "
                                       f"KEY={value}, KEY one that "
                                       f"{listed.removesuffix(' them')}{close})")
    if known is None:  # the key unchecked (no schema), or no key of the part checked
        return CaseError("--set", key, f"{wrong} (allowed: "
                                       f"{'KEY' if schema is not None else key}={value})")
    what, said = known
    if what == "value":
        placeholder = "each value" if value != "VALUE" else value
        return CaseError("--set", key, f"{wrong} (allowed: {key}={value}, {placeholder} "
                                       f"{said})")
    index = ".N" if what == "tables" else ""
    return CaseError("--set", key, f"{wrong} (allowed: {key}{index}.KEY={value}, "
                                   f"{'N an index, ' if index else ''}KEY one of {said})")


def parse_override(text: str) -> tuple[list[str], Any]:
    """Split ``section.key=value`` into a key path (:func:`key_path`) and a TOML-parsed
    value.

    The value is read as a TOML literal (``1e-4``, ``true``, ``[1, 2]``, ``"name"``); if it
    is not one, it is taken as a bare string (``scheme=newmark``). An empty value
    (``preload.angle=``) is None, as in the Python API: it unsets the key, which then
    reads as if the file did not give it (an optional key's default; a key the case needs
    is refused as missing). An empty string is ``key=''``.
    """
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise malformed_override(text)
    path = key_path(key)
    if not raw.strip():  # TOML has no null to spell it
        return path, None
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw.strip()
    return path, value


def anchor_paths(value: Any, folder: Path, key: str = "") -> Any:
    """``value`` (parsed case data, or the value of the key ``key``) with every relative
    ``path`` (the CSV records of time functions, the schemas' only file key) made absolute
    from ``folder``: the folder of the file that wrote it, so that a case extending
    ``sub/parent.toml`` reads the parent's record in ``sub/`` and both load the same value
    (no spurious change of physics between them); the current directory for an override.
    A copy: the caller's data (an override dict) is left as it was."""
    if isinstance(value, Mapping):
        return {k: anchor_paths(v, folder, k) for k, v in value.items()}
    if isinstance(value, list):
        return [anchor_paths(v, folder) for v in value]
    if key == "path" and isinstance(value, str) and value and not Path(value).is_absolute():
        return str((folder / value).absolute())
    return value


def apply_overrides(data: dict[str, Any], overrides: Mapping[str, Any] | list[str],
                    folder: Path | None = None, schema: type | None = None) -> None:
    """Apply ``--set`` overrides in place; list items are addressed by integer index
    (``a.b[0].c`` or ``a.b.0.c``, see :func:`key_path`).

    ``overrides`` is either a list of ``"a.b=value"`` strings (command line; a key given in
    two is refused, :func:`refuse_repeated_keys`) or a mapping of dotted keys to Python
    values (Python API; NumPy arrays read as lists, :func:`plain`); both read their keys
    the same way.
    ``folder``: where their relative record paths start (:func:`anchor_paths`; None: left
    as given). ``schema``: what ``data`` is read with, for the refusal of a text that is
    not ``KEY=VALUE`` (:func:`malformed_override`); None: the schema of its ``case.kind``.
    """
    items: list[tuple[list[str], Any]]
    if isinstance(overrides, Mapping):
        items = [(key_path(k), plain(v)) for k, v in overrides.items()]
    else:
        refuse_repeated_keys(overrides, "one --set {key}=VALUE")
        malformed = next((text for text in overrides if set_key(text) is None), None)
        if malformed is not None:  # said from the schema of the case's kind or `schema`
            raise malformed_override(malformed, _dig_kind(data), schema=schema)
        items = [parse_override(text) for text in overrides]
    kind = _dig_kind(data)
    for path, value in items:
        if path[0] == "extends":
            raise CaseError("--set", "extends", "cannot be overridden: a case's parent is "
                            "read with its file; allowed: a case file with extends = "
                            f"{toml_text(value)} and the keys to change")
        if folder is not None:
            value = anchor_paths(value, folder, path[-1])
        node: Any = data
        where = ""  # the key so far, spelled as the error messages of build spell it
        for part in path[:-1]:
            if isinstance(node, list):
                where = f"{where}[{part}]"
                node = node[_index(node, part, where)]
            elif isinstance(node, dict):
                where = dotted_key(where, part)
                node = node.setdefault(part, {})
            else:
                raise _not_a_table(where, node, path)
        last = path[-1]
        if isinstance(node, list):
            key: Any = _index(node, last, f"{where}[{last}]")
        elif isinstance(node, dict):
            key = last
        else:
            raise _not_a_table(where, node, path)
        old = node.get(key) if isinstance(node, dict) else node[key]
        # A table given for a table (or a list's table) merges into it, as with extends:
        # {"time": {"step": 1e-4}} changes the step and keeps time.end.
        node[key] = merge(old, value) if isinstance(value, Mapping) and isinstance(
            old, Mapping) else value
        if kind is not None and _dig_kind(data) != kind:
            got = ("cannot be unset" if _dig_kind(data) is None else
                   f"cannot be overridden: got {short_text(_dig_kind(data))}")
            raise CaseError("--set", "case.kind", f"{got}, and the file's keys are those "
                            f"of kind {kind!r}; allowed: {kind!r}, or a case file of the "
                            "other kind")


def _dig_kind(data: Mapping[str, Any]) -> Any:
    """``case.kind`` of parsed case data (None if not given)."""
    info = data.get("case")
    return info.get("kind") if isinstance(info, Mapping) else None


def _not_a_table(where: str, value: Any, path: list[str]) -> CaseError:
    """The error for a key set inside ``where``, which holds a value, not a table."""
    return CaseError("--set", where, f"holds the value {short_text(value)}, not a table: "
                                     f"{'.'.join(path)} names no key; allowed: set {where} "
                                     "itself")


def _index(items: list[Any], part: str, where: str) -> int:
    if not part.isdigit() or int(part) >= len(items):
        have = f"an index 0..{len(items) - 1}" if items else "none: the list is empty"
        negative = ", none negative" if part.startswith("-") and items else ""
        raise CaseError("--set", where, f"got index {part!r}, allowed: {have}{negative} (set "
                                        "the whole list to add items)")
    return int(part)
