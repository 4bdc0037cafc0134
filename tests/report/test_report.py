"""The validation report: valid, self-contained HTML whose tables say what results.json says."""

import base64
import io
import math
import re

import html5lib
import pytest
from PIL import Image

from rocking_contact import results_io
from rocking_contact.cli import main
from rocking_contact.config import shipped_cases
from rocking_contact.post.references import NO_REFERENCE, unreferenced
from rocking_contact.report.case_tables import tolerance_text
from rocking_contact.report.cli import MARKDOWN_FILE, write_report
from rocking_contact.report.inputs import ReportError
from rocking_contact.report.meta import REPORT_INDEX


def parse_html(text):
    """Strict HTML5 parsing: any parse error raises."""
    return html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(text)


@pytest.fixture(scope="module")
def page(report_dir):
    return (report_dir / REPORT_INDEX).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def tree(page):
    return parse_html(page)


def table(tree, table_id):
    """Header and body rows (cell texts) of the table with this id."""
    node = tree.find(f".//table[@id='{table_id}']")
    assert node is not None, table_id
    header = ["".join(th.itertext()) for th in node.findall("./thead/tr/th")]
    rows = [["".join(td.itertext()) for td in tr.findall("td")]
            for tr in node.findall("./tbody/tr")]
    return header, rows


