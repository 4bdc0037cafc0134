"""Assembly of a discrete model into the matrices the integrators step.

Full dofs are (node, DX|DY|DZ) in node order. Fixed dofs and linear relations are
eliminated by a basis ``T`` (``u = T q``) whose columns are independent physical dofs
(master-slave elimination, pivots chosen by QR), so that "physical space" keeps the
meaning of each unknown. In modal space the solution is ``u = T Phi eta`` with ``Phi`` the
mass-normalised modes of the constrained system: the mass matrix is the identity and the
stiffness and modal damping are diagonal, which the integrators exploit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import scipy.linalg

from rocking_contact.discrete.case import COMPONENTS, Model, Solver, unit_vector
from rocking_contact.discrete.shock import LAWS, P_CT, P_KN, P_KT, SHOCK_PARAMS


@dataclass
class DiscreteSystem:
    """Matrices of the equations of motion in the solution coordinates ``x``.

    ``M x'' + C x' + K x + G^T F(G x, G x') = p_support * gamma(t) + f_const``, with
    ``u_full = basis @ x``. When ``diagonal`` is True, ``M = I`` and ``K``, ``C`` are
    diagonal (modal space).
    """

    dof_names: list[str]
    basis: np.ndarray          # (n_full, n)
    M: np.ndarray              # (n, n)
    K: np.ndarray
    C: np.ndarray
    diagonal: bool
    G: np.ndarray              # (3 * n_shocks, n): global x, y, z of each shock node
    shock_params: np.ndarray   # (n_shocks, len(SHOCK_PARAMS))
    shock_names: list[str]
    p_support: np.ndarray      # (n,) load per unit support acceleration
    f_const: np.ndarray        # (n,) constant load (gravity)
    x0: np.ndarray
    v0: np.ndarray
    omegas: np.ndarray         # natural circular frequencies of the linear system (rad/s)
    #: modal space with fewer modes than unknowns: the dropped modes' rows at the shock
    #: nodes (like ``G``, mass-normalised shapes), their circular frequencies (rad/s) and the
    #: share of the initial state's linear energy they hold (left out of ``x0``, ``v0``)
    dropped_G: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    dropped_omegas: np.ndarray = field(default_factory=lambda: np.zeros(0))
    dropped_initial_energy: float = 0.0

    @cached_property
    def inverse_mass(self) -> np.ndarray:
        """``M^-1`` (1/kg for translations), computed once."""
        inverse: np.ndarray = np.linalg.inv(self.M)
        return inverse

    @cached_property
    def normal_rows(self) -> np.ndarray:
        """(n_shocks, n): row ``j``, ``n_j . G_j``, gives the displacement (m) of shock
        ``j``'s node along its normal (towards the obstacle, as the gap)."""
        rows = np.zeros((len(self.shock_names), self.G.shape[1]))
        for j in range(len(rows)):
            rows[j] = self.shock_params[j, :3] @ self.G[3 * j:3 * j + 3]
        return rows

    @cached_property
    def always_closed(self) -> np.ndarray:
        """(n_shocks,) bool: the shocks whose node the unknowns cannot move along their
        normal (a row of :attr:`normal_rows` zero to round-off): their penetration stays
        ``-gap``, ``> 0`` (a case refuses ``gap >= 0`` there), and they press with
        ``kn |gap|`` for the whole run: a preloaded friction pad (SDND100), a sustained
        contact, never an impact."""
        scale = float(np.abs(self.G).max(initial=0.0))
        moving = np.abs(self.normal_rows).max(axis=1, initial=0.0) > 1e-12 * scale
        closed: np.ndarray = ~moving
        return closed

    @cached_property
    def tangent_projectors(self) -> np.ndarray:
        """(n_shocks, 3, 3): ``I - n n^T``, the projector on each shock's tangent plane."""
        out = np.zeros((len(self.shock_names), 3, 3))
        for j in range(len(out)):
            n = self.shock_params[j, :3]
            out[j] = np.eye(3) - np.outer(n, n)
        return out

    @property
    def n(self) -> int:
        """Number of unknowns."""
        return int(self.basis.shape[1])

    def rows(self, dofs: list[str]) -> np.ndarray:
        """Rows of ``basis`` for the named full dofs (``NODE.DX``): physical values = rows @ x."""
        index = {name: i for i, name in enumerate(self.dof_names)}
        return self.basis[[index[d] for d in dofs], :]


