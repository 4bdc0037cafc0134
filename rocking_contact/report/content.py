"""What the validation report says, built from results directories.

For each case: its title, description and verdict; its resolved parameters with their
units (collapsed); the comparison with the references (quantity, reference and its
source, ours, relative error, tolerance, pass, note); the collisions or impacts it found;
its steps, iterations and wall time; its figures (redrawn from ``results.json`` and
``history.csv`` with :mod:`rocking_contact.viz.history_plots`, plus pyvista views when the
result can be drawn); and how its quantities are measured. Before the cases: a summary
table and, for every validation case with two treatments or more, the kinetic-energy
comparison (Figure 6-a of SDNV105).
After them: the versions of the stack. Nothing here knows a case by name.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rocking_contact import results
from rocking_contact.provenance import NOT_LOADED, stack_versions
from rocking_contact.report.document import (
    MISSING,
    Cell,
    Document,
    Figure,
    Paragraph,
    Section,
    Table,
    num,
    number,
)
from rocking_contact.report.parameters import parameter_rows

CHECK_HEADER = ["quantity", "reference", "source", "ours", "rel. error", "tolerance", "pass",
                "note"]
PASS_TEXT = {True: "pass", False: "FAIL", None: "info"}

#: figure stem -> caption
CAPTIONS: dict[str, str] = {
    "kinetic_energy": "Kinetic energy against time. Markers: the collision references "
                      "(instant and energy of the kinetic-energy maximum before each impact), "
                      "one shape per source; dots: our collision instants.",
    "displacement": "Displacements against time; dashed lines and markers: references.",
    "velocity": "Velocities against time; dashed lines and markers: references.",
    "reactions": "Normal (RN) and tangential (RX) contact reactions at the block corners.",
    "shock_force": "Shock forces against time; grey bands: our impacts; markers: the "
                   "references' instant and value of the largest force of each impact.",
    "energy_balance": "Energy terms (top) and the energy-balance residual (bottom).",
    "impact_histogram": "Histogram of the largest normal force of each impact.",
    "view": "The result as rocking-contact view draws it (displacements amplified).",
}

#: timing key -> row label
TIMING_LABELS = {"wall_s": "wall time (s)", "steps": "time steps",
                 "newton_iterations": "Newton iterations"}
#: ``extra`` entries with a table or a figure of their own
EXTRA_SHOWN_ELSEWHERE = frozenset({"fields", "impact_statistics", "node_positions", "versions"})


class ReportError(ValueError):
    """Nothing to report on, or a case without results (one line for the user)."""


@dataclass
class CaseResult:
    """A results directory, read.

    Attributes:
        key: what tells this result from the others of the report: its HTML ids and its
            figures directory (the case name, unless another directory holds a run of the
            same case; see :func:`assign_keys`).
        label: its title in the report (the case name, with its directory if the name is
            not enough).

    """

    directory: Path
    data: dict[str, Any]
    history: dict[str, np.ndarray]
    key: str = ""
    label: str = ""

    def __post_init__(self) -> None:
        self.key, self.label = self.key or self.name, self.label or self.name

    @property
    def name(self) -> str:
        """The case name."""
        return str(self.data["case"])


def _slug(text: str) -> str:
    """``text`` reduced to characters safe in an HTML id and a file name."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "x"


def assign_keys(found: Sequence[CaseResult]) -> None:
    """Give every result a unique key and label.

    Two directories may hold runs of one case (``results/sdnd100a`` and a variant run
    written to ``results/sdnd100a_step1e-4``): keyed by the case name alone they would
    share their ids and their figures directory. Those get ``<case>--<directory name>``
    (a number appended if that is still taken) and their directory in their label.
    """
    shared = {name for name, n in Counter(r.name for r in found).items() if n > 1}
    taken: set[str] = set()
    for r in found:
        key = r.name
        if r.name in shared:
            key = r.name if r.directory.name == r.name else f"{r.name}--{_slug(r.directory.name)}"
        base, k = key, 2
        while key in taken:
            key, k = f"{base}-{k}", k + 1
        taken.add(key)
        r.key = key
        r.label = f"{r.name} ({r.directory})" if r.name in shared else r.name


