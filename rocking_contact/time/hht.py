"""The alpha schemes: Code_Aster's "HHT", MODI_EQUI='NON' and 'OUI'.

Both take Newmark's relations with ``beta = (1 - alpha)^2 / 4`` and ``gamma = 1/2 - alpha``
(:func:`hht_coefficients`), ``alpha`` <= 0 in Code_Aster's sign convention
(:data:`ALPHA_RANGE`):

- :func:`alpha_modified_newmark` (MODI_EQUI='NON'): a
  :class:`~rocking_contact.time.newmark.Newmark` with these coefficients, equilibrium at
  the end of the step. High-frequency dissipation, first order when ``alpha != 0``.
- :class:`HHT` (Hilber, Hughes & Taylor 1977; MODI_EQUI='OUI'): the same beta, gamma and
  ``M a1 + (1 + alpha) g(u1, v1, t1) - alpha g(u_n, v_n, t_n) = 0``; second order.

They share a module because HHT's stage is the alpha-modified Newmark stage with the
forces weighted: one owner for the coefficients and the range they are checked against.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from rocking_contact.time.newmark import Newmark
from rocking_contact.time.stage import Scheme, Stage

#: allowed ``alpha`` of the alpha schemes (:func:`alpha_modified_newmark`, :class:`HHT`),
#: Code_Aster's sign convention: a closed interval, 0 is average acceleration
ALPHA_RANGE = (-1.0 / 3.0, 0.0)


def alpha_modified_newmark(alpha: float) -> Newmark:
    """Code_Aster's "HHT, MODI_EQUI='NON'": Newmark with beta = (1-alpha)^2/4, gamma = 1/2 - alpha.

    Args:
        alpha: in [-1/3, 0]; 0 is average acceleration.

    """
    _check_alpha(alpha)
    beta, gamma = hht_coefficients(alpha)
    return Newmark(beta, gamma, name="alpha_newmark")


def hht_coefficients(alpha: float) -> tuple[float, float]:
    """Newmark's ``(beta, gamma)`` of the alpha schemes (HHT, alpha-modified Newmark):
    ``((1 - alpha)^2 / 4, 1/2 - alpha)``, for ``alpha`` in :data:`ALPHA_RANGE`."""
    return (1 - alpha) ** 2 / 4, 0.5 - alpha


def _check_alpha(alpha: float) -> None:
    """Raise ValueError unless ``alpha`` lies in :data:`ALPHA_RANGE` (the bounds said as
    fractions: ``[-1/3, 0]``)."""
    low, high = ALPHA_RANGE
    if not low <= alpha <= high:
        said = ", ".join(str(Fraction(bound).limit_denominator()) for bound in ALPHA_RANGE)
        raise ValueError(f"alpha: got {alpha:g}, allowed: a number in [{said}]")


@dataclass(frozen=True)
class HHT(Scheme):
    """Hilber-Hughes-Taylor alpha-method (Code_Aster MODI_EQUI='OUI').

    ``M a1 + (1 + alpha) g(u1, v1, t1) - alpha g(u_n, v_n, t_n) = 0`` with the Newmark
    relations for beta = (1-alpha)^2/4, gamma = 1/2 - alpha. Second order, unconditionally
    stable, dissipative at high frequency for alpha < 0.

    Args:
        alpha: in [-1/3, 0].

    """

    alpha: float = -0.1
    name: str = "hht"

    def __post_init__(self) -> None:
        """Refuse an alpha outside [-1/3, 0]."""
        _check_alpha(self.alpha)

    @property
    def order(self) -> int:
        """2, for every alpha in [-1/3, 0]."""
        return 2

    def describe(self) -> str:
        """``hht (alpha=...)``."""
        return f"hht (alpha={self.alpha:.6g})"

    def stage(self, h: float) -> Stage:
        """The alpha-modified Newmark stage with the end and start forces weighted
        ``w1 = 1 + alpha``, ``w0 = -alpha``."""
        newmark = alpha_modified_newmark(self.alpha).stage(h)
        return replace(newmark, w1=1.0 + self.alpha, w0=-self.alpha)
