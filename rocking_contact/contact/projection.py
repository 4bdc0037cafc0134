"""The position projection of the theta treatment: lifting the slave body out of the table.

The velocity-level law of Moreau-Jean (:mod:`~rocking_contact.contact.theta`) leaves the
penetration of the step before a contact became active (up to ``h |U_N|``); left alone it
accumulates impact after impact and tilts the base into the table, so that a middle node of
the base touches down before the landing corner. At the end of a step the end gaps
``g(u_m) + h theta U_N`` of the active contacts are closed by a rigid motion ``du = R a`` of
the slave body (:class:`RigidModes`: two translations and the rotation about its centroid),
mass-weighted, ``a = (R^T M R)^-1 (H R)^T mu``, with ``0 <= g_end + H du _|_ mu >= 0``:
Moreau-Jean with a position projection (Siconos' ``MoreauJeanDirectProjectionOSI``), in the
rigid-body metric so that the lift strains nothing and does no work against the (large)
contact forces of an impact. The velocity is not changed.

Conventions: gaps in m, positive open; ``H R`` maps the rigid coordinates (m, m, rad) to
the (normal, tangential) relative displacements of the contacts, the normal from the table
towards the block (see :mod:`rocking_contact.contact`).
"""

from __future__ import annotations

import numpy as np
from mpi4py import MPI
from petsc4py import PETSc
from scipy.linalg import solve_triangular
from scipy.optimize import nnls

from rocking_contact.contact.friction_contact import FrictionContactProblem, solve
from rocking_contact.fem.body import ElasticBody

#: Gauss-Seidel sweeps of the lift's local solve before it is solved for in the rigid
#: coordinates: the shipped runs' lifts that reach Gauss-Seidel converge in at most 51 (the
#: fine mesh's 19 contacts); one that stalls at round-off cost 10000 sweeps (6-9 s) a step.
LIFT_SWEEPS = 1000


def rigid_lift(end_gaps: np.ndarray, HR: np.ndarray, mass: np.ndarray, *, tol: float,
               max_iterations: int) -> tuple[np.ndarray | None, int]:
    """The rigid coordinates ``a`` of the lift that closes the end gaps of the active
    contacts (see the module docstring).

    The impulses ``mu`` come from the local solver of the frictionless problem with the
    Delassus operator ``W = (H R) (R^T M R)^-1 (H R)^T``; where it fails (several contacts
    on a line: ``W`` of rank 2, impulses not unique) the lift, which is unique, is solved
    for in the rigid coordinates (:func:`smallest_lift`).

    Args:
        end_gaps: end gap of every active contact (m, negative penetrating).
        HR: ``H R``, rows ``[N_0, T_0, N_1, ...]`` of the active contacts x 3.
        mass: ``R^T M R`` (3 x 3, kg and kg.m^2).
        tol: relative tolerance of the local solver on the law.
        max_iterations: its semismooth Newton iterations.

    Returns:
        ``a`` (m, m, rad), None when no rigid motion opens the contacts; and the local
        solver's iterations.

    """
    W = HR @ np.linalg.solve(mass, HR.T)
    q = np.zeros(2 * len(end_gaps))
    q[0::2] = end_gaps
    lift = solve(FrictionContactProblem(W, q, np.zeros(len(end_gaps))), tol=tol,
                 max_iterations=max_iterations, max_sweeps=LIFT_SWEEPS)
    if lift.converged:
        a: np.ndarray = np.linalg.solve(mass, HR.T @ lift.P)
        return a, lift.iterations
    # Several contacts on a line (a base landing flat): W has rank 2, the impulses are not
    # unique, Newton's Jacobian is singular and Gauss-Seidel creeps at round-off short of
    # the tolerance. The lift is unique: solved for directly.
    return smallest_lift(HR[0::2], mass, end_gaps), lift.iterations


