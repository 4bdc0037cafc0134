"""The step driver: predictor, solve, accept, or halve the step and retry.

The loop is the same for every scheme and every contact treatment (no branching on the
method inside it): for each step of the time grid,

1. ``problem.begin(t1, scheme)``: stage coefficients, prescribed values, the terms of the
   step (``problem.step_terms``: all in a dynamic step, in a static one those that ask);
2. ``problem.predictor(x)``;
3. ``solver.solve(x)`` (SNES), then each corrector of the problem (condensed contact);
   a converged step that a contribution's optional ``inconsistency(problem)`` finds at odds
   with its law (a reason, the same on every rank) fails like a diverged one;
4. accepted: ``problem.accept(x)``, observers are called (history, fields, progress);
   failed: the step is split in two halves, recursively, at most ``max_halvings`` times;
   a step that fails at the last halving is tried once more after each term's optional
   ``fallback(problem)`` (a description of what it eased, or None: the penalty springs
   keep their status of the step's start), Newton iterations that stalled below
   ``stagnation_rtol`` of their first residual being accepted in that attempt (round-off
   that no halving removes), recorded in ``DriverStats.fallbacks``; then
   :class:`StepFailure` tells the time, the step size and the residual.

With a :class:`Refinement`, a converged step longer than its ``step`` in which a contact
closed or opened (a term's ``contact_changes(problem)``) is not accepted: the same interval
is taken again with small steps, which stay small until ``hold`` after the last change.
Implicit Newmark-type steps with a displacement-level contact constraint create energy when
a contact changes inside a long step (SDNV105 A: a landing in a 2.5 ms step gives the block
13 to 50 J from 7.3 J); hand-placed windows guard only the impacts they foresee.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from mpi4py import MPI

from rocking_contact.solvers.newton import NewtonReport, NewtonSolver
from rocking_contact.solvers.step import StepProblem
from rocking_contact.time.grid import Segment
from rocking_contact.time.stage import Scheme


class StepFailure(RuntimeError):
    """A step that failed after every allowed halving.

    Attributes:
        t: start time of the failed step (s).
        h: size of the last step tried (s).
        residual: last residual norm (N), NaN if unknown.
        reason: the solver's reason.
        halvings: halvings tried before giving up.
        step: number of the failed step (1 for the first step of the run or phase).
        pseudo: ``t`` and ``h`` are a static phase's pseudo-times (no unit), not seconds.

    """

    def __init__(self, t: float, h: float, residual: float, reason: str, halvings: int,
                 step: int, *, pseudo: bool = False):
        self.t, self.h, self.residual, self.reason = t, h, residual, reason
        self.halvings, self.step, self.pseudo = halvings, step, pseudo
        where = (f"from pseudo-time {t:.9g} failed with a pseudo-time step of {h:.3g}"
                 if pseudo else f"from t = {t:.9g} s failed with h = {h:.3g} s")
        super().__init__(f"step {step} {where} after {halvings} halvings (residual "
                         f"{residual:.3e} N, {reason})")

    @classmethod
    def at_release(cls, message: str, *, t: float, h: float, residual: float, reason: str,
                   pseudo: bool = False) -> StepFailure:
        """A failure of the release, before any step: no halving, step 1 from ``t`` with
        the first step's ``h``, saying ``message`` alone (one line: where, what, the
        residual, N) instead of the driver's words about halvings."""
        failure = cls(t, h, residual, reason, 0, 1, pseudo=pseudo)
        failure.args = (message,)
        return failure


@dataclass
class StepInfo:
    """An accepted step.

    Attributes:
        t: its end time (s; a static phase's pseudo-time, no unit).
        h: its size (s, or pseudo-time).
        scheme: the scheme it was taken with.
        iterations: its Newton iterations (1 for a linear solve).
        residual: the last residual norm (N), NaN if not computed (a linear solve).
        depth: how many times the grid's step was halved to get it (0: not halved).

    """

    t: float
    h: float
    scheme: Scheme
    iterations: int
    residual: float
    depth: int


@dataclass
class DriverStats:
    """Counters of a run: accepted steps, Newton iterations, halvings, refined steps and
    the steps taken with the fallback."""

    steps: int = 0
    newton_iterations: int = 0
    halvings: int = 0
    refined: int = 0
    #: steps that converged only in a fallback attempt: (end time (s), what was eased)
    fallbacks: list[tuple[float, str]] = field(default_factory=list)


Observer = Callable[[StepProblem, StepInfo], None]


@dataclass(frozen=True)
class Refinement:
    """Small steps around contact changes (``[time.refine]``).

    Attributes:
        step: largest step in which a contact may close or open (s).
        scheme: the scheme of the small steps.
        hold: how long the steps stay small after the last change (s).

    """

    step: float
    scheme: Scheme
    hold: float

    def refines(self, h: float) -> bool:
        """Whether a step of size ``h`` (s) is longer than the refined step (round-off
        aside)."""
        return h > self.step * (1.0 + 1e-9)


