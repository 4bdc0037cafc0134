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
from rocking_contact.loads import TimeFunction
from rocking_contact.results import STARTED

#: the warning of ``run`` (``rocking_contact.api``) for references of another physics
_WARNING = re.compile(r"(?:the run changes|and it changes) (.+?): the checks are shown for "
                      r"information")
#: the note ``run`` puts on a check whose pass mark it took away for that reason
_NOTE = "not graded: the run changes "


def changed_keys(data: Mapping[str, Any]) -> list[str]:
    """The dotted case-file keys of the physics a run changes (``geometry.half_width``):
    ``extra.changes``, or for older results without it its warnings or its checks'
    notes; empty for a run of its case file as written."""
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


def unread_recorded(data: Mapping[str, Any]) -> list[str]:
    """results.json ``extra.unread``: the dotted keys of ``parameters`` the run's variants
    did not read; none for a run written before they were recorded (or a list of another
    kind, in a file changed by hand)."""
    unread = (data.get("extra") or {}).get("unread")
    return [k for k in unread if isinstance(k, str)] if isinstance(unread, list) else []


def _parameter(parameters: Any, key: str) -> Any:
    """The value of a dotted key in a run's parameters; None if they do not hold it."""
    value = dig(parameters, key)
    return None if value is dataclasses.MISSING else value


#: the keys of a time function as a run's parameters hold it (a table's acceleration, a
#: support's): one changed is named by the whole function (:func:`function_text`)
_FUNCTION_KEYS = frozenset(f.name for f in dataclasses.fields(TimeFunction))
#: the most items of a list a title writes out; a longer one is counted
LIST_ITEMS = 6


def _is_function(value: Any) -> bool:
    """Whether ``value`` is a time function as parameters hold it (every key) or a mapping
    given in Python for one (``{"type": "table", "times": t, "values": v}``): a ``type`` of
    :class:`~rocking_contact.loads.TimeFunction` and others of its keys alone. A
    ``type`` alone, which no run records, is said as the key it is."""
    return (isinstance(value, Mapping) and "type" in value and len(value) > 1
            and value.keys() <= _FUNCTION_KEYS
            and value["type"] in TimeFunction.VARIANTS["type"])


def function_text(function: Mapping[str, Any]) -> str:
    """A time function (m/s^2, as every one is an acceleration) in a few words, by the keys
    its type reads alone (:attr:`TimeFunction.VARIANTS <rocking_contact.loads.
    TimeFunction.VARIANTS>`; a table keeps the frequency of the sine it replaced, a sine the
    path of the record): ``sine of 6 m/s^2 at 2 Hz``, ``table of 151 samples over 0-0.15
    s``, ``record table.csv column ax times 0.5``, ``zero``. No comma: the changes are
    joined by commas."""
    kind = str(function.get("type"))
    amplitude = function.get("amplitude", 1.0)
    if kind == "sine":
        phase = function.get("phase") or 0.0
        return (f"sine of {value_text(amplitude)} m/s^2 at "
                f"{value_text(function.get('frequency'))} Hz"
                + (f" from phase {value_text(phase)} rad" if phase else ""))
    if kind != "table":
        return kind
    scale = "" if amplitude == 1.0 else f" times {value_text(amplitude)}"
    if function.get("path"):
        column = function.get("column")
        return (f"record {value_text(function['path'])}"
                f"{'' if column is None else f' column {column}'}{scale}")
    given = function.get("times")
    times = [] if given is None else list(given)  # a list, or an array given in Python
    if not times:
        return f"table{scale}"
    return (f"table of {len(times)} samples over {value_text(times[0])}-"
            f"{value_text(times[-1])} s{scale}")


def value_text(value: Any) -> str:
    """A value as a title shows it: numbers with 6 digits, a file by its name, a time
    function in words (:func:`function_text`), a list of more than :data:`LIST_ITEMS` items
    by its length (``151 values``); empty for a key the parameters do not hold."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, str) and ("/" in value or "\\" in value):
        return Path(value).name
    if _is_function(value):
        return function_text(value)
    if isinstance(value, list | tuple) and len(value) > LIST_ITEMS:
        return f"{len(value)} values"
    return str(value)


def _function_of(parameters: Any, key: str) -> str | None:
    """The dotted key of the time function that ``key`` names or lies in
    (``loading.table_acceleration_x`` for ``loading.table_acceleration_x.times``); None for
    a key of no time function."""
    parts = key.split(".")
    for n in range(len(parts), 0, -1):
        whole = ".".join(parts[:n])
        if _is_function(_parameter(parameters, whole)):
            return whole
    return None


#: what an empty list means for the keys whose empty list is a setting of its own, as a
#: title says it (``[]`` or, from Python, ``()`` would say nothing)
EMPTY_MEANS = {"collisions.windows": "none (a collision at each landing found)"}


def _value(parameters: Any, key: str) -> tuple[str, str]:
    """(key, its value in the run as text) of one change or override, a key of a time
    function as the whole function (one entry for its type, its samples and its path), an
    empty list of :data:`EMPTY_MEANS` by what it means."""
    whole = _function_of(parameters, key) or key
    return whole, _key_text(whole, _parameter(parameters, whole))


def _key_text(key: str, value: Any) -> str:
    """:func:`value_text` of the value of ``key``, an empty list of :data:`EMPTY_MEANS` by
    what it means."""
    if key in EMPTY_MEANS and isinstance(value, list | tuple) and not value:
        return EMPTY_MEANS[key]
    return value_text(value)


def changed_values(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(dotted key, its value in the run as text) for each change (:func:`changed_keys`),
    each once: the keys of a time function as one, the function in force in words
    (``loading.table_acceleration_x = sine of 6 m/s^2 at 2 Hz``, not its type, amplitude
    and frequency apart, nor a table's samples one by one)."""
    parameters = data.get("parameters") or {}
    return list(dict(_value(parameters, k) for k in changed_keys(data)).items())


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
        return [(str(k), _key_text(str(k), v)) for k, v in given.items()]
    pairs = [str(text).partition("=") for text in given]
    return [(k.strip(), v.strip()) for k, sep, v in pairs if sep and k.strip()]


def variant_values(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(dotted key, its value in the run as text) of what makes the run another than its
    case file's: the physics it changes (:func:`changed_values`), then its other overrides
    (:func:`overrides`) that change what the figures show, its numerics too
    (``time.step``, ``solver.scheme``, ``time.end``; not :data:`UNSEEN_OVERRIDES`), each
    key once (an override of a time function, or of a key of one, is the function's change).
    A value is the run's parameter, else, or for a key the run did not read
    (:func:`unread_recorded`: a rigid twin's ``preload.tilt``), the override as given."""
    out = dict(changed_values(data))
    parameters = data.get("parameters") or {}
    unread = unread_recorded(data)
    for key, given in overrides(data):
        key, value = _value(parameters, key)
        if key not in out and not _unseen(key):
            out[key] = given if key in unread else value or given
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
