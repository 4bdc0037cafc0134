"""Natural modes of the bodies about the undeformed state (SLEPc).

Solves ``K phi = omega^2 M phi`` with the tangent stiffness at rest (the linear K for both
kinematics) and the consistent mass, by shift-and-invert around a target frequency.
Prescribed dofs are removed by zeroing their rows and columns with a unit diagonal in K
and a tiny one in M, which sends their spurious eigenvalues to about 1e30 (rad/s)^2.

Each mode carries its effective masses along x and y, ``(phi^T M r_d)^2 / phi^T M phi``
with ``r_d`` the unit translation along d on the free dofs (kg): the vertical extension
mode of a block clamped on its base is the one with the largest effective mass along y.

No run computes modes: :func:`eigenmodes` serves the verification of the FEM (docs/fem.md's
table: the block's first extension frequency against the bar's; the time schemes' order
and damping measured on the first mode, tests/fem) and checks of a user's own bodies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from petsc4py import PETSc

from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.constraints import Prescribed, merge


@dataclass
class Mode:
    """A natural mode.

    Attributes:
        frequency: f (Hz).
        shape: local array (owned and ghost) of the mode shape, M-normalised.
        effective_mass: (x, y) effective masses (kg).

    """

    frequency: float
    shape: np.ndarray
    effective_mass: tuple[float, float]


def eigenmodes(body: ElasticBody, prescribed: Sequence[Prescribed], *, n: int = 6,
               target_hz: float = 0.0, tol: float = 1e-12, prefix: str = "modal_") -> list[Mode]:
    """The ``n`` modes nearest to ``target_hz``, sorted by frequency.

    Args:
        body: the bodies (its evaluation point is reset to rest).
        prescribed: supports (their values are ignored: the modes are about rest).
        n: number of modes.
        target_hz: shift of the spectral transformation (Hz).
        tol: SLEPc relative tolerance.
        prefix: PETSc/SLEPc options prefix.

    """
    from slepc4py import SLEPc

    body.set_point(None, None)
    stiffness = body.matrix()
    body.tangent(1.0, 0.0, stiffness)
    mass = body.M.copy()
    dofs, _ = merge(prescribed, 0.0)
    imap, bs = body.V.dofmap.index_map, body.V.dofmap.index_map_bs
    owned = dofs[dofs < body.n_owned]
    rows = (owned + imap.local_range[0] * bs).astype(PETSc.IntType)
    stiffness.zeroRowsColumns(rows, diag=1.0)
    mass.zeroRowsColumns(rows, diag=1e-30)

    eps = SLEPc.EPS().create(body.comm)
    eps.setOptionsPrefix(prefix)
    eps.setOperators(stiffness, mass)
    eps.setProblemType(SLEPc.EPS.ProblemType.GHEP)
    eps.setDimensions(n)
    eps.setTolerances(tol, 1000)
    eps.setWhichEigenpairs(SLEPc.EPS.Which.TARGET_MAGNITUDE)
    eps.setTarget((2 * math.pi * target_hz) ** 2)
    st = eps.getST()
    st.setType(SLEPc.ST.Type.SINVERT)
    st.getKSP().setType("preonly")
    st.getKSP().getPC().setType("lu")
    st.getKSP().getPC().setFactorSolverType("mumps")
    eps.setFromOptions()
    eps.solve()

    translations = []
    for d in range(bs):
        r = body.vector()
        with r.localForm() as local:
            local.array[d::bs] = 1.0
            local.array[dofs] = 0.0
        translations.append(r)
    modes = []
    vec, work = stiffness.createVecRight(), stiffness.createVecRight()
    for i in range(min(eps.getConverged(), n)):
        lam = eps.getEigenpair(i, vec).real
        mass.mult(vec, work)
        norm = work.dot(vec)
        effective = tuple(work.dot(r) ** 2 / norm for r in translations)
        shape = body.vector()
        vec.copy(shape)
        shape.scale(1.0 / math.sqrt(norm))
        shape.ghostUpdate(addv=PETSc.InsertMode.INSERT, mode=PETSc.ScatterMode.FORWARD)
        with shape.localForm() as local:
            modes.append(Mode(math.sqrt(max(lam, 0.0)) / (2 * math.pi), local.array.copy(),
                              (effective[0], effective[1])))
    for obj in (eps, stiffness, mass, vec, work, *translations):
        obj.destroy()
    return sorted(modes, key=lambda m: m.frequency)
