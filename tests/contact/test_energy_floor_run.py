"""A block run measures its energy figures against the least energy of its motion
(post.energy.motion_floor) where the motion's own energies are round-off: sdnv105d without
gravity stays at rest, its kinetic energy 1e-17 J, and its residual of 4e-14 J was
386 times that largest kinetic energy (U1's block without gravity: 'the total energy rose
... 4.72e+03 % ... do not trust the results')."""

import pytest

import rocking_contact as rc
from rocking_contact.post.energy import motion_floor


@pytest.mark.filterwarnings("ignore")
def test_a_block_at_rest_is_measured_against_the_least_energy_of_its_motion():
    case = rc.load_case("sdnv105d", {"loading.gravity": 0.0, "collisions.rigid": False,
                                     "time.end": 0.005})
    result = rc.run(case, write=False, plots=False, quiet=True)
    energy = result.extra["energy"]
    floor = motion_floor(case)
    assert floor > 1e3 * energy["residual_max_abs"]  # round-off against a physical scale
    assert energy["motion_floor"] == energy["motion"] == floor
    assert not [w for w in result.warnings if "do not trust" in w], result.warnings
