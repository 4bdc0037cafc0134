"""The step driver: predictor, solve, accept, or halve the step and retry.

The loop is the same for every scheme and every contact treatment (no branching on the
method inside it): for each step of the time grid,

1. ``problem.begin(t1, scheme)``: stage coefficients, prescribed values, contributions;
2. ``problem.predictor(x)``;
3. ``solver.solve(x)`` (SNES), then each corrector of the problem (condensed contact);
4. accepted: ``problem.accept(x)``, observers are called (history, fields, progress);
   failed: the step is split in two halves, recursively, at most ``max_halvings`` times,
   then :class:`StepFailure` tells the time, the step size and the residual.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from rocking_contact.solvers.newton import NewtonReport, NewtonSolver
from rocking_contact.solvers.step import StepProblem
from rocking_contact.time.schemes import Scheme


class StepFailure(RuntimeError):
    """A step that failed after every allowed halving.

    Attributes:
        t: start time of the failed step (s).
        h: size of the last step tried (s).
        residual: last residual norm (N), NaN if unknown.
        reason: the solver's reason.

    """

    def __init__(self, t: float, h: float, residual: float, reason: str, halvings: int):
        self.t, self.h, self.residual, self.reason = t, h, residual, reason
        super().__init__(
            f"step from t = {t:.9g} s failed with h = {h:.3g} s after {halvings} halvings "
            f"(residual {residual:.3e} N, {reason})")


@dataclass
class StepInfo:
    """An accepted step: end time, size, scheme, Newton iterations, residual, depth."""

    t: float
    h: float
    scheme: Scheme
    iterations: int
    residual: float
    depth: int


@dataclass
class DriverStats:
    """Counters of a run: accepted steps, Newton iterations, halvings."""

    steps: int = 0
    newton_iterations: int = 0
    halvings: int = 0
    failed_attempts: int = 0
    smallest_step: float = math.inf
    iterations_per_step: list[int] = field(default_factory=list)


Observer = Callable[[StepProblem, StepInfo], None]


class StepDriver:
    """Advance a :class:`StepProblem` over a time grid.

    Args:
        problem: the state and step equation.
        solver: the SNES of that problem.
        max_halvings: how many times a failed step may be halved (each half may be
            halved again, down to ``h / 2**max_halvings``).
        observers: called after every accepted step.

    """

    def __init__(self, problem: StepProblem, solver: NewtonSolver, *, max_halvings: int = 5,
                 observers: Sequence[Observer] = ()):
        self.problem = problem
        self.solver = solver
        self.max_halvings = max_halvings
        self.observers = list(observers)
        self.stats = DriverStats()
        self._x = problem.vector()

    def run(self, steps: Iterable[tuple[float, Scheme]]) -> DriverStats:
        """Take the steps ``(end time, scheme)`` in order from the problem's time."""
        for t1, scheme in steps:
            self.advance(t1, scheme)
        return self.stats

    def advance(self, t1: float, scheme: Scheme, depth: int = 0) -> None:
        """One step to ``t1``, halved on failure."""
        p = self.problem
        h = t1 - p.t
        report = self._attempt(t1, scheme)
        if report.converged:
            p.accept(self._x)
            info = StepInfo(t1, h, scheme, report.iterations, report.residual, depth)
            self.stats.steps += 1
            self.stats.newton_iterations += report.iterations
            self.stats.iterations_per_step.append(report.iterations)
            self.stats.smallest_step = min(self.stats.smallest_step, h)
            for observe in self.observers:
                observe(p, info)
            return
        self.stats.failed_attempts += 1
        if depth >= self.max_halvings:
            raise StepFailure(p.t, h, report.residual, report.reason, depth)
        self.stats.halvings += 1
        self.advance(p.t + h / 2, scheme, depth + 1)
        self.advance(t1, scheme, depth + 1)

    def _attempt(self, t1: float, scheme: Scheme) -> NewtonReport:
        p = self.problem
        p.begin(t1, scheme)
        p.predictor(self._x)
        report = self.solver.solve(self._x)
        if report.converged:
            for corrector in p.correctors:
                if not corrector.correct(p, self.solver, self._x):
                    return NewtonReport(False, report.iterations, report.residual,
                                        f"rejected by {type(corrector).__name__}")
        return report
