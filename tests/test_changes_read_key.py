"""Of two keys that give one setting, a run changes the one it reads: ``rigid --set
preload.tilt=0.01`` over sdnv105_rigid's ``preload.angle = 0.01`` said 'the run changes
preload.angle' (a key the user never gave, left behind at None) and titled its plots
'sdnv105_rigid with preload.angle, preload.tilt = 0.01'."""

import rocking_contact as rc
from rocking_contact.config.changes import physics_changes


def test_a_tilt_over_the_files_angle_changes_the_tilt():
    assert physics_changes(rc.load_case("sdnv105_rigid", {"preload.tilt": 0.01})) == [
        "preload.tilt"]
    assert physics_changes(rc.load_case("sdnv105_rigid", {"preload.tilt": 0.02})) == [
        "preload.tilt"]
    assert physics_changes(rc.load_case("sdnv105_rigid", {"preload.angle": 0.02})) == [
        "preload.angle"]
