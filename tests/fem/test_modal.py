"""Modal: the first vertical-extension frequency of the block clamped on its base.

1D bar estimate: f = c / (4 * 2l) with c = sqrt(E / rho): 6357 Hz. The 2D plane-stress
value is slightly higher (the clamped base also restrains the lateral Poisson contraction).
Pass: within 10% of the bar value and converging under refinement (Q1: h, h/2, h/4; the
differences shrink by about 4, as for an O(h^2) eigenvalue error).
"""

import fem_checks as checks


def test_bar_estimate_is_6357_hz():
    assert abs(checks.bar_frequency() - 6357.0) < 0.5


def test_extension_frequency_within_10_percent_and_converging():
    sizes = (0.04, 0.02, 0.01)
    freqs = [checks.extension_frequency(h) for h in sizes]
    bar = checks.bar_frequency()
    print("\nQ1 extension frequency (Hz):",
          ", ".join(f"h={h:g}: {f:.2f}" for h, f in zip(sizes, freqs)), f"(bar {bar:.1f})")
    for f in freqs:
        assert abs(f - bar) <= 0.10 * bar
    d1, d2 = freqs[0] - freqs[1], freqs[1] - freqs[2]
    assert d1 > 0 and d2 > 0, "monotone convergence from above (conforming elements)"
    assert d1 / d2 > 3.0, f"error ratio {d1 / d2:.2f} under halving: not converging as h^2"
    q2 = checks.extension_frequency(0.02, order=2)
    assert abs(q2 - freqs[-1]) < 0.5, "Q2 on h=0.02 agrees with Q1 on h=0.01"