def find_results(results_dir: Path, cases: Sequence[str] = ()) -> list[CaseResult]:
    """The results to report on: the named cases (names or directories), else every
    ``<results_dir>/*/results.json``.

    Raises:
        ReportError: a named case has no results, or there are none at all.
        rocking_contact.config.CaseError: a results.json or history.csv that is not what a
            run writes.

    """
    if cases:
        dirs = []
        for case in cases:
            path = Path(case)
            if not (path / results.RESULTS_FILE).is_file():
                named = results_dir / case
                if (named / results.RESULTS_FILE).is_file():
                    path = named
                elif path.exists():  # a path the user gave: name it, not results/<case>
                    raise ReportError(f"{path}: no {results.RESULTS_FILE} (not a results "
                                      "directory)")
                else:
                    raise ReportError(f"{case}: no results in {named} "
                                      f"(run `rocking-contact run {case}` first)")
            dirs.append(path)
        dirs = list({d.resolve(): d for d in dirs}.values())  # a directory named twice: once
    else:
        dirs = sorted(p.parent for p in Path(results_dir).glob(f"*/{results.RESULTS_FILE}"))
        if not dirs:
            raise ReportError(f"{results_dir}: no results (run `rocking-contact validate` first)")
    found = [CaseResult(d, *results.load(d)) for d in dirs]  # one line if bad
    assign_keys(found)
    return found


def counts(checks: Sequence[Mapping[str, Any]]) -> tuple[int, int, int]:
    """Checks that pass, fail, and are informational."""
    marks = [c.get("passed") for c in checks]
    return marks.count(True), marks.count(False), marks.count(None)


def verdict(data: Mapping[str, Any]) -> str:
    """``PASS``, ``FAIL``, ``RUN FAILED`` or ``NO CHECK``."""
    if data.get("status", "completed") != "completed":
        return "RUN FAILED"
    passed, failed, _ = counts(data.get("checks") or [])
    if failed:
        return "FAIL"
    return "PASS" if passed else "NO CHECK"


def tolerance_text(check: Mapping[str, Any]) -> str:
    """The pass mark in words: ``0.001 rel``, ``0.5 abs``, ``1 step (0.0005 s)``."""
    tol = check.get("tolerance")
    if tol is None:
        return "none"
    kind = check.get("tolerance_kind", "relative")
    if kind == "relative":
        return f"{tol:g} rel"
    if kind == "steps":
        return f"{tol:g} step{'s' if tol != 1 else ''} ({number(check.get('abs_tolerance'), 4)} s)"
    return f"{tol:g} abs"


def checks_table(case: str, checks: Sequence[Mapping[str, Any]]) -> Table:
    """The comparison with the references, one row per check."""
    rows = []
    for c in checks:
        rel = c.get("rel_error")
        rows.append([
            Cell(c["quantity"], "code"), num(c.get("reference")), Cell(c.get("source", "")),
            num(c.get("value")),
            Cell(f"{rel:.2e}" if isinstance(rel, float) and math.isfinite(rel) else MISSING,
                 "num"),
            Cell(tolerance_text(c)), Cell(PASS_TEXT[c.get("passed")],
                                          {True: "pass", False: "fail", None: "info"}[
                                              c.get("passed")]),
            Cell(c.get("note") or ""),
        ])
    return Table(f"checks-{case}", "Comparison with the references", CHECK_HEADER, rows)


def run_table(case: str, data: Mapping[str, Any]) -> Table:
    """Status, steps, iterations, wall time and the other timing figures of the run."""
    rows = [[Cell("status"), Cell(str(data.get("status", "?")))]]
    timing = data.get("timing") or {}
    keys: list[str] = ([k for k in TIMING_LABELS if k in timing]
                       + [k for k in timing if k not in TIMING_LABELS])
    rows += [[Cell(TIMING_LABELS.get(k, k)), num(timing[k], 4)] for k in keys]
    rows += [[Cell(key), Cell(text, "num")] for key, text in _short_entries(
        {k: v for k, v in (data.get("extra") or {}).items() if k not in EXTRA_SHOWN_ELSEWHERE})]
    return Table(f"run-{case}", "Run", ["", "value"], rows)


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


def collisions_table(case: str, collisions: Sequence[Mapping[str, Any]]) -> Table:
    """Our collisions, with every field the run records (index, time, kinetic energy...)."""
    keys = list(dict.fromkeys(k for c in collisions for k in c))
    header = ["k" if k == "index" else f"{k} ({COLLISION_UNITS[k]})" if k in COLLISION_UNITS
              else k for k in keys]
    rows = [[num(c.get(k)) if not isinstance(c.get(k), str) else Cell(c[k]) for k in keys]
            for c in collisions]
    return Table(f"collisions-{case}", "Collisions (kinetic-energy maximum before each impact)",
                 header, rows)


IMPACT_FIELDS = (("start", "start (s)"), ("t_max", "instant of max (s)"),
                 ("max_force", "max force (N)"), ("duration", "duration (s)"),
                 ("impulse", "impulse (N.s)"), ("speed", "impact speed (m/s)"))


