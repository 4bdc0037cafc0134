"""Contact by condensation on the Delassus operator: the Newton loop shared by the Lagrange
(SDNV105 A) and continuous (SDNV105 C) treatments.

The step equation with contact is ``R(x) - w1 H(x)^T lambda - w0 H(u_n)^T lambda(t_n) = 0``
plus the Signorini-Coulomb conditions on the relative displacements ``q(x)`` at the end of
the step (:mod:`rocking_contact.contact.local`): the contact forces are weighted as the
body's forces in ``R`` (``w1 = 1``, ``w0 = 0`` but for the HHT scheme; Negrut et
al. 2007 weight the constraint forces of HHT so), and ``lambda`` is the force at the end of
the step. The treatment is a
:class:`~rocking_contact.solvers.step.Corrector`: the step driver first solves the free
step (no contact) with the SNES, then :meth:`CondensedContact.correct` runs Newton's method
on the coupled problem, each iteration eliminating the displacement correction:

1. ``r = R(x)`` (the SNES's residual callback) and, for a nonlinear body, the Jacobian
   ``J`` at ``x`` (factorised once by the SNES's own KSP, reused by every solve below);
2. ``dx_free = -J^-1 r`` and ``Z = J^-1 H^T`` on the candidate contacts (gap below
   ``contact.search_distance`` or force > 0): one multi-right-hand-side solve of the
   factorised J for all their rows (``solve_columns``; for a linear body only the rows
   not cached yet, below);
3. the local problem ``q = q(x) + H dx_free + W lambda`` with ``W = w1 H Z`` (m/N, the
   Delassus operator): the Lagrange treatment solves it exactly (primal-dual active set),
   the continuous one takes one generalised Newton step of the Alart-Curnier system (which
   is one Newton step of the whole coupled system, condensed);
4. ``x <- x + dx_free + w1 Z lambda``.

It stops when the complementarity residual ``max |Phi|`` is below ``contact.tolerance``
times the norm of the weight vector under 9.81 m/s^2 (N, ``ElasticBody.force_scale``)
and either the equilibrium residual is too, or the last update moved the end displacement by
less than ``contact.step_tolerance`` of its size (Newton stalled at round-off, as large
rotations of the thin Code_Aster cells leave ~1e-4 N); after ``contact.max_iterations`` the
step is rejected (the driver halves it). For a linear body (small strain) the Jacobian is
constant over a step size and ``Z`` is cached: a step costs the free solve, a few
back-substitutions and the small dense problem, as in LMGC90 and Siconos.

At the release, the acceleration of the free state (computed by the step problem without
contact) is corrected by the reactions of the closed contacts: the same local problem at
the acceleration level (``a_N >= 0``, ``lambda_N >= 0``; tangential acceleration zero while
sticking) with ``W = H M^-1 H^T``, so that the first step does not start with the base
falling freely. The step problem leaves the contact out of the static preload's steps
(supports hold the base).

Energy: the work of the contact forces on the bodies is accumulated with the trapezoidal
rule, ``W += 1/2 (F_n + F_{n+1}) . (u_{n+1} - u_n)`` with ``F = H^T lambda``, split into
its normal and tangential (friction) parts; :meth:`absorbed_energy` is its opposite.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from typing import Any

import numpy as np
from mpi4py import MPI
from petsc4py import PETSc

from rocking_contact.contact.components import (
    normal_tangential_rows,
    point_columns,
    sliding,
    smallest_gap,
    summary_columns,
)
from rocking_contact.contact.counters import SolveCounters
from rocking_contact.contact.kinematics import ContactGeometry, ContactKinematics
from rocking_contact.contact.local import (
    LocalProblem,
    LocalSolution,
    Status,
    alart_curnier,
    solve_active_set,
)
from rocking_contact.contact.release import StepMobility, mass_solver, table_drag
from rocking_contact.contact.spec import ContactSpec
from rocking_contact.contact.workspace import WorkVectors
from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.constraints import merge
from rocking_contact.solvers.driver import StepFailure
from rocking_contact.solvers.newton import NewtonSolver
from rocking_contact.solvers.step import Corrector, StepProblem
from rocking_contact.time.stage import Stage


class CondensedContact(Corrector):
    """Base of the condensed treatments (a :class:`~rocking_contact.solvers.step.Corrector`).

    Subclasses implement :meth:`local_solve` (the law of the treatment on the condensed
    problem) and may set :attr:`weights`.

    Args:
        body: the bodies.
        spec: the ``[contact]`` section.
        kinematics: pairing and H of the block base on the table top.

    Attributes:
        lam: contact forces of the last accepted step (N), (N, T) per slave node.
        status: :class:`~rocking_contact.contact.local.Status` of each contact.
        iterations: Newton iterations of the last step attempt.
        counters: iterations over the run (:class:`~.counters.SolveCounters`).

    """

    def __init__(self, body: ElasticBody, spec: ContactSpec, kinematics: ContactKinematics):
        self.body = body
        self.spec = spec
        self.kin = kinematics
        self.comm = body.comm
        ns = kinematics.n_contacts
        self.lam = np.zeros(2 * ns)
        self.status = np.zeros(ns, dtype=np.int64)
        self.weights: np.ndarray | None = None
        self.tol = spec.tolerance * body.force_scale
        self.iterations = 0
        self.counters = SolveCounters()
        self.work_normal = 0.0
        self.work_tangential = 0.0
        self._geometry: ContactGeometry | None = None
        self._u0 = np.zeros(kinematics.n_dofs)
        self._trial_lam = self.lam.copy()
        self._trial_status = self.status.copy()
        self._prescribed_owned = np.zeros(0, np.int32)
        self._blocked = np.zeros(0, dtype=np.int64)  # the contact dofs prescribed anywhere
        self._supports_of: np.ndarray | None = None  # the dofs array the two above are for
        # 1 on the contact dofs this rank owns and prescribes (summed over the ranks)
        self._prescribed_mine = np.zeros(kinematics.n_dofs)
        self._forces0_split = (np.zeros(kinematics.n_dofs), np.zeros(kinematics.n_dofs))
        self._cache_key: tuple[Any, ...] | None = None
        self._cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # row -> (Z, Zc) columns
        self._last_residual = math.nan
        # residual, correction, column of Z of correct(): their ghosts are never read
        self._work = WorkVectors(3)
        self._drag0: PETSc.Vec | None = None  # a shaking table's drag at the release (N)

    # -- the local law (subclasses) ------------------------------------------------------
    @abstractmethod
    def local_solve(self, problem: LocalProblem, lam0: np.ndarray) -> LocalSolution:
        """The contact forces of one Newton iteration of :meth:`correct`: the treatment's
        law on the condensed problem.

        Args:
            problem: ``q = q_free + W lambda`` on the iteration's candidate contacts
                (:meth:`local_problem`), ``q`` their gaps and slips at the end of the step
                (m), ``W = w1 H Z`` (m/N).
            lam0: their forces at the previous iterate (N), where the solve starts; same
                layout as the result.

        Returns:
            ``lam``: the forces (N), shape (2c,), ``(lambda_N, lambda_T)`` per contact in the
            order of ``problem``: ``lambda_N >= 0`` in compression (``H^T lambda`` is the
            force on the bodies, pushing the base and the table apart), ``lambda_T`` the
            friction force on the slave node along the contact's tangent, ``|lambda_T| <=
            mu lambda_N``; and ``iterations``, added to :attr:`counters`. :meth:`correct`
            reads these two only: it judges convergence on the coupled problem itself
            (``max |Phi|`` and the equilibrium at the next iterate), so ``status``,
            ``converged`` and ``residual`` are for information, and a local solve that did
            not converge rejects no step.

        """

    def local_problem(self, W: np.ndarray, q_free: np.ndarray,
                      contacts: np.ndarray) -> LocalProblem:
        """The local problem of the given contacts (augmentation scaled on W)."""
        weights = None if self.weights is None else self.weights[contacts]
        return LocalProblem.scaled(W, q_free, np.full(len(contacts), self.spec.mu),
                                   (self.spec.augmentation_normal,
                                    self.spec.augmentation_tangential), weights)

    # -- Corrector protocol -----------------------------------------------------------------
    def begin_step(self, problem: StepProblem) -> None:
        """The start of a dynamic step (released before the first one)."""
        self._u0 = self.kin.values(problem.arrays[0])
        self._set_supports(problem.prescribed_dofs)
        self.iterations = 0

    def correct(self, problem: StepProblem, solver: NewtonSolver, x: PETSc.Vec) -> bool:
        """Newton on the coupled problem from the free solution ``x`` (modified in place)."""
        stage = problem.stage
        assert stage is not None
        ux = stage.u.x
        # The contact forces are weighted as the body's forces (HHT): w1 on the
        # unknown end forces, w0 on the start forces, a constant of the step.
        w1 = stage.w1
        start = self._start_forces(stage.w0)
        r, dx, column = self._work.get(problem)
        lam = self.lam.copy()
        converged = False
        change = math.inf
        for it in range(self.spec.max_iterations + 1):
            # the residual first: its end state at x is the one end_values then picks
            if it > 0 or not solver.residual_at_solution(x, r):
                problem.residual(None, x, r)
            u1, _ = problem.end_values(x, self.kin.values_many)
            geometry = self.kin.geometry(u1)
            q = self._relative(geometry, u1)
            if start is not None:
                self.kin.add_forces(start, r.array, -1.0)
            forces = geometry.H.T @ (w1 * lam)
            self._zero_prescribed_forces(forces)
            self.kin.add_forces(forces, r.array, -1.0)
            equilibrium = r.norm()
            contacts = self._candidates(geometry, lam)
            rows = normal_tangential_rows(contacts)
            if it > 0:
                phi = self._complementarity(lam, q, contacts, rows)
                self._last_residual = max(equilibrium, phi)
                # Equilibrium within tolerance, or Newton stagnating at round-off (large
                # rotation: a strain round-off of 1e-17 in the thin columns of the Code_Aster
                # mesh is 1e-4 N of residual, above tolerance for no fault of the solve).
                # The stall test (a reduction over the ranks) only once phi passes: phi is
                # the same on every rank, which all take the same branch.
                if phi <= self.tol and (equilibrium <= self.tol or problem.settled(
                        x, change, self.spec.step_tolerance)):
                    converged = True
                    break
            if it == self.spec.max_iterations:
                break
            if not problem.linear:
                problem.jacobian(None, x, problem.J, problem.J)
            # Undo the unknown contact forces: dx_free answers the rest of the residual.
            self.kin.add_forces(forces, r.array, 1.0)
            r.scale(-1.0)
            solver.solve_linear(r, dx)
            Z, Zc = self._delassus_columns(problem, solver, geometry, rows)
            Hr = ux * geometry.H[rows]
            W = w1 * (Hr @ Zc)
            dq = Hr @ self.kin.values(dx.array)
            local = self.local_solve(self.local_problem(W, q[rows] + dq, contacts),
                                     lam[rows])
            self.counters.local += local.iterations
            lam = np.zeros_like(lam)
            lam[rows] = local.lam
            add_columns(dx, Z, w1 * local.lam, column)
            change = dx.norm(PETSc.NormType.NORM_INFINITY)
            x.axpy(1.0, dx)
            x.ghostUpdate(addv=PETSc.InsertMode.INSERT, mode=PETSc.ScatterMode.FORWARD)
            self.iterations += 1
        self.counters.end_step(self.iterations)
        if not converged:
            self._trial_lam = lam
            return False
        self._geometry = geometry
        self._trial_lam = lam
        self._trial_status = self._status(lam, q)
        return True

    def contact_changes(self, problem: StepProblem) -> int:
        """Contacts that closed or opened in the step under way (trial against committed)."""
        return int(np.count_nonzero((self._trial_status != Status.OPEN)
                                    != (self.status != Status.OPEN)))

    def accept(self, problem: StepProblem) -> None:
        """Commit the forces; accumulate the work of the contact forces."""
        u1 = self.kin.values(problem.arrays[0])
        geometry = self._geometry if self._geometry is not None else self.kin.geometry(u1)
        self.lam = self._trial_lam
        self.status = self._trial_status
        du = u1 - self._u0
        f_n, f_t = _split_forces(geometry, self.lam)
        f0_n, f0_t = self._forces0_split
        self.work_normal += 0.5 * float((f0_n + f_n) @ du)
        self.work_tangential += 0.5 * float((f0_t + f_t) @ du)
        self._forces0_split = (f_n, f_t)

    def columns(self, problem: StepProblem) -> dict[str, float]:
        """The forces ``RN_<P>``, ``RX_<P>`` at the named base points, then ``GAP_MIN``,
        ``CONTACTS``, ``SLIDING``, ``CONTACT_ITERATIONS``, ``ECONTACT``, ``EFRICTION``
        (:func:`~.components.point_columns`, :func:`~.components.summary_columns`)."""
        geometry = self._geometry if self._geometry is not None else self.kin.geometry(
            self.kin.values(problem.u.x.array))
        out = point_columns("R", self.kin.named, self.lam, (geometry.normal, geometry.tangent))
        out.update(summary_columns(
            gap_min=smallest_gap(geometry.gap),
            contacts=int(np.count_nonzero(self.status != Status.OPEN)),
            sliding=int(np.count_nonzero(self.status == Status.SLIP)),
            iterations=self.iterations, absorbed=self.absorbed_energy(),
            friction=-self.work_tangential))
        return out

    # -- energy and messages ----------------------------------------------------------
    def absorbed_energy(self) -> float:
        """Energy taken from the bodies by the contact forces since the release (J)."""
        return -(self.work_normal + self.work_tangential)

    def describe(self) -> str:
        """The contacts' state, for a failure message."""
        lam = self._trial_lam.reshape(-1, 2)
        names = {i: n for n, i in self.kin.named.items()}
        closed = [f"{names.get(i, f'#{i}')} (RN {lam[i, 0]:.4g} N)"
                  for i in np.flatnonzero(lam[:, 0] > 0.0).tolist()]
        text = ", ".join(closed) if closed else "none"
        return f"active contacts: {text}; contact residual {self._last_residual:.3e} N"

    def destroy(self) -> None:
        """Free the work vectors and a drag the first step never took."""
        self._work.destroy()
        if self._drag0 is not None:
            self._drag0.destroy()
            self._drag0 = None

    # -- the release -------------------------------------------------------------------
    def release(self, problem: StepProblem) -> None:
        """Correct the initial acceleration by the reactions of the closed contacts.

        A table already accelerating takes no part: its drag's mass response is taken out of
        the initial acceleration and left to :meth:`start_shaking` (module
        :mod:`~rocking_contact.contact.release`)."""
        self._forces0_split = (np.zeros(self.kin.n_dofs), np.zeros(self.kin.n_dofs))
        u = self.kin.values(problem.u.x.array)
        geometry = self.kin.geometry(u)
        closed = self._closed(geometry)
        if not len(closed):
            return
        self._set_supports(merge(problem.prescribed, problem.t)[0])
        rows = geometry.rows(closed)
        drag = table_drag(problem)
        with mass_solver(problem) as mass:
            Z = mass.solve_columns(self._rhs_columns(geometry, rows))
            if drag is not None:
                drag.scale(-1.0)
                mass.accelerate(problem, drag)  # zeroes its prescribed rows
                drag.scale(-1.0)
                self._drag0 = drag
        Hr = geometry.H[rows]
        a = self.kin.values(problem.a.x.array)
        local = solve_active_set(self.local_problem(Hr @ self._contact_values(Z), Hr @ a,
                                                    closed),
                                 tol=self.tol, max_iterations=self.spec.local_iterations)
        self._check_release(problem, local, "the acceleration on W = H M^-1 H^T", math.nan)
        add_columns(problem.a.x.petsc_vec, Z, local.lam)
        problem.a.x.scatter_forward()
        self._set_release_forces(geometry, closed, local)

    def start_shaking(self, problem: StepProblem, stage: Stage) -> None:
        """Add the drag of a table accelerating at the release to the initial acceleration,
        as the first step (``stage``) takes it: the contacts closed at the release solve the
        Signorini-Coulomb problem again on ``W = H S H^T`` with ``S`` the step's
        :class:`~rocking_contact.contact.release.StepMobility`, from the release's forces.
        Nothing to do when the table was still at the release (or nothing was closed)."""
        drag, self._drag0 = self._drag0, None
        if drag is None:
            return
        geometry = self.kin.geometry(self.kin.values(problem.u.x.array))
        closed = self._closed(geometry)
        rows = geometry.rows(closed)
        with StepMobility(problem, stage) as step:
            Z = step.solve_columns(self._rhs_columns(geometry, rows))
            response = drag.duplicate()
            step.solve(drag, response)
        drag.destroy()
        Hr = geometry.H[rows]
        W = Hr @ self._contact_values(Z)
        a = self.kin.values(problem.a.x.array) + self.kin.values(response.array)
        start = self.lam[rows]
        # q = H a + W (lam - start): the release's forces already act in a.
        local = solve_active_set(self.local_problem(W, Hr @ a - W @ start, closed),
                                 tol=self.tol, max_iterations=self.spec.local_iterations)
        self._check_release(problem, local, "the shaking table's drag on the first step",
                            stage.h)
        problem.a.x.petsc_vec.axpy(1.0, response)
        response.destroy()
        add_columns(problem.a.x.petsc_vec, Z, local.lam - start)
        problem.a.x.scatter_forward()
        self._set_release_forces(geometry, closed, local)

    def _check_release(self, problem: StepProblem, local: LocalSolution, what: str,
                       h: float) -> None:
        """Fail the run (a :class:`~rocking_contact.solvers.driver.StepFailure` before the
        first step, of size ``h`` in s, NaN if not known yet) if the release's local solve
        (``what`` it solved) did not converge: its forces would give a wrong initial
        acceleration."""
        if local.converged:
            return
        n = local.lam.size // 2
        message = (f"the release at t = {problem.t:.9g} s: the forces of the {n} closed "
                   f"contact{'' if n == 1 else 's'} ({what}) did not converge: max "
                   f"|Phi| = {local.residual:.3e} N after {local.iterations} iterations "
                   f"(tolerance {self.tol:.3e} N; contact.local_iterations = "
                   f"{self.spec.local_iterations})")
        raise StepFailure.at_release(message, t=problem.t, h=h, residual=local.residual,
                                     reason="release not converged")

    def _closed(self, geometry: ContactGeometry) -> np.ndarray:
        """The contacts closed at the release: paired, gap within ``contact.closed_gap``."""
        return np.flatnonzero(geometry.paired & (np.abs(geometry.gap) <= self.spec.closed_gap))

    def _set_release_forces(self, geometry: ContactGeometry, closed: np.ndarray,
                            local: LocalSolution) -> None:
        """The forces and states of the closed contacts at the release, committed. Their
        states follow :meth:`_status` over no motion: nothing slides at the release (the
        acceleration-level set ``local.status`` marks a contact on the cone as slipping,
        every pressed one with mu = 0)."""
        self.lam[geometry.rows(closed)] = local.lam
        self._trial_lam = self.lam.copy()
        self.status[closed] = self._status(local.lam, np.zeros_like(local.lam))
        self._trial_status = self.status.copy()
        self._forces0_split = _split_forces(geometry, self.lam)

    # -- helpers -----------------------------------------------------------------------
    def _start_forces(self, w0: float) -> np.ndarray | None:
        """``w0 H(u_n)^T lambda(t_n)`` on the contact dofs, the start forces' share of the step
        equation (N); None when the scheme does not weight them (w0 = 0)."""
        if w0 == 0.0:
            return None
        forces = w0 * (self._forces0_split[0] + self._forces0_split[1])
        self._zero_prescribed_forces(forces)
        return forces

    def _relative(self, geometry: ContactGeometry, u1: np.ndarray) -> np.ndarray:
        """``q``: the gap and the slip over the step of each contact (m)."""
        q = geometry.H @ (u1 - self._u0)
        q[0::2] = np.where(geometry.paired, geometry.gap, np.inf)
        return q

    def _candidates(self, geometry: ContactGeometry, lam: np.ndarray) -> np.ndarray:
        """The contacts of a Newton iteration: paired with a gap (m) within
        ``contact.search_distance``, or pressed by ``lam`` (N, ``lambda_N > 0``)."""
        near = geometry.paired & (geometry.gap <= self.spec.search_distance)
        return (near | (lam[0::2] > 0.0)).nonzero()[0]  # flatnonzero, without its wrappers

    def _complementarity(self, lam: np.ndarray, q: np.ndarray, contacts: np.ndarray,
                         rows: np.ndarray) -> float:
        """``max |Phi|`` (N) on the candidate contacts (``rows``: theirs in H), with the
        forces ``lam``."""
        if not len(contacts):
            return 0.0
        # Gaps and slips are measured in force units with tol / gap_tolerance (N/m): Phi
        # below tol means forces within tol and gaps within gap_tolerance.
        stiffness = self.tol / self.spec.gap_tolerance
        rho = np.full((len(contacts), 2), stiffness)
        phi, _ = alart_curnier(lam[rows], q[rows], np.full(len(contacts), self.spec.mu), rho)
        return float(np.abs(phi).max())

    def _status(self, lam: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Open, sticking or slipping, from the forces and the slip over the step."""
        lam2 = lam.reshape(-1, 2)
        closed = lam2[:, 0] > 0.0
        slip = sliding(lam2[:, 0], lam2[:, 1], self.spec.mu, q[1::2])
        return np.where(closed, np.where(slip, Status.SLIP, Status.STICK),
                        Status.OPEN).astype(np.int64)

    def _set_supports(self, dofs: np.ndarray) -> None:
        """The prescribed dofs (local): owned ones, and which contact dofs are prescribed.

        This rank's part is kept while the problem hands the same array (its supports
        merged once per phase when none moves). On several ranks the reduction runs at
        every call on every rank: whether the array is the same one is this rank's own
        knowledge, and a collective decided on it would hang the ranks that decide
        otherwise. One rank's sum is its own part: nothing to do while the array stays."""
        same = dofs is self._supports_of
        if not same:
            self._supports_of = dofs
            self._prescribed_owned = dofs[dofs < self.body.n_owned]
            owned = self.kin.local_dofs >= 0
            self._prescribed_mine = np.zeros(self.kin.n_dofs)
            self._prescribed_mine[owned] = np.isin(self.kin.local_dofs[owned],
                                                   self._prescribed_owned)
        if self.comm.size == 1:
            if not same:
                self._blocked = np.flatnonzero(self._prescribed_mine > 0)
            return
        total = np.empty_like(self._prescribed_mine)
        self.comm.Allreduce(self._prescribed_mine, total, op=MPI.SUM)
        self._blocked = np.flatnonzero(total > 0)

    def _zero_prescribed_forces(self, forces: np.ndarray) -> None:
        """Supports take the contact force on prescribed dofs (their rows stay x - xbar)."""
        if len(self._blocked):  # none prescribed: no indexing
            forces[self._blocked] = 0.0

    def _rhs_columns(self, geometry: ContactGeometry, rows: np.ndarray) -> np.ndarray:
        """``H^T e_row`` for each row on the owned dofs, the forces on prescribed dofs
        dropped; shape (owned dofs, rows)."""
        rhs = np.zeros((self.body.n_owned, len(rows)))
        forces = geometry.H[rows].T  # a copy (rows is an index array)
        self._zero_prescribed_forces(forces)
        self.kin.add_forces(forces, rhs)
        return rhs

    def _contact_values(self, Z: np.ndarray) -> np.ndarray:
        """The columns of ``Z`` (owned dofs) at the contact dofs, shape (contact dofs, cols)."""
        if not Z.shape[1]:
            return np.zeros((self.kin.n_dofs, 0))
        return self.kin.column_values(Z)

    def _delassus_columns(self, problem: StepProblem, solver: NewtonSolver,
                          geometry: ContactGeometry, rows: np.ndarray
                          ) -> tuple[np.ndarray, np.ndarray]:
        """``Z = J^-1 H^T`` for the given rows of H (owned dofs x rows, one
        multi-right-hand-side solve), and its values at the contact dofs.

        For a linear problem the columns are cached while the step size and H are the
        same (the factorisation is the same).
        """
        if problem.linear:
            stage = problem.stage
            assert stage is not None
            key = (stage.mass_coefficient, stage.stiffness_coefficient,
                   stage.damping_coefficient, geometry.H.tobytes(),
                   self._prescribed_owned.tobytes())
            if key != self._cache_key:
                self._cache, self._cache_key = {}, key
            missing = [row for row in rows if row not in self._cache]
            if missing:
                Z = solver.solve_columns(self._rhs_columns(geometry, np.array(missing)))
                for row, z, v in zip(missing, Z.T, self._contact_values(Z).T, strict=True):
                    self._cache[row] = (z, v)
            Z = np.zeros((self.body.n_owned, len(rows)))
            Zc = np.zeros((self.kin.n_dofs, len(rows)))
            for j, row in enumerate(rows):
                Z[:, j], Zc[:, j] = self._cache[row]
            return Z, Zc
        Z = solver.solve_columns(self._rhs_columns(geometry, rows))
        return Z, self._contact_values(Z)


def _split_forces(geometry: ContactGeometry, lam: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``H^T lambda`` split into the normal and the tangential forces' parts (N, on the
    contact dofs), ``lam`` the forces (N, T) of every contact."""
    lam_n, lam_t = lam.copy(), lam.copy()
    lam_n[1::2] = 0.0
    lam_t[0::2] = 0.0
    return geometry.H.T @ lam_n, geometry.H.T @ lam_t


def add_columns(y: PETSc.Vec, Z: np.ndarray, coefficients: np.ndarray,
                column: PETSc.Vec | None = None) -> None:
    """``y += Z @ coefficients`` on the owned entries, column by column with PETSc's axpy
    (the order and rounding of one solve per column: the runs do not depend on it).
    ``column``: a work vector of ``y``'s layout, which a caller adding columns at every
    iteration keeps; None: made and destroyed here."""
    work = column
    for z, c in zip(Z.T, coefficients, strict=True):
        if c != 0.0:
            if work is None:
                work = y.duplicate()
            work.setArray(z)
            y.axpy(c, work)
    if column is None and work is not None:
        work.destroy()
