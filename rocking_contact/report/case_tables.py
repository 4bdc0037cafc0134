"""The tables of a case's section in the report, from its ``results.json``.

Its resolved parameters with their units (collapsed), those its variants did not read
greyed; the comparison with the references (quantity, reference and its source, ours, the
error as the tolerance measures it, tolerance, pass, note), the graded checks first, then
the information rows (references without a pass mark, the values of its ``[[quantity]]``
entries that have no reference), and how its quantities are measured; a rigid run's events
(its outcome is in its status); the collisions it found and the rigid block's next to
them (a window that holds no collision said in a line), or its impacts and their
statistics; its steps, iterations and wall time (collapsed).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from rocking_contact.commands.compare import is_number
from rocking_contact.post.collision_warnings import unmatched_line
from rocking_contact.post.collisions import RIGID_LEVEL
from rocking_contact.post.impacts import FIELD_LABELS, FIELDS
from rocking_contact.post.references import (
    NO_REFERENCE,
    error_text,
    mark_text,
    pass_text,
    signed_error,
)
from rocking_contact.report.document import MISSING, Cell, Paragraph, Table, num, number
from rocking_contact.report.parameters import NOT_READ, not_read, parameter_rows


def parameters_table(case: str, params: Mapping[str, Any], unread: Sequence[str] = ()
                     ) -> Table:
    """The resolved parameters of the run; those its variants did not read (``unread``:
    results.json ``extra.unread``, and the keys its kind never reads,
    :func:`~rocking_contact.report.parameters.kind_not_read`) greyed, their value followed
    by "(not read by this variant)"."""
    rows = [[Cell(k, "code info"), Cell(f"{v} ({NOT_READ})", "info"), Cell(u, "info")]
            if not_read(k, unread) else
            [Cell(k, "code"), Cell(v, "num" if is_number(v) else ""), Cell(u)]
            for k, v, u in parameter_rows(params)]
    return Table(f"parameters-{case}", "Model and parameters (resolved case)",
                 ["key", "value", "unit"], rows, collapsed=True)


#: the checks table's columns; "error" says in each cell how it is measured (error_text)
CHECK_HEADER = ["quantity", "reference", "source", "ours", "error", "tolerance", "pass",
                "note"]
PASS_TEXT = {True: "pass", False: "FAIL", None: "info"}


#: the information rows' table: the references without a pass mark and the quantities
#: without reference, after the graded checks (collapsed in the HTML page)
INFO_CAPTION = "For information (no pass mark): {}"


def checks_table(case: str, checks: Sequence[Mapping[str, Any]],
                 quantities: Mapping[str, float] | None = None) -> list[Table]:
    """The comparison with the references, one row per check: the graded checks first
    (table ``checks-<case>``), then the information rows (``checks-info-<case>``,
    collapsed): references without a pass mark, and the computed ``quantities`` without
    reference (:func:`~rocking_contact.post.references.unreferenced`) with their value
    alone. The error is signed and measured as its tolerance measures it
    (:func:`report_error_text`: ``+3.43 %``, ``-4.69e-03 abs``, ``-0.26 steps``); a band's
    reference is the band (:func:`reference_cell`) and, after the pass mark, how far inside
    or outside it the value is (``pass, 9.10e-04 inside``). A run without a graded check
    shows all its rows in one table, ``checks-<case>``."""
    rows: dict[bool, list[list[Cell]]] = {True: [], False: []}
    for c in checks:
        rows[c.get("passed") is not None].append([
            Cell(c["quantity"], "code"), reference_cell(c), Cell(c.get("source", "")),
            num(c.get("value")), Cell(report_error_text(c), "num"),
            Cell(tolerance_text(c)),
            Cell(pass_text(c, PASS_TEXT),
                 {True: "pass", False: "fail", None: "info"}[c.get("passed")]),
            Cell(c.get("note") or ""),
        ])
    for name, value in (quantities or {}).items():
        rows[False].append([
            Cell(name, "code"), Cell(MISSING, "num"), Cell(NO_REFERENCE), num(value),
            Cell(MISSING, "num"), Cell("none"), Cell(PASS_TEXT[None], "info"),
            Cell("no [[reference]]: its value, for information"
                 + ("" if math.isfinite(value) else " (the run has none)"))])
    if not rows[True]:
        title = ("Comparison with the references (none has a pass mark: for information)"
                 if checks else "Computed quantities (no reference: for information)")
        return [Table(f"checks-{case}", title, CHECK_HEADER, rows[False])]
    tables = [Table(f"checks-{case}", "Comparison with the references (graded: with a pass "
                    "mark)", CHECK_HEADER, rows[True])]
    if rows[False]:
        what = ("other sources' values and the quantities without reference" if quantities
                else "other sources' values")
        tables.append(Table(f"checks-info-{case}", INFO_CAPTION.format(what), CHECK_HEADER,
                            rows[False], collapsed=True))
    return tables


def reference_cell(check: Mapping[str, Any]) -> Cell:
    """The reference of a check; for a graded absolute tolerance, the band it passes in,
    ``[reference - tolerance, reference + tolerance]`` (``[0.131146, 0.142347]``: a band's
    reference value is its centre, which nothing measures)."""
    ref, tol = check.get("reference"), check.get("tolerance")
    if (check.get("passed") is not None and check.get("tolerance_kind") == "absolute"
            and isinstance(ref, int | float) and isinstance(tol, int | float)):
        return Cell(f"[{number(ref - tol, 6)}, {number(ref + tol, 6)}]", "num")
    return num(ref)


def report_error_text(check: Mapping[str, Any]) -> str:
    """The error as the tolerance measures it, signed (ours - reference), a relative one in
    percent (``+14.5 %``), the others as :func:`~rocking_contact.post.references.error_text`
    writes them (``-4.69e-03 abs``, ``-0.26 steps``); :data:`MISSING` without a value."""
    error, word = signed_error(check)
    if word == "rel" and math.isfinite(error):
        return f"{100 * error:+.3g} %"
    return error_text(check, MISSING)


def tolerance_text(check: Mapping[str, Any]) -> str:
    """The pass mark in words: ``0.1 %`` (a relative one), ``0.5 abs``, ``1 step (0.0005 s)``."""
    if check.get("tolerance") is not None and check.get("tolerance_kind", "relative") == "relative":
        return f"{100 * check['tolerance']:g} %"
    text = mark_text({"tolerance": None, **check}, none="none")
    if check.get("tolerance") is not None and check.get("tolerance_kind") == "steps":
        text += f" ({number(check.get('abs_tolerance'), 4)} s)"
    return text


def quantities_table(case: str, specs: Sequence[Mapping[str, Any]]) -> Table:
    """How each ``[[quantity]]`` of the case is measured on the history."""
    rows = []
    for s in specs:
        if s.get("op") == "at":
            where = f"at t = {number(s.get('time'))} s"
        elif not s.get("window"):
            where = "over the whole run"
        elif s.get("bounds") == "open":
            where = f"over {number(s['window'][0])} < t < {number(s['window'][1])} s"
        else:
            where = f"over [{number(s['window'][0])}, {number(s['window'][1])}] s"
        rows.append([Cell(s["name"], "code"), Cell(s.get("column", ""), "code"),
                     Cell(s.get("op", "")), Cell(where)])
    return Table(f"quantities-{case}", "How the quantities are measured",
                 ["quantity", "column", "operation", "where"], rows, collapsed=True)


def events_table(case: str, events: Sequence[Mapping[str, Any]]) -> Table:
    """A rigid run's events (results.json ``extra.events``): kind, instant, corner, note."""
    rows = [[Cell(str(e.get("kind", ""))), num(e.get("time")), Cell(str(e.get("corner") or "")),
             Cell(str(e.get("note") or ""))] for e in events]
    return Table(f"events-{case}", "Events (results.json extra.events)",
                 ["event", "t (s)", "corner", "note"], rows)


