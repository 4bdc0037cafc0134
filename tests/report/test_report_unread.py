"""The report's parameters table marks the keys the run's variants did not read
(results.json ``extra.unread``): greyed, their value followed by "(not read by this
variant)"; the others as before."""

import html5lib

from rocking_contact import results_io
from rocking_contact.config import load_case, unread_keys
from rocking_contact.report.case_tables import parameters_table
from rocking_contact.report.cli import MARKDOWN_FILE
from rocking_contact.report.meta import REPORT_INDEX
from rocking_contact.report.parameters import NOT_READ, not_read


def _rows(report_dir, table_id):
    """key -> the row's cells (text, class) of a table of the HTML report."""
    tree = html5lib.parse((report_dir / REPORT_INDEX).read_text(encoding="utf-8"),
                          namespaceHTMLElements=False)
    node = tree.find(f".//table[@id='{table_id}']")
    assert node is not None, table_id
    rows = [[("".join(td.itertext()), td.get("class") or "") for td in tr.findall("td")]
            for tr in node.findall("./tbody/tr")]
    return {row[0][0]: row for row in rows}


def test_results_json_records_the_keys_not_read(results_dir):
    """sdnd101a, central differences: the Newmark and HHT keys of its solver are not read."""
    data = results_io.load(results_dir / "sdnd101a")[0]
    unread = data["extra"]["unread"]
    assert unread == unread_keys(load_case("sdnd101a"))
    assert {"solver.beta", "solver.gamma", "solver.alpha", "solver.newton_tol"} <= set(unread)
    assert data["parameters"]["solver"]["beta"] == 0.25  # the keys stay in the parameters


def test_the_parameters_table_marks_the_keys_not_read(report_dir):
    rows = _rows(report_dir, "parameters-sdnd101a")
    (key, key_css), (value, value_css), (unit, unit_css) = rows["solver.beta"]
    assert value == f"0.25 ({NOT_READ})"
    assert "info" in key_css.split() and value_css == "info" and unit_css == "info"
    (_, key_css), (value, value_css), (unit, _) = rows["model.shock[NO1].kn"]
    assert (value, value_css, unit) == ("1000000", "num", "N/m") and "info" not in key_css
    assert not any(NOT_READ in row[1][0] for key, row in rows.items()
                   if key.startswith(("model.shock", "time.")))
    markdown = (report_dir / MARKDOWN_FILE).read_text(encoding="utf-8")
    assert f"| solver.beta | 0.25 ({NOT_READ}) |" in markdown


def test_a_list_of_tables_not_read_marks_its_items():
    assert not_read("contact.spring[0].on", ["contact.spring"])
    assert not_read("contact.spring", ["contact.spring"])
    assert not not_read("contact.springs", ["contact.spring"])
    table = parameters_table("x", {"contact": {"spring": [{"on": "O"}], "mu": 0.9}},
                             ["contact.spring"])
    texts = {row[0].text: row[1].text for row in table.rows}
    assert texts == {"contact.spring[0].on": f"O ({NOT_READ})", "contact.mu": "0.9"}


def test_results_without_the_record_mark_nothing():
    table = parameters_table("x", {"scheme": {"beta": 0.25}})
    assert [(c.text, c.css) for c in table.rows[0]] == [("scheme.beta", "code"),
                                                        ("0.25", "num"), ("", "")]
