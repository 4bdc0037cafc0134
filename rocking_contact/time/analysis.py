"""Linear stability and accuracy of a scheme on one damped mode.

For ``a + 2 xi omega v + omega^2 u = 0`` a step of any
:class:`~rocking_contact.time.stage.Scheme` is a linear map of the state ``s = (u, v, a)``:
``s_{n+1} = A s_n``. Its spectral radius is the amplitude decay per step of a free
vibration (1 for a conservative scheme), the argument of its principal eigenvalues the
numerical phase per step.
"""

from __future__ import annotations

import numpy as np

from rocking_contact.time.stage import Affine, Scheme, Stage


def amplification_matrix(stage: Stage, omega: float, xi: float = 0.0) -> np.ndarray:
    """The 3x3 matrix A with ``(u, v, a)_{n+1} = A (u, v, a)_n`` for one mode.

    Args:
        stage: the scheme's equations for the step size.
        omega: circular frequency of the mode (rad/s).
        xi: damping ratio of the mode (C = 2 xi omega, M = 1).

    """
    k, c = omega * omega, 2.0 * xi * omega
    s = stage

    def row(f: Affine) -> np.ndarray:
        return np.array([f.u, f.v, f.a])

    cx = s.a.x + s.w1 * (c * s.v.x + k * s.u.x)
    r = row(s.a) + s.w1 * (c * row(s.v) + k * row(s.u)) + s.w0 * np.array([k, c, 0.0])
    x = -r / cx  # the unknown as a linear form of the start state
    return np.vstack([f.x * x + row(f) for f in (s.u, s.v, s.a)])


def spectral_radius(scheme: Scheme, omega_h: float, xi: float = 0.0) -> float:
    """Spectral radius of the amplification matrix at ``omega h`` (h = 1 s).

    The theta-method does not use the start acceleration; its zero eigenvalue does not
    change the result.
    """
    a = amplification_matrix(scheme.stage(1.0), omega_h, xi)
    return float(np.max(np.abs(np.linalg.eigvals(a))))
