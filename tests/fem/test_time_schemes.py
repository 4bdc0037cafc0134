"""Time schemes on the FEM block: energy, modal dissipation, convergence order."""

import math

import fem_checks as checks
import pytest

from rocking_contact.time.hht import HHT, alpha_modified_newmark
from rocking_contact.time.newmark import Newmark
from rocking_contact.time.theta import Theta


def test_average_acceleration_conserves_energy_over_1000_steps():
    """Undamped free vibration of the clamped block: relative drift <= 1e-10."""
    result = checks.energy_conservation(n_steps=1000)
    assert result["steps"] == 1000
    assert result["max_relative_drift"] <= 1e-10, result
    assert result["jacobian_builds"] == 1, "a linear run with one step size factorises once"


@pytest.mark.parametrize("scheme", [alpha_modified_newmark(-0.1), alpha_modified_newmark(-0.2),
                                    HHT(-0.1), HHT(-0.3), Newmark()],
                         ids=lambda s: s.describe())
def test_single_mode_decays_as_the_amplification_matrix_predicts(scheme):
    """The block started on its first mode, omega h = 1, 40 steps: state within 1e-6."""
    result = checks.modal_decay_error(scheme, omega_h=1.0, n_steps=40)
    assert result["error"] <= 1e-6, result
    # The package's own analysis gives the same spectral radius as the textbook matrix.
    assert math.isclose(checks.spectral_radius_of(scheme, 1.0), result["spectral_radius"],
                        rel_tol=1e-12)
    if not isinstance(scheme, Newmark) or scheme.name != "newmark":
        assert result["amplitude_ratio"] < 0.99, "dissipative schemes do damp the mode"


@pytest.mark.parametrize("scheme,order", [(Newmark(), 2), (HHT(-0.1), 2), (Theta(0.5), 2),
                                          (alpha_modified_newmark(-0.1), 1), (Theta(0.6), 1)],
                         ids=lambda s: getattr(s, "describe", lambda: str(s))())
def test_convergence_order_on_damped_free_vibration(scheme, order):
    """Error at 2 periods against the exact modal solution (xi = 0.05), 40..320 steps per
    period: second order for average acceleration, HHT and theta = 1/2; the alpha-modified
    Newmark of Code_Aster and theta > 1/2 are first order (gamma != 1/2)."""
    errors = [checks.damped_vibration_error(scheme, f) for f in (40.0, 80.0, 160.0, 320.0)]
    rates = [math.log2(a / b) for a, b in zip(errors, errors[1:])]
    print(f"\n{scheme.describe()}: errors {errors}, rates {rates}")
    assert abs(rates[-1] - order) < 0.15, rates
    assert scheme.order == order, "the order the scheme declares is the one measured"
    assert errors[-1] < errors[0]
