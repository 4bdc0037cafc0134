"""The damping force that the energy balance integrates into ``EDAMP``: the Rayleigh terms
of the internal force, assembled by themselves."""

import math

import fem_checks as checks
import numpy as np
import pytest


def _state(body, rotation: float) -> tuple[np.ndarray, np.ndarray]:
    """A block turned by ``rotation`` (rad) and stretched vertically by 1e-5, moving with a
    translation, a spin and a vertical stretching rate (m, m/s; local arrays)."""
    x = body.V.tabulate_dof_coordinates()[:, :2]
    c, s = math.cos(rotation), math.sin(rotation)
    stretched = x * [1.0, 1.0 + 1e-5]
    u = np.column_stack([c * stretched[:, 0] - s * stretched[:, 1],
                         s * stretched[:, 0] + c * stretched[:, 1]]) - x
    current = x + u
    v = (np.array([0.3, -0.2]) + 2.0 * np.column_stack([-current[:, 1], current[:, 0]])
         + np.column_stack([np.zeros(len(x)), 0.5 * current[:, 1]]))
    return u.ravel(), v.ravel()


@pytest.mark.parametrize("kinematics,rotation", [("small_strain", 0.0),
                                                 ("large_rotation", 0.3)])
def test_damping_force_is_the_velocity_part_of_the_internal_force(kinematics, rotation):
    """Both Rayleigh terms on a strained, turned and moving block: the damping force
    assembled alone is the internal force at (u, v) minus the internal force at (u, 0) (the
    two assemblies the balance used to take), to the round-off of the internal force."""
    body = checks.block_body(kinematics, rayleigh_stiffness=1e-4, rayleigh_mass=2.0)
    u, v = _state(body, rotation)
    body.set_point(u, v)
    alone, moving, still = body.vector(), body.vector(), body.vector()
    body.damping_force(alone)
    body.kinematics.internal(moving)
    body.set_point(u, None)
    body.kinematics.internal(still)
    expected = moving.array - still.array
    scale = np.max(np.abs(moving.array))
    assert np.max(np.abs(expected)) > 1e-3 * scale  # the damping is not lost in the elastic
    assert np.max(np.abs(alone.array - expected)) <= 1e-13 * scale


@pytest.mark.parametrize("kinematics", ["small_strain", "large_rotation"])
def test_mass_proportional_damping_force_is_beta_m_v(kinematics):
    """Without the stiffness term the damping force is ``beta M v`` whatever the
    deformation."""
    beta = 2.0
    body = checks.block_body(kinematics, rayleigh_mass=beta)
    u, v = _state(body, 0.3 if kinematics == "large_rotation" else 0.0)
    body.set_point(u, v)
    alone, expected = body.vector(), body.vector()
    body.damping_force(alone)
    body.M.mult(body.v.x.petsc_vec, expected)
    expected.scale(beta)
    scale = np.max(np.abs(expected.array))
    assert scale > 0.0
    assert np.max(np.abs(alone.array - expected.array)) <= 1e-14 * scale
