"""A window's (or a refinement's) own alpha is checked once the case's scheme is known:
with a scheme that has no alpha it is refused as such whatever its value, and otherwise
against the range of the scheme in force where it applies. Before, the window's field
check ran first: alpha = 0.5 with scheme.type 'newmark' was told its range, not that the
scheme has none."""

from pathlib import Path

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
    assert error.problem.startswith(
        f"{alpha!r} has no effect with scheme.type = 'newmark', which has no alpha; "
        "allowed: leave it out (with time.window[1].alpha, "), error.problem


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


#: the alphas of their own that sdnv105a's file gives: its six windows' and its refinement's
SDNV105A_ALPHAS = [("time.window[0].alpha", -0.1),
                   *((f"time.window[{i}].alpha", -0.2) for i in range(1, 6)),
                   ("time.refine.alpha", -0.2)]


def test_the_scheme_given_last_is_the_key_named():
    """sdnv105a's windows and refinement set their alpha; a scheme without one given over
    them is the key to change, or every one of those alphas to leave out: they are all
    named (only time.window[0].alpha was, and leaving it out was refused again for
    time.window[1].alpha)."""
    error = refused({"scheme.type": "newmark"})
    assert error.key == "scheme.type"
    given = ", ".join(f"{key} = {value!r}" for key, value in SDNV105A_ALPHAS[:-1])
    assert error.problem.startswith(
        f"'newmark' has no alpha, and {given} and time.refine.alpha = -0.2 are for a scheme "
        "that has; allowed: 'alpha_newmark' or 'hht', or leave them out"), error.problem


def test_an_alpha_named_names_the_others_given():
    error = refused({"scheme.type": "newmark", "time.window[2].alpha": -0.3})
    assert error.key == "time.window[2].alpha"
    others = [key for key, _ in SDNV105A_ALPHAS if key != "time.window[2].alpha"]
    assert error.problem.startswith(
        "-0.3 has no effect with scheme.type = 'newmark', which has no alpha; allowed: leave "
        f"it out (with {', '.join(others[:-1])} and {others[-1]}), or scheme.type "
        "'alpha_newmark' or 'hht'"), error.problem


def test_leaving_out_the_alphas_named_loads(tmp_path):
    """The keys the refusal names are all there is to leave out: a copy of sdnv105a without
    its windows' and refinement's alpha lines loads with scheme.type 'newmark'."""
    text = (Path(rc.__file__).parents[1] / "cases" / "sdnv105a.toml").read_text()
    head, scheme = text.split("\n[scheme]\n")
    kept = [line for line in head.splitlines() if not line.startswith("alpha = ")]
    assert len(head.splitlines()) - len(kept) == len(SDNV105A_ALPHAS)
    path = tmp_path / "sdnv105a.toml"
    path.write_text("\n".join(kept) + "\n\n[scheme]\n" + scheme)
    case = rc.load_case(path, {"scheme.type": "newmark", "scheme.alpha": 0.0})
    assert case.scheme.type == "newmark"
    assert all(w.alpha is None for w in case.time.window) and case.time.refine.alpha is None
