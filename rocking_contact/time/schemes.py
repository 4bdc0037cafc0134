"""The one-step schemes a case file names, and where each one lives.

Every scheme is a table of coefficients per step size (a
:class:`~rocking_contact.time.stage.Stage`, given by a
:class:`~rocking_contact.time.stage.Scheme`: :mod:`~rocking_contact.time.stage` says the
equation a step solves). One module per scheme (``alpha`` <= 0 in Code_Aster's sign
convention):

- :mod:`~rocking_contact.time.newmark`: :class:`~rocking_contact.time.newmark.Newmark`
  (Newmark 1959), equilibrium at the end of the step; average acceleration is second order
  and conserves the energy of a linear undamped system.
- :mod:`~rocking_contact.time.hht`: the alpha schemes, Newmark's relations with
  ``beta = (1 - alpha)^2 / 4``, ``gamma = 1/2 - alpha``:
  :func:`~rocking_contact.time.hht.alpha_modified_newmark` (Code_Aster's "HHT" with
  MODI_EQUI='NON', first order) and :class:`~rocking_contact.time.hht.HHT` (Hilber, Hughes
  & Taylor 1977, MODI_EQUI='OUI', second order).
- :mod:`~rocking_contact.time.theta`: :class:`~rocking_contact.time.theta.Theta`, the
  theta-method on velocities (Moreau 1988, Jean 1999).
- :mod:`~rocking_contact.time.static`: :class:`~rocking_contact.time.static.Static`,
  ``g(u1, 0, t1) = 0`` in pseudo-time for the preload (no ``scheme.type``).

A case names its scheme by ``scheme.type`` (and a window's ``scheme``): :data:`SCHEMES` maps
each name to the ``[scheme]`` keys it reads and how it is made from them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from rocking_contact.time.hht import HHT, alpha_modified_newmark
from rocking_contact.time.newmark import Newmark
from rocking_contact.time.stage import Scheme, Unknown
from rocking_contact.time.theta import Theta

__all__ = [
    "SchemeParameters", "SchemeEntry", "SchemeType", "AlphaScheme", "SCHEMES", "ALPHA_SCHEMES",
]


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
        kind: the class of the scheme ``make`` returns.

    """

    keys: tuple[str, ...]
    make: Callable[[SchemeParameters, float], Scheme]
    kind: type[Scheme]

    @property
    def unknown(self) -> Unknown:
        """The :attr:`~rocking_contact.time.stage.Scheme.unknown` of its scheme:
        ``"velocity"`` for a velocity-level scheme (the theta-method, whose contact acts on
        velocities and takes contact changes in any step), ``"displacement"`` otherwise."""
        return self.kind.unknown


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
    "newmark": SchemeEntry(("beta", "gamma"), lambda p, alpha: Newmark(p.beta, p.gamma),
                           Newmark),
    "alpha_newmark": SchemeEntry(("alpha",), lambda p, alpha: alpha_modified_newmark(alpha),
                                 Newmark),
    "hht": SchemeEntry(("alpha",), lambda p, alpha: HHT(alpha), HHT),
    "theta": SchemeEntry(("theta",), lambda p, alpha: Theta(p.theta), Theta),
}
#: the schemes that read ``alpha``, which a window or a refinement may set for itself
ALPHA_SCHEMES = tuple(name for name, entry in SCHEMES.items() if "alpha" in entry.keys)
