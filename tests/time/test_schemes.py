"""Scheme coefficient tables against the schemes' definitions; time grids."""

import math

import numpy as np
import pytest

from rocking_contact.time.analysis import amplification_matrix, spectral_radius
from rocking_contact.time.grid import segments
from rocking_contact.time.hht import HHT, alpha_modified_newmark
from rocking_contact.time.newmark import Newmark
from rocking_contact.time.static import Static
from rocking_contact.time.theta import Theta


def _newmark_end_state(beta, gamma, h, u, v, a, u1):
    a1 = (u1 - u - h * v - h * h * (0.5 - beta) * a) / (beta * h * h)
    return a1, v + h * ((1 - gamma) * a + gamma * a1)


@pytest.mark.parametrize("scheme", [Newmark(), Newmark(0.3025, 0.6), alpha_modified_newmark(-0.2),
                                    HHT(-0.3)], ids=lambda s: s.describe())
def test_newmark_tables_reproduce_the_newmark_relations(scheme):
    h, u, v, a, x = 1e-3, 0.3, -2.0, 7.0, 0.31
    s = scheme.stage(h)
    beta, gamma = scheme.beta if isinstance(scheme, Newmark) else (1 - scheme.alpha) ** 2 / 4, (
        scheme.gamma if isinstance(scheme, Newmark) else 0.5 - scheme.alpha)
    a1, v1 = _newmark_end_state(beta, gamma, h, u, v, a, x)
    assert math.isclose(s.a(x, u, v, a), a1, rel_tol=1e-12)
    assert math.isclose(s.v(x, u, v, a), v1, rel_tol=1e-12)
    assert s.u(x, u, v, a) == x


def test_alpha_modified_newmark_is_code_aster_hht_modi_equi_non():
    s = alpha_modified_newmark(-0.2)
    assert s.beta == pytest.approx(0.36) and s.gamma == pytest.approx(0.7)
    assert s.stage(1.0).w1 == 1.0 and s.stage(1.0).w0 == 0.0
    hht = HHT(-0.2).stage(1.0)
    assert hht.w1 == pytest.approx(0.8) and hht.w0 == pytest.approx(0.2)


def test_theta_table_is_moreau_jean():
    h, th, u, v, x = 1e-3, 0.55, 0.3, -2.0, -1.5
    s = Theta(th).stage(h)
    assert math.isclose(s.u(x, u, v, 0.0), u + h * (th * x + (1 - th) * v))
    assert s.v(x, u, v, 0.0) == x
    assert math.isclose(s.a(x, u, v, 0.0), (x - v) / h)
    assert (s.w1, s.w0) == (th, pytest.approx(1 - th))


@pytest.mark.parametrize("alpha", [-0.1, -0.2, -1 / 3])
def test_high_frequency_spectral_radius(alpha):
    """rho_inf = (1 + alpha) / (1 - alpha) for HHT (Hilber et al. 1977); at alpha = -1/3 the
    eigenvalues coalesce and the limit is approached slowly, hence omega h = 1e8."""
    assert spectral_radius(HHT(alpha), 1e8) == pytest.approx((1 + alpha) / (1 - alpha), rel=1e-5)
    assert spectral_radius(Newmark(), 1e6) == pytest.approx(1.0, abs=1e-12)
    assert spectral_radius(Theta(1.0), 1e6) < 1e-5


def test_static_stage_has_no_inertia():
    s = Static().stage(0.5)
    assert s.mass_coefficient == 0.0 and s.damping_coefficient == 0.0
    assert s.stiffness_coefficient == 1.0


def test_undamped_newmark_amplification_is_a_rotation():
    """Two eigenvalues of modulus 1 (a conservative oscillation), the third is 0."""
    a = amplification_matrix(Newmark().stage(0.01), 100.0)
    moduli = np.sort(abs(np.linalg.eigvals(a)))
    assert moduli[0] < 1e-12 and np.allclose(moduli[1:], 1.0, rtol=1e-13)


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="alpha"):
        HHT(-0.5)
    with pytest.raises(ValueError, match="theta"):
        Theta(0.4)
    with pytest.raises(ValueError, match="beta"):
        Newmark(0.0)


def test_segments_hit_window_bounds_exactly():
    segs = segments(0.0, 0.33, 2.5e-3, [(0.0525, 0.0575, 1e-5), (0.14, 0.145, 1e-5)])
    assert [(s.start, s.end, s.window) for s in segs] == [
        (0.0, 0.0525, None), (0.0525, 0.0575, 0), (0.0575, 0.14, None), (0.14, 0.145, 1),
        (0.145, 0.33, None)]
    assert segs[1].n_steps == 500 and segs[1].times()[-1] == 0.0575
    assert all(np.diff(s.times()).max() <= s.step * (1 + 1e-9) for s in segs)
    assert segs[0].n_steps == 21


def test_a_scheme_type_makes_the_scheme_of_its_entry_and_no_other():
    """Each name of SCHEMES makes its own scheme from the section; an unknown name is
    refused, not stepped as another scheme (it ran the theta-method)."""
    from rocking_contact.fem.case import SchemeSpec
    from rocking_contact.time.schemes import SCHEMES

    spec = SchemeSpec(beta=0.3025, gamma=0.6, alpha=-0.2, theta=0.55)
    made = {name: spec.scheme(kind=name) for name in SCHEMES}
    assert made == {"newmark": Newmark(0.3025, 0.6), "alpha_newmark": alpha_modified_newmark(-0.2),
                    "hht": HHT(-0.2), "theta": Theta(0.55)}
    assert spec.scheme(alpha=-0.1, kind="hht") == HHT(-0.1)
    assert SchemeSpec.VARIANTS["type"] == {name: e.keys for name, e in SCHEMES.items()}
    with pytest.raises(ValueError, match="scheme.type: got 'static', allowed: 'newmark'"):
        spec.scheme(kind="static")


def test_an_entry_says_the_unknown_of_the_steps_its_scheme_takes():
    """SCHEMES' ``unknown`` (what post.energy.remedy reads to advise a velocity-level
    scheme) is the one its scheme's stages solve for."""
    from rocking_contact.fem.case import SchemeSpec
    from rocking_contact.post.energy import THETA_ADVICE, remedy
    from rocking_contact.time.schemes import SCHEMES

    spec = SchemeSpec()
    unknowns = {name: spec.scheme(kind=name).stage(1e-3).unknown for name in SCHEMES}
    assert unknowns == {name: entry.unknown for name, entry in SCHEMES.items()}
    assert unknowns["theta"] == "velocity"
    assert [remedy(name, True, False) == THETA_ADVICE for name in SCHEMES] == [
        entry.unknown == "velocity" for entry in SCHEMES.values()]
