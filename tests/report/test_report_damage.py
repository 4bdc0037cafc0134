"""The report on runs that failed, stopped early or lost files: what it says and draws.

A failed run's last instant is no collision; unreadable directories are skipped and
listed; missing pieces get a line; checks are counted as the run counts them; the run's
own plots are reused while they are up to date.
"""

import json
import re
import shutil
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from test_report import parse_html, table

from rocking_contact import results, results_io
from rocking_contact.cli import main
from rocking_contact.report.cli import write_report
from rocking_contact.report.inputs import ReportError
from rocking_contact.report.meta import REPORT_INDEX
from rocking_contact.report.verdicts import run_status, verdict
from rocking_contact.results import check_counts
from rocking_contact.viz.history_plots import plot_results, plotted
from rocking_contact.viz.sample import write_sample

END = 0.04  # s: the failed sample's last instant, before its first impact (0.0544 s)
NOT_REACHED = f"not reached: the run ends at t = {END:g} s"


def section_text(tree, key):
    return " ".join("".join(tree.find(f".//section[@id='case-{key}']").itertext()).split())


def svg_text(path):
    return " ".join(t for el in ET.parse(path).getroot().iter() if el.tag.endswith("text")
                    for t in el.itertext())


def failed_sample(directory):
    """A sample run cut at END as a failed run leaves it: its window maximum on its last
    instant (``interior`` false), its collision checks not reached."""
    write_sample(directory, case="sdnv105_failed", fields=False)
    data, history = results_io.load(directory)
    keep = history["time"] <= END + 1e-12
    results_io.write_history_csv({k: v[keep] for k, v in history.items()},
                                 directory / results_io.HISTORY_FILE)
    last = int(np.flatnonzero(keep)[-1])
    data["status"] = f"failed: step {last + 1} from t = {END:g} s failed"
    data["collisions"] = [{"index": 1, "time": END,
                           "kinetic_energy": float(history["EKIN_BLOCK"][last]),
                           "interior": False, "impact": None}]
    data["quantities"] = {k: v for k, v in data["quantities"].items()
                          if not k.startswith("collision.")}
    for c in data["checks"]:
        if c["quantity"].startswith("collision."):
            c.update(value=None, abs_error=None, rel_error=None, passed=False,
                     note=NOT_REACHED)
    (directory / results_io.RESULTS_FILE).write_text(json.dumps(data))
    return data


# 1. A failed run's last instant is no collision


@pytest.fixture(scope="module")
def failed_report(tmp_path_factory):
    root = tmp_path_factory.mktemp("failed")
    failed_sample(root / "results" / "sdnv105_failed")
    out = root / "report"
    page = write_report([], root / "results", out)
    return parse_html(page.read_text(encoding="utf-8")), out


def test_a_failed_runs_last_instant_is_no_collision_in_the_report(failed_report):
    tree, _ = failed_report
    assert tree.find(".//table[@id='collisions-sdnv105_failed']") is None
    text = section_text(tree, "sdnv105_failed")
    assert re.search(r"Collision window 1 holds no collision: its kinetic-energy maximum "
                     rf"\([\d.]+ J at t = {END:g} s\) is the run's last instant\.", text)
    captions = [" ".join(c.itertext()) for c in tree.iter("figcaption")]
    assert any("At the end of the run" in c for c in captions)
    assert not any("first collision" in c for c in captions)


def test_a_failed_runs_plot_draws_no_collision_and_lists_only_what_it_draws(failed_report):
    _, out = failed_report
    legend = svg_text(out / "figures" / "sdnv105_failed" / "kinetic_energy.svg")
    assert "kinetic energy of the block" in legend
    # no dot of ours, and none of the references past the run's end (all not reached)
    for absent in ("ours: collision", "rigid", "recalage", "LMGC90", "Code_Aster"):
        assert absent not in legend, absent


def test_plots_show_collisions_and_the_references_the_run_reached():
    data = {"case": "x", "collisions": [
        {"index": 1, "time": 0.05, "kinetic_energy": 7.0, "interior": True, "impact": 1},
        {"index": 2, "time": 0.06, "kinetic_energy": 3.0, "interior": False, "impact": None},
        {"index": 3, "time": 0.2, "kinetic_energy": 1.0}],  # a rigid run's: no flag
        "checks": [{"quantity": "collision.1.time", "note": ""},
                   {"quantity": "collision.2.time", "note": "not reached: the run ends"}]}
    shown = plotted(data)
    assert [c["index"] for c in shown["collisions"]] == [1, 3]
    assert [c["quantity"] for c in shown["checks"]] == ["collision.1.time"]
    assert len(data["collisions"]) == 3 and len(data["checks"]) == 2  # not changed


