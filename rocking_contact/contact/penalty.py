"""Penalised shock springs (SDNV105 B): point springs between base nodes and the ground.

Each ``[[contact.spring]]`` is a shock element of the discrete module — Code_Aster's
DIS_CHOC law, compiled in :func:`rocking_contact.discrete.shock.shock_force` and reused
here as it is: normal stiffness and damping on the penetration ``p = -u_y - gap`` (the
ground is the plane y = 0 below the block, the spring is vertical), clipped at zero (the
ground never pulls); a tangential stick spring (stiffness and damping, incremental) capped
by Coulomb, with the state row of that law (its stick/slip branches are chosen here by
return mapping, see :meth:`PenaltySprings._evaluate`); ``friction`` of a spring picks what
that row stores (the spring's force, or with ``"stored_dashpot"`` the dashpot's too). There
is no table in the model (``mesh.table = false``).

Code_Aster's implicit dynamics (DYNA_NON_LINE, SDNV105 B) adds two things to that law, each
a spring setting: with ``dashpots = "closed"`` the dashpots act outside it, linearly, while
the spring is closed (they are the element's damping matrix there, built from its current
stiffness), so the normal one may pull and neither is capped by Coulomb; and
``anchor_stiffness`` is the discrete element's own stiffness matrix, which its law adds to
the tangential force, times the node's total tangential displacement, while the spring is
closed. SDNV105 B gives that matrix (3e10, 1e7, 0) meaning normal first, but in the global
frame (the default), so its 3e10 N/m lands on the tangent: each corner that touches is
pinned in x to where it started (docs/contact.md, "B: what Code_Aster's B is").

The springs are a :class:`~rocking_contact.solvers.step.Contribution`: their forces and
consistent tangents enter the step equation solved by the SNES,

    R(x) -= w1 F(u1(x), v1(x)) + w0 F_n,     J -= w1 (dF/du u1.x + dF/dv v1.x),

with ``u1``, ``v1`` the end-of-step displacement and velocity of the node (3-vectors, z
zero) and ``w1``, ``w0`` the stage's weights of the body's forces (1 and 0 but for the HHT
scheme, which weights every force of the step equation alike, as the discrete module and
Code_Aster's MODI_EQUI='OUI' do).

The state row of a spring is evaluated at every residual into a trial row and
committed when the step is accepted; after a few residual evaluations of a step the
friction branch (stick or slip, and the slip direction) is frozen, as the discrete
integrators do (:data:`rocking_contact.discrete.shock.FREEZE_BRANCH_AFTER`), so that
the stick-slip decision cannot flip between Newton iterates. The normal force jumps by
``cn v_n`` where a spring closes, so a spring landing slowly can have no consistent status
within a step: Newton cycles between open and closed, and halving the step does not help.
The last resort (:meth:`PenaltySprings.fallback`, after the driver's last halving) takes
that step again with each spring kept open or closed as the step began, and the run says
so in its warnings; Code_Aster accepts such a step unconverged (``ARRET = 'NON'``). Not
right after a fallback that held a spring open in the ground: nothing would stop its node
sinking.

Signs: ``RN`` is the spring's normal force (N, compression positive; with dashpots outside
the law it includes the normal dashpot, which may pull); ``RX`` the force the block exerts
on the ground along x (minus the spring's force on the node).

Energy: the springs' work on the block, trapezoidal rule on the node displacements;
``ESPRING`` is what they store (``kn p^2 / 2``, ``Ft^2 / (2 kt)`` of a sticking spring and
``ka x_t^2 / 2`` of a closed anchor),
the rest of the absorbed energy is dissipated (dampers and friction). ``ESTICK`` is the energy
the friction law hands to springs that stick again after sliding (``Ft^2 / (2 kt)`` of the
force carried over, no work behind it, :meth:`PenaltySprings.accept`): a source, as a shaking
table's work is, that the energy checks take out of the rise.
"""

from __future__ import annotations

import numpy as np
from petsc4py import PETSc

from rocking_contact.contact.components import point_columns, summary_columns
from rocking_contact.contact.release import mass_solver
from rocking_contact.contact.spec import ContactSpec
from rocking_contact.discrete.shock import (
    FREEZE_BRANCH_AFTER,
    LAWS,
    P_GAP,
    P_KN,
    P_KT,
    P_MU,
    S_FORCE,
    S_POSITION,
    S_STICK,
    SHOCK_PARAMS,
    STATE_SIZE,
    shock_force,
)
from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.gather import gather_nodes, gather_values
from rocking_contact.geometry.layout import BLOCK
from rocking_contact.solvers.step import Contribution, StepProblem

