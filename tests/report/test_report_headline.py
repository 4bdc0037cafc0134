"""What a reader sees first: when and from which commit the report was made, the verdict
counted in one line, the worst graded miss per case, and the graded checks before the
information rows (P1 audit #1, #4, #5, #15)."""

import re
import subprocess
from pathlib import Path

import html5lib

from rocking_contact.post.references import MISSES
from rocking_contact.provenance import checkout
from rocking_contact.report import content, html, markdown
from rocking_contact.report.case_tables import checks_table
from rocking_contact.report.cli import MARKDOWN_FILE
from rocking_contact.report.document import Document, Figure, Group, Paragraph
from rocking_contact.report.figures import DIAGNOSTICS_HEADING, DIAGNOSTICS_TEXT, is_diagnostic
from rocking_contact.report.inputs import CaseResult
from rocking_contact.report.meta import REPORT_INDEX
from rocking_contact.report.verdicts import headline, summary_table, worst_miss


def _check(quantity, reference, value, tolerance=None, kind="relative", note=""):
    passed = None
    if tolerance is not None:
        error = value - reference if kind == "absolute" else (value - reference) / abs(reference)
        passed = abs(error) <= tolerance
    return {"quantity": quantity, "reference": reference, "value": value,
            "abs_error": abs(value - reference),
            "rel_error": abs(value - reference) / abs(reference), "tolerance": tolerance,
            "tolerance_kind": kind if tolerance is not None else None, "abs_tolerance": None,
            "source": "a source", "passed": passed, "note": note}


def _case(name, checks, status="completed"):
    return CaseResult(Path(name), {"case": name, "kind": "block", "status": status,
                                   "checks": checks}, {})


EXPLAINED = f"mark 1 % (issue 4); {MISSES} the release: docs/contact.md"
#: a failing relative check (+14.5 %, mark 1 %), another (-18.6 %, mark 2 %: 9.3 marks,
#: less than 14.5), a band missed by 0.0035, a passing one and an information row
CHECKS = [_check("rn_max_O", 3579.25, 4096.53, 0.01, note=EXPLAINED),
          _check("rx_min_O", -1149.79, -1364.06, 0.02, note="issue 4: within 2%"),
          _check("collision.5.time", 0.2824479419, 0.30285, 0.0169215581, "absolute"),
          _check("dy_max_A", 0.0036, 0.0035999, 0.005),
          _check("dy_max_A", 0.00359997, 0.0035999)]


def test_the_headline_counts_cases_and_failed_checks_and_says_which_are_explained():
    passing = _case("ok", [CHECKS[3]])
    explained = _case("a", [CHECKS[0], CHECKS[3]])
    unexplained = _case("b", CHECKS)
    short = _case("c", [{**CHECKS[3], "passed": False,
                         "note": "not reached: the run ends at t = 0.06 s"}])
    assert headline([passing, explained]) == (
        "1 of 2 cases pass; 1 fail (1 check), each miss explained in its case section.")
    assert headline([passing, explained, unexplained, short]) == (
        "1 of 4 cases pass; 2 fail (4 checks), 2 of them not explained by their note; "
        "1 incomplete.")
    assert headline([passing]) == "1 of 1 case pass."


def test_the_summary_shows_the_worst_graded_miss_and_calls_the_rigid_block_not_graded():
    assert worst_miss(CHECKS) == "rn_max_O +14.5 % (mark 1 %)"
    assert worst_miss(CHECKS[2:]) == "collision.5.time 3.48e-03 outside [0.265526, 0.29937]"
    assert worst_miss(CHECKS[3:]) == ""
    table = summary_table([_case("a", CHECKS), _case("ok", CHECKS[3:])])
    header = table.header
    miss = table.rows[0][header.index("worst miss (graded)")]
    assert (miss.text, miss.link) == ("rn_max_O +14.5 % (mark 1 %)", "checks-a")
    assert table.rows[1][header.index("worst miss (graded)")].text == "—"
    assert "not graded" in next(h for h in header if "rigid block" in h)