def impacts_table(case: str, impacts: Sequence[Mapping[str, Any]]) -> Table:
    """Our impacts, one row per impact of each shock."""
    rows = [[Cell(str(i.get("shock", ""))), num(i.get("index"))]
            + [num(i.get(key)) for key, _ in IMPACT_FIELDS] for i in impacts]
    return Table(f"impacts-{case}", "Impacts", ["shock", "k"] + [h for _, h in IMPACT_FIELDS],
                 rows)


def impact_statistics_table(case: str, stats: Mapping[str, Mapping[str, Any]]) -> Table:
    """Per shock: number of impacts, largest, mean and standard deviation of the maxima."""
    rows = [[Cell(name), Cell(str(s.get("node", ""))), num(s.get("count")),
             num(s.get("max_abs_force")), num(s.get("mean_max_force")),
             num(s.get("std_max_force"))] for name, s in stats.items()]
    return Table(f"impact-statistics-{case}", "Impact statistics",
                 ["shock", "node", "impacts", "largest force (N)", "mean of maxima (N)",
                  "std of maxima (N)"], rows)


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


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def parameters_table(case: str, params: Mapping[str, Any]) -> Table:
    """The resolved parameters of the run."""
    rows = [[Cell(k, "code"), Cell(v, "num" if _is_number(v) else ""), Cell(u)]
            for k, v, u in parameter_rows(params)]
    return Table(f"parameters-{case}", "Model and parameters (resolved case)",
                 ["key", "value", "unit"], rows, collapsed=True)


def _view_time(data: Mapping[str, Any]) -> float | None:
    """Instant worth a picture: the first collision, else the first impact's maximum."""
    for c in data.get("collisions") or []:
        if c.get("time") is not None:
            return float(c["time"])
    for i in data.get("impacts") or []:
        if i.get("t_max") is not None:
            return float(i["t_max"])
    return None


def view_figures(result: CaseResult, out_dir: Path) -> list[Figure | Paragraph]:
    """Pictures of the result (pyvista) at its start and at its first event (else its end),
    or why there are none."""
    from rocking_contact.viz import render

    try:
        scene = render.open_scene(result.directory)
    except render.ViewError:
        return []  # nothing this viewer draws
    event = _view_time(result.data)
    instants = {"start": scene.t_start}
    if event is not None and scene.t_start < event <= scene.t_end:
        instants["event"] = event
    elif scene.t_end > scene.t_start:
        instants["end"] = scene.t_end
    out_dir.mkdir(parents=True, exist_ok=True)
    out: list[Figure | Paragraph] = []
    for label, t in instants.items():
        path = out_dir / f"view_{label}.png"
        try:
            render.screenshot(render.open_scene(result.directory), path, time=t,
                              window_size=(800, 800))
        except Exception as exc:  # noqa: BLE001  (a machine without OpenGL still gets a report)
            return [Paragraph(f"No 3D view: rendering failed ({exc}).")]
        what = {"start": "start of the run", "event": "first collision or impact",
                "end": "end of the run"}[label]
        out.append(Figure(path, f"{CAPTIONS['view']} At the {what}, t = {t:.5g} s."))
    return out


def case_section(result: CaseResult, figures_dir: Path, *, views: bool) -> Section:
    """Everything the report says about one case."""
    data, case = result.data, result.key
    info = (data.get("parameters") or {}).get("case") or {}
    passed, failed, info_only = counts(data.get("checks") or [])
    blocks: list[Any] = []
    if info.get("title"):
        blocks.append(Paragraph(info["title"]))
    if info.get("description"):
        blocks.append(Paragraph(" ".join(info["description"].split())))
    blocks.append(Paragraph(
        f"Kind: {data.get('kind', '?')}. Status: {data.get('status', '?')}. "
        f"Checks: {passed} pass, {failed} fail, {info_only} for information. "
        f"Results: {result.directory}."))
    blocks += [Paragraph(f"Warning: {w}") for w in data.get("warnings") or []]
    blocks.append(Paragraph(stack_note(data.get("stack"), dict(stack_versions()))))
    blocks.append(parameters_table(case, data.get("parameters") or {}))
    if data.get("checks"):
        blocks.append(checks_table(case, data["checks"]))
    if data.get("collisions"):
        blocks.append(collisions_table(case, data["collisions"]))
    if data.get("impacts"):
        blocks.append(impacts_table(case, data["impacts"]))
    stats = (data.get("extra") or {}).get("impact_statistics")
    if stats:
        blocks.append(impact_statistics_table(case, stats))
    blocks.append(run_table(case, data))
    blocks += figures(result, figures_dir / case, views=views)
    specs = (data.get("parameters") or {}).get("quantity") or []
    if specs:
        blocks.append(quantities_table(case, specs))
    return Section(f"case-{case}", result.label, blocks, badge=verdict(data))


