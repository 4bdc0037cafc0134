"""A window's (or a refinement's) own alpha is checked once the case's scheme is known:
with a scheme that has no alpha it is refused as such whatever its value, and otherwise
against the range of the scheme in force where it applies. Before, the window's field
check ran first: alpha = 0.5 with scheme.type 'newmark' was told its range, not that the
scheme has none."""

import pytest

import rocking_contact as rc


def refused(given):
    with pytest.raises(rc.CaseError) as info:
        rc.load_case("sdnv105a", given)
    assert "\n" not in str(info.value)
    assert info.value.file.endswith("sdnv105a.toml (with overrides)")
    return info.value


@pytest.mark.parametrize("alpha", [0.5, -0.1, -0.5])
def test_a_window_alpha_without_an_alpha_scheme_is_refused_as_such(alpha):
    error = refused({"scheme.type": "newmark", "time.window[0].alpha": alpha})
    assert error.key == "time.window[0].alpha"
    assert error.problem == (
        f"{alpha!r} has no effect with scheme.type = 'newmark', which has no alpha; "
        "allowed: leave it out, or scheme.type 'alpha_newmark' or 'hht'")


@pytest.mark.parametrize(("given", "scheme"), [
    ({}, "alpha_newmark"),  # sdnv105a's scheme.type
    ({"scheme.type": "hht"}, "hht"),
    ({"time.window[0].scheme": "hht"}, "hht"),  # the window's own scheme
])
def test_a_window_alpha_is_checked_against_its_schemes_range(given, scheme):
    error = refused({**given, "time.window[0].alpha": 0.3})
    assert error.key == "time.window[0].alpha"
    assert error.problem == f"got 0.3, allowed: a number in [-1/3, 0] (the {scheme!r} " \
                            "scheme's alpha)"
    assert rc.load_case("sdnv105a", {**given, "time.window[0].alpha": -1 / 3})


def test_a_refinements_alpha_too():
    refine = {"step": 1e-5, "hold": 0.0, "alpha": 0.5}
    error = refused({"scheme.type": "newmark", "time.window": [], "time.refine": refine})
    assert error.key == "time.refine.alpha" and "which has no alpha" in error.problem
    error = refused({"time.refine": refine})
    assert error.key == "time.refine.alpha"
    assert error.problem.startswith("got 0.5, allowed: a number in [-1/3, 0]")


def test_the_scheme_given_last_is_the_key_named():
    """sdnv105a's windows set their alpha; a scheme without one given over them is the key
    to change (or the windows' alphas to leave out)."""
    error = refused({"scheme.type": "newmark"})
    assert error.key == "scheme.type"
    assert error.problem == (
        "'newmark' has no alpha, and time.window[0].alpha = -0.1 is for a scheme that has; "
        "allowed: 'alpha_newmark' or 'hht', or leave time.window[0].alpha out")