def test_graded_checks_come_first_and_the_information_rows_are_collapsed():
    graded, info = checks_table("a", CHECKS, {"rx_max_A_late": 1140.2})
    assert [r[0].text for r in graded.rows] == [
        "rn_max_O", "rx_min_O", "collision.5.time", "dy_max_A"]
    assert not graded.collapsed and info.collapsed and info.id == "checks-info-a"
    assert [r[0].text for r in info.rows] == ["dy_max_A", "rx_max_A_late"]
    cells = {r[0].text: [c.text for c in r] for r in graded.rows}
    # relative errors and marks in percent, signed; a band's reference is the band
    assert cells["rn_max_O"][4:6] == ["+14.5 %", "1 %"]
    assert cells["rx_min_O"][4] == "-18.6 %"
    assert cells["collision.5.time"][1] == "[0.265526, 0.29937]"
    assert cells["rn_max_O"][7] == EXPLAINED  # the FAIL row says why
    # nothing graded: one table, as before
    (alone,) = checks_table("b", CHECKS[4:], {})
    assert alone.id == "checks-b" and not alone.collapsed


def test_the_page_opens_with_when_and_from_which_commit_then_the_verdict(report_dir):
    page = (report_dir / REPORT_INDEX).read_text(encoding="utf-8")
    tree = html5lib.HTMLParser(namespaceHTMLElements=False).parse(page)
    first, second = ("".join(p.itertext()) for p in tree.findall(".//body/p")[:2])
    assert re.match(r"Generated \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00 by "
                    r"rocking-contact \S+, ", first)
    repository = checkout()
    if repository and repository.get("commit"):  # the checkout's, at the time (HEAD may move)
        shown = re.search(r", commit ([0-9a-f]{12})", first).group(1)
        subprocess.run(["git", "-C", repository["root"], "merge-base", "--is-ancestor", shown,
                        "HEAD"], check=True)
    else:
        assert "not from a git checkout" in first or "commit unknown" in first
    assert re.match(r"\d of 6 cases pass[.;]", second)  # the fixture's six runs
    # the information rows: collapsed in the page, under a sub-heading in the Markdown
    info = tree.find(".//details/table[@id='checks-info-sdnd101a']")
    assert info is not None
    markdown = (report_dir / MARKDOWN_FILE).read_text(encoding="utf-8")
    assert "\n### For information (no pass mark): " in markdown
    assert markdown.index("**Comparison with the references (graded") < markdown.index(
        "### For information (no pass mark): ")


def test_the_run_table_and_the_solver_diagnostics_are_folded_away(report_dir, monkeypatch,
                                                                  tmp_path):
    """The 40-row Run table and the solver's diagnostic plots (time step, iterations,
    contacts, smallest gap) are opened on a click in the page, and stand under their own
    sub-heading in the Markdown; the quantities' definitions follow the checks."""
    page = (report_dir / REPORT_INDEX).read_text(encoding="utf-8")
    tree = html5lib.HTMLParser(namespaceHTMLElements=False).parse(page)
    assert tree.find(".//details/table[@id='run-sdnv105_sample']") is not None
    ids = [t.get("id") for t in tree.find(".//section[@id='case-sdnv105_rigid']").iter("table")]
    assert ids.index("quantities-sdnv105_rigid") == ids.index("checks-info-sdnv105_rigid") + 1
    assert "\n### Run\n" in (report_dir / MARKDOWN_FILE).read_text(encoding="utf-8")
    # a block run's figures: the diagnostics (the paragraph that opens them, their plots)
    # folded together after the others
    png = tmp_path / "a.png"
    png.write_bytes((report_dir / "figures" / "sdnd101a" / "shock_force.png").read_bytes())
    drawn = [Figure(png, "kinetic energy"), Paragraph(DIAGNOSTICS_TEXT),
             Figure(tmp_path / "history_DT.png", "time step"),
             Figure(tmp_path / "history_NEWTON.png", "Newton iterations")]
    assert [is_diagnostic(b) for b in drawn] == [False, True, True, True]
    monkeypatch.setattr(content, "figures", lambda *a, **k: drawn)
    section = content.case_section(_case("a", CHECKS), tmp_path, views=False)
    groups = [b for b in section.blocks if isinstance(b, Group)]
    assert [(g.title, list(g.blocks)) for g in groups] == [(DIAGNOSTICS_HEADING, drawn[1:])]
    assert drawn[0] in section.blocks and drawn[1] not in section.blocks
    for figure in drawn[2:]:
        figure.path.write_bytes(png.read_bytes())
    doc = Document("t", [], [section])
    folded = [d for d in html5lib.HTMLParser(namespaceHTMLElements=False).parse(
        html.render(doc)).iter("details") if d.find("summary").text == DIAGNOSTICS_HEADING]
    assert len(folded) == 1 and len(folded[0].findall(".//img")) == 2
    assert f"\n### {DIAGNOSTICS_HEADING}\n\n{DIAGNOSTICS_TEXT}\n" in markdown.render(doc, tmp_path)
