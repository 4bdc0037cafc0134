"""The equation of one time step, and the seam where contact treatments plug in.

For a step ``t_n -> t_n + h`` with the :class:`~rocking_contact.time.stage.Stage` of a
scheme, the unknown ``x`` (end displacement, or end velocity for the theta-method) solves

    R(x) = M a*(x) + w1 g(u1(x), v1(x)) + w0 g(u_n, v_n) + sum_c r_c(x) = 0      (N)

with ``g`` the body's force (:mod:`rocking_contact.fem.body`) and ``r_c`` the residuals of
the contributions (contact). Rows of prescribed dofs read ``x_i - xbar_i`` where ``xbar`` is
the unknown that gives the prescribed displacement. The Jacobian is

    J = a*.x M + w1 u1.x dg/du + w1 v1.x dg/dv + sum_c dr_c/dx,

with the prescribed rows replaced by identity rows (columns are kept: the matrix is
unsymmetric but no lifting is needed, and LU does not mind).

For a linear problem (small strain, no nonlinear contribution) ``J`` is a combination of the
constant M, K and C: it is rebuilt only when the stage coefficients change (new step size or
scheme), and otherwise left untouched so that PETSc reuses its factorisation.

Contact seam
------------
A contact treatment plugs in in one of two ways, both given to :class:`StepProblem`:

1. :class:`Contribution`: residual and Jacobian terms added around the elastic ones, solved
   by the SNES with the rest (the penalised shock springs). Called at each Newton
   iteration with the current unknown; ``begin_step`` sees the start state and the stage
   (predicted gaps, active set), ``accept`` the end state. A contribution whose terms are
   affine in ``x`` with a Jacobian that changes only with the stage may say
   ``linear = True`` (the problem then stays on the one-solve path).
2. :class:`Corrector`: a condensed local problem solved after the free step (no contact),
   with the factorised Jacobian ``K_eff`` of the step: ``W = H K_eff^-1 H^T`` (Delassus)
   by a few solves with :meth:`~rocking_contact.solvers.newton.NewtonSolver.solve_linear`,
   the local contact problem in the impulses or forces ``lambda``, then
   ``x <- x + K_eff^-1 H^T lambda`` (Lagrange multipliers on a primal-dual active set, the
   augmented Lagrangian, the theta-scheme's impulses). This is the LMGC90 / Siconos way and
   suits the theta-method (Moreau-Jean), whose residual is a force: an impulse ``P`` over the step
   enters it as ``-P / h``.

Both see the body (named groups, space), the start state ``u``, ``v``, ``a`` at ``t``, the
step's ``stage`` and end time ``t1``, and may add history columns (:meth:`columns`).

Static steps (the preload's, :attr:`StepProblem.static`): the supports hold the block, and
neither contact nor the energy balance takes part. The problem leaves every term out of
such a step (no ``begin_step``, residual, Jacobian, correction, ``accept``, ``fallback``,
``inconsistency`` or ``contact_changes``: :attr:`StepProblem.step_terms`) unless the
term's ``in_static_step`` says it takes part (the penalty springs, in the static step that
settles the block on them). A term is released once, by
:func:`rocking_contact.fem.runner.release_terms`, before the first dynamic step.

Optional hooks, declared with their no-op defaults on :class:`StepTerm`, the base of both
protocols (``settle`` and ``inconsistency`` on :class:`Contribution`): ``release`` (the
dynamic phase starts) and ``start_shaking`` (a table already accelerating as the first step
takes it), both called by :func:`rocking_contact.fem.runner.release_terms`; ``fallback`` (a
step failed at the last halving) and ``contact_changes`` (:mod:`~rocking_contact.solvers.driver`);
a contribution's ``inconsistency`` (a converged step at odds with its law) and ``settle``
(the preload's static step on springs, :func:`rocking_contact.fem.preload.settle_on_springs`);
``in_static_step`` (the term takes part in the static step being begun: above);
``destroy`` (the run is over: free the term's PETSc objects).
Every term subclasses the protocol it implements (the contact treatments, the energy
balance, the tests' springs) and inherits the no-ops it does not override, so the callers
call the hooks directly: a misspelt override is a method nobody calls, but a missing one is
the protocol's no-op, not an ``AttributeError``.

Units follow the unknown ``x`` (:attr:`Stage.unknown
<rocking_contact.time.stage.Stage.unknown>`): a displacement (m) or a velocity (m/s). The
residual is a force (N) either way, so a Jacobian ``dr/dx`` is in N/m for a displacement
unknown and N s/m for a velocity unknown, with the sign of ``+dr/dx`` (a stiffening term
adds a positive diagonal).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from dolfinx import fem
from mpi4py import MPI
from petsc4py import PETSc

from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.constraints import Prescribed, constant, merge
from rocking_contact.solvers.mass import MassSolver
from rocking_contact.solvers.newton import NewtonSolver
from rocking_contact.time.stage import ZERO, Affine, Scheme, Stage
from rocking_contact.time.static import Static


class StepTerm(Protocol):
    """What every term of the step equation has: the step's calls and the optional hooks
    (see the module docstring), the latter with their no-op defaults."""

    def begin_step(self, problem: StepProblem) -> None:
        """Called once per step attempt, before the predictor."""

    def accept(self, problem: StepProblem) -> None:
        """The step is accepted; the problem's state is the end state."""

    def columns(self, problem: StepProblem) -> dict[str, float]:
        """History values (the same on every rank), e.g. ``{"RN_O": ...}``, in the units
        and signs of ``docs/outputs.md``; their order is the columns' order in
        ``history.csv``. A contact treatment's are built by
        :func:`~rocking_contact.contact.components.point_columns` (forces in N, ``RN``
        compression positive, ``RX`` the block's on the table) and
        :func:`~rocking_contact.contact.components.summary_columns` (gap, counts, energies
        in J), which state that contract."""

    # -- optional hooks (see the module docstring) --------------------------------------
    def release(self, problem: StepProblem) -> None:
        """The initial state of the dynamic phase is set (its supports, the initial
        acceleration), before it is recorded: take over from the preload's supports."""
        return None  # optional: an empty body would make the hook abstract

    def start_shaking(self, problem: StepProblem, stage: Stage) -> None:
        """After every term's :meth:`release`: a shaking table's drag at the start time
        enters the initial state as the first step (``stage``) will take it."""
        return None  # optional: an empty body would make the hook abstract

    def in_static_step(self, problem: StepProblem) -> bool:
        """Whether the term takes part in the static step being begun (the problem leaves
        it out otherwise: see the module docstring)."""
        return False

    def fallback(self, problem: StepProblem) -> str | None:
        """A step failed at the last halving: ease something for one more attempt and say
        what (None: nothing to ease)."""
        return None

    def contact_changes(self, problem: StepProblem) -> int:
        """Contacts that closed or opened in the step under way (for ``[time.refine]``)."""
        return 0

    def destroy(self) -> None:
        """Free the PETSc objects the term made (collective): the run is over
        (:func:`rocking_contact.fem.runner.simulate` calls it as it frees its problem)."""
        return None  # optional: an empty body would make the hook abstract