#: direction from the node toward the ground (the shock law's normal)
DOWN = (0.0, -1.0, 0.0)


class PenaltySprings(Contribution):
    """Point shock springs to the ground (a Contribution).

    Args:
        body: the bodies.
        spec: the ``[contact]`` section (springs and the default Coulomb coefficient).

    """

    linear = False

    def __init__(self, body: ElasticBody, spec: ContactSpec):
        self.body = body
        self.comm = body.comm
        springs = spec.spring
        self.names = [s.on for s in springs]
        n = len(springs)
        self.P = np.zeros((n, len(SHOCK_PARAMS)))
        #: dashpots acting outside the law while closed (normal, tangential; N.s/m)
        self.dashpots = np.zeros((n, 2))
        self.anchor = np.array([s.anchor_stiffness for s in springs], dtype=float)
        for j, s in enumerate(springs):
            mu = spec.mu if s.mu is None else s.mu
            inside = s.dashpots == "clipped"
            damping = (s.normal_damping, s.tangential_damping)
            self.P[j] = (*DOWN, s.gap, s.normal_stiffness, damping[0] * inside,
                         s.tangential_stiffness, damping[1] * inside, mu, LAWS[s.friction])
            self.dashpots[j] = (0.0, 0.0) if inside else damping
        bs = body.V.dofmap.index_map_bs
        self._local = np.full((n, 2), -1, dtype=np.int64)
        self._global = np.zeros((n, 2), dtype=PETSc.IntType)
        for j, name in enumerate(self.names):
            self._global[j], self._local[j] = (d[0] for d in gather_nodes(body, name).dofs(bs))
        self.S = np.zeros((n, STATE_SIZE))
        self.S_trial = np.zeros_like(self.S)
        self.force = np.zeros((n, 3))
        self.trial_force = np.zeros((n, 3))
        self.normal = np.zeros(n)
        self.trial_normal = np.zeros(n)
        self.closed = np.zeros(n, dtype=bool)
        self.trial_closed = np.zeros(n, dtype=bool)
        #: springs a fallback attempt holds open though their law closes them (the last
        #: evaluation's; those of the accepted step), :meth:`fallback`
        self.trial_held_open = np.zeros(n, dtype=bool)
        self.held_open = np.zeros(n, dtype=bool)
        self._Jd = np.zeros((n, 3, 3))
        self._Jv = np.zeros((n, 3, 3))
        self._branch = np.full(n, -1, dtype=np.int64)
        self._mismatch = np.zeros(n, dtype=bool)
        self._direction = np.zeros((n, 3))
        self._calls = 0
        self._status_frozen = self._lag_next = False
        #: armed by :meth:`settle` until the release: active in the preload's last static step
        self._settling = False
        #: that static step was accepted: the block stands in equilibrium on the springs
        self._settled = False
        self._d0 = np.zeros((n, 3))
        self.work = 0.0
        #: energy the friction law hands to springs that stick again (J, :meth:`accept`)
        self.restick = 0.0
        self.penetration = np.zeros(n)
        self._slide = np.zeros((n, 2))  # tangential (x, z) displacement of each node (m)

    # -- node values ----------------------------------------------------------------
    def _gather(self, arrays: list[np.ndarray]) -> np.ndarray:
        """Values at the spring nodes (x, y) of local arrays, on every rank: (k, n, 2)."""
        return gather_values(arrays, self._local, self.comm)

    def _end_state(self, problem: StepProblem, x: PETSc.Vec) -> tuple[np.ndarray, np.ndarray]:
        """End-of-step displacement and velocity of the spring nodes, as 3-vectors."""
        u1, v1 = problem.end_values(x, self._gather, velocity=True)
        d = np.zeros((len(self.names), 3))
        dv = np.zeros_like(d)
        d[:, :2], dv[:, :2] = u1, v1
        return d, dv

    # -- Contribution protocol -------------------------------------------------------
    def in_static_step(self, problem: StepProblem) -> bool:
        """The springs sit out the static preload but for the settle (:meth:`settle`)."""
        return self._settling

    def begin_step(self, problem: StepProblem) -> None:
        """Reset the branch freezing of the step; the springs' start displacement."""
        self._calls = 0
        self._mismatch[:] = False
        self._status_frozen, self._lag_next = self._lag_next, False
        self._branch[:] = -1
        u = self._gather([problem.arrays[0]])[0]
        self._d0[:, :2] = u

    def settle(self, problem: StepProblem) -> bool:
        """At the preload's end, its supports still in place: arm the springs to take the
        block's weight in the static step that follows (the base supports removed,
        :func:`rocking_contact.fem.preload.settle_on_springs`) if more than one spring
        would carry it. Returns whether they are armed.

        A spring would carry if its node has a support reaction ``R > 0`` (N, up) and the
        spring is closed there (penetration ``-u_y - gap >= 0``). With one such spring the
        release lowers the block rigidly by ``R / kn``, exact when that node carries the
        whole weight (a tilt on O) and left so; with several (a block preloaded flat) the
        supports spread the weight over the base nodes as no set of springs does, and only
        a static solve on the springs puts the block in equilibrium on them. The block is
        lowered as the release would (so that every carrying spring is pressed and holds
        the block in the solve's first iterate) and the springs' state starts there.
        """
        reaction, penetration = self._support_reactions(problem)
        if np.count_nonzero((reaction > 0.0) & (penetration >= 0.0)) < 2:
            return False
        self._settling = True
        self._lower(problem, self._support_drop(reaction, penetration))
        self._start_state(problem, unstressed=True).destroy()
        return True

    def release(self, problem: StepProblem) -> None:
        """The springs take over (see :mod:`~.release`); their state starts there (stick
        springs unstressed) and the initial acceleration gains ``M^-1 F_springs``.

        After a preload (``problem.preloaded``: static steps, which the springs sat out)
        the spring whose node carried the largest support reaction ``R`` (N) takes it: if
        that spring is closed where the preload left the block (its penetration
        ``-u_y - gap`` >= 0), the block is lowered by ``R / kn`` (a rigid translation), so
        that the spring carries ``R`` beyond any initial penetration; an open one (``gap``
        above the node) lowers nothing and the block falls its gap. At rest (no preload)
        the block starts where it is: every gap is free travel (a negative one an initial
        penetration). After a settle (:meth:`settle`) the block is where the static solve
        on the springs left it, in equilibrium, and the springs keep the state that solve
        left them in (a sticking spring its force).
        """
        settled = self._settled  # armed but not settled: the settle failed, as if not armed
        self._settling = self._settled = False
        if problem.preloaded and not settled:
            self._lower(problem, self._support_drop(*self._support_reactions(problem)))
        forces = self._start_state(problem, unstressed=not settled)
        self.work = self.restick = 0.0  # the settle's work went into the preload
        with mass_solver(problem) as mass:
            mass.accelerate(problem, forces)
        forces.destroy()

    def _lower(self, problem: StepProblem, drop: float) -> None:
        """Translate the block down by ``drop`` (m; rigid: the stresses stay as they are)."""
        if drop == 0.0:
            return
        u = problem.u.x.array.copy()
        u[self.body.block_mesh.dofs(self.body.V, BLOCK, 1)] -= drop
        problem.set_state(u=u)

    def _start_state(self, problem: StepProblem, *, unstressed: bool) -> PETSc.Vec:
        """Evaluate every spring where the block stands and commit it (state rows, open or
        closed, forces, penetration); ``unstressed``: the stick springs start unstressed
        there, else from their state rows. Returns the springs' forces on the body (a new
        vector, N)."""
        self._branch[:] = -1
        self._status_frozen = self._lag_next = False
        d = np.zeros((len(self.names), 3))
        dv = np.zeros_like(d)
        d[:, :2], dv[:, :2] = self._gather([problem.u.x.array, problem.v.x.array])
        if unstressed:
            self.S[:] = 0.0
            self.S[:, S_POSITION] = d[:, 0]
        F = np.empty(3)
        Jd, Jv = np.empty((3, 3)), np.empty((3, 3))
        forces = self.body.vector()
        for j in range(len(self.names)):
            self.closed[j] = self._force(j, d[j], dv[j], F, Jd, Jv)
            self.force[j], self.normal[j] = F, F[1]
            if self._local[j, 0] >= 0:
                forces.array[self._local[j]] += F[:2]
        self.S[:] = self.S_trial
        self.held_open[:] = False
        self.penetration[:] = np.maximum(-d[:, 1] - self.P[:, P_GAP], 0.0)
        self._slide[:] = d[:, [0, 2]]
        return forces

    def _support_reactions(self, problem: StepProblem) -> tuple[np.ndarray, np.ndarray]:
        """The preload's support reaction at each spring node (N, up: the static residual
        ``f_int - f_ext`` in y) and the spring's penetration ``-u_y - gap`` there (m)."""
        body = self.body
        g = body.vector()
        body.set_point(problem.u.x.array, problem.v.x.array)
        body.force(g)
        reaction = self._gather([g.array])[0][:, 1]
        g.destroy()
        uy = self._gather([problem.u.x.array])[0][:, 1]
        return reaction, -uy - self.P[:, P_GAP]

    def _support_drop(self, reaction: np.ndarray, penetration: np.ndarray) -> float:
        """How far (m) the preload's support reaction ``R`` lowers the block: ``R / kn`` of
        the most loaded spring if it is closed where the preload left it, else 0."""
        j = int(np.argmax(reaction))
        # a spring with its gap still open takes nothing from the support; the block falls
        # onto it
        if reaction[j] <= 0.0 or penetration[j] < 0.0:
            return 0.0
        return float(reaction[j] / self.P[j, P_KN])

    def add_residual(self, problem: StepProblem, x: PETSc.Vec, r: PETSc.Vec) -> None:
        """Evaluate every spring at the end of the step; ``r -= w1 F + w0 F_n`` on owned rows."""
        if self._calls == FREEZE_BRANCH_AFTER:
            self._freeze_branches()
        self._calls += 1
        d, dv = self._end_state(problem, x)
        s = problem.stage
        assert s is not None
        F = np.empty(3)
        Jd, Jv = np.empty((3, 3)), np.empty((3, 3))
        for j in range(len(self.names)):
            self.trial_closed[j] = self._force(j, d[j], dv[j], F, Jd, Jv)
            self.trial_force[j] = F
            self.trial_normal[j] = F[1]
            self._Jd[j], self._Jv[j] = Jd, Jv
            mine = self._local[j]
            if mine[0] >= 0:
                # weighted as the body's forces: HHT takes (1 + alpha) F1 - alpha F0
                r.array[mine] -= s.w1 * F[:2] + s.w0 * self.force[j, :2]

    def _force(self, j: int, d: np.ndarray, dv: np.ndarray, F: np.ndarray, Jd: np.ndarray,
               Jv: np.ndarray) -> bool:
        """Force ``F`` (N, on the node) of spring ``j`` and its Jacobians: the law, then
        what acts beside it while the spring is closed (the anchor, the dashpots outside the
        law). Returns whether the spring is closed: the law's normal force is positive, or,
        in a :meth:`fallback` attempt, the spring was closed when the step began. A frozen
        closed spring whose law has opened goes on linearly (``kn p``, which pulls); a frozen
        open one gives nothing."""
        closed = self._evaluate(j, d, dv, F, Jd, Jv) > 0.0
        held = self._status_frozen and closed != self.closed[j]
        self.trial_held_open[j] = held and closed
        if held:
            closed = bool(self.closed[j])
            F[:], Jd[:], Jv[:] = 0.0, 0.0, 0.0
            if closed:
                kn = self.P[j, P_KN]
                F[1] = kn * (-d[1] - self.P[j, P_GAP])  # penetration -u_y - gap, <= 0 here
                Jd[1, 1] = -kn
        if not closed:
            return False
        ka = self.anchor[j]
        cn, ct = self.dashpots[j]
        for i in (0, 2):  # the tangent plane (x, z) of a vertical spring
            F[i] -= ka * d[i] + ct * dv[i]
            Jd[i, i] -= ka
            Jv[i, i] -= ct
        F[1] -= cn * dv[1]
        Jv[1, 1] -= cn
        return True

    def _evaluate(self, j: int, d: np.ndarray, dv: np.ndarray, F: np.ndarray, Jd: np.ndarray,
                  Jv: np.ndarray) -> float:
        """Force of spring ``j`` by the law's stick and slip branches, chosen by return
        mapping; returns the normal force (N).

        The law's own choice (keep sliding while the slip velocity keeps its direction, a new
        contact arriving with a tangential velocity slides) is the explicit-integration
        logic: inside an implicit step the Coulomb force ``mu FN`` is then applied for the
        whole step even when it stops and reverses the slip within it (at SDNV105 B's
        impacts, ``FN`` is the dashpot's ~1e6 N and the corner is thrown sideways). Here the
        stick branch is the trial: it is kept if its force lies in the Coulomb cone, else the
        contact slides against that trial force (a return mapping on the same law).
        """
        frozen = self._branch[j]
        fn, ft, _, _ = shock_force(self.P, j, d, dv, self.S[j], F, self.S_trial[j], Jd, Jv,
                                   True, 1)
        limit = self.P[j, P_MU] * fn
        if frozen == 0:
            # The slip was frozen on an earlier iterate: it holds here only if the stick
            # trial still leaves the cone on the side the friction force keeps.
            trial = F.copy()
            trial[1] -= fn
            self._mismatch[j] = fn > 0.0 and -float(trial @ self._direction[j]) < limit
            fn, _, _, _ = shock_force(self.P, j, d, dv, self.S[j], F, self.S_trial[j], Jd, Jv,
                                      True, 0, self._direction[j])
            return fn
        if frozen == 1:
            self._mismatch[j] = ft > limit
        if frozen == 1 or ft <= limit or fn <= 0.0:
            return fn
        trial = F.copy()
        trial[1] -= fn  # the tangential part: the normal force is -fn n = (0, fn, 0)
        self._direction[j] = -trial / np.linalg.norm(trial)
        fn, _, _, _ = shock_force(self.P, j, d, dv, self.S[j], F, self.S_trial[j], Jd, Jv, True,
                                  0, self._direction[j])
        return fn

    def _freeze_branches(self) -> None:
        """Keep the stick/slip branch (and slip direction) of the last evaluation of the
        closed springs; an open spring stays free to choose if it closes."""
        for j in range(len(self.names)):
            if self.trial_closed[j]:
                self._branch[j] = int(self.S_trial[j, S_STICK])

    def inconsistency(self, problem: StepProblem) -> str | None:
        """Springs whose frozen stick/slip branch the converged step contradicts, or None.

        Freezing the branch on an early iterate keeps Newton from cycling, but the iterate
        it was frozen on may be wild: at the converged state a frozen slip can have its stick
        trial inside the cone or on the other side, and its Coulomb force then pushes the
        node along its motion (without this check the plain-springs B accepts a 1.25 ms
        step in which A's stick spring stores the 7.2 kN cap so, and the block gains 1.9 J
        in 5 ms: docs/contact.md, "Penalised shock springs (B)"); a frozen stick can
        exceed the cone. Such a step is rejected and halved.
        """
        if not self._mismatch.any():
            return None
        names = ", ".join(n for n, bad in zip(self.names, self._mismatch) if bad)
        return f"the frozen stick/slip branch of {names} contradicts the converged state"

    def fallback(self, problem: StepProblem) -> str | None:
        """Take the next attempt of this step with the springs' status of its start; not
        in the settle, where a spring kept closed would pull the block into an equilibrium
        that is none; nor right after a step whose fallback held a spring open though its
        law closes it (``held_open``; :meth:`describe` names it).

        The fallback carries a run over an instant where no status solves the step. A
        spring it holds closed is still a spring (``kn p`` and the anchor pull its node
        back), and B on a shaking table needs 5 such steps in a row as O1 lifts (a scale
        of 1e-12 m, docs/theta.md). A spring held open gives nothing: its node falls into
        the ground, and a second fallback in a row would let it go on sinking with no
        force. B with its anchors and the dashpots clipped did so from 0.0574 s (A 14.7 mm
        deep by 0.13 s, 3443 fallback steps, 3.5e6 J created, the block toppled at
        0.1386 s: docs/contact.md, "B").
        """
        if self._settling or self.held_open.any():
            return None
        self._lag_next = True
        return "spring status kept from the step's start"

    def add_jacobian(self, problem: StepProblem, x: PETSc.Vec, jac: PETSc.Mat) -> None:
        """``J -= w1 (dF/du u1.x + dF/dv v1.x)`` on owned rows (from the last residual)."""
        s = problem.stage
        assert s is not None
        for j in range(len(self.names)):
            if self._local[j, 0] < 0:
                continue
            block = -s.w1 * (self._Jd[j, :2, :2] * s.u.x + self._Jv[j, :2, :2] * s.v.x)
            jac.setValues(self._global[j], self._global[j], block.ravel(),
                          addv=PETSc.InsertMode.ADD_VALUES)
        jac.assemble()

    def contact_changes(self, problem: StepProblem) -> int:
        """Springs that engaged or let go in the step under way (trial against committed);
        none in the settle (refining its pseudo-time would not help, and the refinement
        would go on into the dynamic phase)."""
        if self._settling:
            return 0
        return int(np.count_nonzero(self.trial_closed != self.closed))

    def accept(self, problem: StepProblem) -> None:
        """Commit the state rows; accumulate the springs' work on the block."""
        self._settled |= self._settling
        d1 = np.zeros_like(self._d0)
        d1[:, :2] = self._gather([problem.arrays[0]])[0]
        self.work += 0.5 * float(np.sum((self.force + self.trial_force) * (d1 - self._d0)))
        # A sliding spring carries mu RN with no stretch behind it (the law tracks none
        # while it slides); sticking again it starts from that force, as if stretched
        # Ft / kt: the law hands it Ft^2 / (2 kt) that no work put there, which it then
        # gives back to the block at once
        kt = self.P[:, P_KT]
        restuck = (self.closed & self.trial_closed & (kt > 0.0)
                   & (self.S[:, S_STICK] == 0.0) & (self.S_trial[:, S_STICK] == 1.0))
        for j in np.flatnonzero(restuck):
            ft = self.S[j, S_FORCE:S_FORCE + 3]
            self.restick += 0.5 * float(ft @ ft) / kt[j]
        self.S[:] = self.S_trial
        self.force[:] = self.trial_force
        self.normal[:] = self.trial_normal
        self.closed[:] = self.trial_closed
        self.held_open[:] = self.trial_held_open
        self.penetration[:] = np.maximum(-d1[:, 1] - self.P[:, P_GAP], 0.0)
        self._slide[:] = d1[:, [0, 2]]

    # -- outputs ---------------------------------------------------------------------
    def stored_energy(self) -> float:
        """Energy stored in the springs (J): normal ``kn p^2 / 2``, sticking tangential
        ``Ft^2 / (2 kt)``, the anchor's ``ka x_t^2 / 2`` while closed (the anchor's energy
        of a spring that opens is lost with it)."""
        total = 0.0
        for j in range(len(self.names)):
            kn, kt = self.P[j, P_KN], self.P[j, P_KT]
            total += 0.5 * kn * self.penetration[j] ** 2
            if not self.closed[j]:
                continue
            if self.S[j, S_STICK] == 1.0 and kt > 0.0:
                ft = self.S[j, S_FORCE:S_FORCE + 3]
                total += 0.5 * float(ft @ ft) / kt
            total += 0.5 * self.anchor[j] * float(self._slide[j] @ self._slide[j])
        return total

    def absorbed_energy(self) -> float:
        """Energy taken from the block by the springs since the release (J)."""
        return -self.work

    def columns(self, problem: StepProblem) -> dict[str, float]:
        """The springs' forces ``RN_<P>``, ``RX_<P>`` (a vertical spring: normal y, tangent
        x), then ``CONTACTS``, ``SLIDING``, ``ECONTACT`` (:func:`~.components.point_columns`,
        :func:`~.components.summary_columns`; no gap, iterations or friction share), the
        stored ``ESPRING`` and the supplied ``ESTICK`` (J)."""
        forces = np.column_stack([self.normal, self.force[:, 0]]).ravel()
        out = point_columns("R", {name: j for j, name in enumerate(self.names)}, forces, None)
        out.update(summary_columns(
            gap_min=None, contacts=int(np.count_nonzero(self.closed)),
            sliding=int(np.count_nonzero(self.closed & (self.S[:, S_STICK] == 0.0))),
            iterations=None, absorbed=self.absorbed_energy(), friction=None))
        out["ESPRING"] = self.stored_energy()
        out["ESTICK"] = self.restick
        return out

    def describe(self) -> str:
        """The springs' state, for a failure message; and the springs the step before
        held open in the ground with the fallback, which this step's was refused for."""
        closed = [f"{n} (RN {f:.4g} N)" for n, f, c in
                  zip(self.names, self.trial_normal, self.trial_closed) if c]
        state = "active contacts: " + (", ".join(closed) if closed else "none")
        if self.held_open.any():
            held = ", ".join(n for n, h in zip(self.names, self.held_open) if h)
            state += (f"; the fallback of the step before held {held} open though the law "
                      "closed it: no second fallback in a row for a spring in the ground")
        return state
