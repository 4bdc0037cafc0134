"""Which runs share the kinetic-energy comparison of a validation case."""

import numpy as np

from rocking_contact.viz.comparison import comparable_groups


def _run(case, tilt=None, pivot="O1", collisions=3):
    parameters = {"geometry": {"half_width": 0.18}} if tilt is not None else {}
    if tilt is not None:
        parameters["preload"] = {"tilt": tilt, "pivot": pivot}
    data = {"case": case, "parameters": parameters,
            "collisions": [{"index": k} for k in range(1, collisions + 1)]}
    return data, {"time": np.zeros(3), "EKIN_BLOCK": np.zeros(3)}


def test_runs_with_another_tilt_are_compared_apart():
    """A --set preload.tilt=0.02 run beside the shipped ones: its own figure, not theirs;
    B's pivot (O, against A's O1) does not matter, a result without parameters joins."""
    runs = [_run("sdnv105a", 0.01), _run("sdnv105b", 0.01, pivot="O"), _run("sdnv105_sample"),
            _run("sdnv105_rigid", 0.02), _run("sdnv105d", 0.02), _run("sdnv105c", 0.01),
            _run("sdnv105e", 0.03), _run("sdnd101a", 0.01), _run("sdnv105f", 0.01, collisions=1)]
    groups = comparable_groups(runs)
    names = {k: [d["case"] for d, _ in v] for k, v in groups.items()}
    assert names == {"sdnv105": ["sdnv105a", "sdnv105b", "sdnv105_sample", "sdnv105c"],
                     "sdnv105_tilt0.02": ["sdnv105_rigid", "sdnv105d"]}


def _changed(case, keys, parameters, collisions=3):
    data, history = _run(case, collisions=collisions)
    data["parameters"] = parameters
    data["warnings"] = [f"its references describe the case file's parameters and the run "
                        f"changes {', '.join(keys)}: the checks are shown for information, "
                        "without a pass mark"]
    return data, history


def test_a_block_of_ones_own_is_compared_with_its_rigid_twin():
    """`run myblock.toml` and `rigid --case myblock.toml`: the twin records the release
    angle (0.0200013 rad for a 0.02 tilt) and the default table ends; one figure."""
    block = {"geometry": {"half_width": 0.25, "table_left": -0.3}, "preload": {"tilt": 0.02}}
    twin = {"geometry": {"half_width": 0.25, "table_left": -0.18},
            "preload": {"tilt": 0.0200013}}
    runs = [_run("myblock"), _run("myblock_rigid")]
    runs[0][0]["parameters"], runs[1][0]["parameters"] = block, twin
    groups = comparable_groups(runs)
    assert {k: [d["case"] for d, _ in v] for k, v in groups.items()} == {
        "myblock": ["myblock", "myblock_rigid"]}


def test_runs_that_change_the_physics_are_named_by_their_changes():
    """Slender SDNV105 blocks alone in a report: not titled SDNV105, nor drawn against its
    references."""
    geometry = {"geometry": {"half_width": 0.1, "half_height": 0.5}}
    keys = ["geometry.half_height", "geometry.half_width"]
    runs = [_changed("sdnv105d", keys, geometry), _changed("sdnv105a", keys, geometry)]
    runs[0][0]["checks"] = [{"quantity": "collision.1.time", "reference": 0.0546,
                             "source": "LMGC90", "passed": None},
                            {"quantity": "collision.1.kinetic_energy", "reference": 7.23,
                             "source": "LMGC90", "passed": None}]
    groups = comparable_groups(runs)
    assert list(groups) == ["sdnv105_half_height0.5_half_width0.1"]