class Contribution(StepTerm, Protocol):
    """Terms added to the step equation (a contact treatment, a spring, a penalty)."""

    linear: bool

    def add_residual(self, problem: StepProblem, x: PETSc.Vec, r: PETSc.Vec) -> None:
        """Add ``r_c(x)`` (N; a force on the bodies counts negative, as ``-f_ext`` in
        ``g``) to ``r`` (owned entries), ``x`` the unknown (m, or m/s for a velocity)."""

    def add_jacobian(self, problem: StepProblem, x: PETSc.Vec, jac: PETSc.Mat) -> None:
        """Add ``+dr_c/dx`` to ``jac`` (N/m for a displacement unknown, N s/m for a
        velocity unknown; assembled on return)."""

    # -- optional hooks of a contribution ------------------------------------------------
    def settle(self, problem: StepProblem) -> bool:
        """Arm the term for the preload's static step on springs, the preload's supports
        still in place (:func:`~rocking_contact.fem.preload.settle_on_springs`); whether it
        armed (False: nothing to settle on)."""
        return False

    def inconsistency(self, problem: StepProblem) -> str | None:
        """Why a converged step is at odds with the term's law (the same on every rank):
        the step then fails like a diverged one; None if consistent."""
        return None


class Corrector(StepTerm, Protocol):
    """A condensed local problem solved after the free (contact-less) step."""

    def correct(self, problem: StepProblem, solver: NewtonSolver, x: PETSc.Vec) -> bool:
        """Correct the free solution ``x`` (the unknown: m, or m/s for a velocity) in place,
        with ``solver``'s factorised step Jacobian; False rejects the step (it is halved)."""


