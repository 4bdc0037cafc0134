"""One-step schemes for the semi-discrete equation of motion, as tables of coefficients.

The spatial model gives ``M a + g(u, v, t) = 0`` with ``g = f_int(u) + f_damp(u, v) -
f_ext(t)`` (N). A step of size ``h`` from ``(u_n, v_n, a_n)`` at ``t_n`` solves for one
unknown vector ``x`` (the end displacement, or the end velocity for the theta-method)

    R(x) = M a*(x) + w1 g(u1(x), v1(x), t_n + h) + w0 g(u_n, v_n, t_n) = 0,

where ``u1``, ``v1`` and ``a*`` are affine in ``x`` and in the start state. A scheme is
therefore a :class:`Stage` per step size: three :class:`Affine` maps, two weights and a
predictor. The step problem (:class:`~rocking_contact.solvers.step.StepProblem`) applies
them to vectors; the Jacobian is ``dR/dx = a*.x M + w1 (u1.x dg/du + v1.x dg/dv)``.

Schemes (``alpha`` <= 0 in Code_Aster's sign convention):

- :class:`Newmark` (Newmark 1959): ``u1 = u_n + h v_n + h^2 [(1/2 - beta) a_n + beta a1]``,
  ``v1 = v_n + h [(1 - gamma) a_n + gamma a1]``, equilibrium at ``t_n + h``. Average
  acceleration (beta = 1/4, gamma = 1/2) is second order, unconditionally stable and
  conserves the energy of a linear undamped system exactly.
- :func:`alpha_modified_newmark`: Newmark with ``beta = (1 - alpha)^2 / 4`` and ``gamma =
  1/2 - alpha``: Code_Aster's "HHT" with MODI_EQUI='NON'. High-frequency dissipation,
  first order when ``alpha != 0``.
- :class:`HHT` (Hilber, Hughes & Taylor 1977), Code_Aster's MODI_EQUI='OUI': the same beta,
  gamma and ``M a1 + (1 + alpha) g(u1, v1, t1) - alpha g(u_n, v_n, t_n) = 0``; second order.
- :class:`Theta` (Moreau 1988, Jean 1999): the unknown is the end velocity,
  ``M (v1 - v_n) = -h [theta g1 + (1 - theta) g_n]`` (+ contact impulse),
  ``u1 = u_n + h [theta v1 + (1 - theta) v_n]``; the equation is divided by h so that every
  residual is a force. Second order for theta = 1/2, dissipative for theta > 1/2.
- :class:`Static`: ``g(u1, 0, t1) = 0``, used for the preload (pseudo-time).

A case names its scheme by ``scheme.type`` (and a window's ``scheme``): :data:`SCHEMES` maps
each name to the ``[scheme]`` keys it reads and how it is made from them.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal, Protocol

#: allowed ``alpha`` of the alpha schemes (:func:`alpha_modified_newmark`, :class:`HHT`),
#: Code_Aster's sign convention: a closed interval, 0 is average acceleration
ALPHA_RANGE = (-1.0 / 3.0, 0.0)
#: allowed ``theta`` of :class:`Theta`: a closed interval, 1/2 is second order
THETA_RANGE = (0.5, 1.0)


@dataclass(frozen=True)
class Affine:
    """``y = x * unknown + u * u_n + v * v_n + a * a_n``.

    The coefficients are in SI units that make each term the unit of ``y`` from the
    unknown's (:attr:`Stage.unknown`) and the start state's (m, m/s, m/s^2). For a
    displacement unknown (m), an acceleration ``a*`` has ``x`` and ``u`` in 1/s^2, ``v`` in
    1/s, ``a`` without unit; a velocity ``v1`` has ``x`` and ``u`` in 1/s, ``v`` without
    unit, ``a`` in s. For a velocity unknown (m/s), a displacement ``u1`` has ``x`` and
    ``v`` in s, ``u`` without unit, ``a`` in s^2.
    """

    x: float
    u: float
    v: float
    a: float

    def __call__(self, unknown: float, u: float, v: float, a: float) -> float:
        """Apply the map to scalars (the tests check the tables so; the stability analysis
        reads the coefficients)."""
        return self.x * unknown + self.u * u + self.v * v + self.a * a


ZERO = Affine(0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Stage:
    """A scheme's equations for one step of size ``h`` (s).

    Attributes:
        h: step size (s).
        u, v, a: end displacement, end velocity and the acceleration the inertia term uses,
            as affine maps of the unknown and of the start state.
        w1, w0: weights of g at the end and at the start of the step.
        predictor: first guess of the unknown (``x`` coefficient 0).
        unknown: ``"displacement"`` or ``"velocity"``.

    """

    h: float
    u: Affine
    v: Affine
    a: Affine
    w1: float
    w0: float
    predictor: Affine
    unknown: Literal["displacement", "velocity"]

    @property
    def mass_coefficient(self) -> float:
        """Factor of M in dR/dx: ``a.x``, 1/s^2 for a displacement unknown, 1/s for a
        velocity unknown."""
        return self.a.x

    @property
    def stiffness_coefficient(self) -> float:
        """Factor of dg/du in dR/dx: ``w1 u.x``, without unit for a displacement unknown,
        s for a velocity unknown."""
        return self.w1 * self.u.x

    @property
    def damping_coefficient(self) -> float:
        """Factor of dg/dv in dR/dx: ``w1 v.x``, 1/s for a displacement unknown, without
        unit for a velocity unknown."""
        return self.w1 * self.v.x


class Scheme(ABC):
    """A one-step scheme: gives the :class:`Stage` of a step size.

    To add a scheme, subclass this, give it a ``name``, its ``order`` of accuracy and
    ``stage(h)``: the step problem applies any :class:`Stage`, and the stability analysis
    (:func:`~rocking_contact.time.analysis.spectral_radius`) takes any scheme. A case file
    reaches it once it has an entry in :data:`SCHEMES` (its name for ``scheme.type``, the
    ``[scheme]`` keys it reads, how it is made from them; a key it needs that the section
    lacks is a new field of :class:`~rocking_contact.fem.case.SchemeSpec`). A scheme that
    reads ``alpha`` is an alpha scheme (:data:`ALPHA_SCHEMES`: windows and refinements may
    set their own alpha); the entry's ``unknown`` says whether it is a velocity-level scheme,
    which the advice to a run whose steps created energy reads
    (:func:`~rocking_contact.post.energy.remedy`). ``theta`` is still named by two rules
    that another velocity-level scheme would need too: the contact treatments it can step
    (:func:`~rocking_contact.contact.spec.check_scheme_for_contact`) and its refusal of
    ``[time.refine]`` (:meth:`~rocking_contact.fem.case.BlockCase.validate`).
    """

    name: str = "scheme"

    @abstractmethod
    def stage(self, h: float) -> Stage:
        """The equations of a step of size ``h`` (s)."""

    @property
    @abstractmethod
    def order(self) -> int:
        """Order of accuracy in h on smooth solutions."""

    def describe(self) -> str:
        """One line for logs and results."""
        return self.name


@dataclass(frozen=True)
class Newmark(Scheme):
    """Newmark's family, equilibrium at the end of the step; the unknown is ``u1``.

    Args:
        beta: > 0 (beta = 0 is the explicit scheme, not handled here).
        gamma: >= 1/2 for stability; 1/2 for second order.
        name: label (``alpha_newmark`` for the alpha-modified preset).

    """

    beta: float = 0.25
    gamma: float = 0.5
    name: str = "newmark"

    def __post_init__(self) -> None:
        if not self.beta > 0:
            raise ValueError(f"beta: got {self.beta:g}, allowed: a number > 0")

    @classmethod
    def average_acceleration(cls) -> Newmark:
        """Average acceleration: beta = 1/4, gamma = 1/2 (trapezoidal rule)."""
        return cls(0.25, 0.5)

    @property
    def order(self) -> int:
        return 2 if math.isclose(self.gamma, 0.5) else 1

    def describe(self) -> str:
        return f"{self.name} (beta={self.beta:.6g}, gamma={self.gamma:.6g})"

    def stage(self, h: float) -> Stage:
        """Unknown ``u1`` (m): ``a1`` and ``v1`` from the Newmark relations solved for
        ``a1``, equilibrium at the end (``w1 = 1``), predictor the constant-acceleration
        ``u_n + h v_n + h^2/2 a_n``."""
        b, g = self.beta, self.gamma
        acc = Affine(1 / (b * h * h), -1 / (b * h * h), -1 / (b * h), 1 - 1 / (2 * b))
        vel = Affine(g / (b * h), -g / (b * h), 1 - g / b, h * (1 - g / (2 * b)))
        return Stage(h=h, u=Affine(1.0, 0.0, 0.0, 0.0), v=vel, a=acc, w1=1.0, w0=0.0,
                     predictor=Affine(0.0, 1.0, h, h * h / 2), unknown="displacement")


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


def check_theta(theta: float) -> None:
    """Raise ValueError unless ``theta`` lies in :data:`THETA_RANGE` (every theta-method:
    :class:`Theta`, the dense Moreau-Jean integrator)."""
    low, high = THETA_RANGE
    if not low <= theta <= high:
        raise ValueError(f"theta: got {theta:g}, allowed: a number in [{low:g}, {high:g}]")


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
        _check_alpha(self.alpha)

    @property
    def order(self) -> int:
        return 2

    def describe(self) -> str:
        return f"hht (alpha={self.alpha:.6g})"

    def stage(self, h: float) -> Stage:
        """The alpha-modified Newmark stage with the end and start forces weighted
        ``w1 = 1 + alpha``, ``w0 = -alpha``."""
        newmark = alpha_modified_newmark(self.alpha).stage(h)
        return replace(newmark, w1=1.0 + self.alpha, w0=-self.alpha)


@dataclass(frozen=True)
class Theta(Scheme):
    """The theta-method on velocities (Moreau-Jean); the unknown is ``v1``.

    Args:
        theta: in [1/2, 1]; 1/2 is second order and conservative on linear systems,
            larger values dissipate.

    """

    theta: float = 0.5
    name: str = "theta"

    def __post_init__(self) -> None:
        check_theta(self.theta)

    @property
    def order(self) -> int:
        return 2 if math.isclose(self.theta, 0.5) else 1

    def describe(self) -> str:
        return f"theta (theta={self.theta:.6g})"

    def stage(self, h: float) -> Stage:
        """Unknown ``v1`` (m/s): ``u1 = u_n + h (theta v1 + (1 - theta) v_n)``, the
        inertia ``(v1 - v_n) / h`` (the equation divided by h: a force), forces weighted
        ``theta`` and ``1 - theta``, predictor ``v_n``."""
        th = self.theta
        return Stage(h=h, u=Affine(h * th, 1.0, h * (1 - th), 0.0),
                     v=Affine(1.0, 0.0, 0.0, 0.0), a=Affine(1 / h, 0.0, -1 / h, 0.0),
                     w1=th, w0=1 - th, predictor=Affine(0.0, 0.0, 1.0, 0.0),
                     unknown="velocity")


@dataclass(frozen=True)
class Static(Scheme):
    """Quasi-static equilibrium ``g(u1, 0, t1) = 0`` in pseudo-time (no inertia, no damping)."""

    name: str = "static"

    @property
    def order(self) -> int:
        return 0

    def stage(self, h: float) -> Stage:
        """Unknown ``u1`` (m), no velocity nor inertia; ``h`` a pseudo-time step, predictor
        ``u_n``."""
        return Stage(h=h, u=Affine(1.0, 0.0, 0.0, 0.0), v=ZERO, a=ZERO, w1=1.0, w0=0.0,
                     predictor=Affine(0.0, 1.0, 0.0, 0.0), unknown="displacement")


class SchemeParameters(Protocol):
    """The ``[scheme]`` section as :data:`SCHEMES` reads it
    (:class:`~rocking_contact.fem.case.SchemeSpec`)."""

    beta: float
    gamma: float
    theta: float


@dataclass(frozen=True)
class SchemeEntry:
    """What a case file knows of a scheme.

    Attributes:
        keys: the ``[scheme]`` keys it reads (another one given is refused, not ignored:
            :func:`rocking_contact.config.load_case`).
        make: the scheme from the section and the ``alpha`` in force (the section's, a
            window's or a refinement's).
        unknown: the :attr:`Stage.unknown` of its steps: ``"velocity"`` for a
            velocity-level scheme (the theta-method, whose contact acts on velocities and
            takes contact changes in any step), ``"displacement"`` otherwise.

    """

    keys: tuple[str, ...]
    make: Callable[[SchemeParameters, float], Scheme]
    unknown: Literal["displacement", "velocity"] = "displacement"


#: The values of ``scheme.type``, as a block schema checks it and the messages and
#: `rocking-contact keys` list them ("one of 'newmark', 'alpha_newmark', ..."). Written out
#: so that mypy holds every comparison to them; the keys of SCHEMES, in this order
#: (tests/test_registry_names.py holds them equal).
SchemeType = Literal["newmark", "alpha_newmark", "hht", "theta"]
#: those of them that read ``alpha``: :data:`ALPHA_SCHEMES`, as a window's ``scheme`` is
#: checked against them
AlphaScheme = Literal["alpha_newmark", "hht"]

#: ``scheme.type`` -> its entry, in the order the messages list them
SCHEMES: dict[str, SchemeEntry] = {
    "newmark": SchemeEntry(("beta", "gamma"), lambda p, alpha: Newmark(p.beta, p.gamma)),
    "alpha_newmark": SchemeEntry(("alpha",), lambda p, alpha: alpha_modified_newmark(alpha)),
    "hht": SchemeEntry(("alpha",), lambda p, alpha: HHT(alpha)),
    "theta": SchemeEntry(("theta",), lambda p, alpha: Theta(p.theta), unknown="velocity"),
}
#: the schemes that read ``alpha``, which a window or a refinement may set for itself
ALPHA_SCHEMES = tuple(name for name, entry in SCHEMES.items() if "alpha" in entry.keys)
