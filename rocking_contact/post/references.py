"""Scalar quantities from time histories, and their comparison with references."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, TypeGuard

import numpy as np

from rocking_contact.config import QuantitySpec, Reference
from rocking_contact.post.impacts import (
    FIELDS,
    impacts_not_had,
    quantity_names,
    statistic_names,
)


def _round_off(window: tuple[float, float]) -> float:
    """How far from a window bound (s) a sample is still on it."""
    return 1e-9 * max(1.0, abs(window[1]))


def in_window(t: np.ndarray, window: tuple[float, float] | None, bounds: str = "closed"
              ) -> np.ndarray:
    """Which instants ``t`` (s) lie in ``window`` (s; all of them if None), ``bounds``
    ``"closed"`` or ``"open"``."""
    if window is None:
        return np.ones(t.shape, dtype=bool)
    # A sample sitting on a window bound to round-off is on it: in a closed window, out of
    # an open one.
    eps = _round_off(window)
    if bounds == "open":
        return (t > window[0] + eps) & (t < window[1] - eps)
    return (t >= window[0] - eps) & (t <= window[1] + eps)


def _step_integral(t: np.ndarray, y: np.ndarray, window: tuple[float, float] | None,
                   whole_steps: bool = False) -> float:
    """Integral over ``window`` of ``y`` held constant over each step ``(t[k-1], t[k]]``.

    With ``whole_steps`` the window is first widened to the ends of the steps it overlaps
    (by more than round-off): the impulses of those steps, whatever part of a step the
    window covers (op ``step_impulse``)."""
    a, b = (t[0], t[-1]) if window is None else window
    if whole_steps and window is not None:
        eps = _round_off(window)
        a = t[max(np.searchsorted(t, a + eps, side="right") - 1, 0)]
        b = t[min(np.searchsorted(t, b - eps, side="left"), len(t) - 1)]
    overlap = np.clip(np.minimum(t[1:], b) - np.maximum(t[:-1], a), 0.0, None)
    return float(np.sum(y[1:] * overlap))


def evaluate(spec: QuantitySpec, history: Mapping[str, np.ndarray],
             lifts: Mapping[str, float] | None = None) -> float:
    """Evaluate one ``[[quantity]]`` on the history.

    NaN if its window holds no sample, or ends after the history does: the extremum or
    integral of a part of the window (a shortened, failed or interrupted run) is not the
    window's. A crossing found in the part the run covers is the window's first, though.
    ``lifts``: column -> the least swing a crossing of that column must belong to
    (:func:`swung`; a block's ``THETA`` and its lift angle), so that the elastic ringing
    of a block that never lifted crosses nothing.
    """
    if spec.column not in history:
        raise KeyError(spec.column)
    t, y = np.asarray(history["time"]), np.asarray(history[spec.column])
    if (spec.window is not None and t[-1] < spec.window[1] - _round_off(spec.window)
            and spec.op != "crossing"):
        return math.nan
    if spec.op == "at":
        assert spec.time is not None
        if not t[0] - 1e-12 <= spec.time <= t[-1] + 1e-12:
            return math.nan
        return float(np.interp(spec.time, t, y))
    if spec.op == "final":
        return float(y[-1])
    if spec.op in ("step_integral", "step_impulse"):
        return _step_integral(t, y, spec.window, whole_steps=spec.op == "step_impulse")
    mask = in_window(t, spec.window, spec.bounds)
    if not mask.any():
        return math.nan
    tw, yw = t[mask], y[mask]
    if spec.op == "max":
        return float(yw.max())
    if spec.op == "min":
        return float(yw.min())
    if spec.op == "argmax":
        return float(tw[np.argmax(yw)])
    if spec.op == "argmin":
        return float(tw[np.argmin(yw)])
    if spec.op == "integral":
        return float(np.trapezoid(yw, tw))
    if spec.op == "crossing":
        assert spec.level is not None
        lift = (lifts or {}).get(spec.column)
        counted = None if lift is None else swung(y, lift)[mask]
        return _crossing(tw, yw - spec.level, spec.direction or "either", counted)
    raise ValueError(spec.op)


def swung(y: np.ndarray, lift: float) -> np.ndarray:
    """For each sample of ``y`` (a block's base rotation ``THETA``, rad), whether its swing
    (the samples since ``y`` last changed sign, as
    :func:`~rocking_contact.post.collisions.find_landings` counts them) has passed
    ``lift`` (|y| above it) by that sample. SDNV105 D's block on a table shaken at
    4 m/s^2, below its uplift, rings to 2.6e-8 rad, below its lift angle 4.2e-7 rad, and
    changed sign at 0.302 s: no swing of it passes."""
    sign = np.sign(y)
    starts = np.flatnonzero(sign[:-1] * sign[1:] < 0) + 1
    swing = np.zeros(len(y), dtype=int)
    swing[starts] = 1
    swing = np.cumsum(swing)  # the swing each sample belongs to
    beyond = np.cumsum(np.abs(y) > lift)
    first = np.concatenate([[0], starts])[swing]  # the swing's first sample
    before = np.where(first > 0, beyond[first - 1], 0)
    return np.asarray(beyond - before > 0)


def _crossing(t: np.ndarray, d: np.ndarray, direction: str,
              counted: np.ndarray | None = None) -> float:
    """First instant at which ``d`` reaches 0 (linear between samples) from below
    (``"up"``), from above (``"down"``) or ``"either"`` way; NaN if never. A first sample on
    0 is the instant only either way: from which side it came is not known. ``counted``
    (one per sample): a crossing counts only where the sample before or after it is
    (:func:`swung`: the swing it ends, or the one it belongs to, passed the lift)."""
    if direction == "either" and d[0] == 0.0 and (counted is None or counted[0]):
        return float(t[0])
    if direction == "up":
        hit = (d[:-1] < 0.0) & (d[1:] >= 0.0)
    elif direction == "down":
        hit = (d[:-1] > 0.0) & (d[1:] <= 0.0)
    else:
        hit = np.sign(d[1:]) != np.sign(d[:-1])
    if counted is not None:
        hit &= counted[:-1] | counted[1:]
    reached = np.flatnonzero(hit)
    if not len(reached):
        return math.nan
    k = int(reached[0])
    return float(t[k] + (t[k + 1] - t[k]) * d[k] / (d[k] - d[k + 1]))


def evaluate_all(
    specs: Iterable[QuantitySpec], history: Mapping[str, np.ndarray],
    lifts: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """Evaluate every ``[[quantity]]`` (``lifts`` as for :func:`evaluate`); a missing
    column yields NaN (reported by the check)."""
    out = {}
    for spec in specs:
        try:
            out[spec.name] = evaluate(spec, history, lifts)
        except KeyError:
            out[spec.name] = math.nan
    return out


def compare(
    references: Iterable[Reference], quantities: Mapping[str, float], *, step: float | None
) -> list[dict[str, Any]]:
    """One check per reference: the value, its errors and whether it passes.

    ``passed`` is None for references without a tolerance (shown for information).
    """
    checks = []
    for ref in references:
        value = quantities.get(ref.quantity, math.nan)
        abs_err = abs(value - ref.value)
        rel_err = abs_err / abs(ref.value) if ref.value != 0 else math.inf
        other_step = not ref.holds_at(step)
        if ref.tolerance is None or other_step:
            passed, abs_tol = None, None
        else:
            if ref.tolerance_kind == "relative":
                abs_tol = ref.tolerance * abs(ref.value)
            elif ref.tolerance_kind == "steps":
                abs_tol = ref.tolerance * (step if step is not None else math.nan)
            else:
                abs_tol = ref.tolerance
            passed = bool(math.isfinite(value) and abs_err <= abs_tol)
        checks.append({
            "quantity": ref.quantity,
            "reference": ref.value,
            "value": value,
            "abs_error": abs_err,
            "rel_error": rel_err,
            "tolerance": ref.tolerance,
            "tolerance_kind": ref.tolerance_kind,
            "abs_tolerance": abs_tol,
            "source": ref.source,
            "passed": passed,
            "note": (f"not graded: the value holds for a step of {ref.step:g} s, the run's "
                     f"is {step:g} s" if other_step
                     else ref.note if math.isfinite(value) else "not computed"),
        })
    return checks


def whole_run_quantities(specs: Iterable[QuantitySpec], quantities: Iterable[str],
                         impacts: Iterable[Mapping[str, Any]] = ()) -> set[str]:
    """The names among ``quantities`` that measure the whole run, not a window of it: a
    ``[[quantity]]`` with neither window nor instant (but a crossing: the first one the
    run found is the first), a shock's impact statistics (``impact.<shock>.count`` ...),
    the energy balance's figures (``energy.*``), and the fields of an impact still open
    when the run ends but its ``start`` and approach ``speed``."""
    names = {q.name for q in specs
             if q.window is None and q.time is None and q.op != "crossing"}
    impacts = list(impacts)
    # a shock's statistics, of one that had no impact yet too (a run stopped at t = 0)
    quantities = list(quantities)
    names |= statistic_names(quantities) | {n for n in quantities if n.startswith("energy.")}
    return names | quantity_names([i for i in impacts if not i.get("complete", True)],
                                  [f for f in FIELDS if f not in ("start", "speed")], ())


def mark_unmeasured(checks: list[dict[str, Any]],
                    impacts: Iterable[Mapping[str, Any]]) -> None:
    """Say why the checks of an unresolved impact's unmeasured fields have no value
    (``duration``, ``max_force``, ``t_max``; ``impulse`` on thinned rows), and of its
    shock's statistics of the maxima when none was measured, instead of "not computed";
    and, for the fields of an impact the run did not have (:func:`impacts_not_had`: a case
    file whose own ``time.end`` comes before it), how many it had ("not computed: the run
    had 1 impact of NO1")."""
    impacts = list(impacts)
    names = quantity_names(i for i in impacts if not i.get("resolved", True))
    not_had = impacts_not_had((c["quantity"] for c in checks), impacts)
    for check in checks:
        if check["note"] != "not computed":
            continue
        if check["quantity"] in names:
            check["note"] = ("not measured: the impact is unresolved (its contact is shorter "
                             "than the spacing of the samples, docs/discrete.md)")
        elif check["quantity"] in not_had:
            shock, _, count = not_had[check["quantity"]]
            check["note"] = f"not computed: the run had {_impacts(count)} of {shock}"


def _impacts(count: int) -> str:
    return f"{count} impact{'' if count == 1 else 's'}"


def impacts_not_had_warnings(names: Iterable[str], impacts: Iterable[Mapping[str, Any]]
                             ) -> dict[str, str]:
    """Quantity name -> the warning that says why it has no value, for the names among
    ``names`` of a field of an impact the run did not have (:func:`impacts_not_had`), one
    line per shock: "the run had 1 impact of shock NO1 (references to impact 2 have no
    value)". Such a name is well formed: the run warns of each line once, and offers no
    close names for it as for a misspelt one (:func:`rocking_contact.config.uncomputed`)."""
    not_had = impacts_not_had(names, impacts)
    beyond: dict[tuple[str, int], set[int]] = {}
    for shock, k, count in not_had.values():
        beyond.setdefault((shock, count), set()).add(k)
    lines = {}
    for (shock, count), ks in beyond.items():
        which = ", ".join(map(str, sorted(ks)))
        lines[shock] = (f"the run had {_impacts(count)} of shock {shock} (references to "
                        f"impact{'s' if len(ks) > 1 else ''} {which} have no value)")
    return {name: lines[shock] for name, (shock, _, _) in not_had.items()}


def run_end_text(last_time: float, *, stopped: bool = False) -> str:
    """``the run ends at t = 0.2 s`` (a run that completed at ``last_time``, s, short of
    its case file's end), or ``the run stopped at t = 0.05 s`` (``stopped``: interrupted,
    failed, overturned: :func:`rocking_contact.results.stopped`): what the checks it did
    not reach say, in ``results.json`` as in the printed summary."""
    return f"the run {'stopped' if stopped else 'ends'} at t = {last_time:.6g} s"


def mark_not_reached(checks: list[dict[str, Any]], last_time: float,
                     end: float | None, whole_run: Collection[str] = (), *,
                     stopped: bool = False) -> None:
    """Grade a run that does not end at the case file's end ``end`` (s), at ``last_time``
    (s), on what it covers: the ``whole_run`` quantities (:func:`whole_run_quantities`)
    measure another span than the file's, and nothing else changes but what a shorter run
    did not reach.

    A run that stops before ``end`` (shortened with ``--set time.end``; or failed or
    interrupted, ``stopped``, whose notes say "the run stopped at": :func:`run_end_text`)
    says "not reached" for the checks without a value and for those of
    ``whole_run``, whose value covers only part of what they measure: their value is
    dropped (a partial count or maximum is not the run's; results.json's ``quantities``
    keep it). They stay misses: the run does not show what they measure. A field of an
    impact that ended before the stop keeps :func:`mark_unmeasured`'s note: the impact was
    unresolved, which a longer run would not change.

    A run that goes past ``end`` does not grade the ``whole_run`` checks (a longer run has
    more impacts and a larger spread of their maxima than the file's): their value, the
    run's own, is shown without a pass mark. The others, measured in windows the file's
    run covered, are graded as usual."""
    if end is None:
        return
    eps = 1e-9 * max(1.0, abs(end))
    if last_time > end + eps:
        for check in checks:
            # a check graded on another step's value already says why it is not graded
            if check["quantity"] in whole_run and not check["note"].startswith("not graded"):
                check["passed"] = None
                # a value missing for a reason of its own ("not measured") keeps it
                why = f"{check['note']}; " if not math.isfinite(check["value"]) else ""
                check["note"] = (f"{why}not graded: the run goes past the case file's end "
                                 f"t = {end:.6g} s, and this measures the whole run")
        return
    if last_time >= end - eps:
        return
    for check in checks:
        whole = check["quantity"] in whole_run
        partial = whole and math.isfinite(check["value"])
        if partial:
            check.update(value=math.nan, abs_error=math.nan, rel_error=math.nan)
            if check["passed"] is not None:
                check["passed"] = False
        if not math.isfinite(check["value"]) and (
                whole or not check["note"].startswith("not measured")):
            check["note"] = (f"not reached: {run_end_text(last_time, stopped=stopped)}"
                             + (", and this measures the whole run" if partial else ""))


def window_ends(quantities: Sequence[QuantitySpec],
                collision_windows: Sequence[tuple[float, float]] = ()) -> dict[str, float]:
    """Quantity name -> the instant (s) a run must reach to measure it: the end of a
    ``[[quantity]]``'s window (its ``time`` for op ``at``), and of collision k's window
    for ``collision.<k>.time`` and ``collision.<k>.kinetic_energy``."""
    ends = {q.name: q.window[1] if q.window is not None else q.time for q in quantities
            if q.window is not None or q.time is not None}
    for k, (_, end) in enumerate(collision_windows, start=1):
        ends[f"collision.{k}.time"] = ends[f"collision.{k}.kinetic_energy"] = end
    return {name: float(end) for name, end in ends.items() if end is not None}


def mark_windows_past_end(checks: list[dict[str, Any]], ends: Mapping[str, float],
                          last_time: float) -> None:
    """Say why a check has no value when its quantity's window (:func:`window_ends`) ends
    after the run's last instant ``last_time`` (s): a case file whose own ``time.end``
    comes before the windows it inherited would say only "not computed". They stay misses; a
    check :func:`mark_not_reached` marked keeps its note (the run ended early)."""
    for check in checks:
        end = ends.get(check["quantity"])
        if (end is not None and not math.isfinite(check["value"]) and not not_reached(check)
                and last_time < end - 1e-9 * max(1.0, abs(end))):
            check["note"] = (f"not reached: its window ends at t = {end:.6g} s, after the "
                             f"run's end (t = {last_time:.6g} s)")


#: the first word of the note of a check whose quantity the run computed and found none
#: of: a crossing never reached (:func:`rocking_contact.post.grading.mark_no_crossing`)
NONE = "none"


def found_none(check: Mapping[str, Any]) -> bool:
    """Whether a check is one whose crossing the run found none of (:data:`NONE`)."""
    return str(check.get("note") or "").startswith(f"{NONE}:")


def not_reached(check: Mapping[str, Any]) -> bool:
    """Whether a check is one :func:`mark_not_reached` marked."""
    return str(check.get("note") or "").startswith("not reached")


def mark_text(check: Mapping[str, Any], none: str = "info") -> str:
    """The pass mark in words: ``0.001 rel``, ``0.5 abs``, ``1 step``; ``none`` for an
    information row."""
    tol = check["tolerance"]
    if tol is None:
        return none
    word = {"relative": "rel", "absolute": "abs",
            "steps": "step" if tol == 1 else "steps"}[check.get("tolerance_kind", "relative")]
    return f"{tol:g} {word}"


def _finite(x: Any) -> TypeGuard[float]:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def signed_error(check: Mapping[str, Any]) -> tuple[float, str]:
    """A check's error, ours - reference, the way its tolerance measures it, and its word:
    relative to |reference| (``"rel"``) for a relative tolerance and for a reference shown
    for information; in the quantity's unit (``"abs"``) for an absolute one; in time steps
    (``"steps"``) for a tolerance in steps. Signed: positive when ours is above the
    reference. NaN without a value (a run that has none: ``value`` NaN or None).

    A relative error of a reference 0 is none: the absolute error stands for it. A
    tolerance in steps whose step is not known (a check not graded at the run's step,
    without ``abs_tolerance``) gives the relative error."""
    value, reference = check.get("value"), check.get("reference")
    if not _finite(reference):  # a results.json changed by hand: nothing to measure from
        return math.nan, "rel"
    diff = value - reference if _finite(value) else math.nan
    tol = check.get("tolerance")
    kind = check.get("tolerance_kind") if tol is not None else None
    if kind == "absolute" or reference == 0:
        return diff, "abs"
    if kind == "steps":
        abs_tol = check.get("abs_tolerance")  # the tolerance times the run's step
        if _finite(abs_tol) and abs_tol > 0 and _finite(tol):
            return diff / (abs_tol / tol), "steps"
    return diff / abs(reference), "rel"


def error_text(check: Mapping[str, Any], missing: str = "—") -> str:
    """:func:`signed_error` as the tables show it: ``+3.43e-02 rel``, ``-4.69e-03 abs``,
    ``-0.26 steps``; ``missing`` without a value."""
    error, word = signed_error(check)
    if not math.isfinite(error):
        return missing
    if word == "steps":
        shown = f"{error:+.3g}"
        return f"{shown} step{'' if shown in ('+1', '-1') else 's'}"
    return f"{error:+.2e} {word}"


def band_margin(check: Mapping[str, Any]) -> float | None:
    """For a graded check with an absolute tolerance, whose pass band is [reference -
    tolerance, reference + tolerance]: how far its value lies inside the band from the
    nearer end (>= 0, passed), or outside it (< 0, failed), in the quantity's unit.
    None for the other checks and without a value."""
    if check.get("passed") is None or check.get("tolerance_kind") != "absolute":
        return None
    error, _ = signed_error(check)
    return check["tolerance"] - abs(error) if math.isfinite(error) else None


def band_text(check: Mapping[str, Any]) -> str:
    """:func:`band_margin` in words, ``9.10e-04 inside`` or ``1.90e-04 outside``; ''
    when there is none."""
    margin = band_margin(check)
    if margin is None:
        return ""
    return f"{margin:.2e} inside" if margin >= 0 else f"{-margin:.2e} outside"


def pass_text(check: Mapping[str, Any], words: Mapping[bool | None, str]) -> str:
    """The verdict (``check["passed"]``) in ``words``, followed for a band check by how far
    inside or outside the band the value is (:func:`band_text`): ``ok, 9.07e-04 inside``."""
    band = band_text(check)
    word = words[check.get("passed")]
    return f"{word}, {band}" if band else word


def unreferenced(specs: Iterable[QuantitySpec | Mapping[str, Any]] | None,
                 quantities: Mapping[str, Any], checks: Iterable[Mapping[str, Any]]
                 ) -> dict[str, float]:
    """The case's ``[[quantity]]`` entries (``specs``: the case's, or results.json
    ``parameters.quantity``) that no check compares with a reference, name -> value from
    ``quantities`` (NaN without one: not computed, a crossing never found, a results.json
    ``null``), in the case file's order: the tables show them for information."""
    referenced = {c.get("quantity") for c in checks}
    out = {}
    for spec in specs or ():
        name = spec.get("name") if isinstance(spec, Mapping) else spec.name
        if isinstance(name, str) and name not in referenced:
            value = quantities.get(name)
            out[name] = float(value) if _finite(value) else math.nan
    return out


#: the source and note of a quantity without reference, shown for information
NO_REFERENCE = "no reference"


#: the widest source column of :func:`format_table` (characters; a longer source is cut
#: with an ellipsis, whole in results.json and the report)
SOURCE_WIDTH = 34


def column_widths(rows: Sequence[Sequence[str]], *, pad: int = 0,
                  least: Sequence[int] = ()) -> list[int]:
    """The widths (characters) of a plain-text table's columns, one per cell of its first
    row (the header): the longest cell of the column plus ``pad``, at least ``least[i]``
    (a row shorter than the header has no cell in the columns it lacks)."""
    return [max(least[i] if i < len(least) else 0,
                *(len(r[i]) + pad for r in rows if i < len(r)))
            for i in range(len(rows[0]))]


def text_line(cells: Sequence[str], widths: Sequence[int], *, sep: str = "  ",
              right: Callable[[int, str], bool] | None = None) -> str:
    """One line of a plain-text table: each cell padded to its column's width, left-aligned
    (right-aligned where ``right(column, cell)`` says), joined by ``sep``, no trailing
    spaces."""
    return sep.join(cell.rjust(w) if right is not None and right(j, cell) else cell.ljust(w)
                    for j, (cell, w) in enumerate(zip(cells, widths))).rstrip()


def text_table(rows: Sequence[Sequence[str]], *, sep: str = "  ", pad: int = 0,
               least: Sequence[int] = (),
               right: Callable[[int, str], bool] | None = None) -> list[str]:
    """The lines of a plain-text table whose first row is its header, as the command line
    prints them (``run``'s collisions and impacts, ``rigid``'s levels, ``compare``, the
    checks of :func:`format_table`): columns as wide as :func:`column_widths` makes them,
    cells as :func:`text_line` places them."""
    widths = column_widths(rows, pad=pad, least=least)
    return [text_line(r, widths, sep=sep, right=right) for r in rows]


def format_table(case: str, checks: Sequence[Mapping[str, Any]],
                 quantities: Mapping[str, float] | None = None) -> str:
    """A plain-text comparison table: quantity, reference, computed, error (as the
    tolerance measures it: :func:`error_text`), tolerance, source, pass (with, for an
    absolute tolerance, how far inside or outside its band the value is: :func:`band_text`).
    Then the computed ``quantities`` that have no reference (:func:`unreferenced`), for
    information: their value, no reference, error nor pass mark.
    """
    header = ("quantity", "reference", "computed", "error", "tolerance", "source", "pass")
    rows = []

    def number(x: Any, fmt: str, missing: str = "—") -> str:
        return format(x, fmt) if x is not None and math.isfinite(x) else missing

    for c in checks:
        value = c["value"]
        rows.append((
            c["quantity"],
            f"{c['reference']:.6g}",
            # a misspelt quantity or column, or what a shortened run never reached
            number(value, ".6g", "not reached" if not_reached(c) else NONE
                   if found_none(c) else "not computed"),
            error_text(c),
            mark_text(c),
            c["source"],
            # a check the run ended before is no failure: validate and the report say
            # INCOMPLETE
            "not reached" if c["passed"] is False and not_reached(c)
            else pass_text(c, {True: "ok", False: "FAIL", None: "-"}),
        ))
    rows += [(name, "—", number(value, ".6g", "no value"), "—", "info", NO_REFERENCE, "-")
             for name, value in (quantities or {}).items()]
    widths = column_widths([header, *rows])
    widths[5] = min(widths[5], SOURCE_WIDTH)

    def line(r: Sequence[str]) -> str:
        # a source cut to its column says it was cut (results.json keeps it whole)
        return text_line([x if len(x) <= w else x[: w - 1] + "…" for x, w in zip(r, widths)],
                         widths, sep="  ")

    out = [f"== {case}", line(header), line(tuple("-" * w for w in widths))]
    for i, r in enumerate(rows):
        out.append(line(r))
        if i < len(checks) and r[-1].startswith("FAIL"):
            out += why_lines(checks[i].get("note"))
    return "\n".join(out)


#: the words of a reference's note that start the reason a check misses (the case files'
#: notes: "mark 1 % (issue 4); misses: ..." or "...; where it misses: ...")
MISSES = "misses:"


def miss_reason(note: str | None) -> str | None:
    """The reason a reference's note gives for a miss (the words after :data:`MISSES`),
    or None if it gives none."""
    if not note or MISSES not in note:
        return None
    return note.split(MISSES, 1)[1].strip() or None


def why_lines(note: str | None, width: int = 100) -> list[str]:
    """Under a FAIL row, the reason its reference's note gives for the miss, indented
    and wrapped at ``width`` (none if the note gives no reason)."""
    reason = miss_reason(note)
    return textwrap.wrap(reason, width, initial_indent="    why: ",
                         subsequent_indent=" " * 9) if reason else []
