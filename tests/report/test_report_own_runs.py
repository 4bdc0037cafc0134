"""The report of an engineer's own runs: a changed block, a case without references and its
rigid twin. It says what each run is, and draws nothing of a case file it does not run."""

import json
import shutil

from test_report import parse_html, table

from rocking_contact import results_io
from rocking_contact.report.cli import write_report
from rocking_contact.report.figures import caption

CHANGED = ("its references describe the case file's parameters and the run changes "
           "geometry.half_height, geometry.half_width: the checks are shown for information, "
           "without a pass mark")
#: extra.rigid_comparison as a block run writes it (myblock.toml: b = 0.25 m, 0.02 rad)
RIGID = [{"index": 1, "time": 0.0582, "kinetic_energy": 39.2832, "levels": {
    "nonlinear": {"impact": 1, "time": 0.05817897, "kinetic_energy": 39.253686,
                  "time_error": 0.000362, "energy_error": 0.000752},
    "recalage": {"impact": 1, "time": 0.0581746, "kinetic_energy": 39.733149,
                 "time_error": 0.000436, "energy_error": -0.0113}}}]


def _edit(directory, **changes):
    path = directory / results_io.RESULTS_FILE
    data = json.loads(path.read_text())
    for key, value in changes.items():
        if key == "extra":
            data["extra"] = {**data.get("extra", {}), **value}
        elif key == "geometry":
            data["parameters"]["geometry"].update(value)
        else:
            data[key] = value
    path.write_text(json.dumps(data))


def test_a_changed_run_and_a_rigid_comparison_are_said(results_dir, tmp_path):
    root = tmp_path / "results"
    shutil.copytree(results_dir / "sdnv105_sample", root / "slender")
    _edit(root / "slender", warnings=[CHANGED], extra={"rigid_comparison": RIGID},
          geometry={"half_width": 0.1, "half_height": 0.5})
    tree = parse_html(write_report([], root, tmp_path / "report", views=False)
                      .read_text(encoding="utf-8"))
    # its checks are shown (for information): still the validation report
    assert tree.find("./head/title").text == "rocking_contact validation report"
    # named with its directory, and by what it changes
    assert [r[0] for r in table(tree, "summary")[1]] == [
        f"sdnv105_sample ({root / 'slender'})"]
    assert "the run changes geometry.half_height = 0.5, geometry.half_width = 0.1" in \
        table(tree, "summary")[1][0][2]
    section = "".join(tree.find(".//section[@id='case-sdnv105_sample']").itertext())
    assert ("This run changes its case file's physics: geometry.half_height = 0.5, "
            "geometry.half_width = 0.1.") in section
    assert "Case file's title: Sample rocking block" in section
    assert table(tree, "summary")[1][0][-1] == "t +0.0362 %, energy +0.0752 % (1 collision)"
    # against the rigid block: the exact level, ours / rigid - 1
    header, rows = table(tree, "rigid-sdnv105_sample")
    assert header[:3] == ["k", "t (s)", "kinetic energy (J)"]
    assert rows == [["1", "0.0582", "39.2832", "1", "0.05817897", "39.25369", "+0.0362 %",
                     "+0.0752 %"]]
    # the sample's references are the file's: no caption announces them
    captions = [" ".join(c.itertext()) for c in tree.iter("figcaption")]
    assert captions and not any("markers" in c.lower() for c in captions)


def test_captions_follow_what_the_figure_draws():
    data = {"kind": "block"}
    history = {"time": [0.0], "CONTACTS": [0.0], "THETA": [0.0], "EKIN_BLOCK": [0.0]}
    assert caption("history_CONTACTS", data, history, set()) == "Closed contacts against time."
    assert caption("history_THETA", data, history, {"THETA"}).startswith(
        "Counter-clockwise tilt of the base (rad) against time. References: one style per "
        "source, black where graded")
    assert "Markers: the collision references" in caption(
        "kinetic_energy", data, history, {"EKIN"})
    assert "markers" not in caption("kinetic_energy", data, history, set()).lower()
    # a shaken block's run has no collision windows: no dots
    assert caption("kinetic_energy", data, history, set()) == "Kinetic energy against time."
    collided = {**data, "collisions": [{"index": 1, "time": 0.058, "interior": True}]}
    assert "Dots: our collisions" in caption("kinetic_energy", collided, history, set())


