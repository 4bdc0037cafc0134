"""What a run changes from its case file's physics, as its ``results.json`` says it.

A run that overrides the physics (``--set geometry.half_width=0.1``, a table record in
place of the file's sine) is graded on nothing: its references describe the case file's
block and loads (:func:`rocking_contact.config.changes.physics_changes`). ``run`` says so
in one warning ("... the run changes geometry.half_height, geometry.half_width: the checks
are shown for information, without a pass mark") and on each check it took the pass mark
from ("not graded: the run changes ..."). The plots, the views and the report read it
here, so that such a run is named by what it changes and is not drawn against references
that are not its own; and a run that did not complete by how it ended (:func:`ending`).
Nothing here knows a case.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rocking_contact.config import dig
from rocking_contact.results import STARTED

#: the warning of ``run`` (``rocking_contact.api``) for references of another physics
_WARNING = re.compile(r"(?:the run changes|and it changes) (.+?): the checks are shown for "
                      r"information")
#: the note ``run`` puts on a check whose pass mark it took away for that reason
_NOTE = "not graded: the run changes "


def changed_keys(data: Mapping[str, Any]) -> list[str]:
    """The dotted case-file keys of the physics a run changes (``geometry.half_width``):
    ``extra.changes``, or for results written before it was recorded (2026-11-22) its
    warnings or its checks' notes; empty for a run of its case file as written."""
    recorded = (data.get("extra") or {}).get("changes")
    if isinstance(recorded, list):
        return [str(k) for k in recorded]
    for warning in data.get("warnings") or []:
        m = _WARNING.search(str(warning))
        if m:
            return [k.strip() for k in m.group(1).split(",") if k.strip()]
    for check in data.get("checks") or []:
        note = str(check.get("note") or "")
        if note.startswith(_NOTE):
            return [k.strip() for k in note[len(_NOTE):].split(",") if k.strip()]
    return []


def _parameter(parameters: Any, key: str) -> Any:
    """The value of a dotted key in a run's parameters; None if they do not hold it."""
    value = dig(parameters, key)
    return None if value is dataclasses.MISSING else value


def _short(value: Any) -> str:
    """A value as a title shows it: numbers with 6 digits, a file by its name; empty for a
    key the parameters do not hold."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, str) and ("/" in value or "\\" in value):
        return Path(value).name
    return str(value)


def changed_values(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(dotted key, its value in the run as text) for each change (:func:`changed_keys`)."""
    parameters = data.get("parameters") or {}
    return [(k, _short(_parameter(parameters, k))) for k in changed_keys(data)]


def changes_text(data: Mapping[str, Any]) -> str:
    """The changes with their values in the run: ``geometry.half_height = 0.5,
    geometry.half_width = 0.1``; empty when the run changes nothing."""
    return ", ".join(f"{k} = {v}" if v else k for k, v in changed_values(data))


#: override keys (and key prefixes, ending in ``.``) that change nothing a figure shows:
#: the case's name and words, which field files are written and when
UNSEEN_OVERRIDES = ("case.", "output.xdmf", "output.fields_every", "output.fields_interval")


def _unseen(key: str) -> bool:
    return any(key.startswith(u) if u.endswith(".") else key == u for u in UNSEEN_OVERRIDES)


def overrides(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(dotted key, value as given) of each override the run was given, in order
    (``provenance.overrides``: the ``--set`` texts, or the mapping given to ``rc.run``);
    empty for a run of its case file as written or a result without provenance."""
    given = (data.get("provenance") or {}).get("overrides") or []
    if isinstance(given, Mapping):
        return [(str(k), _short(v)) for k, v in given.items()]
    pairs = [str(text).partition("=") for text in given]
    return [(k.strip(), v.strip()) for k, sep, v in pairs if sep and k.strip()]


def variant_values(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(dotted key, its value in the run as text) of what makes the run another than its
    case file's: the physics it changes (:func:`changed_values`), then its other overrides
    (:func:`overrides`) that change what the figures show, its numerics too
    (``time.step``, ``solver.scheme``, ``time.end``; not :data:`UNSEEN_OVERRIDES`), each
    key once. A value is the run's parameter, else the override as given."""
    out = dict(changed_values(data))
    parameters = data.get("parameters") or {}
    for key, given in overrides(data):
        if key not in out and not _unseen(key):
            out[key] = _short(_parameter(parameters, key)) or given
    return list(out.items())


def variant_text(data: Mapping[str, Any]) -> str:
    """:func:`variant_values` as ``time.step = 0.0002, solver.scheme = newmark``; empty
    for a run of its case file as written."""
    return ", ".join(f"{k} = {v}" if v else k for k, v in variant_values(data))


def run_name(data: Mapping[str, Any]) -> str:
    """The case name, and what the run changes from its file, its physics and its numerics
    (:func:`variant_text`: ``sdnv105d with geometry.half_width = 0.1``, ``sdnd101a with
    time.step = 0.0002``): what titles call the run, so that a variant's figures are not
    taken for the shipped run's."""
    changes = variant_text(data)
    return f"{data['case']} with {changes}" if changes else str(data["case"])


#: the title's mark of a run whose ``results.json`` still says what it said as the run
#: started (:data:`rocking_contact.results.STARTED`): under way, or killed
UNFINISHED = " [still running, or killed]"


def ending(data: Mapping[str, Any]) -> str:
    """`` [<how the run ended>]`` for a run that did not complete (its figures and movie
    stop there): its status up to the details, ``[failed]``, ``[interrupted at t =
    0.0861 s]``, or :data:`UNFINISHED` (its status says ``started``); empty for a
    completed run."""
    status = str(data.get("status", "completed"))
    if status == "completed":
        return ""
    head = status.split(":")[0]
    return UNFINISHED if head == STARTED.split(":")[0] else f" [{head}]"
