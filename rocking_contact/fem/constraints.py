"""Prescribed displacements on named points, curves and regions.

A :class:`Prescribed` holds dof indices of the body's space (local, owned and ghost) and the
displacement they must have, ``start + values * factor(t)`` (m). The step problem turns it into a
condition on its unknown (displacement or velocity) for each step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from rocking_contact.fem.body import ElasticBody

#: component name -> index
COMPONENT = {"DX": 0, "DY": 1}


def constant(_t: float) -> float:
    """The factor of a constant prescription."""
    return 1.0


@dataclass
class Prescribed:
    """``u[dofs] = start + values * factor(t)``.

    Attributes:
        label: what it is, for messages (``"O: DX, DY"``).
        dofs: local dof indices (owned and ghost) of the displacement space.
        values: displacement added at factor 1 (m), one per dof.
        factor: time (s) -> multiplier.
        start: displacement at factor 0 (m); None for zero.

    """

    label: str
    dofs: np.ndarray
    values: np.ndarray
    factor: Callable[[float], float] = field(default=constant)
    start: np.ndarray | None = None

    def at(self, t: float) -> np.ndarray:
        """Prescribed displacements at time ``t`` (m)."""
        moved = self.values * self.factor(t)
        return moved if self.start is None else self.start + moved


def fix(body: ElasticBody, name: str, components: Sequence[str], value: float = 0.0
        ) -> Prescribed:
    """Prescribe ``value`` (m), whatever the time, on components ``DX``/``DY`` of a named
    group."""
    dofs = _dofs(body, name, components)
    return Prescribed(f"{name}: {', '.join(components)}", dofs,
                      np.full(len(dofs), float(value)))


def hold(body: ElasticBody, name: str, components: Sequence[str],
         displacement: np.ndarray) -> Prescribed:
    """Hold components of a named group at their values in ``displacement`` (m, a local
    dof array), whatever the time."""
    dofs = _dofs(body, name, components)
    return Prescribed(f"{name}: {', '.join(components)} held", dofs,
                      displacement[dofs].copy())


def _dofs(body: ElasticBody, name: str, components: Sequence[str]) -> np.ndarray:
    found = [body.block_mesh.dofs(body.V, name, COMPONENT[c]) for c in components]
    return np.unique(np.concatenate(found)).astype(np.int32)


def merge(prescribed: Sequence[Prescribed], t: float) -> tuple[np.ndarray, np.ndarray]:
    """All prescribed dofs (local indices) and their displacements (m) at time ``t`` (s);
    a later entry wins on a dof."""
    if not prescribed:
        return np.zeros(0, np.int32), np.zeros(0)
    dofs = np.concatenate([p.dofs for p in prescribed])
    values = np.concatenate([p.at(t) for p in prescribed])
    # np.unique keeps the first occurrence: reverse so that the last prescription wins.
    unique, first = np.unique(dofs[::-1], return_index=True)
    return unique.astype(np.int32), values[::-1][first]
