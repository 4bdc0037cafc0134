"""What the discrete time schemes share: the state and counters of an integration
(:class:`Integrator`), the shocks' forces at the local displacements and the compiled
linear algebra of the kernels.

Every scheme steps ``M x'' + C x' + K x = p gamma(t) + f_const + G^T F(G x, G x')`` (see
:class:`~rocking_contact.discrete.system.DiscreteSystem`); ``F`` is the force of the
obstacles on the shock nodes. The loops are compiled with numba; the Python classes own the
state and counters (scipy.integrate style: ``advance`` does a chunk of steps and says
whether it succeeded).

The kernels' arguments: numba compiles flat arguments (arrays and scalars), so each
scheme's kernel (``_cd_kernel`` of :mod:`.central_difference`, ``_newmark_kernel`` of
:mod:`.newmark`) takes its state and system one array at a time; those the kernels share
mean the same in each, and each kernel's docstring lists only its own. Units: ``[x]`` is
the unknowns' unit, m in physical space (translations) and a modal amplitude (m kg^1/2,
mass-normalised modes) in modal space, where ``M`` is the identity and ``K``, ``C`` are
diagonal (``omega^2``, 1/s^2; ``2 xi omega``, 1/s); ``[f]`` is the load's unit on the
unknowns, ``[M] [x]/s^2``: N in physical space. The shock nodes' quantities are in m, m/s
and N. The state arrays are updated in place, to carry into the next chunk of steps.
The loops a step runs stay in the kernels: numba references and releases every array
argument of a helper at each call when the helper calls code that can fail (10 to 15 ns
an array), which took SDND101's 1-dof central-difference steps 5.6 times longer with the
shocks' loop in a helper and the Newmark steps 16 to 19 % longer with the Newton on the
shock forces in one; their helpers hold loops that call nothing, or branches taken rarely.

- ``n_steps``: steps to take.
- ``final``: whether to record the state reached after the last step too (one more pass
  that records and does not step; the chunk that ends the run).
- ``step0``: the run's number of the chunk's first step (0 at ``time.start``): its instant
  is ``time.start + step0 dt``, and the rows carry it.
- ``every``: record the steps whose number is a multiple of ``every``.
- ``dt``: time step (s).
- ``x``: displacements at step ``step0`` (``[x]``, n); updated.
- ``state``: the shocks' law state rows (ns, ``STATE_SIZE``, see :mod:`.shock`); updated.
- ``M``, ``K``, ``C``: mass, stiffness and damping matrices (n, n; kg, N/m and N.s/m in
  physical space).
- ``diag``: whether the matrices are diagonal (modal space): only their diagonals are read.
- ``G``: the shocks' nodes' displacements (m) per unknown (3 ns, n): rows ``3j .. 3j+2``
  are shock ``j``'s node's global x, y, z.
- ``P``: the shocks' parameters (ns, ``len(SHOCK_PARAMS)``): unit normal, gap (m), kn
  (N/m), cn (N.s/m), kt (N/m), ct (N.s/m), mu (-), friction law's code.
- ``gam``: the support's acceleration (m/s^2) at steps ``step0 .. step0 + n_steps``.
- ``p_sup``: the load per unit support acceleration (n; ``[f]`` per m/s^2, kg in physical
  space), ``-M`` times the support's rigid motion.
- ``f_const``: the constant load (``[f]``, n): gravity.
- ``R``: the rows of the basis of the recorded physical dofs (n_out, n; m per ``[x]``).
- ``rec``: the history records (rows, channels; see :func:`.recording.record`), written
  from row ``rec_index`` on.
- ``rec_index``: the first row of ``rec`` to write.
- ``srec``: the shocks' rows at every step around their contacts (steps + 2, 3 ns + 1; see
  :func:`.recording.record_contact`), or no row: not recorded.
- ``opens``: per shock, whether it can open (:func:`.recording.any_closed`).
- ``slots``: per shock, its place among those with friction, whose tangential force and
  law state the rows hold, -1 without friction (:func:`.recording.record`).
"""

from __future__ import annotations

from typing import Any, Self

import numpy as np
from numba import njit

from rocking_contact.discrete.case import SHOCK_CHANNELS, DiscreteCase
from rocking_contact.discrete.recording import FRICTION_CHANNELS, Chunk, chunk, friction_shocks
from rocking_contact.discrete.shock import STATE_SIZE, open_state, shock_force
from rocking_contact.discrete.system import DiscreteSystem


@njit(cache=True)
def row_dot(A: np.ndarray, i: int, x: np.ndarray) -> float:
    """``A[i] @ x``, summed in the order of ``x`` from its first entry (every kernel sums a
    row so: the discrete results are reproduced to the last bit)."""
    s = 0.0
    for k in range(x.size):
        s += A[i, k] * x[k]
    return s


