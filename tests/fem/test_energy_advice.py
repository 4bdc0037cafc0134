"""The energy-rise warning's advice is one the case accepts: [time.refine] only where the
scheme takes it (the theta scheme, SDNV105 D, refuses it)."""

from pathlib import Path

import pytest

import rocking_contact as rc
from rocking_contact.config import shipped_cases
from rocking_contact.fem.runner import steps_remedy


def refine(name, enabled):
    """Overrides that turn a case's [time.refine] on or off (with a step and hold where
    the case has none)."""
    if not enabled or rc.load_case(name).time.refine is not None:
        return {"time.refine.enabled": enabled}
    return {"time.refine.enabled": True, "time.refine.step": 1e-5, "time.refine.hold": 0.0}


@pytest.mark.parametrize("name", [n for n in shipped_cases()
                                  if rc.load_case(n).case.kind == "block"])
def test_the_advice_is_accepted_by_the_case(name):
    """Each shipped block case, with [time.refine] on and off: the advice always says a
    smaller time.step, and names [time.refine] only where the case takes it, enabled; on,
    its hold first (a granite block's energy rose 0.44 J in a long step after a landing
    on hold = 0, and rose more with smaller steps: A3, session 31)."""
    for enabled in (False, True):
        try:
            case = rc.load_case(name, refine(name, enabled))
        except rc.CaseError as refused:
            assert enabled and "time.refine" in str(refused)
            assert rc.load_case(name).scheme.type == "theta"
            continue
        advice = steps_remedy(case)
        assert "use a smaller time.step" in advice or "or a smaller time.step" in advice
        if case.scheme.type == "theta":
            assert advice == "use a smaller time.step (the theta scheme takes no [time.refine])"
        elif case.contact.treatment == "none":
            assert advice == "use a smaller time.step"  # no contact change to refine at
        elif enabled:
            assert advice.startswith("use a longer time.refine.hold (how long the refined "
                                     "steps go on after a contact change")
            assert advice.endswith("or a smaller time.step or time.refine.step")
            assert f"contact change, now {case.time.refine.hold:.3g} s)" in advice
        else:
            assert advice.endswith("or enable [time.refine]")
            rc.load_case(name, refine(name, True))


def test_the_theta_scheme_is_told_a_smaller_step():
    """sdnv105d with 0.0105 s steps to 0.2 s creates 0.095 J (1.3 % of the energy of the
    motion, measured 2026-11-23): its warning said to use [time.refine], which the case
    then refused; it says a smaller time.step."""
    case = rc.load_case("sdnv105d", {"time.step": 0.011, "time.end": 0.2})
    result = rc.run(case, write=False, plots=False, quiet=True)
    rose = [w for w in result.warnings if w.startswith("the total energy rose")]
    assert len(rose) == 1, result.warnings
    assert rose[0].endswith("do not trust the results after it rose; use a smaller "
                            "time.step (the theta scheme takes no [time.refine]) "
                            "(docs/theta.md, 'Steps that create energy')")
    # the theta page, not the contact page of A, B and C (audit 7 #10.4), has that section
    theta_page = (Path(rc.__file__).parents[1] / "docs" / "theta.md").read_text()
    assert "\n### Steps that create energy\n" in theta_page
