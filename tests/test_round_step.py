"""A step that does not divide its run is refused with a step of few digits that does,
first: 3e-5 s over a 0.5 s run was offered 2.99994e-05 s alone (a new user's audit)."""

import pytest

from rocking_contact.config import CaseError, load_case
from rocking_contact.config.sections import round_step


@pytest.mark.parametrize(("span", "step", "expected"), [
    (0.5, 3e-5, 2.5e-05),  # 2 digits: no 1-digit step in [0.75, 1] x 3e-5 divides 0.5
    (0.5, 3e-4, 0.00025),
    (0.5, 1.2e-5, 1e-05),  # from the decade below
    (1.0, 7e-3, 0.00625),  # 3 digits
    (0.05, 1.00000001e-4, 0.0001),
    (1 / 3, 1e-3, None),  # no decimal of 3 digits divides a third
])
def test_the_round_step_divides_the_run_and_is_no_longer_than_the_step(span, step, expected):
    found = round_step(step, 0.0, span)
    assert found == expected
    if found is not None:
        n = round(span / found)
        assert abs(n * found - span) <= 1e-9 * span and found <= step
        assert load_case("sdnd101a", {"time.end": span, "time.step": found}
                         ).time.n_steps == n


def test_the_refusal_says_why_and_offers_the_round_step_first():
    with pytest.raises(CaseError) as err:
        load_case("sdnd101a", ["time.step=3e-5"])
    assert err.value.key == "time.step"
    assert err.value.problem.startswith(
        "3e-05 does not divide the run from time.start 0 to time.end 0.5 s (16666.7 steps: "
        "16666 steps of 3e-05 s end at 0.49998 s, 16667 at 0.50001 s); allowed: a step that "
        "does, such as 2.5e-05 (20000 steps) or 2.99994e-05 (16667 steps)")
