"""A load that acts only on components no node moves along moves nothing: a support
acceleration so given is refused in one line (as a shock normal along fixed components),
a gravity so given is said (the supports take it)."""

from launch_case import launch_case

import rocking_contact as rc
from rocking_contact.cli import main

SINE = '{ type = "sine", amplitude = 1.0, frequency = 5.0 }'


def run_shaken(tmp_path, direction, acceleration=SINE, gravity="[0.0, 0.0, 0.0]"):
    """The launched mass (DY, DZ fixed) for 0.01 s, its support shaken along ``direction``
    by ``acceleration``, under ``gravity``."""
    path = launch_case(tmp_path, f"[model]\ngravity = {gravity}\n",
                       f"[model.support]\ndirection = {direction}\n"
                       f"acceleration = {acceleration}\n", end=0.01)
    return path, main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet",
                       "--no-plots"])


def test_a_support_acceleration_along_fixed_dofs_is_refused_in_one_line(tmp_path, capsys):
    path, code = run_shaken(tmp_path, "[0.0, 1.0, 0.0]")
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert err[0] == (
        f"error: {path}: model.support.direction: got [0.0, 1.0, 0.0], along which no node "
        f"can move (M: DY fixed): the support acceleration moves nothing; allowed: a "
        f"direction with a component the nodes move along (free: DX), or no support "
        f"acceleration")
    assert not (tmp_path / "out" / "results.json").exists()


def test_a_support_acceleration_the_nodes_follow_or_none_is_accepted(tmp_path, capsys):
    """Along x, oblique (its x part acts), or along y with no acceleration (the default
    direction of a case with no support motion is never read)."""
    for direction, acceleration in (("[1.0, 0.0, 0.0]", SINE), ("[1.0, 1.0, 0.0]", SINE),
                                    ("[0.0, 1.0, 0.0]", '{ type = "zero" }')):
        _, code = run_shaken(tmp_path, direction, acceleration)
        assert code == 0, capsys.readouterr().err


def test_the_relations_are_named_when_they_hold_the_direction():
    """SDND100's mass moves along x = y only: a support along x - y moves nothing."""
    case = rc.load_case("sdnd100a")
    assert case.model.immobile_along((1.0, -1.0, 0.0)) == "NO1: DZ fixed and [[model.relation]]"
    assert case.model.immobile_along((1.0, 1.0, 0.0)) is None


def test_a_gravity_on_fixed_dofs_only_is_said(tmp_path, capsys):
    _, code = run_shaken(tmp_path, "[1.0, 0.0, 0.0]", gravity="[0.0, -9.81, 0.0]")
    err = capsys.readouterr().err
    assert code == 0, err
    assert ("warning: launch: model.gravity: [0.0, -9.81, 0.0] m/s^2 acts only on "
            "components no node moves along (M: DY fixed): it moves nothing, the supports "
            "take it all") in err
    _, code = run_shaken(tmp_path, "[1.0, 0.0, 0.0]", gravity="[-9.81, 0.0, 0.0]")
    assert code == 0 and "model.gravity" not in capsys.readouterr().err
