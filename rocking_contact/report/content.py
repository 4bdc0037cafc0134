"""What the validation report says, built from results directories: its opening and its
sections, in the order a reader meets them.

Before the cases: when and from which commit the report was made
(:func:`.provenance.generated_text`), its verdict in one line
(:func:`.verdicts.headline`), a summary table (:func:`.verdicts.summary_table`), the
results directories that could not be read (:mod:`.inputs`) and, for every validation case
with two treatments or more, the kinetic-energy comparison (Figure 6-a of SDNV105).
For each case (:func:`case_section`): the ``--set`` overrides it was run with, its case
file's title and description (marked as the file's when the run was not the file as
written) and its verdict; where it came from (:mod:`.provenance`); its tables
(:mod:`.case_tables`: parameters, the comparison with the references, how its quantities
are measured, events, collisions or impacts, steps and wall time); its figures
(:mod:`.figures`), the solver's diagnostics folded under a heading of their own.
After them: the versions of the stack. Nothing here knows a case by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rocking_contact.post.collisions import interior
from rocking_contact.post.references import unreferenced
from rocking_contact.provenance import checkout, package_version, stack_versions, utc_now
from rocking_contact.report.case_tables import (
    checks_table,
    collisions_table,
    events_table,
    impact_statistics_table,
    impacts_table,
    not_collisions,
    parameters_table,
    quantities_table,
    rigid_table,
    rigid_unmatched,
    run_table,
    sustained_contacts_table,
)
from rocking_contact.report.document import Cell, Document, Figure, Group, Paragraph, Section, Table
from rocking_contact.report.figures import DIAGNOSTICS_HEADING, drawn_plots, figures, is_diagnostic
from rocking_contact.report.inputs import CaseResult, Skipped
from rocking_contact.report.parameters import kind_not_read
from rocking_contact.report.provenance import (
    generated_text,
    overrides_text,
    provenance_block,
    stack_note,
)
from rocking_contact.report.verdicts import (
    checks_text,
    headline,
    run_status,
    summary_table,
    verdict,
)
from rocking_contact.results import counted, wrote_no_results
from rocking_contact.viz.changes import changes_text, unread_recorded


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
    elif any(wrote_no_results(str(r.data.get("status", ""))) for r in cases):
        # killed and aborted runs hold their references in their parameters, ungraded
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
    intro += [Paragraph(opening if graded else f"{counted(len(cases), 'case')}. {opening}"),
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
        blocks += [rigid_table(case, rigid), *rigid_unmatched(rigid)]
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
    (:func:`.provenance.overrides_text`), what it changes of its case file's physics, and
    the file's title and description, marked as the file's when the run was not the file
    as written (unmarked, ``sdnv105d --set mesh.layout=structured`` would be described as
    "coarse Code_Aster mesh, 25 nodes, 12 quadrilaterals", its overrides two rows deep in
    the parameters)."""
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


def versions_section() -> Section:
    """The stack that made this report."""
    rows = [[Cell(name), Cell(version)] for name, version in stack_versions()]
    return Section("versions", "Software stack", [
        Paragraph("Versions of the software this report was made with. Every run records "
                  "its own in results.json (stack); a case computed with other versions "
                  "says so in its section."),
        Table("stack-versions", "Versions", ["component", "version"], rows)])
