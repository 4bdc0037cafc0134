"""Reference values in the discrete case files are those of the analytic modules."""

import math

import numpy as np
import pytest

from rocking_contact.analytic.coulomb_oscillator import displacement, reversals
from rocking_contact.analytic.forced_impact import response
from rocking_contact.analytic.impact_oscillator import ImpactOscillator
from rocking_contact.config import load_case


def refs(name, source_prefix):
    case = load_case(name)
    return {r.quantity: r.value for r in case.reference if r.source.startswith(source_prefix)}


def test_sdnd101_references_from_impact_oscillator():
    r = refs("sdnd101a", "analytic")
    o = ImpactOscillator(m=100.0, k=1e4, kc=1e6, v0=1.0)
    for k in (1, 2):
        s = o.shock(k)
        for field in ("max_force", "t_max", "duration", "impulse", "speed"):
            assert r[f"impact.NO1.{k}.{field}"] == pytest.approx(s[field], rel=1e-8)
    assert r["impact.NO1.max_abs_force"] == pytest.approx(o.max_force, rel=1e-8)


def test_sdnd100_references_from_coulomb_decrement():
    r = refs("sdnd100a", "analytic")
    stops = reversals(m=1.0, k=1e4, mu=0.1, normal_force=10.0, u0=0.85e-3)
    assert len(stops) == 4
    for k, (t, x) in enumerate(stops, start=1):
        assert t == pytest.approx(k * math.pi / 100)
        assert r[f"DY_NO1(T{k})"] == pytest.approx(x * math.cos(math.pi / 4), rel=1e-12)
    # The closed form u(t) passes through the same reversal points and then stays put.
    times = np.array([t for t, _ in stops] + [0.3])
    u = displacement(times, m=1.0, k=1e4, mu=0.1, normal_force=10.0, u0=0.85e-3)
    np.testing.assert_allclose(u[:4], [x for _, x in stops], rtol=1e-12)
    assert u[4] == pytest.approx(stops[-1][1])


def test_sdnd102_exact_references_from_piecewise_solution():
    r = refs("sdnd102c", "exact")
    times = np.array([0.1, 0.2, 0.3, 0.4, 0.5])
    x = response(times, m=25.0, k=98696.0, kc=5.76e7, gap=5e-4,
                 acceleration=lambda t: np.sin(2 * np.pi * 10 * t))
    for t, v in zip(times, x):
        assert r[f"DX_NO2({t:g})"] == pytest.approx(v, rel=1e-8)


def test_forced_impact_without_wall_is_the_linear_resonance():
    """Gap never reached: x = response of m x'' + K x = -m sin(w t), resonant closed form."""
    w = 2 * np.pi * 10
    k = 25.0 * w**2
    times = np.linspace(0.01, 0.5, 7)
    x = response(times, m=25.0, k=k, kc=5.76e7, gap=1.0,
                 acceleration=lambda t: np.sin(w * t))
    exact = -(np.sin(w * times) - w * times * np.cos(w * times)) / (2 * w**2)
    np.testing.assert_allclose(x, exact, rtol=1e-9, atol=1e-14)
