"""The ``theta`` contact treatment: Moreau-Jean contact stepping on the elastic bodies.

A :class:`~rocking_contact.solvers.step.Corrector` of the step problem (the seam of
:mod:`rocking_contact.solvers.step`). With the theta-scheme the unknown of a step is the
end velocity ``x = v_{n+1}`` and its residual is a force,

    R(x) = M (x - v_n) / h + theta g(u_{n+1}(x), x) + (1 - theta) g_n,

so the contact impulses ``P`` (N.s) over the step enter it as ``R(x) - H^T P / h = 0``:
``M (v_{n+1} - v_n) = -h [theta g_{n+1} + (1 - theta) g_n] + H^T P``, the equation of
Moreau (1988) and Jean (1999).

One step (after the driver's SNES has converged the free step, ``R(x_free) = 0``):

1. index set: the gaps at the predicted configuration ``u_m = u_n + h (1 - theta) v_n``
   decide which contacts are active (:func:`~rocking_contact.contact.index_set.active_contacts`:
   predicted gap below ``contact.closed_gap``, or pressed at the previous step); the relation
   ``U = H v`` (normal and tangential relative velocities, slave minus master) is frozen at
   ``u_m`` for the step;
2. condensation with the factorised step Jacobian ``J = dR/dx``: the columns
   ``Y = J^-1 H^T`` (one multi-right-hand-side solve for every active row), the Delassus
   operator ``W = H Y / h`` (1/kg), the free relative velocity ``q = H x_free``;
3. the local problem ``U = W P + q`` with Signorini-Moreau (Newton restitution ``e``) and
   Coulomb on the velocities, solved exactly
   (:func:`~rocking_contact.contact.friction_contact.solve`: semismooth Newton on the
   Alart-Curnier function, Gauss-Seidel fallback); ``x = x_free + Y P / h``;
4. large rotation (nonlinear internal forces): Newton on the coupled step. At the new
   ``x`` the residual ``r = R(x) - H^T P / h`` is evaluated; unless it is within the
   tolerance (or the last change of the end displacement is at round-off), the Jacobian
   is rebuilt at ``x``, ``x_free = x - J^-1 R(x)`` (the linearised free velocity) and
   steps 2-3 are repeated with the new Delassus operator. Each pass solves the local
   problem exactly, so the iteration is a generalised Newton on the coupled (smooth +
   nonsmooth) equations; 2-3 passes per step. For small strain one pass is exact;
5. position projection: the velocity-level law leaves the penetration of the step before
   a contact became active (up to ``h |U_N|``); the end gaps of the active contacts are
   closed by a rigid motion of the slave body, velocities untouched
   (:mod:`~rocking_contact.contact.projection`).

A step whose coupled iteration does not converge is rejected (the driver halves it).

Outputs (history columns, the same on every rank), at each recorded point P of the base
that carries a contact (O, A, O1): ``PN_P`` (N.s), the normal impulse over the step,
positive in compression; ``PX_P`` (N.s), the horizontal impulse the block exerts on the
table; ``RN_P = PN_P / h`` and ``RX_P = PX_P / h`` (N), the mean forces over the step
(``RX_O`` is negative while the block rocks on O). With a row every N steps
(``output.every``) they are the impulses since the previous row and the mean forces over
that interval: no impact is lost between rows. ``PN_BASE``, ``RN_BASE``: the same
summed over the whole base. The first row (the released state, before any step) has no
impulse and no interval; after a preload its forces are those the preload's supports
carry at the closed contacts, the static equilibrium the block is released from
(:meth:`MoreauJeanContact.release`: ``RN_O`` = M g = 4096.7 N for SDNV105).
``CONTACTS``, ``SLIDING``: pressed contacts, and those of them on the Coulomb cone that
move (:func:`~rocking_contact.contact.components.sliding`: a slip ``h |U_T|`` at the step's
end velocity above 1e-14 m, as A and C's slip over the step);
``CONTACT_ITERATIONS``: coupled passes of the step; ``ECONTACT`` (J): energy taken from
the bodies by the impulses and the projection since the release (``EFRICTION``: by the
tangential impulses; ``EPROJECTION``: given by the projection), the term of the run's
energy balance (:mod:`rocking_contact.fem.energy_balance`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import scipy.sparse as sp
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
from rocking_contact.contact.friction_contact import (
    FrictionContactProblem,
    NewtonImpactFrictionLaw,
    solve,
)
from rocking_contact.contact.index_set import ImpulseMemory, active_contacts
from rocking_contact.contact.kinematics import (
    ContactGeometry,
    ContactKinematics,
    OwnedDofsRelation,
    without_columns,
)
from rocking_contact.contact.projection import RigidModes, rigid_lift
from rocking_contact.contact.spec import ContactSpec
from rocking_contact.contact.workspace import WorkVectors
from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.probes import energies
from rocking_contact.geometry.layout import BLOCK
from rocking_contact.solvers.newton import NewtonSolver
from rocking_contact.solvers.step import Corrector, StepProblem, combine


class ContactRelation(Protocol):
    """What the Moreau-Jean treatment needs from the contact kinematics.

    Every method is collective; returned arrays are the same on every rank.
    """

    @property
    def keys(self) -> Sequence[Hashable]:
        """Identity of every candidate contact (e.g. the slave node's global index)."""

    def geometry(self, u: np.ndarray) -> ContactGeometry:
        """Contacts at the displacement ``u`` (local array, owned and ghost), per contact:
        ``gap`` (m, positive open), ``normal`` and ``tangent`` (unit vectors, one row of two
        a contact), the normal out of the table (master) towards the block, the tangent
        along +x on a flat table."""

    def gaps(self, u: np.ndarray) -> np.ndarray:
        """The ``gap`` of :meth:`geometry` alone (m)."""

    def operator(self, u: np.ndarray, geometry: ContactGeometry | None = None,
                 rows: np.ndarray | None = None) -> sp.csr_matrix:
        """H at ``u``: rows ``[N_0, T_0, N_1, ...]`` over the owned dofs of this rank;
        ``geometry``, if given, is :meth:`geometry` at ``u`` already computed; ``rows``,
        if given, the rows to keep (in their order).

        ``U = allreduce(H @ v_owned)``: normal (along the master's outward normal) and
        tangential relative velocities of slave minus master (m/s).
        """

    def contact_at(self, point: str) -> int | None:
        """Index of the contact whose slave node is the named point, None if none."""


def _set_by_case(spec: ContactSpec) -> dict[str, Any]:
    """The :class:`MoreauJeanOptions` a ``[contact]`` section sets, by name (the one map of
    case keys to options: :func:`options_of` and the options' defaults)."""
    return {"law": NewtonImpactFrictionLaw(spec.restitution, spec.mu),
            "activation_gap": spec.closed_gap, "rtol": spec.tolerance,
            "stol": spec.step_tolerance, "max_iterations": spec.max_iterations,
            "local_iterations": spec.local_iterations}


#: the options of a case file that does not give the keys (its schema's defaults): those
#: of ``MoreauJeanOptions()``, so that the two cannot drift apart
_CASE_DEFAULTS = _set_by_case(ContactSpec())


@dataclass(frozen=True)
class MoreauJeanOptions:
    """Settings of the theta treatment.

    Every option but ``atol`` and ``local_tolerance`` is set by a key of ``[contact]``
    (:func:`options_of`), named below, and defaults to that key's default (the schema's,
    :class:`~rocking_contact.contact.spec.ContactSpec`): ``MoreauJeanOptions()`` is what a
    case file without those keys runs with. ``atol`` and ``local_tolerance`` are fixed: no
    case key sets them.

    Attributes:
        law: restitution and friction of every contact (``contact.restitution``,
            ``contact.mu``).
        activation_gap: a contact is active when its predicted gap is below this (m;
            ``contact.closed_gap``).
        rtol: coupled-step residual ``|R(x) - H^T P / h|`` relative to the weight
            vector under 9.81 m/s^2, SDNV105's gravity (N/N, :attr:`ElasticBody.force_scale`,
            ``FORCE_SCALE_GRAVITY``; ``contact.tolerance``).
        atol: absolute floor of that residual (N; fixed at 1e-8 N).
        stol: or the last Newton change of the end displacement relative to it (max norms,
            no unit; ``contact.step_tolerance``).
        max_iterations: coupled Newton passes per step (``contact.max_iterations``).
        local_iterations: semismooth Newton iterations of the local solver, and of the
            position projection's (``contact.local_iterations``).
        local_tolerance: tolerance of the local solver on the law's residual, relative to
            the impulses' scale (N.s/N.s, no unit; fixed at 1e-12), and of the position
            projection's.

    """

    law: NewtonImpactFrictionLaw = _CASE_DEFAULTS["law"]
    activation_gap: float = _CASE_DEFAULTS["activation_gap"]
    rtol: float = _CASE_DEFAULTS["rtol"]
    atol: float = 1e-8
    stol: float = _CASE_DEFAULTS["stol"]
    max_iterations: int = _CASE_DEFAULTS["max_iterations"]
    local_iterations: int = _CASE_DEFAULTS["local_iterations"]
    local_tolerance: float = 1e-12


class MoreauJeanContact(Corrector):
    """Moreau-Jean contact on the step problem (see the module docstring).

    Args:
        relation: the contact kinematics (gaps, frames and H of the candidate contacts).
        options: law and tolerances.
        points: named points whose contact impulses and forces are recorded.
        rigid: rigid motions of the slave body for the position projection (None: no
            projection; the penetration of the landing steps then stays).
        preloaded: the bodies start in the static equilibrium of a preload: the first
            history row reports its reactions at the closed contacts (:meth:`release`);
            otherwise (an undeformed start is no equilibrium) zero forces.

    Attributes:
        impulses: impulses of every contact at the last accepted step (2m, N.s).
        iterations: coupled passes of the last step; ``counters`` count over the run
            (:class:`~.counters.SolveCounters`).
        work_normal, work_tangential: work of the impulses on the bodies since the
            release (J), ``sum P . (U_n + U_{n+1}) / 2`` (the kinetic-energy theorem of a
            step with a constant H), normal and tangential parts.
        work_projection: energy given to the bodies by the position projection (J).
        start_forces: ``(lambda_N, lambda_T)`` of every contact at the release (2m, N), the
            preload's reactions, shown by the first history row; None once a step is
            accepted (or without a preload).

    """

    #: what the messages call it (a step it rejects: :mod:`rocking_contact.solvers.driver`)
    label = "the contact treatment 'theta'"

    def __init__(self, relation: ContactRelation, options: MoreauJeanOptions,
                 points: Sequence[str] = ("O", "A"), rigid: RigidModes | None = None, *,
                 preloaded: bool = False):
        self.relation = relation
        self.rigid = rigid
        self.preloaded = preloaded
        self.start_forces: np.ndarray | None = None
        self._start_frames = (np.zeros((0, 2)), np.zeros((0, 2)))
        self.options = options
        self.memory = ImpulseMemory()
        found = {p: relation.contact_at(p) for p in points}
        self.points = {p: c for p, c in found.items() if c is not None}
        self.keys = list(relation.keys)
        self.impulses = np.zeros(2 * len(self.keys))
        # per contact, the tangential slip of the last step at its end velocity (m)
        self._slips = np.zeros(len(self.keys))
        self.h = math.nan
        # impulse columns summed since the last history row, and the time they cover (s)
        self._since_row: dict[str, float] = {}
        self._since_row_time = 0.0
        self.iterations = 0
        self.counters = SolveCounters()
        self.work_normal = 0.0
        self.work_tangential = 0.0
        self.work_projection = 0.0
        self._active = np.zeros(0, dtype=np.int64)
        self._H: sp.csr_matrix | None = None
        self._HT: np.ndarray | None = None  # dense H^T on the owned dofs, built once a step
        self._H_rows = np.zeros(0, dtype=np.int64)  # the row of each stored entry of H
        self._P = np.zeros(0)
        self._U_before = np.zeros(0)
        self._frames = (np.zeros((0, 2)), np.zeros((0, 2)))
        self._predicted_gaps = np.zeros(0)
        self._lift = np.zeros(0)
        self._residual = "none"  # the last residual of the step, with its unit: failures
        # residual, Newton correction, free velocity of correct(): their ghosts are updated
        # before they are read
        self._work = WorkVectors(3)

    # -- the release ---------------------------------------------------------------------
    def release(self, problem: StepProblem) -> None:
        """The contact forces of the first history row: the preload's reactions.

        The impulse of a step has no value before the first step (``P / h`` over no
        interval). The block is released from the static equilibrium of the preload, where
        supports hold it: the force each closed contact (gap below ``activation_gap``)
        takes over is the reaction of those supports at its slave node, the static residual
        ``g(u_0, 0) = f_int(u_0) - f_ext`` there, in the contact's frame:
        ``lambda_N = n . g``, ``lambda_T = t . g`` (SDNV105: M g = 4096.7 N at O, the force
        B's springs start with; the step impulses then give the release transient, 3693 N
        over the first step). The slave body's part of ``H^T`` picks the slave nodes' values
        (the table's own supports take none). A and C report the reaction at the
        acceleration level at t = 0 (4096.53 N at O: the same weight, less the instant
        effect of removing the preload's pull), which this velocity-level law never
        computes.

        Nothing of the run depends on it: the state, the warm starts and the index set of
        the first step are left as they are.
        """
        self.start_forces = None
        if not self.preloaded:
            return
        body, u = problem.body, problem.u.x.array
        geometry = self.relation.geometry(u)
        closed = np.flatnonzero(geometry.gap <= self.options.activation_gap)
        forces = np.zeros(2 * len(self.keys))
        if len(closed):
            g = body.vector()
            body.set_point(u, None)
            body.force(g)  # without the table's drag: the preload's equilibrium
            slave = body.block_mesh.dofs(body.V, BLOCK)
            slave = slave[slave < body.n_owned]
            on_slave = np.zeros(body.n_owned)
            on_slave[slave] = g.array_r[slave]
            g.destroy()
            H = self.relation.operator(u, geometry)
            reactions = problem.comm.allreduce(H @ on_slave, op=MPI.SUM)
            rows = normal_tangential_rows(closed)
            forces[rows] = reactions[rows]
        self.start_forces = forces
        self._start_frames = (geometry.normal, geometry.tangent)

    # -- Corrector protocol ---------------------------------------------------------------
    def begin_step(self, problem: StepProblem) -> None:
        """Index set and relation at the predicted configuration. The step problem calls it
        in dynamic steps only, which a theta case takes with the theta scheme (a velocity
        unknown: ``contact.spec.check_scheme_for_contact``)."""
        stage = problem.stage
        assert stage is not None
        if stage.unknown != "velocity":
            raise RuntimeError("the theta contact treatment needs a velocity-level scheme "
                               f"(the theta scheme); this step's unknown is a {stage.unknown}")
        self.iterations = 0
        self._residual = "none"
        self._lift = np.zeros(0)  # a converged attempt's, if the driver discarded it
        self.h = stage.h
        # u_{n+1} = h theta x + [u_n + h (1 - theta) v_n]: the bracket is u_m
        u_m = combine(stage.u, None, problem.u.x.array, problem.v.x.array, problem.a.x.array,
                      np.empty_like(problem.u.x.array))
        geometry = self.relation.geometry(u_m)
        self._frames = (geometry.normal, geometry.tangent)
        self._predicted_gaps = geometry.gap
        self._active = active_contacts(geometry.gap, self.options.activation_gap,
                                       self.memory.pressed(self.keys))
        self._P = np.zeros(2 * len(self._active))
        if not len(self._active):
            self._H = None
            return
        rows = normal_tangential_rows(self._active)
        H = self.relation.operator(u_m, geometry, rows)
        # Prescribed dofs (table supports) take no impulse: their velocity is given and
        # their rows of J are identity rows, so J^-1 must not see them.
        prescribed = problem.prescribed_dofs
        prescribed = prescribed[prescribed < problem.body.n_owned]
        if len(prescribed):
            H = without_columns(H, prescribed)
        self._H, self._HT = H, None
        self._H_rows = np.repeat(np.arange(H.shape[0]), np.diff(H.indptr))
        self._U_before = self._apply(problem, problem.v.x.array)

    def correct(self, problem: StepProblem, solver: NewtonSolver, x: PETSc.Vec) -> bool:
        """The coupled Newton passes of the step; False if they do not converge."""
        if self._H is None:
            return True
        opts, h = self.options, self.h
        keys = [self.keys[c] for c in self._active]
        tolerance = max(opts.atol, opts.rtol * problem.body.force_scale)
        residual, work, x_free = self._work.get(problem)
        x.copy(x_free)  # the SNES solution: R(x_free) = 0
        P = self.memory.guess(keys)
        converged = False
        for it in range(1, opts.max_iterations + 1):
            self.iterations = it
            Y = self._columns(solver)
            local = solve(FrictionContactProblem.shifted(
                self._apply_columns(problem, Y) / h, self._apply(problem, x_free.array_r),
                opts.law, self._U_before[0::2]), P, tol=opts.local_tolerance,
                max_iterations=opts.local_iterations)
            self.counters.local += local.iterations
            self._residual = (f"local law residual {local.residual:.3e} N.s after "
                              f"{local.iterations} iterations (pass {it})")
            if not local.converged:
                break
            P = local.P
            previous = x.array_r.copy()
            x.array[:] = x_free.array_r + Y @ P / h
            x.ghostUpdate(addv=PETSc.InsertMode.INSERT, mode=PETSc.ScatterMode.FORWARD)
            if problem.linear:  # R affine and J exact: the pass is exact
                converged = True
                break
            problem.residual(None, x, residual)  # R(x), contact excluded
            contact_force = self._transpose_apply(P) / h
            residual.array[:] -= contact_force
            change = float(np.abs(previous - x.array_r).max(initial=0.0))
            if problem.comm.size > 1:  # no pickled reduction (8 us a pass) of one value
                change = problem.comm.allreduce(change, op=MPI.MAX)
            norm = residual.norm()
            self._residual = (f"coupled residual {norm:.3e} N at pass {it} (tolerance "
                              f"{tolerance:.3e} N)")
            if norm <= tolerance or problem.settled(x, change, self.options.stol):
                converged = True
                break
            # Newton at x: rebuild J, then the linearised free velocity x - J^-1 R(x)
            problem.jacobian(None, x, problem.J, problem.J)
            residual.array[:] += contact_force
            solver.solve_linear(residual, work)
            x_free.array[:] = x.array_r - work.array_r
            x_free.ghostUpdate(addv=PETSc.InsertMode.INSERT, mode=PETSc.ScatterMode.FORWARD)
        self.counters.end_step(self.iterations)
        if converged:
            self._P = P
            lift = self._projection(problem, x) if self.rigid is not None else np.zeros(0)
            converged = lift is not None  # an unsolved lift fails the step (retried smaller)
            self._lift = lift if lift is not None else np.zeros(0)
        return converged

    def _projection(self, problem: StepProblem, x: PETSc.Vec) -> np.ndarray | None:
        """The position projection of the step (:func:`~.projection.rigid_lift`): a rigid
        displacement of the slave body that lifts the active contacts out of the table at
        the end displacement of ``x``, the velocity unchanged.

        Returns:
            ``du`` on the owned dofs; empty when nothing penetrates; None when no rigid
            motion opens the active contacts.

        """
        stage = problem.stage
        assert stage is not None and self._H is not None and self.rigid is not None
        end_gaps = self._predicted_gaps[self._active] + stage.u.x * self._apply(
            problem, x.array_r)[0::2]
        if not np.any(end_gaps < 0.0):
            return np.zeros(0)
        R, mass = self.rigid.basis(problem.end_values(x)[0])
        a, iterations = rigid_lift(end_gaps, self._apply_columns(problem, R), mass,
                                   tol=self.options.local_tolerance,
                                   max_iterations=self.options.local_iterations)
        self.counters.local += iterations
        if a is None:
            self._residual = ("position projection: no rigid motion of the slave body "
                              f"opens the active contacts (end gap {end_gaps.min():.3e} m)")
            return None
        du: np.ndarray = R @ a
        return du

    def accept(self, problem: StepProblem) -> None:
        """Keep the impulses of the step (warm start, persistent contacts) and their work."""
        self.start_forces = None  # the first row's forces: a step has its own now
        keys = [self.keys[c] for c in self._active]
        self.memory.store(keys, self._P)
        if len(self._lift):
            # The lift changes the stored energies (gravity, strain) without any force
            # working: it is energy given by the contact treatment, counted as such.
            before = energies(problem.body, problem.u.x.array, problem.v.x.array)["ETOT"]
            problem.u.x.array[:problem.body.n_owned] += self._lift
            problem.u.x.scatter_forward()
            after = energies(problem.body, problem.u.x.array, problem.v.x.array)["ETOT"]
            self.work_projection += after - before
            self._lift = np.zeros(0)
        self.impulses[:] = 0.0
        self._slips[:] = 0.0
        if self._H is not None:
            rows = normal_tangential_rows(self._active)
            self.impulses[rows] = self._P
        for name, value in self._step_impulses().items():
            self._since_row[name] = self._since_row.get(name, 0.0) + value
        self._since_row_time += self.h
        if self._H is None:
            return
        U_end = self._apply(problem, problem.v.x.array)
        # the law's slip: Coulomb holds on the end velocity, U_T = 0 sticking
        self._slips[self._active] = self.h * U_end[1::2]
        mean = 0.5 * (self._U_before + U_end)
        work = self._P * mean
        self.work_normal += float(np.sum(work[0::2]))
        self.work_tangential += float(np.sum(work[1::2]))

    def _step_impulses(self) -> dict[str, float]:
        """The impulse columns of the last step (N.s): normal and horizontal at the
        recorded points, normal over the base."""
        return self._resolved("P", self.impulses, self._frames)

    def _resolved(self, kind: str, values: np.ndarray,
                  frames: tuple[np.ndarray, np.ndarray]) -> dict[str, float]:
        """Columns ``<kind>N_<P>``, ``<kind>X_<P>`` at the recorded points and
        ``<kind>N_BASE`` of per-contact values on the block (``[N_0, T_0, N_1, ...]``,
        impulses or forces): normal, compression positive, and horizontal on the table."""
        # no frames before the first step, where every value is zero
        out = point_columns(kind, self.points, values, frames if len(frames[0]) else None)
        # the whole base: on a fine mesh a corner's percussion spreads over several nodes
        out[f"{kind}N_BASE"] = float(np.sum(values[0::2]))
        return out

    def columns(self, problem: StepProblem) -> dict[str, float]:
        """Impulses since the previous row and their mean forces at the recorded points,
        the smallest gap ``GAP_MIN`` (m), counters, absorbed energy. A row ends the
        interval: the next one starts from zero. The row before the first step holds no
        impulse, and the preload's reactions as its forces (:meth:`release`; zero without a
        preload)."""
        out: dict[str, float] = {}
        elapsed = self._since_row_time
        impulses = {name: self._since_row.get(name, 0.0) for name in self._step_impulses()}
        for point in self.points:
            pn, px = impulses[f"PN_{point}"], impulses[f"PX_{point}"]
            out[f"PN_{point}"], out[f"PX_{point}"] = pn, px
            out[f"RN_{point}"], out[f"RX_{point}"] = ((pn / elapsed, px / elapsed)
                                                      if elapsed > 0.0 else (0.0, 0.0))
        out["PN_BASE"] = impulses["PN_BASE"]
        out["RN_BASE"] = out["PN_BASE"] / elapsed if elapsed > 0.0 else 0.0
        self._since_row, self._since_row_time = {}, 0.0
        pressed = self.impulses[0::2] > 0.0
        slide = sliding(self.impulses[0::2], self.impulses[1::2], self.options.law.friction,
                        self._slips)
        if self.start_forces is not None:  # the released state, at rest: nothing slides
            out.update(self._resolved("R", self.start_forces, self._start_frames))
            pressed, slide = self.start_forces[0::2] > 0.0, np.zeros(0, dtype=bool)
        out.update(summary_columns(
            gap_min=smallest_gap(self.relation.gaps(problem.u.x.array)),
            contacts=int(np.count_nonzero(pressed)), sliding=int(np.count_nonzero(slide)),
            iterations=self.iterations, absorbed=self.absorbed_energy(),
            friction=-self.work_tangential))
        out["EPROJECTION"] = self.work_projection
        return out

    # -- energy and messages ----------------------------------------------------------
    def absorbed_energy(self) -> float:
        """Energy taken from the bodies by the contact impulses since the release (J)."""
        return -(self.work_normal + self.work_tangential + self.work_projection)

    def describe(self) -> str:
        """The active contacts of the last step attempt, for a failure message."""
        names = {c: p for p, c in self.points.items()}
        active = [names.get(int(c), f"#{int(c)}") for c in self._active]
        return (f"active contacts (predicted gap closed): {', '.join(active) or 'none'}; "
                f"{self._residual}")

    def destroy(self) -> None:
        """Free the work vectors."""
        self._work.destroy()

    # -- helpers --------------------------------------------------------------------------
    def _apply(self, problem: StepProblem, local: np.ndarray) -> np.ndarray:
        """``H @ v`` for a local array (owned part used), reduced over the ranks."""
        assert self._H is not None
        return _sum_over_ranks(problem.comm, self._H @ local[:problem.body.n_owned])

    def _transpose_apply(self, p: np.ndarray) -> np.ndarray:
        """``H^T p`` on the owned dofs (:func:`transpose_times`)."""
        assert self._H is not None
        return transpose_times(self._H, self._H_rows, p)

    def _apply_columns(self, problem: StepProblem, Y: np.ndarray) -> np.ndarray:
        """``H @ Y`` (rows x columns), reduced over the ranks."""
        assert self._H is not None
        return _sum_over_ranks(problem.comm, np.asarray(self._H @ Y))

    def _columns(self, solver: NewtonSolver) -> np.ndarray:
        """``Y = J^-1 H^T`` on the owned dofs, one multi-right-hand-side solve."""
        assert self._H is not None
        if self._HT is None:  # H is fixed over the step's passes
            self._HT = dense_transpose(self._H, self._H_rows)
        Y: np.ndarray = solver.solve_columns(self._HT)
        return Y


def transpose_times(H: sp.csr_matrix, rows: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``H^T p`` with the sums of scipy's ``H.T @ p``, bit for bit: its ``csc_matvec`` adds
    each stored entry's product into its column's sum, from 0.0, in H's storage order,
    which ``np.add.at`` keeps. ``rows``: the row of each stored entry of H; ``p``: one
    value per row (the theta treatment's impulses, N.s, giving N.s on the dofs). Building the
    transpose (scipy's checks of a new matrix) cost 24 us a step with its product, against
    2 us a product here.
    """
    out = np.zeros(H.shape[1])
    np.add.at(out, H.indices, H.data * p[rows])
    return out


def dense_transpose(H: sp.csr_matrix, rows: np.ndarray) -> np.ndarray:
    """``H^T`` as a dense array, the array of scipy's ``H.T.toarray()`` bit for bit: its
    ``csc_todense`` adds each stored entry into a zero array in storage order (repeated
    entries summed so), which ``np.add.at`` keeps. ``rows``: the row of each stored entry
    of H; H's entries have no unit (relative velocity per dof velocity). Without the
    transpose's construction (scipy's checks of a new matrix), once a step."""
    out = np.zeros((H.shape[1], H.shape[0]))
    np.add.at(out, (H.indices, rows), H.data)
    return out


def _sum_over_ranks(comm: Any, part: np.ndarray) -> np.ndarray:
    """The sum of ``part`` over the ranks; ``part`` itself on one rank (the reduction of one
    term is that term: skipping it changes no bit)."""
    if comm.size == 1:
        return part
    total: np.ndarray = comm.allreduce(part, op=MPI.SUM)
    return total


def options_of(spec: ContactSpec) -> MoreauJeanOptions:
    """The theta treatment's settings from a ``[contact]`` section (the keys each option
    is set by: :class:`MoreauJeanOptions`)."""
    return MoreauJeanOptions(**_set_by_case(spec))


def build(case: Any, body: ElasticBody, kinematics: ContactKinematics) -> MoreauJeanContact:
    """The ``theta`` treatment of a block case (:mod:`~.model` makes it a run's
    :class:`~.model.ContactModel`)."""
    relation = OwnedDofsRelation(kinematics, body.n_owned)
    return MoreauJeanContact(relation, options_of(case.contact), case.output.points,
                             RigidModes(body, BLOCK), preloaded=case.initial.state == "preload")