def test_the_changed_runs_figure_has_no_reference_and_says_its_changes(tmp_path):
    import xml.etree.ElementTree as ET

    from rocking_contact.viz.comparison import compare_kinetic_energy

    geometry = {"geometry": {"half_width": 0.1}}
    runs = [_changed(c, ["geometry.half_width"], geometry) for c in ("sdnv105d", "sdnv105a")]
    for data, history in runs:
        history["time"] = np.linspace(0.0, 0.1, 3)
        data["checks"] = [{"quantity": "collision.1.time", "reference": 0.0546,
                           "source": "LMGC90", "passed": None},
                          {"quantity": "collision.1.kinetic_energy", "reference": 7.23,
                           "source": "LMGC90", "passed": None}]
    svg = next(p for p in compare_kinetic_energy("SDNV105", runs, tmp_path)
               if p.suffix == ".svg")
    text = " ".join(t for el in ET.parse(svg).getroot().iter() if el.tag.endswith("text")
                    for t in el.itertext())
    assert "SDNV105 with geometry.half_width = 0.1" in text
    assert "LMGC90" not in text


def _tilted(tilt, changed):
    """A sdnv105d RunResult at ``tilt``; ``changed``: the run sets it (not the file's)."""
    import rocking_contact as rc

    t = np.linspace(0.0, 0.06, 7)
    return rc.RunResult(
        case="sdnv105d", kind="block", history={"time": t, "EKIN_BLOCK": tilt * t},
        parameters={"preload": {"tilt": tilt}, "contact": {"treatment": "theta"}},
        extra={"changes": ["preload.tilt"] if changed else []},
        collisions=[{"index": 1, "time": 0.05, "kinetic_energy": 0.05 * tilt,
                     "interior": True, "impact": 0.05},
                    {"index": 2, "time": 0.06, "kinetic_energy": 0.06 * tilt,
                     "interior": False, "impact": None}])


def test_a_study_of_runs_is_titled_as_named_and_each_run_by_its_changes(tmp_path):
    """Three tilts given as RunResults were refused (AttributeError), then as dicts titled
    "SDNV105 with preload.tilt = 0.005: ..., all treatments", the first changed run's."""
    import xml.etree.ElementTree as ET

    from rocking_contact.viz.comparison import compare_kinetic_energy

    runs = [_tilted(0.005, True), _tilted(0.01, False), _tilted(0.015, True)]
    written = compare_kinetic_energy("sdnv105d tilts", runs, tmp_path)
    assert {p.name for p in written} == {"sdnv105d_tilts_kinetic_energy.png",
                                         "sdnv105d_tilts_kinetic_energy.svg"}
    svg = next(p for p in written if p.suffix == ".svg")
    text = " ".join(t for el in ET.parse(svg).getroot().iter() if el.tag.endswith("text")
                    for t in el.itertext())
    assert "sdnv105d tilts: kinetic energy of the block" in text
    assert "with preload.tilt" not in text and "all treatments" not in text
    assert "sdnv105d, theta (preload.tilt = 0.005)" in text
    assert "sdnv105d, theta (preload.tilt = 0.015)" in text


def _treatment(case, treatment, ekin, *, kind="block", source=None):
    """A run of ``treatment`` whose kinetic energy is ``ekin`` over 0-0.1 s, quoting one
    collision reference of ``source`` (0.05 s, 7.29 J)."""
    t = np.linspace(0.0, 0.1, 11)
    data = {"case": case, "kind": kind, "collisions": [{"index": 1, "time": 0.05,
                                                         "interior": True},
                                                        {"index": 2, "time": 0.09,
                                                         "interior": True}],
            "parameters": {"contact": {"treatment": treatment}}, "checks": []}
    if source:
        data["checks"] = [{"quantity": "collision.1.time", "reference": 0.05,
                           "source": source, "passed": True},
                          {"quantity": "collision.1.kinetic_energy", "reference": 7.29,
                           "source": source, "passed": True}]
        data["quantities"] = {"collision.1.time": 0.05, "collision.1.kinetic_energy": 7.29}
    return data, {"time": t, "EKIN_BLOCK": ekin(t)}


