"""Reference values of a run's ``checks`` turned into markers on its time-history plots.

A reference knows nothing about plots; where it goes on one follows from its quantity:

- a *pair* of quantities that locate one event: ``collision.<k>.time`` with
  ``collision.<k>.kinetic_energy`` (the kinetic-energy maximum before impact k, SDNV105;
  also with one prefix, ``recalage.collision.<k>.time``, when a run computes several
  solutions each checked against its own reference: Figure 6-a shows them all) and
  ``impact.<shock>.<k>.t_max`` with ``impact.<shock>.<k>.max_force`` (discrete shocks) give
  a point on the kinetic-energy or the ``FN_<shock>`` curve. A source that gives only one
  of the two is drawn with what it gives and nothing of ours: an instant alone (LMGC90's
  t5 of SDNV105, without E5) a vertical line, a value alone (Code_Aster's SDND101 impact
  forces, without their instants) a horizontal segment over our event (the impact's
  ``start`` to ``end``; the whole axis when the run records no span). A point at our own
  value would show LMGC90 "giving" the 1.06 J that A computes;
- a ``[[quantity]]`` of the case (``parameters["quantity"]``) says its column and how it is
  measured: ``at`` gives a point, ``max``/``min``/``final`` a horizontal segment over its
  window, ``argmax``/``argmin`` a vertical line at the reference instant, ``crossing`` a
  point at the reference instant on the level. ``integral``
  values are not on a curve and are left to the report's table.

Sources are grouped into families by how their text starts ("analytic rigid", "rigid",
"recalage", "LMGC90", "Code_Aster", "analytic"); a family fixes the marker's look and the
pairing falls back on it when the two halves of a pair quote different source texts. A
marker's label is its source up to the first colon outside parentheses, without its
parenthesised qualifiers: "analytic: Kc v0 / wc" and "analytic: pi / wc" are one source,
"analytic", whose formula differs per quantity; "recalage (manual: restitution 0.79)" and
"recalage (SDNV105 manual)" are one source, "recalage". A "band" source is a pass band
(its value the centre, its tolerance the half-width), not a published value: drawn as a
translucent box, [t - tol, t + tol] x [E - tol, E + tol] of a collision (a band on the
instant alone spans the axis' height, on the value alone the whole time axis).

A marker is ``graded`` when its check has a pass mark (``passed`` is not None), for
information when it has none (``graded`` False), and None when the caller did not say
(markers made by hand): the plots draw graded references heavier than information ones.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeGuard

from rocking_contact.viz.changes import changed_keys
from rocking_contact.viz.channels import kinetic_energy_column

#: source families, most specific first (matched on the start of the source, any case)
FAMILIES: tuple[str, ...] = (
    "analytic rigid", "rigid", "recalage", "LMGC90", "Code_Aster", "analytic", "band")
#: families that are pass marks rather than values: drawn as boxes, not points
BANDS = frozenset({"band"})
#: legend label of a pass band (its source text says how it was made, in the report)
BAND_LABEL = "pass band"
OTHER = "other"

#: pattern of an event quantity -> (time field, value field)
_EVENTS = {
    "collision": (re.compile(r"^((?:[A-Za-z_]\w*\.)?collision\.\d+)\.(time|kinetic_energy)$"),
                  ("time", "kinetic_energy")),
    "impact": (re.compile(r"^(impact\.([^.]+)\.\d+)\.(t_max|max_force)$"),
               ("t_max", "max_force")),
}


def source_family(source: str) -> str:
    """The family of a reference source (``"Code_Aster SDNV105 A"`` -> ``"Code_Aster"``)."""
    text = source.strip().lower().replace("-", "_")
    for family in FAMILIES:
        if text.startswith(family.lower().replace("-", "_")):
            return family
    return OTHER


@dataclass(frozen=True)
class Marker:
    """One reference drawn on the plot of ``column``.

    ``shape`` is ``point`` (at ``time``, ``value``), ``hline`` (``value`` over ``window``),
    ``vline`` (at ``time``) or ``box`` (``window`` x ``span``, a pass band; either None:
    the whole axis). ``graded``: whether its check has a pass mark (None: not said).
    """

    column: str
    shape: Literal["point", "hline", "vline", "box"]
    family: str
    label: str
    time: float | None = None
    value: float | None = None
    window: tuple[float, float] | None = None
    span: tuple[float, float] | None = None
    graded: bool | None = None
    #: ``max`` / ``min`` for a quantity's extremum (its segment may be drawn at ours)
    op: str | None = None
    #: text drawn at the marker's right end (the column a short segment belongs to)
    tag: str | None = None
    #: the windows a short segment's quantities are measured over, as text
    #: (``(0.01, 0.05)``): named when segments of several windows share a place
    over: tuple[str, ...] = ()
    #: whether the samples on the window's ends count (``closed``) or not (``open``), as
    #: the check measured the quantity (:func:`rocking_contact.post.references.in_window`)
    bounds: str = "closed"
    #: whether the check passed (None: information, or not said)
    passed: bool | None = None


def _finite(x: Any) -> TypeGuard[float]:
    return isinstance(x, int | float) and math.isfinite(x)


def source_label(source: str) -> str:
    """A source's legend label: its text up to the first colon outside parentheses, with
    its parenthesised qualifiers dropped (``recalage (manual: 0.79): x`` -> ``recalage``)."""
    depth, head = 0, []
    for ch in source:
        if ch == ":" and depth == 0:
            break
        depth += (ch == "(") - (ch == ")")
        head.append(ch)
    label = re.sub(r"\s*\([^()]*\)", "", "".join(head)).strip()
    return label or source_family(source)


def event_markers(checks: Sequence[Mapping[str, Any]], quantities: Mapping[str, Any],
                  history: Sequence[str], *, own_run: bool = False) -> list[Marker]:
    """Points for the event pairs (collision instant and energy, impact instant and force),
    a vertical line for a source's instant alone and a horizontal segment for its value
    alone (see the module docstring). With ``own_run`` (the figures of the run the checks
    grade) each marker says whether it is graded and pass bands are boxes; without (a
    figure of several runs, whose grades and bands differ from run to run) neither."""
    # halves[(event, source)] = {field: (value, source, half-width, graded)}
    halves: dict[tuple[str, str], dict[str, tuple[float, str, float, bool]]] = {}
    columns: dict[str, str | None] = {}
    kinds: dict[str, str] = {}
    for check in checks:
        if not own_run and source_family(check["source"]) in BANDS:
            continue
        for kind, (pattern, _) in _EVENTS.items():
            m = pattern.match(check["quantity"])
            if m is None or not _finite(check.get("reference")):
                continue
            event, field = m.group(1), m.groups()[-1]
            kinds[event] = kind
            columns[event] = (kinetic_energy_column(history) if kind == "collision"
                              else f"FN_{m.group(2)}")
            half = check.get("abs_tolerance")
            halves.setdefault((event, check["source"]), {})[field] = (
                float(check["reference"]), check["source"],
                float(half) if _finite(half) else 0.0, check.get("passed") is not None)
    _pair_by_family(halves)
    markers = []
    for (event, _source), fields in halves.items():
        column = columns[event]
        if column is None or column not in history:
            continue
        time_field, value_field = _EVENTS[kinds[event]][1]
        t, v = fields.get(time_field), fields.get(value_field)
        label = _solution_label(
            source_label(next(half[1] for half in (t, v) if half is not None)), event)
        family = source_family(label)
        graded = any(half[3] for half in (t, v) if half is not None) if own_run else None
        if family in BANDS:
            markers.append(Marker(
                column, "box", family, BAND_LABEL, graded=graded,
                window=(t[0] - t[2], t[0] + t[2]) if t else None,
                span=(v[0] - v[2], v[0] + v[2]) if v else None))
        elif t and v:
            markers.append(Marker(column, "point", family, label, time=t[0], value=v[0],
                                  graded=graded))
        elif t:
            markers.append(Marker(column, "vline", family, label, time=t[0], graded=graded))
        elif v:
            markers.append(Marker(column, "hline", family, label, value=v[0],
                                  window=_event_span(quantities, event), graded=graded))
    return markers


def _solution_label(label: str, event: str) -> str:
    """``label`` with the solution an event's prefix names, unless it says it already:
    SDNV105's rigid run checks its linearised and nonlinear equations' collisions against
    one source, "analytic rigid, integrated", and the two drew one legend label
    (``linearised.collision.1`` -> "analytic rigid, integrated, linearised";
    ``closed_form.collision.1`` of "analytic rigid, closed form" keeps its label)."""
    prefix = event.rpartition(".collision.")[0].replace("_", " ")
    return label if not prefix or prefix.lower() in label.lower() else f"{label}, {prefix}"


def _event_span(quantities: Mapping[str, Any], event: str) -> tuple[float, float] | None:
    """Our ``<event>.start`` to ``<event>.end`` (s), None when the run records no span
    (a collision is an instant)."""
    start, end = quantities.get(f"{event}.start"), quantities.get(f"{event}.end")
    return (float(start), float(end)) if _finite(start) and _finite(end) else None


def _same_label(a: str, b: str) -> bool:
    return source_label(a) == source_label(b)


def _same_family(a: str, b: str) -> bool:
    return source_family(a) == source_family(b)


def _pair_by_family(halves: dict[tuple[str, str], dict[str, tuple[float, str, float, bool]]]
                    ) -> None:
    """Merge lone halves of one event whose sources differ in their texts: first those
    whose short labels agree (:func:`source_label`: SDNV105 A's "analytic rigid, closed
    form (...)" instant with its "analytic rigid, closed form (...)" energy), then, where
    a half has one partner of its family alone, that one. A family with several sources
    (the closed form and the integration) is not paired in the order met, which would join
    A's closed-form instant to the integrated energy."""
    for same in (_same_label, _same_family):
        lone = [key for key, fields in halves.items() if len(fields) == 1]
        for key in lone:
            if key not in halves or len(halves[key]) != 1:
                continue
            event, source = key
            partners = [other for other in lone
                        if other != key and other in halves and other[0] == event
                        and len(halves[other]) == 1 and same(other[1], source)
                        and halves[other].keys() != halves[key].keys()]
            if len(partners) == 1:
                halves[key].update(halves.pop(partners[0]))


def quantity_markers(checks: Sequence[Mapping[str, Any]],
                     specs: Sequence[Mapping[str, Any]],
                     history: Sequence[str]) -> list[Marker]:
    """Markers for references on the case's own ``[[quantity]]`` definitions."""
    by_name = {s["name"]: s for s in specs}
    markers = []
    for check in checks:
        spec = by_name.get(check["quantity"])
        ref = check.get("reference")
        if (spec is None or spec.get("column") not in history or not _finite(ref)
                or source_family(check["source"]) in BANDS):
            continue
        family, label = source_family(check["source"]), source_label(check["source"])
        window = tuple(spec["window"]) if spec.get("window") else None
        op, graded = spec["op"], check.get("passed") is not None
        if op == "at":
            markers.append(Marker(spec["column"], "point", family, label,
                                  time=spec["time"], value=ref, graded=graded))
        elif op in ("max", "min", "final"):
            markers.append(Marker(spec["column"], "hline", family, label, value=ref,
                                  window=window, graded=graded,
                                  op=op if op != "final" else None,
                                  bounds=spec.get("bounds") or "closed",
                                  passed=check.get("passed")))
        elif op in ("argmax", "argmin"):
            markers.append(Marker(spec["column"], "vline", family, label, time=ref,
                                  graded=graded))
        elif op == "crossing":
            markers.append(Marker(spec["column"], "point", family, label, time=ref,
                                  value=spec["level"], graded=graded))
    return markers


def reference_markers(data: Mapping[str, Any], history: Sequence[str]) -> list[Marker]:
    """Every marker a results.json content gives for the columns of ``history``; none for
    a run that changes its case file's physics (:func:`.changes.changed_keys`): its
    references describe another block or load (SDNV105's 7.23 J at 0.0546 s drawn over a
    slender block's 2.78 J at 0.0859 s), they stay in the report's table. Each marker
    says whether its check is graded, and pass bands are boxes (``own_run``)."""
    if changed_keys(data):
        return []
    checks = data.get("checks") or []
    specs = (data.get("parameters") or {}).get("quantity") or []
    quantities = data.get("quantities") or {}
    return (event_markers(checks, quantities, history, own_run=True)
            + quantity_markers(checks, specs, history))