@dataclass(frozen=True)
class Terms:
    """Terms of the step equation: the contributions, then the correctors; iterating gives
    them in that order, the order of their calls and of their history columns.
    :attr:`StepProblem.terms` holds all of them, :attr:`StepProblem.step_terms` those of
    the step under way (:meth:`taking_part`)."""

    contributions: tuple[Contribution, ...] = ()
    correctors: tuple[Corrector, ...] = ()

    def __iter__(self) -> Iterator[Contribution | Corrector]:
        yield from self.contributions
        yield from self.correctors

    def taking_part(self, problem: StepProblem) -> Terms:
        """Those that take part in the step ``problem`` begins: all of them in a dynamic
        step, in a static one (the preload's) those whose ``in_static_step`` says so."""
        if not problem.static:
            return self
        return Terms(tuple(c for c in self.contributions if c.in_static_step(problem)),
                     tuple(c for c in self.correctors if c.in_static_step(problem)))


def combine(f: Affine, x: np.ndarray | None, u: np.ndarray, v: np.ndarray,
            a: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``out = f.x x + f.u u + f.v v + f.a a`` on local arrays, skipping zero terms (and
    ``x`` if None); units: ``f``'s (:class:`~rocking_contact.time.stage.Affine`), e.g. m
    for ``f = stage.u`` from the unknown and the start state (m, m/s, m/s^2)."""
    # The sum from zero, 0.0 + t1 + t2 + ..., in that order (a first term of -0.0 gives
    # +0.0), without the zero fill and with one temporary: 30 calls a step.
    work = None
    started = False
    for coef, arr in ((f.x, x), (f.u, u), (f.v, v), (f.a, a)):
        if coef == 0.0 or arr is None:
            continue
        if not started:
            if coef == 1.0:
                np.add(arr, 0.0, out=out)
            else:
                np.multiply(arr, coef, out=out)
                out += 0.0
            started = True
            continue
        if work is None:
            work = np.empty_like(out)
        np.multiply(arr, coef, out=work)
        out += work
    if not started:
        out[:] = 0.0
    return out


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """``a`` and ``b`` (float64) hold the same bits: -0.0 is not 0.0, a NaN equals itself."""
    return np.array_equal(a.view(np.uint64), b.view(np.uint64))


class StepProblem:
    """The state of the time integration and the equation of its current step.

    Args:
        body: the discretised bodies.
        prescribed: prescribed displacements (supports, imposed motions).
        contributions: residual/Jacobian terms (see the module docstring).
        correctors: condensed local problems (see the module docstring).
        t0: start time (s).
        linear_solver: PETSc factorisation package of the mass solves (``mumps``, ...).

    Attributes:
        u, v, a: state at time :attr:`t` (Functions: m, m/s, m/s^2).
        stage: the equations of the step being solved.
        t1: end time of that step (s).

    """

    def __init__(self, body: ElasticBody, prescribed: Sequence[Prescribed] = (),
                 contributions: Sequence[Contribution] = (),
                 correctors: Sequence[Corrector] = (), *, t0: float = 0.0,
                 linear_solver: str = "mumps"):
        self.body = body
        self.linear_solver = linear_solver
        self.comm = body.comm
        V = body.V
        self.u = fem.Function(V, name="u")
        self.v = fem.Function(V, name="v")
        self.a = fem.Function(V, name="a")
        # The Functions' arrays, fetched once (their storage never moves; fetching them is
        # a Python call that the step loop would make ~70 times a step).
        self._state = (self.u.x.array, self.v.x.array, self.a.x.array)
        self._n_owned = body.n_owned
        # their owned entries (views), for what only the owned entries need
        u, v, a = self._state
        n = self._n_owned
        self._owned_state = (u[:n], v[:n], a[:n])
        self._point = (body.u.x.array, body.v.x.array)
        self.t = t0
        self.prescribed = list(prescribed)
        #: every term of the step equation
        self.terms = Terms(tuple(contributions), tuple(correctors))
        #: the terms that take part in the step under way (:meth:`begin`)
        self.step_terms = Terms()
        #: a static step was begun: the state comes from a preload, its supports held it
        self.preloaded = False
        self.J = body.matrix()
        # Zeroing rows of prescribed dofs must keep the pattern for later axpy's.
        self.J.setOption(PETSc.Mat.Option.KEEP_NONZERO_PATTERN, True)
        self.stage: Stage | None = None
        # the stage has an inertia term (asked at every residual: a dataclass comparison)
        self._inertial = False
        self.scheme: Scheme | None = None
        self.t1 = t0
        self._g_n = body.vector()
        self._g_n_valid = False
        # g(u1, v1, t1) of the last residual and the point it was evaluated at: the start
        # force of the next step when the accepted state is that very point
        self._g_end = body.vector()
        self._g_end_point = (np.zeros_like(self.u.x.array), np.zeros_like(self.u.x.array))
        self._g_end_t = np.nan
        self._inertia = body.vector()
        self._x_work = np.zeros_like(self.u.x.array)
        self._jacobian_key: tuple[float, float, float] | None = None
        self.jacobian_builds = 0
        self._dofs = np.zeros(0, np.int32)
        # the same as numpy's own index type: indexing by an int32 array converts it at
        # every use (5 us against 0.6 us for the 6 prescribed dofs of the SDNV105 meshes)
        self._dofs_at = np.zeros(0, np.intp)
        self._xbar = np.zeros(0)
        self._rows_global = np.zeros(0, np.int32)
        self._owned_mask = np.zeros(0, bool)
        # the owned prescribed dofs (local) and their xbar: the residual's prescribed rows
        self._owned_dofs = np.zeros(0, np.intp)
        self._owned_xbar = np.zeros(0)
        self._merged: tuple[np.ndarray, np.ndarray] | None = None
        # (x's handle, its state, the body's point version) of the last end state put in
        # the body's evaluation point: the Jacobian at the x the residual was just
        # evaluated at (SNES, the condensed contact) finds its point there already
        self._point_at: tuple[int, int, int] | None = None

    def destroy(self) -> None:
        """Free the PETSc objects made here, the Jacobian and the force vectors (collective)."""
        for obj in (self.J, self._g_n, self._g_end, self._inertia):
            obj.destroy()

    # -- set-up ---------------------------------------------------------------------------
    @property
    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The local arrays (owned and ghost) of :attr:`u`, :attr:`v`, :attr:`a` (m, m/s,
        m/s^2): the Functions' own storage, fetched once (``u.x.array`` is a call into
        DOLFINx, which the per-step callers would make a dozen times a step)."""
        return self._state

    @property
    def static(self) -> bool:
        """The step under way (after :meth:`begin`) is a static one (the preload's
        :class:`~rocking_contact.time.static.Static` scheme), which the terms sit out
        unless they say otherwise (:attr:`step_terms`)."""
        return isinstance(self.scheme, Static)

    @property
    def linear(self) -> bool:
        """One solve per step, Jacobian rebuilt only when the stage changes."""
        return self.body.linear and all(c.linear for c in self.terms.contributions)

    def vector(self) -> PETSc.Vec:
        """A ghosted vector of the unknown's space."""
        return self.body.vector()

    @property
    def prescribed_dofs(self) -> np.ndarray:
        """Local dofs (owned and ghost) prescribed in the current step (after :meth:`begin`)."""
        return self._dofs

    def set_state(self, u: np.ndarray | None = None, v: np.ndarray | None = None,
                  a: np.ndarray | None = None, t: float | None = None) -> None:
        """Overwrite the state (local arrays, owned and ghost); None leaves a field as is."""
        for fn, arr in ((self.u, u), (self.v, v), (self.a, a)):
            if arr is not None:
                fn.x.array[:] = arr
        if t is not None:
            self.t = self.t1 = t
        self._g_n_valid = False
        self._g_end_t = np.nan  # a new phase: the bodies' forces may change (a shaking table)
        self._point_at = None

    def set_prescribed(self, prescribed: Sequence[Prescribed]) -> None:
        """Replace the prescribed displacements (a new phase); the Jacobian is rebuilt."""
        self.prescribed = list(prescribed)
        self._jacobian_key = None
        self._merged = None

    def _prescribed_at(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        """Prescribed dofs and displacements at t; merged once when none depends on time."""
        if any(p.factor is not constant for p in self.prescribed):
            return merge(self.prescribed, t)
        if self._merged is None:
            self._merged = merge(self.prescribed, t)
        return self._merged

    def initial_acceleration(self) -> None:
        """Solve ``M a = -g(u, v, t)`` for the state's acceleration; 0 on prescribed dofs."""
        self.body.set_point(self.u.x.array, self.v.x.array)
        rhs = self.body.vector()
        self.body.force(rhs, self.t)
        rhs.scale(-1.0)
        self.a.x.petsc_vec.set(0.0)
        with MassSolver(self, prefix="initial_acceleration_") as mass:
            mass.accelerate(self, rhs)
        rhs.destroy()

    # -- one step -------------------------------------------------------------------------
    def begin(self, t1: float, scheme: Scheme) -> None:
        """Set up the step ``t -> t1`` (s, the step's end time) with ``scheme``."""
        h = t1 - self.t
        # Grid times are sums of steps: a step "equal" to the previous one differs from it
        # by round-off. Reuse the previous stage then, so that a linear problem keeps its
        # factorisation (the time itself still lands on t1).
        same = (self.stage is not None and scheme == self.scheme
                and abs(h - self.stage.h) <= 1e-9 * self.stage.h)
        if not same:
            self.stage = scheme.stage(h)
            self._inertial = self.stage.a != ZERO
        self.scheme = scheme
        self.t1 = t1
        self._point_at = None
        stage = self.stage
        assert stage is not None
        if stage.w0 != 0.0 and not self._g_n_valid:
            if not self._start_force_from_end():
                self.body.set_point(self.u.x.array, self.v.x.array)
                self.body.force(self._g_n, self.t)
            self._g_n_valid = True
        dofs, ubar = self._prescribed_at(t1)
        f = stage.u
        if dofs is not self._dofs:  # the same array while the supports stay
            self._dofs = dofs
            self._dofs_at = dofs.astype(np.intp)
            self._rows_global = self.body.global_rows(dofs)
            self._owned_mask = dofs < self._n_owned
            self._owned_dofs = self._dofs_at[self._owned_mask]
        u, v, a = self._state
        at = self._dofs_at
        self._xbar = (ubar - f.u * u[at] - f.v * v[at] - f.a * a[at]) / f.x
        self._owned_xbar = self._xbar[self._owned_mask]
        self.preloaded |= self.static
        self.step_terms = self.terms.taking_part(self)
        for c in self.step_terms:
            c.begin_step(self)

    def _start_force_from_end(self) -> bool:
        """Copy into ``g_n`` the force of the last residual evaluation if that was at this
        very state (u, v, t, bit for bit): the accepted step's end point, unless something
        moved it since (a contact's position projection). Saves one assembly of the forces
        per step, with the same numbers; False if the state differs (nothing copied).

        Collective: the assembly it saves is, so every rank must take the same branch (a
        projection may leave one rank's part of the state untouched)."""
        u_end, v_end = self._g_end_point
        same = self._g_end_t == self.t and (same_bits(u_end, self._state[0])
                                            and same_bits(v_end, self._state[1]))
        if self.comm.size > 1:
            same = self.comm.allreduce(same, op=MPI.LAND)
        if not same:
            return False
        self._g_end.copy(self._g_n)
        return True

    def predictor(self, x: PETSc.Vec) -> None:
        """First guess of the unknown, prescribed values included."""
        assert self.stage is not None
        with x.localForm() as local:
            combine(self.stage.predictor, None, *self._state, local.array)
            local.array[self._dofs_at] = self._xbar

    def end_values(self, x: PETSc.Vec, pick: Any = None, *, velocity: bool = False
                   ) -> tuple[np.ndarray, np.ndarray | None]:
        """``u1(x)`` (m) and ``v1(x)`` (m/s, None unless ``velocity``): the end of the step
        for the unknown ``x`` (x's ghosts up to date; m or m/s, the stage's unknown), on
        the local arrays, or on the values that ``pick`` returns for them (e.g. a
        contact's nodes, on every rank): ``pick(arrays)`` takes the same entries of each
        local array of a list (``[x, u, v, a]``, or ``u1`` and ``v1`` themselves), one
        row of values per array."""
        s = self.stage
        assert s is not None
        if self._point_holds(x):
            # end_state(x) made them already, entry by entry with the same operations (a
            # residual at x comes first in a contact iteration): picked, not combined again
            point = list(self._point if velocity else self._point[:1])
            if pick is None:
                point = [array.copy() for array in point]
            else:  # combine's results are never -0.0: a sum over ranks keeps them
                point = list(pick(point))
            return point[0], point[1] if velocity else None
        with x.localForm() as local:
            arrays = [local.array_r, *self._state]
            xs, us, vs, acc = pick(arrays) if pick is not None else arrays
            u1 = combine(s.u, xs, us, vs, acc, np.empty_like(xs))
            v1 = combine(s.v, xs, us, vs, acc, np.empty_like(xs)) if velocity else None
        return u1, v1

    def settled(self, x: PETSc.Vec, change: float, tolerance: float) -> bool:
        """Newton has stalled at round-off: its last correction of the unknown (``change``,
        max norm, in the unknown's unit: m, or m/s for a velocity unknown) moved the end
        displacement (``stage.u.x * change``, m) by less than ``tolerance`` (relative, no
        unit) of that displacement (max norms over the owned dofs of every rank).

        Measured on displacements whatever the unknown: the large-rotation forces of the
        stiff SDNV105 bodies carry a round-off of 1e-6 to 1e-4 N that no correction
        removes, and a velocity unknown starts from zero at a release."""
        assert self.stage is not None
        u1 = combine(self.stage.u, x.array_r, *self._owned_state, np.empty(self._n_owned))
        size = float(np.abs(u1).max(initial=0.0))
        if self.comm.size > 1:
            size = self.comm.allreduce(size, op=MPI.MAX)
        return self.stage.u.x * change <= tolerance * size

    def end_state(self, x: PETSc.Vec) -> None:
        """Put ``u1(x)``, ``v1(x)`` in the body's evaluation point (x's ghosts up to date)."""
        assert self.stage is not None
        s = self.stage
        with x.localForm() as local:
            xa = local.array_r
            combine(s.u, xa, *self._state, self._point[0])
            combine(s.v, xa, *self._state, self._point[1])
        self.body.point_version += 1
        self._point_at = (x.handle, x.stateGet(), self.body.point_version)

    def _point_holds(self, x: PETSc.Vec) -> bool:
        """The body's evaluation point holds ``u1(x)``, ``v1(x)``: :meth:`end_state` put
        them there last, and neither ``x`` (its PETSc state) nor the step has changed."""
        return self._point_at == (x.handle, x.stateGet(), self.body.point_version)

    def residual(self, _snes: Any, x: PETSc.Vec, r: PETSc.Vec) -> None:
        """SNES function callback: ``r = R(x)``."""
        assert self.stage is not None
        s = self.stage
        x.ghostUpdate(addv=PETSc.InsertMode.INSERT, mode=PETSc.ScatterMode.FORWARD)
        self.end_state(x)
        self.body.force(r, self.t1)
        r.copy(self._g_end)
        np.copyto(self._g_end_point[0], self._point[0])
        np.copyto(self._g_end_point[1], self._point[1])
        self._g_end_t = self.t1
        r.scale(s.w1)
        if s.w0 != 0.0:
            r.axpy(s.w0, self._g_n)
        if self._inertial:
            # owned entries: the product gathers the ghosts it needs itself
            combine(s.a, x.array_r, *self._owned_state, self._inertia.array)
            self.body.M.multAdd(self._inertia, r, r)
        for c in self.step_terms.contributions:
            c.add_residual(self, x, r)
        owned = self._owned_dofs
        r.array[owned] = x.array_r[owned] - self._owned_xbar

    def jacobian(self, _snes: Any, x: PETSc.Vec, jac: PETSc.Mat, _p: PETSc.Mat) -> None:
        """SNES Jacobian callback (``jac`` is :attr:`J`)."""
        assert self.stage is not None
        s = self.stage
        key = (s.mass_coefficient, s.stiffness_coefficient, s.damping_coefficient)
        if self.linear and key == self._jacobian_key:
            return  # unchanged operator: PETSc keeps its factorisation
        if not self.body.linear and not self._point_holds(x):
            x.ghostUpdate(addv=PETSc.InsertMode.INSERT, mode=PETSc.ScatterMode.FORWARD)
            self.end_state(x)
        self.body.tangent(s.stiffness_coefficient, s.damping_coefficient, jac)
        if s.mass_coefficient != 0.0:
            jac.axpy(s.mass_coefficient, self.body.M, PETSc.Mat.Structure.SAME_NONZERO_PATTERN)
        for c in self.step_terms.contributions:
            c.add_jacobian(self, x, jac)
        jac.zeroRows(self._rows_global, diag=1.0)
        self._jacobian_key = key
        self.jacobian_builds += 1

    def accept(self, x: PETSc.Vec) -> None:
        """Make the end state of the solved step the new state."""
        assert self.stage is not None
        s = self.stage
        with x.localForm() as local:
            xa = local.array_r
            u, v, a = self._state
            if self._point_holds(x):  # the last residual's end state (a converged step's)
                u1, v1 = self._point
            else:
                u1 = combine(s.u, xa, u, v, a, np.empty_like(u))
                v1 = combine(s.v, xa, u, v, a, np.empty_like(v))
            combine(s.a, xa, u, v, a, self._x_work)
        u[:] = u1
        v[:] = v1
        a[:] = self._x_work
        self.t = self.t1
        self._g_n_valid = False
        self._point_at = None
        for c in self.step_terms:
            c.accept(self)

    def columns(self) -> dict[str, float]:
        """History values of the contributions and correctors."""
        out: dict[str, float] = {}
        for c in self.terms:
            out.update(c.columns(self))
        return out