def test_a_reached_collision_keeps_its_dot_and_references(results_dir, tmp_path):
    data, history = results_io.load(results_dir / "sdnv105_sample")
    plot_results(data, history, tmp_path)
    legend = svg_text(tmp_path / "kinetic_energy.svg")
    for present in ("ours: collision", "rigid", "recalage", "LMGC90", "Code_Aster"):
        assert present in legend, present


# 2. Unreadable directories are skipped and listed


def damaged_tree(results_dir, root):
    """A good run, a truncated results.json, a killed run, and a directory of no run."""
    shutil.copytree(results_dir / "sdnd101a", root / "good")
    shutil.copytree(results_dir / "sdnd101a", root / "truncated")
    path = root / "truncated" / results_io.RESULTS_FILE
    path.write_text(path.read_text()[:500])
    (root / "killed").mkdir()
    shutil.copy(results_dir / "sdnd101a" / results_io.HISTORY_FILE, root / "killed")
    (root / "notes").mkdir()
    (root / "notes" / "x.txt").write_text("not a run")
    return root


def test_unreadable_directories_are_skipped_and_listed(results_dir, tmp_path, capsys):
    root = damaged_tree(results_dir, tmp_path / "results")
    out = tmp_path / "report"
    assert main(["report", "--results", str(root), "--out", str(out), "--no-views"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(line.startswith("warning: skipped ") for line in err)
    assert f"{root / 'truncated'}: results.json: not valid JSON" in err[1]
    assert f"{root / 'killed'}: results.json: missing beside history.csv" in err[0]
    tree = parse_html((out / REPORT_INDEX).read_text(encoding="utf-8"))
    # a directory not named after its case: named with it
    assert [r[0] for r in table(tree, "summary")[1]] == [f"sdnd101a ({root / 'good'})"]
    _, rows = table(tree, "skipped")
    assert [r[0] for r in rows] == [str(root / "killed"), str(root / "truncated")]
    assert "killed before it wrote its results" in rows[0][1]
    assert rows[1][1].startswith("results.json: not valid JSON")


def test_a_named_damaged_directory_is_skipped_too(results_dir, tmp_path):
    root = damaged_tree(results_dir, tmp_path / "results")
    skipped = []
    page = write_report(["good", str(root / "truncated")], root, tmp_path / "r", views=False,
                        skipped=skipped)
    assert [s.directory for s in skipped] == [root / "truncated"]
    assert [r[0] for r in table(parse_html(page.read_text(encoding="utf-8")), "summary")[1]] \
        == [f"sdnd101a ({root / 'good'})"]


def test_nothing_readable_is_bad_input(results_dir, tmp_path, capsys):
    root = damaged_tree(results_dir, tmp_path / "results")
    shutil.rmtree(root / "good")
    with pytest.raises(ReportError, match="no results could be read"):
        write_report([], root, tmp_path / "r")
    assert main(["report", "--results", str(root), "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no results could be read: ") and err.count("\n") == 1
    assert not (tmp_path / "r" / REPORT_INDEX).exists()


# 3. Each missing piece gets a line


def test_missing_or_damaged_pieces_get_a_line(results_dir, tmp_path):
    root = tmp_path / "results"
    for name in ("nohistory", "badhistory", "nofields"):
        shutil.copytree(results_dir / "sdnv105_sample", root / name)
    (root / "nohistory" / results_io.HISTORY_FILE).unlink()
    (root / "badhistory" / results_io.HISTORY_FILE).write_text("foo,bar\n1,2\n")
    (root / "nofields" / "fields.pvd").unlink()
    page = write_report([], root, tmp_path / "report")
    tree = parse_html(page.read_text(encoding="utf-8"))
    assert len(table(tree, "summary")[1]) == 3  # all reported
    keys = {name: f"sdnv105_sample--{name}" for name in ("nohistory", "badhistory", "nofields")}
    text = {name: section_text(tree, key) for name, key in keys.items()}
    assert "No plots: history.csv: missing." in text["nohistory"]
    assert "No plots: history.csv: header 'foo,bar' does not start with time" \
        in text["badhistory"]
    assert re.search(r"No 3D view: \S*fields\.pvd: missing", text["nofields"])
    assert "No plots" not in text["nofields"]
    figures = tree.find(f".//section[@id='case-{keys['nohistory']}']").findall(".//img")
    assert all("view" in img.get("alt") for img in figures)


def test_a_damaged_dataset_of_the_fields_is_a_line_naming_it(results_dir, tmp_path):
    """A truncated .vtu of fields.pvd, read when a view is drawn: the FieldsError's reason,
    not a rendering failure."""
    run = tmp_path / "results" / "damaged"
    shutil.copytree(results_dir / "sdnv105_sample", run)
    vtu = sorted(run.glob("fields_*.vtu"))[3]
    vtu.write_bytes(vtu.read_bytes()[: vtu.stat().st_size // 2])
    page = write_report([], run.parent, tmp_path / "report")
    text = section_text(parse_html(page.read_text(encoding="utf-8")), "sdnv105_sample")
    assert re.search(rf"No 3D view: \S*{vtu.name}: truncated or not a VTK file \(the dataset "
                     r"of fields\.pvd at t = [\d.]+ s\)\.", text), text
    assert "rendering failed" not in text and "No plots" not in text


# 4. Checks counted as the run counts them


def test_checks_are_counted_as_the_run_counts_them(tmp_path, capsys):
    out = tmp_path / "results" / "short"
    assert main(["run", "sdnd101a", "--set", "time.end=0.02", "--out", str(out),
                 "--no-plots", "-q"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    passed, graded, failed, unreached = map(int, re.search(
        r"(\d+)/(\d+) checks pass(?:, (\d+) fails?)? \((\d+) not reached", line)
        .groups("0"))
    tree = parse_html(write_report([], out.parent, tmp_path / "r", views=False)
                      .read_text(encoding="utf-8"))
    _, rows = table(tree, "summary")
    header = table(tree, "summary")[0]
    row = dict(zip(header, rows[0]))
    assert int(row["checks passed"]) == passed and int(row["not reached"]) == unreached
    assert int(row["checks failed"]) == graded - passed - unreached == failed
    assert f"{unreached} not reached" in section_text(tree, "sdnd101a")


def test_counts_and_verdicts():
    checks = [{"passed": True, "note": ""}, {"passed": False, "note": "issue 4"},
              {"passed": False, "note": "not reached: the run ends at t = 0.06 s"},
              {"passed": None, "note": "not reached: the run ends at t = 0.06 s"}]
    assert check_counts(checks) == (1, 1, 1, 1)
    assert verdict({"status": "completed", "checks": checks}) == "FAIL"
    shortened = [c for c in checks if c["note"] != "issue 4"]
    assert verdict({"status": "completed", "checks": shortened}) == "INCOMPLETE"
    # Ctrl-C is the user's, not a failure of the run
    assert verdict({"status": "interrupted at t = 0.05 s", "checks": checks}) == "INTERRUPTED"
    assert verdict({"status": "failed: step 2 from t = 0.0001 s", "checks": []}) == "RUN FAILED"


def test_a_stopped_runs_status_does_not_say_where_it_ends_twice():
    checks = [{"note": "not reached: the run ends at t = 0.05493 s"}]
    for status in ("interrupted at t = 0.05493 s", "failed: step 415 from t = 0.0414 s"):
        assert run_status({"status": status, "checks": checks}) == status
    assert run_status({"status": "completed", "checks": checks}) == \
        "completed (the run ends at t = 0.05493 s)"


def test_a_shortened_run_of_other_physics_says_its_change_once():
    """A check not reached by a run that also changes the physics notes both ('not
    reached: ...; not graded: the run changes ...'): the status said the change twice,
    'completed (the run ends at t = 0.1 s; not graded: the run changes
    loading.table_acceleration_x.amplitude; the run changes loading.table_acceleration_x =
    sine of 5 m/s^2 at 2 Hz)' (sdnv105d_shaking --set ...amplitude=5 --set time.end=0.1)."""
    checks = [{"note": "not reached: the run ends at t = 0.1 s; not graded: the run changes "
                       "preload.tilt"}]
    data = {"status": "completed", "checks": checks, "extra": {"changes": ["preload.tilt"]},
            "parameters": {"preload": {"tilt": 0.02}}}
    assert run_status(data) == "completed (the run ends at t = 0.1 s; the run changes " \
        "preload.tilt = 0.02)"


def killed_sample(directory):
    """A sample run as a SIGKILL leaves it: results.json still the one written at the start
    (status STARTED, references in its parameters, nothing graded), the history cut at END."""
    data = failed_sample(directory)
    data.update(status=results.STARTED, quantities={}, collisions=[], checks=[], timing={},
                stack={})
    (directory / results_io.RESULTS_FILE).write_text(json.dumps(data))


def test_a_killed_run_is_unfinished_and_says_how_far_it_got(tmp_path, capsys):
    """Reported on, a killed run is no failure of its own nor a run without references:
    its status says where its history ends, the stack is missing because it never wrote
    its results; and --results may name that one run's directory."""
    run = tmp_path / "killed"
    killed_sample(run)
    assert verdict({"status": results.STARTED, "checks": []}) == "UNFINISHED"
    assert main(["report", "--results", str(run), "--out", str(tmp_path / "r"),
                 "--no-views"]) == 0
    text = " ".join("".join(parse_html((tmp_path / "r" / REPORT_INDEX).read_text(
        encoding="utf-8")).itertext()).split())
    assert f"its history reaches t = {END:g} s" in text
    assert "No run here has been graded" in text and "None of these runs" not in text
    assert "stopped (or is still running) before it wrote its results" in text
    assert "UNFINISHED" in text and "RUN FAILED" not in text



def test_an_aborted_run_is_interrupted_and_not_called_a_run_without_references(tmp_path):
    """A run aborted by a second Ctrl-C graded nothing, like a killed one: the report opens
    by saying that no run here was graded, not that the runs have no references."""
    run = tmp_path / "aborted"
    killed_sample(run)
    data = json.loads((run / results_io.RESULTS_FILE).read_text())
    data["status"] = results.aborted(END, "Ctrl-C")
    (run / results_io.RESULTS_FILE).write_text(json.dumps(data))
    assert verdict({"status": data["status"], "checks": []}) == "INTERRUPTED"
    assert main(["report", "--results", str(run), "--out", str(tmp_path / "r"),
                 "--no-views"]) == 0
    text = " ".join("".join(parse_html((tmp_path / "r" / REPORT_INDEX).read_text(
        encoding="utf-8")).itertext()).split())
    assert "No run here has been graded" in text and "None of these runs" not in text
    assert f"aborted at t = {END:g} s" in text

# 5. Impulses plotted as impulses, figures named after the whole column group
#    (the change is in rocking_contact/viz: channels.py and history_plots.py)


def test_impulses_and_contact_iterations_get_their_own_figures(tmp_path):
    t = np.linspace(0.0, 0.1, 11)
    history = {"time": t, "PN_O": t, "PX_O": -t, "PN_BASE": 2 * t,
               "CONTACT_ITERATIONS": np.ones_like(t), "CONTACTS": np.ones_like(t)}
    stems = {p.stem for p in plot_results({"case": "x", "kind": "block"}, history, tmp_path)}
    assert "history_CONTACT" not in stems and "history_PX" not in stems
    assert {"history_CONTACT_ITERATIONS", "history_CONTACTS"} <= stems
    impulses = [s for s in stems if "impulse" in s]
    assert len(impulses) == 1
    legend = svg_text(tmp_path / f"{impulses[0]}.svg")
    assert all(name in legend for name in ("PN_O", "PX_O", "PN_BASE")) and "N.s" in legend


# 6. The run's own plots are reused while they are up to date


def test_the_runs_own_plots_are_reused_while_up_to_date(tmp_path):
    import os

    import rocking_contact as rc

    run = tmp_path / "results" / "sdnd101a"
    rc.run(rc.load_case("sdnd101a"), out=run, quiet=True)
    listed = json.loads((run / results_io.RESULTS_FILE).read_text())["plots"]
    assert "shock_force.png" in listed
    planted = (run / "displacement.png").read_bytes()[::-1]  # told apart from a redraw
    (run / "shock_force.png").write_bytes(planted)
    figures = tmp_path / "r" / "figures" / "sdnd101a"
    write_report([], run.parent, tmp_path / "r", views=False)
    assert (figures / "shock_force.png").read_bytes() == planted
    assert sorted(p.name for p in figures.iterdir()) == sorted(listed)
    later = (run / "shock_force.png").stat().st_mtime + 10
    os.utime(run / results_io.HISTORY_FILE, (later, later))  # history written again: redraw
    write_report([], run.parent, tmp_path / "r", views=False)
    assert (figures / "shock_force.png").read_bytes() != planted