@njit(cache=True)
def matvec(A: np.ndarray, diag: bool, x: np.ndarray, out: np.ndarray, sign: float) -> None:
    """Out += sign * A x (A diagonal when ``diag``)."""
    n = x.size
    if diag:
        for i in range(n):
            out[i] += sign * A[i, i] * x[i]
    else:
        for i in range(n):
            out[i] += sign * row_dot(A, i, x)


@njit(cache=True)
def row3(G: np.ndarray, j: int, x: np.ndarray, out: np.ndarray) -> None:
    """Out = G[3j:3j+3] @ x: shock ``j``'s node's global x, y, z."""
    for r in range(3):
        out[r] = row_dot(G, 3 * j + r, x)


@njit(cache=True)
def add_gtf(G: np.ndarray, j: int, F: np.ndarray, out: np.ndarray, scale: float) -> None:
    """Out += scale * G[3j:3j+3]^T F."""
    n = out.size
    for i in range(n):
        out[i] += scale * (G[3 * j, i] * F[0] + G[3 * j + 1, i] * F[1] + G[3 * j + 2, i] * F[2])


@njit(cache=True)
def local_forces(P: np.ndarray, dloc: np.ndarray, vloc: np.ndarray, state: np.ndarray,
                 Floc: np.ndarray, state_new: np.ndarray, Jd_all: np.ndarray,
                 Jv_all: np.ndarray, out: np.ndarray, want_jac: bool, branch: np.ndarray,
                 slip_dir: np.ndarray) -> None:
    """Forces of every shock from local displacements/velocities (3 ns vectors)."""
    ns = P.shape[0]
    F = np.empty(3)
    Jd, Jv = np.empty((3, 3)), np.empty((3, 3))
    for j in range(ns):
        fn, ft, pn, vn = shock_force(P, j, dloc[3 * j:3 * j + 3], vloc[3 * j:3 * j + 3],
                                     state[j], F, state_new[j], Jd, Jv, want_jac, branch[j],
                                     slip_dir[j])
        out[j, 0], out[j, 1], out[j, 2], out[j, 3] = fn, ft, vn, pn
        for c in range(3):
            Floc[3 * j + c] = F[c]
            if want_jac:
                for m in range(3):
                    Jd_all[j, c, m] = Jd[c, m]
                    Jv_all[j, c, m] = Jv[c, m]