def shown(text, value, digits=7):
    """True when ``text`` is ``value`` written with ``digits`` significant digits."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return text == "—"
    return math.isclose(float(text), value, rel_tol=0.5 * 10 ** (1 - digits), abs_tol=1e-300)


def all_results(results_dir):
    return {p.name: results_io.load(p)[0] for p in sorted(results_dir.iterdir())}


def test_html_is_valid_html5(page, tree):
    parse_html(page)
    # what the parser does not check: unique ids, a language, a title
    ids = [el.get("id") for el in tree.iter() if el.get("id")]
    assert len(ids) == len(set(ids))
    assert tree.get("lang") == "en" and tree.find("./head/title").text
    with pytest.raises(html5lib.html5parser.ParseError):  # the check can fail
        parse_html("<!DOCTYPE html><html><head><title>x</title></head>"
                   "<body><table><tr><td>1</td></table></p></body></html>")


def test_html_needs_no_network(page, tree):
    assert not re.search(r"<script|<link|@import|url\(", page, re.IGNORECASE)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page, re.IGNORECASE)
    images = tree.findall(".//img")
    assert len(images) >= 10
    for img in images:
        src = img.get("src")
        assert src.startswith("data:image/png;base64,") and img.get("alt")
        Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))).verify()
    for link in tree.findall(".//a"):
        assert link.get("href").startswith("#")
        assert tree.find(f".//*[@id='{link.get('href')[1:]}']") is not None


def error_shown(text, check):
    """True when the error cell ``text`` is results.json's error of ``check`` measured as
    its tolerance measures it, signed (ours - reference): the relative error in percent
    (``+14.5 %``; for no tolerance too; ``abs`` for a reference 0), the absolute error
    ``abs``, or the error in the run's time steps (``abs_tolerance`` is ``tolerance`` of
    them; the relative error without it)."""
    if check["value"] is None:
        return text == "—"
    number, word = text.split()
    kind = check["tolerance_kind"] if check["tolerance"] is not None else "relative"
    if check["reference"] == 0:
        kind = "absolute"
    if kind == "steps" and check["abs_tolerance"] is None:
        kind = "relative"
    if kind == "relative":
        size = 100 * check["rel_error"]
    elif kind == "absolute":
        size = check["abs_error"]
    else:
        size = check["abs_error"] * check["tolerance"] / check["abs_tolerance"]
    sign = math.copysign(1.0, check["value"] - check["reference"])
    words = {"relative": ("%",), "absolute": ("abs",), "steps": ("steps", "step")}[kind]
    return word in words and shown(number, sign * size, digits=3) and number[0] in "+-"


def reference_shown(text, check):
    """A graded check with an absolute tolerance shows the band it passes in, ``[lo,
    hi]``; any other its reference."""
    if check["passed"] is None or check["tolerance_kind"] != "absolute":
        return shown(text, check["reference"])
    lo, hi = text.strip("[]").split(", ")
    return (shown(lo, check["reference"] - check["tolerance"], digits=6)
            and shown(hi, check["reference"] + check["tolerance"], digits=6))


def test_comparison_tables_match_results_json(tree, results_dir):
    kinds, information = set(), 0
    for case, data in all_results(results_dir).items():
        header, rows = table(tree, f"checks-{case}")
        assert header == ["quantity", "reference", "source", "ours", "error",
                          "tolerance", "pass", "note"]
        # the graded checks first; the information rows after them, in a table of their
        # own: the references without pass mark, then the case's [[quantity]] entries
        # without reference
        graded = [c for c in data["checks"] if c["passed"] is not None]
        info = [c for c in data["checks"] if c["passed"] is None]
        alone = unreferenced(data["parameters"].get("quantity"), data["quantities"],
                             data["checks"])
        if graded and (info or alone):
            info_header, info_rows = table(tree, f"checks-info-{case}")
            assert info_header == header
            rows += info_rows
        else:
            assert tree.find(f".//table[@id='checks-info-{case}']") is None
        assert len(rows) == len(data["checks"]) + len(alone) and data["checks"]
        information += len(alone)
        for row, (name, value) in zip(rows[len(data["checks"]):], alone.items(), strict=True):
            assert row[:3] == [name, "—", NO_REFERENCE] and shown(row[3], value)
            assert row[4:7] == ["—", "none", "info"]
        for row, check in zip(rows, graded + info):
            quantity, ref, source, ours, error, tol, mark, note = row
            assert quantity == check["quantity"] and source == check["source"]
            assert reference_shown(ref, check) and shown(ours, check["value"])
            assert error_shown(error, check), (error, check)
            assert tol == tolerance_text(check)
            word, _, band = mark.partition(", ")
            assert word == {True: "pass", False: "FAIL", None: "info"}[check["passed"]]
            if (check["passed"] is not None and check["tolerance_kind"] == "absolute"
                    and check["value"] is not None):
                margin, side = band.split()
                assert side == ("inside" if check["passed"] else "outside")
                assert shown(margin, abs(check["tolerance"] - check["abs_error"]), digits=3)
            else:
                assert not band
            assert note == (check["note"] or "")
            kinds.add(check["tolerance_kind"] if check["tolerance"] is not None else None)
    assert kinds == {"relative", "absolute", "steps", None}  # every kind of cell was read
    assert information  # sdnv105_rigid_measured's theta_max


def test_event_and_run_tables_match_results_json(tree, results_dir):
    for case, data in all_results(results_dir).items():
        collisions = [c for c in data["collisions"] if c.get("interior", True)]
        if collisions:
            header, rows = table(tree, f"collisions-{case}")
            keys = list(dict.fromkeys(k for c in collisions for k in c if k != "interior"))
            assert len(header) == len(keys) and len(rows) == len(collisions)
            for row, collision in zip(rows, collisions):
                for text, key in zip(row, keys):
                    value = collision[key]
                    assert text == value if isinstance(value, str) else shown(text, value)
        if data["impacts"]:
            _, rows = table(tree, f"impacts-{case}")
            for row, impact in zip(rows, data["impacts"], strict=True):
                assert row[0] == impact["shock"] and int(row[1]) == impact["index"]
                keys = ("start", "end", "t_max", "max_force", "duration", "impulse", "speed",
                        "rebound_speed")
                for text, key in zip(row[2:-1], keys, strict=True):
                    assert shown(text, impact[key])
                assert row[-1] == str(impact["resolved"]).lower()
        for shock, stats in (data["extra"].get("impact_statistics") or {}).items():
            _, rows = table(tree, f"impact-statistics-{case}")
            row = next(r for r in rows if r[0] == shock)
            assert int(row[2]) == stats["count"] and shown(row[3], stats["max_abs_force"])
        for shock, contact in (data["extra"].get("sustained_contacts") or {}).items():
            _, rows = table(tree, f"sustained-contacts-{case}")
            row = next(r for r in rows if r[0] == shock)
            assert row[1] == contact["node"]
            for text, key in zip(row[2:], ("start", "end", "min_force", "max_force"),
                                 strict=True):
                assert shown(text, contact[key])
        _, rows = table(tree, f"run-{case}")
        run = dict(rows)
        assert run["status"] == data["status"]
        assert int(run["time steps"]) == data["timing"]["steps"]
        assert shown(run["wall time (s)"], data["timing"]["wall_s"], digits=4)
        if "newton_iterations" in data["timing"]:
            assert int(run["Newton iterations"]) == data["timing"]["newton_iterations"]
        if "compile_s" in data["timing"]:  # a discrete run's numba kernels, named
            assert shown(run["numba compilation, not in the wall time (s)"],
                         data["timing"]["compile_s"], digits=4)


def test_summary_counts_each_case(tree, results_dir):
    _, rows = table(tree, "summary")
    everything = all_results(results_dir)
    assert [r[0] for r in rows] == list(everything)
    for row in rows:
        checks = everything[row[0]]["checks"]
        marks = [c["passed"] for c in checks]
        unreached = sum(c["passed"] is False and c["note"].startswith("not reached")
                        for c in checks)
        assert [int(x) for x in row[3:7]] == [marks.count(True),
                                              marks.count(False) - unreached, unreached,
                                              marks.count(None)]
        assert row[8] == ("FAIL" if False in marks else "PASS")


def test_parameters_with_units_and_stack_versions(tree):
    _, rows = table(tree, "parameters-sdnd101a")
    params = {r[0]: (r[1], r[2]) for r in rows}
    assert params["model.shock[NO1].kn"] == ("1000000", "N/m")
    assert params["time.step"] == ("0.0005", "s")
    assert not any(k.startswith(("reference", "quantity", "case.")) for k in params)
    _, rows = table(tree, "stack-versions")
    versions = dict(rows)
    for component in ("Python", "numpy", "dolfinx (dolfinx-solver-real)", "PETSc (library)",
                      "gmsh", "pyvista", "vtk", "matplotlib"):
        assert versions[component] not in ("", "not installed"), component


def test_sdnv105_treatments_share_one_figure(tree, report_dir):
    section = tree.find(".//section[@id='comparisons']")
    assert section is not None
    caption = "".join(section.find(".//figcaption").itertext())
    for case in ("sdnv105_rigid", "sdnv105_sample", "sdnv105_sample_b"):
        assert case in caption
    assert caption.endswith(", with the collision references of every source.")
    assert (report_dir / "figures" / "sdnv105_kinetic_energy.svg").is_file()


def test_case_sections_embed_every_figure_they_made(tree, report_dir, results_dir):
    expected = {"sdnd101a": {"shock_force", "impact_histogram", "view_start", "view_event"},
                "sdnv105_sample": {"kinetic_energy", "reactions", "energy_balance",
                                   "view_start", "view_event"}}
    for case in all_results(results_dir):
        pngs = sorted((report_dir / "figures" / case).glob("*.png"))
        assert expected.get(case, set()) <= {p.stem for p in pngs}
        section = tree.find(f".//section[@id='case-{case}']")
        embedded = [base64.b64decode(img.get("src").split(",", 1)[1])
                    for img in section.findall(".//img")]
        assert sorted(embedded) == sorted(p.read_bytes() for p in pngs)


def markdown_tables(text):
    """Caption -> rows of cell texts of the Markdown tables, in order of appearance: a
    caption in bold, or a sub-heading for a table the page collapses."""
    tables, caption = [], None
    for block in text.split("\n\n"):
        lines = block.strip().splitlines()
        if len(lines) == 1 and lines[0].startswith("**") and lines[0].endswith("**"):
            caption = lines[0].strip("*")
        elif len(lines) == 1 and lines[0].startswith("### "):
            caption = lines[0].removeprefix("### ")
        elif lines and lines[0].startswith("|") and caption:
            rows = [[c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
                    for line in lines[2:]]
            tables.append((caption, rows))
    return tables


def test_markdown_twin_has_the_same_tables(report_dir, tree):
    md = (report_dir / MARKDOWN_FILE).read_text(encoding="utf-8")
    tables = markdown_tables(md)
    html_tables = tree.findall(".//table")
    assert len(tables) == len(html_tables)
    for (caption, rows), node in zip(tables, html_tables):
        assert caption == "".join(node.find("caption").itertext())
        html_rows = [[" ".join("".join(td.itertext()).split()) for td in tr.findall("td")]
                     for tr in node.findall("./tbody/tr")]
        linked = [[re.sub(r"^\[(.*)\]\(#.*\)$", r"\1", c) for c in r] for r in rows]
        assert linked == html_rows, caption
    for link in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md):
        assert (report_dir / link).is_file()


def test_comparison_needs_two_treatments(results_dir, tmp_path):
    page = write_report(["sdnd101a", "sdnv105_sample"], results_dir, tmp_path, views=False)
    tree = parse_html(page.read_text(encoding="utf-8"))
    assert tree.find(".//section[@id='comparisons']") is None
    assert [r[0] for r in table(tree, "summary")[1]] == ["sdnd101a", "sdnv105_sample"]


def test_missing_results_are_bad_input(results_dir, tmp_path, capsys):
    with pytest.raises(ReportError):
        write_report([], tmp_path / "empty", tmp_path / "r")
    assert main(["report", "nosuchcase", "--results", str(results_dir),
                 "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    # no case of that name: told so, not to run it (which run refuses)
    assert err == (f"error: nosuchcase: no results in {results_dir / 'nosuchcase'} "
                   "(nosuchcase is no shipped case or variant; allowed: a results directory, "
                   f"or the name of a case run into {results_dir}/<case>/)\n")
    assert main(["report", "sdnv105", "--results", str(results_dir),
                 "--out", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err.endswith("; close: sdnv105d, sdnv105c, sdnv105b)\n")
    assert main(["report", "sdnv105c", "--results", str(results_dir),
                 "--out", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err == (f"error: sdnv105c: no results in "
                                       f"{results_dir / 'sdnv105c'} (run `rocking-contact "
                                       "run sdnv105c` first)\n")


def test_runs_record_their_stack_and_the_report_compares_it(tree, results_dir):
    from rocking_contact.provenance import NOT_LOADED, stack_versions
    from rocking_contact.report.provenance import stack_note

    own = dict(stack_versions())
    for case, data in all_results(results_dir).items():
        assert data["stack"]["numpy"] == own["numpy"], case
        assert data["stack"]["rocking-contact"] == own["rocking-contact"], case
        text = "".join(tree.find(f".//section[@id='case-{case}']").itertext())
        assert "computed with the versions listed at the end of the report" in text, case
    other = dict(own, numpy="0.0.1", **{"PETSc (library)": NOT_LOADED})
    note = stack_note(other, own)
    assert f"numpy 0.0.1 (report: {own['numpy']})" in note and "PETSc" not in note
    assert "not recorded" in stack_note(None, own)


def test_each_case_says_where_it_came_from_and_how_to_run_it_again(tree, report_dir,
                                                                   results_dir):
    """Version and commit, when it ran and the rerun command with its directory, as
    results.json's provenance has them, in the page and its Markdown twin; the samples,
    written without provenance, say it was not recorded."""
    md = (report_dir / MARKDOWN_FILE).read_text(encoding="utf-8")
    for case, data in all_results(results_dir).items():
        prov = data.get("provenance")
        if not prov:
            assert tree.find(f".//table[@id='provenance-{case}']") is None, case
            text = "".join(tree.find(f".//section[@id='case-{case}']").itertext())
            assert "Provenance: not recorded by this run" in text, case
            continue
        commit = prov["checkout"]["commit"][:12]
        dirty = ", with uncommitted changes" if prov["checkout"]["dirty"] else ""
        rows = dict(table(tree, f"provenance-{case}")[1])
        assert rows == {
            "version": f"rocking-contact {prov['version']}, commit {commit}{dirty}",
            "ran (UTC)": f"{prov['started']} to {prov['ended']}",
            "rerun": prov["rerun"], "rerun in": prov["cwd"]}, case
        if case in shipped_cases():  # by its name; a case file of the test's by its path
            assert prov["rerun"] == (f"rocking-contact run {case} --out "
                                     f"{results_dir / case}"), case
        else:
            assert prov["rerun"].startswith("rocking-contact run /"), case
            assert prov["rerun"].endswith(f"/{case}.toml --out {results_dir / case}"), case
        assert f"| rerun | {prov['rerun']} |" in md, case
    assert any(d.get("provenance") for d in all_results(results_dir).values())


def test_a_run_without_rerun_says_why(results_dir, tmp_path):
    """No rerun command (a case changed after loading), a run not ended (killed), on two
    ranks, outside a git checkout: each said in words."""
    import json
    import shutil

    root = tmp_path / "results"
    shutil.copytree(results_dir / "sdnd101a", root / "sdnd101a")
    path = root / "sdnd101a" / results_io.RESULTS_FILE
    data = json.loads(path.read_text())
    data["provenance"].update(rerun=None, rerun_note="the case was changed after loading",
                              ended=None, mpi_ranks=2, checkout=None)
    path.write_text(json.dumps(data))
    page = write_report([], root, tmp_path / "report", views=False)
    rows = dict(table(parse_html(page.read_text(encoding="utf-8")), "provenance-sdnd101a")[1])
    prov = data["provenance"]
    assert rows == {
        "version": f"rocking-contact {prov['version']}, not from a git checkout",
        "ran (UTC)": f"{prov['started']} to not ended (still running, or killed), on 2 MPI "
                     "ranks",
        "rerun": "none: the case was changed after loading"}


def test_an_interrupted_run_says_what_its_rerun_reproduces(results_dir, tmp_path):
    import json
    import shutil

    root = tmp_path / "results"
    shutil.copytree(results_dir / "sdnd101a", root / "sdnd101a")
    path = root / "sdnd101a" / results_io.RESULTS_FILE
    data = json.loads(path.read_text())
    note = "this run was interrupted at t = 0.25 s; rerun runs it to its end"
    data["provenance"].update(rerun_note=note)
    path.write_text(json.dumps(data))
    page = write_report([], root, tmp_path / "report", views=False)
    rows = dict(table(parse_html(page.read_text(encoding="utf-8")), "provenance-sdnd101a")[1])
    assert rows["rerun"] == data["provenance"]["rerun"] and rows["rerun note"] == note


def test_a_run_that_never_loads_petsc_records_so_without_loading_it():
    import subprocess
    import sys

    code = ("import sys\nfrom rocking_contact.provenance import stack_versions\n"
            "v = dict(stack_versions(load_libraries=False))\n"
            "print(v['PETSc (library)'], 'petsc4py.PETSc' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split("\n")[0]
    assert out == "not loaded by this run False"


def test_warnings_of_a_run_are_in_its_section(results_dir, tmp_path):
    import json
    import shutil

    root = tmp_path / "results"
    shutil.copytree(results_dir / "sdnd101a", root / "sdnd101a")
    path = root / "sdnd101a" / results_io.RESULTS_FILE
    data = json.loads(path.read_text())
    data["warnings"] = ["the total energy rose 1.2 J above its released value"]
    path.write_text(json.dumps(data))
    page = write_report([], root, tmp_path / "report", views=False)
    section = parse_html(page.read_text(encoding="utf-8")).find(
        ".//section[@id='case-sdnd101a']")
    assert "Warning: the total energy rose 1.2 J above its released value" in \
        "".join(section.itertext())


def test_two_directories_of_one_case_get_their_own_ids_and_figures(results_dir, tmp_path):
    """results/sdnd101a and a run of the same case written elsewhere (--out, or the
    README's Python snippet): two sections, unique ids, one figures directory each."""
    import shutil

    root = tmp_path / "results"
    for name in ("sdnd101a", "sdnd101a_step1e-4"):
        shutil.copytree(results_dir / "sdnd101a", root / name)
    out = tmp_path / "report"
    page = write_report([], root, out, views=False)
    tree = parse_html(page.read_text(encoding="utf-8"))
    ids = [el.get("id") for el in tree.iter() if el.get("id")]
    assert len(ids) == len(set(ids))
    sections = ["case-sdnd101a", "case-sdnd101a--sdnd101a_step1e-4"]
    assert [s.get("id") for s in tree.findall(".//section")
            if s.get("id").startswith("case-")] == sections
    assert [r[0] for r in table(tree, "summary")[1]] == [
        f"sdnd101a ({root / 'sdnd101a'})", f"sdnd101a ({root / 'sdnd101a_step1e-4'})"]
    for key in ("sdnd101a", "sdnd101a--sdnd101a_step1e-4"):
        assert any((out / "figures" / key).glob("*.png")), key
    # The same directory named twice is reported once, under the case name.
    page = write_report(["sdnd101a", str(root / "sdnd101a")], root, tmp_path / "r2",
                        views=False)
    assert [r[0] for r in table(parse_html(page.read_text(encoding="utf-8")), "summary")[1]] \
        == ["sdnd101a"]


def test_two_runs_of_one_case_are_told_apart_in_the_comparison(results_dir, tmp_path):
    """Two directories holding runs of one case: the comparison's legend and caption name
    each with its directory, not the case name twice."""
    import shutil
    import xml.etree.ElementTree as ET

    root = tmp_path / "results"
    for name in ("sdnv105_sample", "sdnv105_sample_rerun"):
        shutil.copytree(results_dir / "sdnv105_sample", root / name)
    out = tmp_path / "report"
    tree = parse_html(write_report([], root, out, views=False).read_text(encoding="utf-8"))
    caption = "".join(tree.find(".//section[@id='comparisons']//figcaption").itertext())
    labels = [f"sdnv105_sample ({root / name})"
              for name in ("sdnv105_sample", "sdnv105_sample_rerun")]
    for label in labels:
        assert label in caption
    svg = ET.parse(out / "figures" / "sdnv105_kinetic_energy.svg").getroot()
    legend = " ".join(t for el in svg.iter() if el.tag.endswith("text") for t in el.itertext())
    for label in labels:
        assert label in legend


def test_quantities_table_says_whether_window_ends_count():
    from rocking_contact.report.case_tables import quantities_table

    specs = [{"name": "a", "column": "RN_O", "op": "max", "window": [0.01, 0.05],
              "bounds": "open"},
             {"name": "b", "column": "RN_O", "op": "max", "window": [0.0, 0.05]},
             {"name": "c", "column": "RN_O", "op": "final"}]
    rows = quantities_table("x", specs).rows
    assert [r[3].text for r in rows] == ["over 0.01 < t < 0.05 s", "over [0, 0.05] s",
                                         "over the whole run"]


def test_the_summary_says_what_makes_a_run_another_than_its_case_files():
    """A shortened or changed run beside the validated ones is not taken for one of them."""
    from rocking_contact.report.verdicts import run_status

    checks = [{"note": "issue 4"}, {"note": "not reached: the run ends at t = 0.06 s"},
              {"note": "not graded: the run changes preload.tilt"}]
    assert run_status({"status": "completed", "checks": checks}) == (
        "completed (the run ends at t = 0.06 s; the run changes preload.tilt)")
    assert run_status({"status": "completed", "checks": checks[:1]}) == "completed"
    # a reference's own "not graded" (another step) is said as such, not as the status's
    step = [{"note": "not graded: the value holds for a step of 0.001 s, the run's is 0.002 s"}]
    assert run_status({"status": "failed at t = 0.1 s", "checks": step}) == (
        "failed at t = 0.1 s (not graded: the value holds for a step of 0.001 s, the run's "
        "is 0.002 s)")


def test_keys_of_an_optional_table_have_their_units():
    """``time.refine`` is an optional table (``Refine | None``): its step and hold showed
    no unit in the report's parameters (audit s25, nit 1)."""
    from rocking_contact.report.parameters import parameter_rows

    rows = {key: unit for key, _, unit in parameter_rows(
        {"case": {"kind": "block"}, "time": {"step": 1e-3, "refine": {"step": 1e-5,
                                                                       "hold": 1e-4}}})}
    assert rows == {"time.step": "s", "time.refine.step": "s", "time.refine.hold": "s"}


def test_a_report_interrupted_as_it_moves_into_place_is_the_new_one_whole(
        results_dir, tmp_path, monkeypatch, capsys):
    """A Ctrl-C between two of the renames that move a finished report into --out left
    some of its figures under the previous page (which said "the previous report ... is
    unchanged"): held through the renames, it leaves the new report whole, and says so."""
    import os
    import signal

    from rocking_contact.report import cli

    out = tmp_path / "r"
    write_report(["sdnd101a"], results_dir, out, views=False)
    replace, moved = os.replace, []

    def replace_then_ctrl_c(source, target):
        replace(source, target)
        moved.append(target)
        if len(moved) == 1:  # after the first figure
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(cli.os, "replace", replace_then_ctrl_c)
    assert main(["report", "sdnv105_sample", "--results", str(results_dir), "--out",
                 str(out), "--no-views"]) == 130
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert f"wrote {out / REPORT_INDEX} and {out / MARKDOWN_FILE} before the interrupt" in err
    assert moved[-1] == out / REPORT_INDEX and len(moved) > 3
    page, markdown = ((out / name).read_text() for name in (REPORT_INDEX, MARKDOWN_FILE))
    assert "sdnv105_sample" in page and "sdnd101a" not in page
    figures = re.findall(r"\]\((figures/[^)]+)\)", markdown)
    assert figures and all((out / f).is_file() for f in figures)
    assert not (out / cli.STAGING).exists()


def test_interrupted_report_leaves_the_previous_one(results_dir, tmp_path, monkeypatch,
                                                    capsys):
    """A report stopped after drawing its figures (Ctrl-C) leaves the previous report of
    --out whole and no figures of its own; a first report stopped leaves nothing."""
    from rocking_contact.report import cli, html

    out = tmp_path / "r"
    write_report(["sdnd101a"], results_dir, out, views=False)
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(html, "render", stopped)
    for target, left in [(out, f"the previous report in {out} is unchanged"),
                         (tmp_path / "first", "no report written to")]:
        assert main(["report", "sdnv105_sample", "--results", str(results_dir),
                     "--out", str(target), "--no-views"]) == 130
        assert left in capsys.readouterr().err
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert not any((tmp_path / "first").rglob("*"))
    assert not (out / cli.STAGING).exists()
