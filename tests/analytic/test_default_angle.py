"""The rigid levels' default release angle: a rigid case's own, whichever of
``preload.angle`` and ``preload.tilt`` gives it (since 09918a6 a rigid case's
``preload.tilt`` is a FEM case's pull ratio, which the levels still took as the angle);
a FEM case's ``preload.tilt``, the angle of the manual's rigid table."""

import math

import pytest

import rocking_contact as rc
from rocking_contact.analytic.rigid_levels import default_angle, reference_collisions


def test_a_rigid_case_given_a_pull_is_released_at_its_angle():
    case = rc.load_case("sdnv105_rigid", {"preload.tilt": 0.02})
    assert case.release_angle == pytest.approx(math.asin(0.02), rel=1e-15)
    assert default_angle(case) == case.release_angle
    ours = reference_collisions(case, count=1)["nonlinear"].impacts[0]
    given = reference_collisions(case, count=1, tilt=case.release_angle)["nonlinear"]
    assert ours == given.impacts[0]


def test_a_fem_case_keeps_the_manuals_angle():
    case = rc.load_case("sdnv105a")
    assert default_angle(case) == case.preload.tilt == 0.01  # the rigid table's angle
