"""Impact post-processing on signals with known impacts."""

import math

import numpy as np
import pytest

from rocking_contact.post.impacts import analyse, find_impacts, statistics


def half_sines(t, starts, duration, amplitude):
    """Normal force pulses and a penetration that crosses zero smoothly at their ends."""
    fn, pn = np.zeros_like(t), -np.ones_like(t)
    for s in starts:
        near = (t > s - duration / 2) & (t < s + 1.5 * duration)
        pn[near] = np.sin(np.pi * (t[near] - s) / duration)
        inside = (t > s) & (t < s + duration)
        fn[inside] = amplitude * np.sin(np.pi * (t[inside] - s) / duration)
    return fn, pn


def test_half_sine_impacts_are_measured():
    t = np.linspace(0.0, 1.0, 100001)
    fn, pn = half_sines(t, [0.1, 0.5], 0.03, 1000.0)
    vn = np.gradient(pn, t)
    impacts = find_impacts(t, fn, vn, pn)
    assert len(impacts) == 2
    for imp, s in zip(impacts, [0.1, 0.5]):
        assert imp["start"] == pytest.approx(s, abs=1e-7)
        assert imp["duration"] == pytest.approx(0.03, abs=1e-7)
        assert imp["max_force"] == pytest.approx(1000.0, rel=1e-6)
        assert imp["t_max"] == pytest.approx(s + 0.015, abs=1e-5)
        assert imp["impulse"] == pytest.approx(2 * 1000.0 * 0.03 / np.pi, rel=1e-6)
        assert imp["speed"] == pytest.approx(np.pi / 0.03, rel=1e-3)


def test_threshold_and_rest_duration_merge():
    t = np.linspace(0.0, 1.0, 10001)
    fn, pn = half_sines(t, [0.1, 0.135, 0.6], 0.03, 100.0)
    vn = np.zeros_like(t)
    assert len(find_impacts(t, fn, vn, pn)) == 3
    assert len(find_impacts(t, fn, vn, pn, min_rest=0.01)) == 2
    # A threshold above the peaks sees nothing; just below them, short impacts.
    assert find_impacts(t, fn, vn, threshold=101.0) == []
    short = find_impacts(t, fn, vn, threshold=99.0)
    assert len(short) == 3 and all(i["duration"] < 0.005 for i in short)


def test_statistics_and_quantities():
    t = np.linspace(0.0, 1.0, 10001)
    fn, pn = half_sines(t, [0.1, 0.5], 0.03, 100.0)
    fn[(t > 0.5)] *= 3.0
    impacts, stats, q = analyse(t, {"S": ("NO1", fn, np.zeros_like(t), pn)}, threshold=0.0,
                                min_rest=0.0, classes=4)
    s = stats["S"]
    assert s["count"] == 2 and q["impact.S.count"] == 2
    assert s["max_abs_force"] == pytest.approx(300.0, rel=1e-6)
    assert s["mean_max_force"] == pytest.approx(200.0, rel=1e-6)
    assert s["std_max_force"] == pytest.approx(100.0, rel=1e-6)
    assert [c["count"] for c in s["histogram"]] == [0, 1, 0, 1]
    assert sum(c["probability"] for c in s["histogram"]) == pytest.approx(1.0)
    assert q["impact.S.2.max_force"] == pytest.approx(300.0, rel=1e-6)
    assert impacts[0]["node"] == "NO1" and impacts[1]["index"] == 2


def test_a_damped_shock_lets_go_before_its_penetration_ends():
    """FN = kn p + cn dp/dt drops to 0 while p > 0 (separating fast): the end is where FN
    reaches 0, not the penetration's zero extrapolated beyond the samples (sdnd101a with
    cn = 2e4 N.s/m: 0.0398 s reported for an impact whose force lasted 0.0198 s)."""
    t = np.linspace(0.0, 0.1, 1001)
    pn = np.where(t < 0.05, t, 0.1 - t)          # in at t = 0, out at 0.1 s
    fn = np.clip(np.where(t < 0.05, 1.0, -1.0) + pn * 10.0, 0.0, None)  # lets go at 0.05 s
    fn[0] = 0.0
    [impact] = find_impacts(t, fn, np.gradient(pn, t), pn)
    last = np.flatnonzero(fn > 0)[-1]
    assert t[last] < impact["end"] <= t[last + 1]
    assert impact["duration"] == pytest.approx(impact["end"] - impact["start"])