class Integrator:
    """State and counters of a discrete time integration.

    Subclasses implement :meth:`from_case` and :meth:`_advance_impl`. To add a scheme:
    derive, set up the state in ``__init__``, make it from a case's ``[solver]`` in
    :meth:`from_case`, advance ``n`` steps in ``_advance_impl``, filling the record buffer,
    and register it under its ``solver.scheme`` name in
    :data:`rocking_contact.discrete.case.SCHEMES` (its keys and ``"module:Class"``; the
    schema's names and :data:`~rocking_contact.discrete.integrators.INTEGRATORS` are made
    from it). What the run says of the scheme
    (:meth:`stability_warning`) and how its impacts are read (:attr:`settle_records`) have
    defaults for an unconditionally stable scheme whose velocities follow the forces of
    their own step.

    Args:
        system: the assembled system.
        dt: time step (s).
        outputs: rows of the basis of the recorded physical dofs (``NODE.DX``...).
        every: record every N steps. Above 1, the shocks are recorded at every step
            around their contacts too (:attr:`contacts`), for the impacts.

    """

    def __init__(self, system: DiscreteSystem, dt: float, outputs: np.ndarray, every: int):
        self.system, self.dt, self.R, self.every = system, dt, np.ascontiguousarray(outputs), every
        ns = len(system.shock_names)
        rubbing = friction_shocks(system.shock_params)
        #: per shock, its place among those with friction (their friction channels,
        #: :func:`.recording.record`), -1 without friction
        self.friction_slots = np.full(ns, -1, dtype=np.int64)
        self.friction_slots[rubbing] = np.arange(len(rubbing))
        # the recorded dofs' x, v, a, the shocks' channels, the friction channels of those
        # with friction, the energy, the step number
        self.n_channels = (3 * self.R.shape[0] + len(SHOCK_CHANNELS) * ns
                           + FRICTION_CHANNELS * len(rubbing) + 2)
        self.step = 0
        self.newton_iterations = 0
        #: Newton iterations that went on because a frozen stick/slip branch did not hold
        self.branch_corrections = 0
        #: steps kept although no stick/slip branch held (the decisions cycled), and the
        #: instant of the first (s)
        self.branch_cycles = 0
        self.first_branch_cycle = 0.0
        self.state = np.zeros((ns, STATE_SIZE))
        G = system.G
        self.P = np.ascontiguousarray(system.shock_params)
        self.G = np.ascontiguousarray(G)
        # Normal rows: Gn[j] @ x is the displacement of shock j's node along its normal
        # (summed as einsum does: system.normal_rows, a matmul, rounds otherwise for an
        # oblique normal)
        self.Gn = np.ascontiguousarray(
            np.einsum("jc,jcn->jn", self.P[:, :3], G.reshape(ns, 3, G.shape[1])))
        #: whether the shocks are recorded at every step around their contacts; the runner
        #: turns it off past MAX_ROWS such rows
        self.contacts = every > 1 and ns > 0
        #: per shock, whether it can open: the contacts recorded are those of such shocks
        self.opens = ~system.always_closed
        self._carry = np.zeros(3 * ns + 3)  # the previous step's contact row (implicit)
        #: FN_, VN_, PN_<shock> and time at every step around the contacts, when recorded
        #: (set by the runner from the chunks' ``contacts``)
        self.contact_history: dict[str, np.ndarray] | None = None
        #: where the recorded mechanical energy first exceeded :data:`.energy.EXCESS` times
        #: its bound, and its largest ratio to the bound and where (s, -, s; set by the
        #: runner), or None
        self.energy_excess: tuple[float, float, float] | None = None

    @classmethod
    def from_case(cls, case: DiscreteCase, system: DiscreteSystem, outputs: np.ndarray,
                  support_acceleration0: float) -> Self:
        """The integrator of ``case`` (its ``[solver]``, ``time.step``, ``output.every``) on
        its assembled ``system``; ``outputs`` as in the class, ``support_acceleration0`` the
        support's acceleration at ``time.start`` (m/s^2)."""
        raise NotImplementedError

    @classmethod
    def stability_warning(cls, system: DiscreteSystem,
                          dt: float) -> tuple[list[str], str, dict[str, Any]]:
        """What a run of this scheme on ``system`` with steps of ``dt`` (s) says before it
        steps about the step's stability, the likely cause of an energy runaway (said if it
        comes) and the ``extra`` values found on the way; here none, and the cause the
        shocks."""
        return [], "the scheme made energy at the shocks", {}

    @property
    def settle_records(self) -> int:
        """How many samples after an unresolved contact its rebound is read, when the
        samples are the steps (:func:`rocking_contact.post.impacts.find_impacts`): the
        first one, the free flight starting at the step after the contact."""
        return 1

    def start_forces(self, x: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The shocks' local forces (3 ns, N) at the initial state ``x``, ``v`` and their
        law's state after it: each shock starts as an open contact (no stored stick force),
        so a closed one carries its normal force and its tangential dashpot only."""
        ns = len(self.system.shock_names)
        d, vloc = self.G @ x, self.G @ v
        state = np.zeros_like(self.state)
        for j in range(ns):
            open_state(d[3 * j:3 * j + 3], self.P[j, :3], state[j])
        forces, state_new = np.zeros(3 * ns), np.zeros_like(state)
        local_forces(self.P, d, vloc, state, forces, state_new,
                      np.zeros((ns, 3, 3)), np.zeros((ns, 3, 3)), np.zeros((ns, 4)), False,
                      np.full(ns, -1, dtype=np.int64), np.zeros((ns, 3)))
        return forces, state_new

    def start_load(self, support_acceleration0: float, forces: np.ndarray) -> np.ndarray:
        """The load on the unknowns at the initial state, ``M a(t0)`` (N): the support's
        acceleration ``support_acceleration0`` (m/s^2) at t0, the constant loads, the springs
        and dampers at ``x0``, ``v0`` and the shocks' local ``forces`` (3 ns, N)."""
        s = self.system
        load: np.ndarray = (s.p_support * support_acceleration0 + s.f_const - s.K @ s.x0
                            - s.C @ s.v0 + s.G.T @ forces)
        return load

    def advance(self, n_steps: int, gam: np.ndarray, final: bool) -> Chunk:
        """Advance ``n_steps`` steps; ``gam`` holds the support acceleration at the
        ``n_steps + 1`` instants t_step .. t_step+n. With ``final``, the state reached is
        recorded too.
        """
        n_rec = (n_steps + 1) // self.every + 2
        rec = np.zeros((n_rec, self.n_channels))
        ns = len(self.system.shock_names)
        # a row per step, and one for the step before a contact: at most n_steps + 2
        srec = np.zeros((n_steps + 2 if self.contacts else 0, 3 * ns + 1))
        r, sr = self._advance_impl(n_steps, np.ascontiguousarray(gam), final, rec, srec)
        self.step += n_steps
        return chunk(rec[:r], srec[:sr].copy())  # (a view would keep every step's row)

    def _advance_impl(self, n_steps: int, gam: np.ndarray, final: bool, rec: np.ndarray,
                      srec: np.ndarray) -> tuple[int, int]:
        raise NotImplementedError