def _drawn_figure(monkeypatch, tmp_path, runs):
    """The figure compare_kinetic_energy draws, before it is saved."""
    from rocking_contact.viz import comparison, style

    kept = []
    monkeypatch.setattr(style, "save_figure", lambda fig, out, stem: kept.append(fig) or [])
    comparison.compare_kinetic_energy("SDNV105", runs, tmp_path)
    return kept[0]


def test_treatments_that_coincide_stay_visible(monkeypatch, tmp_path):
    """P1 audit #9: the rigid block (drawn first, blue) was hidden under D, A under C, and
    Code_Aster C's hexagon on A's triangle: now the rigid block is a thin black dashed curve
    on top, A and C differ in width and dashes, and C's marker encloses A's."""
    from matplotlib.colors import to_hex

    def one(t):
        return 7.29 * np.sin(np.pi * t / 0.1) ** 2

    def other(t):
        return 4.0 * np.sin(np.pi * t / 0.1) ** 2

    runs = [_treatment("sdnv105_rigid", "none", one, kind="rigid"),
            _treatment("sdnv105a", "lagrange", other, source="Code_Aster SDNV105 A"),
            _treatment("sdnv105c", "continuous", other, source="Code_Aster SDNV105 C"),
            _treatment("sdnv105d", "theta", one, source="Code_Aster SDNV105 A")]
    fig = _drawn_figure(monkeypatch, tmp_path, runs)
    ax = fig.axes[0]
    curves = {line.get_label().split(",")[0]: line for line in ax.get_lines()
              if line.get_label().startswith("sdnv105")}
    rigid, a, c, d = (curves[k] for k in ("sdnv105_rigid", "sdnv105a", "sdnv105c", "sdnv105d"))
    assert to_hex(rigid.get_color()) == "#000000" and rigid.get_linestyle() == "--"
    assert rigid.get_linewidth() < min(x.get_linewidth() for x in (a, c, d))
    assert rigid.get_zorder() > max(x.get_zorder() for x in (a, c, d))
    # the curve on top of a coinciding one is thinner, dashed, of another colour
    for under, over in ((d, rigid), (a, c)):
        assert over.get_zorder() > under.get_zorder()
        assert over.get_linewidth() < under.get_linewidth()
        assert over.get_linestyle() != "-" and over.get_color() != under.get_color()
    # legend in the members' order, whatever the drawing order
    assert [t.get_text().split(",")[0] for t in fig.legends[0].get_texts()][:4] == [
        "sdnv105_rigid", "sdnv105a", "sdnv105c", "sdnv105d"]
    keys = {line.get_label(): line.get_marker() for line in ax.get_lines()
            if line.get_label().startswith("Code_Aster")}
    points = {line.get_marker(): line.get_markersize() for line in ax.get_lines()
              if len(line.get_xdata()) == 1 and line.get_xdata()[0] == 0.05}
    a_size = points[keys["Code_Aster SDNV105 A"]]
    c_size = points[keys["Code_Aster SDNV105 C"]]
    assert c_size > 1.2 * a_size  # the later source of the family encloses the earlier


def test_each_treatment_keeps_its_look_in_any_order_and_repeats_get_their_own():
    from rocking_contact.viz.comparison import curve_looks

    a = _treatment("sdnv105a", "lagrange", np.sin)
    d = _treatment("sdnv105d", "theta", np.sin)
    assert curve_looks([a, d])[0] == curve_looks([d, a])[1]
    first, second = curve_looks([d, d])
    assert first["color"] != second["color"]


def test_a_member_with_another_time_step_is_named_in_the_legend(monkeypatch, tmp_path):
    """A --set time.step run beside the shipped one: its legend entry says so."""
    a = _treatment("sdnv105a", "lagrange", np.sin)
    d = _treatment("sdnv105d", "theta", np.sin)
    d[0]["provenance"] = {"overrides": ["time.step=5e-5"]}
    d[0]["parameters"]["time"] = {"step": 5e-5}
    fig = _drawn_figure(monkeypatch, tmp_path, [a, d])
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "sdnv105a, lagrange" in texts and "sdnv105d, theta (time.step = 5e-05)" in texts
