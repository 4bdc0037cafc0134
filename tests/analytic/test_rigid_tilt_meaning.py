"""A rigid case file written before 09918a6 with ``preload.tilt = 0.05`` meant 0.05 rad;
``preload.tilt`` is now the pull ratio of a FEM block case, and such a file is released at
asin(0.05) = 0.0500209 rad, which only the 'released at' number said (audit of session
30). The rigid command says once what the tilt is and which key gives the angle; a case
that gives ``preload.angle`` (the shipped one, a FEM case's twin) is not told."""

from rocking_contact.cli import main

OLD_FILE = """[case]
name = "old_block"
title = "a rigid block released at 0.05 rad, written before 09918a6"
kind = "rigid"

[geometry]
half_width = 0.18
half_height = 0.40
thickness = 1.0

[material.block]
density = 1450.0

[preload]
{release}

[time]
end = 0.2
step = 1e-3
"""

SAID = ("preload.tilt = 0.05 is a pull ratio, as in a FEM block case, not an angle: released at "
        "asin(0.05) = 0.0500209 rad; preload.angle = 0.05 releases at 0.05 rad (rigid case "
        "files of earlier versions read tilt as the angle)")


def printed(tmp_path, capsys, *args):
    """What ``rocking-contact rigid *args`` prints (exit code 0 asserted)."""
    assert main(["rigid", *args, "--out", str(tmp_path / "out"), "--no-plots"]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_file_s_tilt_is_said_to_be_a_pull_ratio(tmp_path, capsys):
    case = tmp_path / "old_block.toml"
    case.write_text(OLD_FILE.format(release="tilt = 0.05"))
    lines = printed(tmp_path, capsys, str(case))
    assert "released at 0.0500209 rad;" in lines[0]
    assert [line for line in lines if "pull ratio" in line] == [SAID]
    assert lines[1] == SAID  # next to the angle it explains
    # the closed form's explanation names the release angle theta, not the tilt it was
    # called ('M b g tilt' read as the pull ratio)
    explained = [line for line in lines if line.startswith("The closed form takes")]
    assert len(explained) == 1 and "M b g theta for the energy at impact 1 (theta the " \
        "release angle) and drops the -M g l theta^2/2 of the potential" in explained[0]
    assert not any("tilt^2" in line or "M b g tilt" in line for line in lines), lines


def test_a_case_that_gives_the_angle_is_not_told(tmp_path, capsys):
    case = tmp_path / "new_block.toml"
    case.write_text(OLD_FILE.format(release="angle = 0.05"))
    lines = printed(tmp_path, capsys, str(case))
    assert "released at 0.05 rad;" in lines[0]
    assert not any("pull ratio" in line for line in lines), lines
    # the shipped case (angle = 0.01), a FEM case's twin (the block's angle) and a flat
    # release (tilt 0, no angle either way) alike
    for args in ((), ("sdnv105d", "--set", "time.end=0.06"), ("--set", "preload.tilt=0",
                                                               "--set", "time.end=0.01")):
        lines = printed(tmp_path, capsys, *args)
        assert not any("pull ratio" in line for line in lines), (args, lines)


def test_help_and_keys_say_which_key_is_the_angle(capsys):
    assert main(["keys", "sdnv105_rigid"]) == 0
    keys = capsys.readouterr().out
    tilt = next(line for line in keys.splitlines() if line.strip().startswith("preload.tilt"))
    assert "no angle but the sine of the release angle" in tilt
    assert "rigid case files of earlier versions read tilt as the angle: give those " \
           "angles as preload.angle" in tilt
    angle = next(line for line in keys.splitlines()
                 if line.strip().startswith("preload.angle"))
    assert "[rad]" in angle
    try:
        main(["rigid", "--help"])
    except SystemExit as done:
        assert done.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "preload.angle=0.02 (the release angle, rad) or preload.tilt=0.02 (a FEM case's " \
           "pull ratio, no angle: released at asin(0.02) = 0.0200013 rad)" in text
