"""A shock's ``normal`` and the support's ``direction`` are normalised where they are read:
a run that gives a scaled copy of its file's changes nothing (``extra.changes``, the
grading), one that turns it does, and a zero vector is refused at load."""

import numpy as np
import pytest

import rocking_contact as rc
from rocking_contact.config import CaseError, load_case, physics_changes, shipped_cases


def _discrete_cases():
    return [name for name in shipped_cases() if load_case(name).case.kind == "discrete"]


@pytest.mark.parametrize("name", _discrete_cases())
def test_a_scaled_normal_or_direction_is_no_change_of_the_case(name):
    case = load_case(name)
    overrides = {f"model.shock.{i}.normal": [2.5 * c for c in shock.normal]
                 for i, shock in enumerate(case.model.shock)}
    overrides["model.support.direction"] = [0.5 * c for c in case.model.support.direction]
    assert physics_changes(load_case(name, overrides)) == []


def test_a_turned_or_reversed_normal_is_a_change():
    turned = load_case("sdnd101a", {"model.shock.0.normal": [1.0, 0.5, 0.0]})
    reversed_ = load_case("sdnd101a", {"model.shock.0.normal": [-2.0, 0.0, 0.0]})
    direction = load_case("sdnd102c", {"model.support.direction": [1.0, 1.0, 0.0]})
    assert physics_changes(turned) == physics_changes(reversed_) == ["model.shock.0.normal"]
    assert physics_changes(direction) == ["model.support.direction"]


def test_a_zero_normal_is_still_refused_at_load():
    with pytest.raises(CaseError, match=r"model\.shock\[0\]\.normal: got \[0\.0, 0\.0, "
                                        r"0\.0\], the zero vector; allowed: a vector of "
                                        r"length >= 1e-12 \(it is normalised\)"):
        load_case("sdnd101a", {"model.shock.0.normal": [0.0, 0.0, 0.0]})


def test_a_run_with_a_scaled_normal_is_graded_as_its_case(tmp_path):
    plain = rc.run(load_case("sdnd101a"), out=tmp_path / "plain", plots=False, quiet=True)
    scaled = rc.run(load_case("sdnd101a", {"model.shock.0.normal": [2.0, 0.0, 0.0]}),
                    out=tmp_path / "scaled", plots=False, quiet=True)
    assert scaled.extra["changes"] == [] and scaled.warnings == []
    assert [c["passed"] for c in scaled.checks] == [c["passed"] for c in plain.checks]
    assert any(c["passed"] is not None for c in scaled.checks)  # graded, not for information
    assert (tmp_path / "scaled" / "history.csv").read_bytes() == (
        tmp_path / "plain" / "history.csv").read_bytes()
    assert np.array_equal(scaled.history["DX_NO1"], plain.history["DX_NO1"])


@pytest.mark.parametrize("scale", [1e200, 1e-11])
def test_a_normal_of_any_length_runs_as_its_unit_vector(tmp_path, scale):
    """The length is divided out by math.hypot: np.linalg.norm of [1e200, 0, 0] overflowed
    to inf and the normal became [0, 0, 0] (0 of 12 checks passed, 'no change' said)."""
    plain = rc.run(load_case("sdnd101a"), write=False, plots=False, quiet=True)
    scaled = rc.run(load_case("sdnd101a", {"model.shock.0.normal": [scale, 0.0, 0.0]}),
                    write=False, plots=False, quiet=True)
    assert np.array_equal(scaled.history["DX_NO1"], plain.history["DX_NO1"])
    assert [c["passed"] for c in scaled.checks] == [c["passed"] for c in plain.checks]


def test_a_normal_too_short_to_have_a_direction_is_refused_with_its_length():
    with pytest.raises(CaseError, match=r"normal: got \[1e-300, 0\.0, 0\.0\], of length "
                                        r"1e-300; allowed: a vector of length >= 1e-12"):
        load_case("sdnd101a", {"model.shock.0.normal": [1e-300, 0.0, 0.0]})
