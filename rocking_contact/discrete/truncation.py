"""What a modal basis with fewer modes than unknowns leaves out, at the shocks.

A shock sees the structure through its node: statically, through the node's flexibility
along the shock's direction, ``f = sum_i (phi_i . g)^2 / omega_i^2`` over the modes
(mass-normalised shapes ``phi_i``, ``g`` the node's row along the direction, m/N). The
dropped modes' part of it, ``df`` (the residual flexibility Code_Aster's static correction
adds back), is missing: the node is stiffer against its obstacle than the model. What that
costs depends on the shock's spring, in series with the structure: a soft spring (``1/kn``
much larger than ``df``) hides it, a stiff stop shows it, and also drives the dropped modes
(a stiff impact excites frequencies the kept modes lack). ``kn df``, the missed flexibility
against the spring's own ``1/kn``, measures the error on 2-dof chains (docs/discrete.md,
"Modal truncation").
"""

from __future__ import annotations

import numpy as np

from rocking_contact.discrete.case import DiscreteCase
from rocking_contact.discrete.system import DiscreteSystem

#: ``kn df`` above which a run warns: a 2-dof chain's peak impact force is off by 0.2 %
#: at 0.0025, 4 % at 0.025 and 15 % at 0.25 (docs/discrete.md, "Modal truncation")
MISSED_FLEXIBILITY_LIMIT = 0.01
#: share of the initial state's energy in the dropped modes above which a run warns
DROPPED_ENERGY_LIMIT = 0.01


def _flexibility(rows: np.ndarray, omegas: np.ndarray) -> np.ndarray:
    """Static flexibility (3x3, m/N) at a node from modes' rows ``rows`` (3 x modes) and
    circular frequencies; a rigid mode that moves the node makes it infinite."""
    scale = np.abs(rows).max() if rows.size else 0.0
    moving = np.abs(rows).max(axis=0, initial=0.0) > 1e-12 * scale
    if np.any(moving & (omegas <= 0.0)):
        return np.full((3, 3), np.inf)
    elastic = omegas > 0.0
    shapes = rows[:, elastic] / omegas[elastic]
    out: np.ndarray = shapes @ shapes.T
    return out


def missed_flexibility(case: DiscreteCase, system: DiscreteSystem
                       ) -> dict[str, tuple[float, float, bool]]:
    """Per shock: (share of the node's static flexibility along the normal in the dropped
    modes, the largest ``k df`` over the directions the shock's springs act in: the normal
    with ``kn``, the tangent plane with ``kt`` when it has friction, and whether it is the
    tangent plane's). Empty when no mode is dropped."""
    if not system.dropped_omegas.size:
        return {}
    out = {}
    for j, shock in enumerate(case.model.shock):
        rows = slice(3 * j, 3 * j + 3)
        missed = _flexibility(system.dropped_G[rows], system.dropped_omegas)
        kept = _flexibility(system.G[rows], system.omegas)
        n = system.shock_params[j, :3]
        normal = float(n @ missed @ n)
        total = normal + float(n @ kept @ n)
        share = normal / total if total > 0.0 and np.isfinite(normal) else float(normal > 0)
        ratio, tangential = shock.kn * normal, False
        if shock.mu > 0.0 and shock.kt > 0.0:
            tangent = system.tangent_projectors[j]
            along = shock.kt * float(np.linalg.eigvalsh(tangent @ missed @ tangent).max())
            ratio, tangential = max(ratio, along), along > ratio
        out[shock.name] = (share, ratio, tangential)
    return out


def truncation_warnings(case: DiscreteCase, system: DiscreteSystem,
                        missed: dict[str, tuple[float, float, bool]] | None = None
                        ) -> list[str]:
    """What the dropped modes cost, where it is more than the limits above; nothing when
    no mode is dropped. ``missed``: :func:`missed_flexibility` of the case, if the caller
    has it (the runner records it too: computed once)."""
    if not system.dropped_omegas.size:
        return []
    kept = len(system.omegas)
    modes = f"solver.modes = {kept} of {kept + len(system.dropped_omegas)}"
    out = []
    if missed is None:
        missed = missed_flexibility(case, system)
    for shock in case.model.shock:
        share, ratio, tangential = missed[shock.name]
        if ratio <= MISSED_FLEXIBILITY_LIMIT:
            continue
        if tangential:  # (a pad's normal may hold none of it: its node cannot move there)
            held = (f"a static flexibility in shock {shock.name}'s tangent plane "
                    f"{ratio:.3g} times its stick spring's own (1/kt, kt = {shock.kt:g} "
                    f"N/m), and {share:.3g} of the node's along its normal")
            what = "its friction (stick phases, the force it holds)"
        else:
            held = (f"{share:.3g} of shock {shock.name}'s static flexibility along its "
                    f"normal, {ratio:.3g} times its spring's own")
            what = "its impacts (forces, instants)"
        out.append(f"{modes}: the dropped modes hold {held} (more than "
                   f"{MISSED_FLEXIBILITY_LIMIT:g}): {what} and the motion after them are "
                   f"those of a stiffer structure; keep more modes or solver.space = "
                   f"'physical'")
    if system.dropped_initial_energy > DROPPED_ENERGY_LIMIT:
        out.append(f"{modes}: the initial state, projected on the kept modes, loses "
                   f"{system.dropped_initial_energy:.3g} of its energy (in the dropped "
                   f"modes)")
    return out
