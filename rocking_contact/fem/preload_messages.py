"""What the preload (:mod:`rocking_contact.fem.preload`) says of a tilt it could not reach
or kept short of the rigid one: the failure of a tilt that found no equilibrium
(:class:`TiltNotReached`), the units question of a block that sags under its own weight
(:func:`units_hint`) and the warning of a kept shortfall with the ``preload.tilt`` that
releases the block where it was asked to be (:class:`Shortfall`, :func:`tilt_shortfall`,
:func:`remedy_tilt`). Angles in rad about the corner O, positive lifting A; lengths in m.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rocking_contact.block import Geometry, Preload, release_angle, release_tilt
from rocking_contact.solvers.driver import StepFailure

#: a block whose top sinks more than this fraction of its height under its own weight
#: is said to be given in other units than Pa and m (SDNV105's: 2.6e-7; E in kPa: 0.26)
SAG_WARNING = 0.01


class TiltNotReached(StepFailure):
    """The tilt's static steps converged, but to another equilibrium than the tilted
    block's, and to a different one with each step count up to
    :data:`~.preload.MAX_TILT_STEPS` (an equilibrium reached again with twice the steps is
    kept, :func:`~.preload.static_preload`): no step failed, so the message says what was
    reached and, for a block that sags under its own weight, that its units look wrong.

    Args:
        reached: the tilt reached (rad).
        expected: the rigid block's tilt (rad).
        steps: the pseudo-time steps of the last try.
        sag: the top's vertical displacement under gravity over the block's height
            (negative: down).
        before: the tilt reached with half the steps (rad).

    """

    def __init__(self, reached: float, expected: float, steps: int, sag: float,
                 before: float):
        super().__init__(0.0, 1.0 / steps, math.nan, "tilt not reached", 0, steps,
                         pseudo=True)
        units = units_hint(sag)
        again = "" if math.isnan(before) else f" (with {steps // 2}: {before:.6g} rad)"
        self.args = (f"the preload found no tilted equilibrium: with {steps} static steps "
                     f"the tilt reached {reached:.6g} rad{again}, not the rigid "
                     f"{expected:.6g} rad (every step converged, to a spurious equilibrium)"
                     f"{units}",)


def units_hint(sag: float) -> str:
    """The clause a preload failure ends with when the block's top sank under its own
    weight by more than :data:`SAG_WARNING` of its height (``sag``: the top's vertical
    displacement over the height, negative down; SDNV105's block at E = 1e5 Pa: 6.5 %,
    its tilt step diverging, DIVERGED_DTOL): its units look wrong; else empty."""
    if not -sag > SAG_WARNING:
        return ""
    return (f"; under its own weight the block's top sank {100 * -sag:.3g}% of its height: "
            "are material.block.young (Pa), the densities (kg/m^3) and the geometry (m) in "
            "SI units?")


@dataclass(frozen=True)
class Shortfall:
    """A tilt kept short of the rigid one (:func:`~.preload.static_preload`), what
    :func:`tilt_shortfall` says of it. Angles in rad, about O, positive lifting A.

    Attributes:
        reached: the tilt reached, the same with ``steps`` and half as many static steps.
        expected: the rigid block's (:func:`~rocking_contact.block.release_angle`).
        steps: the static steps of the last try.
        remedy: the ``preload.tilt`` that releases the block at ``expected``
            (:func:`remedy_tilt`).
        below: how far the base's lowest node stands below the corner O (m, 0 if none
            does: :func:`~.preload.base_clearance`).
        clear: the least ``preload.tilt`` that releases every base node above O.
        into_table: a table contact takes the block at the release.

    """

    reached: float
    expected: float
    steps: int
    remedy: float
    below: float = 0.0
    clear: float = 0.0
    into_table: bool = False


def tilt_shortfall(short: Shortfall) -> str:
    """The warning for a tilt kept short of the rigid one: what was reached, why, and the
    ``preload.tilt`` that releases the block where it was asked to be.

    The elastic block deforms under the forces that hold it tilted, its weight on the
    corner O and the pull at C1 that balances it, and that deformation turns its base
    chord OA back by about the same angle at any small tilt (SDNV105's block, E = 6e11
    Pa: 6.40e-8 rad at tilts 1e-9 to 1e-3, 6.03e-8 at 0.1), as 1/E (E = 1e8: 3.82e-4
    rad): not the pull's compliance alone, and no matter of time steps. It also bows the
    base, whose nodes next to O stand below O at tilts up to about 1.02e-7 there. A base
    released below O stands in the table, which a table contact pushes out in its first
    step, the harder the shorter the step (the energy it gives grows as the step shrinks:
    3.3e-3 J at 1e-5 s, 8.1e-2 J at 1e-6 s for tilt 1e-9), and the tilt offered besides 0
    (flat, at rest) lifts every node above O (:func:`~.preload.base_clearance`). On shock
    springs (no table contact) the release lowers the block onto O's spring by the weight
    over its stiffness, and a base turned back presses the others: only 0 is offered, which
    settles the block flat on them."""
    reached, expected, steps = short.reached, short.expected, short.steps
    percent = (f" ({100 * (reached - expected) / expected:.3g}%)" if reached > 0.0 else "")
    said = (f"the preload's tilt reached {reached:.6g} rad, not the rigid block's "
            f"{expected:.6g} rad{percent}, the same with {steps // 2} and {steps} static "
            f"steps: the elastic block deforms under the forces that hold it tilted (its "
            f"weight on the corner O, the pull at C1), which turns its base back by "
            f"{expected - reached:.4g} rad, about as much at any small tilt (as "
            f"1/material.block.young)")
    at = f"preload.tilt = {short.remedy:.6g} releases it at about {expected:.6g} rad"
    if short.below <= 0.0:
        return f"{said}; the block is released there; {at}"
    forward = ", more than preload.tilt turns it forward" if reached < 0.0 else ""
    said = (f"{said}{forward}; the block is released there, its base's lowest node "
            f"{short.below:.3g} m below O")
    if not short.into_table:  # on springs, O's takes the block: the others are pressed
        return f"{said}; preload.tilt = 0 releases it flat, settled on its supports"
    also = f", and {at}" if short.remedy > short.clear else ""
    return (f"{said}, into the table, which the table's contact pushes out in its first "
            f"step, the harder the shorter the step; preload.tilt = 0 releases it flat at "
            f"rest, a preload.tilt above {round_up(short.clear)} with its base above O{also}")


def round_up(value: float, digits: int = 3) -> str:
    """``value`` (> 0) rounded up to ``digits`` significant digits, as ``%g`` shows it: a
    bound that rounding to nearest would put on the wrong side."""
    scale = 10.0 ** (math.floor(math.log10(value)) - digits + 1)
    return f"{math.ceil(value / scale - 1e-9) * scale:.{digits}g}"


def remedy_tilt(geometry: Geometry, preload: Preload, large_rotation: bool,
                angle: float) -> float:
    """The ``preload.tilt`` whose pull releases the elastic block ``angle`` (rad) further
    than ``preload.tilt`` does, the deformation that turns its base back being about the
    same at any small tilt (:func:`tilt_shortfall`): the rigid tilt of the rigid block's
    angle plus ``angle``."""
    return release_tilt(geometry, preload.pivot,
                        release_angle(geometry, preload, large_rotation) + angle,
                        large_rotation)
