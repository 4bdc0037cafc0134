"""Quantities from histories: window bounds, and the exact integral of step-mean forces
(theta-scheme reactions)."""

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


def test_open_window_leaves_out_the_samples_on_its_ends():
    """Code_Aster's test inputs filter 0.01 < t < 0.05 strictly: the samples on the ends,
    to round-off, are out of an open window and in a closed one."""
    t = np.array([0.0, 0.01, 0.02, 0.03, 0.05 - 1e-15, 0.06])
    history = {"time": t, "RN": np.array([9.0, 8.0, 2.0, 3.0, 7.0, 6.0])}
    closed = QuantitySpec(name="q", column="RN", op="max", window=(0.01, 0.05))
    open_ = QuantitySpec(name="q", column="RN", op="max", window=(0.01, 0.05), bounds="open")
    assert evaluate(closed, history) == 8.0
    assert evaluate(open_, history) == 3.0
    spec = QuantitySpec(name="q", column="RN", op="argmin", window=(0.01, 0.05), bounds="open")
    assert evaluate(spec, history) == 0.02
    # the open integral is the trapezoid over the inner samples only
    spec = QuantitySpec(name="q", column="RN", op="integral", window=(0.01, 0.05), bounds="open")
    assert evaluate(spec, history) == pytest.approx(0.01 * (2 + 3) / 2)
    # a window holding no inner sample gives NaN, as a closed one without samples does
    spec = QuantitySpec(name="q", column="RN", op="max", window=(0.02, 0.03), bounds="open")
    assert np.isnan(evaluate(spec, history))


@pytest.mark.parametrize("op", ["max", "argmin", "integral", "step_integral", "step_impulse"])
def test_a_window_the_history_ends_inside_has_no_value(op):
    """A run shortened, failed or interrupted inside a window has seen part of it: the
    extremum or integral of that part is not the window's. A window ending on the last
    sample, to round-off, is whole."""
    t = np.array([0.0, 0.01, 0.02, 0.03])
    history = {"time": t, "RN": np.array([1.0, 4.0, 2.0, 3.0])}
    assert np.isnan(evaluate(QuantitySpec(name="q", column="RN", op=op, window=(0.0, 0.05)),
                             history))
    whole = QuantitySpec(name="q", column="RN", op=op, window=(0.0, 0.03 + 1e-12))
    assert np.isfinite(evaluate(whole, history))


@pytest.mark.parametrize("fields", [dict(op="max"), dict(op="final", window=(0.0, 1.0)),
                                    dict(op="step_integral", window=(0.0, 1.0))])
def test_open_bounds_need_a_window_and_an_extremum_or_integral(fields):
    spec = QuantitySpec(name="q", column="RN", bounds="open", **fields)
    with pytest.raises(ValueError, match="bounds: 'open' needs a window"):
        spec.validate()


def test_crossing_is_the_first_interpolated_instant_at_the_level():
    t = np.array([0.0, 0.1, 0.2, 0.3, 0.4])
    history = {"time": t, "THETA": np.array([0.0, 0.02, 0.01, -0.03, 0.01])}
    down = QuantitySpec(name="q", column="THETA", op="crossing", level=0.0, window=(0.05, 0.4))
    assert evaluate(down, history) == pytest.approx(0.2 + 0.1 * 0.01 / 0.04, rel=1e-12)
    # the first crossing of the level either way; a sample on the level is the instant
    up = QuantitySpec(name="q", column="THETA", op="crossing", level=-0.01, window=(0.3, 0.4))
    assert evaluate(up, history) == pytest.approx(0.35, rel=1e-12)
    on = QuantitySpec(name="q", column="THETA", op="crossing", level=0.02, window=(0.1, 0.4))
    assert evaluate(on, history) == 0.1
    never = QuantitySpec(name="q", column="THETA", op="crossing", level=1.0)
    assert np.isnan(evaluate(never, history))


