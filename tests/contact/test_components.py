"""The per-contact algebra the contact treatments share (contact/components.py)."""

import numpy as np

from rocking_contact.contact.components import (
    CONE_MARGIN,
    SLIP_MOTION,
    on_cone,
    on_table_x,
    point_columns,
    sliding,
    summary_columns,
)


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


def test_point_columns_name_each_point_normal_then_horizontal_in_the_points_order():
    values = np.array([10.0, 2.0, 0.0, 0.0, 7.0, -1.0])  # (N, T) of three contacts
    normal = np.array([[0.0, 1.0]] * 3)
    tangent = np.array([[1.0, 0.0]] * 3)
    out = point_columns("R", {"O": 2, "A": 0}, values, (normal, tangent))
    assert list(out) == ["RN_O", "RX_O", "RN_A", "RX_A"]
    assert out == {"RN_O": 7.0, "RX_O": 1.0, "RN_A": 10.0, "RX_A": -2.0}
    # without frames the normal is y and the tangent x: the same numbers on a flat table
    assert point_columns("R", {"O": 2, "A": 0}, values, None) == out


def test_summary_columns_keep_their_order_and_leave_out_what_a_treatment_lacks():
    full = summary_columns(gap_min=-1e-6, contacts=2, sliding=1, iterations=3,
                           absorbed=0.5, friction=0.1)
    assert list(full) == ["GAP_MIN", "CONTACTS", "SLIDING", "CONTACT_ITERATIONS",
                          "ECONTACT", "EFRICTION"]
    springs = summary_columns(gap_min=None, contacts=2, sliding=1, iterations=None,
                              absorbed=0.5, friction=None)
    assert springs == {"CONTACTS": 2.0, "SLIDING": 1.0, "ECONTACT": 0.5}
    assert list(springs) == ["CONTACTS", "SLIDING", "ECONTACT"]


def test_a_contact_slides_only_pressed_on_the_cone_and_moving():
    """Without friction every pressed contact is on the cone: it slides only if it moved
    over the step by more than SLIP_MOTION (m), either way along the tangent."""
    normal = np.array([10.0, 10.0, 10.0, 0.0, 10.0])
    tangential = np.array([0.0, 0.0, 0.0, 0.0, 0.0])
    slip = np.array([0.0, 0.5 * SLIP_MOTION, -2.0 * SLIP_MOTION, 1e-6, 2.0 * SLIP_MOTION])
    assert sliding(normal, tangential, 0.0, slip).tolist() == [False, False, True, False,
                                                              True]
    # inside the cone it sticks however it moves; on it (or beyond) it slides
    assert sliding(np.array([10.0, 10.0]), np.array([2.0, -3.0]), 0.3,
                   np.array([1e-3, 1e-3])).tolist() == [False, True]