#: units of the collision fields that runs record
COLLISION_UNITS = {"time": "s", "kinetic_energy": "J", "kinetic_energy_after": "J",
                   "omega_before": "rad/s", "omega_after": "rad/s", "vy_before": "m/s",
                   "percussion_x": "N.s", "percussion_y": "N.s"}


#: what a collision's ``time`` is, by case kind: a rigid run's collisions are its impacts,
#: a block run's the kinetic-energy maximum of each collision window, which comes just
#: before an impact on a still table only (on a shaken one the table may feed the block
#: energy after it)
COLLISION_TITLES = {
    "rigid": "Collisions (the rigid block's impacts: time is the instant of impact, the "
             "kinetic energy the block's just before it)",
    "block": "Collisions (the block's kinetic-energy maximum in each collision window: its time "
        "and energy; on a still table it comes just before an impact)"}


def collisions_table(case: str, collisions: Sequence[Mapping[str, Any]],
                     kind: str = "block") -> Table:
    """Our collisions, with every field the run records (index, time, kinetic energy...)
    but ``interior``: the table holds the interior ones alone (:func:`not_collisions`);
    its title says what ``time`` is for the case's ``kind`` (:data:`COLLISION_TITLES`)."""
    keys = list(dict.fromkeys(k for c in collisions for k in c if k != "interior"))
    header = ["k" if k == "index" else f"{k} ({COLLISION_UNITS[k]})" if k in COLLISION_UNITS
              else k for k in keys]
    rows = [[num(c.get(k)) if not isinstance(c.get(k), str) else Cell(c[k]) for k in keys]
            for c in collisions]
    return Table(f"collisions-{case}", COLLISION_TITLES.get(kind, COLLISION_TITLES["block"]),
                 header, rows)