def smallest_lift(G: np.ndarray, mass: np.ndarray, gaps: np.ndarray) -> np.ndarray | None:
    """The smallest motion ``a`` (in the metric ``mass``) that opens every gap:
    ``min a^T M a / 2`` subject to ``gaps + G a >= 0``; None if no motion does.

    The position projection of Moreau-Jean with a few coordinates (the rigid motions of a
    body): the dual of this problem is the frictionless contact problem with the Delassus
    operator ``W = G M^-1 G^T``, whose rank is at most the number of coordinates, so that
    the impulses of several contacts on a line (a block's base landing flat: rank 2) are
    not unique and a semismooth Newton on them sees a singular Jacobian. The motion is
    unique: it is found as a least-distance problem (Lawson & Hanson 1974, ch. 23) solved
    by their non-negative least squares, which needs no rank.

    Args:
        G: gap rows (m x n): the change of each gap per unit coordinate (m per unit of
            ``a``; for a rotation, m/rad).
        mass: M (n x n, symmetric positive definite: kg, kg.m^2).
        gaps: the gaps to open (m, m): positive open.

    Returns:
        ``a`` (n,); zero when every gap is open.

    """
    if not np.any(gaps < 0.0):
        return np.zeros(len(mass))
    # b = L^T a turns the metric into |b|^2; each row normalised and the gaps scaled by
    # the deepest one, the problem is of unit size (its solution scales back linearly).
    L = np.linalg.cholesky(mass)
    B = solve_triangular(L, np.asarray(G, dtype=float).T, lower=True).T
    norms = np.linalg.norm(B, axis=1)
    if np.any(norms == 0.0):
        return None  # a closed gap that no motion moves
    scale = float(np.max(-gaps))
    # least distance: min |b| with B b >= -gaps, through min |E u - f| over u >= 0
    E = np.vstack([(B / norms[:, None]).T, -gaps / (norms * scale)])
    f = np.zeros(len(E))
    f[-1] = 1.0
    u, _ = nnls(E, f)
    r = E @ u - f
    if not r[-1] < 0.0:
        return None  # no motion satisfies the constraints
    b = -r[:-1] / r[-1] * scale
    lift: np.ndarray = solve_triangular(L.T, b, lower=False)
    return lift


class RigidModes:
    """The rigid motions of one body (region) on this rank's owned dofs.

    Two translations and the rotation about the body's centroid (linearised at the
    current configuration), and their mass matrix ``R^T M R``.

    Args:
        body: the bodies.
        region: the cell region of the body (the slave body, ``BLOCK``).

    """

    def __init__(self, body: ElasticBody, region: str):
        self.body = body
        dofs = body.block_mesh.dofs(body.V, region)
        bs = body.V.dofmap.index_map_bs
        self.dofs = dofs[dofs < body.n_owned]
        self.component = self.dofs % bs
        self.X = body.V.tabulate_dof_coordinates()[self.dofs // bs, :2]
        self._work: tuple[PETSc.Vec, PETSc.Vec] | None = None  # M R's column, made once

    def basis(self, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``R`` (owned dofs x 3, zero off the body) at the displacement ``u`` (local
        array, m) and ``R^T M R`` (3 x 3, kg and kg.m^2). Columns: translations along x
        and y (m per m), rotation about the body's centroid at ``u``, counterclockwise
        positive (m per rad: ``-(y - y_c)`` on x dofs, ``x - x_c`` on y dofs)."""
        body = self.body
        comm = body.comm
        # current position of each owned dof's node: X + u (x and y of the node)
        node_first = self.dofs - self.component
        x = self.X + np.stack([u[node_first], u[node_first + 1]], axis=1)
        count = comm.allreduce(len(x), op=MPI.SUM)
        centre = comm.allreduce(x.sum(axis=0), op=MPI.SUM) / max(count, 1)
        R = np.zeros((body.n_owned, 3))
        R[self.dofs, self.component] = 1.0
        arm = np.where(self.component == 0, -(x[:, 1] - centre[1]), x[:, 0] - centre[0])
        R[self.dofs, 2] = arm
        if self._work is None:
            self._work = (body.vector(), body.vector())
        vec, out = self._work
        MR = np.empty_like(R)
        for k in range(3):
            vec.array[:] = R[:, k]
            body.M.mult(vec, out)
            MR[:, k] = out.array_r
        return R, comm.allreduce(R.T @ MR, op=MPI.SUM)
