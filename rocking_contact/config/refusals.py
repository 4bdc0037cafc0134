"""What is refused of a loaded case, and what it leaves behind, by where each key was
given (:data:`~rocking_contact.config.layers.Layer`).

Schema classes declare how their keys depend on each other, and this module reads the
declarations of every table of a case:

- ``VARIANTS`` and ``TABLE_VARIANTS``: the fields (or whole tables) that each value of a
  selector reads. A field the chosen value does not read, given away from its default, is
  refused (:func:`_unread_settings`), unless it was given before the choice (an extended
  file, or the file under ``--set``): then it was the old variant's, and is left as it
  is. :func:`unread_keys` lists the unread fields, given or not.
- ``MEANINGS``: a field whose meaning its variant decides (a time function's
  ``amplitude``). Given for another variant than the one chosen later, it is set back to
  its default (:func:`_old_meanings`).
- ``REPLACES``: two keys that give one setting (:func:`replacements`). Given in one
  layer, they are refused (:func:`_replacing_together`); given in two, the earlier one
  is set back to its default (:func:`_replaced`).
- ``aliasing(key, step)``: a function of time that the steps sample too seldom is refused
  (:func:`_aliased`).

:func:`first_refusal` and :func:`leave_behind` are these passes as
:func:`~rocking_contact.config.load_case` makes them; :func:`first_refusal_of_changes`
as :func:`~rocking_contact.config.unread_after_loading` makes them on a case changed
after loading, the changes being the latest layer.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from rocking_contact.config.layers import Layer, given_layer, layers
from rocking_contact.config.overrides import dig
from rocking_contact.config.reach import never_reached
from rocking_contact.config.schema import (
    as_dict,
    differences,
    dotted_key,
    toml_text,
    unknown_key,
)
from rocking_contact.config.sections import LoadInfo


def first_refusal(obj: Any, layer: Layer) -> tuple[str, str] | None:
    """The first setting of a case loaded with the layers ``layer`` that is refused, and
    why: ``(key, problem)``, or None. In order: a setting its variant does not read
    (:func:`_unread_settings`); a window or instant its own run never reaches
    (:func:`~rocking_contact.config.never_reached`); two keys that give one setting, given
    together (:func:`_replacing_together`); a function of time its steps sample too seldom
    (:func:`_aliased`)."""
    return (_unread_settings(obj, layer) or never_reached(obj, layer)
            or _replacing_together(obj, layer) or _aliased(obj, layer))


def leave_behind(obj: Any, layer: Layer,
                 given_with: Callable[[str, str], tuple[Any, str]]) -> None:
    """Set back to their defaults, on ``obj``, the keys a later layer left behind: given for
    another variant than the one chosen later, which reads them with another meaning
    (:func:`_old_meanings`, which says what ``given_with`` is), and replaced by the other
    key of their pair given later (:func:`_replaced`)."""
    for table, name, _, _ in _old_meanings(obj, layer, given_with):
        setattr(table, name, _defaults(table)[name])  # left behind with its variant
    for table, name in _replaced(obj, layer):
        setattr(table, name, _defaults(table)[name])  # left behind by a later key


def first_refusal_of_changes(case: Any, params: dict[str, Any], layer: Layer,
                             source: Path) -> tuple[str, str] | None:
    """The first change made to a loaded case that is refused, and why: ``(key, problem)``,
    or None. ``params`` and ``layer`` are the case's values as loaded and where each was
    given (:func:`~rocking_contact.config.loaded_as`), ``source`` its file. A change is
    the latest layer (-1), so a variant switched there leaves the file's settings behind;
    but a setting the new variant reads with another meaning (:func:`_old_meanings`: a
    sine's amplitude, once the type is 'table') is on the caller's object, and is refused
    rather than changed behind their back, as is a replaced key changed while the key
    that replaces it stands."""
    changed = [".".join(p) for p in differences(params, as_dict(case))]

    def later(key: str) -> float:
        # a key is changed if it, a table holding it or a value inside it is
        if any(k == key or k.startswith(key + ".") or key.startswith(k + ".")
               for k in changed):
            return -1
        return layer(key)

    def given_with(selector: str, key: str) -> tuple[Any, str]:
        return dig(params, selector), f"{source} (as loaded)"

    old = _old_meanings(case, later, given_with)
    # a replaced key changed while the key that replaces it stands (its file's) would be
    # ignored: refused, the caller's object left as they made it
    left = [(id(table), name) for table, name in _replaced(case, later)]
    replaced = [(other_key, f"{toml_text(getattr(table, other))} has no effect: {key} = "
                            f"{toml_text(getattr(table, name))} of {source} (as "
                            f"loaded) replaces it; allowed: set {key} = None too")
                for table, name, other, key, other_key in replacements(case)
                if (id(table), name) in left]
    return (_unread_settings(case, later) or (old[0][2:] if old else None)
            or _replacing_together(case, later) or (replaced[0] if replaced else None)
            or _aliased(case, later))


def unread_override(obj: Any, overridden: Iterable[str]) -> tuple[str, str] | None:
    """For a schema built from overrides alone: the first override its variant does not
    read, and why (as :func:`~rocking_contact.config.load_case` refuses it), or
    None."""
    return _unread_settings(obj, layers({}, overridden))


def unread_keys(case: Any) -> list[str]:
    """The dotted keys of ``as_dict(case)`` (results.json ``parameters``) that the variants
    the case chooses do not read, sorted: the fields a schema's ``VARIANTS`` governs that
    the chosen value of their selector does not name (:func:`_unread_settings`), given or
    not. SDNV105 A (``scheme.type = 'alpha_newmark'``, ``contact.treatment = 'lagrange'``)
    lists ``scheme.beta``, ``scheme.gamma``, ``scheme.theta``, ``contact.restitution`` and
    ``contact.spring``, among others: its steps' beta and gamma are derived from the
    alphas. A list of tables is one key (``contact.spring``), its items are not walked.
    Of two keys that give one setting (:func:`replacements`), the one not read is listed
    too (``sdnv105_rigid``'s ``preload.tilt``, beside its ``preload.angle``)."""
    replaced = {other_key if getattr(table, name) is not None else key
                for table, name, other, key, other_key in replacements(case)}
    return sorted({dotted_key(prefix, name) for table, prefix in _tables(case)
                   for name, _, _ in _not_read(table)} | replaced)


def replacements(obj: Any) -> Iterator[tuple[Any, str, str, str, str]]:
    """The pairs of keys that give one setting in two ways: a table declares ``REPLACES =
    {field: other}``, ``field`` (None by default) replacing, when given, the reading of
    ``other`` (the rigid block's ``preload.angle`` and the ``preload.tilt`` of a FEM
    block's pull). ``(table, field, other, field's dotted key, other's)`` for each."""
    for table, prefix in _tables(obj):
        for name, other in getattr(table, "REPLACES", {}).items():
            yield table, name, other, dotted_key(prefix, name), dotted_key(prefix, other)


def stray_attribute(obj: Any, prefix: str = "") -> tuple[str, str] | None:
    """An attribute set on a loaded case that is no key of its schema (``case.time.stpe =
    1e-3``, which the run would ignore): ``(key, problem)``, or None. Loading's record
    (:attr:`~rocking_contact.config.CaseFile.load_info`, declared a :class:`LoadInfo` on
    the class) is no key and no stray."""
    names = [f.name for f in dataclasses.fields(obj)]
    for name in vars(obj):
        declared = getattr(type(obj), name, None)
        if name not in names and not isinstance(declared, LoadInfo):
            return dotted_key(prefix, name), unknown_key(name, names)
    for name in names:
        values = getattr(obj, name)
        for i, value in enumerate(values if isinstance(values, list) else [values]):
            if dataclasses.is_dataclass(value) and not isinstance(value, type):
                key = dotted_key(prefix, name) + (f"[{i}]" if isinstance(values, list) else "")
                found = stray_attribute(value, key)
                if found is not None:
                    return found
    return None


def _unread_settings(obj: Any, layer: Layer) -> tuple[str, str] | None:
    """The first key given for a variant that does not read it, and why: ``(key, problem)``.

    A schema class declares ``VARIANTS = {selector: {value: (fields it reads), ...}}``; the
    fields named for any value of a selector are governed by it. A governed field given
    (in a file or an override) away from its default while the chosen value does not read
    it would be silently ignored, so it is refused, unless it was given in an earlier layer
    than the selector (an override or an extending file that switches variant leaves the
    old variant's settings behind, e.g. ``--set contact.treatment=lagrange --set
    scheme.type=newmark`` on a theta case leaves its ``theta`` behind).
    """
    return next((found for table, prefix in _tables(obj)
                 if (found := _unread_in(table, layer, prefix)) is not None), None)


def _unread_in(obj: Any, layer: Layer, prefix: str) -> tuple[str, str] | None:
    """:func:`_unread_settings` for the keys of one table (``prefix``: its dotted key)."""
    defaults = _defaults(obj)
    for name, selector, variants in _not_read(obj):
        key = dotted_key(prefix, name)
        value_given = _attribute(obj, name)
        table, _, field = name.rpartition(".")
        default = getattr(defaults[table], field) if table else defaults[name]
        if layer(key) == math.inf or value_given == default:
            continue  # not given, or given as its default (no effect either way)
        if layer(key) > layer(dotted_key(prefix, selector)):
            continue  # left behind by a later choice of variant
        value = _attribute(obj, selector)
        readers = [toml_text(v) for v, fields in variants.items() if name in fields]
        if isinstance(value_given, list) and value_given and all(
                dataclasses.is_dataclass(v) for v in value_given):
            text = f"{len(value_given)} [[{key}]] table(s)"
        else:
            text = toml_text(value_given)
        return key, (f"{text} has no effect with "
                     f"{dotted_key(prefix, selector)} = {toml_text(value)}, which does not "
                     f"read it; "
                     f"allowed: leave it out, or {selector} {' or '.join(readers)}")
    return None


def _not_read(obj: Any) -> Iterator[tuple[str, str, dict[Any, tuple[str, ...]]]]:
    """The fields of one table that a selector of its ``VARIANTS`` (or ``TABLE_VARIANTS``)
    governs and its chosen value does not read: ``(field, selector, the selector's
    variants)`` for each, dotted inside the table, in the order the selectors and their
    variants name them."""
    for selector, variants in _variants(obj).items():
        reads = variants[_attribute(obj, selector)]
        governed = dict.fromkeys(name for fields in variants.values() for name in fields)
        for name in governed:
            if name not in reads:
                yield name, selector, variants


def _variants(obj: Any) -> dict[str, dict[Any, tuple[str, ...]]]:
    """A table's ``VARIANTS`` and its ``TABLE_VARIANTS``: a selector (dotted, inside the
    table) that decides whether whole tables of it are read, each such table given as the
    dotted keys of its fields (``initial.state = 'rest'`` reads no ``preload.tilt``)."""
    out = dict(getattr(obj, "VARIANTS", {}))
    for selector, variants in getattr(obj, "TABLE_VARIANTS", {}).items():
        out[selector] = {value: tuple(f"{table}.{f.name}" for table in tables
                                      for f in dataclasses.fields(getattr(obj, table)))
                         for value, tables in variants.items()}
    return out


def _attribute(obj: Any, dotted: str) -> Any:
    """``obj.a.b`` for ``dotted`` = ``"a.b"``."""
    for name in dotted.split("."):
        obj = getattr(obj, name)
    return obj


def _replacing_together(obj: Any, layer: Layer) -> tuple[str, str] | None:
    """``(key, problem)`` for the first pair of :func:`replacements` given both in one
    layer (one file, or both as overrides): the field would be read and the other
    ignored."""
    for table, name, other, key, other_key in replacements(obj):
        value = getattr(table, name)
        if value is not None and layer(key) == layer(other_key) < math.inf:
            return other_key, (f"{toml_text(getattr(table, other))} has no effect with "
                               f"{key} = {toml_text(value)} given with it, which replaces "
                               f"it; allowed: one of {other_key} and {key}")
    return None


def _aliased(obj: Any, layer: Layer) -> tuple[str, str] | None:
    """The first function of time that the run's steps sample too seldom to see, and why:
    ``(key, problem)``, the key given last of the function's and ``time.step`` (a
    :class:`~rocking_contact.config.Conflict`'s rule). A table that declares
    ``aliasing(key, step)`` (a time function: a sine of half a period a step or more)
    says it; the step is ``time.step``, every kind's longest (a block's windows and
    refinement take shorter ones, a rigid block's history rows are that far apart). A
    section set as a dict on a loaded case (``case.time = {...}``) is read as such."""
    time = obj.time
    step = time.get("step") if isinstance(time, Mapping) else time.step
    if not isinstance(step, float | int):
        return None  # a step of another type: the schema refuses it
    for table, prefix in _tables(obj):
        aliasing = getattr(table, "aliasing", None)
        found = aliasing(prefix, step) if callable(aliasing) else None
        if found:
            key = min(found, key=lambda k: given_layer(layer, k))  # the first on a tie
            return key, found[key]
    return None


def _old_meanings(obj: Any, layer: Layer,
                  given_with: Callable[[str, str], tuple[Any, str]]
                  ) -> list[tuple[Any, str, str, str]]:
    """The keys whose meaning their variant decides, given for another variant than the
    one chosen later: ``(table, field name, the selector's dotted key, why)`` for each.

    A schema class declares ``MEANINGS = {selector: {field: {value: what the field means
    for it}}}``: a time function's ``amplitude`` is a sine's peak and a table's factor on
    its values. Such a field given in an earlier layer (an extended file; the file under
    ``--set``) than a choice of another value of its selector belongs to the old variant,
    as the settings the new one does not read (:func:`_unread_settings`) do: it is left
    behind (:func:`leave_behind` sets the default), not read with its new meaning (a sine's
    peak of 6 m/s^2 scaled a record by 6). ``given_with(selector_key, key)`` is the
    selector's value (``dataclasses.MISSING`` when not given) where ``key`` was given,
    and the name of that place.
    """
    found = []
    for table, prefix in _tables(obj):
        defaults = _defaults(table)
        for selector, fields in getattr(table, "MEANINGS", {}).items():
            chosen, chosen_key = getattr(table, selector), dotted_key(prefix, selector)
            for name, meanings in fields.items():
                key, value = dotted_key(prefix, name), getattr(table, name)
                if (chosen not in meanings or value == defaults[name]
                        or not layer(chosen_key) < layer(key) < math.inf):
                    continue  # not read, its default, or given with the variant (or later)
                then, where = given_with(chosen_key, key)
                then = defaults[selector] if then is dataclasses.MISSING else then
                if then == chosen:
                    continue
                found.append((table, name, chosen_key, (
                    f"{toml_text(chosen)} reads {name} as {meanings[chosen]}, and the "
                    f"{name} = {toml_text(value)} of {where} was given for {selector} "
                    f"{toml_text(then)}"
                    + (f", as {meanings[then]}" if then in meanings else "")
                    + f"; allowed: set {key} with the new {selector}")))
    return found


def _replaced(obj: Any, layer: Layer) -> list[tuple[Any, str]]:
    """The keys of :func:`replacements` given in an earlier layer than the other of
    their pair, ``(table, field)`` for each: left behind, as a variant's settings are
    (:func:`_old_meanings`): ``--set preload.tilt=0.3`` on a file that gives
    ``preload.angle`` releases the block from the tilt, and a child's ``angle`` replaces
    its parent's ``tilt``. Pairs given in one layer are :func:`_replacing_together`'s."""
    found = []
    for table, name, other, key, other_key in replacements(obj):
        if getattr(table, name) is None or layer(other_key) == math.inf:
            continue  # the other is read, or the field is and the other is not given
        if layer(key) < layer(other_key):
            found.append((table, other))
        elif layer(other_key) < layer(key):
            found.append((table, name))
    return found


def _tables(obj: Any, prefix: str = "") -> Iterator[tuple[Any, str]]:
    """``obj`` and every table it holds, depth first, each with its dotted key ("" for
    ``obj``); the items of lists of tables are not walked."""
    yield obj, prefix
    for f in dataclasses.fields(obj):
        child = getattr(obj, f.name)
        if dataclasses.is_dataclass(child) and not isinstance(child, type):
            yield from _tables(child, dotted_key(prefix, f.name))


def _defaults(table: Any) -> dict[str, Any]:
    """Each field of a schema table with its default value (MISSING for a required one)."""
    return {f.name: f.default if f.default_factory is dataclasses.MISSING
            else f.default_factory() for f in dataclasses.fields(table)}