def rigid_table(case: str, rows: Sequence[Mapping[str, Any]]) -> Table:
    """Each collision of a block run next to the rigid block's impact of the same number
    (``extra.rigid_comparison``, level :data:`RIGID_LEVEL`), with the differences
    ``ours / rigid - 1``; a row without a rigid impact is dashed, and
    :func:`rigid_unmatched` says why under the table."""
    out = []
    for row in rows:
        rigid = (row.get("levels") or {}).get(RIGID_LEVEL) or {}
        out.append([num(row.get("index")), num(row.get("time")), num(row.get("kinetic_energy")),
                    num(rigid.get("impact")), num(rigid.get("time")),
                    num(rigid.get("kinetic_energy")), _percent(rigid.get("time_error")),
                    _percent(rigid.get("energy_error"))])
    return Table(f"rigid-{case}", "Against the rigid block (its exact motion released from the "
                 "same tilt; the other levels are in results.json, extra.rigid_comparison)",
                 ["k", "t (s)", "kinetic energy (J)", "rigid impact", "rigid t (s)",
                  "rigid kinetic energy (J)", "t difference", "energy difference"], out)


def rigid_unmatched(rows: Sequence[Mapping[str, Any]]) -> list[Paragraph]:
    """The lines under :func:`rigid_table` for its dashed rows, the collisions the rigid
    level has no impact for (their ``unmatched`` reason), as ``run`` prints them under its
    table: ``— collision 3: no nonlinear rigid impact to compare with: it is the run's
    impact 3, and the nonlinear rigid block has 2 impacts up to t = 0.15 s``; none for a
    table without one."""
    return [Paragraph(f"{MISSING} {unmatched_line(row['index'], RIGID_LEVEL, why)}")
            for row in rows if (why := (row.get("unmatched") or {}).get(RIGID_LEVEL))]


def _percent(x: Any) -> Cell:
    return Cell(f"{100 * x:+.3g} %" if isinstance(x, float) and math.isfinite(x) else MISSING,
                "num")


def not_collisions(collisions: Sequence[Mapping[str, Any]],
                   t_end: float | None) -> list[Paragraph]:
    """One line per window whose kinetic-energy maximum is no collision (``interior``
    false), e.g. a failed run's last instant; ``t_end`` is the run's last instant (s)."""
    out, previous = [], None
    for c in collisions:
        if not c.get("interior", True):
            out.append(Paragraph(
                f"Collision window {c.get('index', '?')} holds no collision: its "
                f"kinetic-energy maximum ({number(c.get('kinetic_energy'), 4)} J at "
                f"t = {number(c.get('time'), 6)} s) is {_why_not(c, previous, t_end)}."))
        previous = c
    return out


def _why_not(entry: Mapping[str, Any], previous: Mapping[str, Any] | None,
             t_end: float | None) -> str:
    """Why a window maximum is not interior, as far as results.json and the history say."""
    if t_end is not None and entry.get("time") == t_end:
        return "the run's last instant"
    if previous is not None and previous.get("time") == entry.get("time"):
        return "the previous window's maximum again"
    return "on a bound of the window, or the round-off of a block at rest"


