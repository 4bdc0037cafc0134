"""The case kinds: where the schema and the runner of each ``case.kind`` are
(:data:`KINDS`), and the checked kind of parsed case data.

The registry names its modules rather than importing them: loading or checking a case
imports its kind's schema (:func:`kind_schema`) and what the schema checks with, never a
runner, which is imported above the configuration (``rocking_contact.api.kind_runner``).
A discrete case is checked on its assembled model (its history columns, the central
differences' step limit), so loading one imports ``discrete.system`` and ``discrete.shock``
with numba (about 0.25 s, no kernel compiled); a block case imports no DOLFINx.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from rocking_contact.config.schema import CaseError, short_text


@dataclasses.dataclass(frozen=True)
class Kind:
    """A case kind: where its schema and its runner are (imported when a case of the kind
    is loaded, run: :func:`kind_schema` here, ``rocking_contact.api.kind_runner`` above
    the kinds' modules)."""

    #: its schema, ``module:Class`` (light: no DOLFINx; loading and checking a case never
    #: imports a solver)
    schema: str
    #: the module that runs it, a ``rocking_contact.api.KindRunner``
    runner: str
    #: whether the runner writes into the results directory as it runs (the history
    #: streamed row by row, the fields): a ``rocking_contact.api.StreamingRunner``
    streams: bool = False


#: kind -> its :class:`Kind`
KINDS: dict[str, Kind] = {
    "discrete": Kind("rocking_contact.discrete.case:DiscreteCase",
                     "rocking_contact.discrete.runner"),
    "rigid": Kind("rocking_contact.analytic.rigid_case:RigidCase",
                  "rocking_contact.analytic.rigid_runner"),
    "block": Kind("rocking_contact.fem.case:BlockCase", "rocking_contact.fem.runner",
                  streams=True),
}


def _check_kind(kind: Any, file: str) -> Kind:
    if not isinstance(kind, str) or kind not in KINDS:
        raise CaseError(file, "case.kind", f"got {short_text(kind)}, allowed: {', '.join(KINDS)}")
    return KINDS[kind]


def case_kind(data: Mapping[str, Any], file: str) -> str:
    """The checked ``case.kind`` of parsed case data (one of :data:`KINDS`)."""
    info = data.get("case")
    if info is not None and not isinstance(info, Mapping):  # ``case = 3``: no [case] table
        raise CaseError(file, "case", f"got {short_text(info)}, allowed: a table [case] "
                                      f"with kind = one of {', '.join(KINDS)}")
    if not isinstance(info, Mapping) or "kind" not in info:
        raise CaseError(file, "case.kind", f"missing (allowed: {', '.join(KINDS)})")
    _check_kind(info["kind"], file)
    kind: str = info["kind"]
    return kind


def kind_schema(kind: str, file: str = "") -> type[Any]:
    """The schema (case dataclass) of a case kind."""
    from rocking_contact.lazy import imported

    schema: type[Any] = imported(_check_kind(kind, file).schema)
    return schema