def full_dofs(model: Model) -> list[str]:
    """The full dofs ``NODE.DX``, ``NODE.DY``, ``NODE.DZ`` in node order."""
    return [f"{n.name}.{c}" for n in model.node for c in COMPONENTS]


def _full_matrices(model: Model) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    dofs = full_dofs(model)
    index = {name: i for i, name in enumerate(dofs)}
    nf = len(dofs)
    M, K, C = np.zeros((nf, nf)), np.zeros((nf, nf)), np.zeros((nf, nf))
    for node in model.node:
        for c in COMPONENTS:
            i = index[f"{node.name}.{c}"]
            M[i, i] = node.mass
    for spring in model.spring:
        for axis, c in enumerate(COMPONENTS):
            i = index[f"{spring.nodes[0]}.{c}"]
            ends = [i] + ([index[f"{spring.nodes[1]}.{c}"]] if len(spring.nodes) == 2 else [])
            sign = np.array([1.0, -1.0][: len(ends)])
            for mat, value in ((K, spring.stiffness[axis]), (C, spring.damping[axis])):
                mat[np.ix_(ends, ends)] += value * np.outer(sign, sign)
    a, b = model.damping.mass_coefficient, model.damping.stiffness_coefficient
    C += a * M + b * K
    return dofs, M, K, C


def constraint_basis(model: Model, dofs: list[str]) -> np.ndarray:
    """Basis T of the displacements allowed by fixed dofs and relations (u = T q).

    Its columns are unit vectors on the independent (master) dofs; slave dofs follow from
    the relations. Masters are picked by a pivoted QR so the elimination is well
    conditioned.
    """
    index = {name: i for i, name in enumerate(dofs)}
    fixed = {index[f"{n.name}.{c}"] for n in model.node for c in n.fixed}
    free = [i for i in range(len(dofs)) if i not in fixed]
    col = {dof: j for j, dof in enumerate(free)}
    rows = []
    for rel in model.relation:
        row = np.zeros(len(free))
        for name, coef in zip(rel.dofs, rel.coefficients):
            if index[name] in col:
                row[col[index[name]]] += coef
        if np.any(row):
            rows.append(row)
    T = np.zeros((len(dofs), len(free)))
    T[free, range(len(free))] = 1.0
    if not rows:
        return T
    A = np.array(rows)
    _, r, piv = scipy.linalg.qr(A, pivoting=True, mode="economic")
    rank = int(np.sum(np.abs(np.diag(r)) > 1e-12 * np.abs(r[0, 0])))
    slaves, masters = piv[:rank], np.sort(piv[rank:])
    # Rows of A spanning its range: solve A_s u_s = -A_m u_m in least squares.
    coupling = -np.linalg.lstsq(A[:, slaves], A[:, masters], rcond=None)[0]
    Tr = np.zeros((len(free), len(masters)))
    Tr[masters, range(len(masters))] = 1.0
    Tr[slaves, :] = coupling
    return T @ Tr