def test_impact_bands_are_in_the_caption_of_every_history_that_shades_them():
    """mytwomass: its displacements are shaded over the impacts, as its shock forces."""
    data = {"kind": "discrete", "impacts": [{"start": 0.002, "end": 0.0238}]}
    history = {"time": [0.0, 0.5], "DX_M1": [0.0, 0.0], "FN_S1": [0.0, 0.0]}
    for stem in ("displacement", "shock_force"):
        assert caption(stem, data, history, set()).endswith("Grey bands: our impacts (FN > 0).")
    # a preloaded shock, in contact most of the run: no bands, no words
    held = {**data, "impacts": [{"start": 0.0, "end": 0.4}]}
    assert "Grey" not in caption("displacement", held, history, set())
    assert "Grey" not in caption("energy_balance", data, history, set())


def test_a_comparison_without_references_does_not_announce_them(results_dir, tmp_path):
    """myblock and myblock_rigid: a case with no references and its twin."""
    root = tmp_path / "results"
    for name in ("myblock", "myblock_rigid"):
        shutil.copytree(results_dir / "sdnv105_sample", root / name)
        _edit(root / name, case=name, checks=[])
    tree = parse_html(write_report([], root, tmp_path / "report", views=False)
                      .read_text(encoding="utf-8"))
    caption = "".join(tree.find(".//section[@id='comparisons']//figcaption").itertext())
    assert caption == ("MYBLOCK: kinetic energy of the block for 2 treatments (myblock, "
                       "myblock_rigid).")
    # nothing graded: not called a validation, no references promised
    assert tree.find("./head/title").text == "rocking_contact report"
    generated, intro = ("".join(p.itertext()) for p in tree.findall(".//body/p")[:2])
    assert generated.startswith("Generated ")  # and no verdict line: nothing is graded
    assert intro.startswith("2 cases. None of these runs has references")
    assert "next to their references" not in intro


def _section_text(root, out, case):
    tree = parse_html(write_report([], root, out, views=False).read_text(encoding="utf-8"))
    return "".join(tree.find(f".//section[@id='case-{case}']").itertext())


def test_a_run_with_overrides_shows_them_and_calls_the_description_the_files(results_dir,
                                                                             tmp_path):
    """`run sdnv105d --set mesh.layout=structured ...` was described by the file's "coarse
    Code_Aster mesh" text, its overrides two rows deep in the parameters (audit s24 #6)."""
    root = tmp_path / "results"
    shutil.copytree(results_dir / "sdnd101a", root / "sdnd101a")
    data = json.loads((root / "sdnd101a" / results_io.RESULTS_FILE).read_text())
    description = " ".join(data["parameters"]["case"]["description"].split())
    title = data["parameters"]["case"]["title"]
    # the file as written: no options, the description as it is
    section = _section_text(root, tmp_path / "as_written", "sdnd101a")
    assert "Run with" not in section and "Case file's" not in section
    assert description in section and title in section
    # the command line's --set texts, in order
    _edit(root / "sdnd101a", provenance={
        **data["provenance"], "overrides": ["time.step=1e-4", "time.end=0.2"]})
    section = _section_text(root, tmp_path / "cli", "sdnd101a")
    assert "Run with: --set time.step=1e-4 --set time.end=0.2." in section
    assert f"Case file's title: {title}" in section
    assert f"Case file's description: {description}" in section
    # rc.run(case, overrides={...}) records a mapping: spelled as --set reads it
    _edit(root / "sdnd101a", provenance={
        **data["provenance"], "overrides": {"model.shock.0.friction": "exact",
                                            "time.step": 0.0001}})
    assert ("Run with: --set model.shock.0.friction='exact' --set time.step=0.0001."
            in _section_text(root, tmp_path / "api", "sdnd101a"))
