"""What every one-step scheme gives the step problem: a table of coefficients per step size.

The spatial model gives ``M a + g(u, v, t) = 0`` with ``g = f_int(u) + f_damp(u, v) -
f_ext(t)`` (N). A step of size ``h`` from ``(u_n, v_n, a_n)`` at ``t_n`` solves for one
unknown vector ``x`` (the end displacement, or the end velocity for the theta-method)

    R(x) = M a*(x) + w1 g(u1(x), v1(x), t_n + h) + w0 g(u_n, v_n, t_n) = 0,

where ``u1``, ``v1`` and ``a*`` are affine in ``x`` and in the start state. A scheme
(:class:`Scheme`) is therefore a :class:`Stage` per step size: three :class:`Affine` maps,
two weights and a predictor. The step problem
(:class:`~rocking_contact.solvers.step.StepProblem`) applies them to vectors; the Jacobian
is ``dR/dx = a*.x M + w1 (u1.x dg/du + v1.x dg/dv)``. The schemes themselves, one module
each, and the names a case file gives them: :mod:`~rocking_contact.time.schemes`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar, Literal


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

#: what a step solves for: the end displacement (m) or the end velocity (m/s)
Unknown = Literal["displacement", "velocity"]


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
    unknown: Unknown

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

    To add a scheme, subclass this in a module of its own under :mod:`rocking_contact.time`,
    give it a ``name``, its ``order`` of accuracy and ``stage(h)``: the step problem applies
    any :class:`Stage`, and the stability analysis
    (:func:`~rocking_contact.time.analysis.spectral_radius`) takes any scheme. A case file
    reaches it once it has an entry in :data:`~rocking_contact.time.schemes.SCHEMES` (its
    name for ``scheme.type``, the ``[scheme]`` keys it reads, how it is made from them; a
    key it needs that the section lacks is a new field of
    :class:`~rocking_contact.fem.case.SchemeSpec`). A scheme that reads ``alpha`` is an
    alpha scheme (:data:`~rocking_contact.time.schemes.ALPHA_SCHEMES`: windows and
    refinements may set their own alpha); its class's ``unknown`` says whether it is a
    velocity-level scheme, which the advice to a run whose steps created energy reads
    (:func:`~rocking_contact.post.energy.remedy`). ``theta`` is still named by two rules
    that another velocity-level scheme would need too: the contact treatments it can step
    (:func:`~rocking_contact.contact.spec.check_scheme_for_contact`) and its refusal of
    ``[time.refine]`` (:meth:`~rocking_contact.fem.case.BlockCase.validate`).
    """

    name: str = "scheme"
    #: what its steps solve for, the :attr:`Stage.unknown` of every :meth:`stage` (and
    #: :attr:`~rocking_contact.time.schemes.SchemeEntry.unknown`): ``"velocity"`` for a
    #: velocity-level scheme (the theta-method), ``"displacement"`` otherwise
    unknown: ClassVar[Unknown] = "displacement"

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