def assemble(model: Model, solver: Solver) -> DiscreteSystem:
    """Build the :class:`DiscreteSystem` of a model in the solver's space."""
    dofs, M, K, C = _full_matrices(model)
    index = {name: i for i, name in enumerate(dofs)}
    T = constraint_basis(model, dofs)
    Mq, Kq, Cq = T.T @ M @ T, T.T @ K @ T, T.T @ C @ T
    w2, phi = scipy.linalg.eigh(Kq, Mq)
    w2 = np.clip(w2, 0.0, None)
    omegas = np.sqrt(w2)
    xi = model.damping.modal_ratio
    dropped = np.zeros((len(dofs), 0))
    dropped_omegas = np.zeros(0)
    if solver.space == "modal":
        keep = solver.modes or len(w2)
        dropped, dropped_omegas = T @ phi[:, keep:], omegas[keep:]
        phi, omegas = phi[:, :keep], omegas[:keep]
        basis = T @ phi
        Mx, Kx = np.eye(keep), np.diag(omegas**2)
        Cx = phi.T @ Cq @ phi
        Cx = np.diag(np.diag(Cx)) if np.allclose(Cx, np.diag(np.diag(Cx))) else Cx
        Cx = Cx + np.diag(2.0 * xi * omegas)
        diagonal = bool(np.count_nonzero(Cx - np.diag(np.diag(Cx))) == 0)
    else:
        basis, Mx, Kx = T, Mq, Kq
        # Modal damping expressed in physical coordinates: C = M Phi diag(2 xi w) Phi^T M.
        Cx = Cq + Mq @ phi @ np.diag(2.0 * xi * omegas) @ phi.T @ Mq
        diagonal = False
    mass_full = np.diag(M)
    drive = np.zeros(len(dofs))
    gvec = np.zeros(len(dofs))
    direction = unit_vector(model.support.direction)
    for node in model.node:
        for axis, c in enumerate(COMPONENTS):
            i = index[f"{node.name}.{c}"]
            drive[i] = direction[axis]
            gvec[i] = model.gravity[axis]
    p_support = basis.T @ (-mass_full * drive)
    f_const = basis.T @ (mass_full * gvec)
    u0 = np.array([u for n in model.node for u in n.u0])
    v0 = np.array([v for n in model.node for v in n.v0])
    # M-orthogonal projection of the initial state on the solution space.
    BtM = basis.T * mass_full
    x0 = np.linalg.solve(BtM @ basis, BtM @ u0)
    v0x = np.linalg.solve(BtM @ basis, BtM @ v0)
    dropped_initial_energy = _dropped_share(M, K, dropped, dropped_omegas, u0, v0)
    G = np.zeros((3 * len(model.shock), basis.shape[1]))
    Gd = np.zeros((3 * len(model.shock), dropped.shape[1]))
    params = np.zeros((len(model.shock), len(SHOCK_PARAMS)))
    for j, s in enumerate(model.shock):
        for axis, c in enumerate(COMPONENTS):
            G[3 * j + axis] = basis[index[f"{s.node}.{c}"]]
            Gd[3 * j + axis] = dropped[index[f"{s.node}.{c}"]]
        normal = unit_vector(s.normal)
        params[j] = [*normal, s.gap, s.kn, s.cn, s.kt, s.ct, s.mu,
                     LAWS[s.friction]]
    return DiscreteSystem(
        dof_names=dofs, basis=basis, M=Mx, K=Kx, C=Cx, diagonal=diagonal, G=G,
        shock_params=params, shock_names=[s.name for s in model.shock],
        p_support=p_support, f_const=f_const, x0=x0, v0=v0x, omegas=omegas,
        dropped_G=Gd, dropped_omegas=dropped_omegas,
        dropped_initial_energy=dropped_initial_energy,
    )


def _dropped_share(M: np.ndarray, K: np.ndarray, dropped: np.ndarray,
                   omegas: np.ndarray, u0: np.ndarray, v0: np.ndarray) -> float:
    """Share of the initial state's linear energy (``v^T M v / 2 + u^T K u / 2``) in the
    ``dropped`` modes (full-dof shapes, mass-normalised, circular frequencies ``omegas``):
    the projection on the kept modes loses it. 0 for a state at rest."""
    total = 0.5 * (v0 @ M @ v0 + u0 @ K @ u0)
    if not dropped.shape[1] or total <= 0.0:
        return 0.0
    eta, deta = dropped.T @ (M @ u0), dropped.T @ (M @ v0)
    return float(0.5 * np.sum(deta**2 + (omegas * eta) ** 2) / total)