#: the impacts table's columns: every entry of an impact and its heading, the one ``run``
#: gives it too (:data:`~rocking_contact.post.impacts.FIELD_LABELS`)
IMPACT_FIELDS = tuple((key, FIELD_LABELS[key]) for key in (*FIELDS, "resolved"))


def impacts_table(case: str, impacts: Sequence[Mapping[str, Any]]) -> Table:
    """Our impacts, one row per impact of each shock (a figure not measured, NaN or None,
    is :data:`MISSING`); the title says how an unresolved impact is measured when the
    table has one."""
    rows = [[Cell(str(i.get("shock", ""))), num(i.get("index"))]
            + [num(i.get(key)) for key, _ in IMPACT_FIELDS] for i in impacts]
    unresolved = (" (resolved false: a contact shorter than the spacing of the samples, "
                  "measured on the samples around it: start and end are their instants, the "
                  "speeds their velocities, the impulse the integral of the force between "
                  f"them; its duration and maximum are not measured, {MISSING})"
                  if any(i.get("resolved") is False for i in impacts) else "")
    return Table(f"impacts-{case}", f"Impacts{unresolved}",
                 ["shock", "k"] + [h for _, h in IMPACT_FIELDS], rows)


def impact_statistics_table(case: str, stats: Mapping[str, Mapping[str, Any]]) -> Table:
    """Per shock: number of impacts, largest, mean and standard deviation of the maxima."""
    rows = [[Cell(name), Cell(str(s.get("node", ""))), num(s.get("count")),
             num(s.get("max_abs_force")), num(s.get("mean_max_force")),
             num(s.get("std_max_force"))] for name, s in stats.items()]
    return Table(f"impact-statistics-{case}", "Impact statistics",
                 ["shock", "node", "impacts", "largest force (N)", "mean of maxima (N)",
                  "std of maxima (N)"], rows)


def sustained_contacts_table(case: str, contacts: Mapping[str, Mapping[str, Any]]) -> Table:
    """Per shock closed over the whole run (a preloaded pad: no impact), its span and the
    range of its normal force."""
    rows = [[Cell(name), Cell(str(c.get("node", ""))), num(c.get("start")), num(c.get("end")),
             num(c.get("min_force")), num(c.get("max_force"))] for name, c in contacts.items()]
    return Table(f"sustained-contacts-{case}",
                 "Sustained contacts (closed over the whole run: not impacts)",
                 ["shock", "node", "from (s)", "to (s)", "least force (N)",
                  "largest force (N)"], rows)


#: timing key -> row label
TIMING_LABELS = {"wall_s": "wall time (s)", "steps": "time steps",
                 "newton_iterations": "Newton iterations",
                 "compile_s": "numba compilation, not in the wall time (s)"}
#: ``extra`` entries with a table or a figure of their own
EXTRA_SHOWN_ELSEWHERE = frozenset({"fields", "impact_statistics", "node_positions", "versions",
                                   "rigid_comparison", "events", "sustained_contacts"})


def run_table(case: str, data: Mapping[str, Any]) -> Table:
    """Status, steps, iterations, wall time and the other timing figures of the run
    (collapsed: 40 rows for a block run)."""
    rows = [[Cell("status"), Cell(str(data.get("status", "?")))]]
    timing = data.get("timing") or {}
    keys: list[str] = ([k for k in TIMING_LABELS if k in timing]
                       + [k for k in timing if k not in TIMING_LABELS])
    rows += [[Cell(TIMING_LABELS.get(k, k)), num(timing[k], 4)] for k in keys]
    rows += [[Cell(key), Cell(text, "num")] for key, text in _short_entries(
        {k: v for k, v in (data.get("extra") or {}).items() if k not in EXTRA_SHOWN_ELSEWHERE})]
    return Table(f"run-{case}", "Run", ["", "value"], rows, collapsed=True)


def _short_entries(extra: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """The entries of ``extra`` that fit a table cell: scalars, short lists of scalars, and
    the same one table down (``block.mass``); the rest stays in results.json."""
    out = []
    for key, value in extra.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and not prefix:
            out += _short_entries(value, f"{name}.")
            continue
        values = value if isinstance(value, list) else [value]
        if 0 < len(values) <= 6 and all(isinstance(v, int | float | str) for v in values):
            out.append((name, ", ".join(number(v, 6) for v in values)))
    return out