def test_a_diverging_signal_is_measured_without_numpy_warnings():
    """A run that blows up records penetrations of 1e200 m before they turn inf: the
    contact edges are found on their signs (their product overflowed, with a RuntimeWarning
    printed beside the run's one error line)."""
    import warnings

    t = np.linspace(0.0, 1.0, 11)
    pn = np.array([-1.0, 1.0, -1.0, 1e200, -1e200, 1e200, -1e200, 1e200, -1e200, 1e200, -1e200])
    fn = np.where(pn > 0.0, 1e10, 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        impacts = find_impacts(t, fn, np.zeros_like(t), pn)
    assert len(impacts) == 5 and impacts[0]["start"] == pytest.approx(0.05)


def test_a_damped_shock_ends_where_its_force_does_between_samples():
    """A 1 kg mass on a 1e6 N/m, 200 N.s/m stop, sampled every 1e-5 s: the force
    kn p + cn dp/dt reaches 0 before p does, between two samples. FN, clipped, and PN put
    that end on a sample or past it (1e-5 s late on a 2-dof chain: durations 2e-3 to 5e-3
    long); the contact signal min(kn p, kn p + cn dp/dt) puts it within a small part of a
    step."""
    kn, cn, m, v0, dt = 1e6, 200.0, 1.0, 1.0, 1e-5
    w0, zeta = np.sqrt(kn / m), cn / (2 * np.sqrt(kn * m))
    wd = w0 * np.sqrt(1 - zeta**2)
    t = np.arange(-0.3e-4, 4e-3, dt) + 0.37 * dt           # no sample on an edge
    inside = t > 0.0
    decay = np.exp(-zeta * w0 * np.where(inside, t, 0.0))
    pn = np.where(inside, v0 / wd * decay * np.sin(wd * t), v0 * t)
    vn = np.where(inside, v0 * decay * (np.cos(wd * t) - zeta * w0 / wd * np.sin(wd * t)), v0)
    # the exact end, where kn p + cn dp/dt = 0: tan(wd t) = -2 zeta sqrt(1-zeta^2)/(1-2 zeta^2)
    end = (np.pi + np.arctan2(-2 * zeta * np.sqrt(1 - zeta**2), 1 - 2 * zeta**2)) / wd
    pushes = (pn > 0.0) & (kn * pn + cn * vn > 0.0)
    fn = np.where(pushes, kn * pn + cn * vn, 0.0)
    contact = np.minimum(kn * pn, kn * pn + cn * vn)
    [plain] = find_impacts(t, fn, vn, pn)
    [signal] = find_impacts(t, fn, vn, pn, contact=contact)
    assert abs(signal["end"] - end) <= 0.02 * dt
    assert abs(plain["end"] - end) > 0.2 * dt   # what it was without the signal
    # the rebound: -VN where the force ends
    rebound = -v0 * np.exp(-zeta * w0 * end) * (np.cos(wd * end)
                                                 - zeta * w0 / wd * np.sin(wd * end))
    assert 0.5 < rebound < 1.0
    assert signal["rebound_speed"] == pytest.approx(rebound, rel=1e-3)
    assert abs(signal["start"]) <= 1e-3 * dt   # on the penetration, the force jumping to cn v0


def test_a_contact_shorter_than_a_sample_takes_its_speeds_from_the_free_flights():
    """A stop hit at 1 m/s and left at 0.8 m/s between samples 1e-3 s apart, its contact
    caught by one sample whose velocity is already reversed: interpolated, the speed came out
    negative (-0.7 m/s, from that sample); unresolved, it is the approach's 1 m/s and the
    rebound the departure's 0.8 m/s, the samples on either side."""
    t = np.arange(8) * 1e-3
    vn = np.array([1.0, 1.0, 1.0, -0.75, -0.8, -0.8, -0.8, -0.8])
    pn = np.array([-3e-3, -2e-3, -1e-3, 1e-5, -0.8e-3, -1.6e-3, -2.4e-3, -3.2e-3])
    fn = np.where(pn > 0.0, 1e12 * pn, 0.0)
    [interpolated] = find_impacts(t, fn, vn, pn)
    assert interpolated["resolved"] and interpolated["speed"] < 0.0
    [impact] = find_impacts(t, fn, vn, pn, resolved=False)
    assert impact["resolved"] is False
    assert impact["speed"] == 1.0 and impact["rebound_speed"] == 0.8


def test_an_unresolved_impact_is_measured_on_the_samples_around_it():
    """The same contact caught by one sample (1e7 N at 3e-3 s): interpolated across it, it
    lasted 2.2e-5 s and gave 111 N.s, figures of where the sample fell (its 1e-5 m
    penetration puts both crossings next to it), not of the contact. Unresolved, it
    lies between the samples on either side (2e-3 and 4e-3 s), its impulse is the
    trapezoid of FN between them (the sample's 1e7 N over the 1e-3 s spacing, the momentum
    a Newmark or central-difference step gives), and its duration, maximum and instant of
    maximum are NaN; on the rows of a thinned history (``stepwise`` false) the impulse is
    NaN too; with ``settle`` = 2 (HHT) the rebound is the velocity two samples on."""
    t = np.arange(8) * 1e-3
    vn = np.array([1.0, 1.0, 1.0, -0.75, -0.7, -0.8, -0.8, -0.8])
    pn = np.array([-3e-3, -2e-3, -1e-3, 1e-5, -0.8e-3, -1.6e-3, -2.4e-3, -3.2e-3])
    fn = np.where(pn > 0.0, 1e12 * pn, 0.0)
    [interpolated] = find_impacts(t, fn, vn, pn)
    assert interpolated["duration"] == pytest.approx(2.2247e-5, rel=1e-4)
    assert interpolated["impulse"] == pytest.approx(111.23, rel=1e-4)
    [impact] = find_impacts(t, fn, vn, pn, resolved=False)
    assert (impact["start"], impact["end"]) == (t[2], t[4])
    assert impact["impulse"] == pytest.approx(1e7 * 1e-3, rel=1e-12)  # rounding only
    for key in ("duration", "max_force", "t_max"):
        assert np.isnan(impact[key])
    assert impact["speed"] == 1.0 and impact["rebound_speed"] == 0.7
    [rows] = find_impacts(t, fn, vn, pn, resolved=False, stepwise=False)
    assert np.isnan(rows["impulse"])
    for key, value in impact.items():  # the rest as on the steps
        if key != "impulse":
            assert rows[key] == value or (np.isnan(rows[key]) and np.isnan(value))
    [hht] = find_impacts(t, fn, vn, pn, resolved=False, settle=2)
    assert hht["rebound_speed"] == 0.8 and hht["end"] == t[4]


def test_an_unresolved_impact_still_open_at_the_end_has_no_rebound():
    t = np.arange(4) * 1e-3
    vn, pn = np.array([1.0, 1.0, 1.0, 0.5]), np.array([-2e-3, -1e-3, -1e-5, 1e-5])
    [impact] = find_impacts(t, np.where(pn > 0, 1e6 * pn, 0.0), vn, pn, resolved=False)
    assert impact["speed"] == 1.0 and np.isnan(impact["rebound_speed"])
    assert impact["complete"] is False
    assert impact["end"] == t[-1] and impact["impulse"] == pytest.approx(0.5 * 10.0 * 1e-3)


def test_statistics_skip_the_maxima_that_were_not_measured():
    """An unresolved impact's max_force is NaN: the statistics are those of the measured
    maxima, the count that of every impact, and NaN with no histogram if none was
    measured (0 N only when there is no impact)."""
    measured = statistics([{"max_force": 3.0}, {"max_force": 1.0}], classes=2)
    mixed = statistics([{"max_force": 3.0}, {"max_force": math.nan}, {"max_force": 1.0}],
                       classes=2)
    assert mixed == {**measured, "count": 3}
    assert (mixed["max_abs_force"], mixed["mean_max_force"], mixed["std_max_force"]) == (
        3.0, 2.0, 1.0)
    assert sum(c["probability"] for c in mixed["histogram"]) == 1.0
    none = statistics([{"max_force": math.nan}] * 2, classes=2)
    assert none["count"] == 2 and none["histogram"] == []
    assert all(np.isnan(none[k]) for k in ("max_abs_force", "mean_max_force",
                                           "std_max_force"))
    assert statistics([], classes=2)["max_abs_force"] == 0.0


def test_analyse_marks_the_unresolved_shocks_only():
    t = np.linspace(0.0, 1.0, 10001)
    fn, pn = half_sines(t, [0.1, 0.5], 0.03, 100.0)
    vn = np.gradient(pn, t)
    impacts, _, q = analyse(t, {"A": ("N1", fn, vn, pn), "B": ("N2", fn, vn, pn)},
                            threshold=0.0, min_rest=0.0, classes=2, unresolved={"B"})
    assert [i["resolved"] for i in impacts] == [True, True, False, False]
    assert q["impact.B.1.speed"] == vn[np.flatnonzero(fn > 0)[0] - 1]
    assert q["impact.B.2.rebound_speed"] == -vn[np.flatnonzero(fn > 0)[-1] + 1]
