"""The names a case file refers to: history columns (``[[quantity]] column``) and computed
quantities (``[[reference]] quantity``).

A misspelt name is bad input, refused when the case is loaded, wherever the case file says
which names its runs compute: a kind's schema calls :func:`unknown_name` from its
``validate`` with the history columns and the quantity name patterns of the case (the
discrete kind: its columns follow from the model, its quantities are the
``[[quantity]]`` names and its impacts' ``impact.<shock>.<k>.<field>``). Where the names are
known only later, a block's columns once its model is built (its runner refuses a
misspelt one with :func:`unknown_name` before the first step), the block's and the rigid
block's quantities once it has run (they depend on its events), :func:`uncomputed` says
after the run which references and quantities found no value, with the names that come
closest.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: how many close names a message offers
CLOSE = 3


@dataclass(frozen=True)
class NamePattern:
    """A family of quantity names: ``template`` with ``<placeholder>`` parts, each taking
    one of ``values[placeholder]`` (None: any positive integer, an impact's number)."""

    template: str
    values: Mapping[str, Sequence[str] | None]

    def _parts(self) -> list[str]:
        return re.split(r"(<\w+>)", self.template)

    def matches(self, name: str) -> bool:
        """Whether ``name`` is one of the family."""
        regex = "".join(
            ("[1-9][0-9]*" if self.values[p[1:-1]] is None else
             "(?:" + "|".join(map(re.escape, self.values[p[1:-1]] or ())) + ")")
            if p.startswith("<") else re.escape(p) for p in self._parts())
        return re.fullmatch(regex, name) is not None

    def instances(self, like: str) -> list[str]:
        """The names of the family, an integer placeholder taking the integers between the
        dots of ``like`` (or 1): the candidates a misspelt ``like`` is compared with."""
        numbers = re.findall(r"(?<![^.])\d+(?![^.])", like) or ["1"]
        names = [""]
        for part in self._parts():
            if part.startswith("<"):
                values = self.values[part[1:-1]]
                names = [n + v for n in names for v in (numbers if values is None else values)]
            else:
                names = [n + part for n in names]
        return names

    def described(self) -> str:
        """``impact.<shock>.<k>.<field> (shock NO1; field start, end, ...)``."""
        said = [f"{p} {', '.join(v)}" for p, v in self.values.items() if v is not None]
        return self.template + (f" ({'; '.join(said)})" if said else "")


def close_names(name: str, candidates: Iterable[str]) -> list[str]:
    """The :data:`CLOSE` names of ``candidates`` nearest ``name``, nearest first; none
    near as typed, those nearest it in lower case (``SDND101A`` as the manuals write it:
    sdnd101a; ``'HHT'``: ``'hht'``)."""
    names = list(dict.fromkeys(candidates))
    return (difflib.get_close_matches(name, names, n=CLOSE)
            or difflib.get_close_matches(name.lower(), names, n=CLOSE))


def close_hint(name: str, candidates: Iterable[str]) -> str:
    """``"; close: a, b"``: the :func:`close_names` of ``name``, to end a message's
    "(allowed: ...)"; "" when none is near."""
    found = close_names(name, candidates)
    return f"; close: {', '.join(found)}" if found else ""


def unknown_name(case: Any, columns: Collection[str] | None,
                 patterns: Sequence[NamePattern] | None) -> str | None:
    """The first name of ``case``'s ``[[quantity]]`` columns and ``[[reference]]``
    quantities that its runs will not compute, as a ``validate`` error (``key: problem``,
    the key relative to the case), or None.

    Args:
        case: the case (its ``quantity`` and ``reference`` lists).
        columns: the history columns of its runs; None: not known before a run.
        patterns: the families of its runs' own quantities (the ``[[quantity]]`` names
            count too); None: not known before a run.

    """
    if columns is not None:
        for i, spec in enumerate(case.quantity):
            if spec.column not in columns:
                return (f"quantity[{i}].column: {spec.column!r} is no history column of "
                        f"this case (allowed: {', '.join(columns)}"
                        f"{close_hint(spec.column, columns)})")
    if patterns is None:
        return None
    own = [q.name for q in case.quantity]
    for i, ref in enumerate(case.reference):
        name = ref.quantity
        if name in own or any(p.matches(name) for p in patterns):
            continue
        allowed = [p.described() for p in patterns]
        allowed.append("a [[quantity]] name" + (f" ({', '.join(own)})" if own else
                                                 " (none here)"))
        candidates = [*own, *(n for p in patterns for n in p.instances(name))]
        return (f"reference[{i}].quantity: {name!r} is no quantity this case computes "
                f"(allowed: {'; or '.join(allowed)}{close_hint(name, candidates)})")
    return None


def uncomputed(case: Any, quantities: Collection[str], history: Collection[str]
               ) -> list[str]:
    """One warning per ``[[quantity]]`` whose column the run's ``history`` has not and
    per ``[[reference]]`` whose quantity is not among the run's ``quantities`` (their
    checks say "not computed"), with the names that come closest: for the kinds whose
    names are known only once they have run (:func:`unknown_name` refuses the others'
    at load)."""
    return [*missing_columns(case, history), *uncomputed_references(case, quantities)]


def uncomputed_references(case: Any, quantities: Collection[str]) -> list[str]:
    """The reference half of :func:`uncomputed`: one warning per quantity name of the
    ``[[reference]]`` entries that is not among the run's ``quantities``, with the names
    that come closest (a name several references give is said once, with all of them).
    The caller leaves out the well-formed names it can say why the run has not computed
    (an impact the run did not have, a collision it did not find: counted among
    ``quantities``)."""
    rows: dict[str, list[int]] = {}
    for i, ref in enumerate(case.reference):
        if ref.quantity not in quantities:
            rows.setdefault(ref.quantity, []).append(i)
    return [f"{_rows(indices)}.quantity: the run computed no quantity {name!r} "
            f"({_checks_say(len(indices))} 'not computed'){close_hint(name, quantities)}"
            for name, indices in rows.items()]


def _rows(indices: Sequence[int]) -> str:
    """``reference[3]``, ``reference[3, 7]``, ``reference[40-45, 52]`` (a run of three
    rows or more as its ends)."""
    runs: list[list[int]] = []
    for i in indices:
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    parts = [f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs]
    return f"reference[{', '.join(parts)}]"


def _checks_say(count: int) -> str:
    return "its check says" if count == 1 else f"their {count} checks say"


def missing_columns(case: Any, history: Collection[str]) -> list[str]:
    """One warning per ``[[quantity]]`` whose column the run's ``history`` has not, with
    the names that come closest. A run has all its columns from its first row, so this
    holds for a stopped or shortened run too (a misspelt column is no later instant)."""
    return [f"quantity[{i}].column: the run's history has no column {spec.column!r}: "
            f"[[quantity]] {spec.name!r} is not computed{close_hint(spec.column, history)}"
            for i, spec in enumerate(case.quantity) if spec.column not in history]
