"""The energy balance of a block run, step by step.

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
force: it only watches the accepted steps and adds history columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

import numpy as np
from petsc4py import PETSc

from rocking_contact.fem.body import ElasticBody
from rocking_contact.fem.probes import energies
from rocking_contact.solvers.step import Contribution, StepProblem

#: history columns of the balance
COLUMNS = ("EDAMP", "ENERGY_RESIDUAL")

#: A rise of the total energy above its released value larger than this fraction of the
#: energy of the motion is reported as a warning (:func:`summary`: the block's largest
#: kinetic energy or the gravity potential it is released with, whichever is larger; the
#: potential, 7.29 J for SDNV105, so that a run of a few steps, whose kinetic energy is
#: still small, is judged as the whole run is). The shipped SDNV105 runs rise by 3e-7 (A,
#: C) to 1e-5 (B) of it, the 0.02 m meshes by 6e-4 (the corner's ringing in the first
#: release step); an impact taken in a long average-acceleration step gains whole joules
#: (docs/contact.md, "Sensitivity").
RISE_WARNING = 0.01

#: The energy of the motion is at least this fraction of the largest energy term of the run
#: (|EKIN|, |EELAS|, |EPOT_GRAV|, |ESPRING|): a block left at rest has none, and the
#: round-off of its total energy (2.7e-20 J of 2e-4 J for SDNV105's block flat on its
#: springs) was judged against its kinetic energy's 1e-36 J and warned of a rise of
#: 2e18 %. The solvers stop at ~1e-10 of their first residual; 1e-9 leaves a margin.
ROUND_OFF = 1e-9


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
        self._idle = True
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
        """Remember the start displacement (idle during the static preload)."""
        self._idle = problem.static
        if self._idle:
            return
        if self.initial is None:
            self._start(problem)
        self._u0[:] = problem.u.x.array[:self.body.n_owned]
        self._t0 = problem.t

    def add_residual(self, problem: StepProblem, x: PETSc.Vec, r: PETSc.Vec) -> None:
        """No force."""

    def add_jacobian(self, problem: StepProblem, x: PETSc.Vec, jac: PETSc.Mat) -> None:
        """No force."""

    def accept(self, problem: StepProblem) -> None:
        """Add the step's damping dissipation (trapezoidal rule)."""
        if self._idle:
            return
        u, v = problem.u.x.array, problem.v.x.array
        self._damping_force(u, v, self._fd1)
        du = u[:self.body.n_owned] - self._u0
        local = 0.5 * float((self._fd0.array + self._fd1.array) @ du)
        self.dissipated += self.body.comm.allreduce(local)
        self._fd0, self._fd1 = self._fd1, self._fd0
        self.table_work += self.body.drag_work(self._t0, problem.t, du)

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


def summary(history: dict[str, np.ndarray]) -> dict[str, float]:
    """The balance of a run from its history: final terms, largest |residual| (J), the
    residual relative to the kinetic energy peak, the largest rise of the total energy
    above its released value (``ETOT_rise_*``) and above the lowest value it had reached
    before (``ETOT_regain_*``, the springs' store counted) (J, and relative to the energy
    of the motion: the kinetic energy peak or the released gravity potential, whichever is
    larger, and at least :data:`ROUND_OFF` of the largest energy term)."""
    if "ENERGY_RESIDUAL" not in history or not len(history["time"]):
        return {}
    res = np.asarray(history["ENERGY_RESIDUAL"])
    out = {"residual_final": float(res[-1]), "residual_max_abs": float(np.max(np.abs(res)))}
    for name in ("EKIN", "EELAS", "EPOT_GRAV", "ETOT", "EDAMP", "ECONTACT", "EFRICTION",
                 "ESPRING", "ETABLE"):
        if name in history:
            out[f"{name}_final"] = float(history[name][-1])
    if "ETOT" in history:
        # With gravity a potential, only a shaking table's work can raise the total energy
        # above its released value: a rise beyond it is energy created by the numerics (a
        # contact treatment's work is in the residual's balance, so the residual does not
        # show it).
        etot = np.asarray(history["ETOT"])
        if "ETABLE" in history:
            etot = etot - np.asarray(history["ETABLE"])
        rise = etot - etot[0]
        out["ETOT_initial"] = float(etot[0])
        out["ETOT_rise_max"] = float(max(np.max(rise), 0.0))
        out["ETOT_rise_time"] = float(np.asarray(history["time"])[int(np.argmax(rise))])
        # Energy created after impacts took more away stays below the released value: the
        # mechanical energy (the springs' store included: they give it back) may only fall,
        # so any rise above its lowest value so far is the numerics'.
        mechanical = etot + np.asarray(history["ESPRING"]) if "ESPRING" in history else etot
        regain = mechanical - np.minimum.accumulate(mechanical)
        out["ETOT_regain_max"] = float(np.max(regain))
        out["ETOT_regain_time"] = float(np.asarray(history["time"])[int(np.argmax(regain))])
    peak = float(np.max(history["EKIN_BLOCK"])) if "EKIN_BLOCK" in history else 0.0
    if peak > 0:
        out["residual_relative_to_peak_ekin"] = out["residual_max_abs"] / peak
    released = float(history["EPOT_GRAV"][0]) if "EPOT_GRAV" in history else 0.0
    terms = [float(np.max(np.abs(history[n]))) for n in ("EKIN", "EELAS", "EPOT_GRAV",
                                                         "ESPRING") if n in history]
    motion = max(peak, released, ROUND_OFF * max(terms, default=0.0))
    if "ETOT_rise_max" in out and motion > 0:
        out["ETOT_rise_relative"] = out["ETOT_rise_max"] / motion
        out["ETOT_regain_relative"] = out["ETOT_regain_max"] / motion
    return out