def test_a_crossing_may_ask_for_its_direction():
    t = np.array([0.0, 0.1, 0.2, 0.3, 0.4])
    history = {"time": t, "THETA": np.array([0.0, 0.02, 0.01, -0.03, 0.01])}

    def at(level, direction, window=None):
        return evaluate(QuantitySpec(name="q", column="THETA", op="crossing", level=level,
                                     direction=direction, window=window), history)

    # level 0.005: up between 0 and 0.1, down between 0.2 and 0.3, up between 0.3 and 0.4
    assert at(0.005, "up") == pytest.approx(0.1 * 0.005 / 0.02, rel=1e-12)
    assert at(0.005, "either") == at(0.005, "up")
    assert at(0.005, "down") == pytest.approx(0.2 + 0.1 * 0.005 / 0.04, rel=1e-12)
    assert at(0.005, "up", (0.1, 0.4)) == pytest.approx(0.3 + 0.1 * 0.035 / 0.04, rel=1e-12)
    # a first sample on the level counts either way only; the rise from it is no crossing
    assert at(0.0, "either") == 0.0
    assert at(0.0, "down") == pytest.approx(0.2 + 0.1 * 0.01 / 0.04, rel=1e-12)
    assert at(0.0, "up") == pytest.approx(0.3 + 0.1 * 0.03 / 0.04, rel=1e-12)
    assert np.isnan(at(-0.05, "down"))


@pytest.mark.parametrize("op, level", [("crossing", None), ("max", 0.0)])
def test_level_goes_with_crossing_only(op, level):
    with pytest.raises(ValueError, match="level: required with op 'crossing', and only"):
        QuantitySpec(name="q", column="THETA", op=op, level=level).validate()


def test_direction_goes_with_crossing_only():
    with pytest.raises(ValueError, match="direction: only with op 'crossing'"):
        QuantitySpec(name="q", column="THETA", op="max", direction="up").validate()


def test_a_crossing_found_before_a_shortened_run_ends_is_its_windows_first():
    """sdnv105d_shaking to 0.4 s lands at 0.318 s, inside impact_time's window [0.1, 0.6]
    s: the crossing was thrown away as 'not reached' with the window's unreached end. An
    extremum still needs the whole window."""
    t = np.linspace(0.0, 0.4, 401)
    h = {"time": t, "THETA": 0.3183 - t}
    crossing = QuantitySpec(name="impact_time", column="THETA", op="crossing", level=0.0,
                            window=(0.1, 0.6))
    assert evaluate(crossing, h) == pytest.approx(0.3183)
    assert np.isnan(evaluate(crossing, {"time": t, "THETA": 1.0 + t}))
    assert np.isnan(evaluate(QuantitySpec(name="m", column="THETA", op="max",
                                          window=(0.1, 0.6)), h))


def test_step_impulse_takes_the_whole_steps_a_window_touches():
    """A theta step's impulse is not placed within the step: a window ending inside a step
    takes all of it (sdnv105d's landing spans two 1e-4 s steps, 42.44 and 12.89 N.s, and
    [0.05440, 0.05455] s cut the second in half). Steps the window meets only to round-off
    on its ends are left out."""
    history = {"time": np.array([0.0, 1e-4, 2e-4, 3e-4]), "RN": np.array([0.0, 10.0, 20.0, 30.0])}
    part = QuantitySpec(name="p", column="RN", op="step_impulse", window=(0.5e-4, 2.5e-4))
    assert evaluate(part, history) == pytest.approx(6e-3, rel=1e-12)
    inner = QuantitySpec(name="p", column="RN", op="step_impulse", window=(1e-4 + 1e-17, 2e-4))
    assert evaluate(inner, history) == pytest.approx(2e-3, rel=1e-12)
    whole = QuantitySpec(name="p", column="RN", op="step_impulse")
    assert evaluate(whole, history) == pytest.approx(6e-3, rel=1e-12)