def critical_step(system: DiscreteSystem, closed: bool = True) -> float:
    """Stability limit of central differences with every shock closed (s), or with every
    shock open (``closed=False``: the linear system alone, the largest limit a contact can
    leave: closing a shock adds its springs and dampers).

    Undamped it is ``2 / omega_max``. The dampers act on the lagged half-step velocity, which
    lowers it: for a mode of pulsation ``omega`` and damping ``c = phi^T C phi`` (``phi``
    mass-normalised) the limit is ``2 / omega (sqrt(1 + xi^2) - xi)`` with
    ``xi = c / (2 omega)`` (Belytschko and Hughes, 1983), that is
    ``4 / (sqrt(4 omega^2 + c^2) + c)``: ``2 / c`` for a rigid mode. The modes of the
    undamped system stand in for the damped ones (exact for Rayleigh damping). Without it a
    mass damping of 5000 /s on sdnd101a (limit 4e-4 s, step 5e-4 s) goes to NaN unwarned.
    """
    K, C = system.K.copy(), system.C.copy()
    for j in range(len(system.shock_names) if closed else 0):
        n, g = system.shock_params[j, :3], system.normal_rows[j]
        gt = system.G[3 * j:3 * j + 3] - np.outer(n, g)
        kn, cn, kt, ct = system.shock_params[j, P_KN:P_CT + 1]
        K += kn * np.outer(g, g) + kt * gt.T @ gt
        C += cn * np.outer(g, g) + ct * gt.T @ gt
    w2, phi = scipy.linalg.eigh(K, system.M)
    omega = np.sqrt(np.maximum(w2, 0.0))
    c = np.einsum("im,ij,jm->m", phi, C, phi)
    with np.errstate(divide="ignore"):  # a free undamped mode (rigid motion) sets no limit
        limits = 4.0 / (np.sqrt(4.0 * omega**2 + c**2) + c)
    step: float = float(limits.min())
    return step


def contact_durations(system: DiscreteSystem) -> np.ndarray:
    """Duration of each shock's contact, half a period of its normal spring on the node's
    effective mass, ``pi sqrt(m_eff / kn)`` with ``1 / m_eff = g^T M^-1 g`` (s; ``g`` the
    shock's normal row). An implicit step much longer than it cannot resolve the impact:
    the rebound then depends on the step."""
    Minv = system.inverse_mass
    out = np.empty(len(system.shock_names))
    for j in range(len(out)):
        g = system.normal_rows[j]
        stiffness = system.shock_params[j, P_KN] * float(g @ Minv @ g)  # kn / m_eff
        # a normal the unknowns cannot move along (SDND100's plane) never bounces
        out[j] = np.pi / np.sqrt(stiffness) if stiffness > 0.0 else np.inf
    return out


def stick_critical_damping(system: DiscreteSystem) -> np.ndarray:
    """Critical damping ``2 sqrt(kt m_t)`` of each shock's stick spring (N.s/m), ``m_t`` the
    node's smallest effective mass in the tangent plane (``1 / m_t`` the largest eigenvalue
    of ``P_t g M^-1 g^T P_t``, ``g`` the node's rows); 0 where the node cannot slide or
    ``kt`` is 0."""
    Minv = system.inverse_mass
    out = np.zeros(len(system.shock_names))
    for j in range(len(out)):
        rows = system.tangent_projectors[j] @ system.G[3 * j:3 * j + 3]
        inverse_mass = float(np.linalg.eigvalsh(rows @ Minv @ rows.T).max())
        kt = system.shock_params[j, P_KT]
        if inverse_mass > 1e-12 * float(np.abs(Minv).max()):
            out[j] = 2.0 * np.sqrt(kt / inverse_mass)
    return out