class Created(NamedTuple):
    """Energy the time steps created (:func:`created_energy`).

    Attributes:
        energy: the largest rise of the total energy (J).
        time: when it was largest (s).
        relative: ``energy`` over the energy of the motion.
        above: what it rose above: ``its released value`` or ``the lowest value it had
            reached``.

    """

    energy: float
    time: float
    relative: float
    above: str


def created_energy(energy: dict[str, float]) -> Created | None:
    """The energy the steps created, when the total energy rose above its released value,
    or above the lowest value it had reached, by more than :data:`RISE_WARNING` of the
    energy of the motion (a :func:`summary`); None otherwise."""
    for key, above in (("rise", "its released value"),
                       ("regain", "the lowest value it had reached")):
        relative = energy.get(f"ETOT_{key}_relative")
        if relative is not None and relative > RISE_WARNING:
            return Created(energy[f"ETOT_{key}_max"], energy[f"ETOT_{key}_time"], relative,
                           above)
    return None


#: the advice to a theta-scheme run (SDNV105 D), whose velocity-level contact refuses
#: [time.refine]
THETA_ADVICE = "use a smaller time.step (the theta scheme takes no [time.refine])"

#: where the advice is explained: the theta scheme's steps on its own page, the other
#: schemes' sensitivity to their steps and the refinement on the contact page
EXPLAINED = {THETA_ADVICE: "docs/theta.md, 'Steps that create energy'"}
EXPLAINED_ELSE = "docs/contact.md, 'Sensitivity'"


def remedy(scheme: str, contact: bool, refining: bool) -> str:
    """What makes a run's steps create less energy, as advice: a smaller ``time.step``
    always; ``[time.refine]`` (new steps at the contact changes) for a run with contact
    (``contact``) whose scheme takes it, which the theta scheme (``scheme`` ``theta``,
    SDNV105 D) refuses (its velocity-level contact takes contact changes in any step); a
    smaller refined step where it is on already (``refining``)."""
    if scheme == "theta":
        return THETA_ADVICE
    if not contact:
        return "use a smaller time.step"
    if refining:
        return "use a smaller time.step or time.refine.step"
    return "use a smaller time.step, or enable [time.refine]"


def rise_warning(energy: dict[str, float], advice: str) -> str | None:
    """A sentence when the steps created energy (:func:`created_energy`), ending with
    ``advice`` (:func:`remedy`), None otherwise."""
    created = created_energy(energy)
    if created is None:
        return None
    return (f"the total energy rose up to {created.energy:.4g} J above {created.above} "
            f"(largest at t = {created.time:.6g} s, {100 * created.relative:.3g}% of the "
            f"energy of the motion): the time steps created it, do not trust the results "
            f"after it rose; {advice} ({EXPLAINED.get(advice, EXPLAINED_ELSE)})")
