"""What the validation report says, built from results directories.

For each case: the ``--set`` overrides it was run with, its case file's title and
description (marked as the file's when the run was not the file as written) and its
verdict; where it came from (version, commit,
the command that runs it again); its resolved parameters with their units (collapsed);
the comparison with the references (quantity, reference and its source, ours, the
error as the tolerance measures it, tolerance, pass, note), the graded checks first, then
the information rows (references without a pass mark, the values of its ``[[quantity]]``
entries that have no reference), and how its quantities are measured; a rigid run's events
(its outcome is in its status); the collisions or impacts it found; its steps, iterations
and wall time (collapsed); its figures (:mod:`.figures`), the solver's diagnostics folded
under a heading of their own.
Before the cases: when and from which commit the report was made, its verdict in one line
(:func:`headline`), a summary table, the results directories that could not be read
(:mod:`.inputs`) and, for every validation case with two treatments or more, the
kinetic-energy comparison (Figure 6-a of SDNV105).
After them: the versions of the stack. Nothing here knows a case by name.

Checks are counted as the run counts them: passed, failed, not reached (a reference past
the end of a shortened, failed or interrupted run: a miss, but not a wrong value) and
informational.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rocking_contact.commands.compare import is_number
from rocking_contact.post.collisions import RIGID_LEVEL, interior
from rocking_contact.post.impacts import FIELD_LABELS, FIELDS
from rocking_contact.post.references import (
    NO_REFERENCE,
    band_text,
    error_text,
    mark_text,
    miss_reason,
    not_reached,
    pass_text,
    signed_error,
    unreferenced,
)
from rocking_contact.provenance import (
    NOT_LOADED,
    checkout,
    override_texts,
    package_version,
    stack_versions,
    utc_now,
)
from rocking_contact.report.document import (
    MISSING,
    VERDICT_CSS,
    Cell,
    Document,
    Figure,
    Group,
    Paragraph,
    Section,
    Table,
    num,
    number,
)
from rocking_contact.report.figures import (
    DIAGNOSTICS_HEADING,
    drawn_plots,
    figures,
    is_diagnostic,
)
from rocking_contact.report.inputs import CaseResult, Skipped
from rocking_contact.report.parameters import NOT_READ, kind_not_read, not_read, parameter_rows
from rocking_contact.results import STARTED, Verdict, check_counts, classify
from rocking_contact.summary import outcome_text
from rocking_contact.viz.changes import changes_text, value_text

#: the checks table's columns; "error" says in each cell how it is measured (error_text)
CHECK_HEADER = ["quantity", "reference", "source", "ours", "error", "tolerance", "pass",
                "note"]
PASS_TEXT = {True: "pass", False: "FAIL", None: "info"}

#: timing key -> row label
TIMING_LABELS = {"wall_s": "wall time (s)", "steps": "time steps",
                 "newton_iterations": "Newton iterations",
                 "compile_s": "numba compilation, not in the wall time (s)"}
#: ``extra`` entries with a table or a figure of their own
EXTRA_SHOWN_ELSEWHERE = frozenset({"fields", "impact_statistics", "node_positions", "versions",
                                   "rigid_comparison", "events", "sustained_contacts"})


#: the report's word for each verdict
VERDICT_WORDS = {Verdict.INTERRUPTED: "INTERRUPTED", Verdict.UNFINISHED: "UNFINISHED",
                 Verdict.RUN_FAILED: "RUN FAILED", Verdict.FAIL: "FAIL",
                 Verdict.INCOMPLETE: "INCOMPLETE", Verdict.PASS: "PASS",
                 Verdict.NOT_GRADED: "NO CHECK"}


def verdict(data: Mapping[str, Any]) -> str:
    """``PASS``, ``FAIL``, ``INCOMPLETE`` (no failure, but references the run did not
    reach), ``INTERRUPTED`` (stopped by Ctrl-C or SIGTERM: no failure of the run's),
    ``UNFINISHED`` (killed, or still running: nothing graded yet), ``RUN FAILED`` or
    ``NO CHECK`` (:func:`~rocking_contact.results.classify`)."""
    return VERDICT_WORDS[classify(str(data.get("status", "completed")),
                                  data.get("checks") or [])]


def tolerance_text(check: Mapping[str, Any]) -> str:
    """The pass mark in words: ``0.1 %`` (a relative one), ``0.5 abs``, ``1 step (0.0005 s)``."""
    if check.get("tolerance") is not None and check.get("tolerance_kind", "relative") == "relative":
        return f"{100 * check['tolerance']:g} %"
    text = mark_text({"tolerance": None, **check}, none="none")
    if check.get("tolerance") is not None and check.get("tolerance_kind") == "steps":
        text += f" ({number(check.get('abs_tolerance'), 4)} s)"
    return text


def report_error_text(check: Mapping[str, Any]) -> str:
    """The error as the tolerance measures it, signed (ours - reference), a relative one in
    percent (``+14.5 %``), the others as :func:`~rocking_contact.post.references.error_text`
    writes them (``-4.69e-03 abs``, ``-0.26 steps``); :data:`MISSING` without a value."""
    error, word = signed_error(check)
    if word == "rel" and math.isfinite(error):
        return f"{100 * error:+.3g} %"
    return error_text(check, MISSING)


def reference_cell(check: Mapping[str, Any]) -> Cell:
    """The reference of a check; for a graded absolute tolerance, the band it passes in,
    ``[reference - tolerance, reference + tolerance]`` (``[0.131146, 0.142347]``: a band's
    reference value is its centre, which nothing measures)."""
    ref, tol = check.get("reference"), check.get("tolerance")
    if (check.get("passed") is not None and check.get("tolerance_kind") == "absolute"
            and isinstance(ref, int | float) and isinstance(tol, int | float)):
        return Cell(f"[{number(ref - tol, 6)}, {number(ref + tol, 6)}]", "num")
    return num(ref)


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


def events_table(case: str, events: Sequence[Mapping[str, Any]]) -> Table:
    """A rigid run's events (results.json ``extra.events``): kind, instant, corner, note."""
    rows = [[Cell(str(e.get("kind", ""))), num(e.get("time")), Cell(str(e.get("corner") or "")),
             Cell(str(e.get("note") or ""))] for e in events]
    return Table(f"events-{case}", "Events (results.json extra.events)",
                 ["event", "t (s)", "corner", "note"], rows)


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


def _why_not(entry: Mapping[str, Any], previous: Mapping[str, Any] | None,
             t_end: float | None) -> str:
    """Why a window maximum is not interior, as far as results.json and the history say."""
    if t_end is not None and entry.get("time") == t_end:
        return "the run's last instant"
    if previous is not None and previous.get("time") == entry.get("time"):
        return "the previous window's maximum again"
    return "on a bound of the window, or the round-off of a block at rest"


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


def _percent(x: Any) -> Cell:
    return Cell(f"{100 * x:+.3g} %" if isinstance(x, float) and math.isfinite(x) else MISSING,
                "num")


def rigid_table(case: str, rows: Sequence[Mapping[str, Any]]) -> Table:
    """Each collision of a block run next to the rigid block's impact of the same number
    (``extra.rigid_comparison``, level :data:`RIGID_LEVEL`), with the differences
    ``ours / rigid - 1``; the title says why a row has no rigid impact (its ``unmatched``)."""
    out = []
    unmatched = [str(why) for row in rows
                 if (why := (row.get("unmatched") or {}).get(RIGID_LEVEL))]
    for row in rows:
        rigid = (row.get("levels") or {}).get(RIGID_LEVEL) or {}
        out.append([num(row.get("index")), num(row.get("time")), num(row.get("kinetic_energy")),
                    num(rigid.get("impact")), num(rigid.get("time")),
                    num(rigid.get("kinetic_energy")), _percent(rigid.get("time_error")),
                    _percent(rigid.get("energy_error"))])
    return Table(f"rigid-{case}", "Against the rigid block (its exact motion released from the "
                 "same tilt; the other levels are in results.json, extra.rigid_comparison)"
                 + "".join(f"; {why}" for why in unmatched),
                 ["k", "t (s)", "kinetic energy (J)", "rigid impact", "rigid t (s)",
                  "rigid kinetic energy (J)", "t difference", "energy difference"], out)


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


def unread_recorded(data: Mapping[str, Any]) -> list[str]:
    """results.json ``extra.unread``: the dotted keys of ``parameters`` the run's variants
    did not read; none for a run written before they were recorded (or a list of another
    kind, in a file changed by hand)."""
    unread = (data.get("extra") or {}).get("unread")
    return [k for k in unread if isinstance(k, str)] if isinstance(unread, list) else []


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


def case_section(result: CaseResult, figures_dir: Path, *, views: bool,
                 plots: Callable[[CaseResult], list[Path]] | None = None) -> Section:
    """Everything the report says about one case; ``plots`` gives its plot files in
    ``figures_dir / result.key`` (:func:`~rocking_contact.report.figures.drawn_plots`),
    by default copied or drawn here."""
    data, case = result.data, result.key
    blocks: list[Any] = opening(data)
    blocks.append(Paragraph(
        f"Kind: {data.get('kind', '?')}. Status: {run_status(data, result.history)}. "
        f"Checks: {checks_text(data.get('checks') or [])}. Results: {result.directory}."))
    blocks += [Paragraph(f"Warning: {w}") for w in data.get("warnings") or []]
    blocks.append(Paragraph(stack_note(data.get("stack"), dict(stack_versions()),
                                       str(data.get("status", "completed")))))
    blocks.append(provenance_block(case, data.get("provenance") or {}))
    blocks.append(parameters_table(case, data.get("parameters") or {},
                                   unread_recorded(data) + kind_not_read(str(data.get("kind")))))
    checks = data.get("checks") or []
    shown = unreferenced((data.get("parameters") or {}).get("quantity"),
                         data.get("quantities") or {}, checks)
    if checks or shown:
        blocks += checks_table(case, checks, shown)
    specs = (data.get("parameters") or {}).get("quantity") or []
    if specs:  # next to the checks that compare them
        blocks.append(quantities_table(case, specs))
    events = (data.get("extra") or {}).get("events")
    if events:
        blocks.append(events_table(case, events))
    collisions = interior(list(data.get("collisions") or []))
    if collisions:
        blocks.append(collisions_table(case, collisions, str(data.get("kind", ""))))
    rigid = (data.get("extra") or {}).get("rigid_comparison")
    if rigid:
        blocks.append(rigid_table(case, rigid))
    t = result.history.get("time")
    blocks += not_collisions(data.get("collisions") or [],
                             float(t[-1]) if t is not None and len(t) else None)
    if data.get("impacts"):
        blocks.append(impacts_table(case, data["impacts"]))
    stats = (data.get("extra") or {}).get("impact_statistics")
    if stats:
        blocks.append(impact_statistics_table(case, stats))
    sustained = (data.get("extra") or {}).get("sustained_contacts")
    if sustained:
        blocks.append(sustained_contacts_table(case, sustained))
    blocks.append(run_table(case, data))
    shown_figures = figures(result, figures_dir / case, views=views,
                            plots=plots(result) if plots and result.history else None)
    blocks += [b for b in shown_figures if not is_diagnostic(b)]
    diagnostics = [b for b in shown_figures if is_diagnostic(b)]
    if diagnostics:  # how the solver worked: folded away, opened by who asks
        blocks.append(Group(DIAGNOSTICS_HEADING, diagnostics))
    return Section(f"case-{case}", result.label, blocks, badge=verdict(data))


def opening(data: Mapping[str, Any]) -> list[Paragraph]:
    """What a case section starts with: the ``--set`` options the run was given
    (:func:`overrides_text`), what it changes of its case file's physics, and the file's
    title and description, marked as the file's when the run was not the file as written
    (unmarked, ``sdnv105d --set mesh.layout=structured`` would be described as "coarse
    Code_Aster mesh, 25 nodes, 12 quadrilaterals", its overrides two rows deep in the
    parameters)."""
    info = (data.get("parameters") or {}).get("case") or {}
    out = []
    given = overrides_text(data.get("provenance") or {})
    if given:
        out.append(Paragraph(f"Run with: {given}."))
    changes = changes_text(data)
    if changes:
        out.append(Paragraph(
            f"This run changes its case file's physics: {changes}. The title and "
            "description below are the case file's; its references describe the file's "
            "parameters: they are shown for information and not drawn on the figures."))
    marked = bool(given or changes)
    if info.get("title"):
        out.append(Paragraph(("Case file's title: " if marked else "") + info["title"]))
    if info.get("description"):
        out.append(Paragraph(("Case file's description: " if marked else "")
                             + " ".join(info["description"].split())))
    return out


#: the longest value of an override the report writes out; a longer one (the samples of a
#: record given as arrays in Python) is said in words (:func:`~rocking_contact.viz.changes.
#: value_text`), and the run's rerun command, which spells it, is not printed
OVERRIDE_CHARS = 80


def _given(overrides: Mapping[str, Any] | Sequence[str]) -> list[tuple[str, str, Any]]:
    """(key, value as --set spells it, value) of each override, in order: the texts
    of ``--set``, or of the mapping given to ``rc.run`` (``provenance.override_texts``);
    a value --set cannot spell, as Python writes it."""
    from rocking_contact.config import parse_override

    texts, _ = override_texts(overrides)
    if isinstance(overrides, Mapping):
        spelled = texts or [f"{key}={value}" for key, value in overrides.items()]
        return [(str(k), t.partition("=")[2], v)
                for (k, v), t in zip(overrides.items(), spelled, strict=True)]
    out = []
    for text in overrides:
        key, _, raw = str(text).partition("=")
        out.append((key.strip(), raw.strip(), parse_override(str(text))[1]))
    return out


def long_overrides(provenance: Mapping[str, Any]) -> list[str]:
    """The keys of the overrides of a run whose value is longer than
    :data:`OVERRIDE_CHARS` as ``--set`` spells it."""
    return [key for key, text, _ in _given(provenance.get("overrides") or [])
            if len(text) > OVERRIDE_CHARS]


def overrides_text(provenance: Mapping[str, Any]) -> str:
    """The overrides of a run (results.json ``provenance.overrides``: the ``--set`` texts,
    or the mapping given to ``rc.run``) as ``--set key=value ...``, values spelled as
    ``--set`` reads them, one longer than :data:`OVERRIDE_CHARS` in words between angle
    brackets (``--set loading.table_acceleration_x=<table of 151 samples over 0-0.15 s>``,
    not its 302 numbers); empty for a run of its case file as written."""
    overrides = provenance.get("overrides")
    if not overrides:
        return ""
    given = _given(overrides)
    words = [f"--set {key}={text}" if len(text) <= OVERRIDE_CHARS
             else f"--set {key}=<{value_text(value)}>" for key, text, value in given]
    said = (" (<...>: a value too long to write here, in full in results.json "
            "provenance.overrides)") if any(len(t) > OVERRIDE_CHARS for _, t, _ in given) else ""
    return " ".join(words) + said


def checks_text(checks: Sequence[Mapping[str, Any]]) -> str:
    """The check counts in words: ``2 pass, 2 fail, 11 not reached, 72 for information``."""
    passed, failed, unreached, info_only = check_counts(checks)
    reached = f", {unreached} not reached" if unreached else ""
    return f"{passed} pass, {failed} fail{reached}, {info_only} for information"


def run_status(data: Mapping[str, Any], history: Mapping[str, Any] | None = None) -> str:
    """The run's status, with a rigid run's outcome and events
    (:func:`~rocking_contact.summary.outcome_text`: ``outcome overturned; events: uplift at
    t = ..., overturn at t = ...``), and what makes it another run than its case file's: ended
    before the file's end (said by the status itself unless the run completed: a shortened
    run), or graded on nothing because it changes the physics; for a run that never wrote
    its results (killed), how far its ``history`` got."""
    checks = data.get("checks") or []
    status = str(data.get("status", ""))
    t = (history or {}).get("time")
    if status == STARTED:
        reached = (f"its history reaches t = {float(t[-1]):.6g} s" if t is not None and len(t)
                   else "no history row")
        return f"{status}; {reached}"
    ended = next((c["note"] for c in checks if not_reached(c)), None) \
        if status == "completed" else None
    changes = changes_text(data)
    # A check's own "not graded: the value holds for a step of ..." keeps its prefix: it
    # speaks of some references, not of the run, and read as part of a failure without it.
    changed = f"the run changes {changes}" if changes else next(
        (c["note"] for c in checks if str(c.get("note", "")).startswith("not graded")), None)
    # a rigid block that overturned completes its run: its outcome says what happened
    motion = outcome_text(data.get("extra") or {})
    extra = [text for text in (motion, ended and ended.partition(": ")[2], changed) if text]
    return f"{status} ({'; '.join(extra)})" if extra else status


def rigid_summary(data: Mapping[str, Any]) -> str:
    """The largest differences of a block run's collisions from the rigid block's
    (:data:`RIGID_LEVEL`), in words: ``t +0.404 %, energy +3.48 % (2 collisions)``; empty
    for a run without that comparison."""
    levels = [(row.get("levels") or {}).get(RIGID_LEVEL) or {}
              for row in (data.get("extra") or {}).get("rigid_comparison") or []]
    levels = [lv for lv in levels if isinstance(lv.get("time_error"), float)]
    if not levels:
        return ""

    def largest(key: str) -> float:
        return float(max((lv[key] for lv in levels if isinstance(lv.get(key), float)),
                         key=abs, default=math.nan))

    n = len(levels)
    return (f"t {100 * largest('time_error'):+.3g} %, energy "
            f"{100 * largest('energy_error'):+.3g} % ({n} collision{'s' if n != 1 else ''})")


def worst_miss(checks: Sequence[Mapping[str, Any]]) -> str:
    """The failed check farthest beyond its mark (its error over its tolerance, both as the
    tolerance measures them), in words: ``rx_min_O -18.6 % (mark 2 %)``, a band's
    ``collision.5.time 3.48e-03 outside [0.265526, 0.29937]``; empty when none failed on
    its value (a check not reached is no miss)."""
    failed = [c for c in checks if c.get("passed") is False and not not_reached(c)
              and c.get("tolerance")]

    def beyond(c: Mapping[str, Any]) -> float:
        error, _ = signed_error(c)
        return abs(error) / float(c["tolerance"]) if math.isfinite(error) else math.inf

    if not failed:
        return ""
    c = max(failed, key=beyond)
    if band_text(c):
        return f"{c['quantity']} {band_text(c)} {reference_cell(c).text}"
    return f"{c['quantity']} {report_error_text(c)} (mark {tolerance_text(c)})"


#: the summary's columns
SUMMARY_HEADER = ["case", "kind", "status", "checks passed", "checks failed", "not reached",
                  "informational", "wall time (s)", "verdict", "worst miss (graded)",
                  "against the rigid block (not graded: largest difference)"]


def summary_table(cases: Sequence[CaseResult]) -> Table:
    """One row per case: kind, status, check counts, wall time, verdict, the graded check
    that misses its mark by most (:func:`worst_miss`; its case section's note says why) and,
    for a block run compared with the rigid block, its largest differences from it, for
    information (the rigid block is not what the later collisions are graded on)."""
    rows = []
    for r in cases:
        v = verdict(r.data)
        checks = r.data.get("checks") or []
        miss = worst_miss(checks)
        rows.append([Cell(r.label, link=f"case-{r.key}"),
                     Cell(str(r.data.get("kind", ""))), Cell(run_status(r.data, r.history)),
                     *[num(n) for n in check_counts(checks)],
                     num((r.data.get("timing") or {}).get("wall_s"), 4),
                     Cell(v, VERDICT_CSS.get(v, "fail")),
                     Cell(miss, "fail", link=f"checks-{r.key}") if miss else Cell(MISSING),
                     Cell(rigid_summary(r.data) or MISSING, "info")])
    return Table("summary", "Summary", SUMMARY_HEADER, rows)


def skipped_table(skipped: Sequence[Skipped]) -> Table:
    """The results directories that could not be read, and why."""
    rows = [[Cell(str(s.directory), "code"), Cell(s.reason)] for s in skipped]
    return Table("skipped", "Results directories skipped (not readable)",
                 ["directory", "reason"], rows)


def comparison_section(cases: Sequence[CaseResult], figures_dir: Path) -> Section | None:
    """The kinetic-energy comparison of every validation case with several treatments."""
    from rocking_contact.viz.comparison import (
        collision_markers,
        comparable_groups,
        compare_kinetic_energy,
        validation_case,
    )

    # only collisions count: a failed run's last instant does not make a staircase step
    shown = [({**r.data, "collisions": interior(list(r.data.get("collisions") or []))},
              r.history) for r in cases]
    groups = comparable_groups(shown)
    if not groups:
        return None
    label = {id(d): r.label for (d, _), r in zip(shown, cases)}  # two runs of one case
    blocks: list[Any] = []
    for name, members in groups.items():
        labels = [label[id(d)] for d, _ in members]
        # titled by the validation case; a group that changes its physics says how
        png = next(p for p in compare_kinetic_energy(
            validation_case(name).upper(), members, figures_dir,
            stem=f"{name}_kinetic_energy", labels=labels) if p.suffix == ".png")
        references = (", with the collision references of every source"
                      if collision_markers(members) else "")
        blocks.append(Figure(png, f"{name.upper()}: kinetic energy of the block for "
                                  f"{len(members)} treatments ({', '.join(labels)})"
                                  f"{references}."))
    return Section("comparisons", "Treatments compared", blocks)


def stack_note(run: dict[str, str] | None, report: dict[str, str],
               status: str = "completed") -> str:
    """One sentence on the stack a run was computed with, against the report's own."""
    if not run and status == STARTED:
        return ("Stack: not recorded: the run stopped (or is still running) before it wrote "
                "its results.")
    if not run:
        return "Stack: not recorded by this run (results written before runs recorded it)."
    differ = [f"{name} {version} (report: {report.get(name, 'absent')})"
              for name, version in run.items()
              if version != NOT_LOADED and report.get(name) != version]
    if not differ:
        return "Stack: the run was computed with the versions listed at the end of the report."
    return "Stack: the run was computed with another stack: " + "; ".join(differ) + "."


#: the digits of a commit the report shows (git takes them for the commit)
COMMIT_DIGITS = 12


def provenance_block(case: str, provenance: Mapping[str, Any]) -> Table | Paragraph:
    """Where a run came from (results.json ``provenance``, docs/outputs.md), compactly: the
    package version and the git commit it ran from, when it ran (UTC), and the command
    that runs it again, or why there is none; a run written before runs recorded their
    provenance says so."""
    if not provenance:
        return Paragraph("Provenance: not recorded by this run (results written before runs "
                         "recorded it).")
    rerun = provenance.get("rerun")
    rows = [[Cell("version"), Cell(f"rocking-contact {provenance.get('version', '?')}, "
                                   f"{_commit_text(provenance.get('checkout'))}")],
            [Cell("ran (UTC)"), Cell(_ran_text(provenance))]]
    if rerun:
        long = long_overrides(provenance)
        # a command of thousands of numbers (a record given as arrays): where it is
        shown = Cell(f"a command of {len(rerun)} characters, which writes out the value of "
                     f"{', '.join(long)}: results.json provenance.rerun") if long \
            else Cell(rerun, "code")
        # its case path, --out and records are relative to the directory it ran in
        rows += [[Cell("rerun"), shown],
                 [Cell("rerun in"), Cell(str(provenance.get("cwd", "?")), "code")]]
        if provenance.get("rerun_note"):  # an interrupted run: what the rerun reproduces
            rows.append([Cell("rerun note"), Cell(str(provenance["rerun_note"]))])
    else:
        rows.append([Cell("rerun"),
                     Cell(f"none: {provenance.get('rerun_note', 'not recorded')}")])
    return Table(f"provenance-{case}", "Provenance (results.json provenance)", ["", "value"],
                 rows)


def _commit_text(checkout: Mapping[str, Any] | None) -> str:
    """The checkout a run was imported from in words: ``commit 0575957...`` with ``, with
    uncommitted changes`` when its tracked files differed."""
    if not checkout:
        return "not from a git checkout"
    commit = checkout.get("commit")
    if not commit:
        return f"commit unknown ({checkout.get('error', 'git failed')})"
    dirty = ", with uncommitted changes" if checkout.get("dirty") else ""
    return f"commit {str(commit)[:COMMIT_DIGITS]}{dirty}"


def _ran_text(provenance: Mapping[str, Any]) -> str:
    """``started to ended`` (ISO 8601, as recorded), on ``N`` MPI ranks if more than one;
    a run that never ended (killed, or running) says so."""
    ended = provenance.get("ended") or "not ended (still running, or killed)"
    ranks = provenance.get("mpi_ranks") or 1
    on = f", on {ranks} MPI ranks" if ranks > 1 else ""
    return f"{provenance.get('started', '?')} to {ended}{on}"


def versions_section() -> Section:
    """The stack that made this report."""
    rows = [[Cell(name), Cell(version)] for name, version in stack_versions()]
    return Section("versions", "Software stack", [
        Paragraph("Versions of the software this report was made with. Every run records "
                  "its own in results.json (stack); a case computed with other versions "
                  "says so in its section."),
        Table("stack-versions", "Versions", ["component", "version"], rows)])


def headline(cases: Sequence[CaseResult]) -> str:
    """The report's verdict in one line, counted from the runs: ``8 of 12 cases pass; 4 fail
    (16 checks), each miss explained in its case section``, then the cases of the other
    verdicts (``1 incomplete``...); a failed check whose note does not say why
    (:func:`~rocking_contact.post.references.miss_reason`) is counted as not explained."""
    words = [verdict(r.data) for r in cases]
    failed = [c for r, w in zip(cases, words) if w == "FAIL" for c in r.data.get("checks") or []
              if c.get("passed") is False and not not_reached(c)]
    parts = [f"{words.count('PASS')} of {len(cases)} case{'s' if len(cases) != 1 else ''} pass"]
    if failed:
        unexplained = sum(miss_reason(c.get("note")) is None for c in failed)
        said = ("each miss explained in its case section" if not unexplained else
                f"{unexplained} of them not explained by their note")
        parts.append(f"{words.count('FAIL')} fail ({len(failed)} check"
                     f"{'s' if len(failed) != 1 else ''}), {said}")
    parts += [f"{words.count(w)} {w.lower()}" for w in dict.fromkeys(words)
              if w not in ("PASS", "FAIL")]
    return "; ".join(parts) + "."


def generated_text(repository: Mapping[str, Any] | None, when: str, version: str) -> str:
    """When the report was made (``when``: UTC, ISO 8601) and from which code: ``Generated
    2026-11-24T03:10:00.000+00:00 by rocking-contact 0.1.0, commit 0575957..., with
    uncommitted changes``; each run's own commit is in its section's provenance."""
    return (f"Generated {when} by rocking-contact {version}, "
            f"{_commit_text(repository)}; each case's run gives its own in its provenance.")


def build(cases: Sequence[CaseResult], figures_dir: Path, *, views: bool = True,
          skipped: Sequence[Skipped] = (), workers: int | None = None) -> Document:
    """The whole report for ``cases``, listing the ``skipped`` directories; figures are
    written under ``figures_dir``, the plots to redraw by up to ``workers`` processes
    from the start (:func:`~rocking_contact.report.figures.drawn_plots`)."""
    with drawn_plots(cases, figures_dir, workers) as plots:
        return _build(cases, figures_dir, views=views, skipped=skipped, plots=plots)


def _build(cases: Sequence[CaseResult], figures_dir: Path, *, views: bool,
           skipped: Sequence[Skipped], plots: Callable[[CaseResult], list[Path]]
           ) -> Document:
    """:func:`build`, the plots of each case given by ``plots``."""
    graded = any(r.data.get("checks") for r in cases)
    if graded:
        opening = ("Each case below puts our computed quantities next to their references "
                   "(analytic solutions, Code_Aster, LMGC90...), with the error and the pass "
                   "mark, the graded checks first (a FAIL row's note says why it misses); "
                   "'info' rows, after them, have no pass mark; 'not reached': the run "
                   "ended before what the reference measures.")
    elif any(r.data.get("status") == STARTED for r in cases):
        # killed runs hold their references in their parameters, ungraded
        opening = ("No run here has been graded: a run compares itself with its references "
                   "when it ends, and some of these stopped (or are still running) before; "
                   "each case below shows the history it kept.")
    else:
        # an engineer's own runs: nothing is graded, so the report does not call itself a
        # validation nor promise references
        opening = ("None of these runs has references: each case below shows what the run "
                   "computed (a block's collisions next to its rigid twin where it has one).")
    intro: list[Any] = [Paragraph(generated_text(checkout(), utc_now(), package_version()))]
    if graded:
        intro.append(Paragraph(headline(cases)))
    # a graded report counts its cases in its headline
    intro += [Paragraph(opening if graded else f"{len(cases)} case(s). {opening}"),
              summary_table(cases)]
    if skipped:
        intro.append(skipped_table(skipped))
    sections = []
    comparison = comparison_section(cases, figures_dir)
    if comparison is not None:
        sections.append(comparison)
    sections += [case_section(r, figures_dir, views=views, plots=plots) for r in cases]
    sections.append(versions_section())
    title = "rocking_contact validation report" if graded else "rocking_contact report"
    return Document(title, intro, sections)
