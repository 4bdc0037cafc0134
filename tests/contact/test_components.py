"""The per-contact algebra the contact treatments share (contact/components.py)."""

import numpy as np

from rocking_contact.contact.components import CONE_MARGIN, on_cone, on_table_x


def test_the_table_receives_the_opposite_of_the_contact_force():
    # flat table: normal +y, tangent +x; the block pushed along +x by T = 3 N
    assert on_table_x(5.0, 3.0, np.array([0.0, 1.0]), np.array([1.0, 0.0])) == -3.0
    # a frame turned by 90 degrees: the normal along +x carries N to the table as -N
    assert on_table_x(5.0, 3.0, np.array([1.0, 0.0]), np.array([0.0, -1.0])) == -5.0


def test_a_force_on_the_coulomb_cone_to_the_margin_counts_as_on_it():
    normal = np.array([100.0, 100.0, 100.0, 0.0])
    edge = 0.5 * 100.0 * (1.0 - CONE_MARGIN)
    tangential = np.array([-50.0, edge, edge * (1.0 - 1e-9), 0.0])
    assert on_cone(normal, tangential, 0.5).tolist() == [True, True, False, True]
