"""The step_integral quantity: exact integrals of step-mean forces (theta-scheme reactions)."""

import numpy as np
import pytest

from rocking_contact.config import QuantitySpec
from rocking_contact.post.references import evaluate


def test_step_integral_is_the_integral_of_the_held_step_values():
    # three steps of 1e-4 s carrying impulses 1e-3, 2e-3, 3e-3 N.s: mean forces 10, 20, 30 N
    history = {"time": np.array([0.0, 1e-4, 2e-4, 3e-4]), "RN": np.array([0.0, 10.0, 20.0, 30.0])}
    whole = QuantitySpec(name="p", column="RN", op="step_integral")
    assert evaluate(whole, history) == pytest.approx(6e-3, rel=1e-12)
    # half of the first step, all of the second, half of the third
    part = QuantitySpec(name="p", column="RN", op="step_integral", window=(0.5e-4, 2.5e-4))
    assert evaluate(part, history) == pytest.approx(0.5e-3 + 2e-3 + 1.5e-3, rel=1e-12)
    # the trapezoidal integral of the same samples is not the impulse
    trapezoid = QuantitySpec(name="p", column="RN", op="integral", window=(0.5e-4, 2.5e-4))
    assert evaluate(trapezoid, history) != pytest.approx(4e-3, rel=1e-3)
