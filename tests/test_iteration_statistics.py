"""Newton iterations per step from a history (post/iterations.py)."""

import numpy as np

from rocking_contact.post.iterations import iteration_statistics


def test_snes_and_contact_iterations_add_up_per_step_the_first_row_left_out():
    history = {"NEWTON": np.array([0.0, 2.0, 3.0, 1.0]),
               "CONTACT_ITERATIONS": np.array([9.0, 1.0, 3.0, 0.0])}
    assert iteration_statistics(history) == {"iterations_per_step_mean": 10.0 / 3.0,
                                             "iterations_per_step_max": 6.0}
    # without contact, the SNES alone
    assert iteration_statistics({"NEWTON": history["NEWTON"]}) == {
        "iterations_per_step_mean": 2.0, "iterations_per_step_max": 3.0}


def test_no_statistics_without_a_step():
    assert iteration_statistics({"NEWTON": np.array([0.0])}) == {}
    assert iteration_statistics({"DY_O": np.array([0.0, 1.0])}) == {}