def contact_changes(problem: StepProblem) -> int:
    """Contacts that closed or opened in the step under way, over every term that tells.

    The largest count over the ranks: every rank takes the same decision (the shipped
    terms count the same on every rank already; a term counting its own rows would not).
    """
    count = sum(term.contact_changes(problem) for term in problem.step_terms)
    if problem.comm.size == 1:  # mpi4py's pickled reduction of the one count cost 4 us
        return count
    total: int = problem.comm.allreduce(count, op=MPI.MAX)
    return total


class StepDriver:
    """Advance a :class:`StepProblem` over a time grid.

    Args:
        problem: the state and step equation.
        solver: the SNES of that problem.
        max_halvings: how many times a failed step may be halved (each half may be
            halved again, down to ``h / 2**max_halvings``).
        refine: small steps around contact changes (None: the grid as given).

    Attributes:
        observers: called after every accepted step (none at first: the run appends its
            output, watches and interrupt check once the initial state is recorded).

    """

    def __init__(self, problem: StepProblem, solver: NewtonSolver, *, max_halvings: int = 5,
                 refine: Refinement | None = None):
        self.problem = problem
        self.solver = solver
        self.max_halvings = max_halvings
        self.observers: list[Observer] = []
        self.refine = refine
        self.stats = DriverStats()
        self._x = problem.vector()
        self._small_until = -math.inf

    def destroy(self) -> None:
        """Free the unknown's vector (collective)."""
        self._x.destroy()

    def run(self, steps: Iterable[tuple[float, Scheme]]) -> DriverStats:
        """Take the steps ``(end time, scheme)`` in order from the problem's time."""
        for t1, scheme in steps:
            self.advance(t1, scheme)
        return self.stats

    def advance(self, t1: float, scheme: Scheme, depth: int = 0) -> None:
        """One step to ``t1`` (s) from the problem's time, halved on failure (``depth``:
        halvings so far), refined around contact changes.

        Raises:
            StepFailure: the step failed after ``max_halvings`` halvings and the fallback.

        """
        p = self.problem
        h = t1 - p.t
        r = self.refine
        long_step = r is not None and r.refines(h)
        if long_step and p.t < self._small_until:
            self._refined(t1, depth)
            return
        report = self._attempt(t1, scheme)
        eased = ""
        if not report.converged and depth >= self.max_halvings:
            eased = self._fallback()
            # Once more, unless nothing can change: no fallback, and no stall to accept
            # (a NaN residual is no stall, and the same attempt would fail the same way).
            if eased or math.isfinite(report.residual):
                self.solver.accept_stagnation()
                report = self._attempt(t1, scheme)
            if report.stalled is not None:
                stall = f"Newton stalled at {report.stalled:.1e} of its first residual"
                eased = f"{eased}; {stall}" if eased else stall
            if report.converged:
                self.stats.fallbacks.append((t1, eased))
        if report.converged:
            if r is not None and contact_changes(p):
                self._small_until = max(self._small_until, t1 + r.hold)
                if long_step:
                    self.stats.refined += 1
                    self._refined(t1, depth)
                    return
            p.accept(self._x)
            info = StepInfo(t1, h, scheme, report.iterations, report.residual, depth)
            self.stats.steps += 1
            self.stats.newton_iterations += report.iterations
            for observe in self.observers:
                observe(p, info)
            return
        if depth >= self.max_halvings:
            reason = f"{report.reason}, also with the fallback: {eased}" if eased else report.reason
            raise StepFailure(p.t, h, report.residual, reason, depth, self.stats.steps + 1)
        self.stats.halvings += 1
        self.advance(p.t + h / 2, scheme, depth + 1)
        self.advance(t1, scheme, depth + 1)

    def _fallback(self) -> str:
        """Arm every term's fallback for the next attempt; what they eased ("" if none)."""
        p = self.problem
        eased = []
        for term in p.step_terms:
            what = term.fallback(p)
            if what:
                eased.append(what)
        return "; ".join(eased)

    def _refined(self, t1: float, depth: int) -> None:
        """From the problem's time to ``t1`` in equal steps no longer than the refined step."""
        assert self.refine is not None
        for t in Segment(self.problem.t, t1, self.refine.step, None).times():
            self.advance(float(t), self.refine.scheme, depth)

    def _attempt(self, t1: float, scheme: Scheme) -> NewtonReport:
        """One try of the step to ``t1`` (s): the free step, then each corrector and each
        contribution's consistency check; a rejection is an unconverged report."""
        p = self.problem
        p.begin(t1, scheme)
        p.predictor(self._x)
        report = self.solver.solve(self._x)
        if report.converged:
            for corrector in p.step_terms.correctors:
                if not corrector.correct(p, self.solver, self._x):
                    return NewtonReport(False, report.iterations, report.residual,
                                        f"rejected by {_named(corrector)}")
            for term in p.step_terms.contributions:
                why = term.inconsistency(p)
                if why:
                    return NewtonReport(False, report.iterations, report.residual,
                                        f"rejected by {_named(term)}: {why}")
        return report


def _named(term: object) -> str:
    """What a failure message calls a step term: its ``label`` (a contact treatment's
    words in case-file terms, "the contact treatment 'lagrange'"), else its class name."""
    label = getattr(term, "label", None)
    return label if isinstance(label, str) else type(term).__name__
