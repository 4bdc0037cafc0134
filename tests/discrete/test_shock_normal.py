"""A shock whose node cannot move along its normal never closes unless it is preloaded
(``gap < 0``): such a shock is refused in one line, the preloaded pad of SDND100 is not."""

import pytest

import rocking_contact as rc
from rocking_contact.cli import main

#: a mass sliding along x, DY and DZ fixed
SLIDER = """
[case]
name = "slider"
title = "a mass on x against a stop"
kind = "discrete"
description = "One mass sliding along x, DY and DZ fixed, toward a stop."

[[model.node]]
name = "A"
mass = 1.0
fixed = ["DY", "DZ"]
v0 = [1.0, 0.0, 0.0]

[[model.shock]]
name = "S"
node = "A"
normal = {normal}
gap = {gap}
kn = 1.0e6

[time]
end = 0.01
step = 1.0e-4
"""


def run_slider(tmp_path, normal, gap):
    path = tmp_path / "slider.toml"
    path.write_text(SLIDER.format(normal=normal, gap=gap))
    return path, main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet",
                       "--no-plots"])


@pytest.mark.parametrize("gap", ["0.0", "1.0e-3"])
def test_a_stop_along_a_fixed_dof_is_refused_in_one_line(tmp_path, capsys, gap):
    path, code = run_slider(tmp_path, "[0.0, 1.0, 0.0]", gap)
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert err[0] == (
        f"error: {path}: model.shock[0].normal: got [0.0, 1.0, 0.0], along which node 'A' "
        f"cannot move (DY fixed): with gap = {float(gap):g} the shock never closes; allowed: "
        f"a normal along which the node moves (its free components: DX), or gap < 0 for a "
        f"constant normal force kn |gap| (a preloaded friction pad, as SDND100's)")
    assert not (tmp_path / "out" / "results.json").exists()


def test_a_normal_the_relations_hold_is_refused_and_names_them():
    """SDND100's mass moves along x = y only: a stop normal to that line never closes."""
    with pytest.raises(rc.CaseError) as refused:
        rc.load_case("sdnd100a", {"model.shock[0].normal": [1.0, -1.0, 0.0],
                                  "model.shock[0].gap": 0.0})
    assert ("cannot move (DZ fixed and [[model.relation]]): with gap = 0 the shock never "
            "closes; allowed: a normal along which the node moves (its free components: "
            "DX, DY, tied by [[model.relation]])") in str(refused.value)


def test_a_stop_the_node_moves_toward_is_accepted(tmp_path, capsys):
    """The same stop along x, an oblique one, and SDND100's pad (preloaded along its fixed
    DZ) load and act."""
    _, code = run_slider(tmp_path, "[1.0, 1.0, 0.0]", "1.0e-3")
    assert code == 0, capsys.readouterr().err
    result = rc.run(rc.load_case("sdnd100a", {"time.end": 0.01}), write=False, quiet=True)
    assert result.history["FN_NO1"].min() == pytest.approx(10.0)  # kn |gap| = 20 * 0.5
