"""The energy balance of a block run, kept step by step inside the step loop.

From the release (t0) on, with no support moving and gravity counted as a potential, the
only load that works is the drag of a shaking table, and the balance reads

    E(t) - E(t0) + D_damp(t) + E_contact(t) - W_table(t) = 0,   E = E_kin + E_elas + E_grav,

- ``E_kin``, ``E_elas``, ``E_grav``: kinetic, stored elastic and gravity potential energies
  of both bodies (:func:`rocking_contact.fem.probes.energies`);
- ``D_damp``: energy dissipated by the Rayleigh damping, ``int v . f_damp dt``, accumulated
  with the trapezoidal rule on the displacement increments,
  ``1/2 (f_damp,n + f_damp,n+1) . (u_{n+1} - u_n)`` (``f_damp`` assembled alone, once per
  step at its end: :meth:`~rocking_contact.fem.body.ElasticBody.damping_force`);
- ``E_contact``: energy taken from the bodies by the contact forces (friction, impact
  losses, shock springs: stored plus dissipated), minus their work accumulated the same
  way by each contact treatment (``absorbed_energy()``);
- ``W_table``: work of the drag ``-M (ux, uy)`` of a shaking table's frame on the relative
  motion, accumulated the same way (column ``ETABLE``, only when the table shakes).

``ENERGY_RESIDUAL`` is the left-hand side: what the time discretisation itself creates
(positive) or dissipates (negative). It is exactly zero for average acceleration on a
linear system. For another Newmark scheme on a linear body it is the scheme's own terms,
``sum h (gamma - 1/2) <v>.M[a] - h^2 (beta - gamma/2) [a].M<a>`` over the steps
(``[a] = a_n+1 - a_n``, ``<x>`` the step's mean), which need not be negative: over
SDNV105's release at alpha = -0.2 they are +1.1489e-3 J, the residual +1.1490e-3 J
(docs/contact.md, "Energy balance"). Large-rotation kinematics leaves a residual of order
h^2.

:class:`EnergyBalance` is a :class:`~rocking_contact.solvers.step.Contribution` without any
force: it only watches the accepted steps and adds history columns. What a finished run's
history says of the balance (the largest rise of the total energy, the advice) is
:mod:`rocking_contact.post.energy`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from petsc4py import PETSc

from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.probes import energies
from rocking_contact.solvers.step import Contribution, StepProblem


class EnergySource(Protocol):
    """Something that takes energy from the bodies (a contact treatment)."""

    def absorbed_energy(self) -> float:
        """Energy taken since the release (J)."""


class EnergyBalance(Contribution):
    """Damping dissipation and the energy residual of the dynamic phase.

    Args:
        body: the bodies.
        sources: contact treatments whose absorbed energy enters the balance.

    """

    linear = True

    def __init__(self, body: ElasticBody, sources: Sequence[EnergySource] = ()):
        self.body = body
        self.sources = list(sources)
        self.dissipated = 0.0
        self.table_work = 0.0
        self.initial: float | None = None
        self._u0 = np.zeros(body.n_owned)
        self._t0 = 0.0
        self._fd0 = body.vector()
        self._fd1 = body.vector()
        self._recorded_total: float | None = None

    def _start(self, problem: StepProblem) -> None:
        """Energy and damping force of the released state."""
        u, v = problem.u.x.array, problem.v.x.array
        self.initial = energies(self.body, u, v)["ETOT"]
        self._damping_force(u, v, self._fd0)

    def _damping_force(self, u: np.ndarray, v: np.ndarray, out: PETSc.Vec) -> None:
        self.body.set_point(u, v)
        self.body.damping_force(out)

    def begin_step(self, problem: StepProblem) -> None:
        """Remember the start displacement (dynamic steps: the step problem leaves the
        balance out of the static preload's)."""
        if self.initial is None:
            self._start(problem)
        self._u0[:] = problem.arrays[0][:self.body.n_owned]
        self._t0 = problem.t

    def add_residual(self, problem: StepProblem, x: PETSc.Vec, r: PETSc.Vec) -> None:
        """No force."""

    def add_jacobian(self, problem: StepProblem, x: PETSc.Vec, jac: PETSc.Mat) -> None:
        """No force."""

    def accept(self, problem: StepProblem) -> None:
        """Add the step's damping dissipation (trapezoidal rule)."""
        u, v, _ = problem.arrays
        self._damping_force(u, v, self._fd1)
        du = u[:self.body.n_owned] - self._u0
        local = 0.5 * float((self._fd0.array + self._fd1.array) @ du)
        comm = self.body.comm
        # the sum of one term is that term: no pickled reduction (8 us a step) on one rank
        self.dissipated += local if comm.size == 1 else comm.allreduce(local)
        self._fd0, self._fd1 = self._fd1, self._fd0
        self.table_work += self.body.drag_work(self._t0, problem.t, du)

    def destroy(self) -> None:
        """Free the two damping-force vectors (collective)."""
        self._fd0.destroy()
        self._fd1.destroy()

    def record_total(self, total: float) -> None:
        """``E`` (J) of the state whose history row is being built, as that row has it
        (:func:`~rocking_contact.fem.probes.energies` of the same state): the next
        :meth:`residual` takes it instead of assembling the strain energy a second time."""
        self._recorded_total = total

    def residual(self, problem: StepProblem) -> float:
        """``E - E(t0) + D_damp + E_contact - W_table`` at the problem's state (J)."""
        if self.initial is None:
            self._start(problem)
        assert self.initial is not None
        total, self._recorded_total = self._recorded_total, None
        if total is None:
            total = energies(self.body, problem.u.x.array, problem.v.x.array)["ETOT"]
        absorbed = sum(s.absorbed_energy() for s in self.sources)
        return total - self.initial + self.dissipated + absorbed - self.table_work

    def columns(self, problem: StepProblem) -> dict[str, float]:
        """``EDAMP``, ``ENERGY_RESIDUAL`` and, when the table shakes, ``ETABLE`` (J)."""
        out = {"EDAMP": self.dissipated, "ENERGY_RESIDUAL": self.residual(problem)}
        if self.body.shaking:
            out["ETABLE"] = self.table_work
        return out