def figures(result: CaseResult, out_dir: Path, *, views: bool) -> list[Figure | Paragraph]:
    """The case's plots (PNG; their SVG twins are written beside them) and its view."""
    from rocking_contact.viz.history_plots import plot_results

    written = [p for p in plot_results(result.data, result.history, out_dir)
               if p.suffix == ".png"]
    out: list[Figure | Paragraph] = [Figure(p, CAPTIONS.get(p.stem, p.stem)) for p in written]
    if views:
        out += view_figures(result, out_dir)
    return out


def run_status(data: Mapping[str, Any]) -> str:
    """The run's status, and what makes it another run than its case file's: ended before
    the file's end, or graded on nothing because it changes the physics."""
    checks = data.get("checks") or []
    status = str(data.get("status", ""))
    ended = next((c["note"] for c in checks
                  if str(c.get("note", "")).startswith("not reached")), None)
    changed = next((c["note"] for c in checks
                    if str(c.get("note", "")).startswith("not graded")), None)
    extra = [text.partition(": ")[2] for text in (ended, changed) if text]
    return f"{status} ({'; '.join(extra)})" if extra else status


def summary_table(cases: Sequence[CaseResult]) -> Table:
    """One row per case: kind, status, check counts, wall time, verdict."""
    rows = []
    for r in cases:
        passed, failed, info_only = counts(r.data.get("checks") or [])
        v = verdict(r.data)
        rows.append([Cell(r.label, link=f"case-{r.key}"),
                     Cell(str(r.data.get("kind", ""))),
                     Cell(run_status(r.data)), num(passed), num(failed),
                     num(info_only), num((r.data.get("timing") or {}).get("wall_s"), 4),
                     Cell(v, "pass" if v == "PASS" else "fail" if v != "NO CHECK" else "info")])
    return Table("summary", "Summary", ["case", "kind", "status", "checks passed",
                                        "checks failed", "informational", "wall time (s)",
                                        "verdict"], rows)


def comparison_section(cases: Sequence[CaseResult], figures_dir: Path) -> Section | None:
    """The kinetic-energy comparison of every validation case with several treatments."""
    from rocking_contact.viz.comparison import comparable_groups, compare_kinetic_energy

    groups = comparable_groups([(r.data, r.history) for r in cases])
    if not groups:
        return None
    label = {id(r.data): r.label for r in cases}  # two runs of one case differ by directory
    blocks: list[Any] = []
    for name, members in groups.items():
        labels = [label[id(d)] for d, _ in members]
        png = next(p for p in compare_kinetic_energy(name, members, figures_dir, labels=labels)
                   if p.suffix == ".png")
        blocks.append(Figure(png, f"{name.upper()}: kinetic energy of the block for "
                                  f"{len(members)} treatments ({', '.join(labels)}), "
                                  "with the collision references of every source."))
    return Section("comparisons", "Treatments compared", blocks)


def stack_note(run: dict[str, str] | None, report: dict[str, str]) -> str:
    """One sentence on the stack a run was computed with, against the report's own."""
    if not run:
        return "Stack: not recorded by this run (results written before runs recorded it)."
    differ = [f"{name} {version} (report: {report.get(name, 'absent')})"
              for name, version in run.items()
              if version != NOT_LOADED and report.get(name) != version]
    if not differ:
        return "Stack: the run was computed with the versions listed at the end of the report."
    return "Stack: the run was computed with another stack: " + "; ".join(differ) + "."


def versions_section() -> Section:
    """The stack that made this report."""
    rows = [[Cell(name), Cell(version)] for name, version in stack_versions()]
    return Section("versions", "Software stack", [
        Paragraph("Versions of the software this report was made with. Every run records "
                  "its own in results.json (stack); a case computed with other versions "
                  "says so in its section."),
        Table("stack-versions", "Versions", ["component", "version"], rows)])


def build(cases: Sequence[CaseResult], figures_dir: Path, *, views: bool = True) -> Document:
    """The whole report for ``cases``; figures are written under ``figures_dir``."""
    intro: list[Any] = [
        Paragraph(f"{len(cases)} case(s). Each case below puts our computed quantities next "
                  "to their references (analytic solutions, Code_Aster, LMGC90...), with the "
                  "relative error and the pass mark; 'info' rows have no pass mark."),
        summary_table(cases)]
    sections = []
    comparison = comparison_section(cases, figures_dir)
    if comparison is not None:
        sections.append(comparison)
    sections += [case_section(r, figures_dir, views=views) for r in cases]
    sections.append(versions_section())
    return Document("rocking_contact validation report", intro, sections)
